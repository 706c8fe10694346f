"""The pace line and the facts the pace gauge reads: a steady pace that empties the middle with an
eighth of the clock to spare, and the bombs a game has taken from its middle."""

from __future__ import annotations

import pytest

from fusegame.observe import observation
from fusegame.pace import PaceLine, far_behind, gauge_level
from fusegame.rules.actions import Action
from fusegame.rules.config import GameConfig
from fusegame.rules.events import Event
from fusegame.rules.setup import new_game
from fusegame.rules.state import GameState
from fusegame.rules.tabletop import table_setup
from fusegame.server.replays import Replay
from fusegame.sim import Pace, game_seed, get_policy, play_game

GAMES = {"fuse": range(1, 6), "countdown": range(1, 5), "integrated": range(1, 5), "epic": range(6, 10)}


def test_the_line_empties_the_middle_with_an_eighth_of_the_clock_to_spare() -> None:
    # FUSE 3 players Standard: 21 bombs in the middle, 10 minutes: a bomb every 25 s, the middle
    # empty at 8:45 of play
    line = PaceLine(21, 600_000)
    assert line.every_ms == 25_000
    assert line.expected(0) == 0
    assert line.expected(300_000) == 12
    assert line.expected(525_000) == 21
    assert line.expected(590_000) == 21  # never more bombs than the middle holds
    assert line.ahead(14, 300_000) == 2
    assert line.ahead(9, 300_000) == -3
    # a shorter clock asks for a quicker pace
    assert PaceLine(21, 300_000).every_ms == 12_500
    with pytest.raises(ValueError, match="needs bombs and a clock"):
        PaceLine(0, 600_000)


def test_the_gauge_turns_red_later_at_tables_that_catch_up_late() -> None:
    # FUSE at one to three players: red from three bombs behind the line; at four and five, from
    # five. Countdown at four does not catch up late, and the games of both sets were not measured:
    # red from three there
    assert [far_behind("fuse", p) for p in range(1, 6)] == [-3, -3, -3, -5, -5]
    assert [far_behind("countdown", p) for p in range(1, 5)] == [-3] * 4
    assert far_behind("integrated", 4) == far_behind("epic", 9) == -3
    assert [gauge_level(s) for s in (2, 0, -1, -2, -3)] == ["ahead", "line", "behind", "behind", "far"]
    four = far_behind("fuse", 4)
    assert [gauge_level(s, four) for s in (-3, -4, -5, -6)] == ["behind", "behind", "far", "far"]
    # the view tells every client where red begins at its table
    assert observation(new_game(GameConfig(players=4), 1), 0)["pace"]["far"] == -5
    assert observation(new_game(GameConfig(players=4, game="countdown"), 1), 0)["pace"]["far"] == -3


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_starts_with_its_middle_size_in_the_middle(game: str) -> None:
    seen = 0
    for players in GAMES[game]:
        for level in ("training", "standard", "expert", "elite"):
            for setup in ("standard", "single-deck", "stacks"):
                try:
                    config = GameConfig(players=players, difficulty=level, game=game, setup=setup)
                except ValueError:
                    continue  # a setup this game does not have
                state = new_game(config, 7)
                assert state.bombs_in_middle() == config.middle_size, (players, level, setup)
                assert table_setup(config).middle == config.middle_size
                assert table_setup(config).to_dict()["middle"] == config.middle_size
                seen += 1
    assert seen >= len(GAMES[game]) * 4


class Paces:
    """The pace facts seat 0's view holds at the start of each turn, and at the end."""

    def __init__(self) -> None:
        self.paces: list[dict[str, int]] = []

    def turn(self, s: GameState) -> None:
        self.paces.append(observation(s, 0)["pace"])

    def acted(self, s: GameState, action: Action, events: list[Event]) -> None:
        pass

    def over(self, s: GameState) -> None:
        self.paces.append(observation(s, 0)["pace"])


def test_the_view_counts_the_bombs_taken_from_the_middle() -> None:
    # deal 1 of 3 players Training is won by the planner in play: the middle is emptied
    config = GameConfig(players=3, difficulty="training")
    seen = Paces()
    result = play_game(config, game_seed(2026, 1), get_policy("play"), Pace(), watch=seen)
    assert result.won
    first, last = seen.paces[0], seen.paces[-1]
    assert first == {"needed": config.middle_size, "taken": 0,
                     "every_ms": round(PaceLine(config.middle_size, 600_000).every_ms), "far": -3}
    taken = [p["taken"] for p in seen.paces]
    assert taken == sorted(taken)  # a bomb taken is never put back
    assert last["taken"] == last["needed"]  # the win took the last bomb


def test_no_gauge_without_a_clock_or_where_the_hands_must_be_cleared_too() -> None:
    untimed = new_game(GameConfig(players=3, time_limit=None), 1)
    assert observation(untimed, 0)["pace"] is None
    insane = new_game(GameConfig(players=3, difficulty="insane"), 1)
    assert observation(insane, 0)["pace"] is None
    heroic = new_game(GameConfig(players=3, difficulty="heroic", game="countdown"), 1)
    assert observation(heroic, 0)["pace"] is None


def test_a_replay_holds_the_bombs_taken_step_by_step() -> None:
    config = GameConfig(players=3, difficulty="training")
    record = play_game(config, game_seed(2026, 1), get_policy("play"), Pace(), record=True).record
    assert record is not None and record.outcome is not None and record.outcome.won
    summary = Replay(record).summary()
    pace, steps = summary["pace"], summary["steps"]
    assert (pace["needed"], pace["clock_ms"], pace["far"]) == (config.middle_size, 600_000, -3)
    taken = pace["taken"]
    assert taken[0] == [0, 0, 0] and taken[-1][1] == config.middle_size  # from the deal to the win
    assert [n for _, n, _ in taken] == sorted(n for _, n, _ in taken)
    assert all(steps[step]["time_ms"] == ms for ms, _, step in taken)
    untimed = play_game(GameConfig(players=3, difficulty="training", time_limit=None), game_seed(2026, 1),
                        get_policy("play"), Pace(), record=True).record
    assert untimed is not None
    assert Replay(untimed).summary()["pace"] is None
