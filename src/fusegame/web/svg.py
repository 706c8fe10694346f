"""Cards and dice drawn as SVG, straight from the card model.

Every drawing is plain string building: no fonts to load, no images, no ids (so many cards can be
inlined in one page), and the same card always gives the same bytes. Colours are never the only
cue: every coloured slot, tile and die also shows its colour letter (R B G Y K).

The browser client relies on a few hooks in a bomb or spark card: the root ``<svg>`` has
``class="card"`` and ``data-card``; every slot is a ``<g class="slot" data-slot data-x data-y
data-size>`` holding a ``<rect class="slot-box">`` (drawn last, unfilled, so a highlight on it
stays visible); ``data-x``/``data-y``/``data-size`` give the slot's box in the card's own
coordinates, where the client draws a placed die (``die_svg`` at that position and size).
"""

from __future__ import annotations

import math
import re
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from fusegame.cards.catalogue import SETS, Catalogue
from fusegame.cards.model import (
    BombCard,
    CardShape,
    Clause,
    FuseCard,
    FuseEffect,
    Layout,
    Pred,
    PredKind,
    Rel,
    Relation,
    RoleCard,
    Slot,
)
from fusegame.cards.notation import parse, print_clause
from fusegame.cards.words import Lang, card_title, card_words, pred_words
from fusegame.dice import COLOURS, LETTERS, NAMES
from fusegame.web.symbols import symbol_words

#: Die and tile colours by letter; the one palette every drawing uses.
DIE_COLOURS: dict[str, str] = {"R": "#d32f2f", "B": "#1565c0", "G": "#2e7d32", "Y": "#fbc02d",
                               "K": "#212121"}
#: Text and pip colour on each die colour: every pair has a contrast ratio of at least 4.5:1.
INK: dict[str, str] = {"R": "#ffffff", "B": "#ffffff", "G": "#ffffff", "Y": "#212121", "K": "#ffffff"}

FONT = "system-ui, sans-serif"
CARD_WIDTH, CARD_HEIGHT = 240, 336

_DARK = "#1f2a30"
_EDGE = "#37474f"
_MUTED = "#607d8b"
_FRAME = {"bomb": "#263238", "spark": "#ef6c00", "fuse": "#c62828", "role": "#5e35b1"}
_PANEL = {"bomb": "#fbf8f1", "spark": "#fff4e5", "fuse": "#fff3f1", "role": "#f5f1fb"}
_SPLIT_TONES = ("#b0bec5", "#455a64")
_SLOT_LETTERS = "abcdefghijklmnopqrstuvwxyz"

# Diagram spacing, in slot sizes.
_REL_GAP = 0.7  # between two slots joined by a relation symbol
_GAP = 0.2  # between two slots with nothing between them
_ROW_GAP = 0.16  # between the rows of a pyramid, wall or ziggurat
_COL_GAP = 1.3  # between the two columns of a double stack
_MARGIN = 0.2  # around the diagram, for tags and letters that stick out of the slots
_S_MAX, _S_MIN = 72.0, 40.0  # slot size limits in card units: legible, never huge

# Pip positions on a 3 x 3 grid (column, row), as on real dice.
_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((2, 0), (0, 2)),
    3: ((2, 0), (1, 1), (0, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)),
}
_PIP_GRID = (0.3, 0.5, 0.7)

_REL_WORDS = {
    Rel.LT: "a smaller number than the next", Rel.GT: "a larger number than the next",
    Rel.SAME_NUMBER: "the same number", Rel.DIFF_NUMBER: "different numbers",
    Rel.SAME_COLOUR: "the same colour", Rel.DIFF_COLOUR: "different colours",
    Rel.SAME_BOTH: "the same colour and number", Rel.SAME_EITHER: "the same colour or the same number",
}
_NUMBER_SYMBOL = {Rel.LT: "<", Rel.GT: ">", Rel.SAME_NUMBER: "=", Rel.DIFF_NUMBER: "\u2260"}
_REL_WORDS_ES = {
    Rel.LT: "un número menor que el siguiente", Rel.GT: "un número mayor que el siguiente",
    Rel.SAME_NUMBER: "el mismo número", Rel.DIFF_NUMBER: "números distintos",
    Rel.SAME_COLOUR: "el mismo color", Rel.DIFF_COLOUR: "colores distintos",
    Rel.SAME_BOTH: "el mismo color y número", Rel.SAME_EITHER: "el mismo color o el mismo número",
}
#: The words drawn on the cards, in each language (English is the printed cards' own).
_CARD_WORDS: dict[str, dict[str, str]] = {
    "en": {"spark": "SPARK", "role": "ROLE", "first": "1st", "last": "last", "and": "and", "or": "or",
           "slot": "slot", "fuse_note": "Every player returns one die that matches.",
           "bomb": "{n}-point bomb card", "spark_card": "spark card", "fuse_card": "fuse card",
           "role_card": "role card", "any": "any die", "number": "a number (see the symbols and clauses)",
           "colour": "a colour (see the symbols and clauses)",
           "either": "any die: its colour or its number counts",
           "split": "a split die", "filled_first": "; filled first", "filled_last": "; filled last"},
    "es": {"spark": "CHISPA", "role": "ROL", "first": "1.º", "last": "últ.", "and": "y", "or": "o",
           "slot": "casilla", "fuse_note": "Cada jugador devuelve un dado que coincida.",
           "bomb": "carta de bomba de {n} puntos", "spark_card": "carta de chispa",
           "fuse_card": "carta de mecha",
           "role_card": "carta de rol", "any": "cualquier dado",
           "number": "un número (mira los símbolos y las reglas)",
           "colour": "un color (mira los símbolos y las reglas)",
           "either": "cualquier dado: cuenta su color o su número", "split": "un dado partido",
           "filled_first": "; se llena primero", "filled_last": "; se llena el último"},
}
#: Group tests under a card, in Spanish ("same colour (a, b, c)" as printed in English).
_GROUP_WORDS_ES = {"same colour": "mismo color", "same number": "mismo número",
                   "different colours": "colores distintos", "different numbers": "números distintos"}

Attr = str | int | float | None


# ------------------------------------------------------------------ low-level SVG building
def _num(v: float) -> str:
    """A coordinate with at most two decimals: short, and identical on every run."""
    text = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _attrs(attrs: Mapping[str, Attr]) -> str:
    out = []
    for key, value in attrs.items():
        if value is None:
            continue
        text = _num(value) if isinstance(value, int | float) else value
        out.append(f" {key}={quoteattr(text)}")
    return "".join(out)


def _el(tag: str, attrs: Mapping[str, Attr], inner: str | None = None) -> str:
    if inner is None:
        return f"<{tag}{_attrs(attrs)}/>"
    return f"<{tag}{_attrs(attrs)}>{inner}</{tag}>"


