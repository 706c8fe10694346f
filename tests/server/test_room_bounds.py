"""What one room may cost: bots at full speed slow to a floor after a burst, a game stops taking
moves at its cap and ends with its clock, and the replays kept in memory stay within their bound."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from fusegame import GameConfig
from fusegame.server import room as room_module
from fusegame.server.lobby import Lobby
from fusegame.server.options import parse_options
from fusegame.server.replays import Replay, ReplayCache
from fusegame.server.room import Room
from fusegame.server.storage import Storage
from fusegame.sim import get_policy, play_game
from roomclock import Clock, Page

BURST = 20
CAP = 60


@pytest.fixture
def bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bounds made small, so that a test reaches them in a few seconds of planning."""
    monkeypatch.setattr(room_module, "BOT_BURST", BURST)
    monkeypatch.setattr(room_module, "MAX_ACTIONS", CAP)


def bots_only(clock: Clock) -> tuple[Room, Page]:
    """A 5-player Insane room at full speed (``bot_delay_ms: 0``), every seat a bot."""
    room = Room("BOUNDSBOUNDS", parse_options({"players": 5, "difficulty": "insane", "bot_delay_ms": 0,
                                               "hints": False, "seed": 7}), clock, host=None)
    return room, hand_to_bots(room)


def hand_to_bots(room: Room) -> Page:
    """Ana takes a seat, fills the others with bots, starts the game and hands her seat to a bot."""
    page = Page(room.join("Ana").index)
    room.connect(page)
    for message in ('{"type": "fill_bots"}', '{"type": "ready", "ready": true}',
                    '{"type": "bot", "seat": 0, "on": true}'):
        room.handle(page, message)
    return page


def actions(room: Room) -> int:
    assert room.match is not None
    return len(room.match.log)


def test_bots_at_full_speed_slow_to_the_floor_after_their_burst(bounds: None) -> None:
    clock = Clock()
    room, _ = bots_only(clock)
    for _ in range(200):
        clock.advance(0.001)
    assert actions(room) >= BURST  # the burst at the pace the room asked for: no wait at all
    at, start = actions(room), clock.now()
    while actions(room) < CAP - 10 and room.status == "playing":
        clock.advance(0.01)
    took = clock.now() - start
    # one action per floor at the most, for all the bots together, whatever their pace
    assert (actions(room) - at) <= took / room_module.BOT_FLOOR_S + 1


def test_a_game_at_its_cap_takes_no_more_moves_and_ends_with_its_clock(bounds: None) -> None:
    clock = Clock()
    room, _ = bots_only(clock)
    while actions(room) < CAP and room.status == "playing":
        clock.advance(0.05)
    assert room.status == "playing" and actions(room) == CAP
    assert room.match is not None and room.match.bot_timers == {}  # nothing left to decide
    waiting = room.match.state.to_act()
    assert waiting  # someone had a move to make...
    seat, _ = next(iter(waiting.items()))
    move = room.match.state.legal_actions(seat)[0].body()
    asked = Page(seat)
    room.connect(asked)
    room.seats[seat].kind, room.seats[seat].autoplay = "human", False
    room.handle(asked, json.dumps({"type": "act", "action": move}))
    refused = asked.last("error")  # ...and it is refused, with the reason
    assert refused["code"] == "illegal" and f"{CAP:,} moves" in refused["message"]
    clock.advance(600)  # the clock runs out: the game ends as a time-out, its record within the cap
    assert room.status == "over" and room.match.state.outcome is not None
    assert room.match.state.outcome.reason.value == "time-up" and actions(room) == CAP + 1


def test_the_replays_kept_in_memory_stay_within_their_steps() -> None:
    games = [play_game(GameConfig(players=p, difficulty="standard"), seed, get_policy("greedy"), record=True)
             for p, seed in ((2, 1), (3, 2), (4, 3))]
    replays = [Replay(g.record) for g in games if g.record is not None]
    steps = [len(r.steps) for r in replays]
    cache = ReplayCache(size=32, steps=steps[1] + steps[2])
    for i, r in enumerate(replays):
        assert cache.get(i, lambda r=r: r) is r
    # the oldest went to keep the newest within the bound
    assert list(cache.items) == [1, 2] and cache.held() == steps[1] + steps[2]
    assert cache.get(0, lambda: replays[0]) is replays[0] and cache.held() <= steps[1] + steps[2]


def test_an_untimed_game_at_its_cap_is_let_go_once_everyone_has_left(bounds: None, tmp_path: Path) -> None:
    async def main() -> None:
        clock = Clock()
        with Storage(f"sqlite:///{tmp_path / 'fuse.db'}") as storage:
            lobby = Lobby(storage, clock)
            room = lobby.open(parse_options({"players": 3, "difficulty": "insane", "bot_delay_ms": 0,
                                             "timed": False, "hints": False, "seed": 7}))
            page = hand_to_bots(room)
            while actions(room) < CAP and room.status == "playing":
                clock.advance(0.05)
            assert room.stuck and room.code in lobby.rooms
            room.disconnect(page)
            assert lobby.rooms == {} and storage.load_rooms() == []

    asyncio.run(main())
