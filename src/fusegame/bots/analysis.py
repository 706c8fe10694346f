"""Card analysis: how hard is each bomb (and spark) card for the team planner's card model?

Two numbers per card, both from the planner's own model of a card (``bots.value``):

* ``expected_dice``: ``CardModel.draws`` of the empty card, the expected number of dice offered to
  the card one at a time until it is complete when each is placed on the best slot or declined;
* the **rolls** a solo player needs: a seeded simulation in which every roll draws
  ``dice_per_roll`` different dice from the whole bag (the set's inventory, put back after each
  roll; each face equally likely) and places as many of them on this one card as help. The player
  follows the planner's choice: of every way to put some of the rolled dice on the card (any order,
  any legal slots), the one whose resulting state has the lowest ``draws``, placing no die when
  every placement raises ``draws``. A roll counts whether or not a die of it was used.

``mean_rolls`` is the card's *difficulty*. ``p_within[N]`` is the fraction of the simulated fillings
that completed the card within ``N`` rolls, i.e. by the end of the ``N``-th roll offered to it.

The summary groups bombs by points: the mean difficulty per points value, Spearman's rank
correlation of points and difficulty, the check "points rise with difficulty" (the per-value means
strictly increase with points) and the cards *out of band*: those whose difficulty is nearer
another points value's mean than their own. Spark cards (Countdown) have no points: they are
reported as their own group and left out of the correlation, the check and the band test.

Every number is a pure function of the card, the dice, the options and the seed: each card gets
its own generator, derived from the seed and the card's id.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from fusegame.bots.value import HOPELESS, CardModel, card_model, type_weights
from fusegame.cards.catalogue import Catalogue, builtin_catalogue, load_catalogue
from fusegame.cards.difficulty import spearman
from fusegame.cards.model import BombCard
from fusegame.constraints import EMPTY, State
from fusegame.dice import FACES, DiceSet, die_type
from fusegame.rng import Rng
from fusegame.rules.config import GameConfig
from fusegame.rules.state import compiled

#: Cards with up to this many states are solved exactly here (play uses a smaller budget, to start
#: fast): a measurement should not rest on roll-out estimates where an exact answer is affordable.
ANALYSIS_BUDGET = 20_000

#: The sets whose dice the analysis knows (``GameConfig(game=...)``).
ANALYSIS_SETS = ("fuse", "countdown")
#: A filling that has not finished after this many rolls is stopped and counted at this value.
#: It does not happen for a completable card (the hardest need a few dozen rolls).
MAX_ROLLS = 1000
#: The keys of every row of ``AnalysisReport.rows()`` (plus ``p_within_N`` per roll budget N).
ROW_KEYS = ("id", "set", "kind", "points", "source", "name", "notation", "slots", "layout",
            "expected_dice", "estimated", "trials", "mean_rolls", "sd_rolls", "median_rolls",
            "measures_like")


@dataclass(frozen=True)
class CardAnalysis:
    """The measures of one card (see the module docstring)."""

    card: BombCard
    expected_dice: float
    estimated: bool  #: the model is too large to solve exactly: ``draws`` uses seeded roll-outs
    trials: int
    mean_rolls: float
    sd_rolls: float
    median_rolls: float
    p_within: tuple[tuple[int, float], ...]  #: (N, fraction completed within N rolls)

    @property
    def level(self) -> int | None:
        """The card's points value; ``None`` for a spark card."""
        return self.card.points if self.card.kind == "bomb" else None


@dataclass(frozen=True)
class Level:
    """One points value (or the sparks, ``points`` ``None``) of the summary."""

    points: int | None
    cards: int
    mean_rolls: float
    min_rolls: float
    max_rolls: float
    mean_dice: float

    @property
    def label(self) -> str:
        return "spark" if self.points is None else str(self.points)


@dataclass(frozen=True)
class OutOfBand:
    """A bomb whose difficulty is nearer another points value's mean than its own."""

    card: CardAnalysis
    own_mean: float
    like: int  #: the points value whose mean is nearest
    like_mean: float


