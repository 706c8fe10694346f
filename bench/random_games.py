"""Benchmark: complete games with the uniformly random legal policy, on one core.

    python bench/random_games.py [--players 4] [--difficulty standard] [--games 300] [--warmup 50]

Prints games per second and microseconds per applied action, after a warm-up batch (card tables
are memoised per process, as in any long simulation run).
"""

from __future__ import annotations

import argparse
import time

from fusegame import GameConfig
from fusegame.sim.batch import game_seed, run_batch
from fusegame.sim.game import play_game
from fusegame.sim.policies import random_policy


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--difficulty", default="standard")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--warmup", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    config = GameConfig(players=args.players, difficulty=args.difficulty)
    run_batch(config, args.warmup, args.seed + 1, random_policy)
    t0 = time.perf_counter()
    results = [play_game(config, game_seed(args.seed, i), random_policy) for i in range(args.games)]
    seconds = time.perf_counter() - t0
    actions = sum(r.actions for r in results)
    wins = sum(r.won for r in results)
    print(f"config: {args.players} players, {args.difficulty}; "
          f"{args.games} games after {args.warmup} warm-up")
    print(f"wins {wins}, mean score {sum(r.score for r in results) / args.games:.2f}, "
          f"mean turns {sum(r.turns for r in results) / args.games:.1f}, "
          f"mean actions {actions / args.games:.0f}")
    print(f"games per second (one core): {args.games / seconds:,.1f}")
    print(f"microseconds per action    : {seconds / actions * 1e6:,.1f}")


if __name__ == "__main__":
    main()
