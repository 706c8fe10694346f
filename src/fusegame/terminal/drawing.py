"""The table drawn as the page draws it, for a terminal of 120 columns or more: every card as a box
with its slots in its shape, the roll as dice, and blocks laid side by side.

A card's slots are placed as its notation's rows say (``CardShape.rows``), as the page's card
pictures place them (``fusegame.web.svg``): a row left to right; a stack bottom up, a double
stack as two columns; a pyramid's rows each centred over the row below; a ziggurat's top over
its whole base; a wall's rows one over the other. An empty slot shows what it asks for (``R``,
``1|2``, ``#``...), a filled one the die on it in its colours; the relation symbols stand between
the slots they join (``<`` and ``>`` turned in a stack, as on the printed card), the equations
and whole-card tests under the slots, each slot lettered where they name it. Everything is
Textual markup; a block is a list of lines of one width.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from textual.markup import escape

from fusegame.cards.model import CardShape, Layout, Rel
from fusegame.cards.notation import print_pred

#: The terminal colour behind each die colour, and the ink on it (``render.DIE_STYLE`` too).
DIE_BG: dict[str, str] = {"R": "#c0392b", "B": "#2163c4", "G": "#1e8449", "Y": "#f1c40f", "K": "#3a3a3a"}
DIE_INK: dict[str, str] = {"R": "white", "B": "white", "G": "white", "Y": "black", "K": "white"}
#: An empty slot, a slot the picked die may go to, and the cursor.
EMPTY = "#aeb8c6 on #26313e"
LEGAL = "bold underline white on #3d5f82"
CURSOR = "bold black on #f1c40f"
#: A relation as drawn between two slots side by side, and between a lower and an upper one.
REL_FLAT: dict[Rel, str] = {Rel.LT: "<", Rel.GT: ">", Rel.SAME_NUMBER: "=", Rel.DIFF_NUMBER: "≠",
                            Rel.SAME_COLOUR: "=c", Rel.DIFF_COLOUR: "≠c", Rel.SAME_BOTH: "=cn",
                            Rel.SAME_EITHER: "=c|n"}
REL_UP: dict[Rel, str] = {**REL_FLAT, Rel.LT: "∨", Rel.GT: "∧"}
LETTERS = "abcdefghij"


@dataclass(frozen=True)
class Block:
    """Lines of markup, each ``width`` columns wide on the screen."""

    lines: tuple[str, ...]
    width: int

    @property
    def height(self) -> int:
        return len(self.lines)


def pad(markup: str, plain_len: int, width: int) -> str:
    """``markup`` (``plain_len`` columns) padded with spaces to ``width``."""
    return markup + " " * max(0, width - plain_len)


def centre(text: str, width: int) -> tuple[str, str]:
    """The spaces before and after ``text`` centred in ``width`` columns."""
    room = max(0, width - len(text))
    return " " * (room // 2), " " * (room - room // 2)


def die_label(d: dict[str, Any]) -> tuple[list[str], str]:
    """A die's colours (its temporary colour first, when a role gave it one) and its face."""
    colours = str(d.get("as") or d.get("colours") or "?").split("/")
    return colours, str(d.get("face", "?"))


def die_cell(d: dict[str, Any], width: int) -> str:
    """A die as a cell ``width`` wide in its colours: ``B4``; a split die half and half, ``R/K3``."""
    colours, face = die_label(d)
    if len(colours) == 1:
        c = colours[0]
        text = c + face
        before, after = centre(text, width)
        return f"[bold {DIE_INK.get(c, 'white')} on {DIE_BG.get(c, '#555')}]{before}{escape(text)}{after}[/]"
    a, b = colours[0], colours[1]
    left_w = width // 2
    left = f"{a}/".rjust(left_w)
    right = f"{b}{face}".ljust(width - left_w)
    return (f"[bold {DIE_INK.get(a, 'white')} on {DIE_BG.get(a, '#555')}]{escape(left)}[/]"
            f"[bold {DIE_INK.get(b, 'white')} on {DIE_BG.get(b, '#555')}]{escape(right)}[/]")


def slot_label(shape: CardShape, i: int, lettered: bool) -> str:
    """What an empty slot asks for, as the notation writes it (``first:S``, ``1|2``), lettered
    (``a #``) on a card whose equations name its slots."""
    slot = shape.slots[i]
    text = ("first:" if slot.first else "last:" if slot.last else "") + print_pred(slot.pred)
    return f"{LETTERS[i]} {text}" if lettered and i < len(LETTERS) else text


