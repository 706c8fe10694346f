"""Batches of simulated games and their summary statistics."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fusegame.rng import Rng
from fusegame.rules.config import GameConfig
from fusegame.sim.game import GameResult, Pace, play_game
from fusegame.sim.policies import Policy


def game_seed(batch_seed: int, index: int) -> int:
    """The seed of game ``index`` of a batch: a fixed function of the batch seed and the index."""
    return Rng(batch_seed).fork(index + 1).next64()


@dataclass(frozen=True)
class BatchStats:
    """Summary of a batch. ``losses`` counts every game not won (including any stopped unfinished)."""

    games: int
    wins: int
    losses: int
    mean_score: float
    mean_turns: float
    games_per_second: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"games": self.games, "wins": self.wins, "losses": self.losses,
                "mean_score": self.mean_score, "mean_turns": self.mean_turns,
                "games_per_second": self.games_per_second}

    @classmethod
    def of(cls, results: list[GameResult], seconds: float) -> BatchStats:
        n = len(results)
        wins = sum(r.won for r in results)
        return cls(
            games=n, wins=wins, losses=n - wins,
            mean_score=round(sum(r.score for r in results) / n, 4) if n else 0.0,
            mean_turns=round(sum(r.turns for r in results) / n, 4) if n else 0.0,
            games_per_second=round(n / seconds, 2) if seconds > 0 else 0.0,
        )


def run_batch(config: GameConfig, games: int, seed: int, policy: Policy,
              progress: Callable[[int, int], None] | None = None, pace: Pace | None = None) -> BatchStats:
    """Play ``games`` games; game ``i`` uses ``game_seed(seed, i)``. Same seed, same numbers.

    ``progress(done, total)`` is called after every game. Only ``games_per_second`` depends on the
    machine.
    """
    if games < 1:
        raise ValueError("the number of games must be at least 1")
    start = time.perf_counter()
    results: list[GameResult] = []
    for i in range(games):
        results.append(play_game(config, game_seed(seed, i), policy, pace))
        if progress is not None:
            progress(i + 1, games)
    return BatchStats.of(results, time.perf_counter() - start)
