"""The table drawn as Textual markup, one function per part of the screen.

Every die shows its colour letters and its number on a background of its colour, so that colour is
never the only sign. A card is drawn from its notation (``fusegame.cards.notation``): each slot
shows the die on it, or what it asks for (``R``, ``1|2``, ``#``...), with the card's relation
symbols between neighbours and its equations after them, as the card is printed. Clicks are
markup actions on the app (``app.die``, ``app.slot``, ``app.act``).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from textual.content import Content
from textual.markup import escape

from fusegame.cards.catalogue import builtin_catalogue
from fusegame.cards.model import BombCard, CardShape, Clause, Group, GroupTest, Layout
from fusegame.cards.notation import parse, print_clause, print_pred
from fusegame.cards.words import CardWords, card_words
from fusegame.pace import FAR_BEHIND, PaceLine, gauge_level
from fusegame.rules.decision_kinds import KINDS
from fusegame.terminal import drawing
from fusegame.terminal.table import Table
from fusegame.terminal.texts import TEXTS, Words, refusal_line
from fusegame.words import catalogue, cause_text, die_words, event_text, hint_reason, hint_text, seat_name

#: The terminal colour behind each die colour, and the ink on it.
DIE_STYLE: dict[str, str] = {
    "R": "bold white on #c0392b", "B": "bold white on #2163c4", "G": "bold white on #1e8449",
    "Y": "bold black on #f1c40f", "K": "bold white on #3a3a3a",
}


def die_chip(d: dict[str, Any] | None) -> str:
    """A die as a coloured chip with its letters and number: ``B4``, ``R/K3``."""
    if d is None:
        return "  "
    colours = str(d.get("as") or d.get("colours") or "?").split("/")
    face = d.get("face", "?")
    parts = []
    for i, c in enumerate(colours):
        text = c + (str(face) if i == len(colours) - 1 else "")
        parts.append(f"[{DIE_STYLE.get(c, 'reverse')}]{escape(text)}[/]")
    return "[dim]/[/]".join(parts)


#: The card layouts' names, as the card shows them before its slots.
LAYOUTS: dict[str, dict[Layout, str]] = {
    "en": {Layout.STACK: "stack", Layout.DOUBLE_STACK: "stacks", Layout.PYRAMID: "pyramid",
           Layout.WALL: "wall", Layout.ZIGGURAT: "ziggurat"},
    "es": {Layout.STACK: "pila", Layout.DOUBLE_STACK: "pilas", Layout.PYRAMID: "pirámide",
           Layout.WALL: "muro", Layout.ZIGGURAT: "zigurat"},
}

#: A whole-group test's name, as the card's line shows it after its slots (``different-colours(a,b,c)``).
GROUPS: dict[str, dict[Group, str]] = {
    "es": {Group.SAME_COLOUR: "mismo-color", Group.SAME_NUMBER: "mismo-número",
           Group.DIFF_COLOUR: "colores-distintos", Group.DIFF_NUMBER: "números-distintos"},
}
#: the word between a clause's alternatives
OR = {"en": "or", "es": "o"}


def clause_text(c: Clause, lang: str) -> str:
    """A card's clause in the notation, its words in ``lang`` (``colores-distintos(a,b,c)``; sums
    and comparisons are signs in every language)."""
    if lang == "en":
        return print_clause(c)
    parts = []
    for alt in c.alts:
        one = Clause((alt,))
        if isinstance(alt, GroupTest):
            name = GROUPS.get(lang, {}).get(alt.group, alt.group.value)
            parts.append(f"{name}({','.join(_letter(m) for m in alt.members)})")
        else:
            parts.append(print_clause(one))
    return f" {OR.get(lang, 'or')} ".join(parts)


@cache
def role_words(role_id: str, lang: str) -> CardWords | None:
    """A role card's name and ability in ``lang``."""
    for role in builtin_catalogue().roles:
        if role.id == role_id:
            return card_words(role, lang)  # type: ignore[arg-type]
    return None


@cache
def shape_of(notation: str) -> CardShape | None:
    """A card's shape from its notation (None when it cannot be read: the notation is shown as it is)."""
    try:
        return parse(notation)
    except ValueError:
        return None


@cache
def words_of(card_id: str, kind: str, points: int, name: str, notation: str, lang: str) -> CardWords | None:
    """A bomb or spark card of a view in words (its name in ``lang`` and what it asks for)."""
    shape = shape_of(notation)
    if shape is None:
        return None
    card = BombCard(id=card_id, set="", points=points, shape=shape, notation=notation, kind=kind, name=name)
    try:
        return card_words(card, lang)  # type: ignore[arg-type]
    except (ValueError, KeyError):
        return None


