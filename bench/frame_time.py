"""Benchmark: what a room's state frame costs the server, at every change of a game.

A room builds one state frame at every change (a placement, a turn's end, a bot's move): the view
that every socket of the table shares, each seat's moves, and both encoded as JSON
(``fusegame.server.room``: ``public_view``, ``moves_by_seat``, ``dumps``). Under load this is
most of the server's own work beside the sockets (``bench/ws_latency.py``), so this benchmark
times it alone, on one core, away from the noise of sockets and of other processes.

For each table shape (the players' four-seat FUSE, and the shapes of ``bench/ws_latency.py``'s
rooms of bots), ``--games`` games are played by random legal moves, and every position they pass
through is timed once, in order, as a room meets it; the engine's memos are bounded as the server
bounds them (``ENGINE_MEMO_STATES``). Prints the mean and p99 microseconds of each part, and the
frame's size.

    python bench/frame_time.py [--games 20] [--seed 1] [--json]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
from typing import Any

from fusegame.constraints import set_memo_limit
from fusegame.rules.config import GameConfig
from fusegame.rules.setup import new_game
from fusegame.rules.state import GameState
from fusegame.server.lobby import ENGINE_MEMO_STATES
from fusegame.server.room import dumps, moves_by_seat, public_view

SHAPES: list[tuple[str, dict[str, Any]]] = [
    ("FUSE 4 players", {"players": 4, "difficulty": "standard"}),
    ("FUSE 5 players", {"players": 5, "difficulty": "standard"}),
    ("FUSE 4, roles and sparks", {"players": 4, "difficulty": "expert", "modules": ["roles", "sparks"]}),
    ("Countdown 4 players", {"players": 4, "game": "countdown", "difficulty": "standard"}),
]
PARTS = ("view_us", "moves_us", "encode_us", "frame_us")
MAX_STEPS = 600  #: a game of random moves that has not ended by then is cut short


def positions(cfg: GameConfig, seed: int) -> list[GameState]:
    """Every position a game of random legal moves passes through (copies)."""
    g = new_game(cfg, seed)
    rng = random.Random(seed)
    out = [g.clone()]
    while g.outcome is None and len(out) < MAX_STEPS:
        legal = g.legal_actions()
        if not legal:
            break
        g.apply(rng.choice(legal))
        out.append(g.clone())
    return out


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def time_shape(cfg: GameConfig, games: int, seed: int) -> dict[str, Any]:
    view_us: list[float] = []
    moves_us: list[float] = []
    encode_us: list[float] = []
    sizes: list[int] = []
    for k in range(games):
        for g in positions(cfg, seed * 1000 + k):
            t0 = time.perf_counter()
            view = public_view(g)
            t1 = time.perf_counter()
            moves = moves_by_seat(g) if g.outcome is None else {}
            t2 = time.perf_counter()
            text = dumps(view)
            parts = [dumps(m) for m in moves.values()]
            t3 = time.perf_counter()
            view_us.append((t1 - t0) * 1e6)
            moves_us.append((t2 - t1) * 1e6)
            encode_us.append((t3 - t2) * 1e6)
            sizes.append(len(text) + (max(len(p) for p in parts) if parts else 0))
    total = [a + b + c for a, b, c in zip(view_us, moves_us, encode_us, strict=True)]
    return {"positions": len(total),
            "view_us": {"mean": sum(view_us) / len(view_us), "p99": percentile(view_us, 0.99)},
            "moves_us": {"mean": sum(moves_us) / len(moves_us), "p99": percentile(moves_us, 0.99)},
            "encode_us": {"mean": sum(encode_us) / len(encode_us), "p99": percentile(encode_us, 0.99)},
            "frame_us": {"mean": sum(total) / len(total), "p99": percentile(total, 0.99)},
            "frame_bytes": round(sum(sizes) / len(sizes))}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20, help="games a shape (default 20)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")
    set_memo_limit(ENGINE_MEMO_STATES)
    # the timings are of the work, not of the collector's passes over the positions kept
    gc.disable()
    results = {}
    for name, options in SHAPES:
        cfg = GameConfig.from_dict(options)
        time_shape(cfg, 1, args.seed + 7919)  # warm: the card tables are built once a process
        results[name] = time_shape(cfg, args.games, args.seed)
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"{args.games} games of random moves a shape, every position timed once (µs, one core)")
    print(f"{'':26} {'positions':>9} {'view':>13} {'moves':>13} {'encode':>13} {'frame':>13} {'bytes':>6}")
    print(f"{'':26} {'':>9}" + "   mean   p99" * 4)
    for name, r in results.items():
        cells = "".join(f" {r[k]['mean']:6.1f} {r[k]['p99']:5.0f}" for k in PARTS)
        print(f"{name:26} {r['positions']:9d}{cells} {r['frame_bytes']:6d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
