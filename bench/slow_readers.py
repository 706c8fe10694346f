"""Benchmark: what spectator sockets that never read cost a server's memory.

    python bench/slow_readers.py                  # 150 sockets, one bot game at full speed
    python bench/slow_readers.py --sockets 40 --seconds 10

Starts ``fuse serve`` (``python -m fusegame.cli serve``) on a free port with a throwaway SQLite BDT
Log and without rate limits, creates a 5-player Insane room whose bots play at full speed
(``bot_delay_ms: 0``, seed 11), opens ``--sockets`` spectator WebSockets from this machine that
never read a byte after the handshake (a 4 KiB receive window), and has one seated page hand its
seat to a bot and read every frame for ``--seconds``. It prints the server's resident memory before
and after, the growth per stuck socket, and how many of them the server closed as too slow.

Each socket's queue is capped at 1 MiB and a socket behind by more than 64 KiB keeps only the newest
table (``fusegame.server.sockets``): the growth stays near the cap times the sockets, whatever the
game's length. With a queue capped in frames alone (2,000), 150 such sockets took a server from
120 MB to 2,061 MB in 10 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from fuseproc import FuseServer, never_reading_spectator, rss_mb  # noqa: E402


def closed_by_server(s: socket.socket) -> bool:
    """Whether the server closed this socket (its close frame or the end of the stream is there,
    behind whatever it sent before)."""
    s.setblocking(False)
    data = b""
    try:
        while chunk := s.recv(1 << 20):
            data += chunk
    except BlockingIOError:
        return False
    except OSError:
        return True
    return True


async def reader(ws_base: str, code: str, token: str, seconds: float) -> int:
    frames = 0
    async with connect(f"{ws_base}/ws/{code}?token={token}", max_size=None) as ws:
        for m in ({"type": "fill_bots"}, {"type": "ready", "ready": True},
                  {"type": "bot", "seat": 0, "on": True}):
            await ws.send(json.dumps(m))
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                m = json.loads(await asyncio.wait_for(ws.recv(), 1))
            except TimeoutError:
                continue
            frames += m["type"] == "state"
            if m["type"] == "over":
                break
    return frames


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sockets", type=int, default=150, help="spectator sockets that never read")
    ap.add_argument("--seconds", type=float, default=10.0, help="how long the game is watched")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp, \
            FuseServer(f"sqlite:///{Path(tmp) / 'fuse.db'}", Path(tmp), args=("--no-rate-limits",)) as server:
        server.start()
        http = httpx.Client(base_url=server.base)
        code = http.post("/api/rooms", json={"players": 5, "difficulty": "insane", "bot_delay_ms": 0,
                                             "seed": 11, "hints": False}).json()["code"]
        token = http.post(f"/api/rooms/{code}/join", json={"name": "Ana"}).json()["token"]
        stuck = [never_reading_spectator(server.port, code) for _ in range(args.sockets)]
        before = rss_mb(server.pid)
        frames = asyncio.run(reader(server.ws_base, code, token, args.seconds))
        after = rss_mb(server.pid)
        closed = sum(closed_by_server(s) for s in stuck)
        for s in stuck:
            s.close()
    print(f"{args.sockets} spectator sockets that never read, one reader for {args.seconds:.0f} s "
          f"({frames} state frames read)")
    print(f"server RSS {before:.0f} MB before, {after:.0f} MB after: +{after - before:.0f} MB, "
          f"{(after - before) / max(1, args.sockets) * 1024:.0f} KiB per stuck socket")
    print(f"closed by the server as too slow: {closed} of {args.sockets}")


if __name__ == "__main__":
    main()