def card_name(card: dict[str, Any], lang: str) -> str:
    """A card's name in ``lang``."""
    w = words_of(card["id"], card.get("kind", "bomb"), int(card.get("points") or 0), card.get("name") or "",
                 card.get("notation") or "", lang)
    return w.name if w is not None else str(card.get("name") or card["id"])


def card_text(card: dict[str, Any], lang: str) -> str:
    """What a card asks for, in words in ``lang``."""
    w = words_of(card["id"], card.get("kind", "bomb"), int(card.get("points") or 0), card.get("name") or "",
                 card.get("notation") or "", lang)
    return w.text if w is not None else str(card.get("notation") or "")


def card_slots(card: dict[str, Any], *, marks: dict[int, str] | None = None, clickable: bool = False,
               equations: bool = True, lang: str = "en") -> str:
    """A card's slots as the card shows them: the die on each, or what it asks for.

    ``marks`` styles some slots (the selected die's legal slots, the cursor)."""
    notation = str(card.get("notation") or "")
    shape = shape_of(notation)
    dice: list[dict[str, Any] | None] = list(card.get("dice") or [])
    if shape is None:
        return escape(notation)
    marks = marks or {}
    rels = {(r.a, r.b): r.rel.value for r in shape.relations}
    rows = shape.rows or (tuple(range(shape.size)),)
    out_rows: list[str] = []
    shown: set[tuple[int, int]] = set()
    for row in rows:
        cells: list[str] = []
        prev: int | None = None
        for i in row:
            if i < 0:
                cells.append("   ")
                prev = None
                continue
            if prev is not None and (prev, i) in rels:
                cells.append(f"[dim]{escape(rels[(prev, i)])}[/]")
                shown.add((prev, i))
            d = dice[i] if i < len(dice) else None
            if d is not None:
                cell = die_chip(d)
            else:
                cell = f"[italic]{escape(_slot_text(shape, i))}[/]"
            mark = marks.get(i)
            if mark == "cursor":
                inner = f"[bold black on #f1c40f]{escape(_slot_text(shape, i))}[/]" if d is None else cell
                cell = f"[bold #f1c40f]▶[/]{inner}[bold #f1c40f]◀[/]"
            elif mark == "legal":
                cell = f"[underline]{cell}[/]"
            if clickable and mark is not None:
                cell = f"[@click=app.slot('{card['id']}',{i})]{cell}[/]"
            cells.append(cell)
            prev = i
        out_rows.append(" ".join(cells))
    text = " [dim]/[/] ".join(out_rows)
    if shape.layout is not Layout.ROW:
        text = f"[dim]{escape(LAYOUTS.get(lang, {}).get(shape.layout, shape.layout.value))}:[/] " + text
    extra = [f"{_letter(r.a)}{r.rel.value}{_letter(r.b)}" for r in shape.relations if (r.a, r.b) not in shown]
    extra += [clause_text(c, lang) for c in shape.clauses]
    if extra and not equations:
        text += " [dim];…[/]"
    elif extra:
        text += " [dim]; " + escape("; ".join(extra)) + "[/]"
    return text


def _letter(i: int) -> str:
    return "abcdefghij"[i] if i < 10 else str(i)


def _slot_text(shape: CardShape, i: int) -> str:
    slot = shape.slots[i]
    return ("first:" if slot.first else "last:" if slot.last else "") + print_pred(slot.pred)


def card_line(card: dict[str, Any], lang: str, *, marks: dict[int, str] | None = None,
              clickable: bool = False, name: bool = True) -> str:
    """One card: its id, name and points, then its slots."""
    points = TEXTS[lang].get("spark", "spark") if card.get("kind") == "spark" else f"{card.get('points', 0)}★"
    head = f"[bold]{escape(card['id'])}[/]"
    if name:
        head += f" {escape(card_name(card, lang))}"
    done = " [green]✔[/]" if card.get("complete") else ""
    return f"{head} [dim]{points}[/]{done}  {card_slots(card, marks=marks, clickable=clickable, lang=lang)}"


# ====================================================================== the parts of the screen
def mmss(ms: int | None) -> str:
    """Milliseconds left as the clock shows them (``09:47``), rounded up as the browser's clock is."""
    if ms is None:
        return "--:--"
    s = (ms + 999) // 1000
    return f"{s // 60:02d}:{s % 60:02d}"


def cells(markup: str) -> int:
    """How many columns a piece of markup takes on the screen."""
    return Content.from_markup(markup).cell_length


def shorten(text: str, room: int) -> str:
    """``text`` cut to ``room`` columns, an ellipsis marking the cut."""
    return text if len(text) <= room else text[: max(0, room - 1)].rstrip() + "…"


