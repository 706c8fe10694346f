"""The table drawn as Textual markup, one function per part of the screen.

Every die shows its colour letters and its number on a background of its colour, so that colour is
never the only sign. A card is drawn from its notation (``fusegame.cards.notation``): each slot
shows the die on it, or what it asks for (``R``, ``1|2``, ``#``...), with the card's relation
symbols between neighbours and its equations after them, as the card is printed. Clicks are
markup actions on the app (``app.die``, ``app.slot``, ``app.act``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from textual.markup import escape

from fusegame.cards.catalogue import builtin_catalogue
from fusegame.cards.model import BombCard, CardShape, Clause, Group, GroupTest, Layout
from fusegame.cards.notation import parse, print_clause, print_pred
from fusegame.cards.words import CardWords, card_words
from fusegame.pace import FAR_BEHIND, PaceLine, gauge_level
from fusegame.rules.decision_kinds import KINDS
from fusegame.terminal.table import Table
from fusegame.terminal.texts import TEXTS, Words, refusal_line
from fusegame.words import cause_text, event_text, hint_reason, hint_text, seat_name

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
    points = "spark" if card.get("kind") == "spark" else f"{card.get('points', 0)}★"
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


def top_line(t: Table, w: Words) -> str:
    """The title, the clock, the turn and leader, deck and bag, and the score."""
    v = t.view or {}
    title = escape(str((t.room or {}).get("title") or str(v.get("game", "FUSE")).upper()))
    left = t.clock_ms()
    clock = mmss(left) if left is not None else w("untimed")
    urgent = "bold white on #c0392b" if left is not None and left < 60_000 else "bold reverse"
    parts = [f"[bold]{title}[/]", f"[{urgent}] {clock} [/]"]
    gauge = pace_text(v, left, w)
    if gauge:
        parts.append(gauge)
    if v:
        parts.append(f"{w('turn')} {v.get('turn', 0)} · {w('leader')} "
                     f"{escape(_name(t, int(v.get('leader', 0)), w.lang))}")
        parts.append(f"{w('deck')} {v.get('deck_size', 0)} · {w('bag')} {v.get('bag_size', 0)}")
        score = (t.outcome or {}).get("score") or v.get("score") or {}
        parts.append(f"{w('score')} [bold]{score.get('total', 0)}[/]")
    return "  ".join(parts)


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
    if t.restarting:
        return f"[yellow]{escape(w('restarting'))}[/]"
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
        return f"[dim]{escape(w('spectator'))}[/]"
    bits: list[str] = []
    if v.get("removal_cause"):
        bits.append(f"[yellow]{escape(cause_text(v['removal_cause'], w.lang))}[/]")
    mine = t.my_decision()
    if mine is not None and t.outcome is None:
        kind = KINDS.get(str(mine.get("kind")))  # a kind this client lacks: the general words
        key = f"your.{kind.words}" if kind is not None else "your.other"
        key = key if key in _known(w) else "your.other"
        text = f"[bold #f1c40f]▶ {escape(w(key))}[/]"
        left = t.choices.get(str(t.seat))
        if left is not None:
            text += f" [dim]({escape(w('auto', s=(left + 999) // 1000))})[/]"
        bits.insert(0, text)
    elif t.outcome is None and v.get("to_act"):
        bits.insert(0, f"[dim]{escape(w('waiting'))}[/]")
    if v.get("must_roll_six"):
        who = ", ".join(_name(t, s, w.lang) for s in v["must_roll_six"])
        bits.append(escape(w("must_roll_six", who=who)))
    return "  ".join(bits)


def _known(w: Words) -> set[str]:
    return set(TEXTS[w.lang])


def hint_line(t: Table, w: Words) -> str:
    """The hint shown (``h``): what to do and why, in the table's language."""
    h = t.hint
    if h is None:
        return ""
    advice = h.get("advice") or {}
    try:
        what = hint_text(advice, w.lang, t.names, t.seat)
        why = hint_reason(advice, w.lang, t.names, t.seat)
    except ValueError:
        what, why = str(h.get("text") or ""), str(h.get("reason") or "")
    return f"[bold cyan]{escape(w('hint'))}:[/] {escape(what)} [dim]— {escape(why)}[/]"


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
    extra: list[str] = []
    if v.get("unused"):
        extra.append(f"{escape(w('unused'))}: " + " ".join(die_chip(_die(v, d)) for d in v["unused"]))
    if v.get("penalty_die"):
        extra.append(f"{escape(w('penalty_die'))}: {die_chip(v['penalty_die'])}")
    if v.get("bonus_die"):
        extra.append(escape(w("bonus_die")))
    if extra:
        text += "   [dim]│[/] " + "  ".join(extra)
    return text


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


def mine_block(t: Table, w: Words, *, wide: bool = False) -> str:
    """Your cards, one per line, the selected die's legal slots underlined and the cursor marked.
    Under the card the cursor is on (under every card, in a wide terminal) the card in words."""
    if t.seat is None:
        return ""
    hand = hand_of(t, t.seat)
    target = t.target()
    legal: dict[str, dict[int, str]] = {}
    for tg in t.targets():
        legal.setdefault(tg.card, {})[tg.slot] = "legal"
    if target is not None:
        legal.setdefault(target.card, {})[target.slot] = "cursor"
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
            out.append(f"[cyan]{escape(str(s.get('name')))}[/] ⚑ {escape(str(s.get('signal')))}")
    return out


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
    lines += ["", f"[dim]{escape(w('official' if o.get('official') else 'unofficial'))}[/]"]
    if t.log_id is not None:
        lines.append(escape(w("stored", id=t.log_id)))
    elif t.stored:
        lines.append(f"[yellow]{escape(w('not_stored'))}[/]")
    else:
        lines.append(f"[dim]{escape(w('storing'))}[/]")
    return "\n".join(lines)


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
