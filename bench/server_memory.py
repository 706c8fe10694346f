"""Benchmark: the game server's memory while bot games are played back to back, for minutes on end.

    python bench/server_memory.py                   # 10 minutes, one player at a time
    python bench/server_memory.py --minutes 2 --clients 2 --every 10
    python bench/server_memory.py --server-args=""  # a server without --no-rate-limits
    python bench/server_memory.py --rooms 200 --idle 30   # 200 bot rooms at once, then idle

Starts ``fuse serve`` (``python -m fusegame.cli serve``) on a free port with a throwaway SQLite BDT
Log (``--db`` for another) and without rate limits (every game comes from this one address). Each
of ``--clients`` players, one game after another: creates a room (bots with no delay, no hints;
FUSE 1, 2 and 4 players with modules, Countdown 3 players, in turn), takes seat 0, fills the other
seats with bots, says ready, hands its own seat to the bot, waits for the end of the game and
closes its socket.

Every ``--every`` seconds it prints the server's resident memory (``VmRSS`` in /proc/PID/status),
its peak (``VmHWM``), that of the processes it has started (its planner's process), the rooms the
server holds (``GET /api/health``) and the games played so far; at the end, the memory after the
first minute and at the end, the growth per minute over the second half of the run (a
least-squares line), and the games played. Flat is the aim: a finished
room leaves the server once its game is in the log.

``--rooms N`` measures a crowd instead: after ``--idle`` seconds of a server with nothing to do
(its idle memory), N such bot games start at once (the same shapes in turn, each with its page
open) and are played to their end; then the server is left idle for ``--idle`` seconds more. It
prints the idle memory, the peak, the memory when the last game has ended and after the pause,
and how far each is above idle. Back within 20% of idle after the pause is the aim.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import shlex
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

GAMES: list[dict[str, Any]] = [
    {"players": 1, "difficulty": "training"},
    {"players": 2, "difficulty": "standard"},
    {"players": 3, "game": "countdown", "difficulty": "standard"},
    {"players": 4, "difficulty": "expert", "modules": ["roles", "sparks"]},
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def status_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


def children_kib(pid: int) -> int:
    """The resident memory of the processes the server has started (its planner's process), in KiB;
    0 when there are none."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            kids = (task / "children").read_text().split()
        except OSError:
            continue
        for kid in kids:
            try:
                total += status_kib(int(kid), "VmRSS") + children_kib(int(kid))
            except (OSError, KeyError):
                pass  # it ended meanwhile
    return total


def slope(points: list[tuple[float, float]]) -> float:
    """The least-squares slope of y over x."""
    n = len(points)
    if n < 2:
        return 0.0
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0


class Run:
    def __init__(self, url: str, pid: int, args: argparse.Namespace) -> None:
        self.url = url
        self.ws = url.replace("http", "ws", 1)
        self.pid = pid
        self.args = args
        self.games = 0
        self.failures = 0
        self.samples: list[dict[str, float]] = []
        self.stop = False
        self.idle: dict[str, float] = {}  # with --rooms: the samples before, at the end, after
        self.ended: dict[str, float] = {}
        self.after: dict[str, float] = {}

    async def counted(self, http: httpx.AsyncClient, k: int, bot_delay_ms: int) -> bool:
        """Game ``k`` of the list of games, played to its end and counted; a game that fails is
        counted and shown, and the run goes on (False)."""
        options = {**GAMES[k % len(GAMES)], "bot_delay_ms": bot_delay_ms, "hints": False}
        try:
            await self.game(http, options)
        except Exception as e:  # counted and shown: the run goes on
            self.failures += 1
            print(f"a game failed: {type(e).__name__}: {e}", file=sys.stderr)
            return False
        self.games += 1
        return True

    async def player(self, http: httpx.AsyncClient, first: int) -> None:
        i = first
        while not self.stop:
            i += 1
            if not await self.counted(http, i - 1, 0):
                await asyncio.sleep(1)

    async def game(self, http: httpx.AsyncClient, options: dict[str, Any]) -> None:
        r = await http.post("/api/rooms", json=options)
        r.raise_for_status()
        code = r.json()["code"]
        token = (await http.post(f"/api/rooms/{code}/join", json={"name": "Bench"})).json()["token"]
        async with connect(f"{self.ws}/ws/{code}?token={token}", max_size=None,
                           open_timeout=self.args.game_timeout) as ws:
            await ws.send(json.dumps({"type": "fill_bots"}))
            await ws.send(json.dumps({"type": "ready", "ready": True}))
            handed = False
            while True:
                text = await asyncio.wait_for(ws.recv(), self.args.game_timeout)
                # only the first state frame and the end are read: a crowd of rooms at full speed
                # sends more frames than this process could parse beside the server
                if not handed and text.startswith('{"type":"state"'):
                    handed = True
                    await ws.send(json.dumps({"type": "bot", "seat": 0, "on": True}))
                elif text.startswith('{"type":"over"'):
                    return

    def sample(self, t0: float, rooms: int) -> dict[str, float]:
        s = {"t": time.monotonic() - t0, "rss": status_kib(self.pid, "VmRSS") / 1024,
             "hwm": status_kib(self.pid, "VmHWM") / 1024, "kids": children_kib(self.pid) / 1024,
             "rooms": rooms, "games": self.games}
        self.samples.append(s)
        print(f"{s['t']:7.0f} s  RSS {s['rss']:7.1f} MB  peak {s['hwm']:7.1f} MB  planner {s['kids']:6.1f} MB"
              f"  rooms {rooms:4d}  games {self.games:6d}", flush=True)
        return s

    async def crowd(self) -> None:
        """``--rooms`` games at once, from an idle server back to an idle server."""
        a = self.args
        async with httpx.AsyncClient(base_url=self.url, timeout=120,
                                     limits=httpx.Limits(max_connections=64)) as http:
            t0 = time.monotonic()

            async def rooms() -> int:
                return int((await http.get("/api/health")).json()["rooms"])

            await asyncio.sleep(a.idle)
            self.idle = self.sample(t0, await rooms())

            games = [asyncio.create_task(self.counted(http, k, a.bot_delay_ms)) for k in range(a.rooms)]
            while not all(g.done() for g in games):
                await asyncio.wait(games, timeout=a.every)
                self.sample(t0, await rooms())
            # the last games on their way to the log (a game that failed may have left its lobby)
            deadline = time.monotonic() + a.game_timeout
            while (held := await rooms()) > self.failures and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
            self.ended = self.sample(t0, held)
            await asyncio.sleep(a.idle)
            self.after = self.sample(t0, await rooms())

    def crowd_summary(self) -> str:
        idle = self.idle["rss"]
        peak = max(s["hwm"] for s in self.samples)

        def above(mb: float) -> str:
            return f"{mb:.1f} MB ({(mb / idle - 1) * 100:+.0f}% of idle)"

        played = self.ended["t"] - self.idle["t"]
        return "\n".join([
            "",
            f"{self.games} games of bots at once in {played:.0f} s, {self.failures} failed "
            f"(bot delay {self.args.bot_delay_ms} ms)",
            f"RSS idle {idle:.1f} MB; peak {above(peak)}",
            f"RSS when the last game had ended {above(self.ended['rss'])}; "
            f"{self.args.idle:g} s later {above(self.after['rss'])}",
            f"the planner's process: idle {self.idle['kids']:.1f} MB, at most "
            f"{max(s['kids'] for s in self.samples):.1f} MB, when the last game had ended "
            f"{self.ended['kids']:.1f} MB, {self.args.idle:g} s later {self.after['kids']:.1f} MB",
        ])

    async def sampler(self, http: httpx.AsyncClient, t0: float) -> None:
        end = t0 + self.args.minutes * 60
        while True:
            now = time.monotonic()
            self.sample(t0, (await http.get("/api/health")).json()["rooms"])
            if now >= end:
                self.stop = True
                return
            await asyncio.sleep(min(self.args.every, max(0.0, end - time.monotonic())))

    async def main(self) -> None:
        async with httpx.AsyncClient(base_url=self.url, timeout=60) as http:
            t0 = time.monotonic()
            players = [asyncio.create_task(self.player(http, k)) for k in range(self.args.clients)]
            await self.sampler(http, t0)
            await asyncio.wait(players, timeout=180)

    def summary(self) -> str:
        if self.args.rooms:
            return self.crowd_summary()
        first_min = next((s for s in self.samples if s["t"] >= 60), self.samples[0])
        last = self.samples[-1]
        half = [(s["t"] / 60, s["rss"]) for s in self.samples if s["t"] >= last["t"] / 2]
        minutes = last["t"] / 60
        return "\n".join([
            "",
            f"{self.games} games in {minutes:.1f} min ({self.games / minutes:.0f} a minute), "
            f"{self.failures} failed; {self.args.clients} player(s) at a time",
            f"RSS at the start {self.samples[0]['rss']:.1f} MB, after 1 min {first_min['rss']:.1f} MB, "
            f"at the end {last['rss']:.1f} MB, peak {max(s['hwm'] for s in self.samples):.1f} MB",
            f"growth over the second half: {slope(half):+.2f} MB a minute; "
            f"rooms held at the end: {last['rooms']}",
        ])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--clients", type=int, default=1, help="players playing games at the same time")
    ap.add_argument("--every", type=float, default=30.0, help="seconds between samples")
    ap.add_argument("--db", help="the BDT Log's database (default: SQLite in a temporary folder)")
    ap.add_argument("--server-args", default="--no-rate-limits", help="more arguments for fuse serve")
    ap.add_argument("--rooms", type=int, default=0,
                    help="this many bot games at once, from an idle server back to an idle one")
    ap.add_argument("--idle", type=float, default=30.0,
                    help="with --rooms: seconds idle before the games and after them (default 30)")
    ap.add_argument("--bot-delay-ms", type=int, default=0,
                    help="with --rooms: the rooms' bot delay (default 0: full speed)")
    ap.add_argument("--game-timeout", type=float, default=120.0,
                    help="seconds without a frame before a game counts as failed (default 120)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="fuse-mem-") as tmp:
        db = args.db or f"sqlite:///{tmp}/bench.db"
        port = free_port()
        log = Path(tmp) / "server.log"
        cmd = [sys.executable, "-m", "fusegame.cli", "serve", "--port", str(port), "--db", db,
               *shlex.split(args.server_args)]
        with log.open("wb") as out:
            proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(url + "/api/health", timeout=2).status_code == 200:
                        break
                if proc.poll() is not None or time.monotonic() > deadline:
                    print(f"the server did not start: {log.read_text()[-2000:]}", file=sys.stderr)
                    return 1
                time.sleep(0.2)
            what = (f"{args.rooms} bot games at once" if args.rooms else
                    f"{args.minutes:g} min of bot games")
            print(f"fuse serve (pid {proc.pid}) at {url}, {what}", flush=True)
            run = Run(url, proc.pid, args)
            asyncio.run(run.crowd() if args.rooms else run.main())
            print(run.summary())
        finally:
            proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(30)
            if proc.poll() is None:
                proc.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
