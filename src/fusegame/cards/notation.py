"""The card notation: a line of text per card that parses into a ``CardShape`` and prints back.

Grammar (informal; see the README for the full table)::

    card    := [layout ":"] rows [";" clause]*
    rows    := row ("/" row)*              # stacks bottom to top; pyramids, walls, ziggurats bottom row first
    row     := slot (rel? slot)*
    slot    := ["first:" | "last:"] pred   | "."  (a gap, upper row of a wall only)
    pred    := "?" | "#" | "%" | "*" | "S" | "!" C | C "#" | alt ("|" alt)*
    alt     := C | N | C N                 # C in R B G Y K, N in 1..6
    rel     := "<" | ">" | "=" | "!=" | "=c" | "!=c" | "=cn" | "=c|n"
    clause  := test ("or" test)*
    test    := expr (("=" | "<" | ">") expr)+  |  group "(" a, b, ... ")"
    expr    := ["-"] term (("+" | "-") term)*,   term := slot letter (a = first slot) | integer

Examples: ``Y5 =c|n R5``, ``stack: # < # < # < #``, ``pyramid: G 3 / K``,
``wall: Y K B / R . G``, ``ziggurat: B 5 6 Y / R``, ``# # # ; a - b = c``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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
from fusegame.dice import BY_LETTER, LETTERS

_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_REL_BY_TOKEN = {r.value: r for r in Rel}
_SIMPLE = {"?": PredKind.ANY, "#": PredKind.NUMBER, "%": PredKind.COLOUR, "*": PredKind.EITHER,
           "S": PredKind.SPLIT}
_ALT = re.compile(r"([RBGYK]?)([1-6]?)")


class NotationError(ValueError):
    """A card's notation could not be read; ``pos`` is the 0-based character position."""

    def __init__(self, message: str, pos: int) -> None:
        super().__init__(f"{message} (at character {pos + 1})")
        self.message = message
        self.pos = pos


@dataclass
class _Tok:
    text: str
    pos: int


def _tokens(text: str, offset: int) -> list[_Tok]:
    return [_Tok(m.group(), m.start() + offset) for m in re.finditer(r"\S+", text)]


def parse_pred(tok: _Tok) -> Pred:
    t = tok.text
    if t in _SIMPLE:
        return Pred(_SIMPLE[t])
    if len(t) == 2 and t[0] == "!" and t[1] in BY_LETTER:
        return Pred(PredKind.NOT, colour=BY_LETTER[t[1]])
    if len(t) == 2 and t[1] == "#" and t[0] in BY_LETTER:
        return Pred(PredKind.ONE_OF, alts=((BY_LETTER[t[0]], 0),), hashed=True)
    alts: list[tuple[int, int]] = []
    for part in t.split("|"):
        m = _ALT.fullmatch(part)
        if not part or not m:
            raise NotationError(f"{t!r} is not a slot (try ?, #, %, R, 5, R5, R|B, !R, B#)", tok.pos)
        alt = (BY_LETTER[m.group(1)] if m.group(1) else 0, int(m.group(2) or 0))
        if alt in alts:
            raise NotationError(f"{t!r} repeats {part!r}", tok.pos)
        alts.append(alt)
    return Pred(PredKind.ONE_OF, alts=tuple(alts))


def print_pred(p: Pred) -> str:
    if p.kind in (PredKind.ANY, PredKind.NUMBER, PredKind.COLOUR, PredKind.EITHER, PredKind.SPLIT):
        return str(p.kind.value)
    if p.kind is PredKind.NOT:
        return "!" + LETTERS[p.colour]
    if p.hashed:
        return LETTERS[p.alts[0][0]] + "#"
    return "|".join((LETTERS[c] if c else "") + (str(f) if f else "") for c, f in p.alts)


def _parse_slot(tok: _Tok) -> Slot:
    text, first, last = tok.text, False, False
    if text.startswith("first:"):
        first, text = True, text[6:]
    elif text.startswith("last:"):
        last, text = True, text[5:]
    pred = parse_pred(_Tok(text, tok.pos + (len(tok.text) - len(text))))
    return Slot(pred, first=first, last=last)


def _print_slot(s: Slot) -> str:
    return ("first:" if s.first else "last:" if s.last else "") + print_pred(s.pred)


