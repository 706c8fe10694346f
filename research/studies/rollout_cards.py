"""The card to take, judged by roll-outs to the end of the game over the planner in play.

    python research/studies/rollout_cards.py --cells 3/expert,3/elite --games 100 --samples 8
    python research/studies/rollout_cards.py --cells 3/expert --games 100 --samples 16 --gate 2
    python research/studies/rollout_cards.py --cells 3/expert,3/elite --games 150 --start 5000 --fit
    python research/studies/rollout_cards.py --cells 3/expert,3/elite --games 100 \\
        --policy play:penalty_after_plan=0

The challenger is the planner in play (``play``, or the planner ``--policy`` names) except for
the card a seat takes after a defusal. There every card on offer is played out ``--samples``
times to the end of the game, in sampled futures (``rollout.determinise``: the face-down
cards shuffled and the game's generator reseeded, so the roll-outs never read the real future;
every card meets the same futures), with the same planner making every decision after it. A
card's value is the share of its roll-outs won (a lost one counts the work still needed, a
little, so that the nearer losses rank higher). With ``--gate T`` the challenger leaves the
planner's card only for one whose paired difference over the futures has a t statistic above
``T``.

Prints, per cell, both policies' wins on the same deals (game ``i`` of a cell uses
``game_seed(seed, i)`` for both), then what the roll-outs say about every card choice the
challenger met: the share of its futures a card won, against the mean of the cards on offer, by
the card's rank in the row by size (slots plus points) and by expected dice, and for the card the
planner in play would take. ``--out`` writes every choice (the cards, their features and their
roll-out wins); ``--fit`` fits a linear ranker of the cards to those wins on three quarters of the
games and says what it would gain over the planner's card on the other quarter (needs numpy:
``pip install -e .[rl]``). Runs in one process (one core).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from rollout import WIN_BONUS, SearchBudget, SearchPolicy

from fusegame.bots.team import PLAY_WEIGHTS, TeamPlanner, Weights, card_size
from fusegame.memos import freeze_survivors
from fusegame.rng import Rng
from fusegame.rules.actions import TakeCard
from fusegame.rules.config import GameConfig
from fusegame.rules.state import GameState
from fusegame.sim import Pace, game_seed, get_policy, play_game

#: the features of a card on offer the ranker weighs, and the facts of the position it crosses
#: them with
CARD = ("work", "points", "slots", "fit", "rank_work", "rank_size")
POSITION = ("late", "left", "time", "other")


class RolloutCards(SearchPolicy):
    """The planner in play, with the card to take chosen by roll-outs to the end of the game."""

    def __init__(self, samples: int, gate: float, weights: Weights = PLAY_WEIGHTS) -> None:
        super().__init__(SearchBudget(samples=samples, horizon=10_000), weights)
        self.gate = gate
        self.game = 0
        self.choices: list[dict[str, Any]] = []

    def choose_card(self, state: GameState, seat: int, options: list[str], rng: Rng) -> str:
        seeds = [rng.next64() for _ in range(self.budget.samples)]
        mine = self.base.choose_card(state, seat)
        cards = [mine] + sorted(c for c in options if c != mine)
        values = {c: [self.rollout(state, TakeCard(seat, state.time_ms, c), s) for s in seeds]
                  for c in cards}
        best, best_gain = mine, 0.0
        for c in cards[1:]:
            diff = [x - y for x, y in zip(values[c], values[mine])]
            gain = sum(diff) / len(diff)
            if gain > best_gain and _t(diff) > self.gate:
                best, best_gain = c, gain
        position, rows = features(self, state, seat, options)
        for r in rows:
            r["wins"] = sum(v > 0 for v in values[r["card"]]) / len(seeds)
            r["planner"] = int(r["card"] == mine)
            r["taken"] = int(r["card"] == best)
        self.choices.append({"game": self.game, "turn": state.turn, "seat": seat,
                             "position": position, "cards": rows})
        return best

    def value(self, g: GameState) -> float:
        """A win, or a loss less the work still needed (the nearer losses rank higher)."""
        if g.outcome is not None:
            return WIN_BONUS if g.outcome.won else -WIN_BONUS - self.work_left(g)
        return -self.work_left(g)


def _t(diff: list[float]) -> float:
    """The paired t statistic of ``diff`` (infinite where every future agrees it is better)."""
    n = len(diff)
    m = sum(diff) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in diff) / max(1, n - 1))
    if sd == 0:
        return math.inf if m > 0 else 0.0
    return m / (sd / math.sqrt(n))


def features(p: SearchPolicy, state: GameState, seat: int, options: list[str]
             ) -> tuple[dict[str, float], list[dict[str, Any]]]:
    """The position's facts and each card's, as the ranker sees them."""
    base = p.base
    work = {c: base.model(state, c).draws(state.card_rules(c).empty) for c in options}
    size = {c: card_size(state, c) for c in options}
    other = sum(base.model(state, hc.card).draws(hc.key) for hc in state.hands[seat] if not hc.complete)
    position = {"late": float(base.late_in_game(state)), "left": base.bombs_left(state) / 25,
                "time": state.time_ms / 600_000, "other": other / 20}
    by_work, by_size = sorted(work.values()), sorted(size.values())
    top = max(1, len(options) - 1)
    rows = [{"card": c, "work": work[c], "points": state.bomb(c).points,
             "slots": len(state.card_rules(c).empty),
             "fit": base.model(state, c).fit(state.card_rules(c).empty),
             "rank_work": by_work.index(work[c]) / top, "rank_size": by_size.index(size[c]) / top}
            for c in options]
    return position, rows


def ranker_inputs(position: dict[str, float], card: dict[str, Any]) -> list[float]:
    """The card's features, and each crossed with the position's facts."""
    f = [float(card[k]) for k in CARD]
    return f + [x * position[k] for x in f for k in POSITION]


def what_rollouts_say(choices: list[dict[str, Any]]) -> None:
    """The share of futures won by a card against the mean card on offer, by its rank."""
    by_size: dict[float, list[float]] = defaultdict(list)
    by_work: dict[float, list[float]] = defaultdict(list)
    planner: list[float] = []
    late: list[tuple[float, float]] = []
    for ch in choices:
        wins = [c["wins"] for c in ch["cards"]]
        mean = sum(wins) / len(wins)
        for c in ch["cards"]:
            by_size[round(c["rank_size"] * 4) / 4].append(c["wins"] - mean)
            by_work[round(c["rank_work"] * 4) / 4].append(c["wins"] - mean)
            if c["planner"]:
                planner.append(c["wins"] - mean)
        if ch["position"]["late"]:
            ranked = sorted(ch["cards"], key=lambda c: c["rank_work"])
            late.append((ranked[0]["wins"] - mean, ranked[-1]["wins"] - mean))

    def line(xs: list[float]) -> str:
        m = sum(xs) / len(xs)
        sd = math.sqrt(sum((x - m) ** 2 for x in xs) / max(1, len(xs) - 1))
        return f"{100 * m:+.1f} ± {196 * sd / math.sqrt(len(xs)):.1f} points (n={len(xs)})"

    print(f"  card choices: {len(choices)}; win chance of a card against the mean card on offer:")
    print(f"  - the planner's card: {line(planner)}")
    for name, table in (("size (slots plus points)", by_size), ("expected dice", by_work)):
        for k in sorted(table):
            print(f"  - rank {k:.2f} by {name} (0 the smallest or easiest): {line(table[k])}")
    if late:
        print(f"  - late in the game: the easiest card {line([e for e, _ in late])}, "
              f"the hardest {line([h for _, h in late])}")


def fit(choices: list[dict[str, Any]]) -> None:
    """A ridge ranker of the cards fitted to the roll-out wins on 3/4 of the games, and its gain
    over the planner's card on the other quarter (wins of the futures, in points)."""
    import numpy as np

    games = sorted({ch["game"] for ch in choices})
    held = set(random.Random(0).sample(games, len(games) // 4))

    def centred(ch: dict[str, Any]) -> tuple[Any, Any]:
        x = np.array([ranker_inputs(ch["position"], c) for c in ch["cards"]])
        y = np.array([c["wins"] for c in ch["cards"]])
        return x - x.mean(0), y - y.mean()

    train = [centred(ch) for ch in choices if ch["game"] not in held]
    x = np.vstack([a for a, _ in train])
    y = np.concatenate([b for _, b in train])
    scale = x.std(0) + 1e-9
    for ridge in (1.0, 100.0):
        xn = x / scale
        beta = np.linalg.solve(xn.T @ xn + ridge * np.eye(x.shape[1]), xn.T @ y) / scale
        gains = []
        for ch in choices:
            if ch["game"] in held:
                xc, _ = centred(ch)
                pick = int(np.argmax(xc @ beta))
                mine = [c["planner"] for c in ch["cards"]].index(1)
                gains.append(ch["cards"][pick]["wins"] - ch["cards"][mine]["wins"])
        g = np.array(gains)
        print(f"  ranker (ridge {ridge:g}), {len(g)} held-out choices: it takes another card than "
              f"the planner in {100 * np.mean(g != 0):.0f}%, gain {100 * g.mean():+.1f} "
              f"± {196 * g.std() / math.sqrt(len(g)):.1f} points of win chance a choice")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="fuse")
    ap.add_argument("--cells", default="3/expert,3/elite", help="comma-separated PLAYERS/DIFFICULTY")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--start", type=int, default=0, help="first game index")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--samples", type=int, default=8, help="futures a card is played out in")
    ap.add_argument("--gate", type=float, default=-math.inf,
                    help="leave the planner's card only where the t statistic passes this")
    ap.add_argument("--out", type=Path, default=None, help="write every card choice here (JSON lines)")
    ap.add_argument("--fit", action="store_true", help="fit a linear ranker to the roll-outs")
    ap.add_argument("--policy", default="play",
                    help="the planner compared and under the roll-outs (play, play:NAME=VALUE,...)")
    a = ap.parse_args()
    planner = get_policy(a.policy)
    if not isinstance(planner, TeamPlanner):
        ap.error(f"--policy {a.policy}: the roll-outs need a planner (play, team, or with weights)")
    print(f"{a.policy}, and {a.policy} with the card chosen by {a.samples} roll-outs to the end"
          f"{f' (t > {a.gate:g})' if a.gate > -math.inf else ''}; {a.game}, deals "
          f"{a.start}-{a.start + a.games - 1}, seed {a.seed}")
    everything: list[dict[str, Any]] = []
    for cell in a.cells.split(","):
        players, level = cell.split("/")
        config = GameConfig(players=int(players), difficulty=level, game=a.game)
        base = get_policy(a.policy)
        wins = [0, 0]
        only = [0, 0]
        choices: list[dict[str, Any]] = []
        t0 = time.perf_counter()
        for i in range(a.start, a.start + a.games):
            seed = game_seed(a.seed, i)
            new = RolloutCards(a.samples, a.gate, planner.w)
            new.game = i
            x = play_game(config, seed, base, Pace()).won
            y = play_game(config, seed, new, Pace()).won
            freeze_survivors()
            wins[0] += x
            wins[1] += y
            only[0] += x and not y
            only[1] += y and not x
            for ch in new.choices:
                ch["cell"] = cell
            choices += new.choices
        changed = sum(1 for ch in choices for c in ch["cards"] if c["taken"] and not c["planner"])
        print(f"\n{cell}: {a.policy} {wins[0]}, roll-outs {wins[1]} of {a.games} (deals only one won: "
              f"{only[0]} / {only[1]}); another card than the planner's in {changed} of "
              f"{len(choices)} choices; {time.perf_counter() - t0:.0f} s")
        what_rollouts_say(choices)
        everything += choices
    if a.out is not None:
        a.out.write_text("".join(json.dumps(ch) + "\n" for ch in everything))
    if a.fit:
        print("\nall cells:")
        fit(everything)


if __name__ == "__main__":
    main()
