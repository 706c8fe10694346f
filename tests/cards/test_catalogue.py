"""The reconstructed catalogues, FUSE (src/fusegame/cards/data/fuse.toml) and FUSE: Countdown
(countdown.toml), against shared/CARDS.md and docs/rules.md A.2, A.4-A.7, D.2, D.3: the printed counts,
the icon vocabulary, the rulebook's example cards, completability with each set's dice, notation
round-trips, the difficulty of the cards by points, and what ``fuse cards`` shows for each set.

What holds for both sets is one test run on each (``CardSet`` says what differs).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

import fusegame.cards
from fusegame.cards.catalogue import Catalogue, builtin_catalogue, load_catalogue
from fusegame.cards.difficulty import COUNTDOWN_DICE, mean_by_points, measure, measure_catalogue
from fusegame.cards.model import (
    Ability,
    BombCard,
    CardShape,
    Comparison,
    FuseEffect,
    GroupTest,
    Layout,
    PredKind,
    Rel,
)
from fusegame.cards.notation import parse, to_text
from fusegame.cli import app
from fusegame.constraints import CompiledCard
from fusegame.dice import BLACK, BLUE, COLOURS, GREEN, RED, YELLOW, DiceSet

DATA = Path(fusegame.cards.__file__).resolve().parent / "data"
FUSE_TOML = DATA / "fuse.toml"
COUNTDOWN_TOML = DATA / "countdown.toml"
SINGLE_COLOUR_DICE = DiceSet.parse("4R 4B 4G 4Y 4K")
runner = CliRunner()

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

#: The FUSE rulebook's example cards (docs/rules.md H-01 .. H-09) that are not also photographed cards.
FUSE_RULEBOOK: dict[str, str] = {
    "H-01": "? =c|n ? =c|n ?",  # colour-or-number chain
    "H-03": "pyramid: G 3 / K",
    "H-05": "% !=c % !=c %",  # neighbours in different colours
    "H-06": "stack: 3 ? Y|1",
    "H-08": "stack: ? ? Y1 ? ?",
    "H-09": "3 1",  # reading (a)
}

#: The Countdown rulebook's example cards (docs/rules.md H-12 .. H-16), in our notation.
COUNTDOWN_RULEBOOK: dict[str, str] = {
    "H-12": "stack: # < # # < #",  # L1 #, L2 greater than L1, L3 #, L4 greater than L3
    "H-13": "wall: Y K B / R . G",  # lower Y K B, upper R on Y and G on B
    "H-14": "ziggurat: B 5 6 Y / R",  # base blue, 5, 6, yellow; red top
    "H-15": "% !=c % !=c % !=c %",  # four dice, neighbours of different colours
    "H-16": "# # # ; a - b = c",  # the FAQ's [# - # = #]
}

TEXT_FUSES = {
    FuseEffect.SPARK: "All players must draw a spark card.",
    FuseEffect.LOSE_ROLES: "All players lose their role ability until they defuse a bomb card.",
    FuseEffect.ROLL_SIX: "All players must roll a 6 before the game continues.",
}


# -- the icon vocabulary (docs/rules.md D.2) --------------------------------------------------------------

def _alts(s: CardShape) -> list[tuple[tuple[int, int], ...]]:
    return [sl.pred.alts for sl in s.slots if sl.pred.kind is PredKind.ONE_OF and not sl.pred.hashed]


def _kind(kind: PredKind) -> Callable[[CardShape], bool]:
    return lambda s: any(sl.pred.kind is kind for sl in s.slots)


def _has_rel(rel: Rel) -> Callable[[CardShape], bool]:
    return lambda s: any(r.rel is rel for r in s.relations)


def _comparisons(s: CardShape) -> list[Comparison]:
    return [a for c in s.clauses for a in c.alts if isinstance(a, Comparison)]


FUSE_VOCABULARY: dict[str, Callable[[CardShape], bool]] = {
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

COUNTDOWN_VOCABULARY: dict[str, Callable[[CardShape], bool]] = {
    "? any die": _kind(PredKind.ANY),
    "# number matters": _kind(PredKind.NUMBER),
    "% colour matters": _kind(PredKind.COLOUR),
    "* any number or any colour": _kind(PredKind.EITHER),
    "S must be a split die": _kind(PredKind.SPLIT),
    "!C not the colour shown": _kind(PredKind.NOT),
    "number shown": lambda s: any(len(a) == 1 and not a[0][0] and a[0][1] for a in _alts(s)),
    "colour shown": lambda s: any(len(a) == 1 and a[0][0] and not a[0][1] for a in _alts(s)),
    "colour and number shown": lambda s: any(len(a) == 1 and a[0][0] and a[0][1] for a in _alts(s)),
    "coloured #": lambda s: any(sl.pred.hashed for sl in s.slots),
    "either of two colours": lambda s: any(len(a) == 2 and all(c and not f for c, f in a) for a in _alts(s)),
    "either of two numbers": lambda s: any(len(a) == 2 and all(f and not c for c, f in a) for a in _alts(s)),
    "either of two colour-number pairs": lambda s: any(
        len(a) == 2 and all(c and f for c, f in a) for a in _alts(s)),
    "colour or number": lambda s: any(
        len(a) == 2 and all(bool(c) != bool(f) for c, f in a) and {bool(c) for c, _ in a} == {True, False}
        for a in _alts(s)),
    "first": lambda s: any(sl.first for sl in s.slots),
    "last": lambda s: any(sl.last for sl in s.slots),
    **{f"relation {rel.value}": _has_rel(rel) for rel in Rel},
    "equation a - b = c": lambda s: any(len(c.exprs) == 2 and any(sg < 0 for e in c.exprs for sg, _, _ in e)
                                        for c in _comparisons(s)),
    "sum equal to a constant": lambda s: any(
        c.ops == ("=",) and len(c.exprs[0]) >= 2 and all(k for _, sl, k in c.exprs[1] if sl < 0)
        and all(sl < 0 for _, sl, _ in c.exprs[1]) for c in _comparisons(s)),
    "a + b = c + d": lambda s: any(c.ops == ("=",) and all(len(e) == 2 for e in c.exprs)
                                   for c in _comparisons(s)),
    "inequality clause": lambda s: any(set(c.ops) & {"<", ">"} for c in _comparisons(s)),
    "group test": lambda s: any(isinstance(a, GroupTest) for c in s.clauses for a in c.alts),
    "'or' between tests": lambda s: any(len(c.alts) > 1 for c in s.clauses),
    "row": lambda s: s.layout is Layout.ROW,
    "stack": lambda s: s.layout is Layout.STACK,
    "wall": lambda s: s.layout is Layout.WALL,
    "ziggurat": lambda s: s.layout is Layout.ZIGGURAT,
}


@dataclass(frozen=True)
class CardSet:
    """What one set's catalogue holds (CARDS.md; the point splits are our choice)."""

    name: str
    path: Path
    id_prefix: str  #: bomb ids run <prefix>01, <prefix>02, ...
    points: dict[int, int]  #: bomb cards per point value
    fuses: int
    sparks: int
    roles: int
    sources: frozenset[str]  #: where the cards come from
    dice: DiceSet  #: the set's own dice: every card must be completable with them
    rulebook: dict[str, str]  #: the rulebook's example cards, by example
    vocabulary: dict[str, Callable[[CardShape], bool]]
    #: the cards that must use every icon of the vocabulary between them
    vocabulary_cards: Callable[[Catalogue], list[BombCard]]
    other_layouts: frozenset[Layout]  #: the other set's layouts, never used in this one
    table: str = ""  #: ``fuse cards --set``'s title line
    validated: str = ""  #: ``fuse cards validate``'s line
    shown: tuple[str, ...] = field(default=())  #: ids ``fuse cards --set`` lists

    @property
    def bombs(self) -> int:
        return sum(self.points.values())