def _parse_row(toks: list[_Tok], slots: list[Slot], rels: list[Relation], gaps: bool,
               where: int) -> list[int]:
    """Parse one row of slot and relation tokens; returns the slot indices (-1 for gaps)."""
    out: list[int] = []
    pending: tuple[Rel, _Tok] | None = None
    if not toks:
        raise NotationError("empty row", where)
    for tok in toks:
        if tok.text in _REL_BY_TOKEN:
            if not out or out[-1] < 0 or pending:
                raise NotationError(f"relation {tok.text!r} needs a slot on each side", tok.pos)
            pending = (_REL_BY_TOKEN[tok.text], tok)
            continue
        if tok.text == ".":
            if not gaps:
                raise NotationError("'.' (no slot) is only allowed in a wall's upper row", tok.pos)
            if pending:
                raise NotationError("a relation cannot point at a gap", tok.pos)
            out.append(-1)
            continue
        idx = len(slots)
        slots.append(_parse_slot(tok))
        if pending:
            rels.append(Relation(out[-1], idx, pending[0]))
            pending = None
        out.append(idx)
    if pending:
        raise NotationError(f"relation {pending[1].text!r} needs a slot on each side", pending[1].pos)
    return out


def parse(text: str) -> CardShape:
    """Parse a card's notation; raises ``NotationError`` with the position of the problem."""
    body, *clause_texts = text.split(";")
    layout, start = Layout.ROW, 0
    m = re.match(r"\s*([a-z]+):\s", body)
    if m and not body[m.start(1):].startswith(("first:", "last:")):
        try:
            layout = Layout(m.group(1))
        except ValueError:
            raise NotationError(f"unknown layout {m.group(1)!r} (row, stack, stacks, pyramid, wall, "
                                "ziggurat)", m.start(1)) from None
        start = m.end()
    toks = _tokens(body[start:], start)
    row_toks: list[list[_Tok]] = [[]]
    row_start = [start]  # where each row's first slot should be: an empty row is reported there
    for n, tok in enumerate(toks):
        if tok.text == "/":
            row_toks.append([])
            row_start.append(toks[n + 1].pos if n + 1 < len(toks) else len(body.rstrip()))
        else:
            row_toks[-1].append(tok)
    slots: list[Slot] = []
    rels: list[Relation] = []
    rows: list[list[int]] = []
    for i, rt in enumerate(row_toks):
        gaps = layout is Layout.WALL and i == 1
        rows.append(_parse_row(rt, slots, rels, gaps, rt[0].pos if rt else row_start[i]))
    _check_rows(layout, rows, row_toks, start)
    supports = _supports(layout, rows, len(slots))
    slots = [Slot(s.pred, supports[i], s.first, s.last) for i, s in enumerate(slots)]
    if sum(s.first for s in slots) > 1:
        raise NotationError("only one slot can be 'first:'", start)
    offset = len(body) + 1
    clauses = []
    for ct in clause_texts:
        clauses.append(_parse_clause(ct, offset, len(slots)))
        offset += len(ct) + 1
    return CardShape(layout, tuple(slots), tuple(rels), tuple(clauses),
                     tuple(tuple(r) for r in rows))


def _check_rows(layout: Layout, rows: list[list[int]], toks: list[list[_Tok]], start: int) -> None:
    n = len(rows)

    def fail(msg: str, r: int = 0) -> None:
        raise NotationError(msg, toks[r][0].pos if toks[r] else start)

    if layout in (Layout.ROW, Layout.STACK) and n != 1:
        fail(f"a {layout.value} has one row; '/' is for stacks, pyramids, walls and ziggurats", 1)
    if layout is Layout.DOUBLE_STACK and n != 2:
        fail("'stacks:' needs exactly two stacks separated by '/'")
    if layout is Layout.PYRAMID:
        if n < 2:
            fail("a pyramid needs at least two rows")
        for r in range(1, n):
            if len(rows[r]) != len(rows[r - 1]) - 1:
                fail("each pyramid row must have one slot fewer than the row below it", r)
    if layout is Layout.WALL:
        if n != 2 or len(rows[1]) != len(rows[0]) or all(i < 0 for i in rows[1]):
            fail("a wall has a lower row and an upper row of the same width ('.' for no slot)")
    if layout is Layout.ZIGGURAT and (n != 2 or len(rows[0]) != 4 or len(rows[1]) != 1):
        fail("a ziggurat has four base slots and one top slot: 'ziggurat: a b c d / e'")


def _supports(layout: Layout, rows: list[list[int]], n: int) -> list[tuple[int, ...]]:
    sup: list[tuple[int, ...]] = [()] * n
    if layout in (Layout.STACK, Layout.DOUBLE_STACK):
        for row in rows:
            for lower, upper in zip(row, row[1:]):
                sup[upper] = (lower,)
    elif layout is Layout.PYRAMID:
        for r in range(1, len(rows)):
            for j, s in enumerate(rows[r]):
                sup[s] = (rows[r - 1][j], rows[r - 1][j + 1])
    elif layout is Layout.WALL:
        for j, s in enumerate(rows[1]):
            if s >= 0:
                sup[s] = (rows[0][j],)
    elif layout is Layout.ZIGGURAT:
        sup[rows[1][0]] = tuple(rows[0])
    return sup


