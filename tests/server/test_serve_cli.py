"""``fuse serve``, the project's main command, as a user starts it: a real process on a real port."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from pgserver import free_port

pytestmark = pytest.mark.timeout(60)


def fuse(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "fusegame.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, **(env or {})})


def test_fuse_serve_serves_the_game_and_keeps_the_log_in_the_data_folder(tmp_path: Path) -> None:
    port = free_port()
    proc = fuse("serve", "--port", str(port), env={"FUSE_DATA_DIR": str(tmp_path)})
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                health = httpx.get(base + "/api/health")
                break
            except httpx.TransportError:
                assert proc.poll() is None, proc.communicate()[1]
                assert time.monotonic() < deadline, "fuse serve did not answer within 30 s"
                time.sleep(0.1)
        assert health.json()["ok"] is True
        page = httpx.get(base + "/")
        assert page.status_code == 200 and "FUSE" in page.text
        assert httpx.get(base + "/app.js").status_code == 200
        code = httpx.post(base + "/api/rooms", json={"players": 2}).json()["code"]
        assert httpx.get(f"{base}/api/rooms/{code}").json()["room"]["status"] == "lobby"
        assert (tmp_path / "fuse.db").is_file()  # the default SQLite database
    finally:
        proc.terminate()
        proc.wait(10)


def test_a_busy_port_or_a_bad_database_is_one_line_and_exit_code_2() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out, err = fuse("serve", "--port", str(port)).communicate(timeout=30)
    assert err.startswith("fuse: error: cannot listen on 127.0.0.1:") and err.count("\n") == 1
    proc = fuse("serve", "--port", str(free_port()), "--db", f"postgresql://nobody@127.0.0.1:{free_port()}/x")
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2 and "cannot open database" in err and err.count("\n") == 1
    proc = fuse("serve", "--port", "70000")
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2 and "--port" in err