SETS = [
    CardSet("fuse", FUSE_TOML, "F", {1: 12, 2: 13, 3: 12, 4: 12, 6: 5}, fuses=11, sparks=0, roles=0,
            sources=frozenset({"photo", "rulebook", "designed"}), dice=DiceSet.fuse(), rulebook=FUSE_RULEBOOK,
            vocabulary=FUSE_VOCABULARY,
            vocabulary_cards=lambda cat: [b for b in cat.bombs if b.source == "designed"],
            other_layouts=frozenset({Layout.WALL, Layout.ZIGGURAT}),
            table="54 bomb, 11 fuse", validated="OK: 54 bomb cards, 11 fuse cards",
            shown=("F01", "F54", "FZ1", "FZK")),
    CardSet("countdown", COUNTDOWN_TOML, "C", {1: 9, 2: 10, 3: 10, 4: 9, 5: 8, 6: 6}, fuses=10, sparks=30,
            roles=7, sources=frozenset({"rulebook", "review", "designed"}), dice=COUNTDOWN_DICE,
            rulebook=COUNTDOWN_RULEBOOK, vocabulary=COUNTDOWN_VOCABULARY,
            vocabulary_cards=lambda cat: list(cat.bombs),
            other_layouts=frozenset({Layout.PYRAMID, Layout.DOUBLE_STACK}),
            table="52 bomb, 10 fuse, 30 spark, 7 role",
            validated="OK: 52 bomb cards, 10 fuse cards, 30 spark cards, 7 role cards",
            shown=("C01", "S30", "CZ10", "CR7")),
]
BY_NAME = {s.name: s for s in SETS}


