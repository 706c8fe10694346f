"""The reconstructed FUSE catalogue (src/fusegame/cards/data/fuse.toml) against shared/CARDS.md."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from fusegame.cards.catalogue import Catalogue, load_catalogue
from fusegame.cards.difficulty import mean_by_points, measure_catalogue
from fusegame.cards.model import BombCard, CardShape, Comparison, GroupTest, Layout, PredKind, Rel
from fusegame.cards.notation import parse, to_text
from fusegame.constraints import CompiledCard
from fusegame.dice import BLACK, BLUE, GREEN, RED, YELLOW, DiceSet

FUSE_TOML = Path(__file__).parents[1] / "src/fusegame/cards/data/fuse.toml"

#: Cards seen in photographs of real FUSE cards (CARDS.md), as (points, notation).
PHOTOGRAPHED: list[tuple[int, str]] = [
    (1, "% !=c % !=c % !=c %"),  # four dice, each a different colour from its neighbours
    (1, "G|B Y|R R|B"),  # three slots, each one of two colours
    (1, "% =c % # = #"),  # a pair matching in colour plus a pair matching in number
    (1, "# = ? =c %"),  # dice 1 and 2 share a number, dice 2 and 3 a colour
    (1, "# > # < #"),
    (1, "# # ; a - b = 2"),  # the reviewer's "A - B = 2"
    (2, "% % % ; same-colour(a,b,c) or same-number(a,b,c)"),
    (2, "4 > # > #"),
    (2, "# # # # ; a + b = c + d"),
    (2, "1 2 3"),
    (3, "R|B G|Y ; a + b = 7"),  # two either-of-two-colours slots whose numbers sum to 7
    (3, "# = # = #"),
    (3, "5 Y 2"),
    (3, "B|G Y|R B4"),
    (4, "2 2 2"),
    (4, "# = # = B#"),
    (4, "% =c % =c % =c %"),  # four dice all the same colour
    (4, "? =cn ?"),  # two dice matching both colour and number
    (4, "stack: Y R B G"),
    (4, "stack: # < # < # < #"),
    (6, "pyramid: 1 R3 2 / B G4 / Y5"),
    (6, "stacks: 1|2 3|4 5|6 / R|Y K|B R|G"),
]

#: The rulebook's example cards (RULES.md H-01 .. H-09) that are not also photographed cards.
RULEBOOK: list[str] = [
    "? =c|n ? =c|n ?",  # H-01 colour-or-number chain
    "pyramid: G 3 / K",  # H-03
    "% !=c % !=c %",  # H-05 neighbours in different colours
    "stack: 3 ? Y|1",  # H-06
    "stack: ? ? Y1 ? ?",  # H-08
    "3 1",  # H-09, reading (a)
]


@pytest.fixture(scope="module")
def cat() -> Catalogue:
    return load_catalogue(FUSE_TOML)


def by_notation(cat: Catalogue) -> dict[str, BombCard]:
    return {b.notation: b for b in cat.bombs}


# -- counts -------------------------------------------------------------------------------------

def test_54_bombs_with_the_chosen_point_split(cat: Catalogue) -> None:
    assert len(cat.bombs) == 54
    assert all(b.set == "fuse" for b in cat.bombs)
    assert Counter(b.points for b in cat.bombs) == {1: 12, 2: 13, 3: 12, 4: 12, 6: 5}
    assert not any(b.points == 5 for b in cat.bombs)


def test_ids_run_f01_to_f54_in_order_of_points(cat: Catalogue) -> None:
    assert [b.id for b in cat.bombs] == [f"F{i:02d}" for i in range(1, 55)]
    points = [b.points for b in cat.bombs]
    assert points == sorted(points)


def test_six_pointers_are_two_double_stacks_and_three_large_pyramids(cat: Catalogue) -> None:
    six = [b.shape for b in cat.bombs if b.points == 6]
    doubles = [s for s in six if s.layout is Layout.DOUBLE_STACK]
    pyramids = [s for s in six if s.layout is Layout.PYRAMID]
    assert len(doubles) == 2 and len(pyramids) == 3
    assert all(s.size == 6 and [len(r) for r in s.rows] == [3, 2, 1] for s in pyramids)
    # the double stack and the large pyramid are 6-point layouts only
    others = [b.shape for b in cat.bombs if b.points != 6]
    assert not any(s.layout is Layout.DOUBLE_STACK for s in others)
    assert not any(s.layout is Layout.PYRAMID and s.size >= 6 for s in others)


def test_eleven_fuse_cards_six_numbers_and_five_colours(cat: Catalogue) -> None:
    assert len(cat.fuses) == 11
    assert all(f.set == "fuse" for f in cat.fuses)
    numbers = {f.id: f.numbers for f in cat.fuses if f.numbers}
    colours = {f.id: f.colours for f in cat.fuses if f.colours}
    assert numbers == {f"FZ{n}": (n,) for n in range(1, 7)}
    assert colours == {"FZR": RED, "FZB": BLUE, "FZG": GREEN, "FZY": YELLOW, "FZK": BLACK}
    assert not any(f.numbers and f.colours for f in cat.fuses)


# -- known cards --------------------------------------------------------------------------------

@pytest.mark.parametrize(("points", "notation"), PHOTOGRAPHED)
def test_photographed_card_is_in_with_its_points(cat: Catalogue, points: int, notation: str) -> None:
    card = by_notation(cat).get(notation)
    assert card is not None, f"photographed card {notation!r} missing"
    assert card.points == points
    assert card.source == "photo"


@pytest.mark.parametrize("notation", RULEBOOK)
def test_rulebook_example_card_is_in(cat: Catalogue, notation: str) -> None:
    card = by_notation(cat).get(notation)
    assert card is not None, f"rulebook card {notation!r} missing"
    assert card.source == "rulebook"


def test_sources_are_known_and_the_rest_designed(cat: Catalogue) -> None:
    counts = Counter(b.source for b in cat.bombs)
    assert set(counts) == {"photo", "rulebook", "designed"}
    assert counts["photo"] == len(PHOTOGRAPHED)
    assert counts["rulebook"] == len(RULEBOOK)
    assert counts["designed"] == 54 - len(PHOTOGRAPHED) - len(RULEBOOK)


def test_notations_and_names_are_unique(cat: Catalogue) -> None:
    assert len({b.notation for b in cat.bombs}) == 54
    assert len({b.shape for b in cat.bombs}) == 54
    assert all(b.name for b in cat.bombs)
    assert len({b.name for b in cat.bombs}) == 54


def test_file_says_it_is_a_reconstruction() -> None:
    head = FUSE_TOML.read_text("utf-8")[:2000]
    assert "RECONSTRUCTION" in head


# -- validity -----------------------------------------------------------------------------------

def test_every_card_is_completable_with_fuse_dice(cat: Catalogue) -> None:
    types = DiceSet.fuse().types_in_play
    for b in cat.bombs:
        assert CompiledCard(b.shape, types).completion() is not None, b.id


def test_notation_round_trips(cat: Catalogue) -> None:
    for b in cat.bombs:
        shape = parse(b.notation)
        assert to_text(shape) == b.notation, b.id
        assert parse(to_text(shape)) == shape == b.shape, b.id


# -- icon vocabulary ----------------------------------------------------------------------------

def _alts(s: CardShape) -> list[tuple[tuple[int, int], ...]]:
    return [sl.pred.alts for sl in s.slots if sl.pred.kind is PredKind.ONE_OF and not sl.pred.hashed]


def _comparisons(s: CardShape) -> list[Comparison]:
    return [a for c in s.clauses for a in c.alts if isinstance(a, Comparison)]


def _has_rel(rel: Rel) -> Callable[[CardShape], bool]:
    return lambda s: any(r.rel is rel for r in s.relations)


VOCABULARY: dict[str, Callable[[CardShape], bool]] = {
    "? any die": lambda s: any(sl.pred.kind is PredKind.ANY for sl in s.slots),
    "# number matters": lambda s: any(sl.pred.kind is PredKind.NUMBER for sl in s.slots),
    "% colour matters": lambda s: any(sl.pred.kind is PredKind.COLOUR for sl in s.slots),
    "white number": lambda s: any(len(a) == 1 and a[0][0] == 0 for a in _alts(s)),
    "colour": lambda s: any(len(a) == 1 and a[0][1] == 0 for a in _alts(s)),
    "colour and number": lambda s: any(len(a) == 1 and a[0][0] and a[0][1] for a in _alts(s)),
    "coloured #": lambda s: any(sl.pred.hashed for sl in s.slots),
    "colour or number": lambda s: any(
        len(a) == 2 and {bool(c) for c, _ in a} == {True, False} and all(bool(c) != bool(f) for c, f in a)
        for a in _alts(s)),
    "either of two colours": lambda s: any(len(a) >= 2 and all(c and not f for c, f in a) for a in _alts(s)),
    "either of two numbers": lambda s: any(len(a) >= 2 and all(f and not c for c, f in a) for a in _alts(s)),
    "<": _has_rel(Rel.LT),
    ">": _has_rel(Rel.GT),
    "= same number": _has_rel(Rel.SAME_NUMBER),
    "=c same colour": _has_rel(Rel.SAME_COLOUR),
    "!=c different colours": _has_rel(Rel.DIFF_COLOUR),
    "=c|n same colour or number": _has_rel(Rel.SAME_EITHER),
    "=cn same colour and number": _has_rel(Rel.SAME_BOTH),
    "equation with +": lambda s: any(sg > 0 for c in _comparisons(s) for e in c.exprs for sg, _, _ in e[1:]),
    "equation with -": lambda s: any(sg < 0 for c in _comparisons(s) for e in c.exprs for sg, _, _ in e),
    "group test": lambda s: any(isinstance(a, GroupTest) for c in s.clauses for a in c.alts),
    "row": lambda s: s.layout is Layout.ROW,
    "stack": lambda s: s.layout is Layout.STACK,
    "pyramid of 3": lambda s: s.layout is Layout.PYRAMID and s.size == 3,
    "large pyramid of 6": lambda s: s.layout is Layout.PYRAMID and s.size == 6,
    "double stack": lambda s: s.layout is Layout.DOUBLE_STACK,
}


@pytest.mark.parametrize("icon", sorted(VOCABULARY))
def test_designed_cards_cover_the_fuse_vocabulary(cat: Catalogue, icon: str) -> None:
    designed = [b for b in cat.bombs if b.source == "designed"]
    assert any(VOCABULARY[icon](b.shape) for b in designed), f"no designed card uses {icon}"


def test_no_countdown_only_icon(cat: Catalogue) -> None:
    countdown_only = {PredKind.SPLIT, PredKind.NOT, PredKind.EITHER}
    for b in cat.bombs:
        s = b.shape
        assert s.layout not in (Layout.WALL, Layout.ZIGGURAT), b.id
        assert not s.requires_split_die, b.id
        for sl in s.slots:
            assert sl.pred.kind not in countdown_only, b.id
            assert not sl.first and not sl.last, b.id
            # either of two colour-number pairs (R1|B2) is a Countdown icon
            assert not (len(sl.pred.alts) > 1 and any(c and f for c, f in sl.pred.alts)), b.id
        for token in ("S", "!R", "!B", "!G", "!Y", "!K", "first:", "last:", "*", "wall:", "ziggurat:"):
            assert token not in b.notation.split(), (b.id, token)


# -- difficulty ---------------------------------------------------------------------------------

def test_mean_difficulty_rises_with_points(cat: Catalogue) -> None:
    results = measure_catalogue([b for b in cat.bombs if b.points <= 4], trials=60, seed=2015)
    means = mean_by_points(results)
    assert list(means) == [1, 2, 3, 4]
    assert means[1] < means[2] < means[3] < means[4], means
