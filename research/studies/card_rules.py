"""Rules for the card to take after a defusal, each played by the team planner on the same deals.

    python research/studies/card_rules.py --cells 3/standard,3/expert,3/elite --games 400
    python research/studies/card_rules.py --cells 2/elite --rules team,play,fewest_points --games 400 \\
        --start 1000

The team planner makes every other decision; only the choice among the row's cards (or the stack
tops) changes. Game ``i`` of every cell uses ``game_seed(seed, i)`` for every rule, as
bench/winrates.py does. Prints, per cell, each rule's win rate and the deals it won and lost
against the first rule (``team``, the planner as it was). The rules:

- ``team``: the planner's own choice (the easiest card by expected dice, a point worth half a
  die; the hardest once the middle holds no more bombs than there are players)
- ``play``: the smallest card first, as the planner in play takes it (``PLAY_WEIGHTS``, but with
  every card in front of the players counting alike, ``dud_gain=1``): slots plus points, each
  worth 10 dice against its expected dice, with the same end-game rule
- ``easiest``: the fewest expected dice, always
- ``lowest_id``: the first card in sorted order (the built-in ids run from 1 to 6 points)
- ``fewest_points``, ``fewest_slots``: the fewest points (or slots), then the easiest
- ``slots_points``: the fewest slots plus points, then the easiest

Runs in one process (one core); works on either engine (the rules wrap the planner).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import replace

from fusegame.bots.team import PLAY_WEIGHTS, TeamPlanner
from fusegame.memos import freeze_survivors
from fusegame.rng import Rng
from fusegame.rules import defusal
from fusegame.rules.actions import Action, TakeCard
from fusegame.rules.config import GameConfig
from fusegame.rules.state import GameState
from fusegame.sim import Pace, game_seed, play_game

Rule = Callable[[TeamPlanner, GameState, int, list[str]], str]


def _work(p: TeamPlanner, s: GameState, c: str) -> float:
    return p.model(s, c).draws(s.card_rules(c).empty)


def _slots(s: GameState, c: str) -> int:
    return len(s.card_rules(c).empty)


RULES: dict[str, Rule] = {
    "team": lambda p, s, seat, o: p.choose_card(s, seat),
    "play": lambda p, s, seat, o: p.choose_card(s, seat),  # the planner itself takes the smallest
    "easiest": lambda p, s, seat, o: min(o, key=lambda c: (_work(p, s, c), c)),
    "lowest_id": lambda p, s, seat, o: min(o),
    "fewest_points": lambda p, s, seat, o: min(o, key=lambda c: (s.bomb(c).points, _work(p, s, c), c)),
    "fewest_slots": lambda p, s, seat, o: min(o, key=lambda c: (_slots(s, c), _work(p, s, c), c)),
    "slots_points": lambda p, s, seat, o: min(
        o, key=lambda c: (_slots(s, c) + s.bomb(c).points, _work(p, s, c), c)),
}


class RulePolicy:
    """The team planner, with ``rule`` choosing among several cards to take."""

    def __init__(self, name: str) -> None:
        self.rule = RULES[name]
        # only the card taken changes: the rest of the play is the team planner's
        self.planner = TeamPlanner(replace(PLAY_WEIGHTS, dud_gain=1.0) if name == "play" else None)

    def __call__(self, state: GameState, rng: Rng) -> Action:
        for seat, dec in state.to_act().items():
            if dec.kind == "take":
                options = defusal.options(state)
                if len(options) > 1:
                    return TakeCard(seat, state.time_ms, self.rule(self.planner, state, seat, options))
        return self.planner.act(state)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="fuse")
    ap.add_argument("--cells", default="3/standard,3/expert,3/elite",
                    help="PLAYERS/DIFFICULTY, comma-separated")
    ap.add_argument("--rules", default=",".join(RULES),
                    help=f"comma-separated, the baseline first ({', '.join(RULES)})")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--start", type=int, default=0, help="first game index")
    ap.add_argument("--seed", type=int, default=2026)
    a = ap.parse_args()
    names = a.rules.split(",")
    unknown = [n for n in names if n not in RULES]
    if unknown:
        sys.exit(f"card_rules.py: unknown rule {unknown[0]!r} (choose from {', '.join(RULES)})")
    print(f"{a.game}, {a.games} deals a cell from game {a.start}, seed {a.seed}; win % (deals won / lost "
          f"against {names[0]})\n")
    print("| cell | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for cell in a.cells.split(","):
        players, level = cell.split("/")
        config = GameConfig(players=int(players), difficulty=level, game=a.game)
        policies = {n: RulePolicy(n) for n in names}
        won: dict[str, list[bool]] = {n: [] for n in names}
        t0 = time.perf_counter()
        for i in range(a.start, a.start + a.games):
            seed = game_seed(a.seed, i)
            for n in names:
                won[n].append(play_game(config, seed, policies[n], Pace()).won)
            freeze_survivors()
        base = won[names[0]]
        cols = []
        for n in names:
            up = sum(b and not x for x, b in zip(base, won[n]))
            down = sum(x and not b for x, b in zip(base, won[n]))
            cols.append(f"{100 * sum(won[n]) / a.games:.1f} (+{up} / -{down})")
        print(f"| {cell} | " + " | ".join(cols) + " |", flush=True)
        print(f"  {cell}: {time.perf_counter() - t0:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