@cache
def catalogue(name: str) -> Catalogue:
    return load_catalogue(BY_NAME[name].path)


@pytest.fixture(params=SETS, ids=lambda s: s.name)
def card_set(request: pytest.FixtureRequest) -> CardSet:
    return request.param  # type: ignore[no-any-return]


def all_cards(cat: Catalogue) -> list[BombCard]:
    return [*cat.bombs, *cat.sparks]


# -- counts (shared/CARDS.md, docs/rules.md A.2) -------------------------------------------------------

def test_bomb_cards_with_the_chosen_point_split(card_set: CardSet) -> None:
    cat = catalogue(card_set.name)
    assert len(cat.bombs) == card_set.bombs
    assert all(b.set == card_set.name and b.kind == "bomb" for b in cat.bombs)
    # FUSE: 1-4 and 6, no 5-point card; Countdown: every value 1-6, 5 included
    assert Counter(b.points for b in cat.bombs) == card_set.points
    assert (len(cat.fuses), len(cat.sparks), len(cat.roles)) == (card_set.fuses, card_set.sparks,
                                                                  card_set.roles)
    assert all(c.set == card_set.name for c in cat.sparks)
    assert all(f.set == card_set.name for f in cat.fuses) and all(r.set == card_set.name for r in cat.roles)


def test_bomb_ids_run_in_order_of_points(card_set: CardSet) -> None:
    cat = catalogue(card_set.name)
    assert [b.id for b in cat.bombs] == [f"{card_set.id_prefix}{i:02d}" for i in range(1, card_set.bombs + 1)]
    points = [b.points for b in cat.bombs]
    assert points == sorted(points)


def test_fuse_six_pointers_are_two_double_stacks_and_three_large_pyramids() -> None:
    cat = catalogue("fuse")
    six = [b.shape for b in cat.bombs if b.points == 6]
    doubles = [s for s in six if s.layout is Layout.DOUBLE_STACK]
    pyramids = [s for s in six if s.layout is Layout.PYRAMID]
    assert len(doubles) == 2 and len(pyramids) == 3
    assert all(s.size == 6 and [len(r) for r in s.rows] == [3, 2, 1] for s in pyramids)
    # the double stack and the large pyramid are 6-point layouts only
    others = [b.shape for b in cat.bombs if b.points != 6]
    assert not any(s.layout is Layout.DOUBLE_STACK for s in others)
    assert not any(s.layout is Layout.PYRAMID and s.size >= 6 for s in others)


