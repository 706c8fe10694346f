"""Three ``fuse serve`` processes on one Redis and one PostgreSQL database, with the default rate
limits, while Redis is killed and started again (one process stalled meanwhile), then frozen, under
games in play: pages reconnect to any process (as a load balancer would send them), rooms change
hands under a process that still plays them, and still every room is logged exactly once, no two
pages see two tables under one ``seq``, and nothing answers 500.

What keeps it so is the room's epoch in the database (``fusegame.server.storage.RoomMoved``): a
process that took a room over raised it, and the process that held the room before is refused at
its next write, before it could show or log anything more."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from websockets.asyncio.client import connect

from clusterpages import Frame, Player, seated
from fuseproc import FuseServer
from pgserver import fresh_database, postgres_url  # noqa: F401
from redisproc import RedisServer

pytestmark = pytest.mark.timeout(420)

ROOMS = 6
#: How long the pages may wait for the tables they need (``TABLES_WAIT_S``), or for the end of their
#: games once Redis is back (``END_WAIT_S``), before the test fails saying where each page is: both
#: well within the test's own time limit, which would say nothing.
TABLES_WAIT_S = 120
END_WAIT_S = 240


class Page(Player):
    """A player's page that keeps the table it was shown at each ``seq``."""

    def __init__(self, name: str, token: str, think: float, address: str, code: str) -> None:
        super().__init__(name, token, think)
        self.address = address  # each player at an address of their own, as the proxy says
        self.code = code
        self.tables: dict[int, str] = {}
        self.ended = False
        self.last: tuple[float, str] = (time.monotonic(), "nothing yet")  # when, and what

    def waiting(self) -> str:
        """Where the page is and what it last read, for a failure to say."""
        seq = self.seqs[-1] if self.seqs else None
        return (f"{self.name} of {self.code} on {self.connected_to}: last read {self.last[1]} "
                f"(seq {seq}) {time.monotonic() - self.last[0]:.0f} s ago")

    async def play(self, ws: Any, stop_after: int | None = None) -> Frame | None:
        over = await super().play(ws, stop_after)
        self.ended = over is not None
        return over

    def saw(self, frame: Frame) -> None:
        self.last = (time.monotonic(), frame["type"])
        if frame["type"] == "state":
            self.tables.setdefault(frame["seq"], json.dumps(frame["view"], sort_keys=True))


class Statuses:
    """Every HTTP status the pages and the test were answered."""

    def __init__(self) -> None:
        self.seen: list[int] = []

    def post(self, url: str, body: dict[str, Any], address: str) -> httpx.Response:
        r = httpx.post(url, json=body, timeout=30, headers={"X-Forwarded-For": address})
        self.seen.append(r.status_code)
        return r


@pytest.fixture
def three(tmp_path: Path, postgres_url: str) -> Iterator[tuple[RedisServer, list[FuseServer], str]]:  # noqa: F811
    db = fresh_database(postgres_url)
    with RedisServer(tmp_path / "redis") as redis, contextlib.ExitStack() as stack:
        servers = []
        for name in "abc":
            (tmp_path / name).mkdir()
            servers.append(stack.enter_context(FuseServer(db, tmp_path / name, args=("--redis", redis.url))))
            servers[-1].start()
        yield redis, servers, db