def _text(x: float, y: float, text: str, size: float, fill: str = _DARK, *, weight: str = "bold",
          anchor: str = "middle", cls: str | None = None, transform: str | None = None) -> str:
    """Text whose visual middle is at ``y`` (baseline moved down by about half a cap height, which
    every renderer agrees on, unlike ``dominant-baseline``)."""
    return _el("text", {"class": cls, "x": x, "y": y + 0.35 * size, "font-size": size,
                        "font-weight": weight, "text-anchor": anchor, "fill": fill,
                        "transform": transform}, escape(text))


def _rect(x: float, y: float, w: float, h: float, r: float, fill: str, stroke: str | None = None,
          width: float | None = None, cls: str | None = None) -> str:
    return _el("rect", {"class": cls, "x": x, "y": y, "width": w, "height": h, "rx": r, "fill": fill,
                        "stroke": stroke, "stroke-width": width})


def _wrap(text: str, chars: int) -> list[str]:
    return textwrap.wrap(text, max(chars, 8)) or [""]


def _chars(width: float, size: float) -> int:
    """About how many characters of a sans-serif font at ``size`` fit in ``width``."""
    return int(width / (0.55 * size))


def _svg(w: float, h: float, body: Sequence[str], attrs: Mapping[str, Attr], width: int | None) -> str:
    shown_w = width if width is not None else w
    shown_h = shown_w * h / w
    root = {"xmlns": "http://www.w3.org/2000/svg", **attrs, "viewBox": f"0 0 {_num(w)} {_num(h)}",
            "width": shown_w, "height": shown_h, "font-family": FONT}
    return _el("svg", root, "".join(body))


def _frame(w: float, h: float, kind: str) -> list[str]:
    return [_rect(0, 0, w, h, 14, _FRAME[kind], cls="frame"),
            _rect(8, 8, w - 16, h - 16, 8, _PANEL[kind], cls="panel")]


# ------------------------------------------------------------------ shapes inside slots and dice
def _half_paths(x: float, y: float, w: float, h: float, r: float) -> tuple[str, str]:
    """A rounded box cut along the diagonal from its top-right to its bottom-left corner:
    the upper-left and the lower-right halves as path data."""
    c = r * math.sqrt(0.5)
    p1 = f"{_num(x + w - r + c)} {_num(y + r - c)}"
    p2 = f"{_num(x + r - c)} {_num(y + h - r + c)}"
    rr = f"{_num(r)} {_num(r)}"
    upper = (f"M{p1}A{rr} 0 0 0 {_num(x + w - r)} {_num(y)}H{_num(x + r)}A{rr} 0 0 0 {_num(x)} "
             f"{_num(y + r)}V{_num(y + h - r)}A{rr} 0 0 0 {p2}Z")
    lower = (f"M{p1}A{rr} 0 0 1 {_num(x + w)} {_num(y + r)}V{_num(y + h - r)}A{rr} 0 0 1 "
             f"{_num(x + w - r)} {_num(y + h)}H{_num(x + r)}A{rr} 0 0 1 {p2}Z")
    return upper, lower


def _column_paths(x: float, y: float, w: float, h: float, r: float, n: int) -> list[str]:
    """A rounded box cut into ``n`` upright strips, outer corners kept round."""
    out = []
    cw = w / n
    rr = f"{_num(r)} {_num(r)}"
    for i in range(n):
        x0, x1 = x + i * cw, x + (i + 1) * cw
        if i == 0:
            d = (f"M{_num(x1)} {_num(y)}H{_num(x0 + r)}A{rr} 0 0 0 {_num(x0)} {_num(y + r)}"
                 f"V{_num(y + h - r)}A{rr} 0 0 0 {_num(x0 + r)} {_num(y + h)}H{_num(x1)}Z")
        elif i == n - 1:
            d = (f"M{_num(x0)} {_num(y)}H{_num(x1 - r)}A{rr} 0 0 1 {_num(x1)} {_num(y + r)}"
                 f"V{_num(y + h - r)}A{rr} 0 0 1 {_num(x1 - r)} {_num(y + h)}H{_num(x0)}Z")
        else:
            d = f"M{_num(x0)} {_num(y)}H{_num(x1)}V{_num(y + h)}H{_num(x0)}Z"
        out.append(d)
    return out


def _pips(x: float, y: float, s: float, face: int, fill: str, stroke: str | None = None) -> list[str]:
    return [_el("circle", {"class": "pip", "cx": x + _PIP_GRID[c] * s, "cy": y + _PIP_GRID[r] * s,
                           "r": 0.075 * s, "fill": fill, "stroke": stroke,
                           "stroke-width": 0.025 * s if stroke else None})
            for c, r in _PIPS[face]]


def _ring(cx: float, cy: float, r: float, width: float) -> list[str]:
    """The "colour" glyph: a ring of the five die colours."""
    out = []
    letters = ("R", "Y", "G", "B", "K")
    for i, letter in enumerate(letters):
        a0 = math.radians(-90 + 72 * i)
        a1 = math.radians(-90 + 72 * (i + 1))
        d = (f"M{_num(cx + r * math.cos(a0))} {_num(cy + r * math.sin(a0))}"
             f"A{_num(r)} {_num(r)} 0 0 1 {_num(cx + r * math.cos(a1))} {_num(cy + r * math.sin(a1))}")
        out.append(_el("path", {"d": d, "fill": "none", "stroke": DIE_COLOURS[letter],
                                "stroke-width": width}))
    return out


def _wheel(cx: float, cy: float, r: float) -> list[str]:
    """The "some colour" glyph of a slot: a filled wheel of the five die colours (a relation's
    ring is hollow, so the two never look alike)."""
    out = []
    for i, letter in enumerate(("R", "Y", "G", "B", "K")):
        a0 = math.radians(-90 + 72 * i)
        a1 = math.radians(-90 + 72 * (i + 1))
        d = (f"M{_num(cx)} {_num(cy)}L{_num(cx + r * math.cos(a0))} {_num(cy + r * math.sin(a0))}"
             f"A{_num(r)} {_num(r)} 0 0 1 {_num(cx + r * math.cos(a1))} {_num(cy + r * math.sin(a1))}Z")
        out.append(_el("path", {"d": d, "fill": DIE_COLOURS[letter], "stroke": "#ffffff",
                                "stroke-width": r * 0.08}))
    return out


def _letter_of(colour: int) -> str:
    return LETTERS[colour]


