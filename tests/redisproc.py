"""A real ``redis-server`` (Debian's package) on a free port for the tests of the cluster: started
in a temporary folder without persistence, stopped (or killed and started again) by the test."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path
from types import TracebackType

import redis

from pgserver import free_port


class RedisServer:
    """``redis-server`` on 127.0.0.1; ``url`` is what ``fuse serve --redis`` takes."""

    def __init__(self, workdir: Path) -> None:
        exe = shutil.which("redis-server")
        if exe is None:
            raise RuntimeError("redis-server is missing: .ci/run installs Debian's redis-server package")
        self.exe = exe
        self.workdir = workdir
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(
            [self.exe, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while True:
            try:
                with redis.Redis.from_url(self.url, socket_connect_timeout=1) as r:
                    r.ping()
                return
            except redis.RedisError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise RuntimeError("redis-server did not come up") from None
                time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def __enter__(self) -> RedisServer:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
