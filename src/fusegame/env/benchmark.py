"""FUSE as a benchmark: named presets, one evaluation protocol, and the baselines' results.

A **preset** names a game from easy to hard (``PRESETS``). The **protocol**: a policy plays
``episodes`` games of the preset with the seeds ``first_seed``, ``first_seed + 1``, ... (the engine's
seeds: ``reset(seed=s)`` in every environment deals game ``s``, as ``new_game(config, s)`` does),
at the environments' default pace (12 s a turn and 1 s a die rolled, the 10-minute clock), every
seat played by the policy; reported are the win rate with its Wilson 95% interval and the mean score
with its 95% interval (the rulebook's score: the bombs' and fuse cards' points, and a win's bonuses).
Baselines evaluated this way are directly comparable with agents trained on the environments:
``evaluate_agent`` plays an agent through the Gymnasium environment on the same seeds.

    python -m fusegame.env.benchmark                           # every preset, every baseline, 200 games
    python -m fusegame.env.benchmark --preset fuse-solo-training --policies random,first --episodes 1000
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from fusegame.rules.config import GameConfig
from fusegame.sim.game import Pace, play_game
from fusegame.sim.policies import get_policy
from fusegame.sim.stats import mean_interval, wilson_interval

#: The seeds of the protocol: far from the small seeds examples and tests use.
FIRST_SEED = 1_000_000
EPISODES = 200


@dataclass(frozen=True)
class Preset:
    """A named game of the benchmark: the environments' options and a line about it."""

    name: str
    options: dict[str, Any]
    about: str

    @property
    def config(self) -> GameConfig:
        return GameConfig(**self.options)


#: Five games from easy to hard, as the baselines find them (docs/rl.md has their results).
PRESETS: dict[str, Preset] = {p.name: p for p in (
    Preset("fuse-solo-training", {"players": 1, "difficulty": "training"},
           "FUSE, one player, Training: the gentlest game, one seat, no partners"),
    Preset("countdown-2-expert", {"game": "countdown", "players": 2, "difficulty": "expert"},
           "FUSE: Countdown, two players, Expert: roles, spark cards, fuse cards, split dice, and a "
           "card defused as soon as it is done"),
    Preset("fuse-3-standard", {"players": 3, "difficulty": "standard"},
           "FUSE, three players, Standard: the rulebook's game, the penalty for dice left"),
    Preset("countdown-3-expert", {"game": "countdown", "players": 3, "difficulty": "expert"},
           "FUSE: Countdown, three players, Expert: the same without early defusal"),
    Preset("fuse-3-elite", {"players": 3, "difficulty": "elite"},
           "FUSE, three players, Elite: where the planner in play loses a third of its games"),
)}

#: The baselines' policy names (``fusegame.sim.policies``), weakest first.
BASELINES = ("random", "first", "greedy", "play")


@dataclass(frozen=True)
class Result:
    """One policy on one preset under the protocol."""

    preset: str
    policy: str
    episodes: int
    wins: int
    win_ci: tuple[float, float]
    mean_score: float
    score_ci: tuple[float, float]
    seconds: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.episodes if self.episodes else 0.0

    def row(self) -> str:
        lo, hi = self.win_ci
        slo, shi = self.score_ci
        return (f"| {self.preset} | {self.policy} | {self.episodes} | {100 * self.win_rate:.1f}% "
                f"({100 * lo:.1f}–{100 * hi:.1f}) | {self.mean_score:.1f} ({slo:.1f}–{shi:.1f}) |")


def _result(preset: Preset, policy: str, wins: list[bool], scores: list[float], seconds: float) -> Result:
    n = len(wins)
    won = sum(wins)
    return Result(preset.name, policy, n, won, wilson_interval(won, n), float(np.mean(scores)),
                  mean_interval(scores), seconds)


def evaluate_policy(preset: Preset, policy: str, episodes: int = EPISODES, first_seed: int = FIRST_SEED,
                    progress: Callable[[int, int], None] | None = None) -> Result:
    """A baseline (a ``fusegame.sim`` policy name, every seat) under the protocol."""
    config = preset.config
    chooser = get_policy(policy)
    t0 = time.perf_counter()
    wins, scores = [], []
    for i in range(episodes):
        r = play_game(config, first_seed + i, chooser, Pace())
        wins.append(r.won)
        scores.append(float(r.score))
        if progress is not None:
            progress(i + 1, episodes)
    return _result(preset, policy, wins, scores, time.perf_counter() - t0)


def evaluate_agent(preset: Preset, act: Callable[[Any, Any], int], name: str, episodes: int = EPISODES,
                   first_seed: int = FIRST_SEED, **env_options: Any) -> Result:
    """An agent under the protocol, through ``gymnasium.make("fusegame/Fuse-v1")`` on the preset
    (seat 0; the other seats by ``env_options["partners"]``, the planner in play by default):
    ``act(observation, action_mask) -> index`` is asked at every step."""
    import gymnasium

    env = gymnasium.make("fusegame/Fuse-v1", **preset.options, **env_options)
    t0 = time.perf_counter()
    wins, scores = [], []
    for i in range(episodes):
        obs, info = env.reset(seed=first_seed + i)
        done = False
        while not done:
            mask = obs["action_mask"] if isinstance(obs, dict) else info["action_mask"]
            vector = obs["observation"] if isinstance(obs, dict) else obs
            obs, _, terminated, truncated, info = env.step(act(vector, mask))
            done = terminated or truncated
        wins.append(bool(info.get("won")))
        scores.append(float(info["score"]))
    return _result(preset, name, wins, scores, time.perf_counter() - t0)


HEADER = ("| preset | policy | games | won (95% interval) | mean score (95% interval) |\n"
          "|---|---|---|---|---|")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="The benchmark's baselines on its presets (docs/rl.md).")
    ap.add_argument("--preset", default="all", help=f"a preset or all: {', '.join(PRESETS)}")
    ap.add_argument("--policies", default=",".join(BASELINES), help="comma-separated policy names")
    ap.add_argument("--episodes", type=int, default=EPISODES)
    ap.add_argument("--first-seed", type=int, default=FIRST_SEED)
    a = ap.parse_args(argv)
    presets = list(PRESETS.values()) if a.preset == "all" else [PRESETS[a.preset]]
    print(HEADER, flush=True)
    for preset in presets:
        for policy in a.policies.split(","):
            r = evaluate_policy(preset, policy.strip(), a.episodes, a.first_seed)
            print(r.row(), flush=True)


if __name__ == "__main__":
    main()