def top_line(t: Table, w: Words, width: int = 200) -> str:
    """The title, the clock, the pace gauge, the turn and leader, deck and bag, and the score, in
    ``width`` columns: when they do not fit, the leader's name is cut, then the words go in
    order of need (the title, the turn, the gauge's word, the leader); the clock, the bag and
    the score always stay."""
    v = t.view or {}
    title = escape(str((t.room or {}).get("title") or str(v.get("game", "FUSE")).upper()))
    left = t.clock_ms()
    clock = mmss(left) if left is not None else w("untimed")
    urgent = "bold white on #c0392b" if left is not None and left < 60_000 else "bold reverse"
    if not t.clock_running and t.playing and left is not None and t.connection != "open":
        urgent = "bold #aab on #334"  # held: the server holds it too until a player is back
    head = f"[{urgent}] {clock} [/]"
    if not v:
        return f"[bold]{title}[/]  {head}"
    gauge = pace_text(v, left, w)
    score = (t.outcome or {}).get("score") or v.get("score") or {}
    leader = _name(t, int(v.get("leader", 0)), w.lang)

    def line(title_on: bool, turn_on: bool, gauge_on: int, leader_room: int | None, gap: str) -> str:
        parts = [f"[bold]{title}[/]"] if title_on else []
        parts.append(head)
        if gauge and gauge_on:
            parts.append(gauge if gauge_on == 2 else gauge.split(" ", 1)[1])
        who = escape(leader if leader_room is None else shorten(leader, leader_room))
        if leader_room != 0:
            parts.append((f"{w('turn')} {v.get('turn', 0)} · " if turn_on else "") + f"{w('leader')} {who}")
        parts.append(f"{w('deck')} {v.get('deck_size', 0)} · {w('bag')} {v.get('bag_size', 0)}")
        parts.append(f"{w('score')} [bold]{score.get('total', 0)}[/]")
        return gap.join(parts)

    tries = [(True, True, 2, None, "  "), (True, True, 2, 12, "  "), (False, True, 2, 12, "  "),
             (False, False, 2, 12, "  "), (False, False, 1, 12, "  "), (False, False, 1, 10, " "),
             (False, False, 1, 0, " "), (False, False, 0, 0, " ")]
    for args in tries:
        text = line(*args)
        if cells(text) <= width:
            return text
    return text


#: the gauge's colours, as on the game screen
PACE_STYLES = {"ahead": "bold #4cd37c", "line": "bold #4cd37c", "behind": "bold #ffcc4d",
               "far": "bold #ff5a4f"}


def pace_text(v: dict[str, Any], left: int | None, w: Words) -> str:
    """The pace gauge (``fusegame.pace``): the bombs taken against the line, while the middle still
    holds bombs in a timed game that goes on; empty otherwise."""
    p = v.get("pace")
    limit = v.get("time_limit_ms")
    if not p or left is None or not limit or v.get("outcome") or p["taken"] >= p["needed"]:
        return ""
    step = PaceLine(int(p["needed"]), int(limit)).step(int(p["taken"]), int(limit) - left)
    words = (w("pace.ahead", n=step) if step > 0 else w("pace.line") if step == 0
             else w("pace.behind", n=-step))
    level = gauge_level(step, int(p.get("far", FAR_BEHIND)))
    return f"{w('pace')} [{PACE_STYLES[level]}]{words}[/]"


def _name(t: Table, seat: int, lang: str) -> str:
    return seat_name(seat, lang, t.names)


def notice_line(t: Table, w: Words) -> str:
    """What the player is asked to do now, or what they are waiting for."""
    if t.connection == "connecting":
        key = "restarting" if t.restarting else "reconnecting"
        return f"[yellow]{escape(w(key, n=t.attempt))}[/]"
    if t.restarting:
        return f"[yellow]{escape(w('restarting', n=0))}[/]"
    if t.error:
        frame = t.refused
        said = t.error
        if frame is not None and str(frame.get("message") or frame.get("code") or "error") == t.error:
            said = refusal_line(frame, w, t.names)
        return f"[bold red]{escape(said)}[/]"
    v = t.view
    if v is None:
        return ""
    if t.seat is None:
        return f"[dim]{escape(w('spectator'))}[/]  " + waiting_text(t, w) if t.playing else ""
    bits: list[str] = []
    if v.get("removal_cause"):
        bits.append(f"[yellow]{escape(cause_text(v['removal_cause'], w.lang))}[/]")
    mine = t.my_decision()
    if mine is not None and t.outcome is None:
        text = f"[bold #f1c40f]▶ {escape(w(your_key(mine, w)))}[/]"
        left = t.choices.get(str(t.seat))
        if left is not None:
            text += f" [dim]({escape(w('auto', s=(left + 999) // 1000))})[/]"
        bits.insert(0, text)
    elif t.outcome is None and v.get("to_act"):
        bits.insert(0, waiting_text(t, w))
    if v.get("must_roll_six"):
        who = ", ".join(_name(t, s, w.lang) for s in v["must_roll_six"])
        bits.append(escape(w("must_roll_six", who=who)))
    return "  ".join(bits)