def test_countdown_legal_hands_can_be_dealt() -> None:
    # B.3.2: a card worth 4-6 needs a partner worth 1-3, so the low cards must be plentiful
    cat = catalogue("countdown")
    low = sum(b.points <= 3 for b in cat.bombs)
    assert low >= len(cat.bombs) // 2


def test_countdown_30_sparks_are_small_pointless_requirements() -> None:
    cat = catalogue("countdown")
    assert [s.id for s in cat.sparks] == [f"S{i:02d}" for i in range(1, 31)]
    assert all(s.set == "countdown" and s.kind == "spark" for s in cat.sparks)
    assert all(s.points == 0 for s in cat.sparks)  # no point value (A.6)
    assert all(1 <= s.shape.size <= 3 for s in cat.sparks), [s.id for s in cat.sparks if s.shape.size > 3]


def test_fuse_eleven_fuse_cards_six_numbers_and_five_colours() -> None:
    cat = catalogue("fuse")
    numbers = {f.id: f.numbers for f in cat.fuses if f.numbers}
    colours = {f.id: f.colours for f in cat.fuses if f.colours}
    assert numbers == {f"FZ{n}": (n,) for n in range(1, 7)}
    assert colours == {"FZR": RED, "FZB": BLUE, "FZG": GREEN, "FZY": YELLOW, "FZK": BLACK}
    assert not any(f.numbers and f.colours for f in cat.fuses)


def test_countdown_10_fuse_cards_7_symbols_and_the_3_quoted_texts() -> None:
    cat = catalogue("countdown")
    assert [f.id for f in cat.fuses] == [f"CZ{i}" for i in range(1, 11)]
    symbols = [f for f in cat.fuses if f.effect is FuseEffect.SYMBOL]
    texts = {f.effect: f.text for f in cat.fuses if f.effect is not FuseEffect.SYMBOL}
    assert len(symbols) == 7
    assert all(f.colours or f.numbers for f in symbols)
    # a colour, a number, or both (A.5)
    assert any(f.colours and not f.numbers for f in symbols)
    assert any(f.numbers and not f.colours for f in symbols)
    assert any(f.colours and f.numbers for f in symbols)
    assert texts == TEXT_FUSES


def test_countdown_7_roles_one_per_ability() -> None:
    cat = catalogue("countdown")
    assert [r.id for r in cat.roles] == [f"CR{i}" for i in range(1, 8)]
    assert [r.ability for r in cat.roles] == list(Ability)
    assert [r.name for r in cat.roles] == [
        "Cutter", "Operations Engineer", "Logistics Specialist", "Technologist",
        "Equipment Technician", "Disposal Expert", "Explosives Instructor"]
    assert all(r.set == "countdown" and len(r.text) > 30 for r in cat.roles)


def test_notations_and_names_are_unique(card_set: CardSet) -> None:
    cards = all_cards(catalogue(card_set.name))
    n = card_set.bombs + card_set.sparks
    assert len({c.notation for c in cards}) == len({c.shape for c in cards}) == len(cards) == n
    assert all(c.name for c in cards) and len({c.name for c in cards}) == n


def test_card_sources(card_set: CardSet) -> None:
    assert {c.source for c in all_cards(catalogue(card_set.name))} == card_set.sources


def test_file_says_it_is_a_reconstruction(card_set: CardSet) -> None:
    assert "RECONSTRUCTION" in card_set.path.read_text("utf-8")[:2000]


