"""Behind a load balancer: a real nginx, run with ``deploy/nginx.conf`` (the one compose.yaml uses,
with only its addresses changed), in front of two ``fuse serve --redis`` processes. Round robin and
no sticky sessions: the room is created, joined and played through the proxy, each request and
socket landing on whichever process nginx picks, and the game is played to its end."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect

from clusterpages import Player
from fuseproc import FuseServer
from pgserver import free_port
from redisproc import RedisServer

pytestmark = pytest.mark.timeout(300)

CONF = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"


def nginx_conf(work: Path, port: int, upstreams: list[int]) -> Path:
    """``deploy/nginx.conf`` with this test's addresses, and its files kept in ``work``."""
    text = CONF.read_text()
    servers = "".join(f"        server 127.0.0.1:{p};\n" for p in upstreams)
    text, n = re.subn(r"(upstream fuse \{\n)(?:\s*server [^;]+;\n)+", lambda m: m.group(1) + servers, text)
    assert n == 1
    text = text.replace("listen 80;", f"listen 127.0.0.1:{port};")
    # a process of its own, not the system's: its pid file, logs and buffers in the test's folder
    head = (f"daemon off;\npid {work}/nginx.pid;\nerror_log {work}/error.log;\n")
    paths = "".join(f"    {k}_temp_path {work}/{k};\n"
                    for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    text = head + text.replace("http {\n", f"http {{\n    access_log {work}/access.log;\n{paths}", 1)
    conf = work / "nginx.conf"
    conf.write_text(text)
    return conf


@pytest.fixture
def proxy(tmp_path: Path) -> Iterator[str]:
    exe = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(exe).exists():
        pytest.fail("nginx is missing: .ci/run installs Debian's nginx package")
    with RedisServer(tmp_path / "redis") as redis:
        db = f"sqlite:///{tmp_path / 'fuse.db'}"
        args = ("--redis", redis.url, "--no-rate-limits")
        (tmp_path / "a").mkdir()
        (tmp_path / "b").mkdir()
        with FuseServer(db, tmp_path / "a", args=args) as a, FuseServer(db, tmp_path / "b", args=args) as b:
            a.start()
            b.start()
            work = tmp_path / "nginx"
            work.mkdir()
            port = free_port()
            conf = nginx_conf(work, port, [a.port, b.port])
            proc = subprocess.Popen([exe, "-c", str(conf), "-p", str(work)], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE)
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 20
            while True:
                try:
                    if httpx.get(base + "/api/health").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else "nginx exited"
                assert time.monotonic() < deadline, "nginx did not come up"
                time.sleep(0.05)
            try:
                yield base
            finally:
                # nginx's fast shutdown: the master stops its workers before it exits (killed
                # outright, it left a worker behind still listening on the port)
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(10)


def test_a_game_played_through_a_round_robin_proxy_over_two_processes(proxy: str) -> None:
    r = httpx.post(proxy + "/api/rooms", json={"players": 2, "difficulty": "training", "hints": False})
    assert r.status_code == 201
    code = r.json()["code"]
    tokens = [httpx.post(f"{proxy}/api/rooms/{code}/join", json={"name": n}).json()["token"]
              for n in ("Ana", "Bo")]
    for _ in range(6):  # look-ups landing on either process see the same room
        seats = httpx.get(f"{proxy}/api/rooms/{code}").json()["room"]["seats"]
        assert [s["name"] for s in seats] == ["Ana", "Bo"]
    ana, bo = Player("Ana", tokens[0]), Player("Bo", tokens[1])
    ws_base = "ws" + proxy.removeprefix("http")

    async def main() -> tuple[object, object]:
        # a browser's page: its Origin is the address it was loaded from, the proxy's
        origin = {"Origin": proxy}
        async with connect(f"{ws_base}/ws/{code}?token={ana.token}", additional_headers=origin) as wa, \
                connect(f"{ws_base}/ws/{code}?token={bo.token}", additional_headers=origin) as wb:
            for ws in (wa, wb):
                await ws.send(json.dumps({"type": "ready", "ready": True}))
            return await asyncio.gather(ana.play(wa), bo.play(wb))

    over_a, over_b = asyncio.run(main())
    assert isinstance(over_a, dict) and isinstance(over_b, dict) and over_a["log_id"] == over_b["log_id"]
    assert ana.welcomes[0]["seat"] == 0 and bo.welcomes[0]["seat"] == 1
    entry = httpx.get(f"{proxy}/api/log/{over_a['log_id']}").json()
    assert entry["names"] == ["Ana", "Bo"]


def test_a_slow_client_sending_a_header_line_every_few_seconds_is_cut_off_by_the_proxy(proxy: str) -> None:
    # slowloris: a request whose headers never end. nginx (deploy/nginx.conf) ends it, the game's
    # processes never see it
    host, port = proxy.removeprefix("http://").split(":")
    started = time.monotonic()
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: fuse\r\n")
        answer = b""
        for i in range(12):  # 24 s of a line every 2 s: far more than the 10 s nginx allows
            try:
                sock.sendall(f"X-Slow-{i}: {i}\r\n".encode())
            except OSError:
                break
            sock.settimeout(2)
            try:
                chunk = sock.recv(4096)
            except TimeoutError:
                continue
            if not chunk:
                break
            answer += chunk
        held = time.monotonic() - started
    assert held < 16, f"the slow client was held {held:.0f} s"
    assert answer == b"" or answer.startswith(b"HTTP/1.1 408")
