"""A game in play keeps its actions as text (``ActionLog``): what comes back out of it, and what
the log gets from a room, are the actions as they were played, times included."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from fusegame import GameConfig
from fusegame.record import GameRecord, final_state
from fusegame.rules.actions import Action
from fusegame.server.actionlog import ActionLog
from fusegame.server.lobby import Lobby
from fusegame.server.options import parse_options
from fusegame.server.storage import Storage
from fusegame.sim import get_policy, play_game
from roomclock import Clock, bots_play_it_out


@pytest.fixture
def storage(tmp_path: Path) -> Iterator[Storage]:
    s = Storage(f"sqlite:///{tmp_path}/log.db")
    yield s
    s.close()


def played(config: GameConfig, seed: int) -> list[Action]:
    result = play_game(config, seed, get_policy("greedy"), record=True)
    assert result.record is not None
    return result.record.actions


@pytest.mark.parametrize("config", [GameConfig(players=4, difficulty="expert", modules=("roles", "sparks")),
                                    GameConfig(players=3, game="countdown")], ids=["fuse", "countdown"])
def test_the_actions_come_back_as_they_were_appended_whole_or_in_part(config: GameConfig) -> None:
    actions = played(config, 7)
    log = ActionLog()
    for a in actions:
        log.append(a)
    assert len(log) == len(actions) > 50
    assert log.actions() == actions and all(a.at is not None for a in log.actions())
    assert log.texts() == [str(a) for a in actions]
    n = len(actions)
    for start, stop in [(0, 0), (0, 1), (5, 17), (n - 1, n), (n - 3, None), (n, n), (n, None), (10, n + 5)]:
        assert log.texts(start, stop) == [str(a) for a in actions[start:stop]], (start, stop)
        assert log.actions(start, stop) == actions[start:stop]
    assert ActionLog(actions).texts() == log.texts()


def test_a_finished_room_logs_the_game_it_played(storage: Storage) -> None:
    async def main() -> None:
        clock = Clock()
        lobby = Lobby(storage, clock)
        room = lobby.open(parse_options({"players": 3, "difficulty": "standard", "bot_delay_ms": 0}))
        bots_play_it_out(room, clock)
        m = room.match
        assert m is not None and m.state.outcome is not None
        assert m.record_data() == m.record().to_dict()
        await lobby.stores_done()
        (entry,) = storage.list_games()
        got = storage.get_game(entry.id)
        assert got is not None and got.record is not None
        record = GameRecord.from_dict(got.record)
        assert record.action_texts() == m.log.texts() and record.outcome == m.state.outcome
        again = final_state(record)  # the log's record replays to the table the room ended on
        assert again.outcome == m.state.outcome and again.time_ms == m.state.time_ms

    asyncio.run(main())