def test_builtin_catalogue_holds_the_set(card_set: CardSet) -> None:
    cat = catalogue(card_set.name)
    built = builtin_catalogue().of_set(card_set.name)
    # each set gains nothing from the other
    assert built.bombs == cat.bombs and built.sparks == cat.sparks
    assert built.fuses == cat.fuses and built.roles == cat.roles


# -- known cards --------------------------------------------------------------------------------

@pytest.mark.parametrize(("points", "notation"), PHOTOGRAPHED)
def test_fuse_photographed_card_is_in_with_its_points(points: int, notation: str) -> None:
    card = {b.notation: b for b in catalogue("fuse").bombs}.get(notation)
    assert card is not None, f"photographed card {notation!r} missing"
    assert card.points == points
    assert card.source == "photo"


def test_fuse_photographed_rulebook_and_designed_counts() -> None:
    counts = Counter(b.source for b in catalogue("fuse").bombs)
    assert counts["photo"] == len(PHOTOGRAPHED)
    assert counts["rulebook"] == len(FUSE_RULEBOOK)
    assert counts["designed"] == 54 - len(PHOTOGRAPHED) - len(FUSE_RULEBOOK)


@pytest.mark.parametrize(("card_set", "example"), [(s, ex) for s in SETS for ex in sorted(s.rulebook)],
                         ids=[f"{s.name}-{ex}" for s in SETS for ex in sorted(s.rulebook)])
def test_rulebook_example_card_is_in(card_set: CardSet, example: str) -> None:
    notation = card_set.rulebook[example]
    card = {b.notation: b for b in catalogue(card_set.name).bombs}.get(notation)
    assert card is not None, f"{example} {notation!r} missing"
    assert card.source == "rulebook"
    assert card.shape == parse(notation)


def test_rulebook_cards_are_the_only_rulebook_sources(card_set: CardSet) -> None:
    rulebook = sorted(b.notation for b in all_cards(catalogue(card_set.name)) if b.source == "rulebook")
    assert rulebook == sorted(card_set.rulebook.values())


def test_countdown_card_types_named_by_reviewers() -> None:
    review = [c for c in all_cards(catalogue("countdown")) if c.source == "review"]
    shapes = [c.shape for c in review]
    # a single-die card such as "green 5"
    assert any(c.notation == "G5" for c in review)
    # ordered placements (a first and a last slot)
    assert any(any(s.first for s in sh.slots) and any(s.last for s in sh.slots) for sh in shapes)
    # sum equations
    assert any(any(sg > 0 for c in sh.clauses for a in c.alts if isinstance(a, Comparison)
                   for e in a.exprs for sg, _, _ in e[1:]) for sh in shapes)


# -- icon vocabulary ----------------------------------------------------------------------------

@pytest.mark.parametrize(("card_set", "icon"), [(s, icon) for s in SETS for icon in sorted(s.vocabulary)],
                         ids=[f"{s.name}-{icon}" for s in SETS for icon in sorted(s.vocabulary)])
def test_the_cards_use_every_icon_of_the_set(card_set: CardSet, icon: str) -> None:
    """FUSE: our designed cards cover FUSE's vocabulary; Countdown: its bombs use every icon."""
    cards = card_set.vocabulary_cards(catalogue(card_set.name))
    assert any(card_set.vocabulary[icon](b.shape) for b in cards), f"no card uses {icon}"


def test_no_layout_of_the_other_set(card_set: CardSet) -> None:
    # walls and ziggurats are Countdown layouts; pyramids and double stacks FUSE's (D.2 #25, #29-30)
    cards = all_cards(catalogue(card_set.name))
    assert not [c.id for c in cards if c.shape.layout in card_set.other_layouts]