def card_box(card: dict[str, Any], name: str, lang: str, *, marks: dict[int, str] | None = None,
             clickable: bool = False, frame: str = "#46566a", spark_word: str = "spark",
             min_inner: int = 14, max_inner: int = 40, click: str | None = None) -> Block:
    """One card as a box: its id and points on the top edge, its name, its slots in its shape,
    its equations. ``marks`` styles slots (``legal``, ``cursor``); ``clickable`` makes the marked
    slots clickable (``app.slot``); ``click`` makes the whole card one click (taking it)."""
    from fusegame.terminal.render import clause_text, shape_of

    notation = str(card.get("notation") or "")
    shape = shape_of(notation)
    marks = marks or {}
    dice: list[dict[str, Any] | None] = list(card.get("dice") or [])
    body: list[tuple[str, int]] = []  # (markup, plain width) of the diagram's lines
    extra: list[str] = []
    if shape is None:
        body = [(escape(notation), len(notation))]
    else:
        body, extra = _diagram(card, shape, dice, marks, clickable)
        extra = extra + [clause_text(c, lang) for c in shape.clauses]
    diagram_w = max((w for _, w in body), default=0)
    longest_word = max((len(word) for text in extra for word in text.split(" ")), default=0)
    inner = max(min_inner, diagram_w, min(len(name), max_inner), min(longest_word, max_inner))
    inner = min(max(inner, diagram_w), max(max_inner, diagram_w))
    done = bool(card.get("complete"))
    colour = "#4cd37c" if done else frame
    points = spark_word if card.get("kind") == "spark" else f"{card.get('points', 0)}★"
    left = f" {card['id']}{' ✔' if done else ''} "
    right = f" {points} "
    fill = inner + 2 - len(left) - len(right)
    lines = [f"[{colour}]╭[/][bold]{escape(left)}[/][{colour}]{'─' * max(1, fill)}[/]"
             f"[dim]{escape(right)}[/][{colour}]╮[/]"]
    side = f"[{colour}]│[/]"
    short = name if len(name) <= inner else name[: inner - 1].rstrip() + "…"
    lines.append(f"{side} [italic]{escape(pad(short, len(short), inner))}[/] {side}")
    before, _ = centre("x" * diagram_w, inner)  # the diagram centred as one block
    for markup, width in body:
        lines.append(f"{side} {before}{pad(markup, width, inner - len(before))} {side}")
    for text in _wrap("; ".join(extra), inner) if extra else []:
        lines.append(f"{side} [dim]{escape(pad(text, len(text), inner))}[/] {side}")
    lines.append(f"[{colour}]╰{'─' * (inner + 2)}╯[/]")
    if click is not None:
        lines = [f"[@click={click}]{line}[/]" for line in lines]
    return Block(tuple(lines), inner + 4)


def _wrap(text: str, width: int) -> list[str]:
    words, lines, line = text.split(" "), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return [ln if len(ln) <= width else ln[: width - 1] + "…" for ln in lines]