# ------------------------------------------------------------------ dice
def die_svg(colours: str, face: int, *, size: int = 40, x: float = 0, y: float = 0) -> str:
    """One die as an SVG ``<g class="die">`` fragment with its top-left corner at ``(x, y)``.

    ``colours`` is ``"R"`` or a split die's ``"K/Y"`` (two halves, cut diagonally). The pips are
    drawn as on a real die and the colour letter sits in a corner (both letters for a split die),
    so the die reads without colour vision.
    """
    letters = colours.split("/")
    if not 1 <= len(letters) <= 2 or any(c not in DIE_COLOURS for c in letters) or len(set(letters)) < len(
            letters):
        raise ValueError(f"a die is one colour or two (R, B, G, Y, K, e.g. K/Y), not {colours!r}")
    if face not in _PIPS:
        raise ValueError(f"a die shows 1 to 6, not {face}")
    s = float(size)
    r = 0.18 * s
    body: list[str] = []
    if len(letters) == 1:
        c = letters[0]
        body.append(_rect(x, y, s, s, r, DIE_COLOURS[c], "#455a64", 0.04 * s, cls="die-face"))
        body += _pips(x, y, s, face, INK[c])
        body.append(_text(x + 0.15 * s, y + 0.16 * s, c, 0.2 * s, INK[c], cls="die-letter"))
    else:
        first, second = letters
        upper, lower = _half_paths(x, y, s, s, r)
        body.append(_el("path", {"class": "half", "d": upper, "fill": DIE_COLOURS[first]}))
        body.append(_el("path", {"class": "half", "d": lower, "fill": DIE_COLOURS[second]}))
        body += _pips(x, y, s, face, "#ffffff", _DARK)
        body.append(_text(x + 0.15 * s, y + 0.16 * s, first, 0.2 * s, INK[first], cls="die-letter"))
        body.append(_text(x + 0.85 * s, y + 0.85 * s, second, 0.2 * s, INK[second], cls="die-letter"))
        body.append(_rect(x, y, s, s, r, "none", "#455a64", 0.04 * s))
    return _el("g", {"class": "die", "data-colours": colours, "data-face": face, "font-family": FONT},
               "".join(body))


# ------------------------------------------------------------------ slots
def _alt_words(colour: int, face: int) -> str:
    if colour and face:
        return f"{NAMES[colour]} {face}"
    return NAMES[colour] if colour else f"a {face}"


def describe_slot(slot: Slot, lang: Lang = "en") -> str:
    """What a slot asks for, in words (the slot's tooltip)."""
    if lang != "en":
        return _describe_slot_in(slot, lang)
    p = slot.pred
    words = {PredKind.ANY: "any die", PredKind.NUMBER: "a number (see the symbols and clauses)",
             PredKind.COLOUR: "a colour (see the symbols and clauses)",
             PredKind.EITHER: "any die: its colour or its number counts",
             PredKind.SPLIT: "a split die"}.get(p.kind)
    if words is None:
        if p.kind is PredKind.NOT:
            words = f"any die but {NAMES[p.colour]}"
        elif p.hashed:
            words = f"{NAMES[p.alts[0][0]]}, its number counts"
        else:
            words = " or ".join(_alt_words(c, f) for c, f in p.alts)
    if slot.first:
        words += "; filled first"
    if slot.last:
        words += "; filled last"
    return words


def _describe_slot_in(slot: Slot, lang: Lang) -> str:
    w = _CARD_WORDS[lang]
    kind = slot.pred.kind
    simple = {PredKind.ANY: w["any"], PredKind.NUMBER: w["number"], PredKind.COLOUR: w["colour"],
              PredKind.EITHER: w["either"], PredKind.SPLIT: w["split"]}
    words = simple.get(kind) or pred_words(slot.pred, lang) or w["any"]
    return words + (w["filled_first"] if slot.first else "") + (w["filled_last"] if slot.last else "")


def _alt_label(colour: int, face: int) -> tuple[str, str, str]:
    """(background, text colour, label) for one alternative of a split tile."""
    if colour:
        letter = _letter_of(colour)
        return DIE_COLOURS[letter], INK[letter], letter + (str(face) if face else "")
    return "#ffffff", _DARK, str(face)


def _slot_body(p: Pred, x: float, y: float, s: float) -> list[str]:
    """The drawing inside one slot (without its outline)."""
    r = 0.18 * s
    cx, cy = x + s / 2, y + s / 2
    k = p.kind
    if k is PredKind.ANY:
        return [_rect(x, y, s, s, r, "#ffffff", cls="slot-bg"), _text(cx, cy, "?", 0.62 * s, _MUTED)]
    if k is PredKind.NUMBER:
        return [_rect(x, y, s, s, r, "#ffffff", cls="slot-bg"), _text(cx, cy, "#", 0.6 * s)]
    if k is PredKind.COLOUR:
        return [_rect(x, y, s, s, r, "#ffffff", cls="slot-bg"), *_wheel(cx, cy, 0.32 * s)]
    if k is PredKind.EITHER:
        out = [_rect(x, y, s, s, r, "#ffffff", cls="slot-bg")]
        for angle in (90, 30, 150):
            dx, dy = 0.26 * s * math.cos(math.radians(angle)), 0.26 * s * math.sin(math.radians(angle))
            out.append(_el("line", {"x1": cx - dx, "y1": cy - dy, "x2": cx + dx, "y2": cy + dy,
                                    "stroke": _DARK, "stroke-width": 0.1 * s, "stroke-linecap": "round"}))
        return out
    if k is PredKind.SPLIT:
        upper, lower = _half_paths(x, y, s, s, r)
        return [_rect(x, y, s, s, r, "#ffffff", cls="slot-bg"),
                _el("path", {"class": "half", "d": upper, "fill": _SPLIT_TONES[0]}),
                _el("path", {"class": "half", "d": lower, "fill": _SPLIT_TONES[1]}),
                _el("circle", {"cx": cx, "cy": cy, "r": 0.21 * s, "fill": "#ffffff"}),
                _text(cx, cy, "S", 0.28 * s)]
    if k is PredKind.NOT:
        # the colour struck through, its letter clear of the stroke
        letter = _letter_of(p.colour)
        line: dict[str, Attr] = {"x1": x + 0.86 * s, "y1": y + 0.14 * s, "x2": x + 0.14 * s,
                                 "y2": y + 0.86 * s, "stroke-linecap": "round"}
        return [_rect(x, y, s, s, r, DIE_COLOURS[letter], cls="slot-bg"),
                _text(x + 0.29 * s, y + 0.3 * s, letter, 0.36 * s, INK[letter], cls="colour-letter"),
                _el("line", {**line, "stroke": "#ffffff", "stroke-width": 0.19 * s}),
                _el("line", {**line, "stroke": "#b71c1c", "stroke-width": 0.09 * s})]
    alts = p.alts
    if len(alts) == 1:
        colour, face = alts[0]
        if not colour:
            return [_rect(x, y, s, s, r, "#ffffff", cls="slot-bg"), *_pips(x, y, s, face, _DARK)]
        letter = _letter_of(colour)
        out = [_rect(x, y, s, s, r, DIE_COLOURS[letter], cls="slot-bg")]
        if p.hashed or face:
            corner = _text(x + 0.15 * s, y + 0.16 * s, letter, 0.22 * s, INK[letter], cls="colour-letter")
            centre = _text(cx, cy, "#", 0.5 * s, INK[letter]) if p.hashed else ""
            return out + ([centre] if centre else _pips(x, y, s, face, INK[letter])) + [corner]
        return out + [_text(cx, cy, letter, 0.5 * s, INK[letter], cls="colour-letter")]
    out = [_rect(x, y, s, s, r, "#ffffff", cls="slot-bg")]
    paths: Sequence[str]
    spots: Sequence[tuple[float, float]]
    if len(alts) == 2:
        paths = _half_paths(x, y, s, s, r)
        spots = ((x + 0.33 * s, y + 0.33 * s), (x + 0.67 * s, y + 0.67 * s))
        size = 0.3 * s
    else:
        paths = tuple(_column_paths(x, y, s, s, r, len(alts)))
        spots = tuple((x + (i + 0.5) * s / len(alts), cy) for i in range(len(alts)))
        size = 0.6 * s / len(alts)
    labels = []
    for (colour, face), d, (lx, ly) in zip(alts, paths, spots):
        bg, ink, label = _alt_label(colour, face)
        out.append(_el("path", {"class": "alt", "d": d, "fill": bg}))
        labels.append(_text(lx, ly, label, size * (0.85 if len(label) > 1 else 1), ink,
                            cls="colour-letter" if colour else None))
    if len(alts) == 2:
        c = r * math.sqrt(0.5)
        out.append(_el("line", {"x1": x + s - r + c, "y1": y + r - c, "x2": x + r - c, "y2": y + s - r + c,
                                "stroke": _EDGE, "stroke-width": 0.04 * s}))
    return out + labels


