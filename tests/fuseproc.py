"""``fuse serve`` as a real process on a free port, for the tests that stop it the hard way (SIGKILL,
SIGTERM) and start it again on the same database, and for the tests that watch it from outside.

The server's output goes to a file beside the database (``server.log``), so that a long run can
never fill a pipe and stall it; a server that does not come up fails with the tail of that file.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import TracebackType

import httpx

from pgserver import free_port


class FuseServer:
    """``python -m fusegame.cli serve`` on 127.0.0.1; ``start`` it (again), ``kill`` or ``terminate``
    it. The port stays the same across restarts, as a deployed server's does."""

    def __init__(self, db_url: str, workdir: Path, port: int | None = None,
                 args: tuple[str, ...] = (), env: dict[str, str] | None = None) -> None:
        self.db_url = db_url
        self.args = args
        # over the test's own environment (FORWARDED_ALLOW_IPS, ...); the server's own files (the
        # rooms it keeps while its database is away) in the test's folder, not the user's
        self.env = {"FUSE_DATA_DIR": str(workdir), **(env or {})}
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.log_path = workdir / "server.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60) -> float:
        """Start the server and wait until it answers; returns the ``time.monotonic()`` at which the
        process was started."""
        log = self.log_path.open("ab")
        started = time.monotonic()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "fusegame.cli", "serve", "--port", str(self.port), "--db", self.db_url,
             *self.args],
            stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1", **self.env})
        log.close()
        deadline = started + timeout
        while True:
            try:
                if httpx.get(self.base + "/api/health", timeout=5).status_code == 200:
                    return started
            except httpx.TransportError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"fuse serve did not come up (exit {self.proc.poll()}):\n{self.output()}")
            time.sleep(0.02)

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def kill(self) -> None:
        """SIGKILL: the process gets no chance to do anything."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(30)

    def terminate(self, timeout: float = 30) -> int:
        """SIGTERM, as a deploy stops a server; returns its exit status."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout)

    def output(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    def __enter__(self) -> FuseServer:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(30)


def rooms_held(base: str, until: int, wait: float = 10) -> int:
    """The rooms the server holds, asked until there are ``until`` (a socket's goodbye reaches the
    server a moment after the page closes it) or ``wait`` seconds have passed."""
    deadline = time.monotonic() + wait
    while True:
        rooms = int(httpx.get(base + "/api/health").json()["rooms"])
        if rooms == until or time.monotonic() > deadline:
            return rooms
        time.sleep(0.05)


def rss_mb(pid: int) -> float:
    """A process's resident memory in MB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc (Linux only)")


def never_reading_spectator(port: int, code: str) -> socket.socket:
    """A WebSocket opened as a spectator whose page never reads again (a tiny receive window)."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    s.sendall((f"GET /ws/{code} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
               "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
               "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    if not head.startswith(b"HTTP/1.1 101"):
        raise RuntimeError(f"the socket was refused: {head[:80]!r}")
    return s
