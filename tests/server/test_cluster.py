"""Many ``fuse serve`` processes as one service: real processes sharing a real ``redis-server`` and
one SQLite database. A room is played by players whose sockets sit on different processes; the
process that owns a room is killed with SIGKILL mid-game and another one takes the room over from
the database, with the players' seats and nothing lost."""

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
import pytest
import redis
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from clusterpages import Frame, Player, seated
from fusegame.server.wire import CLOSE_MOVED
from fuseproc import FuseServer
from redisproc import RedisServer

pytestmark = pytest.mark.timeout(300)


@pytest.fixture
def with_redis(tmp_path: Path) -> Iterator[tuple[RedisServer, FuseServer, FuseServer]]:
    """Two server processes, A and B, on one Redis (which a test may stop) and one database."""
    with RedisServer(tmp_path / "redis") as redis:
        db = f"sqlite:///{tmp_path / 'fuse.db'}"
        args = ("--redis", redis.url, "--no-rate-limits")
        (tmp_path / "a").mkdir()
        (tmp_path / "b").mkdir()
        with FuseServer(db, tmp_path / "a", args=args) as a, FuseServer(db, tmp_path / "b", args=args) as b:
            a.start()
            b.start()
            yield redis, a, b


@pytest.fixture
def service(with_redis: tuple[RedisServer, FuseServer, FuseServer]) -> tuple[FuseServer, FuseServer]:
    """Two server processes, A and B, on one Redis and one database."""
    return with_redis[1], with_redis[2]


def new_room(server: FuseServer, players: int, difficulty: str = "training") -> str:
    r = httpx.post(server.base + "/api/rooms", json={"players": players, "difficulty": difficulty,
                                                     "bot_delay_ms": 0, "hints": False})
    assert r.status_code == 201, r.text
    return str(r.json()["code"])


def join(server: FuseServer, code: str, name: str) -> Frame:
    r = httpx.post(f"{server.base}/api/rooms/{code}/join", json={"name": name})
    assert r.status_code == 200, r.text
    body: Frame = r.json()
    return body


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


def seat_connected(owner: FuseServer, code: str, seat: int) -> bool:
    """Whether the room's owner counts a socket open in ``seat``."""
    return bool(httpx.get(f"{owner.base}/api/rooms/{code}").json()["room"]["seats"][seat]["connected"])


def test_a_socket_relayed_by_a_process_that_dies_leaves_its_seat(
        service: tuple[FuseServer, FuseServer]) -> None:
    a, b = service
    code = new_room(a, 2)
    join(a, code, "Ana")
    bo = join(b, code, "Bo")

    async def main() -> None:
        async with connect(f"{b.ws_base}/ws/{code}?token={bo['token']}") as wb:
            assert json.loads(await wb.recv())["type"] == "welcome"
            assert seat_connected(a, code, 1)  # his socket is on B, his seat on A
            b.kill()
            deadline = time.monotonic() + 15
            while seat_connected(a, code, 1):  # the owner sees the relay gone, as if the page had closed
                assert time.monotonic() < deadline, "the seat still counts a socket on a dead process"
                await asyncio.sleep(0.2)

    asyncio.run(main())


async def after_states(player: Player, n: int, games: asyncio.Future[Any]) -> None:
    start = len(player.seqs)
    while len(player.seqs) < start + n:
        assert not games.done(), f"the game ended too soon for this test: {games.result()}"
        await asyncio.sleep(0.05)


async def ready_then_seated(a: FuseServer, b: FuseServer, code: str, ana: Player,
                           bo: Player) -> asyncio.Future[list[Frame]]:
    """Ana says she is ready through A and Bo through B; then each plays the game to its end on
    a page that opens its socket on that process, and on the other one whenever it closes."""
    for server, p in ((a, ana), (b, bo)):
        async with connect(f"{server.ws_base}/ws/{code}?token={p.token}") as ws:
            await ws.send(json.dumps({"type": "ready", "ready": True}))
            await ws.recv()
    return asyncio.gather(seated(ana, [a, b], code), seated(bo, [b, a], code))


