"""English: the engine's log lines (terse, with die labels such as ``B5`` and seats ``P1``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from fusegame.rules.errors import REFUSALS as _REFUSALS
from fusegame.rules.errors import fill
from fusegame.words import catalogue
from fusegame.words.templates import act_text, role_event_key, say

SEAT = "P"
COLOURS = {"R": "red", "B": "blue", "G": "green", "Y": "yellow", "K": "black"}
#: what a text fuse card does, by effect (the catalogue's ``effect.<effect>``, as the page says it)
EFFECTS = {k.removeprefix("effect."): v for k, v in catalogue("en").items()
           if k.startswith("effect.") and k not in ("effect.symbol", "effect.symbolLong")}
REASONS = {"bombs-defused": "bombs-defused", "time-up": "time-up", "bag-empty": "bag-empty"}

Ev = Mapping[str, Any]
Seat = Callable[[int], str]


def colours_words(letters: str) -> str:
    return "/".join(COLOURS[x] for x in letters.split("/"))


def die_words(d: Ev) -> str:
    """``Blue 5``, ``Black/yellow 3``, ``Blue 4 as red``."""
    words = f"{colours_words(d['colours']).capitalize()} {d['face']}"
    return words + (f" as {colours_words(d['as'])}" if d.get("as") else "")


def label(d: Ev) -> str:
    return str(d["die"])


def cause(c: Ev) -> str:
    if c["kind"] == "fuse":
        return f"fuse card {' '.join(c['shows'])}"
    if c["kind"] == "penalty":
        return f"unused die {label(c['die'])}"
    if c["kind"] == "no_spark":
        return "no spark card left"
    return str(c["kind"])


def _fuse(e: Ev, p: Seat) -> str:
    if e["effect"] != "symbol":
        return f"fuse card {e['card']} goes off (+2): {EFFECTS.get(e['effect'], e['effect'])}"
    return f"fuse card {e['card']} ({' '.join(e['shows'])}) goes off (+2)"


def _clock(e: Ev, p: Seat) -> str:
    s = e["time_ms"] // 1000
    return f"the ship is saved: the clock stops after {s // 60}:{s % 60:02d}"


def _role(e: Ev, p: Seat) -> str:
    who, role = p(e["seat"]), e["role"]
    if role == "name":
        return f"{who} names {e['value']}"
    if role == "recolour":
        return f"{who} recolours a die: {label(e['die'])}"
    if role == "renumber":
        return f"{who} turns a die to {label(e['die'])}"
    if role == "flip":
        return f"{who} flips a die to {label(e['die'])}"
    if role == "rethrow":
        return f"{who} rerolls " + " ".join(label(d) for d in e["dice"])
    return say("en", role_event_key(role), {**e, "who": who}) or f"{who} uses a role ability"


def _role_record(e: Ev, p: Seat) -> str:
    """The record's form of a role line (``Event.__str__``, the golden playthroughs): the dice by
    their ids, as the action notation names them (``P1 turns d8 to G4``)."""
    who, role = p(e["seat"]), e["role"]
    if role in ("recolour", "renumber", "flip"):
        verb = {"recolour": "recolours", "renumber": "turns", "flip": "flips"}[role]
        sep = ":" if role == "recolour" else " to"
        return f"{who} {verb} d{e['die']['id']}{sep} {label(e['die'])}"
    if role == "rethrow":
        return f"{who} rerolls " + " ".join(f"d{d['id']}" for d in e["dice"])
    return _role(e, p)


EVENTS: dict[str, Callable[[Ev, Seat], str]] = {
    "dice_rolled": lambda e, p: f"{p(e['leader'])} rolls " + " ".join(label(d) for d in e["dice"]),
    "die_placed": lambda e, p: f"{p(e['seat'])} places {label(e['die'])} on {e['card']} slot {e['slot'] + 1}",
    "card_completed": lambda e, p: f"{p(e['seat'])} completes {e['card']}",
    "bomb_defused": lambda e, p: f"{p(e['seat'])} defuses {e['card']} (+{e['points']})",
    "card_taken": lambda e, p: f"{p(e['seat'])} takes {e['card']}",
    "card_revealed": lambda e, p: f"{e['card']} is turned into the row",
    "fuse_activated": _fuse,
    "die_returned": lambda e, p: (f"{p(e['seat'])} returns {label(e['die'])} from {e['card']} to the bag "
                                  f"({cause(e['cause'])})"),
    "seat_done": lambda e, p: f"{p(e['seat'])} is done",
    "penalty_rolled": lambda e, p: f"unused die rolled: {label(e['die'])}",
    "turn_ended": lambda e, p: f"turn {e['turn']} ends",
    "game_won": lambda e, p: f"the team wins: score {e['score']}",
    "game_lost": lambda e, p: f"the team loses ({REASONS.get(e['reason'], e['reason'])}): score {e['score']}",
    "spark_drawn": lambda e, p: f"{p(e['seat'])} draws spark {e['card']}",
    "spark_defused": lambda e, p: f"{p(e['seat'])} defuses spark {e['card']} (+2)",
    "sparks_turned_over": lambda e, p: f"the spark discard pile ({e['cards']} cards) becomes the spark deck",
    "no_spark_left": lambda e, p: (f"{p(e['seat'])} must draw a spark but every spark is in play: gives up a "
                                   "die instead"),
    "card_turned_down": lambda e, p: f"{p(e['seat'])} turns {e['card']} face down (it need not be defused)",
    "clock_stopped": _clock,
    "role_used": _role,
    "role_restored": lambda e, p: f"{p(e['seat'])}'s role card is face up again",
    "dice_rerolled": lambda e, p: "rerolled: " + " ".join(label(d) for d in e["dice"]),
    "six_rolled": lambda e, p: f"{p(e['seat'])} rolls a 6",
    "not_six": lambda e, p: f"{p(e['seat'])} rolls a {e['face']}, not a 6",
    "die_returned_free": lambda e, p: f"{p(e['seat'])} returns {label(e['die'])} to the bag without penalty",
}

#: The record's lines (``str(Event)``: the golden playthroughs, the command line's event lists): the
#: log's lines, but a role ability names its dice by id, as the action notation beside them does.
RECORD_EVENTS: dict[str, Callable[[Ev, Seat], str]] = {**EVENTS, "role_used": _role_record}


# ====================================================================== hints
# A teammate's words: dice by colour and number (``Blue 5``), cards by id with their name and
# layout, work as the dice a card still needs (``about 6 dice``), seats as in action text (``p0``).
Hint = Callable[[Ev, Seat, int | None], str]


def hint_seat(seat: int) -> str:
    return f"p{seat}"


def card_words(c: Ev) -> str:
    """``F12 (Little tent, pyramid)``, ``F05 (Valley)``, ``spark S03``: the id, then what it has of a
    name and a layout (a plain row needs no word, and a name that says the layout needs it once)."""
    name, layout = c.get("name") or "", c.get("layout") or ""
    if layout and layout in name.lower():
        layout = ""
    extra = [x for x in (name, layout) if x]
    head = f"spark {c['id']}" if c.get("kind") == "spark" else str(c["id"])
    return f"{head} ({', '.join(extra)})" if extra else head


def about(work: int | None) -> str:
    if work is None:
        return "no way to finish"
    return f"about {work} {'die' if work == 1 else 'dice'}"


def to_go(t: Ev) -> str:
    """``about 6 dice to go, was 9``."""
    after, before = t["after"], t["before"]
    if after is None:
        return "no way to finish it any more"
    if after == before:
        return f"still {about(after)} to go"
    if before is None:  # strict FUSE: giving up a die can make a dead card finishable again
        return f"{about(after)} to go, where there was no way to finish"
    return f"{about(after)} to go, was {before}"


def points(n: int) -> str:
    return f"+{n} point{'' if n == 1 else 's'}"


def dice_list(dice: list[Ev]) -> str:
    words = [die_words(d) for d in dice]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def seat_card(seat: int, card: Ev, p: Seat, me: int | None) -> str:
    return f"your {card_words(card)}" if seat == me else f"{p(seat)}'s {card_words(card)}"


def _colour_name(value: str) -> str | None:
    return colours_words(value) if value in COLOURS else None


def _role_text(a: Ev) -> str:
    role = a["role"]
    if role == "rethrow":
        return f"Rethrow the {dice_list(a['dice'])}"
    die = die_words(a["die"])
    if role == "recolour":
        return f"Recolour the {die} to {colours_words(a['colour'])}"
    if role == "renumber":
        return f"Turn the {die} to {a['face']}"
    if role == "flip":
        return f"Flip the {die} to {a['face']}"
    return say("en", f"hint.{role}", a) or say("en", "words.other", {"verb": role}) or role


def _take_why(a: Ev) -> str:
    w, pts = a["why"], a["card"]["points"]
    where = "on the stacks" if w.get("where") == "stacks" else "in the row"
    if w["kind"] == "only":
        return f"the only card left ({about(w['work'])}, {pts} point{'' if pts == 1 else 's'})"
    if w["kind"] == "easiest":
        return f"the easiest card {where} ({about(w['work'])})"
    if w["kind"] == "hardest_late":
        return f"the game is nearly over, so take the hardest and leave the easy ones ({about(w['work'])})"
    if w["kind"] == "hardest_first":
        return (f"the hardest card {where} ({about(w['work'])}): every card must be finished, so take "
                "the hard ones while there is time and leave the quick ones for the end, when the "
                "players whose cards are done can no longer help")
    if w["kind"] == "smallest":
        return (f"the smallest card {where} (fewest slots and points, {about(w['work'])}): leave the big "
                "ones for last; the game is won once the middle is empty, and the cards then in front of "
                "the players need not be finished")
    if w["kind"] == "next_roll":
        more = w["ahead_tenths"] / 10
        return (f"the card the dice in the bag fit ({about(w['work'])}), rather than "
                f"{card_words(w['instead'])}: the team's next roll should do about {more:g} "
                f"{'die' if more == 1 else 'dice'} more work")
    return f"{points(pts)} for {about(w['work'])}, the best trade {where}"


def _give_up_cause(c: Ev | None) -> str:
    if not c:
        return ""
    if c["kind"] == "fuse":
        return f" to the fuse card ({' '.join(c['shows'])})"
    if c["kind"] == "penalty":
        return f" for the penalty ({die_words(c['die'])})"
    if c["kind"] == "no_spark":
        return f" ({cause(c)})"
    return ""


def _place_reason(a: Ev, p: Seat, me: int | None) -> str:
    die, card, w = die_words(a["die"]), card_words(a["card"]), a["why"]
    if w["kind"] == "completes":
        return f"{die} on {card}: completes it, {points(w['points'])}"
    if w["kind"] == "wins":
        last = "the last bomb" if w["left"] == 1 else f"the last {w['left']} bombs"
        return (f"{die} on {card}: completes it, {points(w['points'])}; this roll takes {last} "
                "from the middle, and the team wins")
    if w["kind"] == "clears_spark":
        return f"{die} on {card}: completes it and clears the spark"
    where = f"{die} on {card} slot {a['slot'] + 1}"
    go = to_go(w["to_go"])
    if w["kind"] == "closer":
        return f"{where}: {'leaves the most ways to finish' if w['most_ways'] else 'a step closer'} ({go})"
    if w["kind"] == "focus":
        left = "only 1 bomb is" if w["left"] == 1 else f"only {w['left']} bombs are"
        return (f"{where}: finish this one first ({go}); {left} left in the middle, so "
                f"{card_words(w['spare'])} will likely never need finishing")
    if w["kind"] == "spares_spark":
        return f"{where}: taking a die spares you a spark card ({go})"
    if w["kind"] == "next_roll":
        more = w["ahead_tenths"] / 10
        rather = ""
        if w["instead"]:
            rather = (f"rather than the {die_words(w['instead']['die'])} on "
                      f"{card_words(w['instead']['card'])}, ")
        return (f"{where}: {rather}so that the team's cards want dice the bag still holds; the next "
                f"roll should do about {more:g} {'die' if more == 1 else 'dice'} more work ({go})")
    return f"{where}: better than leaving it to the penalty roll ({go})"


def _done_reason(a: Ev, p: Seat, me: int | None) -> str:
    w, then = a["why"], a.get("then")
    if w["kind"] == "no_fit":
        why = "no die fits your cards"
    elif w["kind"] == "harder":
        why = "every die that fits would make your cards harder to finish"
    elif w["kind"] == "better_elsewhere":
        why = (f"the {die_words(w['die'])} that fits your cards does more on "
               f"{seat_card(w['seat'], w['card'], p, me)}")
    else:
        why = "the team does better leaving the dice to the others"
    after = ""
    if then and then["kind"] == "sparks":
        n = then["count"]
        after = f"; you will draw {n} spark card{'' if n == 1 else 's'}"
    elif then and then["kind"] == "penalty":
        left = then["dice"]
        after = f"; the {dice_list(left)} {'is' if len(left) == 1 else 'are'} left for the penalty"
        after += _penalty_cost(then.get("cost_tenths"))
    return f"Say done: {why}{after}"


def _penalty_cost(tenths: int | None) -> str:
    """What the penalty for the dice left is expected to undo (nothing said for a hint without it)."""
    if tenths is None:
        return ""
    cost = tenths / 10
    if tenths == 0:
        return ", which costs nothing: no die on the cards can be lost to it"
    return f", which undoes about {cost:g} {'die' if cost == 1 else 'dice'} of work on average"


def _role_reason(a: Ev, p: Seat, me: int | None) -> str:
    text = _role_text(a)
    if a["role"] == "rethrow":
        why = "no card can use it as it is" if len(a["dice"]) == 1 else "no card can use them as they are"
        return f"{text}: {why}"
    if "dice" in a:  # another ability over several dice
        return f"{text}: {say('en', 'advice.' + a['role'], a) or ''}".rstrip(": ")
    then = a.get("then")
    if then:
        why = f"then it goes on {seat_card(then['seat'], then['card'], p, me)}"
    else:
        why = "then the roll suits the team's cards better"
    return f"{text}: {why} (saves {about(a['saves'])})"


def _defuse_reason(a: Ev, p: Seat, me: int | None) -> str:
    c = a["card"]
    if c["kind"] == "spark":
        why = "clears the spark"
    else:
        why = f"{points(c['points'])}, and its replacement can take dice this turn"
    return f"Defuse {card_words(c)} now: {why}"


def _take_reason(a: Ev, p: Seat, me: int | None) -> str:
    why = _take_why(a)
    if a["others"]:
        why += "; " + ", ".join(f"{o['card']['id']} goes to {p(o['seat'])}" for o in a["others"])
    return f"Take {card_words(a['card'])}: {why}"


def _name_text(a: Ev) -> str:
    return f"Name {_colour_name(a['value']) or a['value']}"


def _name_reason(a: Ev, p: Seat, me: int | None) -> str:
    colour = _colour_name(a["value"])
    if colour is not None:
        return f"{_name_text(a)}: the bag holds the most {colour} dice ({a['in_bag']})"
    return f"{_name_text(a)}: every number is as likely to come up as any other"


HINT_TEXTS: dict[str, Hint] = {
    "place": lambda a, p, me: f"Put the {die_words(a['die'])} on {a['card']['id']} slot {a['slot'] + 1}",
    "done": lambda a, p, me: "Say done",
    "wait_for_role": lambda a, p, me: "Wait",
    "role": lambda a, p, me: _role_text(a),
    "no_role_gain": lambda a, p, me: "Nothing to do",
    "defuse": lambda a, p, me: f"Defuse {a['card']['id']}",
    "take": lambda a, p, me: f"Take {a['card']['id']}",
    "wait_to_take": lambda a, p, me: "Wait",
    "nothing_to_take": lambda a, p, me: "Nothing to take",
    "give_up": lambda a, p, me: f"Give up the {die_words(a['die'])} from {a['card']['id']}",
    "name": lambda a, p, me: _name_text(a),
    "reroll": lambda a, p, me: f"Reroll the {die_words(a['die'])} next",
    "return_free": lambda a, p, me: f"Return the {die_words(a['die'])} free",
    "roll_six": lambda a, p, me: "Roll your die",
    "act": lambda a, p, me: act_text("en", a),
}

HINT_REASONS: dict[str, Hint] = {
    "place": _place_reason,
    "done": _done_reason,
    "wait_for_role": lambda a, p, me: (f"Wait: {p(a['leader'])} uses the role on the {die_words(a['die'])} "
                                       f"first, then it goes on your {card_words(a['card'])}"),
    "role": _role_reason,
    "no_role_gain": lambda a, p, me: ("Nothing to do: your role would not improve this roll; "
                                      "let the others place"),
    "defuse": _defuse_reason,
    "take": _take_reason,
    "wait_to_take": lambda a, p, me: "Wait: the others take the cards in the middle; take from the new ones",
    "nothing_to_take": lambda a, p, me: "Nothing to take: the middle is empty",
    "give_up": lambda a, p, me: (f"{HINT_TEXTS['give_up'](a, p, me)}{_give_up_cause(a.get('cause'))}: "
                                 f"it costs the least to replace ({to_go(a['to_go'])})"),
    "name": _name_reason,
    "reroll": lambda a, p, me: (f"{HINT_TEXTS['reroll'](a, p, me)}: of the unused dice, its penalty is "
                                "likely to cost the least"),
    "return_free": lambda a, p, me: (f"{HINT_TEXTS['return_free'](a, p, me)}: its penalty roll would "
                                     "likely cost the most"),
    "roll_six": lambda a, p, me: "Roll your die: everyone must roll a 6 before play goes on",
    "act": lambda a, p, me: f"{act_text('en', a)}: {say('en', 'advice.declared', {})}",
}


# ====================================================================== refusals
# The engine's own English sentences (``rules.errors.REFUSALS``, what ``str(e)`` says): one source.
REFUSALS: dict[str, str] = dict(_REFUSALS)


def refusal(code: str, facts: Ev, p: Seat) -> str | None:
    """Refusal ``code`` with its ``facts`` in words (``None`` for a code without words)."""
    template = REFUSALS.get(code)
    return None if template is None else fill(template, facts, seat=p)
