"""The card notation prints and parses back exactly; errors say where; catalogues say which card.

* a Hypothesis strategy builds random card shapes (every layout, every predicate kind including the
  Countdown ones, first/last flags, relations between neighbours, clauses with comparisons, group
  tests and ``or``) and checks ``parse(to_text(c)) == c`` and that printing is stable;
* random strings either parse (and then print stably) or raise ``NotationError``, nothing else;
* bad notation raises ``NotationError`` with the right 0-based ``pos``;
* catalogue errors (``catalogue_from_data`` / ``load_catalogue``) raise ``CardDataError`` naming the
  file, the card id and, for notation errors, the character.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import CONFORMANCE_CARDS
from fusegame.cards import CardDataError, builtin_catalogue, catalogue_from_data, load_catalogue
from fusegame.cards.model import (
    CardShape,
    Clause,
    Comparison,
    Group,
    GroupTest,
    Layout,
    Pred,
    PredKind,
    Rel,
    Relation,
    Slot,
    Term,
)
from fusegame.cards.notation import NotationError, parse, to_text
from fusegame.dice import COLOURS

# ----------------------------------------------------------------------------- strategies
colour = st.sampled_from(COLOURS)
face = st.integers(1, 6)
alt = st.one_of(
    st.tuples(colour, st.just(0)),  # R
    st.tuples(st.just(0), face),  # 5
    st.tuples(colour, face),  # R5
)

preds = st.one_of(
    st.sampled_from([PredKind.ANY, PredKind.NUMBER, PredKind.COLOUR, PredKind.EITHER,
                     PredKind.SPLIT]).map(Pred),
    colour.map(lambda c: Pred(PredKind.NOT, colour=c)),  # !R
    colour.map(lambda c: Pred(PredKind.ONE_OF, alts=((c, 0),), hashed=True)),  # B#
    st.lists(alt, min_size=1, max_size=3, unique=True).map(  # R, 5, R5, R|B, 1|2, R1|B2, Y|1
        lambda alts: Pred(PredKind.ONE_OF, alts=tuple(alts))),
)


@st.composite
def layouts_and_rows(draw: st.DrawFn) -> tuple[Layout, list[list[bool]]]:
    """A layout and its rows as lists of "is a slot" flags (False = a gap in a wall's upper row)."""
    layout = draw(st.sampled_from(list(Layout)))
    if layout in (Layout.ROW, Layout.STACK):
        return layout, [[True] * draw(st.integers(1, 6))]
    if layout is Layout.DOUBLE_STACK:
        return layout, [[True] * draw(st.integers(1, 4)), [True] * draw(st.integers(1, 4))]
    if layout is Layout.PYRAMID:
        width = draw(st.integers(2, 4))
        levels = draw(st.integers(2, width))
        return layout, [[True] * (width - r) for r in range(levels)]
    if layout is Layout.WALL:
        width = draw(st.integers(1, 4))
        upper = draw(st.lists(st.booleans(), min_size=width, max_size=width).filter(any))
        return layout, [[True] * width, upper]
    return layout, [[True] * 4, [True]]


def supports_of(layout: Layout, rows: list[list[int]], n: int) -> list[tuple[int, ...]]:
    """Written independently of the parser: which slots each slot rests on (docs/rules.md D.5)."""
    sup: list[tuple[int, ...]] = [()] * n
    for r, row in enumerate(rows):
        for j, s in enumerate(row):
            if s < 0:
                continue
            if layout in (Layout.STACK, Layout.DOUBLE_STACK) and j > 0:
                sup[s] = (row[j - 1],)
            elif layout is Layout.PYRAMID and r > 0:
                sup[s] = (rows[r - 1][j], rows[r - 1][j + 1])
            elif layout is Layout.WALL and r == 1:
                sup[s] = (rows[0][j],)
            elif layout is Layout.ZIGGURAT and r == 1:
                sup[s] = tuple(rows[0])
    return sup


@st.composite
def exprs(draw: st.DrawFn, n: int) -> tuple[Term, ...]:
    count = draw(st.integers(1, 3))
    terms: list[Term] = []
    for _ in range(count):
        sign = draw(st.sampled_from([1, -1]))
        if draw(st.booleans()):
            terms.append((sign, draw(st.integers(0, n - 1)), 0))
        else:
            terms.append((sign, -1, draw(st.integers(0, 20))))
    return tuple(terms)


@st.composite
def clauses(draw: st.DrawFn, n: int) -> Clause:
    alts: list[Comparison | GroupTest] = []
    for _ in range(draw(st.integers(1, 3))):
        if n >= 2 and draw(st.booleans()):
            members = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=min(n, 5)))
            alts.append(GroupTest(draw(st.sampled_from(list(Group))), tuple(members)))
        else:
            k = draw(st.integers(2, 3))
            alts.append(Comparison(tuple(draw(exprs(n)) for _ in range(k)),
                                   tuple(draw(st.sampled_from("=<>")) for _ in range(k - 1))))
    return Clause(tuple(alts))