def your_key(decision: dict[str, Any], w: Words) -> str:
    """The key of the words that ask this seat for ``decision`` (a kind this client lacks: the
    general words). Naming says what may be named: a colour, a number, or either."""
    kind = KINDS.get(str(decision.get("kind")))
    key = f"your.{kind.words}" if kind is not None else "your.other"
    if key == "your.name":
        options = [str(o) for o in decision.get("options") or []]
        colours = [o for o in options if o in DIE_STYLE]
        key = "your.name.colour" if colours and len(colours) == len(options) else \
            "your.name.number" if options and not colours else key
    return key if key in _known(w) else "your.other"


def waiting_text(t: Table, w: Words) -> str:
    """Who the table waits for, and for what: ``Waiting for Luis to take a card from the row``."""
    by_kind: dict[str, list[int]] = {}
    for seat, decision in sorted(((t.view or {}).get("to_act") or {}).items(), key=lambda kv: int(kv[0])):
        if int(seat) == t.seat:
            continue
        kind = KINDS.get(str(decision.get("kind")))
        words = kind.words if kind is not None and f"wait.{kind.words}" in _known(w) else "other"
        by_kind.setdefault(words, []).append(int(seat))
    if not by_kind:
        return ""
    said = []
    for words, seats in by_kind.items():
        names = [_name(t, s, w.lang) for s in seats]
        who = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {w('and')} {names[-1]}"
        said.append(w(f"wait.{words}" + (".many" if len(names) > 1 else ""), who=who))
    return f"[dim]{escape(w('waiting', what='; '.join(said)))}[/]"


def _known(w: Words) -> set[str]:
    return set(TEXTS[w.lang])


def hint_line(t: Table, w: Words) -> str:
    """The hint shown (``h``): what to do and why, in the table's language. The reason's head
    says the move again, with the card's name: it is left out after the move's own words."""
    if t.hint_wanted and t.hint is None:
        return f"[bold cyan]{escape(w('hint'))}:[/] [dim]{escape(w('hint.thinking'))}[/]"
    h = t.hint
    if h is None:
        return f"[#ffcc4d]{escape(t.intro)}[/]" if t.intro and t.playing else ""
    advice = h.get("advice") or {}
    try:
        what = hint_text(advice, w.lang, t.names, t.seat)
        why = hint_reason(advice, w.lang, t.names, t.seat)
    except ValueError:
        what, why = str(h.get("text") or ""), str(h.get("reason") or "")
    head, sep, rest = why.partition(": ")
    if sep and rest:
        why = rest
    return f"[bold cyan]{escape(w('hint'))}:[/] [bold]{escape(what)}[/] [dim]— {escape(why)}[/]"


def roll_line(t: Table, w: Words) -> str:
    """The roll, each die with its number to pick it by; placed dice struck through."""
    v = t.view or {}
    dice = t.rolled()
    cells: list[str] = []
    for n, d in enumerate(dice, 1):
        chip = die_chip(d)
        if d.get("placed"):
            cells.append(f"[dim]{n}[/] [strike dim]{escape(str(d.get('die')))}[/]")
            continue
        sel = t.die == d.get("id")
        movable = bool(t.targets(int(d["id"]))) or any(a.get("die") == d["id"] for a in t.choice_moves())
        label = f"[bold]{n}[/]" if movable else f"[dim]{n}[/]"
        cell = f"{label} {chip}"
        if sel:
            cell = f"[bold #f1c40f]▶{n}[/] {chip}[bold #f1c40f]◀[/]"
        cells.append(f"[@click=app.die({d['id']})]{cell}[/]")
    body = "   ".join(cells) if cells else f"[dim]{escape(w('roll.none'))}[/]"
    text = f"[bold]{escape(w('roll'))}[/]  " + body
    extra = _middle_extras(v, w)
    if extra:
        text += "   [dim]│[/] " + "  ".join(extra)
    return text


def _middle_extras(v: dict[str, Any], w: Words) -> list[str]:
    """What lies in the middle beside the roll: the unused dice, the penalty die, the bonus die."""
    extra: list[str] = []
    if v.get("unused"):
        extra.append(f"{escape(w('unused'))}: " + " ".join(die_chip(_die(v, d)) for d in v["unused"]))
    if v.get("penalty_die"):
        extra.append(f"{escape(w('penalty_die'))}: {die_chip(v['penalty_die'])}")
    if v.get("bonus_die"):
        extra.append(escape(w("bonus_die")))
    return extra


