"""Benchmark: how long a game is away after ``kill -9``, from the restart of ``fuse serve`` to the
first state frame on a page that reconnects.

    python bench/resume_time.py                          # 5 restarts with 0, 100 and 1000 other rooms
    python bench/resume_time.py --rooms 0,500 --runs 3

Starts ``fuse serve`` on a free port with a throwaway SQLite database (``--db`` for another), where
``--rooms`` other games in play are kept beside the measured one (written straight into the
database: each the first ``--actions`` actions of a game the team planner plays, two to four
players, FUSE or Countdown, as if a server had been killed with them open). Two people join the
measured room over HTTP and play it over WebSockets for ``--moves`` changes. Then, ``--runs``
times: SIGKILL, start ``fuse serve`` again on the same database and port, and open the first
player's socket with its token as a page does (a new try every 10 ms while nothing listens); the
time is from starting the process to the state frame that socket receives, split into the time the
server takes to accept the socket (Python starting, the rooms read and replayed: it listens only
then) and the rest (the welcome, the clock released, the frame).
Each run also checks that the frame is the table the player saw before the kill.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from fusegame import GameConfig
from fusegame.server.lobby import options_to_stored
from fusegame.server.options import RoomOptions
from fusegame.server.storage import Storage, StoredRoom
from fusegame.sim import get_policy, play_game


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def background_rooms(storage: Storage, count: int, actions: int) -> None:
    """``count`` games in play kept in the database, each ``actions`` actions into its game."""
    configs = [GameConfig(players=2), GameConfig(players=4, difficulty="expert"),
               GameConfig(players=3, game="countdown")]
    prefixes = []
    for i, config in enumerate(configs):
        # a game the planner plays at a table's pace, cut short: the first ``actions`` of it
        result = play_game(config, 100 + i, get_policy("team"), record=True)
        assert result.record is not None
        done = [str(a) for a in result.record.actions[:actions]]
        if len(done) == len(result.record.actions):
            done = done[:-1]  # still in play
        prefixes.append((config, 100 + i, done))
    for n in range(count):
        config, seed, done = prefixes[n % len(prefixes)]
        seats = [{"kind": "human" if s == 0 else "bot", "name": f"P{s}", "token": f"tok{n}x{s}",
                  "ready": True, "autoplay": False, "played": "person" if s == 0 else "bot"}
                 for s in range(config.players)]
        storage.save_room(StoredRoom(f"BG{n:010d}", "playing", options_to_stored(RoomOptions(config)), seed,
                                     seats, datetime.now(UTC), None, done))


class Server:
    def __init__(self, db: str, log: Path) -> None:
        self.db, self.log, self.port = db, log, free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> float:
        with self.log.open("ab") as out:
            t0 = time.perf_counter()
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "fusegame.cli", "serve", "--port", str(self.port), "--db", self.db,
                 "--no-rate-limits"], stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        return t0

    def healthy(self, deadline: float = 120) -> float:
        end = time.perf_counter() + deadline
        while time.perf_counter() < end:
            try:
                if httpx.get(self.base + "/api/health", timeout=2).status_code == 200:
                    return time.perf_counter()
            except httpx.HTTPError:
                time.sleep(0.01)
        raise RuntimeError(f"fuse serve did not come up: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(30)


async def reconnect(ws_base: str, code: str, token: str) -> tuple[float, float, dict[str, Any]]:
    """Open the socket as soon as anything listens (the server listens once its rooms are back);
    returns when it opened, when its first state frame came, and that frame."""
    while True:
        try:
            ws = await connect(f"{ws_base}/ws/{code}?token={token}", max_size=None, open_timeout=5)
            break
        except (TimeoutError, OSError):
            await asyncio.sleep(0.01)
    opened = time.perf_counter()
    async with ws:
        while True:
            m = json.loads(await ws.recv())
            if m["type"] == "state":
                return opened, time.perf_counter(), m


async def play_some(base: str, moves: int) -> tuple[str, list[str], dict[str, Any]]:
    """Two people play ``moves`` changes into a new game; returns the code, their tokens and the
    last state the first one saw."""
    async with httpx.AsyncClient(base_url=base) as http:
        code = (await http.post("/api/rooms", json={"players": 2, "difficulty": "training"})).json()["code"]
        tokens = [(await http.post(f"/api/rooms/{code}/join", json={"name": n})).json()["token"]
                  for n in ("Ana", "Bo")]
    ws_base = base.replace("http", "ws", 1)
    socks = [await connect(f"{ws_base}/ws/{code}?token={t}") for t in tokens]
    for s in socks:
        await s.send(json.dumps({"type": "ready", "ready": True}))
    latest: list[dict[str, Any]] = [{}, {}]

    async def run(i: int) -> None:
        acted = -1
        while True:
            try:
                m = json.loads(await asyncio.wait_for(socks[i].recv(), 0.5))
            except TimeoutError:
                if latest[i].get("seq", 0) >= moves:
                    return
                continue
            if m["type"] == "state":
                latest[i] = m
                mv = m["moves"]
                quiet = m["view"]["phase"] == "distribute" and not m["choices"]
                if m["seq"] >= moves and quiet:
                    continue
                if m["seq"] > acted and (mv["place"] or mv["actions"]):
                    action = mv["place"][0]["actions"][0] if mv["place"] else mv["actions"][0]["action"]
                    acted = m["seq"]
                    await socks[i].send(json.dumps({"type": "act", "action": action}))

    await asyncio.gather(run(0), run(1))
    for s in socks:
        await s.close()
    return code, tokens, latest[0]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rooms", default="0,100,1000", help="other games in play kept in the database")
    ap.add_argument("--actions", type=int, default=120, help="actions into each of those games")
    ap.add_argument("--moves", type=int, default=30, help="changes into the measured game")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--db", help="a database URL (default: SQLite in a temporary folder)")
    args = ap.parse_args()
    counts = [int(x) for x in args.rooms.split(",")]
    print(f"kill -9, restart, reconnect: {args.runs} runs each; other rooms' games {args.actions} actions in")
    print(f"{'other rooms':>12}{'listening, ms':>18}{'first state, ms':>22}{'after opening, ms':>22}")
    with tempfile.TemporaryDirectory(prefix="fuse-resume-") as tmp:
        for count in counts:
            db = args.db or f"sqlite:///{tmp}/resume{count}.db"
            with Storage(db) as storage:
                background_rooms(storage, count, args.actions)
            server = Server(db, Path(tmp) / "server.log")
            server.start()
            server.healthy()
            try:
                code, tokens, seen = asyncio.run(play_some(server.base, args.moves))
                ups, totals = [], []
                for _ in range(args.runs):
                    server.kill()
                    t0 = server.start()
                    t_up, t_frame, frame = asyncio.run(reconnect(server.base.replace("http", "ws", 1), code,
                                                                 tokens[0]))
                    assert frame["seq"] == seen["seq"] and frame["view"] == seen["view"], "not the same table"
                    ups.append((t_up - t0) * 1000)
                    totals.append((t_frame - t0) * 1000)
            finally:
                server.kill()
            after = [t - u for t, u in zip(totals, ups, strict=True)]
            print(f"{count:>12}{_spread(ups):>18}{_spread(totals):>22}{_spread(after):>22}", flush=True)
    return 0


def _spread(xs: list[float]) -> str:
    return f"{statistics.median(xs):.0f} ({min(xs):.0f}-{max(xs):.0f})"


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
