"""``TeamPlanner.prepare`` builds every card model a game can meet before its first roll: the game
then builds none (no roll pays for a card's first meeting), and its plans are the same as without."""

from __future__ import annotations

import pytest

from fusegame.bots import value
from fusegame.bots.team import PLAY_WEIGHTS, TeamPlanner
from fusegame.rules import GameConfig
from fusegame.rules.state import new_game
from fusegame.sim import Pace, game_seed
from fusegame.sim.game import play_game


@pytest.mark.parametrize("config", [GameConfig(players=3), GameConfig(game="countdown", players=2)],
                         ids=["fuse-3p", "countdown-2p"])
def test_a_prepared_game_builds_no_model_and_plays_the_same(config: GameConfig) -> None:
    value._MODELS.clear()
    cold = play_game(config, game_seed(11, 0), TeamPlanner(PLAY_WEIGHTS), Pace())
    value._MODELS.clear()
    planner = TeamPlanner(PLAY_WEIGHTS)
    cards = planner.prepare(new_game(config, game_seed(11, 0)))
    assert cards == len(config.playable.bombs) + len(config.playable.sparks)
    built = dict(value._MODELS)
    warm = play_game(config, game_seed(11, 0), planner, Pace())
    assert value._MODELS == built, "a model was built during the game"
    assert (warm.won, warm.score, warm.turns) == (cold.won, cold.score, cold.turns)