def test_redis_killed_then_frozen_under_three_processes_every_room_logged_once(
        three: tuple[RedisServer, list[FuseServer], str]) -> None:
    redis, servers, db = three
    http = Statuses()
    rooms: list[tuple[str, list[tuple[Page, int]]]] = []
    for r in range(ROOMS):
        made = http.post(servers[r % 3].base + "/api/rooms", {"players": 2, "difficulty": "standard",
                                                              "hints": False}, f"198.51.100.{r}")
        assert made.status_code == 201, made.text
        code = made.json()["code"]
        seats = []
        for i, name in enumerate(("Ana", "Bo")):
            at = (r + 1 + i) % 3  # the two seats on two processes, one of them not the owner
            address = f"203.0.113.{2 * r + i}"
            joined = http.post(f"{servers[at].base}/api/rooms/{code}/join", {"name": name}, address)
            assert joined.status_code == 200, joined.text
            seats.append((Page(name, joined.json()["token"], 0.15, address, code), at))
        rooms.append((code, seats))
    async def main() -> list[list[Frame]]:
        for code, seats in rooms:
            for page, at in seats:
                async with connect(f"{servers[at].ws_base}/ws/{code}?token={page.token}",
                                   additional_headers={"X-Forwarded-For": page.address}) as ws:
                    await ws.send(json.dumps({"type": "ready", "ready": True}))
                    await ws.recv()
        pages = [p for _, seats in rooms for p, _ in seats]
        games = asyncio.gather(*(asyncio.gather(*(seated(p, servers, code, at, {"X-Forwarded-For": p.address})
                                                   for p, at in seats))
                                 for code, seats in rooms))

        def stuck() -> str:
            """Where each page still playing is, and what each process said last."""
            logs = "".join(f"\n--- {s.ws_base}:\n{s.output()[-1500:]}" for s in servers)
            return "; ".join(p.waiting() for p in pages if not p.ended) + logs

        async def states(n: int) -> None:
            """Until every page whose game goes on has seen ``n`` more tables."""
            start = [len(p.seqs) for p in pages]
            deadline = time.monotonic() + TABLES_WAIT_S
            while any(len(p.seqs) - s < n and not p.ended for p, s in zip(pages, start, strict=True)):
                assert not games.done(), "the games ended too soon for this test"
                assert time.monotonic() < deadline, f"pages waited {TABLES_WAIT_S} s for tables: {stuck()}"
                await asyncio.sleep(0.05)

        await states(4)
        # the first process stalls (a long pause of its own) while Redis is killed and started
        # again: every lease and every count is gone, the pages relayed to it reconnect elsewhere,
        # and the other processes take its rooms over while it still believes it holds them
        os.kill(servers[0].pid, signal.SIGSTOP)
        redis.stop()
        await asyncio.sleep(2)
        await asyncio.to_thread(redis.start)
        await asyncio.sleep(4)
        os.kill(servers[0].pid, signal.SIGCONT)
        await states(4)
        assert redis.proc is not None
        os.kill(redis.proc.pid, signal.SIGSTOP)  # frozen past the leases' lifetime
        await asyncio.sleep(5)
        os.kill(redis.proc.pid, signal.SIGCONT)
        await states(4)
        for p in pages:
            p.think = 0.03  # quicker to the end, within the limit on messages an address may send
        try:
            return [list(g) for g in await asyncio.wait_for(games, END_WAIT_S)]
        except TimeoutError:
            raise AssertionError(f"the games did not end within {END_WAIT_S} s: {stuck()}") from None

    overs = asyncio.run(main())

    with psycopg.connect(db) as conn:
        logged = dict(conn.execute("SELECT room_code, count(*) FROM games GROUP BY room_code").fetchall())
    assert logged == {code: 1 for code, _ in rooms}
    for (code, seats), over in zip(rooms, overs, strict=True):
        assert len({o["log_id"] for o in over}) == 1 and over[0]["log_id"] is not None, (code, over)
        ana, bo = (p for p, _ in seats)
        for page in (ana, bo):
            seqs = page.seqs
            back = [seqs[i - 3:i + 3] for i in range(1, len(seqs)) if seqs[i] < seqs[i - 1]]
            assert back == [], f"{code}: {page.name} saw the table step back"
        both = ana.tables.keys() & bo.tables.keys()
        assert both, code
        assert [s for s in both if ana.tables[s] != bo.tables[s]] == [], f"{code}: two tables under one seq"
    assert 500 not in http.seen
    said = "".join(s.output() for s in servers)
    assert "Exception in ASGI application" not in said and " 500 " not in said
    # the rooms of the process that stalled changed hands, and it let them go
    assert "held by another process now" in servers[0].output()
    assert "took over" in servers[1].output() + servers[2].output()
