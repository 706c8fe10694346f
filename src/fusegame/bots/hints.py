"""Hints: the team planner's advice for every seat that may act now, in words a player follows.

``hint(state)`` gives one ``Hint`` per seat in ``state.to_act()``: the engine action the team
planner (``bots.team``) recommends for that seat, the action in words, and a one-line reason, the
way a teammate would put it::

    p0: place d6 CHAIN s3 — Blue 5 on CHAIN: completes it, +2 points
    p1: place d21 F05 s3 — Black 3 on F05 (Valley): completes it, +1 point

Dice are named by colour and number (``Blue 5``), cards by id with their name and layout when they
have them (``F12 (Little tent, pyramid)``), work in the planner's currency: the dice a card is
still expected to need (``bots.value``), rounded. Seats are ``p0``, ``p1``, ... as in action text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from fusegame.bots.team import Move, Plan, TeamPlanner
from fusegame.bots.value import HOPELESS
from fusegame.cards.model import Layout
from fusegame.constraints import EMPTY
from fusegame.dice import BY_LETTER, NAMES
from fusegame.rules.actions import (
    Action,
    Defuse,
    Done,
    Flip,
    GiveUp,
    Name,
    Place,
    Recolour,
    Renumber,
    RerollUnused,
    Rethrow,
    ReturnFree,
    RollSix,
    TakeCard,
)
from fusegame.rules.config import Setup
from fusegame.rules.state import Decision, GameState, Phase

__all__ = ["Hint", "hint", "nobody_acts"]


@dataclass(frozen=True)
class Hint:
    """The recommended move of one seat."""

    seat: int
    kind: str  #: the decision it answers (``Decision.kind``: distribute, take, give_up, ...)
    action: Action | None  #: None: nothing worth doing now
    text: str  #: the action in words: "Put the Blue 5 on F12 slot 3"
    reason: str  #: one line: "Blue 5 on F12 (Little tent, pyramid): completes it, +1 point"

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind,
                "action": None if self.action is None else str(self.action),
                "text": self.text, "reason": self.reason}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Hint:
        action = d.get("action")
        return cls(int(d["seat"]), str(d["kind"]), None if action is None else Action.parse(action),
                   str(d["text"]), str(d["reason"]))

    def line(self) -> str:
        """``p0: place d3 F12 s2 — Blue 5 on F12 (Little tent, pyramid): completes it, +1 point``"""
        if self.action is None:
            what = "no action"
        else:
            what = str(replace(self.action, at=None)).removeprefix(f"p{self.action.seat} ")
        return f"p{self.seat}: {what} — {self.reason}"


def hint(state: GameState, planner: TeamPlanner | None = None) -> list[Hint]:
    """One hint per seat that may act now, in seat order; empty when nobody may act (the game is
    over, or the next step is a roll of the dice: see ``nobody_acts``)."""
    decisions = state.to_act()
    if not decisions:
        return []
    return _Hinter(state, planner or TeamPlanner()).hints(decisions)


def nobody_acts(state: GameState) -> str:
    """Why no seat has a decision to make in ``state`` (for a position where ``hint`` is empty)."""
    o = state.outcome
    if o is not None:
        return f"the game is over ({'won' if o.won else 'lost'}: {o.reason.value}); there is nothing to hint"
    if state.is_chance:
        if state.six_pending != EMPTY:
            what = f"p{state.six_pending}'s roll for a 6 is in the air"
        elif state.rethrow:
            what = "the Explosives Instructor's rethrow is in the air"
        elif state.phase is Phase.PENALTY:
            die = state.penalty_die if state.penalty_die != EMPTY else state.unused[0]
            what = f"the unused {die_words(state, die)} is about to be rerolled for the penalty"
        else:
            what = f"the dice for turn {state.turn} are about to be rolled"
        return f"this is a chance step: {what}, and nobody has a decision to make until the dice land"
    return "nobody has a decision to make in this position"


# ====================================================================== wording
_LABEL = re.compile(r"([RBGYK/]+)(\d)(?: as ([RBGYK/]+))?")
_LAYOUTS = {Layout.STACK: "stack", Layout.DOUBLE_STACK: "double stack", Layout.PYRAMID: "pyramid",
            Layout.WALL: "wall", Layout.ZIGGURAT: "ziggurat"}


def _colours(letters: str) -> str:
    return "/".join(NAMES[BY_LETTER[x]] for x in letters.split("/"))


def die_words(state: GameState, die: int) -> str:
    """``Blue 5``, ``Black/yellow 3``, ``Blue 4 as red``: the die as its label shows it now."""
    return _label_words(state.die_label(die))


def _label_words(label: str) -> str:
    m = _LABEL.fullmatch(label)
    if m is None:  # a label this module does not know: still say something true
        return label
    words = f"{_colours(m.group(1)).capitalize()} {m.group(2)}"
    return words + (f" as {_colours(m.group(3))}" if m.group(3) else "")


def card_words(state: GameState, card: str) -> str:
    """``F12 (Little tent, pyramid)``, ``F05 (Valley)``, ``spark S03``: the id, then what it has of a
    name and a layout (a plain row needs no word)."""
    b = state.bomb(card)
    layout = _LAYOUTS.get(b.shape.layout, "")
    if layout and layout in b.name.lower():  # "Staggered stack" says it already
        layout = ""
    extra = [x for x in (b.name, layout) if x]
    head = f"spark {card}" if b.kind == "spark" else card
    return f"{head} ({', '.join(extra)})" if extra else head


def _about(x: float) -> str:
    """Expected dice, rounded: ``about 6 dice``."""
    if x >= HOPELESS:
        return "no way to finish"
    n = max(1, int(x + 0.5)) if x > 0 else 0
    return f"about {n} {'die' if n == 1 else 'dice'}"


def _to_go(after: float, before: float) -> str:
    """``about 6 dice to go, was 9``: how a card's expected work moves."""
    a, b = _about(after), _about(before)
    if after >= HOPELESS:
        return "no way to finish it any more"
    if a == b:
        return f"still {a} to go"
    return f"{a} to go, was {b.removeprefix('about ').split()[0]}"


