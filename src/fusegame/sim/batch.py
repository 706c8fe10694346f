"""Batches of simulated games and their summary statistics."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fusegame.memos import bound_card_memos, freeze_survivors
from fusegame.rng import Rng
from fusegame.rules.config import GameConfig
from fusegame.sim.game import GameResult, Pace, play_game
from fusegame.sim.policies import Policy
from fusegame.sim.stats import mean_interval, sample_sd, wilson_interval

#: The loss reason of a game stopped after ``max_turns`` (it has no outcome).
UNFINISHED = "unfinished"


def game_seed(batch_seed: int, index: int) -> int:
    """The seed of game ``index`` of a batch: a fixed function of the batch seed and the index."""
    return Rng(batch_seed).fork(index + 1).next64()


def _r(x: float) -> float:
    return round(x, 4)


@dataclass(frozen=True)
class BatchStats:
    """Summary of a batch. ``losses`` counts every game not won (including any stopped unfinished).

    ``win_rate_ci`` is the Wilson 95% interval of the win rate and ``mean_score_ci`` the normal
    95% interval of the mean score (see ``fusegame.sim.stats``); ``losses_by_reason`` counts the
    losses by how the game ended (``time-up``, ``bag-empty``, ``unfinished``); ``scores`` are the
    games' scores in game order. Everything but ``games_per_second`` is a function of the games
    alone, whatever machine or number of processes played them.
    """

    games: int
    wins: int
    losses: int
    mean_score: float
    mean_turns: float
    games_per_second: float
    score_sd: float = 0.0
    win_rate_ci: tuple[float, float] = (0.0, 1.0)
    mean_score_ci: tuple[float, float] = (0.0, 0.0)
    losses_by_reason: Mapping[str, int] = field(default_factory=dict)
    scores: tuple[int, ...] = field(default=(), repr=False)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The six headline numbers (the shape of ``fuse sim --json`` before it had intervals)."""
        return {"games": self.games, "wins": self.wins, "losses": self.losses,
                "mean_score": self.mean_score, "mean_turns": self.mean_turns,
                "games_per_second": self.games_per_second}

    def details(self) -> dict[str, Any]:
        """The spread of the batch: win rate and its interval, score sd and interval, loss reasons."""
        return {"win_rate": _r(self.win_rate), "win_rate_ci": list(self.win_rate_ci),
                "mean_score_ci": list(self.mean_score_ci), "score_sd": self.score_sd,
                "losses_by_reason": dict(self.losses_by_reason)}

    @classmethod
    def of(cls, results: Sequence[GameResult], seconds: float) -> BatchStats:
        """The statistics of ``results`` (in game order) played in ``seconds`` of wall time."""
        n = len(results)
        wins = sum(r.won for r in results)
        scores = tuple(r.score for r in results)
        reasons = Counter(UNFINISHED if r.outcome is None else r.outcome.reason.value
                          for r in results if not r.won)
        lo, hi = mean_interval(scores)
        wlo, whi = wilson_interval(wins, n)
        return cls(
            games=n, wins=wins, losses=n - wins,
            mean_score=_r(sum(scores) / n) if n else 0.0,
            mean_turns=_r(sum(r.turns for r in results) / n) if n else 0.0,
            games_per_second=round(n / seconds, 2) if seconds > 0 else 0.0,
            score_sd=_r(sample_sd(scores)),
            win_rate_ci=(_r(wlo), _r(whi)),
            mean_score_ci=(_r(lo), _r(hi)),
            losses_by_reason=dict(sorted(reasons.items())),
            scores=scores,
        )


def play_games(config: GameConfig, seed: int, policy: Policy, pace: Pace | None, start: int, stop: int,
               done: Callable[[], None] | None = None) -> list[GameResult]:
    """Games ``start`` to ``stop - 1`` of the batch with seed ``seed``, in order.

    This is the unit of work of every way of running a batch, so that a game's result depends
    only on its index, never on which process played it. After each game the process's card memos
    are forgotten if they have grown past ``fusegame.memos.SIM_ENTRIES`` and the survivors are
    frozen (``freeze_survivors``): a program that runs batches keeps what it holds out of the
    collector's full passes from then on.
    """
    results: list[GameResult] = []
    for i in range(start, stop):
        results.append(play_game(config, game_seed(seed, i), policy, pace))
        bound_card_memos()  # a worker's memory stays flat over any number of games
        freeze_survivors()
        if done is not None:
            done()
    return results


def run_batch(config: GameConfig, games: int, seed: int, policy: Policy,
              progress: Callable[[int, int], None] | None = None, pace: Pace | None = None) -> BatchStats:
    """Play ``games`` games; game ``i`` uses ``game_seed(seed, i)``. Same seed, same numbers.

    ``progress(done, total)`` is called after every game. Only ``games_per_second`` depends on the
    machine. ``fusegame.sim.parallel`` plays the same batch on several processes.
    """
    if games < 1:
        raise ValueError("the number of games must be at least 1")
    start = time.perf_counter()
    count = 0

    def done() -> None:
        nonlocal count
        count += 1
        if progress is not None:
            progress(count, games)

    results = play_games(config, seed, policy, pace, 0, games, done)
    return BatchStats.of(results, time.perf_counter() - start)