def _slot(i: int, slot: Slot, x: float, y: float, s: float, letter: str | None, lang: Lang = "en") -> str:
    w = _CARD_WORDS[lang]
    parts = [_el("title", {}, escape(f"{w['slot']} {i + 1}: {describe_slot(slot, lang)}")),
             *_slot_body(slot.pred, x, y, s)]
    parts.append(_rect(x, y, s, s, 0.18 * s, "none", _EDGE, 0.05 * s, cls="slot-box"))
    if slot.first or slot.last:
        tag = w["first"] if slot.first else w["last"]
        parts.append(_rect(x + 0.22 * s, y - 0.14 * s, 0.56 * s, 0.25 * s, 0.1 * s, "#ff6f00", "#ffffff",
                           0.02 * s, cls="order-tag"))
        parts.append(_text(x + s / 2, y - 0.015 * s, tag, 0.19 * s, "#ffffff", cls="order-tag"))
    if letter:
        parts.append(_el("circle", {"cx": x - 0.06 * s, "cy": y - 0.06 * s, "r": 0.17 * s, "fill": _EDGE,
                                    "stroke": "#ffffff", "stroke-width": 0.025 * s}))
        parts.append(_text(x - 0.06 * s, y - 0.075 * s, letter, 0.24 * s, "#ffffff", cls="slot-letter"))
    return _el("g", {"class": "slot", "data-slot": i, "data-x": x, "data-y": y, "data-size": s},
               "".join(parts))


# ------------------------------------------------------------------ relations
def _relation(rel: Relation, cx: float, cy: float, vertical: bool, s: float, lang: Lang = "en") -> str:
    kind = rel.rel
    parts = [_el("title", {}, escape((_REL_WORDS_ES if lang == "es" else _REL_WORDS)[kind]))]
    if kind in _NUMBER_SYMBOL:
        # in a stack the lower slot comes first: "<" turns to open upwards
        turn = f"rotate(-90 {_num(cx)} {_num(cy)})" if vertical and kind in (Rel.LT, Rel.GT) else None
        parts.append(_text(cx, cy, _NUMBER_SYMBOL[kind], 0.6 * s, _DARK, cls="rel-symbol", transform=turn))
    elif kind in (Rel.SAME_COLOUR, Rel.DIFF_COLOUR):
        parts += _ring(cx, cy, 0.24 * s, 0.06 * s)
        parts.append(_text(cx, cy, "=" if kind is Rel.SAME_COLOUR else "\u2260", 0.36 * s, _DARK,
                           cls="rel-symbol"))
    else:
        word = _CARD_WORDS[lang]["and" if kind is Rel.SAME_BOTH else "or"]
        if vertical:
            ring_at, word_at, num_at = (cx - 0.68 * s, cy), (cx, cy), (cx + 0.68 * s, cy)
        else:
            ring_at, word_at, num_at = (cx, cy - 0.3 * s), (cx, cy + 0.05 * s), (cx, cy + 0.31 * s)
        ring = 0.24 * s if vertical else 0.2 * s
        parts += _ring(*ring_at, ring, 0.06 * s)
        parts.append(_text(*ring_at, "=", 1.4 * ring, _DARK, cls="rel-symbol"))
        parts.append(_text(*word_at, word, 0.24 * s if vertical else 0.22 * s, _EDGE, cls="rel-word"))
        parts.append(_text(*num_at, "=", 0.5 * s if vertical else 0.42 * s, _DARK, cls="rel-symbol"))
    return _el("g", {"class": "rel", "data-rel": kind.value, "data-a": rel.a, "data-b": rel.b},
               "".join(parts))


# ------------------------------------------------------------------ layout of the requirement diagram
@dataclass(frozen=True)
class _Diagram:
    pos: dict[int, tuple[float, float]]  # top-left corner of each slot, margin included
    spots: tuple[tuple[Relation, float, float, bool], ...]  # relation, centre x, centre y, vertical
    width: float
    height: float


def _diagram(shape: CardShape, s: float, rel_gap: float = _REL_GAP) -> _Diagram:
    """Where each slot and relation symbol goes, for slots of size ``s`` (``rel_gap``: the room
    between two slots joined by a relation symbol, in slots)."""
    linked = {(r.a, r.b) for r in shape.relations}

    def gap(a: int, b: int) -> float:
        return s * (rel_gap if (a, b) in linked else _GAP)

    pos: dict[int, tuple[float, float]] = {}
    layout = shape.layout
    if layout is Layout.ROW:
        x = 0.0
        row = shape.rows[0]
        for j, i in enumerate(row):
            if j:
                x += gap(row[j - 1], i)
            pos[i] = (x, 0.0)
            x += s
        w, h = x, s
    elif layout in (Layout.STACK, Layout.DOUBLE_STACK):
        heights = [len(col) * s + sum(gap(a, b) for a, b in zip(col, col[1:])) for col in shape.rows]
        h = max(heights)
        for c, col in enumerate(shape.rows):
            x, y = c * s * (1 + _COL_GAP), h
            for j, i in enumerate(col):  # bottom slot first
                if j:
                    y -= gap(col[j - 1], i)
                y -= s
                pos[i] = (x, y)
        w = len(shape.rows) * s + (len(shape.rows) - 1) * s * _COL_GAP
    else:
        pitch = s * (1 + (_REL_GAP if shape.relations else _GAP))
        n = len(shape.rows)
        xs: list[list[float]] = []
        for r, row in enumerate(shape.rows):  # bottom row first
            y = (n - 1 - r) * s * (1 + _ROW_GAP)
            row_x: list[float] = []
            for j, i in enumerate(row):
                if r == 0 or layout is Layout.WALL:
                    x = j * pitch
                elif layout is Layout.PYRAMID:  # centred over the two slots it rests on
                    x = (xs[r - 1][j] + xs[r - 1][j + 1]) / 2
                else:  # ziggurat: the top slot rests on the whole base
                    x = sum(xs[0]) / len(xs[0])
                row_x.append(x)
                if i >= 0:
                    pos[i] = (x, y)
            xs.append(row_x)
        w = (len(shape.rows[0]) - 1) * pitch + s
        h = n * s + (n - 1) * s * _ROW_GAP
    m = _MARGIN * s
    pos = {i: (x + m, y + m) for i, (x, y) in sorted(pos.items())}
    spots = []
    for rel in shape.relations:
        (xa, ya), (xb, yb) = pos[rel.a], pos[rel.b]
        if abs(ya - yb) < 1e-9:
            spots.append((rel, (min(xa, xb) + s + max(xa, xb)) / 2, ya + s / 2, False))
        else:
            spots.append((rel, xa + s / 2, (min(ya, yb) + s + max(ya, yb)) / 2, True))
    return _Diagram(pos, tuple(spots), w + 2 * m, h + 2 * m)


