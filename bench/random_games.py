"""Benchmark: complete games with the uniformly random legal policy, on one core.

    python bench/random_games.py [--game fuse|countdown|integrated|epic] [--modules roles,sparks]
                                 [--players 4] [--difficulty standard] [--games 300] [--warmup 50]

Prints games per second, actions per game and microseconds per applied action, after a warm-up
batch (card tables are memoised per process, as in any long simulation run). Examples::

    python bench/random_games.py                                   # FUSE, 4 players, Standard
    python bench/random_games.py --game countdown                  # Countdown, 4 players, Standard
    python bench/random_games.py --game epic --players 9 --games 100
    python bench/random_games.py --modules roles,sparks,split-dice
"""

from __future__ import annotations

import argparse
import sys
import time

from fusegame import GameConfig
from fusegame.rules.config import ConfigError
from fusegame.sim.batch import game_seed, run_batch
from fusegame.sim.game import play_game
from fusegame.sim.policies import random_policy


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="fuse", help="fuse, countdown, integrated or epic (default fuse)")
    ap.add_argument("--modules", action="append", default=[],
                    help="Countdown modules for FUSE, comma-separated or repeated "
                         "(roles, bombs, fuses, sparks, split-dice)")
    ap.add_argument("--players", type=int, default=None,
                    help="players (default 4; 6 for an epic game)")
    ap.add_argument("--difficulty", default="standard")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--warmup", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    players = args.players if args.players is not None else (6 if args.game == "epic" else 4)
    modules = tuple(m for arg in args.modules for m in arg.replace(",", " ").split())
    try:
        config = GameConfig(players=players, difficulty=args.difficulty, game=args.game,  # type: ignore[arg-type]
                            modules=modules)  # type: ignore[arg-type]
    except ConfigError as e:
        print(f"random_games.py: {e}", file=sys.stderr)
        return 2
    if args.warmup:
        run_batch(config, args.warmup, args.seed + 1, random_policy)
    t0 = time.perf_counter()
    results = [play_game(config, game_seed(args.seed, i), random_policy) for i in range(args.games)]
    seconds = time.perf_counter() - t0
    actions = sum(r.actions for r in results)
    wins = sum(r.won for r in results)
    print(f"config: {config.describe()}, {len(config.dice_set)} dice; "
          f"{args.games} games after {args.warmup} warm-up")
    print(f"wins {wins}, mean score {sum(r.score for r in results) / args.games:.2f}, "
          f"mean turns {sum(r.turns for r in results) / args.games:.1f}")
    print(f"games per second (one core): {args.games / seconds:,.1f}")
    print(f"actions per game           : {actions / args.games:,.1f}")
    print(f"microseconds per action    : {seconds / actions * 1e6:,.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
