"""What crosses a process boundary (to worker processes and Ray tasks) comes back equal, on either
engine: the compiled engine's frozen values need the reducers of ``fusegame.pickling``."""

from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys
from typing import Any

import pytest

import fusegame.pickling  # noqa: F401  (registers the reducers, as the worker pool does)
from fusegame import GameConfig, builtin_catalogue, new_game
from fusegame.rules.config import Game
from fusegame.sim.game import Pace, play_game
from fusegame.sim.policies import get_policy


def _round_trip(value: Any) -> Any:
    return pickle.loads(pickle.dumps(value))


@pytest.mark.parametrize("game", [Game.FUSE, Game.COUNTDOWN])
def test_game_results_with_their_records_come_back_equal(game: Game) -> None:
    result = play_game(GameConfig(players=4, game=game), 11, get_policy("random"), Pace(), record=True)
    back = _round_trip(result)
    assert back == result
    assert back.outcome is not None and back.outcome.score.total == result.score


def test_cards_dice_and_configs_come_back_equal() -> None:
    cat = builtin_catalogue()
    for value in (cat, GameConfig(players=5).dice_set, GameConfig(players=3, game=Game.COUNTDOWN), Pace()):
        assert _round_trip(value) == value
    card = cat.bombs[0]
    assert _round_trip(card).shape == card.shape


def test_every_kind_of_action_and_event_of_a_game_comes_back_equal() -> None:
    seen: set[str] = set()
    for game in (Game.FUSE, Game.COUNTDOWN):
        g = new_game(GameConfig(players=3, game=game), seed=4)
        rng = random.Random(4)
        while not g.is_over:
            actions = list(g.legal_actions())
            action = actions[rng.randrange(len(actions))]
            assert _round_trip(action) == action
            seen.add(action.verb)
            events = g.apply(action)
            for ev in events:
                assert _round_trip(ev) == ev
    assert {"place", "done", "take"} <= seen


def test_a_configuration_hashes_afresh_in_the_process_that_receives_it() -> None:
    config = GameConfig(players=3, game=Game.COUNTDOWN, modules=())
    hash(config)  # remembered in this process, where strings hash one way
    check = ("import pickle, sys\n"
             "from fusegame import GameConfig\n"
             "from fusegame.rules.config import Game\n"
             "got = pickle.loads(sys.stdin.buffer.read())\n"
             "fresh = GameConfig(players=3, game=Game.COUNTDOWN, modules=())\n"
             "print(got == fresh, hash(got) == hash(fresh), fresh in {got: 1})\n")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", check], input=pickle.dumps(config), env=env,
                         capture_output=True, timeout=120)
    assert out.returncode == 0, out.stderr.decode()
    assert out.stdout.decode().split() == ["True", "True", "True"]


def test_every_compiled_module_with_frozen_values_has_its_reducers() -> None:
    # setup.py names the modules a normal install compiles; a frozen dataclass in one of them that
    # fusegame.pickling does not walk could not come back from a worker on the compiled engine
    import ast
    import dataclasses
    import importlib
    from pathlib import Path

    setup = ast.parse((Path(__file__).resolve().parents[2] / "setup.py").read_text("utf-8"))
    compiled = next(ast.literal_eval(node.value) for node in ast.walk(setup) if isinstance(node, ast.Assign)
                    and any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets))
    with_frozen = set()
    for path in compiled:
        name = "fusegame." + path.removesuffix(".py").replace("/", ".")
        module = importlib.import_module(name)
        if any(isinstance(v, type) and v.__module__ == name and dataclasses.is_dataclass(v)
               and v.__dataclass_params__.frozen for v in vars(module).values()):
            with_frozen.add(name)
    assert "fusegame.rules.outcome" in with_frozen
    assert with_frozen <= set(fusegame.pickling.MODULES)
