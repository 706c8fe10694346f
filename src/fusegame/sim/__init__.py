"""Batch simulation: a pace model for simulated time, simple policies, games and batches."""

from fusegame.sim.batch import BatchStats, game_seed, run_batch
from fusegame.sim.game import GameResult, Pace, Watcher, play_game
from fusegame.sim.policies import (
    POLICIES,
    POLICY_FACTORIES,
    Policy,
    get_policy,
    random_policy,
    register_policy,
)

__all__ = [
    "POLICIES", "POLICY_FACTORIES", "BatchStats", "GameResult", "Pace", "Policy", "game_seed", "get_policy",
    "Watcher", "play_game", "random_policy", "register_policy", "run_batch",
]