def test_a_rolling_restart_of_every_process_interrupts_no_game(
        with_redis: tuple[RedisServer, FuseServer, FuseServer]) -> None:
    redis, a, b = with_redis
    code = new_room(a, 2, "standard")
    ana = Player("Ana", join(a, code, "Ana")["token"], think=0.05)
    bo = Player("Bo", join(b, code, "Bo")["token"], think=0.05)

    async def main() -> tuple[Frame, Frame, list[int]]:
        games = await ready_then_seated(a, b, code, ana, bo)
        statuses = []
        for server in (a, b):  # one process at a time: stopped as a deploy stops it, started again
            await after_states(ana, 6, games)
            statuses.append(await asyncio.to_thread(server.terminate))
            await asyncio.to_thread(server.start)
        await after_states(ana, 6, games)
        ana.think = bo.think = 0  # the rest of the game as fast as it goes
        over_a, over_b = await games
        return over_a, over_b, statuses

    over_a, over_b, statuses = asyncio.run(main())
    assert set(statuses) <= {0, -signal.SIGTERM}  # uvicorn ends as the signal asked
    assert over_a["log_id"] == over_b["log_id"]
    assert ana.seqs == sorted(ana.seqs) and bo.seqs == sorted(bo.seqs)  # never a step back
    assert len(ana.welcomes) >= 3 and {w["seat"] for w in ana.welcomes} == {0}
    entry = httpx.get(f"{a.base}/api/log/{over_a['log_id']}").json()
    # people in both seats through both restarts, and a deal nobody chose (the game plays at a
    # script's pace at the end, so it is not ranked: that is the pace rule's business, not this test's)
    assert entry["played_by"] == ["person", "person"] and entry["bots"] == 0 and entry["seeded"] is False


def test_redis_restarted_under_a_game_the_service_recovers(
        with_redis: tuple[RedisServer, FuseServer, FuseServer]) -> None:
    redis, a, b = with_redis
    code = new_room(a, 2, "standard")
    ana = Player("Ana", join(a, code, "Ana")["token"], think=0.05)
    bo = Player("Bo", join(b, code, "Bo")["token"], think=0.05)

    async def main() -> tuple[Frame, Frame]:
        games = await ready_then_seated(a, b, code, ana, bo)
        await after_states(ana, 6, games)
        redis.stop()
        await asyncio.sleep(3)  # the rooms held by A play on meanwhile
        during = httpx.get(f"{b.base}/api/rooms/{code}")
        created = httpx.post(f"{b.base}/api/rooms", json={"players": 2})
        await asyncio.to_thread(redis.start)
        await after_states(bo, 6, games)
        ana.think = bo.think = 0
        over_a, over_b = await games
        # B cannot find the room's owner meanwhile, and says so rather than guess
        assert during.status_code == 503 and "try again" in during.json()["detail"]
        assert created.status_code == 503 and created.json()["reason"] == "unavailable"
        return over_a, over_b

    over_a, over_b = asyncio.run(main())
    assert over_a["log_id"] == over_b["log_id"]
    assert ana.seqs == sorted(ana.seqs) and bo.seqs == sorted(bo.seqs)
    said = a.output() + b.output()
    assert "Redis cannot be reached" in said and "Redis is back" in said


async def subscribed(r: redis.Redis, n: int, timeout: float = 20) -> None:
    """Until ``n`` processes listen on their channels in Redis."""
    deadline = time.monotonic() + timeout
    while len(await asyncio.to_thread(r.pubsub_channels)) != n:
        assert time.monotonic() < deadline, f"never {n} channels listened to"
        await asyncio.sleep(0.05)


def test_a_process_that_lost_its_channel_while_paused_hands_its_pages_back_to_the_room(
        with_redis: tuple[RedisServer, FuseServer, FuseServer]) -> None:
    """B relays Bo's page to the room A holds. While B is paused (a stalled machine), both
    processes lose their subscriptions (as when Redis restarts). A subscribes again, lets its side
    of the relayed sockets go and tells B so on B's channel, where nobody listens: the word, like
    every frame sent to B meanwhile, is lost. Once B runs again and subscribes anew, it closes the
    sockets it relays, so that Bo's page reconnects and is sent the whole table again instead of
    waiting on frames that are gone."""
    redis_server, a, b = with_redis
    code = new_room(a, 2, "standard")
    ana = Player("Ana", join(a, code, "Ana")["token"], think=0.05)
    bo = Player("Bo", join(b, code, "Bo")["token"], think=0.05)

    async def main(r: redis.Redis) -> tuple[Frame, Frame]:
        games = await ready_then_seated(a, b, code, ana, bo)
        await after_states(bo, 4, games)
        assert bo.connected_to == b.ws_base and len(bo.welcomes) == 1
        os.kill(b.pid, signal.SIGSTOP)
        try:
            await subscribed(r, 2)
            await asyncio.to_thread(r.client_kill_filter, _type="pubsub")
            await subscribed(r, 1)  # A listens again; B, paused, cannot
            await asyncio.sleep(1)  # the table moves on meanwhile, and nothing of it reaches B
        finally:
            os.kill(b.pid, signal.SIGCONT)
        await subscribed(r, 2)
        ana.think = bo.think = 0
        over_a, over_b = await asyncio.wait_for(games, 120)
        return over_a, over_b

    with redis.Redis.from_url(redis_server.url) as r:
        over_a, over_b = asyncio.run(main(r))
    assert over_a["log_id"] == over_b["log_id"]
    assert len(bo.welcomes) >= 2, "Bo's page was left on B with the frames it missed"
    assert bo.seqs == sorted(bo.seqs)