def test_fuse_uses_no_countdown_only_icon() -> None:
    countdown_only = {PredKind.SPLIT, PredKind.NOT, PredKind.EITHER}
    for b in catalogue("fuse").bombs:
        s = b.shape
        for sl in s.slots:
            assert sl.pred.kind not in countdown_only, b.id
            assert not sl.first and not sl.last, b.id
            # either of two colour-number pairs (R1|B2) is a Countdown icon
            assert not (len(sl.pred.alts) > 1 and any(c and f for c, f in sl.pred.alts)), b.id
        for token in ("S", "!R", "!B", "!G", "!Y", "!K", "first:", "last:", "*", "wall:", "ziggurat:"):
            assert token not in b.notation.split(), (b.id, token)


def test_countdown_layout_sizes_follow_the_rulebook() -> None:
    shapes = [b.shape for b in catalogue("countdown").bombs]
    stacks = [s for s in shapes if s.layout is Layout.STACK]
    walls = [s for s in shapes if s.layout is Layout.WALL]
    ziggurats = [s for s in shapes if s.layout is Layout.ZIGGURAT]
    # stacks hold 3-6 dice, and every size is used
    assert {s.size for s in stacks} == {3, 4, 5, 6}
    # walls: 2-3 columns, two levels, 4-6 dice; both widths and every size are used
    assert all(2 <= len(s.rows[0]) <= 3 and 4 <= s.size <= 6 for s in walls)
    assert {len(s.rows[0]) for s in walls} == {2, 3}
    assert {s.size for s in walls} >= {4, 5, 6}
    # ziggurats: 4 base dice and a top die that needs all four
    assert ziggurats and all(s.size == 5 and s.slots[4].supports == (0, 1, 2, 3) for s in ziggurats)


def test_countdown_star_sits_next_to_a_relation_that_gives_it_meaning() -> None:
    # G-31: "any number or any colour" is a wildcard; a neighbouring relation says what matters
    for c in all_cards(catalogue("countdown")):
        for i, sl in enumerate(c.shape.slots):
            if sl.pred.kind is PredKind.EITHER:
                assert any(i in (r.a, r.b) and r.rel is Rel.SAME_EITHER for r in c.shape.relations), c.id


# -- validity -----------------------------------------------------------------------------------

def test_every_card_is_completable_with_the_sets_dice(card_set: CardSet) -> None:
    types = card_set.dice.types_in_play
    for c in all_cards(catalogue(card_set.name)):
        assert CompiledCard(c.shape, types).completion() is not None, c.id


def test_only_split_die_cards_need_split_dice(card_set: CardSet) -> None:
    # cards without the S icon stay in the game when split dice are absent (A.4, A.6, F.2-F.3);
    # FUSE's cards never need one
    types = SINGLE_COLOUR_DICE.types_in_play
    for c in all_cards(catalogue(card_set.name)):
        done = CompiledCard(c.shape, types).completion() is not None
        assert done != c.shape.requires_split_die, c.id
        assert not c.shape.requires_split_die or card_set.name == "countdown", c.id


def test_a_few_countdown_bombs_and_sparks_require_a_split_die() -> None:
    cat = catalogue("countdown")
    split_bombs = [b.id for b in cat.bombs if b.shape.requires_split_die]
    split_sparks = [s.id for s in cat.sparks if s.shape.requires_split_die]
    assert 2 <= len(split_bombs) <= 5, split_bombs
    assert 3 <= len(split_sparks) <= 4, split_sparks
    for c in all_cards(cat):
        assert c.shape.requires_split_die == ("S" in c.notation.replace("first:", " ").split()), c.id
    # marked in the data file, in a comment on the card's own entry (and only there)
    blocks = COUNTDOWN_TOML.read_text("utf-8").split("\n\n")
    marked = [b for b in blocks if "[[" in b and "needs" in b and "split di" in b]
    assert sorted(b.split('id = "')[1].split('"')[0] for b in marked) == sorted(split_bombs + split_sparks)