def _die(v: dict[str, Any], die: Any) -> dict[str, Any] | None:
    if isinstance(die, dict):
        return die
    for d in v.get("rolled") or []:
        if d.get("id") == die:
            return dict(d)
    # a die on a card (one to give up or return)
    for hand in v.get("hands") or []:
        for card in hand.get("cards") or []:
            for d in card.get("dice") or []:
                if d is not None and d.get("id") == die:
                    return dict(d)
    return None


def hand_of(t: Table, seat: int) -> dict[str, Any]:
    """The view of ``seat``'s hand."""
    for hand in (t.view or {}).get("hands") or []:
        if hand.get("seat") == seat:
            return dict(hand)
    return {"seat": seat, "cards": []}


def _slot_marks(t: Table) -> dict[str, dict[int, str]]:
    """Card -> slot -> mark on your cards: ``legal`` for the picked die's slots, ``cursor`` where
    the cursor is."""
    marks: dict[str, dict[int, str]] = {}
    for tg in t.targets():
        marks.setdefault(tg.card, {})[tg.slot] = "legal"
    target = t.target()
    if target is not None:
        marks.setdefault(target.card, {})[target.slot] = "cursor"
    return marks


def mine_block(t: Table, w: Words, *, wide: bool = False) -> str:
    """Your cards, one per line, the selected die's legal slots underlined and the cursor marked.
    Under the card the cursor is on (under every card, in a wide terminal) the card in words."""
    if t.seat is None:
        return ""
    hand = hand_of(t, t.seat)
    target = t.target()
    legal = _slot_marks(t)
    lines = [f"[bold]{escape(w('mine'))}[/] {_seat_tags(t, t.seat, hand, w)}"]
    for card in hand.get("cards") or []:
        lines.append(" " + card_line(card, w.lang, marks=legal.get(card["id"]), clickable=True))
        if wide or (target is not None and card["id"] == target.card):
            lines.append(f"   [dim]{escape(card_text(card, w.lang))}[/]")
    return "\n".join(lines)


def _seat_tags(t: Table, seat: int, hand: dict[str, Any], w: Words, *, role: bool = True) -> str:
    v = t.view or {}
    tags: list[str] = []
    if hand.get("done"):
        tags.append(f"[green]{escape(w('done'))}[/]")
    if hand.get("quota") is not None and t.playing:
        tags.append(f"{hand.get('taken', 0)}/{hand.get('quota')}")
    if v.get("sparks_in_game"):
        tags.append(f"{escape(w('sparks'))} {hand.get('sparks', 0)}")
    for r in v.get("roles") or [] if role else []:
        if r.get("seat") == seat:
            words = role_words(str(r.get("id")), w.lang)
            name = (words.name if words is not None else r.get("name")) if r.get("face_up") else "—"
            tags.append(f"[magenta]{escape(w('role'))}: {escape(str(name))}[/]")
    return " [dim]·[/] ".join(tags)


def seat_label(t: Table, seat: int | None, w: Words) -> str:
    """A seat's name (its number when it has none), or ``?``."""
    return "?" if seat is None else _name(t, int(seat), w.lang)


# ---------------------------------------------------------------------- the table drawn (wide)
def _box(card: dict[str, Any], w: Words, **kw: Any) -> drawing.Block:
    return drawing.card_box(card, card_name(card, w.lang), w.lang, spark_word=w("spark"), **kw)


def roll_block(t: Table, w: Words) -> str:
    """The roll drawn as dice, each with its number over it; what else lies in the middle (unused
    dice, the penalty die) on the title line."""
    v = t.view or {}
    head = f"[bold]{escape(w('roll'))}[/]"
    extra = _middle_extras(v, w)
    if extra:
        head += "   [dim]│[/] " + "  ".join(extra)
    dice = t.rolled()
    if not dice:
        return f"{head}\n[dim]{escape(w('roll.none'))}[/]"
    blocks = []
    for n, d in enumerate(dice, 1):
        movable = not d.get("placed") and (bool(t.targets(int(d["id"])))
                                           or any(a.get("die") == d["id"] for a in t.choice_moves()))
        blocks.append(drawing.die_block(d, n, selected=t.die == d.get("id"), movable=movable,
                                        click=None if d.get("placed") else f"app.die({d['id']})"))
    return head + "\n" + "\n".join(drawing.side_by_side(blocks, 400, gap=2))


def mine_cards(t: Table, w: Words, width: int) -> str:
    """Your cards drawn as cards side by side, the picked die's slots marked and clickable; under
    them the card the cursor is on (else your first unfinished one) in words."""
    if t.seat is None:
        return ""
    hand = hand_of(t, t.seat)
    target = t.target()
    legal = _slot_marks(t)
    cards = hand.get("cards") or []
    head = f"[bold]{escape(w('mine'))}[/] {_seat_tags(t, t.seat, hand, w)}"
    boxes = [_box(c, w, marks=legal.get(c["id"]), clickable=True,
                  frame="#f1c40f" if target is not None and c["id"] == target.card else "#46566a")
             for c in cards]
    lines = [head, *drawing.side_by_side(boxes, width)]
    about = next((c for c in cards if target is not None and c["id"] == target.card), None)
    about = about or next((c for c in cards if not c.get("complete")), None)
    if about is not None:
        lines.append(f"[dim]{escape(about['id'])}: {escape(card_text(about, w.lang))}[/]")
    return "\n".join(lines)


