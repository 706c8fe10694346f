"""The planner behind the bots and the hints thinks off the event loop, on the server's one planner
thread: a room whose bot is thinking holds up no other room, an answer for a table that has moved on
is not played (the planner is asked again), a room's planner and its memos leave with its game (or
with the room), and once no game is in play the memory the games used is handed back.

The slow position is made by hand: the planner is held until the test lets it go, so these tests
assert what happens in which order, never how long anything takes."""

from __future__ import annotations

import asyncio
import json
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from fusegame.bots import value
from fusegame.bots.team import TeamPlanner
from fusegame.memos import forget_card_memos
from fusegame.rules.state import GameState
from fusegame.server import lobby as lobby_module
from fusegame.server import room as room_module
from fusegame.server.app import create_app
from fusegame.server.options import parse_options
from fusegame.server.room import Room
from liveserver import Server, served
from roomclock import Clock, Page

pytestmark = pytest.mark.timeout(180)

Frame = dict[str, Any]
#: How long a test waits for a frame before it fails (never reached when the server works).
WAIT_S = 60.0


@contextmanager
def server() -> Iterator[Server]:
    with served(create_app("sqlite://", rate_limits=None)) as s:
        yield s


async def seated(http: httpx.AsyncClient, ws_base: str, options: dict[str, Any], name: str,
                 *, fill_bots: bool = False) -> tuple[str, ClientConnection, Frame]:
    """A room of ``options`` with ``name`` in seat 0, started; its code, socket and first state."""
    code = (await http.post("/api/rooms", json=options)).json()["code"]
    token = (await http.post(f"/api/rooms/{code}/join", json={"name": name})).json()["token"]
    ws = await connect(f"{ws_base}/ws/{code}?token={token}", max_size=None)
    if fill_bots:
        await ws.send(json.dumps({"type": "fill_bots"}))
    await ws.send(json.dumps({"type": "ready", "ready": True}))
    return code, ws, await until(ws, lambda f: f["type"] == "state")


async def until(ws: ClientConnection, pred: Callable[[Frame], bool]) -> Frame:
    async with asyncio.timeout(WAIT_S):
        while True:
            frame: Frame = json.loads(await ws.recv())
            if pred(frame):
                return frame


def placed_by(seat: int) -> Callable[[Frame], bool]:
    return lambda f: f["type"] == "state" and any(e.get("seat") == seat for e in f["events"])


def a_placement(frame: Frame) -> str:
    text: str = frame["moves"]["place"][0]["actions"][0]
    return text


