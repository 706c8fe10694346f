"""Cards and dice drawn as SVG: every card draws, reads without colour vision, and gives the client
the slot hooks it needs; the CLI's `cards render` and `cards page`."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fusegame.cards import BombCard, builtin_catalogue, parse
from fusegame.cards.model import FuseCard, Layout, PredKind, RoleCard
from fusegame.cli import app
from fusegame.dice import LETTERS
from fusegame.web.svg import (
    DIE_COLOURS,
    INK,
    any_card_svg,
    card_svg,
    catalogue_page,
    clause_text,
    die_svg,
    fuse_svg,
    role_svg,
)

NS = "{http://www.w3.org/2000/svg}"
CAT = builtin_catalogue()
SHAPED = CAT.bombs + CAT.sparks
ALL_IDS = [c.id for c in SHAPED] + [f.id for f in CAT.fuses] + [r.id for r in CAT.roles]
runner = CliRunner()


def svg_root(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    return root


def slots(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if g.get("class") == "slot"]


def texts(el: ET.Element, cls: str | None = None) -> list[str]:
    return ["".join(t.itertext()) for t in el.iter(f"{NS}text") if cls is None or t.get("class") == cls]


def box(g: ET.Element) -> tuple[float, float, float]:
    return float(g.get("data-x", "nan")), float(g.get("data-y", "nan")), float(g.get("data-size", "nan"))


def card(notation: str, kind: str = "bomb") -> BombCard:
    points = 0 if kind == "spark" else 3
    return BombCard("T1", "fuse", points, parse(notation), notation, kind=kind, name="Test")


# ---------------------------------------------------------------------------------- every card
@pytest.mark.parametrize("c", SHAPED, ids=lambda c: c.id)
def test_every_card_draws_with_one_slot_group_per_slot(c: BombCard) -> None:
    root = svg_root(card_svg(c))
    assert root.get("class") == "card" and root.get("data-card") == c.id
    view = [float(v) for v in root.get("viewBox", "").split()]
    assert view[:2] == [0, 0] and view[2] >= 240 and view[3] >= 336
    groups = slots(root)
    assert [g.get("data-slot") for g in groups] == [str(i) for i in range(c.shape.size)]
    for g in groups:
        boxes = [r for r in g.iter(f"{NS}rect") if r.get("class") == "slot-box"]
        assert len(boxes) == 1
        x, y, s = box(g)
        assert [float(boxes[0].get(k, "nan")) for k in ("x", "y", "width")] == [x, y, s]
        assert 8 < x and x + s < view[2] - 8 and 8 < y and y + s < view[3] - 8  # inside the frame
        assert s >= 40  # big enough for a die to be read on a phone


@pytest.mark.parametrize("c", SHAPED, ids=lambda c: c.id)
def test_slots_never_overlap(c: BombCard) -> None:
    b = [box(g) for g in slots(svg_root(card_svg(c)))]
    for i, (x1, y1, s) in enumerate(b):
        for x2, y2, _ in b[i + 1:]:
            assert abs(x1 - x2) >= s or abs(y1 - y2) >= s


def test_colour_slots_show_their_letters() -> None:
    """Colour is never the only cue: every slot that names a colour also shows its letter."""
    checked = 0
    for c in SHAPED:
        groups = slots(svg_root(card_svg(c)))
        for slot, g in zip(c.shape.slots, groups):
            p = slot.pred
            wanted = {LETTERS[col] for col, _ in p.alts if col} if p.kind is PredKind.ONE_OF else set()
            if p.kind is PredKind.NOT:
                wanted = {LETTERS[p.colour]}
            shown = set("".join(texts(g)))
            assert wanted <= shown, (c.id, slot)
            checked += bool(wanted)
    assert checked > 50


def test_numbers_are_pips_and_alternatives_show_both() -> None:
    g = slots(svg_root(card_svg(card("5 Y|1 R1|B2 Y5"))))
    assert len([e for e in g[0].iter(f"{NS}circle") if e.get("class") == "pip"]) == 5
    assert texts(g[1], "colour-letter") == ["Y"] and "1" in texts(g[1])
    assert texts(g[2], "colour-letter") == ["R1", "B2"]
    assert len([e for e in g[2].iter(f"{NS}path") if e.get("class") == "alt"]) == 2
    fives = [e for e in g[3].iter(f"{NS}circle") if e.get("class") == "pip"]
    assert len(fives) == 5 and {e.get("fill") for e in fives} == {INK["Y"]}
    assert texts(g[3], "colour-letter") == ["Y"]


def test_slot_tooltips_say_what_the_slot_needs() -> None:
    g = slots(svg_root(card_svg(card("!R Y|1 S first:? last:B#"))))
    titles = [g_.findtext(f"{NS}title") for g_ in g]
    assert titles == ["slot 1: any die but red", "slot 2: yellow or a 1", "slot 3: a split die",
                      "slot 4: any die; filled first", "slot 5: blue, its number counts; filled last"]


def test_first_and_last_tags() -> None:
    g = slots(svg_root(card_svg(card("first:B ? ? last:3"))))
    assert texts(g[0], "order-tag") == ["1st"] and texts(g[3], "order-tag") == ["last"]
    assert texts(g[1], "order-tag") == []


@pytest.mark.parametrize("c", [c for c in SHAPED if c.shape.relations], ids=lambda c: c.id)
def test_relations_are_drawn_between_their_slots(c: BombCard) -> None:
    root = svg_root(card_svg(c))
    rels = [g for g in root.iter(f"{NS}g") if g.get("class") == "rel"]
    assert [(g.get("data-a"), g.get("data-b"), g.get("data-rel")) for g in rels] == [
        (str(r.a), str(r.b), r.rel.value) for r in c.shape.relations]
    boxes = {int(g.get("data-slot", "-1")): box(g) for g in slots(root)}
    for g, r in zip(rels, c.shape.relations):
        symbols = texts(g, "rel-symbol")
        assert symbols and set("".join(symbols)) <= set("<>=\u2260")
        # the symbol sits in the gap between the two slots it relates
        (xa, ya, s), (xb, yb, _) = boxes[r.a], boxes[r.b]
        t = next(e for e in g.iter(f"{NS}text") if e.get("class") == "rel-symbol")
        tx, ty = float(t.get("x", "nan")), float(t.get("y", "nan"))  # y is the baseline
        if ya == yb:
            assert min(xa, xb) + s <= tx <= max(xa, xb)
        else:
            assert min(ya, yb) + s < ty < max(ya, yb) + s / 2


def test_relation_symbols_read_the_right_way() -> None:
    row = svg_root(card_svg(card("# < # > # != # =c % !=c %")))
    syms = [texts(g, "rel-symbol") for g in row.iter(f"{NS}g") if g.get("class") == "rel"]
    assert syms == [["<"], [">"], ["\u2260"], ["="], ["\u2260"]]
    # in a stack the lower slot is first, so "<" is turned to open towards the upper slot
    stack = svg_root(card_svg(card("stack: # < # = #")))
    lt, eq = [next(t for t in g.iter(f"{NS}text")) for g in stack.iter(f"{NS}g") if g.get("class") == "rel"]
    assert (lt.get("transform") or "").startswith("rotate(-90") and eq.get("transform") is None
    words = [texts(g, "rel-word") for g in svg_root(card_svg(card("? =cn ? =c|n ?"))).iter(f"{NS}g")
             if g.get("class") == "rel"]
    assert words == [["and"], ["or"]]


@pytest.mark.parametrize("c", [c for c in SHAPED if c.shape.clauses], ids=lambda c: c.id)
def test_clauses_are_written_under_the_diagram_with_slot_letters(c: BombCard) -> None:
    root = svg_root(card_svg(c))
    assert " ".join(texts(root, "clause")) == " ".join(clause_text(cl) for cl in c.shape.clauses)
    assert [texts(g, "slot-letter") for g in slots(root)] == [[chr(97 + i)] for i in range(c.shape.size)]
    lowest_slot = max(y + s for _, y, s in map(box, slots(root)))
    first_clause = next(t for t in root.iter(f"{NS}text") if t.get("class") == "clause")
    assert float(first_clause.get("y", "nan")) > lowest_slot


def test_clause_text_is_readable() -> None:
    shape = parse("% % % ; same-colour(a,b,c) or same-number(a,b,c) ; a - b = c")
    assert [clause_text(c) for c in shape.clauses] == [
        "same colour (a, b, c) or same number (a, b, c)", "a - b = c"]
    # a long clause wraps, but never inside a group test's parentheses
    lines = texts(svg_root(card_svg(card("% % % % % ; different-colours(a,b,c,d,e) or same-number(a,b)"))),
                  "clause")
    assert len(lines) > 1 and " ".join(lines) == "different colours (a, b, c, d, e) or same number (a, b)"
    assert all(line.count("(") == line.count(")") for line in lines)


def test_cards_without_clauses_have_no_slot_letters() -> None:
    root = svg_root(card_svg(card("# < # ?")))
    assert texts(root, "slot-letter") == [] and texts(root, "clause") == []


# ---------------------------------------------------------------------------------- layouts
def slot_boxes(notation: str) -> list[tuple[float, float, float]]:
    return [box(g) for g in slots(svg_root(card_svg(card(notation))))]


def test_row_runs_left_to_right() -> None:
    b = slot_boxes("1 2 3 4 5 6")
    assert len({y for _, y, _ in b}) == 1 and [x for x, _, _ in b] == sorted(x for x, _, _ in b)


def test_stack_builds_upwards_from_the_first_slot() -> None:
    b = slot_boxes("stack: 1 < # < # < 6")
    assert len({x for x, _, _ in b}) == 1
    assert [y for _, y, _ in b] == sorted((y for _, y, _ in b), reverse=True)  # slot 0 at the bottom


def test_double_stack_is_two_columns() -> None:
    b = slot_boxes("stacks: 1|2 3|4 5|6 / R|Y K|B R|G")
    left, right = b[:3], b[3:]
    assert len({x for x, _, _ in left}) == 1 and len({x for x, _, _ in right}) == 1
    assert left[0][0] < right[0][0] and left[0][1] == right[0][1]  # bottoms level
    assert left[0][1] > left[2][1]


def test_pyramid_rows_sit_centred_on_the_row_below() -> None:
    shape = parse("pyramid: 1 R3 2 / B G4 / Y5")
    b = slot_boxes("pyramid: 1 R3 2 / B G4 / Y5")
    for i, slot in enumerate(shape.slots):
        if slot.supports:
            below = [b[j] for j in slot.supports]
            assert b[i][0] == pytest.approx(sum(x for x, _, _ in below) / len(below), abs=0.02)
            assert all(b[i][1] + b[i][2] < y for _, y, _ in below)  # above, not overlapping


def test_wall_upper_slots_sit_straight_above_with_gaps() -> None:
    b = slot_boxes("wall: Y K B / R . G")
    assert b[3][0] == b[0][0] and b[4][0] == b[2][0] and b[3][1] < b[0][1]


def test_ziggurat_top_is_centred_on_the_base() -> None:
    b = slot_boxes("ziggurat: B 5 6 Y / R")
    assert b[4][0] == pytest.approx((b[1][0] + b[2][0]) / 2, abs=0.02) and b[4][1] < b[0][1]


def test_long_rows_widen_the_card_and_tall_stacks_lengthen_it() -> None:
    def size(notation: str) -> tuple[float, float]:
        v = svg_root(card_svg(card(notation))).get("viewBox", "").split()
        return float(v[2]), float(v[3])

    assert size("G5") == (240, 336)
    wide, tall = size("% =c % =c % =c % =c %"), size("stack: * =c|n * =c|n * =c|n * =c|n * =c|n *")
    assert wide[0] > 240 and wide[1] == 336 and tall[0] == 240 and tall[1] > 336


def test_width_sets_the_drawn_size_only() -> None:
    c = CAT.bomb("F01")
    big, small = svg_root(card_svg(c)), svg_root(card_svg(c, width=120))
    assert small.get("viewBox") == big.get("viewBox") and small.get("width") == "120"
    w, h = (float(v) for v in big.get("viewBox", "").split()[2:])
    assert float(small.get("height", "0")) == pytest.approx(120 * h / w, abs=0.01)


# ---------------------------------------------------------------------------------- kinds
def test_sparks_and_bombs_look_different() -> None:
    bomb, spark = svg_root(card_svg(card("G5"))), svg_root(card_svg(card("G5", "spark")))
    frame = [(r.get("fill")) for root in (bomb, spark) for r in root.iter(f"{NS}rect")
             if r.get("class") == "frame"]
    assert frame[0] != frame[1]
    assert "SPARK" in texts(spark, "kind-label") and texts(spark, "points") == []
    assert texts(bomb, "points") == ["3"] and texts(bomb, "kind-label") == []
    assert "Test" in texts(bomb, "card-name") and texts(bomb, "card-id") == ["T1"]


@pytest.mark.parametrize("f", CAT.fuses, ids=lambda f: f.id)
def test_fuse_cards(f: FuseCard) -> None:
    root = svg_root(fuse_svg(f))
    assert root.get("data-card") == f.id and "FUSE" in texts(root, "card-name")
    shown = " ".join(texts(root))
    if f.text:
        assert " ".join(texts(root, "fuse-text")) == f.text
    else:
        for part in f.symbol.split():
            assert part in shown


@pytest.mark.parametrize("r", CAT.roles, ids=lambda r: r.id)
def test_role_cards_show_name_and_whole_ability(r: RoleCard) -> None:
    root = svg_root(role_svg(r))
    assert " ".join(texts(root, "card-name")) == r.name
    assert " ".join(texts(root, "role-text")) == " ".join(r.text.split())
    last = [t for t in root.iter(f"{NS}text") if t.get("class") == "role-text"][-1]
    assert float(last.get("y", "nan")) < float(root.get("viewBox", "").split()[3]) - 16


def test_any_card_dispatches_by_id() -> None:
    assert svg_root(any_card_svg(CAT, "F12")).get("data-kind") == "bomb"
    assert svg_root(any_card_svg(CAT, "S01")).get("data-kind") == "spark"
    assert svg_root(any_card_svg(CAT, "FZ1")).get("data-kind") == "fuse"
    assert svg_root(any_card_svg(CAT, "CR1")).get("data-kind") == "role"
    with pytest.raises(ValueError, match="no card NOPE"):
        any_card_svg(CAT, "NOPE")


def test_text_is_escaped() -> None:
    c = BombCard("X<1>", "fuse", 2, parse("# # ; a < b"), "# # ; a < b", name='A & "B"')
    root = svg_root(card_svg(c))
    assert root.get("data-card") == "X<1>" and 'A & "B"' in texts(root, "card-name")
    assert texts(root, "clause") == ["a < b"]


# ---------------------------------------------------------------------------------- dice
def in_svg(fragment: str) -> ET.Element:
    """The die fragment as the client uses it: inside a card's <svg>."""
    g = svg_root(f'<svg xmlns="http://www.w3.org/2000/svg">{fragment}</svg>')[0]
    assert g.tag == f"{NS}g" and g.get("class") == "die"
    return g