def clause_text(clause: Clause, lang: Lang = "en") -> str:
    """A clause as printed under the diagram: ``a - b = c``, ``same colour (a, b, c)``."""
    text = re.sub(r"([a-z]+(?:-[a-z]+)+)\(([a-z,]+)\)",
                  lambda m: f"{m.group(1).replace('-', ' ')} ({', '.join(m.group(2).split(','))})",
                  print_clause(clause))
    if lang == "es":
        for en, es in _GROUP_WORDS_ES.items():
            text = text.replace(en, es)
        text = text.replace(" or ", " o ")
    return text


def _wrap_clause(text: str, chars: int) -> list[str]:
    """Wrap a clause without splitting a group test's ``(a, b, c)`` over two lines."""
    glued = re.sub(r"\([^)]*\)", lambda m: m.group(0).replace(" ", "\u00a0"), text)
    return [line.replace("\u00a0", " ") for line in _wrap(glued, chars)]


# ------------------------------------------------------------------ cards
def _card_id(card_id: str) -> list[str]:
    return [_text(20, 28, card_id, 13, _EDGE, anchor="start", cls="card-id")]


def _points_badge(points: int, w: float) -> list[str]:
    cx, cy = w - 38, 38
    return [
        _el("path", {"d": f"M{_num(cx + 11)} {_num(cy - 12)}q6 -10 14 -8", "fill": "none",
                     "stroke": "#8d6e63", "stroke-width": 2.5, "stroke-linecap": "round"}),
        _el("circle", {"cx": cx + 25, "cy": cy - 20, "r": 3.5, "fill": "#ffb300"}),
        _rect(cx + 6, cy - 17, 9, 7, 1.5, "#37474f", cls=None),
        _el("circle", {"class": "points-badge", "cx": cx, "cy": cy, "r": 18, "fill": "#1b1b1b"}),
        _text(cx, cy + 1, str(points), 20, "#ffffff", cls="points"),
    ]


def _label_pill(text: str, w: float, fill: str) -> list[str]:
    pw = 12 + 9 * len(text)
    return [_rect(w - 20 - pw, 17, pw, 22, 11, fill, cls="kind-label"),
            _text(w - 20 - pw / 2, 28, text, 13, "#ffffff", cls="kind-label")]


def card_svg(card: BombCard, *, width: int | None = None, compact: bool = False, lang: Lang = "en") -> str:
    """A bomb or spark card as a standalone SVG document.

    The card is 240 x 336 units (a playing card's proportions) unless its diagram needs more room:
    long rows make it wider, tall stacks taller. ``width`` sets the drawn width in pixels (the
    height follows); by default it is the card's own size in units. ``compact`` draws the table's
    version: the same slots with no blank space, the id, name and points on one line, so that a
    whole hand and the row fit on one screen with their dice still large. ``lang``: the language
    of the words drawn on it (name, labels, tooltips).
    """
    if compact:
        return _compact_card_svg(card, lang)
    shape = card.shape
    spark = card.kind == "spark"
    kind = "spark" if spark else "bomb"
    w_ = _CARD_WORDS[lang]
    title = card_title(card, lang) if card.name or lang != "en" else ""
    names = _wrap(title, _chars(CARD_WIDTH - 40, 15)) if title else []
    top = 66 + 19 * len(names)
    clause_chars = _chars(CARD_WIDTH - 44, 13)
    clauses = [line for c in shape.clauses for line in _wrap_clause(clause_text(c, lang), clause_chars)]
    bottom = 20 + (18 * len(clauses) + 10 if clauses else 0)
    unit = _diagram(shape, 1.0)
    avail_w, avail_h = CARD_WIDTH - 36, CARD_HEIGHT - top - bottom
    s = max(_S_MIN, min(_S_MAX, avail_w / unit.width, avail_h / unit.height))
    diagram = _diagram(shape, s)
    w = max(float(CARD_WIDTH), diagram.width + 36)
    h = max(float(CARD_HEIGHT), top + diagram.height + bottom)
    ox = (w - diagram.width) / 2
    oy = top + (h - top - bottom - diagram.height) / 2

    body = _frame(w, h, kind) + _card_id(card.id)
    body += _label_pill(w_["spark"], w, _FRAME["spark"]) if spark else _points_badge(card.points, w)
    for n, line in enumerate(names):
        body.append(_text(w / 2, 66 + 19 * n, line, 15, _DARK, cls="card-name"))
    labelled = bool(shape.clauses)
    slots = []
    for i, slot in enumerate(shape.slots):
        x, y = diagram.pos[i]
        slots.append(_slot(i, slot, ox + x, oy + y, s, _SLOT_LETTERS[i] if labelled else None, lang))
    rels = [_relation(rel, ox + cx, oy + cy, vertical, s, lang) for rel, cx, cy, vertical in diagram.spots]
    body.append(_el("g", {"class": "diagram", "data-layout": shape.layout.value}, "".join(rels + slots)))
    if clauses:
        y0 = h - bottom + 6
        body.append(_rect(18, y0 - 4, w - 36, 18 * len(clauses) + 8, 6, "#eceff1", cls="clause-box"))
        for n, line in enumerate(clauses):
            body.append(_text(w / 2, y0 + 9 + 18 * n, line, 13, _DARK, cls="clause"))
    label = f"{card.id}: {w_['spark_card'] if spark else w_['bomb'].format(n=card.points)}"
    return _svg(w, h, body, {"class": "card", "data-card": card.id, "data-kind": kind, "role": "img",
                             "aria-label": label + (f", {title}" if title else "")}, width)


#: The compact card: header line height, side margin and the largest slot, in card units.
_C_TOP, _C_SIDE, _C_S_MAX = 34.0, 12.0, 58.0
#: The room a compact card's centred name leaves on each side, for the id and the points badge.
_C_NAME_SIDE = 44.0
#: The narrowest compact stack: room for the id, the points and a relation symbol's words beside a slot.
_C_NARROW = 128.0
#: A compact stack's room between two slots joined by a symbol: the symbol, turned, and no more.
_C_STACK_REL_GAP = 0.55


