"""Study: what the cards' memos are worth to the server's frames, by how many states a card keeps.

    python research/studies/frame_memos.py                  # 200 games, limits 1000 100 20 5
    python research/studies/frame_memos.py --games 100 --limits 1000 20

The server's engine lists every seat's moves once a change (``moves_by_seat``, the moves each state
frame carries). It asks each card about the states of the games in play, and each card remembers
the answers (``fusegame.constraints.CompiledCard``) up to ``set_memo_limit`` states. This plays
``--games`` games at once, one random legal move each in turn (the shapes
``bench/server_memory.py`` plays: FUSE 1, 2 and 4 players with modules, Countdown 3 players), lists
the moves after each move, and prints, for each limit (each in a fresh process, so that no memo
of one limit is met by another): the mean, p99, p99.9 and max time of a frame's moves and the most
states the memos of all cards held at once. Findings: ``research/memory.md``.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time

SHAPES = [{"players": 1, "difficulty": "training"}, {"players": 2, "difficulty": "standard"},
          {"players": 3, "game": "countdown", "difficulty": "standard"},
          {"players": 4, "difficulty": "expert", "modules": ["roles", "sparks"]}]


def one(limit: int, games: int) -> str:
    from fusegame.constraints import set_memo_limit
    from fusegame.memos import card_memo_entries
    from fusegame.rules.config import GameConfig
    from fusegame.rules.setup import new_game
    from fusegame.server.room import moves_by_seat

    set_memo_limit(limit)
    live = [new_game(GameConfig.from_dict(SHAPES[k % len(SHAPES)]), 1000 + k) for k in range(games)]
    rng = random.Random(5)
    took: list[float] = []
    most = 0
    while live:
        for st in list(live):
            acts = st.legal_actions() if st.outcome is None else []
            if not acts:
                live.remove(st)
                continue
            st.apply(rng.choice(acts))
            t = time.perf_counter()
            moves_by_seat(st)
            took.append(time.perf_counter() - t)
        most = max(most, card_memo_entries())
    took.sort()
    n = len(took)
    return (f"{limit:6d} states a card: {n} frames, mean {sum(took) / n * 1e6:4.0f} µs, "
            f"p99 {took[int(n * 0.99)] * 1e6:4.0f} µs, p99.9 {took[int(n * 0.999)] * 1e6:5.0f} µs, "
            f"max {took[-1] * 1e3:5.1f} ms; at most {most} states held")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="games at once (default 200)")
    ap.add_argument("--limits", type=int, nargs="+", default=[1000, 100, 20, 5],
                    help="states a card keeps, one run each (default 1000 100 20 5)")
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)  # a single limit, in this process
    args = ap.parse_args()
    if args.one is not None:
        print(one(args.one, args.games), flush=True)
        return 0
    for limit in args.limits:
        run = subprocess.run([sys.executable, __file__, "--one", str(limit), "--games", str(args.games)],
                             check=False)
        if run.returncode:
            return run.returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