def test_split_die_has_two_halves_and_both_letters() -> None:
    g = in_svg(die_svg("K/Y", 3, size=40, x=10, y=20))
    halves = [p for p in g.iter(f"{NS}path") if p.get("class") == "half"]
    assert [h.get("fill") for h in halves] == [DIE_COLOURS["K"], DIE_COLOURS["Y"]]
    assert texts(g, "die-letter") == ["K", "Y"]
    assert len([c for c in g.iter(f"{NS}circle") if c.get("class") == "pip"]) == 3
    assert g.get("data-colours") == "K/Y" and g.get("data-face") == "3"


def test_single_die() -> None:
    g = in_svg(die_svg("Y", 6))
    assert [p for p in g.iter(f"{NS}path") if p.get("class") == "half"] == []
    pips = [c for c in g.iter(f"{NS}circle") if c.get("class") == "pip"]
    assert len(pips) == 6 and {p.get("fill") for p in pips} == {INK["Y"]}
    assert texts(g, "die-letter") == ["Y"]
    xs = [float(p.get("cx", "nan")) for p in pips]
    assert 0 < min(xs) and max(xs) < 40


@pytest.mark.parametrize("colours,face", [("P", 1), ("R/R", 2), ("R/B/G", 3), ("R", 0), ("R", 7)])
def test_bad_dice_are_refused(colours: str, face: int) -> None:
    with pytest.raises(ValueError):
        die_svg(colours, face)


