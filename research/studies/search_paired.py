"""Paired comparison of two policies on the same deals, with decision times.

    python research/studies/search_paired.py --cells 3/standard,3/expert,3/elite,4/standard --games 200
    python research/studies/search_paired.py --cells 3/expert --games 100 --policy rollout:4x3 --json out.json
    python research/studies/search_paired.py --cells 3/standard --games 2500 \\
        --policy play:standard_penalty_rate=0.2 --base-from earlier.json

``--base-from`` reads the base's games from an earlier run's ``--json`` (the same game, seed and
cells, deals that cover these), so that only the challenger plays: the base named there, already
played on these deals, need not play them again.

Game ``i`` of every cell uses ``game_seed(seed, i)`` for both policies (as bench/winrates.py
does), so each deal is played once by each policy. Prints, per cell, each policy's win rate with
its 95% Wilson interval, the paired difference in win rate with a 95% interval (normal
approximation over the discordant deals), the deals only one policy won, and the challenger's
decision time per roll: the time of all its calls during one turn, p50 / p99 / max in ms.
Runs in one process (one core).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import rollout  # noqa: F401 (registers the research policy rollout, which --policy may name)

from fusegame.memos import freeze_survivors
from fusegame.rng import Rng
from fusegame.rules.actions import Action
from fusegame.rules.config import GameConfig
from fusegame.rules.state import GameState
from fusegame.sim import Pace, game_seed, get_policy, play_game
from fusegame.sim.policies import Policy
from fusegame.sim.stats import paired_difference, wilson_interval


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] if s else 0.0


class Timed:
    """Wraps a policy and adds up the time of its calls per (game, turn)."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.per_turn: dict[tuple[int, int], float] = {}
        self.game = 0

    def __call__(self, state: GameState, rng: Rng) -> Action:
        t0 = time.perf_counter()
        a = self.policy(state, rng)
        key = (self.game, state.turn)
        self.per_turn[key] = self.per_turn.get(key, 0.0) + (time.perf_counter() - t0) * 1000
        return a


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="fuse")
    ap.add_argument("--cells", default="3/standard,3/expert,3/elite,4/standard",
                    help="comma-separated PLAYERS/DIFFICULTY")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--start", type=int, default=0, help="first game index (to extend a run)")
    ap.add_argument("--base", default="team")
    ap.add_argument("--policy", default="rollout")
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--base-from", type=Path, default=None,
                    help="the base's games from an earlier run's --json, not played again")
    a = ap.parse_args()
    earlier: dict[str, Any] | None = None
    if a.base_from is not None:
        try:
            earlier = json.loads(a.base_from.read_text())
        except (OSError, ValueError) as e:
            raise SystemExit(f"--base-from {a.base_from}: {e}") from None
        if "start" not in earlier:  # a run's first deal was not recorded at first
            raise SystemExit(f"{a.base_from} does not say which deals it holds (no 'start')")
        if (earlier["game"], earlier["seed"]) != (a.game, a.seed):
            raise SystemExit(f"{a.base_from} holds {earlier['game']} games of seed {earlier['seed']}")
        a.base = earlier["base"]
    out: dict[str, Any] = {"base": a.base, "policy": a.policy, "game": a.game, "seed": a.seed,
                           "start": a.start, "pace": "12 s a turn + 1 s a die", "cells": {}}
    print(f"{a.policy} vs {a.base}, {a.game}, {a.games} paired deals a cell, seed {a.seed}\n")
    print(f"| cell | {a.base} win % [95% CI] | {a.policy} win % [95% CI] | paired diff pp [95% CI] "
          "| only base / only new | ms per roll p50 / p99 / max |")
    print("|---|---|---|---|---|---|")
    for cell in a.cells.split(","):
        players, level = cell.split("/")
        config = GameConfig(players=int(players), difficulty=level, game=a.game)
        base = get_policy(a.base) if earlier is None else None  # read, not played, with --base-from
        new = Timed(get_policy(a.policy))
        played: list[int] | None = None
        if earlier is not None:
            at = earlier["start"]
            known = earlier["cells"].get(cell)
            if known is None or not at <= a.start <= a.start + a.games <= at + known["games"]:
                raise SystemExit(f"{a.base_from} does not hold deals {a.start}-"
                                 f"{a.start + a.games - 1} of {cell}")
            played = known["base_won"][a.start - at:a.start - at + a.games]
        wa: list[bool] = []
        wb: list[bool] = []
        for i in range(a.start, a.start + a.games):
            seed = game_seed(a.seed, i)
            # both policies meet deal i; the challenger's clock is read per (game, turn)
            if played is not None:
                wa.append(bool(played[i - a.start]))
            else:
                assert base is not None
                wa.append(play_game(config, seed, base, Pace()).won)
            new.game = i
            wb.append(play_game(config, seed, new, Pace()).won)
            freeze_survivors()
        n = a.games
        only_a = sum(x and not y for x, y in zip(wa, wb))
        only_b = sum(y and not x for x, y in zip(wa, wb))
        d, lo, hi = paired_difference(only_b, only_a, n)
        ca, cb = wilson_interval(sum(wa), n), wilson_interval(sum(wb), n)
        ms = list(new.per_turn.values())
        out["cells"][cell] = {"games": n, "base_wins": sum(wa), "new_wins": sum(wb),
                              "base_ci": ca, "new_ci": cb, "diff": d, "diff_ci": (lo, hi),
                              "only_base": only_a, "only_new": only_b,
                              "base_won": [int(x) for x in wa], "new_won": [int(x) for x in wb],
                              "ms_per_roll": {"p50": pct(ms, .5), "p99": pct(ms, .99), "max": max(ms)}}
        print(f"| {cell} | {100 * sum(wa) / n:.1f} [{100 * ca[0]:.1f}, {100 * ca[1]:.1f}] "
              f"| {100 * sum(wb) / n:.1f} [{100 * cb[0]:.1f}, {100 * cb[1]:.1f}] "
              f"| {100 * d:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}] | {only_a} / {only_b} "
              f"| {pct(ms, .5):.1f} / {pct(ms, .99):.1f} / {max(ms):.1f} |", flush=True)
        if a.json is not None:
            a.json.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
