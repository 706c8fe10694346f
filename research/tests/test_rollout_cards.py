"""research/studies/rollout_cards.py: the roll-outs judge the card to take, and nothing else."""

from __future__ import annotations

import math
from types import ModuleType

import pytest

from conftest import load_study
from fusegame.rules.config import GameConfig
from fusegame.sim import Pace, game_seed, get_policy, play_game


@pytest.fixture(scope="module")
def study() -> ModuleType:
    return load_study("rollout_cards")


def test_a_gate_nothing_passes_plays_the_planner_in_plays_game(study: ModuleType) -> None:
    # the roll-outs only ever replace the card the planner in play would take: with a gate no
    # card can pass, the game is the planner's own, move for move, and every choice is recorded
    config = GameConfig(players=3, difficulty="expert")
    seed = game_seed(2026, 4)
    policy = study.RolloutCards(samples=1, gate=math.inf)
    mine = play_game(config, seed, policy, Pace(), record=True)
    theirs = play_game(config, seed, get_policy("play"), Pace(), record=True)
    assert mine.record is not None and theirs.record is not None
    assert mine.record.actions == theirs.record.actions
    assert policy.choices
    for choice in policy.choices:
        cards = choice["cards"]
        assert sum(c["planner"] for c in cards) == 1
        assert [c["taken"] for c in cards] == [c["planner"] for c in cards]
        assert all(0.0 <= c["wins"] <= 1.0 for c in cards)


def test_the_gate_passes_only_a_difference_the_futures_agree_on(study: ModuleType) -> None:
    # every future better: passes any gate; as many better as worse: none
    assert study._t([1.0, 1.0, 1.0]) == math.inf
    assert study._t([1.0, -1.0]) == 0.0
    assert study._t([2.0, 1.0, 3.0]) == pytest.approx(2.0 * math.sqrt(3))