def _diagram(card: dict[str, Any], shape: CardShape, dice: Sequence[dict[str, Any] | None],
             marks: dict[int, str], clickable: bool) -> tuple[list[tuple[str, int]], list[str]]:
    """The slots of a card in its shape: lines of (markup, width), and the relations that could
    not be drawn between their slots (as text)."""
    lettered = bool(shape.clauses)
    labels = [slot_label(shape, i, lettered) for i in range(shape.size)]
    cw = max([len(x) for x in labels] + [4 if any(d is not None and "/" in str(d.get("colours"))
                                                  for d in dice) else 2]) + 2
    rels = {(r.a, r.b): r.rel for r in shape.relations}
    shown: set[tuple[int, int]] = set()

    def cell(i: int) -> str:
        d = dice[i] if i < len(dice) else None
        mark = marks.get(i)
        if d is not None:
            text = die_cell(d, cw)
        elif mark == "cursor":
            before, after = centre(labels[i], cw - 2)
            text = f"[{CURSOR}]▶{before}{escape(labels[i])}{after}◀[/]"
        else:
            before, after = centre(labels[i], cw)
            text = f"[{LEGAL if mark == 'legal' else EMPTY}]{before}{escape(labels[i])}{after}[/]"
        if clickable and mark is not None:
            text = f"[@click=app.slot('{card['id']}',{i})]{text}[/]"
        return text

    rows = shape.rows or (tuple(range(shape.size)),)
    layout = shape.layout
    lines: list[tuple[str, int]] = []
    if layout in (Layout.STACK, Layout.DOUBLE_STACK):
        columns = [list(reversed(col)) for col in rows]  # top first
        height = max(len(c) for c in columns)
        up = any((a, b) in rels for a, b in shape_pairs(rows))
        gap = 3
        for level in range(height):
            parts, width = [], 0
            for c, col in enumerate(columns):
                if c:
                    parts.append(" " * gap)
                    width += gap
                k = level - (height - len(col))
                parts.append(cell(col[k]) if k >= 0 else " " * cw)
                width += cw
            lines.append(("".join(parts), width))
            if up and level < height - 1:
                parts, width = [], 0
                for c, col in enumerate(columns):
                    if c:
                        parts.append(" " * gap)
                        width += gap
                    k = level - (height - len(col))
                    sym = ""
                    if k >= 0 and k + 1 < len(col):
                        upper, lower = col[k], col[k + 1]
                        rel = rels.get((lower, upper))
                        if rel is not None:
                            sym = REL_UP[rel]
                            shown.add((lower, upper))
                    before, after = centre(sym, cw)
                    parts.append(f"{before}[bold]{escape(sym)}[/]{after}")
                    width += cw
                lines.append(("".join(parts), width))
    else:
        flat = [rels[(a, b)] for row in rows for a, b in zip(row, row[1:], strict=False) if (a, b) in rels]
        gap = max([len(REL_FLAT[r]) for r in flat], default=0) + 2 if flat else 1
        if (cw + gap) % 2 and layout is Layout.PYRAMID:
            gap += 1
        pitch = cw + gap
        n = len(rows)
        offsets: list[list[int]] = []
        for r, row in enumerate(rows):  # bottom row first
            if r == 0 or layout is Layout.WALL:
                xs = [j * pitch for j in range(len(row))]
            elif layout is Layout.PYRAMID:
                below = offsets[r - 1]
                xs = [(below[j] + below[j + 1]) // 2 for j in range(len(row))]
            else:  # ziggurat: the top over the whole base
                base = offsets[0]
                xs = [(base[0] + base[-1]) // 2 for _ in row]
            offsets.append(xs)
        for r in range(n - 1, -1, -1):  # the top row first
            line, xs = rows[r], offsets[r]
            parts, at = [], 0
            for j, i in enumerate(line):
                x = xs[j]
                if j and i >= 0 and line[j - 1] >= 0 and (line[j - 1], i) in rels and x - at >= 1:
                    sym = REL_FLAT[rels[(line[j - 1], i)]]
                    before, after = centre(sym, x - at)
                    parts.append(f"{before}[bold]{escape(sym)}[/]{after}")
                    shown.add((line[j - 1], i))
                else:
                    parts.append(" " * (x - at))
                parts.append(cell(i) if i >= 0 else " " * cw)
                at = x + cw
            lines.append(("".join(parts), at))
            if layout is Layout.WALL and r > 0:
                under = rows[r - 1]
                syms = []
                for j, i in enumerate(line):
                    rel = rels.get((under[j], i)) if j < len(under) and i >= 0 else None
                    if rel is not None:
                        shown.add((under[j], i))
                    syms.append(REL_UP[rel] if rel is not None else "")
                if any(syms):
                    parts, at = [], 0
                    for j, sym in enumerate(syms):
                        before, after = centre(sym, cw)
                        parts.append(" " * (xs[j] - at) + f"{before}[bold]{escape(sym)}[/]{after}")
                        at = xs[j] + cw
                    lines.append(("".join(parts), at))
    extra = [f"{LETTERS[r.a]}{r.rel.value}{LETTERS[r.b]}" for r in shape.relations if (r.a, r.b) not in shown]
    return lines, extra


def shape_pairs(rows: Sequence[Sequence[int]]) -> list[tuple[int, int]]:
    """The neighbours of a shape's rows (a stack's: each slot and the one above it)."""
    return [(a, b) for row in rows for a, b in zip(row, row[1:], strict=False)]


def side_by_side(blocks: Sequence[Block], width: int, gap: int = 1) -> list[str]:
    """Blocks laid left to right, a new band of them where the next would pass ``width``; each
    band as tall as its tallest block."""
    bands: list[list[Block]] = []
    used = 0
    for b in blocks:
        if bands and used + gap + b.width <= width:
            bands[-1].append(b)
            used += gap + b.width
        else:
            bands.append([b])
            used = b.width
    out: list[str] = []
    for band in bands:
        tall = max(b.height for b in band)
        for k in range(tall):
            out.append((" " * gap).join(b.lines[k] if k < b.height else " " * b.width for b in band))
    return out


def die_block(d: dict[str, Any], number: int, *, selected: bool, movable: bool, click: str | None) -> Block:
    """One die of the roll, drawn as a die: its number to pick it by over it, its colours and face
    on a square of its colours; a placed die greyed and struck through."""
    width = 6 if "/" not in str(d.get("as") or d.get("colours") or "") else 8
    label = f"▶{number}◀" if selected else str(number)
    before, after = centre(label, width)
    style = "bold #f1c40f" if selected else "bold" if movable else "dim"
    lines = [f"{before}[{style}]{label}[/]{after}"]
    colours, face = die_label(d)
    if d.get("placed"):
        text = str(d.get("die") or "")
        b2, a2 = centre(text, width)
        lines += [f"[#46566a]{'▁' * width}[/]", f"[dim strike on #1c2530]{b2}{escape(text)}{a2}[/]",
                  f"[#46566a]{'▔' * width}[/]"]
    else:
        half = [colours[0]] * (width // 2) + [colours[-1]] * (width - width // 2)
        top = "".join(f"[{DIE_BG.get(c, '#555')}]▄[/]" for c in half)
        bottom = "".join(f"[{DIE_BG.get(c, '#555')}]▀[/]" for c in half)
        lines += [top, die_cell(d, width), bottom]
    if click is not None:
        lines = [f"[@click={click}]{line}[/]" for line in lines]
    return Block(tuple(lines), width)
