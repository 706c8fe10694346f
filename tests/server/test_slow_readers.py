"""Slow readers against a real server process: spectator sockets that never read a byte must not
fill the server's memory. Each socket's queue is capped in bytes, a socket that falls behind gets
only the newest table, and one that stays behind is closed."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect

from fusegame.server.room import BOT_BURST
from fuseproc import FuseServer, never_reading_spectator, rss_mb

pytestmark = pytest.mark.timeout(180)

SOCKETS = 40


def test_spectators_that_never_read_do_not_fill_the_server_s_memory(tmp_path: Path) -> None:
    with FuseServer(f"sqlite:///{tmp_path / 'fuse.db'}", tmp_path, args=("--no-rate-limits",)) as server:
        server.start()
        http = httpx.Client(base_url=server.base)
        code = http.post("/api/rooms", json={"players": 5, "difficulty": "insane", "bot_delay_ms": 0,
                                             "seed": 11, "hints": False}).json()["code"]
        token = http.post(f"/api/rooms/{code}/join", json={"name": "Ana"}).json()["token"]
        stuck = [never_reading_spectator(server.port, code) for _ in range(SOCKETS)]

        async def play() -> int:
            """Ana hands her seat to the bot, and reads every frame of the game (a fast reader)."""
            frames = 0
            async with connect(f"{server.ws_base}/ws/{code}?token={token}", max_size=None) as ws:
                await ws.send(json.dumps({"type": "fill_bots"}))
                await ws.send(json.dumps({"type": "ready", "ready": True}))
                await ws.send(json.dumps({"type": "bot", "seat": 0, "on": True}))
                end = time.monotonic() + 12
                while time.monotonic() < end:
                    try:
                        m = json.loads(await asyncio.wait_for(ws.recv(), 1))
                    except TimeoutError:
                        continue
                    frames += m["type"] == "state"
                    if m["type"] == "over":
                        break
            return frames

        before = rss_mb(server.pid)
        frames = asyncio.run(play())
        after = rss_mb(server.pid)
        for s in stuck:
            s.close()
    # the game went on for the reader that reads (seed 11 at Insane: past the bots' burst at full
    # speed, about 650 state frames in the 12 s), and the
    # readers that do not cost a bounded amount each (1 MiB of queue at most), not every frame of
    # the game (with a queue capped in frames alone the server grew by 242 MB here)
    assert frames > BOT_BURST, frames
    assert after - before < SOCKETS * 1.5 + 40, (before, after)