def row_cards(t: Table, w: Words, width: int) -> str:
    """The row (or the stacks' tops) drawn as cards side by side; when the player must take one,
    each is clickable and the highlighted one framed."""
    v = t.view or {}
    takes = {a.get("card"): (i, a) for i, a in enumerate(t.choice_moves()) if a.get("kind") == "take"}

    def box(card: dict[str, Any], label: str | None = None) -> drawing.Block:
        hit = takes.get(card["id"])
        here = hit is not None and t.die is None and t.choice == hit[0]
        name = card_name(card, w.lang) if label is None else f"{label} · {card_name(card, w.lang)}"
        return drawing.card_box(card, name, w.lang, spark_word=w("spark"),
                                frame="#f1c40f" if here else "#8a7a2a" if hit is not None else "#46566a",
                                click=f"app.act({_quote(hit[1]['action'])})" if hit is not None else None)

    if v.get("stacks"):
        blocks = []
        for s in v["stacks"]:
            label = w("level", level=s.get("level"), n=s.get("size"))
            if s.get("top"):
                blocks.append(box(s["top"], label))
            else:
                blocks.append(drawing.Block((f"[dim]{escape(label)}: {escape(w('empty'))}[/]",),
                                            len(label) + 2 + len(w("empty"))))
        title = w("stacks")
    else:
        blocks = [box(c) for c in v.get("row") or []]
        title = w("row.take") if takes else w("row")
    return "\n".join([f"[bold]{escape(title)}[/]", *drawing.side_by_side(blocks, width)])


def team_cards(t: Table, w: Words, width: int) -> str:
    """The other seats, each with its name, who plays it and where it stands, its hand drawn as
    cards side by side."""
    v = t.view or {}
    lines = [f"[bold]{escape(w('team'))}[/]"]
    for s in range(int(v.get("players") or len(t.names))):
        if s == t.seat:
            continue
        hand = hand_of(t, s)
        lines.append(f"[bold]{escape(_name(t, s, w.lang))}[/]{_badge(t, s, w)} {_seat_tags(t, s, hand, w)}")
        boxes = [_box(c, w, min_inner=10, max_inner=24) for c in hand.get("cards") or []]
        lines += drawing.side_by_side(boxes, width)
    return "\n".join(lines)


def _badge(t: Table, seat: int, w: Words) -> str:
    seats = (t.room or {}).get("seats") or []
    info = seats[seat] if seat < len(seats) else {}
    if info.get("kind") == "bot" or info.get("autoplay"):
        return f" [dim]({escape(w('bot'))})[/]"
    if info.get("kind") == "human" and not info.get("connected", True):
        return f" [dim]({escape(w('away'))})[/]"
    return ""


def row_block(t: Table, w: Words, *, wide: bool) -> str:
    """The row of cards in the middle (or the stacks' tops). When the player must take one, each
    card gets its own line, the highlighted choice marked and every card clickable."""
    v = t.view or {}
    takes = {a.get("card"): (i, a) for i, a in enumerate(t.choice_moves()) if a.get("kind") == "take"}
    if v.get("stacks"):
        lines = [f"[bold]{escape(w('stacks'))}[/]"]
        for s in v["stacks"]:
            top = s.get("top")
            label = escape(w("level", level=s.get("level"), n=s.get("size")))
            card = _take_card(t, top, takes, w) if top else f"[dim]{escape(w('empty'))}[/]"
            lines.append(f" {label}: {card}")
        return "\n".join(lines)
    row = v.get("row") or []
    if takes or wide:
        title = w("row.take") if takes else w("row")
        return "\n".join([f"[bold]{escape(title)}[/]"] + [" " + _take_card(t, c, takes, w) for c in row])
    # narrow and nothing to take: the ids and points only, so that the row keeps to one line
    cells = [f"[bold]{escape(c['id'])}[/][dim]·{c.get('points', 0)}★[/]" for c in row]
    return f"[bold]{escape(w('row'))}[/]  " + "  ".join(cells)


def _take_card(t: Table, card: dict[str, Any], takes: dict[Any, tuple[int, dict[str, Any]]], w: Words) -> str:
    line = card_line(card, w.lang)
    hit = takes.get(card["id"])
    if hit is None:
        return line
    i, a = hit
    here = t.die is None and t.choice == i
    line = f"[bold #f1c40f]▶[/] {line}" if here else f"  {line}"
    return f"[@click=app.act({_quote(a['action'])})]{line}[/]"