def test_notation_round_trips(card_set: CardSet) -> None:
    for c in all_cards(catalogue(card_set.name)):
        shape = parse(c.notation)
        assert to_text(shape) == c.notation, c.id
        assert parse(to_text(shape)) == shape == c.shape, c.id


# -- difficulty ---------------------------------------------------------------------------------

def test_fuse_mean_difficulty_rises_with_points() -> None:
    results = measure_catalogue([b for b in catalogue("fuse").bombs if b.points <= 4], trials=60, seed=2015)
    means = mean_by_points(results)
    assert list(means) == [1, 2, 3, 4]
    assert means[1] < means[2] < means[3] < means[4], means


def test_countdown_sparks_are_easier_than_one_point_bombs() -> None:
    cat = catalogue("countdown")
    ones = [b for b in cat.bombs if b.points == 1]
    sparks = measure_catalogue(cat.sparks, trials=20, seed=2023, dice=COUNTDOWN_DICE)
    bombs = measure_catalogue(ones, trials=20, seed=2023, dice=COUNTDOWN_DICE)
    assert all(r.kind == "spark" and r.points == 0 for r in sparks)
    spark_mean = sum(r.mean_rolls for r in sparks) / len(sparks)
    one_mean = sum(r.mean_rolls for r in bombs) / len(bombs)
    assert spark_mean < one_mean, (spark_mean, one_mean)


def test_countdown_measure_rolls_split_dice() -> None:
    cat = catalogue("countdown")
    # the "must be a split die" spark: a fifth of the Countdown dice are split dice
    split = next(s for s in cat.sparks if s.notation == "S")
    r = measure(split, trials=100, seed=1, dice=COUNTDOWN_DICE)
    assert 3 < r.mean_rolls < 8
    # the single-colour "green 5" is rarer with Countdown dice than 1 in 30
    g5 = next(s for s in cat.sparks if s.notation == "G5")
    assert measure(g5, trials=100, seed=1, dice=COUNTDOWN_DICE).mean_rolls > 15
    assert all(c in COLOURS or bin(c).count("1") == 2 for c in COUNTDOWN_DICE.colours)


# -- the command line ---------------------------------------------------------------------------

def test_cards_json_lists_every_card_of_the_set(card_set: CardSet) -> None:
    res = runner.invoke(app, ["cards", "--set", card_set.name, "--json"])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)
    want = {"bomb": card_set.bombs, "fuse": card_set.fuses, "spark": card_set.sparks, "role": card_set.roles}
    assert Counter(r["kind"] for r in rows) == {k: n for k, n in want.items() if n}
    assert {r["set"] for r in rows} == {card_set.name}
    assert Counter(r["points"] for r in rows if r["kind"] == "bomb") == card_set.points
    # sparks have no points: null, like fuse and role cards
    assert all(r["points"] is None for r in rows if r["kind"] != "bomb")
    assert all(r["slots"] and r["layout"] for r in rows if r["kind"] in ("bomb", "spark"))


def test_cards_json_shows_countdowns_roles_and_text_fuse_cards() -> None:
    res = runner.invoke(app, ["cards", "--set", "countdown", "--json"])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)
    roles = {r["notation"]: r for r in rows if r["kind"] == "role"}
    assert set(roles) == {a.value for a in Ability}
    assert roles["cutter"]["name"] == "Cutter" and roles["cutter"]["text"]
    assert {r["text"] for r in rows if r["kind"] == "fuse" and r["text"]} == set(TEXT_FUSES.values())


def test_cards_table_counts_every_kind(card_set: CardSet) -> None:
    res = runner.invoke(app, ["cards", "--set", card_set.name], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    assert f"({card_set.table})" in res.stdout
    for cid in card_set.shown:
        assert cid in res.stdout


def test_cards_validate_counts_every_kind(card_set: CardSet) -> None:
    res = runner.invoke(app, ["cards", "validate", str(card_set.path)])
    assert res.exit_code == 0, res.output
    assert res.stdout.strip() == card_set.validated
