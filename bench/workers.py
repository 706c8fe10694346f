"""Benchmark: one batch on one process and on several, in games per second, with the same numbers.

    python bench/workers.py [--policy team] [--players 4] [--difficulty standard] [--games 60]
                            [--seed 1] [--workers 2,4] [--batches 1]

Plays the batch once in this process (a fresh policy, as ``fuse sim --workers 1`` does) and once
per worker count (fresh worker processes, as ``fuse sim --workers N`` does: their start-up and
warm-up are part of the time), prints games per second and the speed-up over one process, and
checks that every statistic but the speed is identical. Exit status 1 if any differs. The worker
counts default to 2, then doubling, up to the number of CPUs. With ``--batches K`` each runner
plays the batch K times, as ``fuse sim`` does over the cells of a matrix: the first batch pays for
starting the workers (and Ray), the later ones ("warm") run on workers that are up and warm. Examples::

    python bench/workers.py                              # team planner, 4 players, Standard, 60 games
    python bench/workers.py --policy greedy --games 600
    python bench/workers.py --workers 2,3,4 --games 120
    python bench/workers.py --ray --workers 2            # also as Ray tasks on a local Ray instance
                                                         # (pip install fusegame[cluster])
    python bench/workers.py --ray --batches 3            # start-up apart from the warm speed

Efficiency is the speed-up divided by the number of workers. Which engine runs (compiled or plain
Python) is printed first: a compiled install runs compiled in every worker and Ray task too.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from fusegame import GameConfig, engine_kind
from fusegame.rules.config import ConfigError
from fusegame.sim.batch import BatchStats, run_batch
from fusegame.sim.parallel import BatchRunner
from fusegame.sim.policies import get_policy


def _counts(spec: str | None) -> list[int]:
    if spec:
        return [int(x) for x in spec.split(",") if x.strip()]
    cpus = os.cpu_count() or 1
    counts, n = [], 2
    while n < cpus:
        counts.append(n)
        n *= 2
    return [*counts, max(2, cpus)]


def _same(a: BatchStats, b: BatchStats) -> bool:
    strip = {"games_per_second"}
    return ({k: v for k, v in a.to_dict().items() if k not in strip}
            == {k: v for k, v in b.to_dict().items() if k not in strip}
            and a.details() == b.details() and a.scores == b.scores)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--policy", default="team", help="random, greedy or team (default team)")
    ap.add_argument("--game", default="fuse", help="fuse, countdown, integrated or epic (default fuse)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--difficulty", default="standard")
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ray", action="store_true",
                    help="also run each worker count as Ray tasks on a local Ray instance started here")
    ap.add_argument("--batches", type=int, default=1,
                    help="batches each runner plays in a row; the later ones are timed as warm (default 1)")
    ap.add_argument("--workers", default=None,
                    help="worker counts to compare with one process, comma-separated (default: 2, "
                         "doubling, up to the CPU count)")
    args = ap.parse_args()
    try:
        config = GameConfig(players=args.players, difficulty=args.difficulty,  # type: ignore[arg-type]
                            game=args.game)  # type: ignore[arg-type]
        policy = get_policy(args.policy)
        counts = _counts(args.workers)
        if args.games < 1 or args.batches < 1 or any(n < 1 for n in counts):
            raise ValueError("--games, --batches and --workers must be at least 1")
    except (ConfigError, ValueError) as e:
        print(f"workers.py: error: {e}", file=sys.stderr)
        return 2

    print(f"{config.describe()}, {args.policy} policy, {args.games} games, seed {args.seed}, "
          f"{os.cpu_count()} CPUs, {engine_kind()} engine")
    start = time.perf_counter()
    base = run_batch(config, args.games, args.seed, policy)
    base_rate = args.games / (time.perf_counter() - start)
    print(f"  1 process : {base_rate:7.2f} games/s   win rate {base.win_rate:.3f}, "
          f"mean score {base.mean_score:.2f}")
    ok = True
    for backend in ("processes", "ray") if args.ray else ("processes",):
        for n in counts:
            rates: list[float] = []
            identical = True
            start = time.perf_counter()
            with BatchRunner(args.policy, workers=n,
                             ray_address="local" if backend == "ray" else None) as runner:
                for _ in range(args.batches):
                    stats = runner.run(config, args.games, args.seed)
                    now = time.perf_counter()
                    rates.append(args.games / (now - start))  # the first: start-up included
                    start = now
                    identical &= _same(base, stats)
            label = f"{n} workers" if backend == "processes" else f"{n} Ray CPUs"
            line = (f"  {label}: {rates[0]:7.2f} games/s   speed-up {rates[0] / base_rate:.2f}x   "
                    f"efficiency {rates[0] / base_rate / n:.0%}")
            if len(rates) > 1:
                warm = sum(rates[1:]) / len(rates[1:])
                line += (f"   warm {warm:7.2f} games/s, speed-up {warm / base_rate:.2f}x, "
                         f"efficiency {warm / base_rate / n:.0%}")
            ok &= identical
            print(f"{line}   statistics {'identical' if identical else 'DIFFER'}")
    return 0 if ok else 1


if __name__ == "__main__":  # worker processes are spawned: they import this file without running it
    sys.exit(main())
