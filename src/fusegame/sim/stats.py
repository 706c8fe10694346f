"""Confidence intervals for simulated batches: pure functions of the game results.

A batch of ``n`` games estimates two things: the win rate (a proportion) and the mean score. The
win rate gets the Wilson score interval, which behaves at 0 and ``n`` wins, where the textbook
normal interval collapses to a single point; the mean score gets the normal interval with the
sample standard deviation, which is accurate for the batch sizes simulations use (dozens of games
or more) because scores are bounded.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

#: The two-sided 95% quantile of the standard normal distribution (about 1.96).
Z95: float = NormalDist().inv_cdf(0.975)


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``successes`` out of ``trials`` (95% by default).

    With ``p = successes / trials``, the interval is ``(c - h, c + h)`` where
    ``c = (p + z²/2n) / (1 + z²/n)`` and ``h = z·sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n)``.
    No trials give no information: ``(0, 1)``.

    >>> [round(x, 4) for x in wilson_interval(5, 10)]
    [0.2366, 0.7634]
    """
    if trials < 0 or not 0 <= successes <= max(trials, 0):
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return (0.0, 1.0)
    n = trials
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    # the bounds are exact at 0 and n successes; clamping only removes rounding error
    return (max(0.0, centre - half), min(1.0, centre + half))


def paired_difference(only_b: int, only_a: int, pairs: int, z: float = Z95) -> tuple[float, float, float]:
    """The difference in win rate, b minus a, over ``pairs`` deals each played by both, and its
    normal interval (95% by default), from the deals only b won and only a won: the deals both
    won or both lost carry no difference, so only the discordant ones count (McNemar's).

    >>> [round(x, 4) for x in paired_difference(48, 32, 1000)]
    [0.016, -0.0015, 0.0335]
    """
    if pairs <= 0 or only_a < 0 or only_b < 0 or only_a + only_b > pairs:
        raise ValueError(f"need discordant deals within the pairs, got {only_b} + {only_a} of {pairs}")
    d = (only_b - only_a) / pairs
    var = (only_b + only_a - (only_b - only_a) ** 2 / pairs) / (pairs * pairs)
    h = z * math.sqrt(max(var, 0.0))
    return d, d - h, d + h


def mean(values: Sequence[float]) -> float:
    """The arithmetic mean (0 for no values)."""
    return sum(values) / len(values) if values else 0.0


def sample_sd(values: Sequence[float]) -> float:
    """The sample standard deviation (divisor ``n - 1``); 0 for fewer than two values.

    >>> round(sample_sd([2, 4, 4, 4, 5, 5, 7, 9]), 6)
    2.13809
    """
    n = len(values)
    if n < 2:
        return 0.0
    m = mean(values)
    return math.sqrt(sum((x - m) ** 2 for x in values) / (n - 1))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """The normal confidence interval of the mean: ``mean ± z·sd/sqrt(n)`` with the sample sd.

    Fewer than two values cannot estimate a spread, so the interval is the mean itself (and
    ``(0, 0)`` for no values).

    >>> [round(x, 4) for x in mean_interval([2, 4, 4, 4, 5, 5, 7, 9])]
    [3.5184, 6.4816]
    """
    m = mean(values)
    if len(values) < 2:
        return (m, m)
    half = z * sample_sd(values) / math.sqrt(len(values))
    return (m - half, m + half)