def _quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def team_block(t: Table, w: Words, *, wide: bool) -> str:
    """The other seats: name, who plays it, done, and their cards with the dice on them."""
    v = t.view or {}
    seats = (t.room or {}).get("seats") or []
    lines = [f"[bold]{escape(w('team'))}[/]"]
    for s in range(int(v.get("players") or len(seats))):
        if s == t.seat:
            continue
        hand = hand_of(t, s)
        info = seats[s] if s < len(seats) else {}
        who = escape(_name(t, s, w.lang))
        kind = info.get("kind")
        badge = ""
        if kind == "bot" or info.get("autoplay"):
            badge = f" [dim]({escape(w('bot'))})[/]"
        elif kind == "human" and not info.get("connected", True):
            badge = f" [dim]({escape(w('away'))})[/]"
        tags = _seat_tags(t, s, hand, w, role=wide)
        head = f" [bold]{who}[/]{badge} {tags}"
        cards = hand.get("cards") or []
        if wide:
            lines.append(head)
            lines += ["   " + card_line(c, w.lang) for c in cards]
        else:
            body = "  [dim]│[/] ".join(
                f"[bold]{escape(c['id'])}[/] {card_slots(c, equations=False, lang=w.lang)}" for c in cards)
            lines.append(f"{head}  {body}")
    return "\n".join(lines)


def log_lines(t: Table, w: Words) -> list[str]:
    """The ship's log, oldest first, in words."""
    out: list[str] = []
    for item in t.log:
        if "event" in item:
            e = item["event"]
            out.append(_event_line(e, t, w))
        elif "chat" in item:
            c = item["chat"]
            out.append(f"[cyan]{escape(str(c.get('name')))}:[/] {escape(str(c.get('text')))}")
        elif "signal" in item:
            s = item["signal"]
            out.append(f"[cyan]{escape(str(s.get('name')))}[/] ⚑ {escape(signal_words(s, t, w))}")
    return out


def signal_words(s: dict[str, Any], t: Table, w: Words) -> str:
    """A quick signal in words, with the die it points at: ``I need this (Blue 4)``."""
    said = page_words(w.lang).get(f"signal.{s.get('signal')}", str(s.get("signal")))
    die = _die(t.view or {}, s["die"]) if s.get("die") is not None else None
    return f"{said} ({die_words(die, w.lang)})" if die is not None else said


def page_words(lang: str) -> Mapping[str, str]:
    """The catalogue of ``lang`` (the page's words too: the signals are said as the page says them)."""
    return catalogue(lang)


def _event_line(e: dict[str, Any], t: Table, w: Words) -> str:
    text = escape(event_text(e, w.lang, t.names))
    kind = e.get("kind")
    if kind in ("game_won", "bomb_defused", "spark_defused"):
        return f"[green]{text}[/]"
    if kind in ("game_lost", "fuse_activated", "die_returned", "fuse_card"):
        return f"[yellow]{text}[/]"
    if kind == "dice_rolled":
        return f"[bold]{text}[/]"
    return text


def choices_line(t: Table, w: Words) -> str:
    """The moves other than placing (taking a card is shown in the row), each clickable, the
    highlighted one marked."""
    cm = t.choice_moves()
    parts: list[str] = []
    for i, a in enumerate(cm):
        if a.get("kind") == "take":
            continue
        label = action_label(a, t, w)
        here = t.die is None and t.choice == i
        cell = f"[reverse bold]▶ {label} ◀[/]" if here else f"\\[ {label} ]"
        parts.append(f"[@click=app.act({_quote(a['action'])})]{cell}[/]")
    done = t.done_move()
    if done is not None:
        parts.append(f"[@click=app.act('done')][bold]\\[d] {escape(w('act.done'))}[/][/]")
    if not parts:
        return ""
    return f"[bold]{escape(w('actions'))}[/]  " + "  ".join(parts)


def action_label(a: dict[str, Any], t: Table, w: Words) -> str:
    """A move in words: ``Give up B4``, ``Name R``, ``Reroll B4 G2``."""
    kind = str(a.get("kind"))
    v = t.view or {}
    key = {"give_up": "act.give", "give": "act.give", "roll_six": "act.roll", "recolor": "act.recolour"}.get(
        kind, f"act.{kind}")
    verb = escape(w(key)) if key in _known(w) else escape(kind)
    bits = [verb]
    if a.get("die") is not None:
        bits.append(die_chip(_die(v, a["die"])))
    for d in a.get("dice") or []:
        bits.append(die_chip(_die(v, d)))
    if a.get("card"):
        bits.append(escape(str(a["card"])))
    for key2 in ("value", "colour", "face"):
        if a.get(key2) is not None:
            val = str(a[key2])
            bits.append(f"[{DIE_STYLE[val]}]{val}[/]" if val in DIE_STYLE else escape(val))
    return " ".join(bits)