def _compact_card_svg(card: BombCard, lang: Lang) -> str:
    shape = card.shape
    spark = card.kind == "spark"
    kind = "spark" if spark else "bomb"
    words = _CARD_WORDS[lang]
    title = card_title(card, lang) if card.name or lang != "en" else ""
    unit = _diagram(shape, 1.0)
    # a stack keeps the smallest legible slot: it is the one shape that grows downwards; it is drawn
    # narrow, its name over it, so that the table can stand short cards beside it
    tall = shape.layout in (Layout.STACK, Layout.DOUBLE_STACK)
    s = _S_MIN if tall else max(_S_MIN, min(_C_S_MAX, (CARD_WIDTH - 2 * _C_SIDE) / unit.width))
    diagram = _diagram(shape, s, _C_STACK_REL_GAP if tall else _REL_GAP)
    # (a double stack's words between its columns stick out to the left: half a slot more room)
    wide = s if shape.layout is Layout.DOUBLE_STACK else 0.0
    w = max(_C_NARROW if tall else float(CARD_WIDTH), diagram.width + 2 * _C_SIDE + wide)
    names = _wrap(title, _chars(w - 2 * _C_SIDE, 12)) if tall and title else []
    top = _C_TOP + 15 * len(names)
    clause_chars = _chars(w - 2 * _C_SIDE - 8, 12)
    clauses = [line for c in shape.clauses for line in _wrap_clause(clause_text(c, lang), clause_chars)]
    bottom = 10 + (16 * len(clauses) + 8 if clauses else 0)
    h = top + diagram.height + bottom
    body = [_rect(0, 0, w, h, 12, _FRAME[kind], cls="frame"),
            _rect(5, 5, w - 10, h - 10, 8, _PANEL[kind], cls="panel"),
            _text(14, 19, card.id, 11, _EDGE, anchor="start", cls="card-id")]
    if spark:
        body += [_rect(w - 62, 8, 52, 20, 10, _FRAME["spark"], cls="kind-label"),
                 _text(w - 36, 18, words["spark"], 11, "#ffffff", cls="kind-label")]
    else:
        body += [_el("circle", {"class": "points-badge", "cx": w - 22, "cy": 19, "r": 13, "fill": "#1b1b1b"}),
                 _text(w - 22, 19.5, str(card.points), 15, "#ffffff", cls="points")]
    if names:
        for n, line in enumerate(names):
            body.append(_text(w / 2, 38 + 15 * n, line, 12, _DARK, cls="card-name"))
    elif title:
        # between the id and the points badge (a spark's label is wider than a badge)
        room = _chars(w - 2 * (62 if spark else _C_NAME_SIDE), 12)
        name = title if len(title) <= room else title[: room - 1].rstrip() + "\u2026"
        body.append(_text(w / 2, 19, name, 12, _DARK, cls="card-name"))
    ox = (w - diagram.width) / 2
    slots = [_slot(i, slot, ox + diagram.pos[i][0], top - 4 + diagram.pos[i][1], s,
                   _SLOT_LETTERS[i] if shape.clauses else None, lang) for i, slot in enumerate(shape.slots)]
    rels = [_relation(rel, ox + cx, top - 4 + cy, vertical, s, lang)
            for rel, cx, cy, vertical in diagram.spots]
    body.append(_el("g", {"class": "diagram", "data-layout": shape.layout.value}, "".join(rels + slots)))
    if clauses:
        y0 = h - bottom + 4
        body.append(_rect(_C_SIDE, y0 - 4, w - 2 * _C_SIDE, 16 * len(clauses) + 6, 5, "#eceff1",
                          cls="clause-box"))
        for n, line in enumerate(clauses):
            body.append(_text(w / 2, y0 + 7 + 16 * n, line, 12, _DARK, cls="clause"))
    label = f"{card.id}: {words['spark_card'] if spark else words['bomb'].format(n=card.points)}"
    return _svg(w, h, body, {"class": "card compact", "data-card": card.id, "data-kind": kind, "role": "img",
                             "aria-label": label + (f", {title}" if title else "")}, None)


def symbol_svg(notation: str, *, size: float = 40.0, lang: Lang = "en") -> str:
    """A few slots and the symbols between them, as drawn on the cards, with no card around them
    (the legend's pictures); slot letters are drawn when the notation has an equation."""
    shape = parse(notation)
    diagram = _diagram(shape, size)
    slots = [_slot(i, slot, *diagram.pos[i], size, _SLOT_LETTERS[i] if shape.clauses else None, lang)
             for i, slot in enumerate(shape.slots)]
    rels = [_relation(rel, cx, cy, vertical, size, lang) for rel, cx, cy, vertical in diagram.spots]
    body = ["".join(rels + slots)]
    h = diagram.height
    for clause in shape.clauses:
        body.append(_text(diagram.width / 2, h + 8, clause_text(clause, lang), 13, _DARK, cls="clause"))
        h += 18
    return _svg(diagram.width, h, body, {"class": "symbol", "role": "img", "aria-hidden": "true"}, None)


def _symbol_tile(x: float, y: float, s: float, colour: int = 0, face: int = 0) -> list[str]:
    if colour:
        letter = _letter_of(colour)
        return [_rect(x, y, s, s, 0.18 * s, DIE_COLOURS[letter], _EDGE, 0.04 * s, cls="symbol"),
                _text(x + s / 2, y + s / 2, letter, 0.5 * s, INK[letter], cls="colour-letter")]
    return [_rect(x, y, s, s, 0.18 * s, "#ffffff", _EDGE, 0.04 * s, cls="symbol"),
            *_pips(x, y, s, face, _DARK),
            _text(x + s / 2, y + s + 0.2 * s, str(face), 0.26 * s, _DARK, cls="symbol-number")]