_CLAUSE_TOKEN = re.compile(
    r"\s*(?:(?P<group>[a-z]+(?:-[a-z]+)+)\(|(?P<or>or)\b|(?P<letter>[a-z])\b|(?P<int>\d+)"
    r"|(?P<op>[=<>+\-(),]))")


def _parse_clause(text: str, offset: int, nslots: int) -> Clause:
    toks: list[tuple[str, str, int]] = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _CLAUSE_TOKEN.match(text, pos)
        if not m:
            bad = len(text[pos:]) - len(text[pos:].lstrip())
            word = text[pos + bad:].split()[0]
            raise NotationError(f"cannot read {word!r} in a clause", offset + pos + bad)
        kind = m.lastgroup or ""
        toks.append((kind, m.group(kind), offset + m.start(kind)))
        pos = m.end()
    if not toks:
        raise NotationError("empty clause after ';'", offset)
    i = 0

    def peek() -> tuple[str, str, int]:
        return toks[i] if i < len(toks) else ("end", "", offset + len(text))

    def slot_of(tok: tuple[str, str, int]) -> int:
        idx = _LETTERS.index(tok[1])
        if idx >= nslots:
            raise NotationError(f"slot {tok[1]!r} does not exist (this card has {nslots} slots)", tok[2])
        return idx

    def expr() -> tuple[Term, ...]:
        nonlocal i
        terms: list[Term] = []
        sign = 1
        if peek()[1] == "-":
            sign, i = -1, i + 1
        while True:
            k, v, p = peek()
            if k == "letter":
                terms.append((sign, slot_of(peek()), 0))
            elif k == "int":
                terms.append((sign, -1, int(v)))
            else:
                raise NotationError("expected a slot letter or a number", p)
            i += 1
            if peek()[1] in "+-" and peek()[0] == "op":
                sign = 1 if peek()[1] == "+" else -1
                i += 1
            else:
                return tuple(terms)

    alts: list[Comparison | GroupTest] = []
    while True:
        k, v, p = peek()
        if k == "group":
            try:
                group = Group(v)
            except ValueError:
                raise NotationError(f"unknown test {v!r} (same-colour, same-number, different-colours,"
                                    " different-numbers)", p) from None
            i += 1
            members: list[int] = []
            while True:
                if peek()[0] != "letter":
                    raise NotationError("expected a slot letter", peek()[2])
                members.append(slot_of(peek()))
                i += 1
                if peek()[1] == ",":
                    i += 1
                    continue
                if peek()[1] != ")":
                    raise NotationError("expected ',' or ')'", peek()[2])
                i += 1
                break
            if len(members) < 2:
                raise NotationError("a group test needs at least two slots", p)
            alts.append(GroupTest(group, tuple(members)))
        else:
            exprs = [expr()]
            ops: list[str] = []
            while peek()[0] == "op" and peek()[1] in "=<>":
                ops.append(peek()[1])
                i += 1
                exprs.append(expr())
            if not ops:
                raise NotationError("expected '=', '<' or '>'", peek()[2])
            alts.append(Comparison(tuple(exprs), tuple(ops)))
        if peek()[0] == "or":
            i += 1
            continue
        if peek()[0] != "end":
            raise NotationError(f"unexpected {peek()[1]!r}", peek()[2])
        return Clause(tuple(alts))


def _print_expr(e: tuple[Term, ...]) -> str:
    out = ""
    for n, (sg, s, k) in enumerate(e):
        word = _LETTERS[s] if s >= 0 else str(k)
        if n == 0:
            out = ("-" if sg < 0 else "") + word
        else:
            out += (" + " if sg > 0 else " - ") + word
    return out


def print_clause(c: Clause) -> str:
    parts = []
    for a in c.alts:
        if isinstance(a, GroupTest):
            parts.append(f"{a.group.value}({','.join(_LETTERS[m] for m in a.members)})")
        else:
            s = _print_expr(a.exprs[0])
            for op, e in zip(a.ops, a.exprs[1:]):
                s += f" {op} {_print_expr(e)}"
            parts.append(s)
    return " or ".join(parts)


def to_text(shape: CardShape) -> str:
    """Print a card in canonical notation (``parse(to_text(s)) == s``)."""
    rel_at = {(r.a, r.b): r.rel for r in shape.relations}
    rows = []
    for row in shape.rows:
        words: list[str] = []
        for j, s in enumerate(row):
            if j and row[j - 1] >= 0 and s >= 0 and (row[j - 1], s) in rel_at:
                words.append(rel_at[(row[j - 1], s)].value)
            words.append("." if s < 0 else _print_slot(shape.slots[s]))
        rows.append(" ".join(words))
    text = " / ".join(rows)
    if shape.layout is not Layout.ROW:
        text = f"{shape.layout.value}: {text}"
    for c in shape.clauses:
        text += " ; " + print_clause(c)
    return text
