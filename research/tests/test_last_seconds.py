"""research/studies/last_seconds.py: the variant plays the planner in play's very moves until its window
opens, which is what lets the study play it only on the deals that reach the window."""

from __future__ import annotations

from types import ModuleType

import pytest

from conftest import load_study
from fusegame.rules.config import GameConfig
from fusegame.sim import Pace, game_seed, get_policy, play_game


@pytest.fixture(scope="module")
def study() -> ModuleType:
    return load_study("last_seconds")


def test_before_the_window_the_variant_plays_the_planners_moves(study: ModuleType) -> None:
    # deal 30,063 of 3 players Standard is lost by the planner in play on time, so the game reaches
    # the last 20 seconds, where the variant's roll-outs choose
    config = GameConfig(players=3, difficulty="standard")
    seed = game_seed(2026, 30063)
    play = play_game(config, seed, get_policy("play"), Pace(), record=True)
    variant = study.LastSeconds(samples=2, plans=2, window_s=20)
    tried = play_game(config, seed, variant, Pace(), record=True, checked=True)
    assert not play.won and play.time_ms == 600_000
    assert play.record is not None and tried.record is not None
    opens = 580_000
    before = [a for a in play.record.actions if a.at is not None and a.at < opens]
    assert tried.record.actions[:len(before)] == before
    assert variant.decisions, "the roll-outs chose nothing in the window"
    assert tried.outcome is not None