def _points(n: int) -> str:
    return f"+{n} point{'' if n == 1 else 's'}"


def _dice_list(state: GameState, dice: Sequence[int]) -> str:
    words = [die_words(state, d) for d in dice]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _removal_cause(reason: str) -> str:
    """Why a die must go, from ``GameState.removal_reason``: `` for the penalty (Green 4)``."""
    if reason.startswith("unused die "):
        return f" for the penalty ({_label_words(reason.removeprefix('unused die '))})"
    if reason.startswith("fuse card "):
        return f" to the fuse card ({reason.removeprefix('fuse card ')})"
    return f" ({reason})" if reason else ""


def _seat_card(state: GameState, seat: int, card: str, me: int) -> str:
    return f"your {card_words(state, card)}" if seat == me else f"p{seat}'s {card_words(state, card)}"


# ====================================================================== the hints
class _Hinter:
    """The hints of one position: the plan and the role decision are worked out once."""

    def __init__(self, state: GameState, planner: TeamPlanner) -> None:
        self.s = state
        self.p = planner
        self._plan: Plan | None = None
        self._taken: dict[str, int] = {}  # card -> seat: row cards already hinted to a seat
        self.role: Action | None = None
        self.role_dice: set[int] = set()
        self.role_saves = 0.0  # work the role adds to the team's plan
        # the planner uses the leader's role before anyone places (``TeamPlanner.act``)
        if state.phase is Phase.DISTRIBUTE and state.unplaced():
            self.role = planner.choose_role(state)
        if isinstance(self.role, (Recolour, Renumber, Flip)):
            self.role_dice = {self.role.die}
            # the others are advised on the roll as the role leaves it: their placements of other
            # dice are legal now already (a die's fit depends only on that die and the card)
            trial = state.clone()
            trial.apply(self.role)
            base = planner.plan(state)
            self._plan = planner.plan(trial)
            self.role_saves = self._plan.value - base.value
        elif isinstance(self.role, Rethrow):
            self.role_dice = set(self.role.dice)

    @property
    def plan(self) -> Plan:
        if self._plan is None:
            self._plan = self.p.plan(self.s)
        return self._plan

    def hints(self, decisions: dict[int, Decision]) -> list[Hint]:
        # seats replacing defused cards choose in the engine's pick order, each from what the
        # seats before it leave, so that no two are told to take the same card
        order = [p[0] for p in self.s.picks if p[0] in decisions]
        order += [s for s in sorted(decisions) if s not in order]
        out = {seat: self.one(seat, decisions[seat]) for seat in dict.fromkeys(order)}
        return [out[seat] for seat in sorted(out)]

    def one(self, seat: int, dec: Decision) -> Hint:
        s = self.s
        if dec.kind == "take":
            return self.take(seat, dec)
        if dec.kind == "give_up":
            return self.give_up(seat, dec)
        if dec.kind == "roll_six":
            return Hint(seat, dec.kind, RollSix(seat, s.time_ms), "Roll your die",
                        "Roll your die: everyone must roll a 6 before play goes on")
        if dec.kind == "name":
            return self.name(seat, dec)
        if dec.kind in ("reroll", "return"):
            return self.penalty(seat, dec)
        defuse = next((a for a in s.legal_actions(seat) if isinstance(a, Defuse)), None)
        if defuse is not None:
            return self.defuse(seat, dec, defuse)
        if seat == s.leader and self.role is not None:
            return self.use_role(seat, dec, self.role)
        if dec.kind == "role":
            return Hint(seat, dec.kind, None, "Nothing to do",
                        "Nothing to do: your role would not improve this roll; let the others place")
        return self.distribute(seat, dec)

    # ------------------------------------------------------------------ placing dice
    def distribute(self, seat: int, dec: Decision) -> Hint:
        s = self.s
        moves = [m for m in self.plan.moves if m.action.seat == seat]
        # a die the leader's role is about to change cannot be placed yet: place the others first
        now = [m for m in moves if isinstance(m.action, Place) and m.action.die not in self.role_dice]
        if moves and not now:
            m = max(moves, key=lambda m: (m.completes, m.gain))
            assert isinstance(m.action, Place)
            return self.wait(seat, dec, m.action)
        if now:
            m = max(now, key=lambda m: (m.completes, m.gain))
            a = m.action
            assert isinstance(a, Place)
            return Hint(seat, dec.kind, a, f"Put the {die_words(s, a.die)} on {a.card} slot {a.slot + 1}",
                        self.place_reason(m, a))
        return self.done(seat, dec)

    def place_reason(self, m: Move, a: Place) -> str:
        s = self.s
        die, card = die_words(s, a.die), card_words(s, a.card)
        if m.completes:
            if s.bomb(a.card).kind == "spark":
                return f"{die} on {card}: completes it and clears the spark"
            return f"{die} on {card}: completes it, {_points(s.bomb(a.card).points)}"
        where = f"{die} on {card} slot {a.slot + 1}"
        go = _to_go(m.after, m.before)
        if m.after < m.before:
            slots = sum(1 for x in s.legal_actions(a.seat)
                        if isinstance(x, Place) and x.die == a.die and x.card == a.card)
            why = "leaves the most ways to finish" if slots > 1 else "a step closer"
            return f"{where}: {why} ({go})"
        if s.config.uses_sparks:
            return f"{where}: taking a die spares you a spark card ({go})"
        return f"{where}: better than leaving it to the penalty roll ({go})"

    def done(self, seat: int, dec: Decision) -> Hint:
        s = self.s
        options = [a for a in s.legal_actions(seat) if isinstance(a, Place)]
        if not options:
            why = "no die fits your cards"
        else:
            gains = [(self.gain(a), a) for a in options]
            best_gain, best = max(gains, key=lambda g: (g[0], -g[1].die))
            elsewhere = {m.action.die: m for m in self.plan.moves
                         if isinstance(m.action, Place) and m.action.seat != seat}
            if best_gain <= 0:
                why = "every die that fits would make your cards harder to finish"
            elif best.die in elsewhere:
                other = elsewhere[best.die].action
                assert isinstance(other, Place)
                why = (f"the {die_words(s, best.die)} that fits your cards does more on "
                       f"{_seat_card(s, other.seat, other.card, seat)}")
            else:
                why = "the team does better leaving the dice to the others"
        after = ""
        if s.config.uses_sparks:
            short = max(0, s.quota - s.taken[seat]) if s.hands[seat] else 0
            if short:
                after = f"; you will draw {short} spark card{'' if short == 1 else 's'}"
        elif self.plan.unused:
            left = self.plan.unused
            after = f"; the {_dice_list(s, left)} {'is' if len(left) == 1 else 'are'} left for the penalty"
        return Hint(seat, dec.kind, Done(seat, s.time_ms), "Say done", f"Say done: {why}{after}")

    def gain(self, a: Place) -> float:
        """Work a placement saves on its card (negative: the card gets harder)."""
        s = self.s
        hc = s.hand_card(a.seat, a.card)
        assert hc is not None
        rules = s.card_rules(a.card)
        m = self.p.model(s, a.card)
        nk = hc.key[:a.slot] + (rules.canon[s.die_type(a.die)],) + hc.key[a.slot + 1:]
        return m.draws(hc.key) - m.draws(nk)

    def wait(self, seat: int, dec: Decision, a: Place) -> Hint:
        s = self.s
        return Hint(seat, dec.kind, None, "Wait",
                    f"Wait: p{s.leader} uses the role on the {die_words(s, a.die)} first, then it goes "
                    f"on your {card_words(s, a.card)}")

    # ------------------------------------------------------------------ the leader's role
    def use_role(self, seat: int, dec: Decision, a: Action) -> Hint:
        s = self.s
        if isinstance(a, Rethrow):
            dice = _dice_list(s, a.dice)
            text = f"Rethrow the {dice}"
            why = "no card can use it as it is" if len(a.dice) == 1 else "no card can use them as they are"
            return Hint(seat, dec.kind, a, text, f"{text}: {why}")
        if isinstance(a, Recolour):
            text = f"Recolour the {die_words(s, a.die)} to {_colours(a.colour)}"
        elif isinstance(a, Renumber):
            text = f"Turn the {die_words(s, a.die)} to {a.face}"
        else:
            assert isinstance(a, Flip)
            text = f"Flip the {die_words(s, a.die)} to {s.dice.opposite_face(s.faces[a.die])}"
        saves = _about(self.role_saves)
        use = next((m.action for m in self.plan.moves   # the plan after the role (see __init__)
                    if isinstance(m.action, Place) and m.action.die == a.die), None)
        if isinstance(use, Place):
            why = f"then it goes on {_seat_card(s, use.seat, use.card, seat)} (saves {saves})"
        else:
            why = f"then the roll suits the team's cards better (saves {saves})"
        return Hint(seat, dec.kind, a, text, f"{text}: {why}")

    def defuse(self, seat: int, dec: Decision, a: Defuse) -> Hint:
        s = self.s
        b = s.bomb(a.card)
        text = f"Defuse {a.card}"
        if b.kind == "spark":
            why = "clears the spark"
        else:
            why = f"{_points(b.points)}, and its replacement can take dice this turn"
        return Hint(seat, dec.kind, a, text, f"Defuse {card_words(s, a.card)} now: {why}")

    # ------------------------------------------------------------------ other decisions
    def take(self, seat: int, dec: Decision) -> Hint:
        s = self.s
        options = [str(c) for c in dec.options if c not in self._taken]
        if not options:
            if dec.options:
                return Hint(seat, dec.kind, None, "Wait",
                            "Wait: the others take the cards in the middle; take from the new ones")
            return Hint(seat, dec.kind, None, "Nothing to take", "Nothing to take: the middle is empty")
        view = s
        if self._taken:
            # the middle as this seat will find it: without the cards hinted to the seats before
            view = s.clone()
            view.row = [c for c in s.row if c not in self._taken]
            view.stacks = {lv: [] if st and st[-1] in self._taken else list(st)
                           for lv, st in s.stacks.items()}
        card = self.p.choose_card(view, seat)
        self._taken[card] = seat
        where = "on the stacks" if s.config.setup is Setup.STACKS else "in the row"
        work = {c: self.p.model(s, c).draws(s.card_rules(c).empty) for c in options}
        e, pts = work[card], s.bomb(card).points
        lead = f"Take {card_words(s, card)}"
        if len(options) == 1:
            why = f"the only card left ({_about(e)}, {pts} point{'' if pts == 1 else 's'})"
        elif e <= min(work.values()) + 1e-9:
            why = f"the easiest card {where} ({_about(e)})"
        elif e >= max(work.values()) - 1e-9:
            why = (f"the game is nearly over, so take the hardest and leave the easy ones "
                   f"({_about(e)})")
        else:
            why = f"{_points(pts)} for {_about(e)}, the best trade {where}"
        others = sorted((c, p) for c, p in self._taken.items() if p != seat)
        if others:
            why += "; " + ", ".join(f"{c} goes to p{p}" for c, p in others)
        return Hint(seat, dec.kind, TakeCard(seat, s.time_ms, card), f"Take {card}", f"{lead}: {why}")

    def give_up(self, seat: int, dec: Decision) -> Hint:
        s = self.s
        die = self.p.choose_give_up(s, seat, dec.options)
        hc = next(h for h in s.hands[seat] if die in h.dice)
        m = self.p.model(s, hc.card)
        before = m.draws(hc.key)
        after = m.draws(m.without(hc.key, hc.dice.index(die)))
        text = f"Give up the {die_words(s, die)} from {hc.card}"
        cause = _removal_cause(s.removal_reason)
        return Hint(seat, dec.kind, GiveUp(seat, s.time_ms, die), text,
                    f"{text}{cause}: it costs the least to replace ({_to_go(after, before)})")

    def name(self, seat: int, dec: Decision) -> Hint:
        s = self.s
        value = self.p.choose_name(s, [str(o) for o in dec.options])
        if value in BY_LETTER:
            colour = NAMES[BY_LETTER[value]]
            n = sum(1 for d in s.bag if s.dice.colours[d] & BY_LETTER[value])
            text = f"Name {colour}"
            why = f"the bag holds the most {colour} dice ({n})"
        else:
            text = f"Name {value}"
            why = "every number is as likely to come up as any other"
        return Hint(seat, dec.kind, Name(seat, s.time_ms, value), text, f"{text}: {why}")

    def penalty(self, seat: int, dec: Decision) -> Hint:
        s = self.s
        a = self.p.choose_penalty(s, seat, dec.options)
        assert isinstance(a, (RerollUnused, ReturnFree))
        die = die_words(s, a.die)
        if isinstance(a, ReturnFree):
            text = f"Return the {die} free"
            why = "its penalty roll would likely cost the most"
        else:
            text = f"Reroll the {die} next"
            why = "of the unused dice, its penalty is likely to cost the least"
        return Hint(seat, dec.kind, a, text, f"{text}: {why}")