def contrast(a: str, b: str) -> float:
    def lum(hex_colour: str) -> float:
        chans = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in chans]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_letters_and_pips_contrast_with_every_die_colour() -> None:
    assert set(DIE_COLOURS) == set(INK) == set("RBGYK")
    for letter, fill in DIE_COLOURS.items():
        assert contrast(fill, INK[letter]) >= 4.5, letter
    assert contrast(DIE_COLOURS["Y"], INK["Y"]) > 7  # dark text on yellow


# ---------------------------------------------------------------------------------- determinism
def test_same_card_same_bytes() -> None:
    for c in SHAPED[:20]:
        assert card_svg(c) == card_svg(c)


def test_same_bytes_across_processes() -> None:
    code = ("import hashlib; from fusegame.cards import builtin_catalogue as b; "
            "from fusegame.web.svg import catalogue_page; print(hashlib.sha256(catalogue_page(b())"
            ".encode()).hexdigest())")
    digests = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                             check=True)
        digests.add(out.stdout.strip())
    assert digests == {hashlib.sha256(catalogue_page(CAT).encode()).hexdigest()}


# ---------------------------------------------------------------------------------- the page
def test_page_holds_every_card_grouped() -> None:
    page = catalogue_page(CAT)
    assert "<title>FUSE cards</title>" in page and "@media print" in page
    for cid in ALL_IDS:
        assert f'id="card-{cid}"' in page
    assert page.count('class="card"') == len(SHAPED) + len(CAT.fuses) + len(CAT.roles)
    heads = re.findall(r"<h3>([^<]*)</h3>", page)
    assert heads[:2] == ["Bomb cards: 1 point", "Bomb cards: 2 points"]
    assert {"Spark cards", "Fuse cards", "Role cards"} <= set(heads)
    assert page.index('id="set-fuse"') < page.index('id="set-countdown"')