@st.composite
def shapes(draw: st.DrawFn) -> CardShape:
    layout, flags = draw(layouts_and_rows())
    rows: list[list[int]] = []
    n = 0
    for row_flags in flags:
        row = []
        for is_slot in row_flags:
            row.append(n if is_slot else -1)
            n += is_slot
        rows.append(row)
    first = draw(st.one_of(st.none(), st.integers(0, n - 1)))
    sup = supports_of(layout, rows, n)
    slots = []
    for i in range(n):
        last = i != first and draw(st.integers(0, 5)) == 0
        slots.append(Slot(draw(preds), sup[i], first=i == first, last=last))
    relations = []
    for row in rows:
        for a, b in zip(row, row[1:]):
            if a >= 0 and b >= 0 and draw(st.booleans()):
                relations.append(Relation(a, b, draw(st.sampled_from(list(Rel)))))
    cls = tuple(draw(clauses(n)) for _ in range(draw(st.integers(0, 2))))
    return CardShape(layout, tuple(slots), tuple(relations), cls, tuple(tuple(r) for r in rows))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shapes())
def test_print_then_parse_gives_the_same_card(shape: CardShape) -> None:
    text = to_text(shape)
    back = parse(text)
    assert back == shape, text
    assert to_text(back) == text


NOTATION_CHARS = "RBGYK123456?#%*S!|<>=c n:/.;abdeor()+-,0789 stackpyrmidwlzgu"


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=NOTATION_CHARS, max_size=40))
def test_any_text_parses_or_raises_notation_error(text: str) -> None:
    try:
        shape = parse(text)
    except NotationError as e:
        assert 0 <= e.pos <= len(text), (text, e.pos)
        assert f"(at character {e.pos + 1})" in str(e)
        return
    printed = to_text(shape)
    assert parse(printed) == shape, (text, printed)
    assert to_text(parse(printed)) == printed


@pytest.mark.parametrize("text", [
    "Y5 =c|n R5", "stack: # < # < # < #", "pyramid: G 3 / K", "wall: Y K B / R . G",
    "ziggurat: B 5 6 Y / R", "# # # ; a - b = c", "stacks: 1|2 3|4 / R|Y K|B", "first:K ? last:?",
    "!R S * % ; same-colour(a,b) or a + 3 > -b - 1", "R1|B2 B#", "# # ; a < b < 7",
])
def test_known_notation_round_trips(text: str) -> None:
    assert to_text(parse(text)) == text


def test_catalogue_notation_prints_stably() -> None:
    for cat in (builtin_catalogue(), load_catalogue(CONFORMANCE_CARDS)):
        for b in cat.bombs:
            printed = to_text(b.shape)
            assert parse(printed) == b.shape == parse(b.notation), b.id
            assert to_text(parse(printed)) == printed, b.id


# ----------------------------------------------------------------------------- errors
BAD_NOTATION: list[tuple[str, int | tuple[int, ...], str]] = [
    ("R ? Q", 4, "not a slot"),
    ("R|R", 0, "repeats"),
    ("blob: R", 0, "unknown layout"),
    ("R . B", 2, "'.'"),
    ("stack: # < # <", 13, "needs a slot on each side"),
    ("< R", 0, "needs a slot on each side"),
    ("R < < B", 4, "needs a slot on each side"),
    ("pyramid: R G B / K", 17, "one slot fewer"),
    ("pyramid: R G", 9, "at least two rows"),
    ("stack: R / G", 11, "one row"),
    ("ziggurat: R G B / Y", 10, "four base slots"),
    ("wall: R G / . .", 6, "same width"),
    ("wall: R G / . < B", 14, "needs a slot on each side"),
    ("wall: R G / B < .", 16, "cannot point at a gap"),
    ("first:R first:B", 0, "only one slot"),
    ("R /", (2, 3), "empty row"),  # at the '/' or where the missing row should be, not at 'R'
    ("pyramid: R G / / K", (15, 16), "empty row"),
    ("# # ; a - z = 1", 10, "does not exist"),
    ("# # ; a ~ b", 8, "cannot read '~'"),
    ("# # ; a + ", 10, "expected a slot letter or a number"),
    ("# # ; a b", 8, "expected '=', '<' or '>'"),
    ("# # ; same-colour(a)", 6, "at least two slots"),
    ("# # ; same-thing(a,b)", 6, "unknown test"),
    ("# # ; same-colour(a b)", 20, "expected ',' or ')'"),
    ("# # ;", 5, "empty clause"),
    ("# # ; a = b c", 12, "unexpected 'c'"),
]


