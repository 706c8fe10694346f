"""Benchmark: what writing a room's move down costs the game's event loop.

    python bench/room_writes.py                                  # SQLite in a temporary folder
    python bench/room_writes.py --db postgresql://fuse@127.0.0.1/fuse --moves 3000

Each move of a game in play is one row appended to ``room_actions`` (``Storage.append_action``)
before its frames are built; when the seats change with it (a bot takes a turn for a person) the
room's row is updated in the same transaction. This times ``--moves`` of each kind, one after the
other as the pipeline makes them, spread over ``--rooms`` rooms, and prints the median, 90th and
99th percentiles and the worst, in microseconds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime

from fusegame import GameConfig
from fusegame.server.lobby import options_to_stored
from fusegame.server.options import RoomOptions
from fusegame.server.storage import Storage, StoredRoom


def pct(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(p / 100 * len(s)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", help="a database URL (default: SQLite in a temporary folder)")
    ap.add_argument("--moves", type=int, default=5000)
    ap.add_argument("--rooms", type=int, default=50)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="fuse-writes-") as tmp:
        url = args.db or f"sqlite:///{tmp}/writes.db"
        with Storage(url) as storage:
            seats = [{"kind": "human", "name": f"P{i}", "token": f"t{i}", "ready": True, "autoplay": False,
                      "played": "person"} for i in range(4)]
            stamp = int(time.time())
            codes = [f"W{stamp % 10**6:06d}{r:05d}" for r in range(args.rooms)]
            options = options_to_stored(RoomOptions(GameConfig(players=4)))
            for code in codes:
                storage.save_room(StoredRoom(code, "playing", options, 7, seats, datetime.now(UTC)))
            print(f"{url}: {args.moves} moves of each kind over {args.rooms} rooms, microseconds")
            print(f"{'':<28}{'p50':>8}{'p90':>8}{'p99':>8}{'max':>8}")
            index = [0] * args.rooms
            for label, with_seats in (("a move", False), ("a move and the seats", True)):
                times = []
                for i in range(args.moves):
                    r = i % args.rooms
                    t0 = time.perf_counter()
                    storage.append_action(codes[r], index[r], f"p{i % 4} place d{i % 25} F12 s1 @{1000 + i}",
                                          seats=seats if with_seats else None)
                    times.append((time.perf_counter() - t0) * 1e6)
                    index[r] += 1
                print(f"{label:<28}{statistics.median(times):>8.0f}{pct(times, 90):>8.0f}"
                      f"{pct(times, 99):>8.0f}{max(times):>8.0f}")
            for code in codes:
                storage.delete_room(code)
    return 0


if __name__ == "__main__":
    sys.exit(main())
