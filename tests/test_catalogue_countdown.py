"""The reconstructed FUSE: Countdown catalogue (src/fusegame/cards/data/countdown.toml).

Checked against shared/CARDS.md and RULES.md A.2, A.4-A.7, D.2, D.3: the printed counts, the icon
vocabulary, the rulebook's example cards, completability with the Countdown dice, notation
round-trips, sparks being easier than bombs, and what ``fuse cards`` shows for the set.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fusegame.cards.catalogue import Catalogue, builtin_catalogue, load_catalogue
from fusegame.cards.difficulty import COUNTDOWN_DICE, measure, measure_catalogue
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
from fusegame.dice import COLOURS, DiceSet

COUNTDOWN_TOML = Path(__file__).parents[1] / "src/fusegame/cards/data/countdown.toml"
SINGLE_COLOUR_DICE = DiceSet.parse("4R 4B 4G 4Y 4K")
runner = CliRunner()

#: The Countdown rulebook's example cards (RULES.md H-12 .. H-16), in our notation.
RULEBOOK: dict[str, str] = {
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


@pytest.fixture(scope="module")
def cat() -> Catalogue:
    return load_catalogue(COUNTDOWN_TOML)


def all_cards(cat: Catalogue) -> list[BombCard]:
    return [*cat.bombs, *cat.sparks]


# -- counts (shared/CARDS.md, RULES.md A.2) -----------------------------------------------------

def test_52_bombs_worth_1_to_6_with_the_chosen_split(cat: Catalogue) -> None:
    assert len(cat.bombs) == 52
    assert all(b.set == "countdown" and b.kind == "bomb" for b in cat.bombs)
    # every value 1-6 is used, 5 included (unlike FUSE); the split 9/10/10/9/8/6 is our choice
    assert Counter(b.points for b in cat.bombs) == {1: 9, 2: 10, 3: 10, 4: 9, 5: 8, 6: 6}


def test_bomb_ids_run_c01_to_c52_in_order_of_points(cat: Catalogue) -> None:
    assert [b.id for b in cat.bombs] == [f"C{i:02d}" for i in range(1, 53)]
    points = [b.points for b in cat.bombs]
    assert points == sorted(points)


def test_legal_hands_can_be_dealt(cat: Catalogue) -> None:
    # B.3.2: a card worth 4-6 needs a partner worth 1-3, so the low cards must be plentiful
    low = sum(b.points <= 3 for b in cat.bombs)
    assert low >= len(cat.bombs) // 2


def test_30_sparks_are_small_pointless_requirements(cat: Catalogue) -> None:
    assert [s.id for s in cat.sparks] == [f"S{i:02d}" for i in range(1, 31)]
    assert all(s.set == "countdown" and s.kind == "spark" for s in cat.sparks)
    assert all(s.points == 0 for s in cat.sparks)  # no point value (A.6)
    assert all(1 <= s.shape.size <= 3 for s in cat.sparks), [s.id for s in cat.sparks if s.shape.size > 3]


def test_10_fuse_cards_7_symbols_and_the_3_quoted_texts(cat: Catalogue) -> None:
    assert [f.id for f in cat.fuses] == [f"CZ{i}" for i in range(1, 11)]
    assert all(f.set == "countdown" for f in cat.fuses)
    symbols = [f for f in cat.fuses if f.effect is FuseEffect.SYMBOL]
    texts = {f.effect: f.text for f in cat.fuses if f.effect is not FuseEffect.SYMBOL}
    assert len(symbols) == 7
    assert all(f.colours or f.numbers for f in symbols)
    # a colour, a number, or both (A.5)
    assert any(f.colours and not f.numbers for f in symbols)
    assert any(f.numbers and not f.colours for f in symbols)
    assert any(f.colours and f.numbers for f in symbols)
    assert texts == TEXT_FUSES


def test_7_roles_one_per_ability(cat: Catalogue) -> None:
    assert [r.id for r in cat.roles] == [f"CR{i}" for i in range(1, 8)]
    assert [r.ability for r in cat.roles] == list(Ability)
    assert [r.name for r in cat.roles] == [
        "Cutter", "Operations Engineer", "Logistics Specialist", "Technologist",
        "Equipment Technician", "Disposal Expert", "Explosives Instructor"]
    assert all(r.set == "countdown" and len(r.text) > 30 for r in cat.roles)


def test_names_notations_unique_and_file_says_reconstruction(cat: Catalogue) -> None:
    cards = all_cards(cat)
    assert len({c.notation for c in cards}) == len({c.shape for c in cards}) == len(cards) == 82
    assert all(c.name for c in cards) and len({c.name for c in cards}) == 82
    assert {c.source for c in cards} == {"rulebook", "review", "designed"}
    assert "RECONSTRUCTION" in COUNTDOWN_TOML.read_text("utf-8")[:2000]


def test_builtin_catalogue_picks_up_countdown(cat: Catalogue) -> None:
    built = builtin_catalogue().of_set("countdown")
    assert built.bombs == cat.bombs and built.sparks == cat.sparks
    assert built.fuses == cat.fuses and built.roles == cat.roles
    # and the FUSE set gains nothing from it
    fuse = builtin_catalogue().of_set("fuse")
    assert len(fuse.bombs) == 54 and not fuse.sparks and not fuse.roles


# -- known cards --------------------------------------------------------------------------------

@pytest.mark.parametrize("example", sorted(RULEBOOK))
def test_rulebook_example_card_is_in(cat: Catalogue, example: str) -> None:
    notation = RULEBOOK[example]
    card = {b.notation: b for b in cat.bombs}.get(notation)
    assert card is not None, f"{example} {notation!r} missing"
    assert card.source == "rulebook"
    assert card.shape == parse(notation)


def test_rulebook_cards_are_the_only_rulebook_sources(cat: Catalogue) -> None:
    assert sorted(b.notation for b in all_cards(cat) if b.source == "rulebook") == sorted(RULEBOOK.values())


def test_card_types_named_by_reviewers(cat: Catalogue) -> None:
    review = [c for c in all_cards(cat) if c.source == "review"]
    shapes = [c.shape for c in review]
    # a single-die card such as "green 5"
    assert any(c.notation == "G5" for c in review)
    # ordered placements (a first and a last slot)
    assert any(any(s.first for s in sh.slots) and any(s.last for s in sh.slots) for sh in shapes)
    # sum equations
    assert any(any(sg > 0 for c in sh.clauses for a in c.alts if isinstance(a, Comparison)
                   for e in a.exprs for sg, _, _ in e[1:]) for sh in shapes)


# -- icon vocabulary (RULES.md D.2) ---------------------------------------------------------------

def _alts(s: CardShape) -> list[tuple[tuple[int, int], ...]]:
    return [sl.pred.alts for sl in s.slots if sl.pred.kind is PredKind.ONE_OF and not sl.pred.hashed]


def _kind(kind: PredKind) -> Callable[[CardShape], bool]:
    return lambda s: any(sl.pred.kind is kind for sl in s.slots)


def _has_rel(rel: Rel) -> Callable[[CardShape], bool]:
    return lambda s: any(r.rel is rel for r in s.relations)


def _comparisons(s: CardShape) -> list[Comparison]:
    return [a for c in s.clauses for a in c.alts if isinstance(a, Comparison)]


VOCABULARY: dict[str, Callable[[CardShape], bool]] = {
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


@pytest.mark.parametrize("icon", sorted(VOCABULARY))
def test_bombs_use_every_countdown_icon(cat: Catalogue, icon: str) -> None:
    assert any(VOCABULARY[icon](b.shape) for b in cat.bombs), f"no bomb card uses {icon}"


def test_countdown_uses_no_fuse_only_layout(cat: Catalogue) -> None:
    # pyramids and double stacks are FUSE layouts (D.2 #25, #29-30)
    assert not any(c.shape.layout in (Layout.PYRAMID, Layout.DOUBLE_STACK) for c in all_cards(cat))


def test_layout_sizes_follow_the_rulebook(cat: Catalogue) -> None:
    shapes = [b.shape for b in cat.bombs]
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


def test_star_sits_next_to_a_relation_that_gives_it_meaning(cat: Catalogue) -> None:
    # G-31: "any number or any colour" is a wildcard; a neighbouring relation says what matters
    for c in all_cards(cat):
        for i, sl in enumerate(c.shape.slots):
            if sl.pred.kind is PredKind.EITHER:
                assert any(i in (r.a, r.b) and r.rel is Rel.SAME_EITHER for r in c.shape.relations), c.id


# -- validity -----------------------------------------------------------------------------------

def test_every_card_is_completable_with_countdown_dice(cat: Catalogue) -> None:
    types = COUNTDOWN_DICE.types_in_play
    for c in all_cards(cat):
        assert CompiledCard(c.shape, types).completion() is not None, c.id


def test_only_split_die_cards_need_split_dice(cat: Catalogue) -> None:
    # cards without the S icon stay in the game when split dice are absent (A.4, A.6, F.2-F.3)
    types = SINGLE_COLOUR_DICE.types_in_play
    for c in all_cards(cat):
        done = CompiledCard(c.shape, types).completion() is not None
        assert done != c.shape.requires_split_die, c.id


def test_a_few_bombs_and_sparks_require_a_split_die(cat: Catalogue) -> None:
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


def test_notation_round_trips(cat: Catalogue) -> None:
    for c in all_cards(cat):
        shape = parse(c.notation)
        assert to_text(shape) == c.notation, c.id
        assert parse(to_text(shape)) == shape == c.shape, c.id


# -- difficulty ---------------------------------------------------------------------------------

def test_sparks_are_easier_than_one_point_bombs(cat: Catalogue) -> None:
    ones = [b for b in cat.bombs if b.points == 1]
    sparks = measure_catalogue(cat.sparks, trials=20, seed=2023, dice=COUNTDOWN_DICE)
    bombs = measure_catalogue(ones, trials=20, seed=2023, dice=COUNTDOWN_DICE)
    assert all(r.kind == "spark" and r.points == 0 for r in sparks)
    spark_mean = sum(r.mean_rolls for r in sparks) / len(sparks)
    one_mean = sum(r.mean_rolls for r in bombs) / len(bombs)
    assert spark_mean < one_mean, (spark_mean, one_mean)


def test_countdown_measure_rolls_split_dice(cat: Catalogue) -> None:
    # the "must be a split die" spark: a fifth of the Countdown dice are split dice
    split = next(s for s in cat.sparks if s.notation == "S")
    r = measure(split, trials=100, seed=1, dice=COUNTDOWN_DICE)
    assert 3 < r.mean_rolls < 8
    # the single-colour "green 5" is rarer with Countdown dice than 1 in 30
    g5 = next(s for s in cat.sparks if s.notation == "G5")
    assert measure(g5, trials=100, seed=1, dice=COUNTDOWN_DICE).mean_rolls > 15
    assert all(c in COLOURS or bin(c).count("1") == 2 for c in COUNTDOWN_DICE.colours)


# -- the command line ---------------------------------------------------------------------------

def test_cards_json_lists_every_countdown_card() -> None:
    res = runner.invoke(app, ["cards", "--set", "countdown", "--json"])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)
    assert Counter(r["kind"] for r in rows) == {"bomb": 52, "spark": 30, "fuse": 10, "role": 7}
    assert {r["set"] for r in rows} == {"countdown"}
    assert all(isinstance(r["points"], int) and 1 <= r["points"] <= 6 for r in rows if r["kind"] == "bomb")
    # sparks have no points: null, like fuse and role cards
    assert all(r["points"] is None for r in rows if r["kind"] != "bomb")
    roles = {r["notation"]: r for r in rows if r["kind"] == "role"}
    assert set(roles) == {a.value for a in Ability}
    assert roles["cutter"]["name"] == "Cutter" and roles["cutter"]["text"]
    assert {r["text"] for r in rows if r["kind"] == "fuse" and r["text"]} == set(TEXT_FUSES.values())
    assert all(r["slots"] and r["layout"] for r in rows if r["kind"] in ("bomb", "spark"))


def test_cards_table_counts_every_kind() -> None:
    res = runner.invoke(app, ["cards", "--set", "countdown"], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    assert "52 bomb, 10 fuse, 30 spark, 7 role" in res.stdout
    for cid in ("C01", "S30", "CZ10", "CR7"):
        assert cid in res.stdout


def test_cards_validate_counts_sparks_and_roles() -> None:
    res = runner.invoke(app, ["cards", "validate", str(COUNTDOWN_TOML)])
    assert res.exit_code == 0, res.output
    assert res.stdout.strip() == "OK: 52 bomb cards, 10 fuse cards, 30 spark cards, 7 role cards"