@pytest.mark.parametrize(("text", "pos", "words"), BAD_NOTATION, ids=[t for t, _, _ in BAD_NOTATION])
def test_bad_notation_says_where(text: str, pos: int | tuple[int, ...], words: str) -> None:
    with pytest.raises(NotationError) as info:
        parse(text)
    err = info.value
    assert words in err.message, err.message
    allowed = pos if isinstance(pos, tuple) else (pos,)
    assert err.pos in allowed, f"{text!r}: error at {err.pos}, expected {pos} ({err.message})"
    assert str(err).endswith(f"(at character {err.pos + 1})")
    assert isinstance(err, ValueError)


def _bomb(notation: str, cid: str = "X01", points: int = 1) -> dict[str, object]:
    return {"id": cid, "points": points, "notation": notation}


def test_catalogue_error_names_file_card_and_position() -> None:
    data = {"bomb": [_bomb("R ? B", "OK1"), _bomb("R ? Q", "BAD7")]}
    with pytest.raises(CardDataError) as info:
        catalogue_from_data(data, "decks/mine.toml")
    err = info.value
    assert (err.file, err.card_id, err.pos) == ("decks/mine.toml", "BAD7", 4)
    assert "decks/mine.toml" in str(err) and "card BAD7" in str(err) and "character 5" in str(err)
    assert "not a slot" in str(err)


@pytest.mark.parametrize(("data", "card", "words"), [
    ({"bomb": [_bomb("R", "A"), _bomb("B", "A")]}, "A", "duplicate"),
    ({"bomb": [_bomb("R", "A", points=5 + 2)]}, "A", "points"),
    ({"bomb": [_bomb("R", "A", points=0)]}, "A", "points"),
    ({"bomb": [{"id": "A", "points": 1}]}, "A", "notation"),
    ({"bomb": [{"id": "A", "points": 1, "notation": "R", "set": "nope"}]}, "A", "unknown set"),
    ({"bomb": [_bomb("# ; a = 9", "A")]}, "A", "never be completed"),
    ({"bomb": [_bomb("R < 1", "A")]}, "A", "never be completed"),
    ({"fuse": [{"id": "FZ9", "shows": "Q"}]}, "FZ9", "fuse card shows"),
    ({"fuse": [{"id": "FZ0", "shows": ""}]}, "FZ0", "at least one"),
    ({"bomb": [{"points": 1, "notation": "R"}]}, None, "has no 'id'"),
    ({"bomb": {"id": "A"}}, None, "list of tables"),
    ({"bombs": []}, None, "unknown table"),
])
def test_catalogue_errors(data: dict[str, object], card: str | None, words: str) -> None:
    with pytest.raises(CardDataError) as info:
        catalogue_from_data(data, "deck.toml")
    assert info.value.file == "deck.toml" and info.value.card_id == card
    assert words in str(info.value), str(info.value)
    assert str(info.value).startswith("deck.toml")


def test_load_catalogue_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "deck.toml"
    path.write_text('[[bomb]]\nid = "Z1"\npoints = 2\nnotation = "stack: # < # <"\n', "utf-8")
    with pytest.raises(CardDataError) as info:
        load_catalogue(path)
    err = info.value
    assert err.file == str(path) and err.card_id == "Z1" and err.pos == 13
    assert str(path) in str(err) and "card Z1" in str(err) and "character 14" in str(err)

    bad_toml = tmp_path / "broken.toml"
    bad_toml.write_text("[[bomb]\nid = ", "utf-8")
    with pytest.raises(CardDataError, match="not valid TOML") as info:
        load_catalogue(bad_toml)
    assert info.value.file == str(bad_toml)

    with pytest.raises(CardDataError, match="cannot read file"):
        load_catalogue(tmp_path / "missing.toml")


def test_conformance_catalogue_is_valid() -> None:
    cat = load_catalogue(CONFORMANCE_CARDS)
    points = sorted(b.points for b in cat.bombs)
    assert [points.count(v) for v in (1, 2, 3, 4, 6)] == [12, 13, 12, 12, 5]
    assert sorted(f.id for f in cat.fuses) == sorted(
        ["FZ1", "FZ2", "FZ3", "FZ4", "FZ5", "FZ6", "FZR", "FZB", "FZG", "FZY", "FZK"])
    assert {b.shape.layout for b in cat.bombs} == set(Layout)
