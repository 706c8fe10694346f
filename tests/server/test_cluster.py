"""Many ``fuse serve`` processes as one service: real processes sharing a real ``redis-server`` and
one SQLite database. A room is played by players whose sockets sit on different processes; the
process that owns a room is killed with SIGKILL mid-game and another one takes the room over from
the database, with the players' seats and nothing lost."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from fuseproc import FuseServer
from redisproc import RedisServer

pytestmark = pytest.mark.timeout(300)

Frame = dict[str, Any]


@pytest.fixture
def service(tmp_path: Path) -> Iterator[tuple[FuseServer, FuseServer]]:
    """Two server processes, A and B, on one Redis and one database."""
    with RedisServer(tmp_path / "redis") as redis:
        db = f"sqlite:///{tmp_path / 'fuse.db'}"
        args = ("--redis", redis.url, "--no-rate-limits")
        (tmp_path / "a").mkdir()
        (tmp_path / "b").mkdir()
        with FuseServer(db, tmp_path / "a", args=args) as a, FuseServer(db, tmp_path / "b", args=args) as b:
            a.start()
            b.start()
            yield a, b


def new_room(server: FuseServer, players: int) -> str:
    r = httpx.post(server.base + "/api/rooms", json={"players": players, "difficulty": "training",
                                                     "bot_delay_ms": 0, "hints": False})
    assert r.status_code == 201, r.text
    return str(r.json()["code"])


def join(server: FuseServer, code: str, name: str) -> Frame:
    r = httpx.post(f"{server.base}/api/rooms/{code}/join", json={"name": name})
    assert r.status_code == 200, r.text
    body: Frame = r.json()
    return body


class Player:
    """A person at the table through one socket: makes the first move offered to their seat."""

    def __init__(self, name: str, token: str) -> None:
        self.name = name
        self.token = token
        self.seqs: list[int] = []
        self.welcomes: list[Frame] = []

    async def play(self, ws: ClientConnection, stop_after: int | None = None) -> Frame | None:
        """Play until the game is over (its ``over`` frame) or ``stop_after`` state frames."""
        acted_on = -1
        latest: Frame | None = None
        seen = 0
        while True:
            m: Frame = json.loads(await ws.recv())
            if m["type"] == "welcome":
                self.welcomes.append(m)
            if m["type"] == "over":
                return m
            if m["type"] == "state":
                latest = m
                self.seqs.append(m["seq"])
                seen += 1
                if stop_after is not None and seen >= stop_after:
                    return None
            elif m["type"] == "error":
                assert m["code"] == "illegal" or m.get("reason") == "over", m  # a die taken first
                acted_on = -1
            if latest is None or latest["seq"] <= acted_on:
                continue
            moves = latest["moves"]
            action = (moves["place"][0]["actions"][0] if moves["place"]
                      else moves["actions"][0]["action"] if moves["actions"] else None)
            if action is not None:
                await ws.send(json.dumps({"type": "act", "action": action}))
                acted_on = latest["seq"]


def test_players_on_two_processes_play_one_room_to_its_end(service: tuple[FuseServer, FuseServer]) -> None:
    a, b = service
    code = new_room(a, 2)
    ana = Player("Ana", join(a, code, "Ana")["token"])
    bo = Player("Bo", join(b, code, "Bo")["token"])  # a request to B, answered by the room's owner A
    seen_from_b = httpx.get(f"{b.base}/api/rooms/{code}").json()["room"]
    assert [s["name"] for s in seen_from_b["seats"]] == ["Ana", "Bo"]

    async def main() -> tuple[Frame | None, Frame | None, list[Frame]]:
        async with connect(f"{a.ws_base}/ws/{code}?token={ana.token}") as wa, \
                connect(f"{b.ws_base}/ws/{code}?token={bo.token}") as wb:
            await wb.send(json.dumps({"type": "chat", "text": "hola"}))
            chats = []
            while not chats:  # Bo's line, sent to B, reaches Ana on A through the owner
                m = json.loads(await wa.recv())
                if m["type"] == "welcome":
                    ana.welcomes.append(m)
                if m["type"] == "chat":
                    chats.append(m)
            for ws in (wa, wb):
                await ws.send(json.dumps({"type": "ready", "ready": True}))
            over_a, over_b = await asyncio.gather(ana.play(wa), bo.play(wb))
            return over_a, over_b, chats

    over_a, over_b, chats = asyncio.run(main())
    assert chats[0]["text"] == "hola" and chats[0]["name"] == "Bo"
    assert ana.welcomes[0]["seat"] == 0 and bo.welcomes[0]["seat"] == 1
    assert over_a is not None and over_b is not None and over_a["log_id"] == over_b["log_id"]
    assert ana.seqs[-1] == bo.seqs[-1]  # both saw every change up to the last
    # the log and the replay are the same from either process
    for server in (a, b):
        entry = httpx.get(f"{server.base}/api/log/{over_a['log_id']}").json()
        assert entry["names"] == ["Ana", "Bo"] and entry["played_by"] == ["person", "person"]


def test_the_owner_killed_mid_game_another_process_takes_the_room_over(
        service: tuple[FuseServer, FuseServer]) -> None:
    a, b = service
    code = new_room(a, 2)
    ana = Player("Ana", join(a, code, "Ana")["token"])
    bo = Player("Bo", join(b, code, "Bo")["token"])

    async def before() -> int:
        async with connect(f"{a.ws_base}/ws/{code}?token={ana.token}") as wa, \
                connect(f"{b.ws_base}/ws/{code}?token={bo.token}") as wb:
            for ws in (wa, wb):
                await ws.send(json.dumps({"type": "ready", "ready": True}))
            await asyncio.gather(ana.play(wa, stop_after=12), bo.play(wb, stop_after=12))
            last = max(ana.seqs[-1], bo.seqs[-1])
            a.kill()  # the owner dies with both sockets open: Ana's on it, Bo's relayed by B
            # Bo's socket on B is closed for him to reconnect once the owner's lease has lapsed
            with pytest.raises(Exception):  # noqa: B017 (a closed socket, however it is reported)
                while True:
                    await asyncio.wait_for(wb.recv(), 15)
            return last

    last_seen = asyncio.run(before())
    killed = time.monotonic()

    async def after() -> tuple[Frame | None, Frame | None, float]:
        # both pages come back, to B, with their tokens
        async with connect(f"{b.ws_base}/ws/{code}?token={ana.token}") as wa, \
                connect(f"{b.ws_base}/ws/{code}?token={bo.token}") as wb:
            first = json.loads(await wa.recv())
            back = time.monotonic() - killed
            assert first["type"] == "welcome" and first["seat"] == 0
            ana.welcomes.append(first)
            return *await asyncio.gather(ana.play(wa), bo.play(wb)), back

    over_a, over_b, back = asyncio.run(after())
    assert back < 15
    assert bo.welcomes[-1]["seat"] == 1
    after_seqs = [s for s in ana.seqs if s >= last_seen]
    assert after_seqs and after_seqs[0] == last_seen  # the table as it was seen: nothing lost
    assert over_a is not None and over_b is not None and over_a["log_id"] == over_b["log_id"]
    entry = httpx.get(f"{b.base}/api/log/{over_a['log_id']}").json()
    assert entry["names"] == ["Ana", "Bo"]


def test_fuse_serve_workers_answers_for_every_room_from_any_worker(tmp_path: Path) -> None:
    with RedisServer(tmp_path / "redis") as redis, \
            FuseServer(f"sqlite:///{tmp_path / 'fuse.db'}", tmp_path,
                       args=("--redis", redis.url, "--workers", "2", "--no-rate-limits")) as server:
        server.start()
        codes = [new_room(server, 2) for _ in range(6)]
        # every request on a connection of its own: the workers take them as the kernel hands them out
        for code in codes:
            for name in ("Ana", "Bo"):
                assert join(server, code, name)["code"] == code
            for _ in range(4):
                r = httpx.get(f"{server.base}/api/rooms/{code}")
                assert r.status_code == 200
                assert [s["name"] for s in r.json()["room"]["seats"]] == ["Ana", "Bo"]
        assert server.terminate() == 0


def test_fuse_serve_says_so_when_redis_cannot_be_reached(tmp_path: Path) -> None:
    import subprocess
    import sys

    from pgserver import free_port

    out = subprocess.run([sys.executable, "-m", "fusegame.cli", "serve", "--port", str(free_port()),
                          "--db", f"sqlite:///{tmp_path / 'fuse.db'}", "--redis",
                          f"redis://127.0.0.1:{free_port()}/0"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "cannot reach Redis at redis://127.0.0.1:" in out.stderr
    assert "Traceback" not in out.stderr
    out = subprocess.run([sys.executable, "-m", "fusegame.cli", "serve", "--workers", "2"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "--workers more than 1 needs --redis" in out.stderr


def test_a_socket_relayed_by_a_process_that_dies_leaves_its_seat(
        service: tuple[FuseServer, FuseServer]) -> None:
    a, b = service
    code = new_room(a, 2)
    join(a, code, "Ana")
    bo = join(b, code, "Bo")

    def bo_connected() -> bool:
        seats = httpx.get(f"{a.base}/api/rooms/{code}").json()["room"]["seats"]
        return bool(seats[1]["connected"])

    async def main() -> None:
        async with connect(f"{b.ws_base}/ws/{code}?token={bo['token']}") as wb:
            assert json.loads(await wb.recv())["type"] == "welcome"
            assert bo_connected()  # his socket is on B, his seat on A
            b.kill()
            deadline = time.monotonic() + 15
            while bo_connected():  # the owner sees the relay gone, as if the page had closed
                assert time.monotonic() < deadline, "the seat still counts a socket on a dead process"
                await asyncio.sleep(0.2)

    asyncio.run(main())
