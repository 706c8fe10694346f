"""A small seeded generator whose whole state is one integer.

The engine keeps its generator inside the game state so that a state can be cloned, saved as JSON
and replayed exactly. Python's ``random`` module is deliberately not used: its state is large and
the engine must not touch any global generator.

Each draw is written twice, with the same numbers. On the compiled engine it runs on signed 64-bit
machine words (``i64``), whose sums and products wrap, so a draw allocates nothing. In plain Python
that version would fold every product back into 64 bits by hand, so plain Python runs SplitMix64 on
its unbounded integers with masks instead. The state is read and written unsigned either way.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Final, TypeVar

from mypy_extensions import i64

T = TypeVar("T")

_MASK64: Final = (1 << 64) - 1
_TWO63: Final = 1 << 63
_LOW: Final[i64] = -9223372036854775807 - 1
_HIGH: Final[i64] = 9223372036854775807
# SplitMix64's constants 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9 and 0x94D049BB133111EB, read as
# signed 64-bit integers (two's complement gives the same products modulo 2**64)
_GAMMA: Final[i64] = -7046029254386353131
_MIX1: Final[i64] = -4658895280553007687
_MIX2: Final[i64] = -7723592293110705685
# masks that make the arithmetic shifts of a signed word logical (x >> k keeps 64 - k bits)
_KEEP34: Final[i64] = (1 << 34) - 1
_KEEP37: Final[i64] = (1 << 37) - 1
_KEEP33: Final[i64] = (1 << 33) - 1
#: bounds up to which ``below`` works on words; larger ones (never asked by the engine) use integers
_WORD_BOUND: Final = 1 << 62
#: whether this module runs compiled (its words are machine words)
_NATIVE: Final = not __file__.endswith(".py")


def _signed(x: int) -> i64:
    """The signed 64-bit integer congruent to ``x`` modulo 2**64."""
    return ((x + _TWO63) & _MASK64) - _TWO63


def _wrap(x: i64) -> i64:
    # always in range on the compiled engine, where i64 arithmetic wraps by itself
    if _LOW <= x <= _HIGH:
        return x
    return _signed(x)


class Rng:
    """SplitMix64: tiny state, good statistical quality, trivially serialisable."""

    __slots__ = ("_s",)

    def __init__(self, seed: int) -> None:
        self._s: i64 = _signed(seed)

    @property
    def state(self) -> int:
        """The generator's whole state, an unsigned 64-bit integer (what saved games store)."""
        return int(self._s) & _MASK64

    def _next(self) -> i64:
        """The next output as a signed 64-bit integer."""
        s = self._s = _wrap(self._s + _GAMMA)
        z = _wrap((s ^ ((s >> 30) & _KEEP34)) * _MIX1)
        z = _wrap((z ^ ((z >> 27) & _KEEP37)) * _MIX2)
        return z ^ ((z >> 31) & _KEEP33)

    def next64(self) -> int:
        """The next output, an unsigned 64-bit integer."""
        if _NATIVE:
            return int(self._next()) & _MASK64
        u = (int(self._s) + 0x9E3779B97F4A7C15) & _MASK64
        self._s = ((u + _TWO63) & _MASK64) - _TWO63
        z = ((u ^ (u >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling: no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if _NATIVE and n < _WORD_BOUND:
            return self._below_words(n)
        # on unbounded integers, as SplitMix64 is written: the faster way in plain Python
        limit = (1 << 64) - (1 << 64) % n
        u = int(self._s) & _MASK64
        while True:
            u = (u + 0x9E3779B97F4A7C15) & _MASK64
            z = ((u ^ (u >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            x = z ^ (z >> 31)
            if x < limit:
                self._s = ((u + _TWO63) & _MASK64) - _TWO63
                return x % n

    def _below_words(self, n: int) -> int:
        """``below`` on signed 64-bit words (the faster compiled), for ``0 < n < 2**62``."""
        m: i64 = n
        # 2**64 mod m, as 2**64 = 2 * (2**63 - 1) + 2; the unsigned draws at or above 2**64 - r
        # (the signed ones in [-r, 0)) are the incomplete last block and are drawn again
        r = (2 * (_HIGH % m) + 2) % m
        while True:  # _next, written out: the engine draws a number for nearly every roll
            s = self._s = _wrap(self._s + _GAMMA)
            z = _wrap((s ^ ((s >> 30) & _KEEP34)) * _MIX1)
            z = _wrap((z ^ ((z >> 27) & _KEEP37)) * _MIX2)
            x = z ^ ((z >> 31) & _KEEP33)
            if x >= 0:
                return int(x % m)
            if x < -r:  # the unsigned value is x + 2**64
                return int((x % m + r) % m)

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def fork(self, salt: int) -> Rng:
        """An independent generator derived from this one's seed and ``salt`` (for batches)."""
        return Rng((self.state ^ (salt * 0xD1B54A32D192ED03)) & _MASK64)