async def greeted_or_moved(ws: ClientConnection, within: float) -> bool:
    """Whether the page is greeted by its room (True) or told to reconnect (False) within
    ``within`` seconds; silence fails the test, since a page left so waits for ever."""
    try:
        async with asyncio.timeout(within):
            while json.loads(await ws.recv())["type"] != "welcome":
                pass
            return True
    except TimeoutError:
        raise AssertionError(f"the page heard nothing for {within} s, and was not let go") from None
    except ConnectionClosed as e:
        assert e.rcvd is not None and e.rcvd.code == CLOSE_MOVED, e
        return False


def test_a_process_paused_past_its_presence_hands_its_pages_back_to_the_room(
        with_redis: tuple[RedisServer, FuseServer, FuseServer]) -> None:
    """B relays Bo's page to the room A holds. B stalls for longer than its presence lasts in
    Redis, so A takes it for dead and lets Bo's seat go. B's connection to Redis holds what A
    sends meanwhile: once B runs again, A's word that the socket is gone reaches it, and Bo's page
    reconnects instead of waiting on a room that no longer writes to it."""
    _, a, b = with_redis
    code = new_room(a, 2)
    join(a, code, "Ana")
    bo = join(b, code, "Bo")

    async def main() -> None:
        async with connect(f"{b.ws_base}/ws/{code}?token={bo['token']}") as wb:
            assert await greeted_or_moved(wb, 10)
            os.kill(b.pid, signal.SIGSTOP)
            try:
                deadline = time.monotonic() + 20
                while seat_connected(a, code, 1):
                    assert time.monotonic() < deadline, "A never took the paused process for dead"
                    await asyncio.sleep(0.2)
            finally:
                os.kill(b.pid, signal.SIGCONT)
            assert not await greeted_or_moved(wb, 10)
        async with connect(f"{b.ws_base}/ws/{code}?token={bo['token']}") as wb:
            assert await greeted_or_moved(wb, 10)  # and his seat is his again
            assert seat_connected(a, code, 1)

    asyncio.run(main())


def test_a_socket_whose_opening_the_owner_never_heard_is_let_go(
        with_redis: tuple[RedisServer, FuseServer, FuseServer]) -> None:
    """A holds the room. While A is paused, its subscription is cut, and Bo opens a page on B:
    B relays the opening to A's channel, where nobody listens, and the word is lost. A subscribes
    again once it runs, knowing nothing of Bo's socket; B, never greeted by the room, lets the
    socket go so that the page reconnects, rather than leave it waiting in silence."""
    redis_server, a, b = with_redis
    code = new_room(a, 2)
    join(a, code, "Ana")
    bo = join(b, code, "Bo")

    async def main(r: redis.Redis) -> None:
        owner = r.get(f"fuse:room:{code}:owner")
        assert isinstance(owner, bytes)
        await subscribed(r, 2)
        os.kill(a.pid, signal.SIGSTOP)
        try:
            # each process names its connections after itself: only A's subscription is cut
            a_listens = [c["id"] for c in r.client_list()
                         if c["name"] == f"fuse:{owner.decode()}" and int(c["sub"]) > 0]
            assert len(a_listens) == 1
            r.client_kill_filter(_id=a_listens[0])
            await subscribed(r, 1)
            wb = await connect(f"{b.ws_base}/ws/{code}?token={bo['token']}")
            await asyncio.sleep(0.5)  # B has sent the opening on, to nobody
        finally:
            os.kill(a.pid, signal.SIGCONT)
        async with wb:
            greeted = await greeted_or_moved(wb, 15)
        assert not greeted, "the room greeted a socket whose opening was lost"
        async with connect(f"{b.ws_base}/ws/{code}?token={bo['token']}") as wb:
            assert await greeted_or_moved(wb, 10)

    with redis.Redis.from_url(redis_server.url) as r:
        asyncio.run(main(r))


