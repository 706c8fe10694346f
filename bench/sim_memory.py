"""Benchmark: a simulation worker's memory over thousands of games with the planner.

    python bench/sim_memory.py                  # the planner in play, Countdown 4 players, 5,000 games
    python bench/sim_memory.py --games 600 --every 100
    python bench/sim_memory.py --game fuse --players 3 --policy play

Plays the games one after another in this process, as one worker of ``fuse sim`` does
(``fusegame.sim.batch.play_games``: one policy for the whole batch, the survivors frozen after
each game), and every ``--every`` games prints the process's resident memory (``VmRSS`` in
/proc/self/status) and the games per second so far. At the end: the memory at the first
checkpoint past ``--from`` games and at the last, and the change between them in percent. The aim
is a flat line (within 10%) from game 1,000 to 5,000: the planner's and the cards' memos are
bounded, so a worker's memory stops growing once they are full.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from fusegame import engine_kind
from fusegame.rules.config import GameConfig
from fusegame.sim import get_policy
from fusegame.sim.batch import play_games


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="countdown")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--difficulty", default="standard")
    ap.add_argument("--policy", default="play")
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--every", type=int, default=250)
    ap.add_argument("--from", dest="start", type=int, default=1000,
                    help="the game from which the memory should stay flat")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    config = GameConfig(players=a.players, difficulty=a.difficulty, game=a.game)
    policy = get_policy(a.policy)
    print(f"{a.policy}: {config.describe()}, {a.games} games, {engine_kind()} engine")
    print(f"  {'games':>6}  {'RSS MB':>8}  {'games/s':>8}")
    t0 = time.perf_counter()
    points: list[tuple[int, float]] = []
    done = 0
    while done < a.games:
        n = min(a.every, a.games - done)
        play_games(config, a.seed, policy, None, done, done + n)
        done += n
        points.append((done, rss_mb()))
        print(f"  {done:6d}  {points[-1][1]:8.1f}  {done / (time.perf_counter() - t0):8.2f}", flush=True)
    later = [p for p in points if p[0] >= a.start]
    if len(later) >= 2:
        (g1, m1), (g2, m2) = later[0], later[-1]
        print(f"from game {g1} ({m1:.1f} MB) to game {g2} ({m2:.1f} MB): {100 * (m2 - m1) / m1:+.1f}%")
    else:
        print(f"fewer than two checkpoints past game {a.start}: play more games to judge the line")


if __name__ == "__main__":
    main()