def fuse_svg(card: FuseCard, *, width: int | None = None, lang: Lang = "en") -> str:
    """A fuse card: red frame, "FUSE", then its symbols (colour tiles with their letters, numbers
    as die faces with the digit under them) or, for Countdown's text cards, the text."""
    w, h = float(CARD_WIDTH), float(CARD_HEIGHT)
    body = _frame(w, h, "fuse") + _card_id(card.id)
    body.append(_text(w / 2, 66, "FUSE", 34, _FRAME["fuse"], cls="card-name"))
    if card.effect is FuseEffect.SYMBOL:
        symbols = [(c, 0) for c in COLOURS if card.colours & c] + [(0, n) for n in card.numbers]
        s = 72.0 if len(symbols) == 1 else 58.0
        gap = 34.0
        total = len(symbols) * s + (len(symbols) - 1) * gap
        x0, y0 = (w - total) / 2, 150.0
        for n, (colour, face) in enumerate(symbols):
            x = x0 + n * (s + gap)
            body += _symbol_tile(x, y0, s, colour, face)
            if n:
                body.append(_text(x - gap / 2, y0 + s / 2, _CARD_WORDS[lang]["or"], 14, _MUTED,
                                  weight="normal"))
        note = _CARD_WORDS[lang]["fuse_note"]
        for n, line in enumerate(_wrap(note, _chars(w - 48, 13))):
            body.append(_text(w / 2, 270 + 17 * n, line, 13, _EDGE, weight="normal", cls="fuse-note"))
    else:
        text = card.text if lang == "en" else card_words(card, lang).text
        lines = _wrap(text, _chars(w - 44, 17))
        y0 = 190 - 12 * (len(lines) - 1)
        for n, line in enumerate(lines):
            body.append(_text(w / 2, y0 + 24 * n, line, 17, _DARK, cls="fuse-text"))
    # what it says, in the page's language (a text card's own words, not its English print)
    said = card.symbol if card.effect is FuseEffect.SYMBOL else card_words(card, lang).text
    return _svg(w, h, body, {"class": "card", "data-card": card.id, "data-kind": "fuse", "role": "img",
                             "aria-label": f"{card.id}: {_CARD_WORDS[lang]['fuse_card']}, {said}"},
                width)


def role_svg(card: RoleCard, *, width: int | None = None, lang: Lang = "en") -> str:
    """A Countdown role card: the role's name and its ability, wrapped."""
    w = float(CARD_WIDTH)
    said = card_words(card, lang)
    name, text = (card.name, card.text) if lang == "en" else (said.name, said.text)
    names = _wrap(name, _chars(w - 40, 20))
    top = 74 + 24 * (len(names) - 1)
    lines = _wrap(text, _chars(w - 44, 13))
    h = max(float(CARD_HEIGHT), top + 30 + 17 * len(lines) + 20)
    body = _frame(w, h, "role") + _card_id(card.id)
    body += _label_pill(_CARD_WORDS[lang]["role"], w, _FRAME["role"])
    for n, line in enumerate(names):
        body.append(_text(w / 2, 74 + 24 * n, line, 20, _FRAME["role"], cls="card-name"))
    body.append(_el("line", {"x1": 40, "y1": top + 20, "x2": w - 40, "y2": top + 20,
                             "stroke": _FRAME["role"], "stroke-width": 1.5, "stroke-opacity": 0.4}))
    for n, line in enumerate(lines):
        body.append(_text(22, top + 42 + 17 * n, line, 13, _DARK, weight="normal", anchor="start",
                          cls="role-text"))
    return _svg(w, h, body, {"class": "card", "data-card": card.id, "data-kind": "role", "role": "img",
                             "aria-label": f"{card.id}: {_CARD_WORDS[lang]['role_card']}, {name}"}, width)


def find_card(catalogue: Catalogue, card_id: str) -> BombCard | FuseCard | RoleCard:
    """The bomb, spark, fuse or role card with this id; ``ValueError`` ("no card X") otherwise."""
    cards: tuple[BombCard | FuseCard | RoleCard, ...] = (
        *catalogue.bombs, *catalogue.sparks, *catalogue.fuses, *catalogue.roles)
    for card in cards:
        if card.id == card_id:
            return card
    raise ValueError(f"no card {card_id}")


def any_card_svg(catalogue: Catalogue, card_id: str, *, compact: bool = False, lang: Lang = "en") -> str:
    """The SVG of any card of the catalogue, by id; ``ValueError`` ("no card X") for an unknown id.
    ``compact`` draws a bomb or spark card as the table shows it (see :func:`card_svg`); ``lang``
    is the language of its words."""
    card = find_card(catalogue, card_id)
    if isinstance(card, FuseCard):
        return fuse_svg(card, lang=lang)
    if isinstance(card, RoleCard):
        return role_svg(card, lang=lang)
    return card_svg(card, compact=compact, lang=lang)


# ------------------------------------------------------------------ the printable catalogue page
_SET_TITLES = {"fuse": "FUSE", "countdown": "FUSE: Countdown"}

_PAGE_CSS = """
/* on the screen, the site's dark console and its navigation; on paper, black on white */
body { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif; margin: 0;
  color: #e6edf7; background: #0b0f17; line-height: 1.45; }
header { display: flex; flex-wrap: wrap; align-items: center; gap: .4rem 1.2rem; padding: .5rem 1rem;
  border-bottom: 1px solid #2a3850; background: rgba(11, 15, 23, .95); }
header h1 { font-size: 1.25rem; margin: 0; }
.brand { font-weight: 800; letter-spacing: .2em; color: #e6edf7; text-decoration: none; }
.brand b { color: #ffb347; }
nav { display: flex; flex-wrap: wrap; gap: .9rem; font-size: .95rem; }
nav a { color: #8d9bb3; text-decoration: none; }
nav a:hover, nav a[aria-current] { color: #e6edf7; }
main { padding: 0 1rem 2rem; max-width: 1500px; margin: 0 auto; }
a { color: #36d1c4; }
h2 { margin: 24px 0 8px; border-bottom: 2px solid #2a3850; padding-bottom: 4px; }
h3 { margin: 16px 0 8px; font-size: 1.05em; color: #8d9bb3; }
figcaption { color: #e6edf7; }
figcaption .words { color: #b7c3d6; }
.legend .pic { background: #fbf8f1; border-radius: 6px; padding: 4px; }
:focus-visible { outline: 3px solid #ffe066; outline-offset: 2px; }
.grid { display: flex; flex-wrap: wrap; gap: 14px; align-items: flex-start; }
figure { margin: 0; break-inside: avoid; page-break-inside: avoid; text-align: center; }
figure svg { display: block; margin: 0 auto; }
figcaption { font-size: 12px; line-height: 1.35; margin-top: 2px; }
figcaption .words { font-size: 11px; display: block; text-align: left; }
.legend ul { list-style: none; padding: 0; margin: 8px 0 0; display: grid; gap: 6px 16px;
  grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); }
.legend li { display: flex; gap: 8px; align-items: center; font-size: 12px; break-inside: avoid; }
.legend .pic { flex: none; width: 84px; display: grid; place-items: center; }
.legend .pic svg { max-width: 84px; max-height: 52px; width: auto; height: auto; }
@page { size: A4; margin: 10mm; }
@media print {
  body { margin: 0; color: #1f2a30; background: #fff; }
  header nav { display: none; }
  header { border: 0; padding: 0 0 8px; background: none; }
  main { padding: 0; }
  h2 { border-bottom-color: #263238; }
  h3, figcaption .words { color: #37474f; }
  figcaption { color: #1f2a30; }
  .set + .set { break-before: page; page-break-before: always; }
  h2, h3 { break-after: avoid; page-break-after: avoid; }
  .grid { gap: 4mm; }
}
"""