class RaceSeat:
    """One player's socket in the claim race, read in the background."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.latest: Frame | None = None
        self.errors = 0
        self.over: Frame | None = None
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for raw in self.ws:
            m = json.loads(raw)
            if m["type"] == "state":
                self.latest = m
            elif m["type"] == "error":
                assert m["code"] == "illegal" or m.get("reason") == "over", m
                self.errors += 1
            elif m["type"] == "over":
                self.over = m

    @property
    def seq(self) -> int:
        return -1 if self.latest is None else int(self.latest["seq"])

    def dice(self) -> dict[int, str]:
        """The dice this seat may place now, each with one of its placements."""
        if self.latest is None:
            return {}
        return {p["die"]: p["actions"][0] for p in self.latest["moves"]["place"]}

    def any_action(self) -> str | None:
        if self.latest is None:
            return None
        moves = self.latest["moves"]
        return (moves["place"][0]["actions"][0] if moves["place"]
                else moves["actions"][0]["action"] if moves["actions"] else None)


async def until(cond: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.001)


def test_a_claim_race_across_two_processes_has_exactly_one_winner(
        service: tuple[FuseServer, FuseServer]) -> None:
    a, b = service
    rounds = {"raced": 0, "games": 0}

    async def one_game() -> None:
        r = httpx.post(a.base + "/api/rooms", json={"players": 2, "difficulty": "training", "timed": False,
                                                    "hints": False})
        code = r.json()["code"]
        ana, bo = join(a, code, "Ana")["token"], join(b, code, "Bo")["token"]
        async with connect(f"{a.ws_base}/ws/{code}?token={ana}") as wa, \
                connect(f"{b.ws_base}/ws/{code}?token={bo}") as wb:
            seats = [RaceSeat(wa), RaceSeat(wb)]  # Ana's socket on A (the owner), Bo's relayed by B
            for ws in (wa, wb):
                await ws.send(json.dumps({"type": "ready", "ready": True}))
            while True:
                await until(lambda: seats[0].over is not None or (
                    seats[0].seq == seats[1].seq >= 0), 10, "the two sockets never agreed on the table")
                if seats[0].over is not None:
                    break
                s = seats[0].seq
                both = sorted(set(seats[0].dice()) & set(seats[1].dice()))
                before = [x.errors for x in seats]
                if both:
                    # the same die, claimed at the same moment from two processes
                    d = both[0]
                    await asyncio.gather(*(x.ws.send(json.dumps({"type": "act", "action": x.dice()[d]}))
                                           for x in seats))
                    refused = sum(before)
                    await until(lambda s=s, refused=refused: sum(x.errors for x in seats) > refused
                                and min(x.seq for x in seats) > s, 5, "no claim was refused: two winners")
                    assert sum(x.errors for x in seats) - sum(before) == 1
                    rounds["raced"] += 1
                    continue
                mover = next((x for x in seats if x.any_action() is not None), None)
                if mover is None:
                    await until(lambda s=s: seats[0].over is not None or seats[0].seq > s,
                                10, "the game stalled")
                    continue
                await mover.ws.send(json.dumps({"type": "act", "action": mover.any_action()}))
                mine = before[seats.index(mover)]
                await until(lambda s=s, m=mover, mine=mine: seats[0].over is not None or m.errors > mine
                            or min(x.seq for x in seats) > s, 10, "an action got no answer")
            for x in seats:
                x.task.cancel()
        rounds["games"] += 1

    async def main() -> None:
        while rounds["raced"] < 1000:
            await one_game()

    asyncio.run(main())
    assert rounds["raced"] >= 1000
    log = httpx.get(b.base + "/api/log").json()
    assert log["total"] == rounds["games"]


def test_three_processes_one_room_a_player_on_each(tmp_path: Path) -> None:
    with RedisServer(tmp_path / "redis") as redis:
        db = f"sqlite:///{tmp_path / 'fuse.db'}"
        args = ("--redis", redis.url, "--no-rate-limits")
        servers = []
        with contextlib.ExitStack() as stack:
            for name in "abc":
                (tmp_path / name).mkdir()
                servers.append(stack.enter_context(FuseServer(db, tmp_path / name, args=args)))
                servers[-1].start()
            code = new_room(servers[1], 3)  # owned by the second process
            players = [Player(n, join(s, code, n)["token"]) for n, s in zip(("Ana", "Bo", "Cy"), servers,
                                                                              strict=True)]

            async def main() -> list[Frame | None]:
                async with contextlib.AsyncExitStack() as sockets:
                    wss = [await sockets.enter_async_context(
                        connect(f"{s.ws_base}/ws/{code}?token={p.token}"))
                        for s, p in zip(servers, players, strict=True)]
                    for ws in wss:
                        await ws.send(json.dumps({"type": "ready", "ready": True}))
                    plays = (p.play(ws) for p, ws in zip(players, wss, strict=True))
                    return list(await asyncio.gather(*plays))

            overs = asyncio.run(main())
            assert len({o["log_id"] for o in overs if o is not None}) == 1 and None not in overs
            assert [p.welcomes[0]["seat"] for p in players] == [0, 1, 2]
            assert len({p.seqs[-1] for p in players}) == 1  # every page saw the table to its last change
            for s in servers:
                assert httpx.get(f"{s.base}/api/log").json()["total"] == 1
