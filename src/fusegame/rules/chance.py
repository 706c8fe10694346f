"""The pending chance event in a form that scales (docs/rules.md I-01, I-02).

``GameState.chance_outcomes`` lists every outcome with its probability, which a solver wants for a
small roll; an epic game's roll of nine dice has some 10^8 outcomes, too many to list. Chance is
also, exactly, a few independent parts: ``dice`` dice drawn uniformly without replacement from the
bag (``bag``: colour set -> how many), each showing a face 1-6 with probability 1/6. ``ChanceDice``
is that description: it counts the outcomes without listing them, gives one die's distribution, and
samples an outcome from a caller's generator (never the game's own), in the form ``apply_chance``
takes.
"""

from __future__ import annotations

from math import comb

from fusegame.dice import die_type
from fusegame.rng import Rng

#: The most outcomes ``GameState.chance_outcomes`` lists; a larger event raises ``TooManyOutcomes``.
#: (Five dice of Countdown's five single colours: 278,256 outcomes; an epic nine-die roll: ~10^8.)
CHANCE_OUTCOME_LIMIT = 1_000_000

#: a die's faces
FACES = (1, 2, 3, 4, 5, 6)


class TooManyOutcomes(ValueError):
    """``chance_outcomes`` refused to list a chance event with more outcomes than its limit."""

    def __init__(self, count: int, limit: int) -> None:
        self.count = count
        self.limit = limit
        super().__init__(
            f"the pending chance event has {count:,} outcomes, more than chance_outcomes() lists (limit "
            f"{limit:,}): use chance_count(), chance_dice() (one die's distribution) or "
            f"sample_chance_outcome(rng) with apply_chance() instead")


class ChanceDice:
    """A chance event as its parts. ``kind`` "roll": ``dice`` dice are drawn from the bag (``bag``:
    colour set -> how many), each then shows a face; an outcome is the sorted tuple of their die
    types. ``kind`` "faces": ``dice`` dice already out are rolled (a penalty reroll, "roll a 6",
    an Explosives Instructor's reroll); an outcome is their faces, in order."""

    def __init__(self, kind: str, dice: int, bag: dict[int, int] | None = None) -> None:
        self.kind = kind
        self.dice = dice
        self.bag: dict[int, int] = dict(sorted((bag or {}).items()))

    def __repr__(self) -> str:
        return f"ChanceDice({self.kind!r}, {self.dice}, {self.bag})"

    def count(self) -> int:
        """How many distinct outcomes ``chance_outcomes`` would list, computed without listing them."""
        k = self.dice
        if self.kind != "roll":
            return int(6 ** k)
        # the coefficient of x^k in the product over colour sets s of sum_{m <= bag[s]} C(m + 5, 5) x^m:
        # m dice of set s drawn, showing one of C(m + 5, 5) multisets of faces
        ways = [1] + [0] * k
        for n in self.bag.values():
            nxt = [0] * (k + 1)
            for have, w in enumerate(ways):
                if w:
                    for m in range(min(n, k - have) + 1):
                        nxt[have + m] += w * comb(m + 5, 5)
            ways = nxt
        return ways[k]

    def die_distribution(self) -> list[tuple[int, float]]:
        """One die's result and its probability: "roll", (die type, P) over the bag's dice (every
        drawn die has this distribution, though the draws, without replacement, are not independent);
        "faces", (face, 1/6) for each die (the dice are independent)."""
        if self.kind != "roll":
            return [(f, 1 / 6) for f in FACES]
        total = sum(self.bag.values())
        return [(die_type(s, f), n / total / 6) for s, n in self.bag.items() if n for f in FACES]

    def sample(self, rng: Rng) -> tuple[int, ...]:
        """An outcome drawn with its exact probability from ``rng`` (the caller's generator)."""
        if self.kind != "roll":
            return tuple(rng.below(6) + 1 for _ in range(self.dice))
        left = [s for s, n in self.bag.items() for _ in range(n)]
        types: list[int] = []
        for _ in range(self.dice):
            s = left.pop(rng.below(len(left)))
            types.append(die_type(s, rng.below(6) + 1))
        return tuple(sorted(types))


__all__ = ["CHANCE_OUTCOME_LIMIT", "ChanceDice", "TooManyOutcomes"]