def test_a_room_whose_bot_is_thinking_holds_up_no_other_room(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[GameState] = []
    threads: set[str] = set()
    thinking, go_on = threading.Event(), threading.Event()
    real = room_module.advise

    def slow(state: GameState, planner: TeamPlanner, *args: Any) -> Any:
        asked.append(state)
        threads.add(threading.current_thread().name)
        thinking.set()
        go_on.wait(2 * WAIT_S)  # a position the planner takes its time over, until the test says
        return real(state, planner, *args)

    monkeypatch.setattr(room_module, "advise", slow)

    async def play(s: Server) -> None:
        ws_base = s.base.replace("http", "ws", 1)
        async with httpx.AsyncClient(base_url=s.base) as http:
            # Ana plays beside a bot, whose first decision the planner now works on
            _, ana, first = await seated(http, ws_base, {"players": 2, "difficulty": "training",
                                                         "bot_delay_ms": 0, "seed": 5}, "Ana",
                                         fill_bots=True)
            assert await asyncio.to_thread(thinking.wait, WAIT_S)
            # another room's claim is answered while the planner is still thinking
            _, bo, state = await seated(http, ws_base, {"players": 1, "difficulty": "training",
                                                        "seed": 6}, "Bo")
            await bo.send(json.dumps({"type": "act", "action": a_placement(state)}))
            await until(bo, placed_by(0))
            assert len(asked) == 1 and not go_on.is_set()
            # Ana places a die too, at her own table, while the bot still thinks about the table
            # as it was: the answer that comes back is for a table gone by
            await ana.send(json.dumps({"type": "act", "action": a_placement(first)}))
            await until(ana, placed_by(0))
            go_on.set()
            await until(ana, placed_by(1))  # the bot acts, on the table as it is now
            assert len(asked) >= 2
            assert all(name.startswith("fuse-planner") for name in threads), threads
            assert len(asked[1].unplaced()) == len(asked[0].unplaced()) - 1  # with Ana's die placed
            await ana.close()
            await bo.close()

    try:
        with server() as s:
            asyncio.run(play(s))
    finally:
        go_on.set()


def released(planners: list[TeamPlanner]) -> bool:
    """Whether nothing but ``planners`` holds each of them (the list, and ``getrefcount``'s own
    argument), once the server has had the time to let them go."""
    deadline = time.monotonic() + WAIT_S
    while not all(sys.getrefcount(planners[i]) <= 2 for i in range(len(planners))):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.fixture
def released_memory(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The threads ``release_memory`` ran on, once no game is left in play (at once, here)."""
    ran: list[str] = []
    real = lobby_module.release_memory

    def release() -> None:
        real()
        ran.append(threading.current_thread().name)

    monkeypatch.setattr(lobby_module, "release_memory", release)
    monkeypatch.setattr(lobby_module, "RELEASE_AFTER_S", 0.0)
    return ran


@pytest.fixture
def planners(monkeypatch: pytest.MonkeyPatch) -> list[TeamPlanner]:
    made: list[TeamPlanner] = []

    def make(*args: Any) -> TeamPlanner:
        p = TeamPlanner(*args)
        made.append(p)
        return p

    monkeypatch.setattr(room_module, "TeamPlanner", make)
    return made


def test_a_room_lets_its_planner_go_when_its_game_ends(planners: list[TeamPlanner],
                                                       released_memory: list[str]) -> None:
    async def play(s: Server) -> str:
        ws_base = s.base.replace("http", "ws", 1)
        async with httpx.AsyncClient(base_url=s.base) as http:
            code, ws, _ = await seated(http, ws_base, {"players": 1, "difficulty": "training",
                                                       "bot_delay_ms": 0, "hints": True, "seed": 3}, "Ana")
            await ws.send(json.dumps({"type": "bot", "seat": 0, "on": True}))
            await until(ws, lambda f: f["type"] == "over")
            # the page is still open, so the room is still held: its planner has gone all the same
            held = s.call(lambda: code in s.app.state.lobby.rooms)
            assert held
            assert planners and await asyncio.to_thread(released, planners)
            # and with no game left in play, the memory the games used goes back, on the
            # planner's thread (the card models are its own)
            async with asyncio.timeout(WAIT_S):
                while not released_memory:
                    await asyncio.sleep(0.05)
            assert all(name.startswith("fuse-planner") for name in released_memory)
            await ws.close()
            return code

    with server() as s:
        asyncio.run(play(s))


def test_a_room_that_leaves_the_server_in_play_lets_its_planner_go(planners: list[TeamPlanner]) -> None:
    async def play(s: Server) -> None:
        ws_base = s.base.replace("http", "ws", 1)
        async with httpx.AsyncClient(base_url=s.base) as http:
            code, ws, _ = await seated(http, ws_base, {"players": 2, "difficulty": "training",
                                                       "bot_delay_ms": 0, "seed": 4}, "Ana", fill_bots=True)
            await until(ws, placed_by(1))  # the bot has played: its room has a planner
            assert planners
            lobby = s.app.state.lobby
            match = s.call(lambda: lobby.rooms[code].match)
            s.call(lambda: lobby.lost(lobby.rooms[code]))  # another process holds it now
            assert match is not None and match.planner is None and code not in lobby.rooms
            del match
            assert await asyncio.to_thread(released, planners)
            await ws.close()

    with server() as s:
        asyncio.run(play(s))


def bot_game(record: list[str]) -> int:
    """A one-player game the bot plays from the start, on a clock the test moves (the planner
    answers at once); its actions go to ``record``; returns the planners it made."""
    made = 0
    real = room_module.TeamPlanner

    def make(*args: Any) -> TeamPlanner:
        nonlocal made
        made += 1
        return real(*args)

    room_module.TeamPlanner = make  # type: ignore[misc,assignment]
    try:
        clock = Clock()
        room = Room("AAAAA", parse_options({"players": 2, "difficulty": "standard", "bot_delay_ms": 0,
                                            "hints": True, "seed": 8}), clock)
        room.join("Ana")
        page = Page(0)
        room.connect(page)
        room.handle(page, '{"type": "fill_bots"}')
        room.handle(page, '{"type": "ready", "ready": true}')
        room.handle(page, '{"type": "bot", "seat": 0, "on": true}')
        while room.status == "playing":
            clock.advance(1.0)
        assert room.match is not None and room.match.planner is None
        record.extend(str(a) for a in room.match.record.actions)
        # every state frame of a room with hints carries them at once on such a clock
        assert all(f["hints"] is not None for f in page.frames if f["type"] == "state"
                   and f["view"]["outcome"] is None)
    finally:
        room_module.TeamPlanner = real  # type: ignore[misc]
    return made


def test_forgetting_the_card_memos_changes_no_move_of_the_bots() -> None:
    before: list[str] = []
    bot_game(before)
    assert value._MODELS  # the models the game built, kept for the next game...
    forget_card_memos()  # ...until no game is in play on the server
    assert not value._MODELS
    again: list[str] = []
    bot_game(again)
    assert again == before


def test_a_planner_that_outgrows_its_bound_is_started_afresh_and_plays_the_same_moves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    kept: list[str] = []
    assert bot_game(kept) == 1
    monkeypatch.setattr(room_module, "PLANNER_ENTRIES", 0)  # a new planner after every decision
    fresh: list[str] = []
    made = bot_game(fresh)
    assert made > 10
    assert fresh == kept  # memos only save time: the game is move for move the same
