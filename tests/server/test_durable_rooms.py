"""Rooms written down as they change and built again from the database when the server starts:
the same seats, tokens and table, the clock held until a player is back (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fusegame import GameConfig, new_game
from fusegame.record import final_state
from fusegame.server.app import create_app
from fusegame.server.lobby import Lobby, options_to_stored
from fusegame.server.options import RoomOptions, parse_options
from fusegame.server.room import Room
from fusegame.server.storage import Storage, StoredRoom
from fusegame.server.wire import CLOSE_MOVED
from fusegame.sim import get_policy, play_game
from pgserver import fresh_database, postgres_url  # noqa: F401
from roomclock import Clock, Page

pytestmark = pytest.mark.timeout(120)

Frame = dict[str, Any]


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'fuse.db'}"
    return fresh_database(request.getfixturevalue("postgres_url"))


@pytest.fixture
def storages(url: str) -> Iterator[Callable[[], Storage]]:
    """Opens the same database again, as a server started anew does."""
    opened: list[Storage] = []

    def open_() -> Storage:
        opened.append(Storage(url))
        return opened[-1]

    yield open_
    for s in opened:
        s.close()


def started(lobby: Lobby, **options: Any) -> tuple[Room, list[Page]]:
    """A two-player room with Ana and Bo seated, connected and ready: the game has begun."""
    room = lobby.open(parse_options({"players": 2, "difficulty": "training", "bot_delay_ms": 1000,
                                     **options}))
    pages = []
    for name in ("Ana", "Bo"):
        seat = room.join(name)
        page = Page(seat.index)
        room.connect(page)
        pages.append(page)
    for page in pages:
        room.handle(page, '{"type": "ready", "ready": true}')
    assert room.status == "playing"
    return room, pages


def play_moves(room: Room, pages: list[Page], clock: Clock, count: int) -> None:
    """The people play ``count`` moves, a second apart: the first placement, else what they may do."""
    for _ in range(count):
        clock.advance(1.0)
        for page in pages:
            moves = page.last("state")["moves"]
            if moves["place"] or moves["actions"]:
                action = moves["place"][0]["actions"][0] if moves["place"] else moves["actions"][0]["action"]
                room.handle(page, json.dumps({"type": "act", "action": action}))
                break


def test_a_room_comes_back_with_its_seats_tokens_and_table_and_waits_for_its_players(
        storages: Callable[[], Storage]) -> None:
    clock = Clock()
    lobby = Lobby(storages(), clock)
    room, (ana, bo) = started(lobby)
    play_moves(room, [ana, bo], clock, 8)
    room.handle(bo, '{"type": "bot", "seat": 1, "on": true}')  # Bo hands his seat to the bot...
    for _ in range(20):  # ...which plays for him as soon as his seat has something to do
        clock.advance(1.5)
        if room.seats[1].played == "person_then_bot":
            break
        play_moves(room, [ana], clock, 1)
    assert room.seats[1].played == "person_then_bot"
    before = room.match
    assert before is not None
    clock.advance(7.0)  # the server dies 7 s after its last change: no goodbye, nothing more written

    clock2 = Clock()
    lobby2 = Lobby(storages(), clock2)
    assert lobby2.resume() == 1
    back = lobby2.get(room.code.lower())
    assert back.match is not None and back.match.state == before.state and back.seq == room.seq
    assert [s.stored() for s in back.seats] == [s.stored() for s in room.seats]
    assert back.seats[0].token == room.seats[0].token and back.seats[0].played == "person"
    # the clock waits at the last change the server made: the 7 s it was gone are not the team's
    assert back.held_ms == before.state.time_ms
    watcher = Page(None)
    back.connect(watcher)
    held = watcher.last("state")
    assert held["seq"] == room.seq and held["clock"]["running"] is False
    clock2.advance(5.0)  # nobody is back yet: not even the bot in Bo's seat moves
    assert back.seq == room.seq
    ana2 = Page(back.seat_of(room.seats[0].token))
    back.connect(ana2)
    assert ana2.seat == 0 and ana2.frames[0]["name"] == "Ana"
    running = ana2.last("state")
    assert running["clock"]["running"] and running["view"] == held["view"]
    assert running["clock"]["left_ms"] == 600_000 - before.state.time_ms
    assert watcher.last("state")["clock"]["running"]  # everyone's clock runs again
    kept = len(before.log)
    for _ in range(20):  # Ana plays on, and the bot plays on for Bo
        play_moves(back, [ana2], clock2, 1)
        if any(a.seat == 1 for a in back.match.log.actions(kept)):
            break
    else:
        raise AssertionError("the bot never played Bo's seat after the restart")


def test_nobody_back_within_the_grace_period_bots_take_the_seats_and_the_clock_runs(
        storages: Callable[[], Storage]) -> None:
    clock = Clock()
    room, pages = started(Lobby(storages(), clock))
    play_moves(room, pages, clock, 4)
    seq = room.seq
    clock2 = Clock()
    lobby2 = Lobby(storages(), clock2)
    lobby2.resume()
    back = lobby2.rooms[room.code]
    clock2.advance(back.options.leave_grace_s - 1)
    assert back.held_ms is not None and back.seq == seq
    clock2.advance(3)
    assert back.held_ms is None and all(s.autoplay for s in back.seats)
    assert back.seq > seq and back.match is not None
    moved = {a.seat for a in back.match.log.actions(seq - 1) if a.seat >= 0}
    assert moved and all(back.seats[s].played == "person_then_bot" for s in moved)


def test_a_clean_stop_tells_the_pages_and_keeps_the_clock_where_it_stopped(
        storages: Callable[[], Storage]) -> None:
    clock = Clock()
    lobby = Lobby(storages(), clock)
    room, pages = started(lobby)
    play_moves(room, pages, clock, 5)
    assert room.match is not None
    last_move = room.match.state.time_ms
    clock.advance(3.0)  # three seconds after the last move, the server is told to stop
    asyncio.run(lobby.close())
    for page in pages:
        assert page.frames[-1] == {"type": "restarting"}
    room.handle(pages[0], '{"type": "act", "action": "done"}')  # a move still on its way is kept
    clock.advance(30.0)  # nothing runs on a stopping server's tables
    assert room.held_ms == last_move + 3000

    lobby2 = Lobby(storages(), Clock())
    lobby2.resume()
    back = lobby2.rooms[room.code]
    assert back.held_ms == last_move + 3000 and back.seq == room.seq
    assert back.match is not None and back.match.state == room.match.state


def test_a_game_that_ended_before_it_was_logged_is_logged_when_the_server_starts(url: str) -> None:
    config = GameConfig(players=2, difficulty="training")
    result = play_game(config, 5, get_policy("greedy"), record=True)
    assert result.record is not None
    broken_options = RoomOptions(GameConfig(players=1), seed=1)
    seats = [{"kind": "human", "name": n, "token": f"tok{n}", "ready": True, "autoplay": False,
              "played": "person"} for n in ("Ana", "Bo")]
    with Storage(url) as store:
        store.save_room(StoredRoom("ENDEDGAMEAAA", "playing", options_to_stored(RoomOptions(config)), 5,
                                   seats, datetime.now(UTC), actions=[str(a) for a in result.record.actions]))
        # a room whose record does not replay (an action the engine refuses) is kept, never resumed
        store.save_room(StoredRoom("BROKENROOMAA", "playing", options_to_stored(broken_options), 1, seats[:1],
                                   datetime.now(UTC), actions=["p0 place d99 F01 s1 @0"]))
    with TestClient(create_app(url)) as client:
        games = client.get("/api/log").json()["games"]
        assert [g["names"] for g in games] == [["Ana", "Bo"]]
        assert games[0]["score"]["total"] == final_state(result.record).outcome.score.total  # type: ignore[union-attr]
        assert client.get("/api/health").json()["rooms"] == 0
    with Storage(url) as store:
        assert [(r.code, r.status) for r in store.load_rooms()] == [("BROKENROOMAA", "broken")]


def test_a_room_with_hints_brought_back_gives_them_in_its_first_frame(
        storages: Callable[[], Storage]) -> None:
    # a page (or a script) that follows the hints must not wait for the next change after a restart
    clock = Clock()
    room, (ana, bo) = started(Lobby(storages(), clock), hints=True)
    assert ana.last("state")["hints"]
    lobby2 = Lobby(storages(), Clock())
    lobby2.resume()
    back = lobby2.get(room.code.lower())
    page = Page(back.seat_of(room.seats[0].token))
    back.connect(page)
    hints = page.last("state")["hints"]
    assert hints and {h["seat"] for h in hints} == {0, 1}, hints


def test_a_lobby_and_its_tokens_survive_a_restart_of_the_app(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'fuse.db'}"
    with TestClient(create_app(url)) as client:
        code = client.post("/api/rooms", json={"players": 3}).json()["code"]
        token = client.post(f"/api/rooms/{code}/join", json={"name": "Ana", "seat": 2}).json()["token"]
        with client.websocket_connect(f"/ws/{code}?token={token}") as ws:
            ws.send_json({"type": "bot", "seat": 0, "on": True})
            ws.send_json({"type": "ready", "ready": True})
            while not ws.receive_json()["type"] == "room":
                pass
    with TestClient(create_app(url)) as client:
        room = client.get(f"/api/rooms/{code}").json()["room"]
        assert [(s["kind"], s["name"]) for s in room["seats"]] == [("bot", "Bot 1"), ("open", ""),
                                                                   ("human", "Ana")]
        with client.websocket_connect(f"/ws/{code}?token={token}") as ws:
            welcome = ws.receive_json()
            assert (welcome["seat"], welcome["name"]) == (2, "Ana")


def test_a_match_started_from_a_scenario_is_not_kept(storages: Callable[[], Storage]) -> None:
    storage = storages()
    lobby = Lobby(storage, Clock())
    room = lobby.open(RoomOptions(GameConfig(players=1), seed=2))
    assert [r.code for r in storage.load_rooms()] == [room.code]
    room.join("Ana")
    room.start(new_game(GameConfig(players=1), 9))  # a position its record would not reach
    assert storage.load_rooms() == []


class MovablePage(Page):
    """A socket the server may close: it keeps the code it was closed with."""

    def __init__(self, seat: int | None) -> None:
        super().__init__(seat)
        self.closed_with: int | None = None

    def close_soon(self, code: int) -> None:
        self.closed_with = code


def test_a_room_taken_over_elsewhere_shows_nothing_more_here_even_to_a_page_that_just_found_it(
        storages: Callable[[], Storage]) -> None:
    """Two processes on one database: the second takes the room over while the first still plays
    it. The first is refused at its next write and lets the room go, its pages told to reconnect.
    A page whose socket had found the room on the first process just before (its look-up was
    under way) is neither greeted nor shown the table there: it is told to reconnect too, rather
    than be left with a table that will never move again."""
    clock = Clock()
    first = Lobby(storages(), clock)
    first.fenced = True
    room, _ = started(first)
    ana, bo = MovablePage(0), MovablePage(1)
    room.connect(ana)
    room.connect(bo)
    play_moves(room, [ana, bo], clock, 3)
    second = Lobby(storages(), Clock())
    second.fenced = True
    assert second.resume([room.code]) == 1
    shown = len(ana.frames)
    play_moves(room, [ana, bo], clock, 1)
    assert room.gone and room.code not in first.rooms
    assert ana.closed_with == bo.closed_with == CLOSE_MOVED and len(ana.frames) == shown
    late = MovablePage(0)
    room.connect(late)
    assert late.frames == [] and late.closed_with == CLOSE_MOVED
    assert late not in room.clients
    # a move already on its way from a page is neither played nor written into the room the
    # second process holds now
    held = second.storage.load_rooms([room.code])[0].actions
    offered = [(page, a) for page in (ana, bo) for a in
               [p["actions"][0] for p in page.last("state")["moves"]["place"]]
               + [a["action"] for a in page.last("state")["moves"]["actions"]]]
    assert offered
    page, action = offered[-1]
    page.closed_with = None
    room.handle(page, json.dumps({"type": "act", "action": action}))
    assert second.storage.load_rooms([room.code])[0].actions == held
    assert page.closed_with == CLOSE_MOVED and len(ana.frames) == shown
    # nor is a move the room makes by itself, from a timer already due as it moved (time up)
    room._time_up()
    assert second.storage.load_rooms([room.code])[0].actions == held
