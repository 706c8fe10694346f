"""How hard is a bomb card? A Monte Carlo measure of the rolls needed to fill it alone.

The measure is deliberately simple and independent of the game engine and its bots:

* one player, one card, nothing else on the table;
* each roll is one die of a random type. By default (FUSE) its colour is drawn uniformly from the
  five FUSE colours (R B G Y K); with ``dice=`` (e.g. ``COUNTDOWN_DICE``) a die is drawn uniformly
  from that inventory, so each colour set (single colours and split pairs) turns up in proportion
  to how many dice carry it. The face is uniform on 1-6. The bag, other players, the timer, fuse
  cards and the unused-dice penalty are all ignored;
* the die goes on a legal slot (``CompiledCard.legal_slots``, feasibility rule on) or, when no slot
  takes it, is discarded;
* the slot is chosen by a **greedy single-card policy, not the team bot**: among the legal slots it
  takes the one that keeps the most options open, i.e. that maximises the number of (die type,
  slot) pairs that would be legal in the resulting state, each die type weighted by how many dice
  of the inventory can show it (ties: the lowest slot index).

A card's difficulty is the number of rolls until it is complete: ``measure`` reports the mean over
``trials`` runs and the chance of finishing within ``within`` rolls. Runs are reproducible: every
card gets its own generator, derived from the seed and the card's id (not its position in a list).

Spark cards (Countdown) are measured the same way; their result has ``points == 0`` and
``kind == "spark"``.

The point values of the reconstructed catalogues were chosen so that they rise with this measure
(see ``research/studies/card_difficulty.py``; ``--set countdown`` measures the Countdown cards with the
Countdown dice).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from fusegame.cards.model import BombCard, CardShape
from fusegame.constraints import EMPTY, CompiledCard, State
from fusegame.dice import COLOURS, FACES, DiceSet, die_type
from fusegame.rng import Rng

#: The 30 die types a FUSE roll can show (five single colours x six faces).
FUSE_TYPES: tuple[int, ...] = tuple(die_type(c, f) for c in COLOURS for f in FACES)

#: FUSE: Countdown's 25 dice with the default split pairs (docs/rules.md A.2: 4 of each colour plus five
#: split dice in a cycle R/B, B/G, G/Y, Y/K, K/R). The catalogue loader checks split-die cards
#: against the same dice.
COUNTDOWN_DICE: DiceSet = DiceSet.parse("4R 4B 4G 4Y 4K 1R/B 1B/G 1G/Y 1Y/K 1K/R")

#: A run that has not finished after this many rolls is stopped and counted at this value. It
#: never happens for a completable card in practice (the hardest FUSE cards need about 100 rolls).
MAX_ROLLS = 2000


@dataclass(frozen=True)
class CardDifficulty:
    """The result of ``measure`` for one card."""

    card_id: str
    points: int  #: 0 for a spark card
    trials: int
    mean_rolls: float  #: mean number of rolls until the card is complete
    stdev_rolls: float  #: sample standard deviation of the rolls
    median_rolls: float
    within: int  #: the roll budget ``p_within`` refers to
    p_within: float  #: fraction of runs that completed the card within ``within`` rolls
    mean_discards: float  #: mean number of rolled dice that fitted nowhere
    kind: str = "bomb"  #: the card's kind: "bomb" or "spark"


class _Greedy:
    """The greedy single-card policy over one compiled card (scores are memoised per state).

    ``dice=None`` is the FUSE measure (uniform colour among the five); otherwise dice are drawn from
    the inventory ``dice``.
    """

    def __init__(self, shape: CardShape, dice: DiceSet | None = None) -> None:
        self.dice = dice
        if dice is None:
            self.card = CompiledCard(shape, DiceSet.fuse().types_in_play)
            self.weighted: tuple[tuple[int, int], ...] = tuple((t, 1) for t in FUSE_TYPES)
        else:
            if not len(dice):
                raise ValueError("measuring needs at least one die")
            self.card = CompiledCard(shape, dice.types_in_play)
            counts: dict[int, int] = {}
            for cs in dice.colours:
                counts[cs] = counts.get(cs, 0) + 1
            self.weighted = tuple((die_type(cs, f), k) for cs, k in sorted(counts.items()) for f in FACES)
        self._options: dict[State, int] = {}

    def options(self, state: State) -> int:
        """The number of (die type, slot) pairs legal in ``state``, each type weighted by the
        number of dice that can show it."""
        hit = self._options.get(state)
        if hit is None:
            legal = self.card.legal_slots
            hit = self._options[state] = sum(k * len(legal(state, t)) for t, k in self.weighted)
        return hit

    def roll(self, rng: Rng) -> int:
        """The type of one rolled die."""
        if self.dice is None:
            return die_type(COLOURS[rng.below(len(COLOURS))], FACES[rng.below(len(FACES))])
        cs = self.dice.colours[rng.below(len(self.dice))]
        return die_type(cs, FACES[rng.below(len(FACES))])

    def choose(self, state: State, t: int) -> int:
        """The slot for a die of type ``t``, or -1 to discard it."""
        best, best_score = -1, -1
        for s in self.card.legal_slots(state, t):
            score = self.options(state[:s] + (t,) + state[s + 1:])
            if score > best_score:
                best, best_score = s, score
        return best

    def play(self, rng: Rng) -> tuple[int, int]:
        """Fill the card once; returns (rolls, discards)."""
        state = self.card.empty
        rolls = discards = 0
        while EMPTY in state and rolls < MAX_ROLLS:
            t = self.roll(rng)
            rolls += 1
            s = self.choose(state, t)
            if s < 0:
                discards += 1
            else:
                state = state[:s] + (t,) + state[s + 1:]
        return rolls, discards


def _stable_hash(text: str) -> int:
    """FNV-1a over UTF-8 (Python's ``hash`` of a string changes from run to run)."""
    h = 0xCBF29CE484222325
    for byte in text.encode("utf-8"):
        h = ((h ^ byte) * 0x100000001B3) & ((1 << 64) - 1)
    return h


def _median(xs: Sequence[float]) -> float:
    s = sorted(xs)
    n = len(s)
    return float(s[n // 2]) if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def measure(card: BombCard, trials: int = 200, seed: int = 0, within: int = 12,
            dice: DiceSet | None = None) -> CardDifficulty:
    """Simulate ``trials`` solo fillings of ``card`` with the greedy policy (see module docs).

    ``dice``: the inventory rolls are drawn from (e.g. ``COUNTDOWN_DICE``); ``None`` is the FUSE
    measure (a uniform colour among the five single colours).
    """
    if trials < 1:
        raise ValueError("trials must be at least 1")
    policy = _Greedy(card.shape, dice)
    rng = Rng(seed).fork(_stable_hash(card.id))
    rolls: list[int] = []
    discards = 0
    for _ in range(trials):
        r, d = policy.play(rng)
        rolls.append(r)
        discards += d
    mean = sum(rolls) / trials
    var = sum((r - mean) ** 2 for r in rolls) / (trials - 1) if trials > 1 else 0.0
    return CardDifficulty(
        card_id=card.id, points=card.points, trials=trials, mean_rolls=mean,
        stdev_rolls=math.sqrt(var), median_rolls=_median(rolls), within=within,
        p_within=sum(r <= within for r in rolls) / trials, mean_discards=discards / trials,
        kind=card.kind)


def measure_catalogue(cards: Iterable[BombCard], trials: int = 200, seed: int = 0,
                      within: int = 12, dice: DiceSet | None = None) -> tuple[CardDifficulty, ...]:
    """``measure`` every card (each with its own generator derived from ``seed`` and its id)."""
    return tuple(measure(c, trials, seed, within, dice) for c in cards)


def mean_by_points(results: Iterable[CardDifficulty]) -> dict[int, float]:
    """Mean of the cards' mean rolls for each point value, in increasing point order."""
    groups: dict[int, list[float]] = {}
    for r in results:
        groups.setdefault(r.points, []).append(r.mean_rolls)
    return {p: sum(v) / len(v) for p, v in sorted(groups.items())}


def _ranks(xs: Sequence[float]) -> list[float]:
    """Ranks from 1, ties sharing their average rank."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    ranks = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation (Pearson correlation of the tie-averaged ranks)."""
    if len(xs) != len(ys) or len(xs) < 2:
        raise ValueError("spearman needs two sequences of the same length, at least 2 long")
    rx, ry = _ranks(xs), _ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    if vx == 0 or vy == 0:
        return 0.0
    return cov / math.sqrt(vx * vy)


def points_correlation(results: Sequence[CardDifficulty]) -> float:
    """Spearman correlation between the cards' points and their mean rolls."""
    return spearman([float(r.points) for r in results], [r.mean_rolls for r in results])


__all__ = [
    "COUNTDOWN_DICE", "CardDifficulty", "FUSE_TYPES", "MAX_ROLLS", "mean_by_points", "measure",
    "measure_catalogue", "points_correlation", "spearman",
]
