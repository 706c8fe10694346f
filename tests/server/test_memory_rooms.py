"""Bounded memory: a finished room leaves the server once its game is logged and its pages have
gone; a lobby nobody has open expires, in memory and in the database, on a timer of its own."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from fusegame import GameConfig
from fusegame.constraints import memo_limit, set_memo_limit
from fusegame.server.lobby import LOBBY_IDLE_S, Lobby
from fusegame.server.options import parse_options
from fusegame.server.storage import Storage
from fusegame.sim import get_policy, play_game
from fuseproc import FuseServer, rooms_held
from roomclock import Clock, Page

pytestmark = pytest.mark.timeout(300)

#: Bot games of several shapes, played back to back by one person who hands their seat to the bot.
GAMES: list[dict[str, Any]] = [
    {"players": 1, "difficulty": "training"},
    {"players": 2, "difficulty": "standard"},
    {"players": 3, "game": "countdown", "difficulty": "standard"},
    {"players": 4, "difficulty": "expert", "modules": ["roles", "sparks"]},
]


async def bot_game(http: httpx.AsyncClient, ws_base: str, options: dict[str, Any]) -> tuple[str, int, int]:
    """One game from the room's creation to its end; returns the room's code, the game's log id and
    the rooms the server held while it was being played."""
    code = (await http.post("/api/rooms", json={**options, "bot_delay_ms": 0, "hints": False})).json()["code"]
    token = (await http.post(f"/api/rooms/{code}/join", json={"name": "Ana"})).json()["token"]
    async with connect(f"{ws_base}/ws/{code}?token={token}", max_size=None) as ws:
        await ws.send(json.dumps({"type": "fill_bots"}))
        await ws.send(json.dumps({"type": "ready", "ready": True}))
        held = -1
        while True:
            m = json.loads(await ws.recv())
            if m["type"] == "state" and held < 0:
                held = (await http.get("/api/health")).json()["rooms"]
                await ws.send(json.dumps({"type": "bot", "seat": 0, "on": True}))
            if m["type"] == "over":
                return code, m["log_id"], held


def test_rooms_held_return_to_zero_after_many_bot_games_back_to_back(tmp_path: Path) -> None:
    with FuseServer(f"sqlite:///{tmp_path / 'fuse.db'}", tmp_path, args=("--no-rate-limits",)) as server:
        server.start()

        async def games() -> list[tuple[str, int, int]]:
            async with httpx.AsyncClient(base_url=server.base) as http:
                return [await bot_game(http, server.ws_base, GAMES[i % len(GAMES)]) for i in range(16)]

        played = asyncio.run(games())
        assert all(log_id is not None for _, log_id, _ in played)
        assert all(held == 1 for _, _, held in played)  # one room at a time: the finished ones have gone
        assert rooms_held(server.base, until=0) == 0
        log = httpx.get(server.base + "/api/log?limit=100").json()
        assert log["total"] == 16 and {g["id"] for g in log["games"]} == {i for _, i, _ in played}
        # their replays are served from the database, not from rooms kept in memory
        code, log_id, _ = played[0]
        assert httpx.get(f"{server.base}/api/log/{log_id}/replay").json()["count"] > 1
        # a page reloaded on a room that has gone is sent to its game in the log
        gone = httpx.get(f"{server.base}/api/rooms/{code}")
        assert gone.status_code == 404
        assert (gone.json()["reason"], gone.json()["params"]) == ("finished", {"log_id": log_id})

        async def reopen() -> dict[str, Any]:
            async with connect(f"{server.ws_base}/ws/{code.lower()}") as ws:
                frame: dict[str, Any] = json.loads(await ws.recv())
                return frame

        frame = asyncio.run(reopen())
        assert (frame["code"], frame["reason"], frame["params"]) == ("unknown_room", "finished",
                                                                      {"log_id": log_id})
        assert httpx.get(f"{server.base}/api/rooms/AAAABBBBCCCC").json().get("reason") is None


@pytest.fixture
def storage(tmp_path: Path) -> Iterator[Storage]:
    s = Storage(f"sqlite:///{tmp_path / 'fuse.db'}")
    yield s
    s.close()


def test_a_lobby_nobody_has_open_expires_and_an_open_one_waits(storage: Storage) -> None:
    clock = Clock()
    lobby = Lobby(storage, clock)
    options = parse_options({"players": 2})
    never_opened = lobby.open(options)
    watched = lobby.open(options)
    page = Page(None)
    watched.connect(page)
    clock.advance(LOBBY_IDLE_S - 60)
    assert set(lobby.rooms) == {never_opened.code, watched.code}
    clock.advance(120)
    # the room nobody opened is gone, from memory and from the database; the watched one stays
    assert set(lobby.rooms) == {watched.code}
    assert [r.code for r in storage.load_rooms()] == [watched.code]
    clock.advance(3 * LOBBY_IDLE_S)
    assert watched.code in lobby.rooms
    watched.disconnect(page)  # its idle time counts from now
    clock.advance(LOBBY_IDLE_S - 60)
    assert watched.code in lobby.rooms
    page2 = Page(None)
    watched.connect(page2)  # someone looks in again...
    watched.disconnect(page2)  # ...and leaves: the wait starts over
    clock.advance(120)
    assert watched.code in lobby.rooms
    clock.advance(LOBBY_IDLE_S)
    assert lobby.rooms == {} and storage.load_rooms() == []


def test_a_game_in_play_never_expires_with_nobody_connected(storage: Storage) -> None:
    async def main() -> None:
        clock = Clock()
        lobby = Lobby(storage, clock)
        room = lobby.open(parse_options({"players": 1, "difficulty": "insane", "timed": False,
                                         "bot_delay_ms": 10_000}))
        seat = room.join("Ana")
        page = Page(seat.index)
        room.connect(page)
        room.handle(page, '{"type": "ready", "ready": true}')
        room.disconnect(page)  # Ana goes: the bot takes her seat after the grace period and plays on
        for _ in range(2 * LOBBY_IDLE_S // 60):
            clock.advance(60)
            assert room.status == "over" or lobby.rooms == {room.code: room}
        assert room.seats[0].autoplay and room.match is not None and len(room.match.log) > 100
        await lobby.stores_done()  # a game the bot finished is logged, and its room has gone
        assert room.status == "playing" or (lobby.rooms == {} and storage.count_games() == 1)

    asyncio.run(main())


def test_the_servers_smaller_memos_change_no_move_of_the_bots() -> None:
    # the server keeps fewer card states in memory than a simulation does: only memory and speed
    # may differ, never a bot's move or the rules' answers
    configs = [GameConfig(players=3, difficulty="expert"), GameConfig(players=2, game="countdown")]
    before = memo_limit()
    try:
        wide = [play_game(c, 3, get_policy("team"), record=True).record for c in configs]
        set_memo_limit(3)
        narrow = [play_game(c, 3, get_policy("team"), record=True).record for c in configs]
    finally:
        set_memo_limit(before)
    assert [r.to_dict() for r in wide if r] == [r.to_dict() for r in narrow if r]
    assert all(r is not None and r.outcome is not None for r in narrow)


def test_spectators_joining_one_by_one_cost_the_room_a_frame_a_second_not_one_each(storage: Storage) -> None:
    # 800 spectators joining one after another were 321,200 frames: each join told every socket
    clock = Clock()
    lobby = Lobby(storage, clock)
    room = lobby.open(parse_options({"players": 2}))
    seat = room.join("Ana")
    ana = Page(seat.index)
    room.connect(ana)
    watchers = [Page(None) for _ in range(300)]
    for page in watchers:
        room.connect(page)
        clock.advance(0.01)  # 300 joins in three seconds
    clock.advance(2)
    told = [f for f in ana.frames if f["type"] == "room"]
    assert len(told) <= 6, len(told)
    # and the count is right once the news goes out, on every page, the last spectator's too
    assert told[-1]["room"]["spectators"] == 300
    assert watchers[-1].last("room")["room"]["spectators"] == 300
    sent = sum(len(p.frames) for p in [ana, *watchers])
    assert sent < 300 * 8, sent
    # a player's coming and going is told at once, as before
    room.disconnect(ana)
    assert watchers[0].last("room")["room"]["seats"][0]["connected"] is False