def fuses_line(t: Table, w: Words) -> str:
    """The fuse cards gone off, with what each showed (a text card: what it did)."""
    v = t.view or {}
    gone = v.get("fuses_activated") or []
    total = v.get("fuse_cards_in_game") or 0
    if not total and not gone:
        return ""
    cells = []
    cat = builtin_catalogue()
    for f in gone:
        shows = " ".join(f.get("shows") or [])
        if not shows:
            try:
                card = next(c for c in cat.fuses if c.id == f.get("id"))
                shows = card_words(card, w.lang).text  # type: ignore[arg-type]
            except StopIteration:
                shows = str(f.get("effect"))
        cells.append(f"[yellow]{escape(str(f.get('id')))}[/] {escape(shows)}")
    head = f"[bold]{escape(w('fuses'))}[/] {len(gone)}/{total}"
    return head + ("  " + "  ".join(cells) if cells else "")


def score_rows(score: dict[str, Any], w: Words) -> list[tuple[str, int]]:
    """The rulebook's score lines (win bonus, time bonus, bombs, fuse cards[, sparks]) and the total."""
    rows = [("score.win", score.get("win_bonus", 0)), ("score.time", score.get("time_bonus", 0)),
            ("score.bombs", score.get("bomb_points", 0)), ("score.fuses", score.get("fuse_points", 0))]
    if score.get("spark_points"):
        rows.append(("score.sparks", score["spark_points"]))
    rows.append(("score.total", score.get("total", 0)))
    return [(w(k), int(val or 0)) for k, val in rows]


def end_text(t: Table, w: Words) -> str:
    """The end screen: won or lost and why, the score breakdown, where the game is stored."""
    o = t.outcome or {}
    won = bool(o.get("won"))
    head = f"[bold green]{escape(w('won'))}[/]" if won else f"[bold red]{escape(w('lost'))}[/]"
    reason = escape(w(f"reason.{o.get('reason')}"))
    lines = [head, f"[dim]{reason} · {mmss(o.get('time_left_ms'))}[/]", ""]
    rows = score_rows(o.get("score") or {}, w)
    width = max(len(k) for k, _ in rows) + 2
    for i, (k, val) in enumerate(rows):
        style = "bold" if i == len(rows) - 1 else ""
        line = f"{escape(k.ljust(width))}{val:>5}"
        if i == len(rows) - 1:
            lines.append("─" * (width + 5))
        lines.append(f"[{style}]{line}[/]" if style else line)
    lines += ["", f"[dim]{escape(standing(t, w))}[/]"]
    if t.log_id is not None:
        lines.append(escape(w("stored", id=t.log_id)))
    elif t.stored:
        lines.append(f"[yellow]{escape(w('not_stored'))}[/]")
    else:
        lines.append(f"[dim]{escape(w('storing'))}[/]")
    return "\n".join(lines)


def standing(t: Table, w: Words) -> str:
    """Where the game stands in the BDT Log: untimed practice, or a timed game that is ranked, or
    unranked because bots played or the deal was chosen (the log entry's word when the link read
    it, else what this table saw)."""
    o = t.outcome or {}
    if not o.get("official"):
        return w("unofficial")
    entry = t.entry or {}
    bots = bool(entry.get("bots")) if entry else bool(t.bot_seats)
    seeded = entry.get("seeded") if entry else t.seeded
    why = [w("unranked.bots")] if bots else []
    if seeded:
        why.append(w("unranked.seeded"))
    if why:
        return w("unranked", why=", ".join(why))
    if entry.get("ranked") or (not entry and seeded is False):
        return w("ranked")
    return w("official")


def lobby_text(t: Table, w: Words) -> str:
    """A room's lobby (``--join`` before the game starts): its seats and who is ready."""
    room = t.room or {}
    head = escape(w("lobby", code=str(room.get("code", ""))))
    lines = [f"[bold]{head}[/]  {escape(str(room.get('title', '')))}", ""]
    for s in room.get("seats") or []:
        you = f" [bold]({escape(w('you'))})[/]" if s.get("seat") == t.seat else ""
        if s.get("kind") == "open":
            lines.append(f"  {s['seat'] + 1}. [dim]{escape(w('open'))}[/]")
            continue
        ready = w("ready") if s.get("ready") or s.get("kind") == "bot" else w("not_ready")
        kind = f" [dim]({escape(w('bot'))})[/]" if s.get("kind") == "bot" else ""
        lines.append(f"  {s['seat'] + 1}. {escape(str(s.get('name')))}{kind}{you} — {escape(ready)}")
    lines += ["", f"[dim]{escape(w('lobby.wait'))}[/]"]
    return "\n".join(lines)