#: each set: its title on the page, and a card of each kind it has
SETS = {"fuse": ("FUSE", ("F01", "FZ1")), "countdown": ("FUSE: Countdown", ("C01", "S01", "CZ1", "CR1"))}


@pytest.mark.parametrize("card_set", sorted(SETS))
def test_within_a_set_the_bombs_come_in_order_of_points(card_set: str) -> None:
    page = catalogue_page(CAT)
    part = page[page.index(f'id="set-{card_set}"'):]
    end = part.find('<section class="set"', 1)
    part = part if end < 0 else part[:end]
    bombs = {b.id: b for b in CAT.bombs if b.set == card_set}
    shown = [i for i in re.findall(r'<figure id="card-([^"]+)"', part) if i in bombs]
    assert sorted(shown) == sorted(bombs)
    order = [bombs[i].points for i in shown]
    assert order == sorted(order)


@pytest.mark.parametrize("card_set", sorted(SETS))
def test_page_of_one_set(card_set: str) -> None:
    title, ids = SETS[card_set]
    page = catalogue_page(CAT, card_set)
    # one set only (the legend of the symbols comes first, on every page)
    assert f"<h2>{title}</h2>" in page and page.count('<section class="set"') == 1
    mine = [c.id for c in SHAPED if c.set == card_set] + [f.id for f in CAT.fuses if f.set == card_set] + [
        r.id for r in CAT.roles if r.set == card_set]
    assert set(ids) <= set(mine)
    assert page.count('class="card"') == len(mine)
    for cid in ALL_IDS:
        assert (f'id="card-{cid}"' in page) == (cid in mine), cid
    with pytest.raises(ValueError, match="unknown card set"):
        catalogue_page(CAT, "chess")