@dataclass
class AnalysisReport:
    """The analysis of a set of cards and its summary."""

    card_set: str
    dice: DiceSet
    trials: int
    seed: int
    dice_per_roll: int
    within: tuple[int, ...]
    cards: list[CardAnalysis] = field(default_factory=list)

    # ------------------------------------------------------------------ summary
    @property
    def bombs(self) -> list[CardAnalysis]:
        return [c for c in self.cards if c.level is not None]

    @property
    def sparks(self) -> list[CardAnalysis]:
        return [c for c in self.cards if c.level is None]

    def sorted_cards(self) -> list[CardAnalysis]:
        """Sparks first, then bombs by points; within a group by difficulty (then id)."""
        return sorted(self.cards, key=lambda c: (-1 if c.level is None else c.level, c.mean_rolls,
                                                 c.card.id))

    def levels(self) -> list[Level]:
        """The sparks (if any), then every points value in increasing order."""
        groups: dict[int | None, list[CardAnalysis]] = {}
        for c in self.sorted_cards():
            groups.setdefault(c.level, []).append(c)
        return [Level(p, len(g), _mean([c.mean_rolls for c in g]), min(c.mean_rolls for c in g),
                      max(c.mean_rolls for c in g), _mean([c.expected_dice for c in g]))
                for p, g in groups.items()]

    def means(self) -> dict[int, float]:
        """Mean difficulty (mean rolls) of the bombs of each points value, in points order."""
        return {lv.points: lv.mean_rolls for lv in self.levels() if lv.points is not None}

    def rising(self) -> bool:
        """The check "points rise with difficulty": per-value means strictly increase."""
        values = list(self.means().values())
        return all(a < b for a, b in zip(values, values[1:]))

    def correlation(self, measure: str = "mean_rolls") -> float | None:
        """Spearman's rank correlation of the bombs' points and ``measure`` (``mean_rolls`` or
        ``expected_dice``); ``None`` with fewer than two bombs."""
        bombs = self.bombs
        if len(bombs) < 2:
            return None
        return spearman([float(c.card.points) for c in bombs], [float(getattr(c, measure)) for c in bombs])

    def out_of_band(self) -> list[OutOfBand]:
        """Bombs nearer another points value's mean difficulty than their own (sorted like the
        table)."""
        means = self.means()
        out: list[OutOfBand] = []
        for c in self.sorted_cards():
            if c.level is None:
                continue
            own = means[c.level]
            like = min(means, key=lambda p: (abs(means[p] - c.mean_rolls), p))
            if abs(means[like] - c.mean_rolls) < abs(own - c.mean_rolls):
                out.append(OutOfBand(c, own, like, means[like]))
        return out

    def rows(self) -> list[dict[str, Any]]:
        """Plain rows (the ``--json`` output), sorted like the table: see ``ROW_KEYS``."""
        like = {o.card.card.id: o.like for o in self.out_of_band()}
        rows: list[dict[str, Any]] = []
        for c in self.sorted_cards():
            b = c.card
            row: dict[str, Any] = {
                "id": b.id, "set": b.set, "kind": b.kind, "points": c.level, "source": b.source,
                "name": b.name, "notation": b.notation, "slots": b.shape.size,
                "layout": b.shape.layout.value, "expected_dice": round(c.expected_dice, 3),
                "estimated": c.estimated, "trials": c.trials, "mean_rolls": round(c.mean_rolls, 3),
                "sd_rolls": round(c.sd_rolls, 3), "median_rolls": c.median_rolls,
                "measures_like": like.get(b.id)}
            for n, p in c.p_within:
                row[f"p_within_{n}"] = round(p, 4)
            rows.append(row)
        return rows


# ====================================================================== measuring
def set_dice(card_set: str) -> DiceSet:
    """The dice a set is played with (FUSE: 5 of each colour; Countdown: with split dice)."""
    if card_set not in ANALYSIS_SETS:
        raise ValueError(f"unknown card set {card_set!r} (choose from {', '.join(ANALYSIS_SETS)})")
    return GameConfig(game=card_set).dice_set  # type: ignore[arg-type]


