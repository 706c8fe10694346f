"""Benchmark: how long a game is away when the process that owns its room dies, with two ``fuse
serve`` processes sharing a ``redis-server`` and a SQLite database.

    python bench/takeover_time.py                 # 5 runs
    python bench/takeover_time.py --runs 3 --moves 40

Starts Debian's ``redis-server`` and two processes, A and B, each on a free port. Each run creates
a two-player room on A; Ana's socket is on A and Bo's on B (relayed to A), and they play
``--moves`` changes. Then A is killed with SIGKILL, and both pages open their sockets on B (a try
every 10 ms, as a page behind a load balancer would find the process that is left). The time is
from the kill to the first state frame on each page: the owner's lease has to lapse (``LEASE_MS``)
before B may take the room over from the database. Each run checks that the frame is the table the
players saw before the kill, then starts A again for the next run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from fusegame.server.cluster import LEASE_MS


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Proc:
    """A process on a free port, started (again) by ``start``."""

    def __init__(self, cmd: list[str], port: int, log: Path) -> None:
        self.cmd, self.port, self.log = cmd, port, log
        self.proc: subprocess.Popen[bytes] | None = None
        self.base = f"http://127.0.0.1:{port}"
        self.ws = f"ws://127.0.0.1:{port}"

    def start(self, health: bool = True) -> None:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(self.cmd, stdout=out, stderr=subprocess.STDOUT,
                                         env={**os.environ, "PYTHONUNBUFFERED": "1"})
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.cmd[0]} exited: {self.log.read_text()[-2000:]}")
            try:
                if not health:
                    with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                        return
                elif httpx.get(self.base + "/api/health", timeout=2).status_code == 200:
                    return
            except (OSError, httpx.HTTPError):
                pass
            time.sleep(0.05)
        raise RuntimeError(f"{self.cmd[0]} did not come up: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(30)


async def play(ws: ClientConnection, changes: int) -> int:
    """Make the first move offered until ``changes`` state frames have come; the last seq seen."""
    seen, acted_on, seq = 0, -1, -1
    while seen < changes:
        m: dict[str, Any] = json.loads(await ws.recv())
        if m["type"] == "state":
            seen, seq = seen + 1, m["seq"]
            moves = m["moves"]
            action = (moves["place"][0]["actions"][0] if moves["place"]
                      else moves["actions"][0]["action"] if moves["actions"] else None)
            if action is not None and seq > acted_on:
                await ws.send(json.dumps({"type": "act", "action": action}))
                acted_on = seq
        elif m["type"] == "over":
            raise RuntimeError("the game ended before the kill: use fewer --moves")
    return seq


async def page_back(base: str, code: str, token: str) -> tuple[float, int]:
    """A page opening its socket until a state frame comes: when it came, and its seq."""
    while True:
        try:
            async with connect(f"{base}/ws/{code}?token={token}", open_timeout=5) as ws:
                async for raw in ws:
                    m = json.loads(raw)
                    if m["type"] == "state":
                        return time.monotonic(), int(m["seq"])
        except (OSError, ConnectionClosed, InvalidStatus, TimeoutError):
            pass
        await asyncio.sleep(0.01)


async def one_run(a: Proc, b: Proc, moves: int) -> tuple[float, float]:
    r = httpx.post(a.base + "/api/rooms", json={"players": 2, "difficulty": "standard", "hints": False})
    code = r.json()["code"]
    ana = httpx.post(f"{a.base}/api/rooms/{code}/join", json={"name": "Ana"}).json()["token"]
    bo = httpx.post(f"{b.base}/api/rooms/{code}/join", json={"name": "Bo"}).json()["token"]
    async with connect(f"{a.ws}/ws/{code}?token={ana}") as wa, connect(f"{b.ws}/ws/{code}?token={bo}") as wb:
        for ws in (wa, wb):
            await ws.send(json.dumps({"type": "ready", "ready": True}))
        seqs = await asyncio.gather(play(wa, moves), play(wb, moves))
        await asyncio.sleep(0.2)  # the last frames settle
        killed = time.monotonic()
        a.kill()
    (t_ana, s_ana), (t_bo, s_bo) = await asyncio.gather(page_back(b.ws, code, ana), page_back(b.ws, code, bo))
    if min(s_ana, s_bo) < max(seqs):
        raise RuntimeError(f"a page came back to an older table: seq {min(s_ana, s_bo)} < {max(seqs)}")
    return t_ana - killed, t_bo - killed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--moves", type=int, default=20, help="changes played before the kill (default 20)")
    args = ap.parse_args(argv)
    exe = shutil.which("redis-server")
    if exe is None:
        print("takeover_time: needs redis-server (apt-get install redis-server)", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="fuse-takeover-") as tmp:
        work = Path(tmp)
        rport = free_port()
        redis = Proc([exe, "--port", str(rport), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                      "--dir", tmp], rport, work / "redis.log")
        url = f"redis://127.0.0.1:{rport}/0"
        serve = [sys.executable, "-m", "fusegame.cli", "serve", "--db", f"sqlite:///{tmp}/fuse.db",
                 "--redis", url, "--no-rate-limits", "--port"]
        pa, pb = free_port(), free_port()
        a = Proc([*serve, str(pa)], pa, work / "a.log")
        b = Proc([*serve, str(pb)], pb, work / "b.log")
        times: list[tuple[float, float]] = []
        try:
            redis.start(health=False)
            a.start()
            b.start()
            for i in range(args.runs):
                t = asyncio.run(one_run(a, b, args.moves))
                times.append(t)
                print(f"run {i + 1}: Ana (her socket was on the owner) {t[0]:.2f} s, "
                      f"Bo (his socket relayed by B) {t[1]:.2f} s", flush=True)
                a.start()
        except RuntimeError as e:
            print(f"takeover_time: {e}", file=sys.stderr)
            return 1
        finally:
            for p in (a, b, redis):
                p.kill()
    both = [max(t) for t in times]
    print(f"\nfrom kill -9 of the owner to the first state frame on both pages (lease {LEASE_MS} ms): "
          f"median {statistics.median(both):.2f} s, range {min(both):.2f}-{max(both):.2f} s "
          f"over {len(both)} runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
