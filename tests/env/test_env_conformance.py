"""The environments pass PettingZoo's and Gymnasium's own conformance checks on several games."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import pytest
from env_configs import API_CONFIGS
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import (
    api_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
    state_test,
)

import fusegame.env as fenv
from fusegame.env.benchmark import PRESETS

#: every preset of the benchmark, and an epic game
PRESET_CONFIGS = [pytest.param(p.options, id=p.name) for p in PRESETS.values()] + [
    pytest.param({"game": "epic", "players": 7}, id="epic-7")]


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    # the checkers warn that a dict observation is not a Box: PettingZoo's classic games do the same
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("options", API_CONFIGS)
def test_aec_api(options: dict[str, Any]) -> None:
    api_test(fenv.env(**options), num_cycles=60)


@pytest.mark.parametrize("options", API_CONFIGS)
def test_parallel_api(options: dict[str, Any]) -> None:
    parallel_api_test(fenv.parallel_env(**options), num_cycles=60)


@pytest.mark.parametrize("options", API_CONFIGS[:4])
def test_seed(options: dict[str, Any]) -> None:
    seed_test(lambda: fenv.env(**options), num_cycles=40)
    parallel_seed_test(lambda: fenv.parallel_env(**options), num_cycles=40)


@pytest.mark.parametrize("options", [
    pytest.param({}, id="solo"),
    pytest.param({"players": 3, "mask_in_obs": False}, id="fuse-3-team-partners"),
    pytest.param({"game": "countdown", "players": 2, "difficulty": "expert", "partners": "greedy"},
                 id="countdown-2-greedy-partner"),
])
def test_gymnasium_check_env(options: dict[str, Any]) -> None:
    env = gymnasium.make(fenv.GYM_ID, **options)
    check_env(env.unwrapped, skip_render_check=True)


@pytest.mark.parametrize("options", PRESET_CONFIGS)
def test_presets_pass_every_check(options: dict[str, Any]) -> None:
    api_test(fenv.env(**options), num_cycles=40)
    parallel_api_test(fenv.parallel_env(**options), num_cycles=40)
    seed_test(lambda: fenv.env(**options), num_cycles=20)
    parallel_seed_test(lambda: fenv.parallel_env(**options), num_cycles=20)
    state_test(fenv.env(**options), fenv.parallel_env(**options), num_cycles=20)
    render_test(lambda render_mode=None: fenv.env(**options, render_mode=render_mode))
    check_env(gymnasium.make(fenv.GYM_ID, **options).unwrapped, skip_render_check=True)