def cards_to_analyse(card_set: str, path: str | None = None) -> tuple[list[BombCard], str]:
    """The bomb and spark cards of ``card_set`` in the built-in catalogue, or every bomb and spark
    card of the catalogue file ``path`` (measured with ``card_set``'s dice whatever their ``set``
    says); and where they come from."""
    cat: Catalogue = load_catalogue(path) if path is not None else builtin_catalogue().of_set(card_set)
    cards = [*cat.bombs, *cat.sparks]
    if not cards:
        raise ValueError(f"no bomb or spark cards to analyse in {cat.origin}"
                         + ("" if path is not None else f" (set {card_set})"))
    return cards, cat.origin


class _Filler:
    """The planner's solo filler of one card: memoised best placements of a roll's dice."""

    def __init__(self, model: CardModel) -> None:
        self.model = model
        self.rules = model.rules
        self._best: dict[tuple[State, tuple[int, ...]], tuple[float, int, State]] = {}

    def best(self, state: State, reps: tuple[int, ...], must: bool = False) -> tuple[float, int, State]:
        """(draws, -dice placed, state) of the best way to put some of ``reps`` (sorted class
        representatives) on the card. Ties go to more dice placed. Placing none is allowed unless
        ``must``: on a card whose states are estimated by roll-outs (pessimistic, and noisy from
        one state to the next) a die that fits is always used, as a player would."""
        key = (state, reps)
        hit = None if must else self._best.get(key)
        if hit is not None:
            return hit
        if EMPTY not in state:
            result: tuple[float, int, State] = (0.0, 0, state)
        else:
            result = (HOPELESS + 1.0, 0, state) if must else (self.model.draws(state), 0, state)
            for i, r in enumerate(reps):
                if i and r == reps[i - 1]:
                    continue  # the same class again: the same options
                rest = reps[:i] + reps[i + 1:]
                for j in self.rules.legal_slots(state, r):
                    v, placed, final = self.best(state[:j] + (r,) + state[j + 1:], rest)
                    cand = (v, placed - 1, final)
                    if cand[:2] < result[:2]:
                        result = cand
            if result[0] > HOPELESS:  # nothing fits
                result = (self.model.draws(state), 0, state)
        if not must:
            self._best[key] = result
        return result


def _roll(rng: Rng, colours: Sequence[int], k: int, canon: Sequence[int]) -> tuple[int, ...]:
    """``k`` different dice from the whole bag, rolled: their sorted class representatives."""
    pool = list(range(len(colours)))
    out: list[int] = []
    for i in range(k):
        j = i + rng.below(len(pool) - i)
        pool[i], pool[j] = pool[j], pool[i]
        out.append(canon[die_type(colours[pool[i]], FACES[rng.below(6)])])
    return tuple(sorted(out))


def analyse_card(card: BombCard, dice: DiceSet, trials: int = 200, seed: int = 0,
                 dice_per_roll: int = 3, within: Sequence[int] = (4, 8)) -> CardAnalysis:
    """Measure one card (see the module docstring)."""
    if trials < 1:
        raise ValueError("--trials must be at least 1")
    if not 1 <= dice_per_roll <= len(dice):
        raise ValueError(f"--dice-per-roll must be from 1 to {len(dice)} (the dice in the bag)")
    if any(n < 1 for n in within):
        raise ValueError("--within must be at least 1 roll")
    rules = compiled(card, dice.types_in_play, True)
    if rules.completion() is None:
        raise ValueError(f"card {card.id} ({card.notation}) can never be completed with these dice"
                         + (" (it needs a split die: use --set countdown)"
                            if card.shape.requires_split_die else ""))
    model = card_model(card.id, rules, tuple(type_weights(dice)), ANALYSIS_BUDGET)
    expected = model.draws(rules.empty)
    filler = _Filler(model)
    rng = Rng(seed).fork(zlib.crc32(card.id.encode()))
    colours = dice.colours
    rolls: list[int] = []
    for _ in range(trials):
        state = rules.empty
        n = 0
        while EMPTY in state and n < MAX_ROLLS:
            n += 1
            state = filler.best(state, _roll(rng, colours, dice_per_roll, rules.canon), model.big)[2]
        rolls.append(n)
    mean = sum(rolls) / trials
    var = sum((r - mean) ** 2 for r in rolls) / (trials - 1) if trials > 1 else 0.0
    return CardAnalysis(card, expected, model.big, trials, mean, math.sqrt(var), _median(rolls),
                        tuple((n, sum(r <= n for r in rolls) / trials) for n in sorted(set(within))))