#: The game's icon, as the browser game's page has it (web/static/index.html).
FAVICON = ("<link rel=\"icon\" href=\"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' "
           "viewBox='0 0 100 100'%3E%3Crect x='5' y='5' width='90' height='90' rx='18' fill='%23d8403a'/%3E"
           "%3Ctext x='50' y='70' font-size='56' text-anchor='middle' fill='white' font-family='sans-serif' "
           "font-weight='700'%3E5%3C/text%3E%3C/svg%3E\">")

#: Cards on the page are drawn at this many pixels per card unit: all at one scale, so a wide
#: card looks wide, and four ordinary cards fit across an A4 page.
_PAGE_SCALE = 0.72


def _figure(svg: str, card_id: str, caption: list[str], words: str | None) -> str:
    """One card on the page; ``svg`` must have been drawn with ``width`` set (its pixel width)."""
    m = re.search(r' width="([\d.]+)"', svg)
    px = m.group(1) if m else str(CARD_WIDTH)
    cap = " &#183; ".join([f"<b>{escape(card_id)}</b>", *(escape(c) for c in caption if c)])
    if words:
        cap += f'<br><span class="words">{escape(words)}</span>'
    return (f'<figure id="card-{escape(card_id)}" style="width:{px}px">{svg}'
            f"<figcaption>{cap}</figcaption></figure>")


def _page_width(card_width: float) -> int:
    return round(card_width * _PAGE_SCALE)


#: The page's own words, in each language (the cards' words come from ``fusegame.cards.words``).
_PAGE_WORDS: dict[str, dict[str, str]] = {
    "en": {"title": "FUSE cards", "bombs": "Bomb cards: {n} point", "bombs_n": "Bomb cards: {n} points",
           "sparks": "Spark cards", "fuses": "Fuse cards", "roles": "Role cards", "point": "{n} point",
           "points": "{n} points", "spark": "spark", "fuse": "fuse", "other": "En español",
           "legend": "What the symbols mean", "home": "New game", "log": "BDT Log", "tutorial": "Tutorial",
           "computer": "Ship's Computer", "cards": "Printable cards", "site": "The site"},
    "es": {"title": "Cartas de FUSE", "bombs": "Cartas de bomba: {n} punto",
           "bombs_n": "Cartas de bomba: {n} puntos", "sparks": "Cartas de chispa", "fuses": "Cartas de mecha",
           "roles": "Cartas de rol", "point": "{n} punto", "points": "{n} puntos", "spark": "chispa",
           "fuse": "mecha", "other": "In English", "legend": "Qué significan los símbolos",
           "home": "Nueva partida", "log": "Registro BDT", "tutorial": "Tutorial",
           "computer": "Ordenador de a bordo", "cards": "Cartas para imprimir", "site": "El sitio"},
}


def _bomb_figure(card: BombCard, lang: Lang = "en") -> str:
    plain = card_svg(card, lang=lang)
    m = re.search(r'viewBox="0 0 ([\d.]+) ', plain)
    units = float(m.group(1)) if m else CARD_WIDTH
    svg = card_svg(card, width=_page_width(units), lang=lang)
    w = _PAGE_WORDS[lang]
    if card.kind == "spark":
        caption = [w["spark"], card_title(card, lang) if card.name or lang != "en" else ""]
    else:
        caption = [w["point" if card.points == 1 else "points"].format(n=card.points),
                   card_title(card, lang) if card.name or lang != "en" else ""]
    return _figure(svg, card.id, caption, card_words(card, lang).text)


def catalogue_page(catalogue: Catalogue, card_set: str | None = None, lang: Lang = "en") -> str:
    """A printable HTML page of the catalogue (one set, or all): bombs by points, sparks, fuse cards
    and roles, each card drawn with its id, points, name and what it asks for in words (``lang``)."""
    if card_set is not None and card_set not in SETS:
        raise ValueError(f"unknown card set {card_set!r} (choose from {', '.join(SETS)})")
    w = _PAGE_WORDS[lang]
    sections = []
    for set_name in SETS:
        if card_set is not None and set_name != card_set:
            continue
        groups: list[tuple[str, list[str]]] = []
        bombs = [b for b in catalogue.bombs if b.set == set_name]
        for points in sorted({b.points for b in bombs}):
            groups.append((w["bombs" if points == 1 else "bombs_n"].format(n=points),
                           [_bomb_figure(b, lang) for b in bombs if b.points == points]))
        sparks = [c for c in catalogue.sparks if c.set == set_name]
        if sparks:
            groups.append((w["sparks"], [_bomb_figure(c, lang) for c in sparks]))
        fuses = [f for f in catalogue.fuses if f.set == set_name]
        if fuses:
            groups.append((w["fuses"], [_figure(fuse_svg(f, width=_page_width(CARD_WIDTH), lang=lang), f.id,
                                                [w["fuse"]],
                                                card_words(f, lang).text) for f in fuses]))
        roles = [r for r in catalogue.roles if r.set == set_name]
        if roles:
            groups.append((w["roles"], [_figure(role_svg(r, width=_page_width(CARD_WIDTH), lang=lang), r.id,
                                                [card_title(r, lang)],
                                                card_words(r, lang).text) for r in roles]))
        if not groups:
            continue
        inner = "".join(f"<h3>{escape(title)}</h3><div class=\"grid\">{''.join(figs)}</div>"
                        for title, figs in groups)
        sections.append(f'<section class="set" id="set-{set_name}"><h2>{escape(_SET_TITLES[set_name])}'
                        f"</h2>{inner}</section>")
    # the legend of the symbols, drawn as fusegame.web.legend draws it (legend imports this module,
    # never the other way round: both read the symbols and their words from fusegame.web.symbols)
    symbols = "".join(f'<li><span class="pic">{symbol_svg(symbol, lang=lang)}</span>'
                      f"<span>{escape(text)}</span></li>" for symbol, text in symbol_words(lang))
    sections.insert(0, f'<section class="legend" id="legend"><h2>{escape(w["legend"])}</h2>'
                       f"<ul>{symbols}</ul></section>")
    other = "es" if lang == "en" else "en"
    query = f"?set={card_set}&lang={other}" if card_set else f"?lang={other}"
    return (f"<!DOCTYPE html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            # landmarks, so that a screen reader can skip from the page's head to the cards
            f"<title>{w['title']}</title>{FAVICON}<style>{_PAGE_CSS}</style></head>"
            f"<body><header><h1>{w['title']}</h1>"
            # the site's own navigation, and the other language
            f'<nav aria-label="{w["site"]}"><a href="/" class="brand"><b>&#10033;</b> FUSE</a>'
            f'<a href="/#/">{w["home"]}</a><a href="/#/log">{w["log"]}</a>'
            f'<a href="/#/tutorial">{w["tutorial"]}</a><a href="/#/computer">{w["computer"]}</a>'
            f'<a href="/cards" aria-current="page">{w["cards"]}</a>'
            f'<a href="{query}" lang="{other}">{w["other"]}</a></nav>'
            "</header>"
            f"<main>{''.join(sections)}</main></body></html>\n")
