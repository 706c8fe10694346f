"""research/studies/where_turns_go.py: what it reads from a game agrees with the game itself."""

from __future__ import annotations

from types import ModuleType

import pytest

from conftest import load_study
from fusegame.rules.config import GameConfig
from fusegame.sim import Pace, game_seed, get_policy, play_game


@pytest.fixture(scope="module")
def study() -> ModuleType:
    return load_study("where_turns_go")


def test_a_won_games_counts_add_up(study: ModuleType) -> None:
    # deal 1 of 3 players Training is won well before turn 30 by the planner in play
    config = GameConfig(players=3, difficulty="training")
    counts = study.Counts()
    result = play_game(config, game_seed(2026, 1), get_policy("play"), Pace(), watch=counts)
    assert result.won and result.turns < 30
    c, last = counts.c, counts.last
    assert last is not None and last.outcome == result.outcome
    # every bomb of the middle was taken, so by every turn counted the game had taken what it
    # took in the end, and it defused one bomb for each
    assert c["taken_by_turn_30"] == counts.bombs_at_start == c["defused"] == c["takes"]
    assert c["taken_by_turn_10"] <= c["taken_by_turn_20"] <= c["taken_by_turn_30"]
    # the deal's work splits into the least a win must do and the six hardest cards, and the six
    # cards this win left unfinished can hold no more work than those
    assert len(counts.work) == counts.bombs_at_start + 6
    assert c["deal_least_work"] + counts.hardest == pytest.approx(sum(counts.work.values()))
    unfinished = [hc for hand in last.hands for hc in hand if not hc.complete]
    assert len(unfinished) == 6
    assert 0 < c["won_duds_work"] <= c["won_hardest_work"] == counts.hardest
    assert c["turns"] == result.turns and c["placed"] > 0