def analyse(cards: Iterable[BombCard], card_set: str = "fuse", trials: int = 200, seed: int = 0,
            dice_per_roll: int = 3, within: Sequence[int] = (4, 8),
            progress: Callable[[int, int], None] | None = None) -> AnalysisReport:
    """Measure every card with ``card_set``'s dice; ``progress(done, total)`` after each card."""
    dice = set_dice(card_set)
    todo = list(cards)
    report = AnalysisReport(card_set, dice, trials, seed, dice_per_roll, tuple(sorted(set(within))))
    for i, card in enumerate(todo):
        report.cards.append(analyse_card(card, dice, trials, seed, dice_per_roll, within))
        if progress is not None:
            progress(i + 1, len(todo))
    return report


# ====================================================================== plotting
def plot(report: AnalysisReport, path: str) -> None:
    """A PNG: every card's mean rolls by points value (bombs and sparks in two colours) over a box
    plot per value."""
    import matplotlib

    matplotlib.use("Agg")  # no display needed
    import matplotlib.pyplot as plt

    levels = report.levels()
    xs = {lv.points: i for i, lv in enumerate(levels)}
    fig, ax = plt.subplots(figsize=(8, 5), dpi=100)
    groups = [[c.mean_rolls for c in report.cards if c.level == lv.points] for lv in levels]
    ax.boxplot(groups, positions=list(range(len(levels))), widths=0.5, showfliers=False)
    for kind, colour in (("bomb", "tab:red"), ("spark", "tab:blue")):
        pts = [c for c in report.sorted_cards() if c.card.kind == kind]
        if not pts:
            continue
        # a fixed spread (by the card's rank in its group) keeps equal values apart, reproducibly
        rank: dict[int | None, int] = {}
        x: list[float] = []
        for c in pts:
            k = rank[c.level] = rank.get(c.level, -1) + 1
            x.append(xs[c.level] + ((k * 0.618) % 1.0 - 0.5) * 0.35)
        ax.scatter(x, [c.mean_rolls for c in pts], s=18, alpha=0.8, color=colour,
                   label=f"{kind} cards ({len(pts)})", zorder=3)
    ys = [c.mean_rolls for c in report.cards]
    if max(ys) > 10 * min(ys):  # a few very hard cards would squash the rest against the axis
        ax.set_yscale("log")
    ax.set_xticks(list(range(len(levels))), [lv.label for lv in levels])
    ax.set_xlabel("points")
    ax.set_ylabel(f"mean rolls to complete ({report.dice_per_roll} dice per roll)")
    rho = report.correlation()
    ax.set_title(f"{report.card_set}: difficulty by points (planner's model, {report.trials} trials, "
                 f"seed {report.seed})" + ("" if rho is None else f"; Spearman {rho:.3f}"), fontsize=10)
    ax.legend(loc="upper left")
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    try:
        fig.savefig(path, format="png")
    finally:
        plt.close(fig)


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs)


def _median(xs: Sequence[int]) -> float:
    s = sorted(xs)
    n = len(s)
    return float(s[n // 2]) if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


__all__ = [
    "ANALYSIS_SETS", "AnalysisReport", "CardAnalysis", "Level", "MAX_ROLLS", "OutOfBand", "ROW_KEYS",
    "analyse", "analyse_card", "cards_to_analyse", "plot", "set_dice",
]
