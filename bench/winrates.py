"""Win rate and mean score by player count and difficulty, for one policy, at the default pace.

    python bench/winrates.py --policy team --game fuse --games 1000 --out winrates-team-fuse.json
    python bench/winrates.py --policy greedy --game countdown --games 1000

Cells are players x difficulty: FUSE 1-5 x training..insane, Countdown 1-4 x training..heroic.
Game ``i`` of every cell uses ``game_seed(seed, i)``, so policies meet the same deals. Games run in
``--workers`` processes, a chunk of consecutive games per task (the team planner's caches warm up
within a process). Finished cells are saved to ``--out`` as they complete, and a rerun with the
same file skips them, so a long table can be built in several sittings. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from fusegame.rules.config import GameConfig
from fusegame.sim import Pace, game_seed, get_policy, play_game
from fusegame.sim.stats import wilson_interval

LEVELS = {"fuse": ["training", "standard", "expert", "elite", "insane"],
          "countdown": ["training", "standard", "expert", "elite", "heroic"]}
PLAYERS = {"fuse": [1, 2, 3, 4, 5], "countdown": [1, 2, 3, 4]}


def _chunk(args: tuple[str, str, int, str, int, int, int]) -> tuple[str, list[tuple[int, bool, int]]]:
    game, policy_name, players, level, seed, start, stop = args
    config = GameConfig(players=players, difficulty=level, game=game)
    policy = get_policy(policy_name)
    pace = Pace()
    out = []
    for i in range(start, stop):
        r = play_game(config, game_seed(seed, i), policy, pace)
        out.append((i, r.won, r.score))
    return f"{players}/{level}", out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--policy", default="team")
    ap.add_argument("--game", default="fuse", choices=sorted(LEVELS))
    ap.add_argument("--games", type=int, default=1000, help="games per cell")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--chunk", type=int, default=100, help="games per task")
    ap.add_argument("--players", default="", help="comma-separated subset, e.g. 1,4")
    ap.add_argument("--out", type=Path, default=None)
    a = ap.parse_args()
    players = [int(p) for p in a.players.split(",")] if a.players else PLAYERS[a.game]
    done: dict[str, Any] = {}
    if a.out is not None and a.out.exists():
        done = json.loads(a.out.read_text())["cells"]
    tasks = []
    for p in players:
        for lv in LEVELS[a.game]:
            key = f"{p}/{lv}"
            if key in done and done[key]["games"] >= a.games:
                continue
            for start in range(0, a.games, a.chunk):
                tasks.append((a.game, a.policy, p, lv, a.seed, start, min(a.games, start + a.chunk)))
    results: dict[str, list[tuple[int, bool, int]]] = {}
    need = {f"{t[2]}/{t[3]}": 0 for t in tasks}
    for t in tasks:
        need[f"{t[2]}/{t[3]}"] += t[6] - t[5]
    t0 = time.perf_counter()
    finished = 0
    with ProcessPoolExecutor(max_workers=a.workers) as pool:
        futures = [pool.submit(_chunk, t) for t in tasks]
        for f in as_completed(futures):
            key, rows = f.result()
            results.setdefault(key, []).extend(rows)
            finished += len(rows)
            if len(results[key]) == need[key]:
                rows_all = sorted(results[key])
                n = len(rows_all)
                wins = sum(r[1] for r in rows_all)
                scores = [r[2] for r in rows_all]
                mean = sum(scores) / n
                sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / (n - 1)) if n > 1 else 0.0
                half = 1.96 * sd / math.sqrt(n)
                done[key] = {"games": n, "wins": wins, "win_rate": wins / n,
                             "win_rate_ci": wilson_interval(wins, n), "mean_score": mean,
                             "mean_score_ci": (mean - half, mean + half)}
                if a.out is not None:
                    a.out.write_text(json.dumps({"policy": a.policy, "game": a.game, "seed": a.seed,
                                                 "pace": "12 s a turn + 1 s a die", "cells": done}, indent=1))
            print(f"\r{finished}/{sum(need.values())} games, {time.perf_counter() - t0:.0f} s",
                  end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    levels = LEVELS[a.game]
    print(f"{a.policy} policy, {a.game}: win rate % (mean score)\n")
    print("| players | " + " | ".join(levels) + " |")
    print("|---|" + "---|" * len(levels))
    for p in players:
        cells = []
        for lv in levels:
            c = done.get(f"{p}/{lv}")
            cells.append(f"{100 * c['win_rate']:.1f} ({c['mean_score']:.1f})" if c else "-")
        print(f"| {p} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
