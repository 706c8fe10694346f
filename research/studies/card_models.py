"""What solving the cards exactly costs: the cards left to roll-outs, the states, time and memory.

    python research/studies/card_models.py                     # budgets 400, 3000 and 20000, both games
    python research/studies/card_models.py --budgets 400,3000 --game fuse --cards F04,F49
    python research/studies/card_models.py --budgets 3000 --game fuse --penalty 0.1   # play at Standard

For each budget (``bots.value.CardModel``'s ``exact_budget``, ``Weights.exact_states`` in the
planner), builds the model of work of every bomb and spark card of a game from nothing, in one
process, and prints the cards left "big" (estimated by roll-outs), the states the models hold,
the seconds it took (the first time a planner meets every card), the slowest card, and the memory
the models keep (the growth of the process's resident set once the cards' legality memos are
emptied). ``--penalty`` builds the models that count the unused-dice penalty at that chance a die
(the planner in play's at FUSE Standard, ``Weights.standard_penalty_rate``). With
``--cards`` it also prints those cards' expected dice from empty under each budget and solved
with no limit. Each budget runs in a fresh process, so no model is shared between them.
"""

from __future__ import annotations

import argparse
import gc
import json
import subprocess
import sys
import time
from typing import Any


def _resident_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 1e6


def measure(game: str, budget: int, cards: list[str], penalty: float = 0.0) -> dict[str, Any]:
    """Build every card model of ``game`` with ``budget`` in this process and say what it cost."""
    from fusegame.bots.value import CardModel, type_weights
    from fusegame.cards.catalogue import builtin_catalogue
    from fusegame.rules.config import GameConfig
    from fusegame.rules.state import compiled, new_game

    config = GameConfig(game=game, players=3)  # type: ignore[arg-type]  # the enum takes its name
    dice = new_game(config, 1).dice
    weights = tuple(type_weights(dice))
    ids = {b.id for b in config.playable.bombs} | {s.id for s in config.playable.sparks}
    catalogue = builtin_catalogue()
    before = _resident_mb()
    start = time.perf_counter()
    models = []
    big: list[str] = []
    states = 0
    slowest = (0.0, "")
    for card in catalogue.bombs + catalogue.sparks:
        if card.id not in ids:
            continue
        rules = compiled(card, dice.types_in_play, True)
        if rules.completion() is None:
            continue
        t = time.perf_counter()
        m = CardModel(card.id, rules, weights, exact_budget=budget, penalty=penalty)
        slowest = max(slowest, (time.perf_counter() - t, card.id))
        models.append(m)
        states += m.states
        if m.big:
            big.append(card.id)
        rules.forget()  # the legality memos are bounded on their own (set_memo_limit)
    seconds = time.perf_counter() - start
    gc.collect()
    grown = _resident_mb() - before
    work = {}
    for m in models:
        if m.card_id in cards:
            exact = CardModel(m.card_id, m.rules, weights, exact_budget=10**7)
            work[m.card_id] = (round(m.draws(m.rules.empty), 2), round(exact.draws(m.rules.empty), 2))
    return {"game": game, "budget": budget, "cards": len(models), "big": big, "states": states,
            "seconds": round(seconds, 1), "slowest": (slowest[1], round(slowest[0] * 1000)),
            "memory_mb": round(grown), "work": work}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--budgets", default="400,3000,20000", help="exact budgets, comma-separated")
    ap.add_argument("--game", choices=("fuse", "countdown", "both"), default="both")
    ap.add_argument("--cards", default="F04,F49", help="cards whose expected dice to print")
    ap.add_argument("--penalty", type=float, default=0.0,
                    help="the chance a die that a penalty die follows, in the models (0: none)")
    ap.add_argument("--one", help=argparse.SUPPRESS)  # GAME:BUDGET, run in a child process
    args = ap.parse_args()
    cards = [c for c in args.cards.split(",") if c]
    if not 0.0 <= args.penalty < 1.0:
        sys.exit(f"--penalty: a chance from 0 up to 1, not {args.penalty}")
    if args.one:
        game, budget = args.one.split(":")
        print(json.dumps(measure(game, int(budget), cards, args.penalty)))
        return
    try:
        budgets = [int(b) for b in args.budgets.split(",")]
    except ValueError:
        sys.exit(f"--budgets: write whole numbers separated by commas, not {args.budgets!r}")
    games = ("fuse", "countdown") if args.game == "both" else (args.game,)
    print("| game | exact budget | cards | left to roll-outs | states held | seconds to build "
          "| the slowest card | memory kept |")
    print("|---|---|---|---|---|---|---|---|")
    notes = []
    for game in games:
        for budget in budgets:
            out = subprocess.run([sys.executable, __file__, "--one", f"{game}:{budget}",
                                  "--cards", args.cards, "--penalty", str(args.penalty)],
                                 capture_output=True, text=True, check=True)
            r = json.loads(out.stdout)
            card, ms = r["slowest"]
            print(f"| {game} | {budget:,} | {r['cards']} | {len(r['big'])} | {r['states']:,} | "
                  f"{r['seconds']} | {card}, {ms} ms | +{r['memory_mb']} MB |", flush=True)
            for card, (now, exact) in r["work"].items():
                notes.append(f"{game} {card}, budget {budget:,}: {now} dice from empty "
                             f"(solved exactly: {exact})")
    for n in notes:
        print(n)


if __name__ == "__main__":
    main()
