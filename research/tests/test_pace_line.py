"""research/studies/pace_line.py: the middle it records follows the game, and its report counts each game once
at the gauge's step after each mark."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from conftest import load_study
from fusegame.rules.config import GameConfig
from fusegame.sim import Pace, game_seed, get_policy, play_game


@pytest.fixture(scope="module")
def study() -> ModuleType:
    return load_study("pace_line")


def test_the_middle_is_recorded_turn_by_turn(study: ModuleType) -> None:
    # deal 1 of 3 players Training is won by the planner in play: the middle is emptied
    config = GameConfig(players=3, difficulty="training")
    seen = study.Middle()
    result = play_game(config, game_seed(2026, 1), get_policy("play"), Pace(), watch=seen)
    assert seen.won and result.won
    assert seen.start == config.middle_size
    times = [t for t, _ in seen.turns]
    left = [n for _, n in seen.turns]
    assert times[0] == 15_000  # the first turn's 12 s and three dice
    assert times == sorted(times) and left == sorted(left, reverse=True)
    assert left[0] == config.middle_size and left[-1] >= 1  # the last bomb went during the last turn
    assert seen.end_ms >= times[-1]


def game(end_ms: int, turns: list[tuple[int, int]], won: bool) -> dict[str, object]:
    return {"deal": 0, "game": "fuse", "players": 3, "level": "standard", "clock_ms": 600_000,
            "needed": 21, "won": won, "end_ms": end_ms, "turns": turns}


def test_the_bombs_taken_are_read_at_the_last_turn_begun(study: ModuleType) -> None:
    g = game(400_000, [(15_000, 21), (100_000, 19), (290_000, 10), (310_000, 9)], True)
    assert study.taken_at(g, 10_000) == 0  # nothing taken before the first turn is recorded
    assert study.taken_at(g, 100_000) == 2
    assert study.taken_at(g, 300_000) == 11
    assert study.taken_at(g, 420_000) is None  # over by then


def test_the_report_counts_each_game_at_its_step(study: ModuleType, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    # at 5 minutes the line has taken 12: a won game on it (9 of 21 left), a lost one three
    # behind (12 left), and one over before then
    games = [game(590_000, [(295_000, 9)], True), game(600_000, [(299_000, 12)], False),
             game(250_000, [(240_000, 0)], True)]
    path = tmp_path / "g.jsonl"
    path.write_text("".join(json.dumps(g) + "\n" for g in games))
    study.report([str(path)])
    out = capsys.readouterr().out
    assert ("fuse 3p standard, 12+1 s, 3 games, 2 won; 21 bombs in the middle, "
            "the line a bomb every 25.0 s") in out
    # the colours' table: green (on the line) won 1 of 1, red (three behind) 0 of 1
    assert "| fuse 3p standard, 12+1 s | 1 / 1 (100%) | — | 0 / 1 (0%) |" in out
    five = next(line for line in out.splitlines() if "after 5 min" in line)
    assert "the line at 12.0 taken" in five
    assert "-3: 0/1" in five and "+0: 1/1" in five and "over by then: 1/1" in five


def test_collect_writes_every_deal_in_order_on_two_processes(study: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    study.collect("fuse", 3, "training", 4, 7, str(out), 2)
    games = [json.loads(line) for line in out.read_text().splitlines()]
    assert [g["deal"] for g in games] == [7, 8, 9, 10]  # the order of the deals, whichever finished first
    config = GameConfig(players=3, difficulty="training")
    for g in games:  # each line is that deal's game as one process plays it
        result = play_game(config, game_seed(2026, g["deal"]), get_policy("play"), Pace())
        assert g["won"] == result.won and g["needed"] == config.middle_size