# ---------------------------------------------------------------------------------- CLI
def test_cli_render_to_stdout_and_file(tmp_path: Path) -> None:
    res = runner.invoke(app, ["cards", "render", "F50"])
    assert res.exit_code == 0, res.output
    assert svg_root(res.stdout).get("data-card") == "F50"
    out = tmp_path / "cz8.svg"
    res = runner.invoke(app, ["cards", "render", "CZ8", "--out", str(out)])
    assert res.exit_code == 0 and res.stdout == ""
    assert svg_root(out.read_text("utf-8")).get("data-kind") == "fuse"


def test_cli_render_bad_id_is_one_line_exit_2() -> None:
    res = runner.invoke(app, ["cards", "render", "F99"])
    assert res.exit_code == 2
    assert res.stderr.strip() == "fuse: error: no card F99"
    res = runner.invoke(app, ["cards", "render"])
    assert res.exit_code == 2 and len(res.stderr.strip().splitlines()) == 1


def test_cli_render_all_and_page(tmp_path: Path) -> None:
    res = runner.invoke(app, ["cards", "render", "--all", "--out", str(tmp_path / "svg")])
    assert res.exit_code == 0, res.output
    files = sorted(p.stem for p in (tmp_path / "svg").iterdir())
    assert files == sorted(ALL_IDS)
    assert svg_root((tmp_path / "svg" / "C29.svg").read_text("utf-8")).get("data-card") == "C29"
    page = tmp_path / "cards.html"
    res = runner.invoke(app, ["cards", "page", "--set", "fuse", "--out", str(page)])
    assert res.exit_code == 0, res.output
    text = page.read_text("utf-8")
    assert all(f'id="card-{c.id}"' in text for c in CAT.bombs if c.set == "fuse")
    res = runner.invoke(app, ["cards", "page", "--set", "chess"])
    assert res.exit_code == 2 and "unknown card set" in res.stderr


def test_layouts_cover_every_kind_in_the_catalogue() -> None:
    """The built-in cards exercise every layout the renderer draws."""
    assert {c.shape.layout for c in SHAPED} == set(Layout)
