"""Hints: the team planner's advice for every seat that may act now, as facts and in words.

``hint(state)`` gives one ``Hint`` per seat in ``state.to_act()``: the engine action the team
planner (``bots.team``, weighed as the bots in play) recommends for that seat and the
``advice``, the facts behind it as JSON data (which die, which card, how much work is left; docs
in ``Hint``). The words are made from the advice at the edge (``fusegame.words``, in English and
Spanish); ``Hint.text`` and ``Hint.reason`` are the English ones, the way a teammate would put
it::

    p0: place d6 CHAIN s3 — Blue 5 on CHAIN: completes it, +2 points
    p1: place d21 F05 s3 — Black 3 on F05 (Valley): completes it, +1 point

Work is in the planner's currency: the dice a card is still expected to need (``bots.value``),
rounded as a person would say it (``null``: no way to finish).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from fusegame.bots.team import PLAY_WEIGHTS, Move, Plan, TeamPlanner, card_size
from fusegame.bots.value import HOPELESS
from fusegame.cards.model import Layout
from fusegame.cards.words import card_title
from fusegame.constraints import EMPTY
from fusegame.dice import BY_LETTER
from fusegame.observe import removal_cause
from fusegame.rules.actions import (
    Action,
    Defuse,
    Done,
    GiveUp,
    Name,
    Place,
    Recolour,
    RerollUnused,
    ReturnFree,
    RollSix,
    TakeCard,
    with_time,
)
from fusegame.rules.config import Setup
from fusegame.rules.decision_kinds import answer_declared, complete
from fusegame.rules.fuse_cards import RollSix as RollSixPending
from fusegame.rules.roles import Rerolling
from fusegame.rules.state import Decision, GameState, Phase
from fusegame.rules.views import die_view
from fusegame.words import die_words as _die_fact_words
from fusegame.words import hint_reason, hint_text

__all__ = ["Hint", "hint", "nobody_acts"]

Advice = dict[str, Any]


@dataclass(frozen=True)
class Hint:
    """The recommended move of one seat.

    ``advice`` is what the player is told, as JSON facts: a ``kind`` (``place``, ``done``,
    ``wait_for_role``, ``role``, ``no_role_gain``, ``defuse``, ``take``, ``wait_to_take``,
    ``nothing_to_take``, ``give_up``, ``name``, ``reroll``, ``return_free``, ``roll_six``) and the
    dice (die views), cards (``card_fact``), seats and work (``work``) behind it.
    ``fusegame.words.hint_text`` and ``hint_reason`` say it in English or Spanish.
    """

    seat: int
    kind: str  #: the decision it answers (``Decision.kind``: distribute, take, give_up, ...)
    action: Action | None  #: None: nothing worth doing now
    advice: Advice  #: ``{"kind": "place", "die": {...}, "card": {...}, "slot": 2, "why": {...}}``

    @property
    def text(self) -> str:
        """The action in English words: ``Put the Blue 5 on F12 slot 3``."""
        return hint_text(self.advice, seat=self.seat)

    @property
    def reason(self) -> str:
        """One line of English: ``Blue 5 on F12 (Little tent, pyramid): completes it, +1 point``."""
        return hint_reason(self.advice, seat=self.seat)

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind,
                "action": None if self.action is None else str(self.action),
                "act": None if self.action is None else self.action.to_data(),
                "advice": copy.deepcopy(self.advice), "text": self.text, "reason": self.reason}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Hint:
        act, text = d.get("act"), d.get("action")
        action = Action.from_data(act) if act is not None else None if text is None else Action.parse(text)
        return cls(int(d["seat"]), str(d["kind"]), action, copy.deepcopy(dict(d["advice"])))

    def line(self) -> str:
        """``p0: place d3 F12 s2 — Blue 5 on F12 (Little tent, pyramid): completes it, +1 point``"""
        if self.action is None:
            what = "no action"
        else:
            what = str(replace(self.action, at=None)).removeprefix(f"p{self.action.seat} ")
        return f"p{self.seat}: {what} — {self.reason}"


def hint(state: GameState, planner: TeamPlanner | None = None) -> list[Hint]:
    """One hint per seat that may act now, in seat order; empty when nobody may act (the game is
    over, or the next step is a roll of the dice: see ``nobody_acts``). ``planner`` defaults to
    the one the bots in play use (``PLAY_WEIGHTS``); pass the same one across calls to keep its
    tables."""
    decisions = state.to_act()
    if not decisions:
        return []
    return _Hinter(state, planner or TeamPlanner(PLAY_WEIGHTS)).hints(decisions)


def nobody_acts(state: GameState) -> str:
    """Why no seat has a decision to make in ``state`` (for a position where ``hint`` is empty)."""
    o = state.outcome
    if o is not None:
        return f"the game is over ({'won' if o.won else 'lost'}: {o.reason.value}); there is nothing to hint"
    if state.is_chance:
        head = state.head()
        if isinstance(head, RollSixPending):
            what = f"p{head.rolling}'s roll for a 6 is in the air"
        elif isinstance(head, Rerolling):
            what = "the Explosives Instructor's rethrow is in the air"
        elif state.phase is Phase.PENALTY:
            assert state.penalty is not None
            die = state.penalty.die if state.penalty.die != EMPTY else state.unused[0]
            what = f"the unused {die_words(state, die)} is about to be rerolled for the penalty"
        else:
            what = f"the dice for turn {state.turn} are about to be rolled"
        return f"this is a chance step: {what}, and nobody has a decision to make until the dice land"
    return "nobody has a decision to make in this position"


# ====================================================================== facts
_LAYOUTS = {Layout.STACK: "stack", Layout.DOUBLE_STACK: "double stack", Layout.PYRAMID: "pyramid",
            Layout.WALL: "wall", Layout.ZIGGURAT: "ziggurat"}


def die_words(state: GameState, die: int) -> str:
    """``Blue 5``, ``Black/yellow 3``, ``Blue 4 as red``: the die as it lies now, in English."""
    return _die_fact_words(die_view(state, die))


def card_fact(state: GameState, card: str) -> dict[str, Any]:
    """``{"id": "F12", "name": "Little tent", "name_es": "Tienda pequeña", "layout": "pyramid",
    "kind": "bomb", "points": 2}`` (layout ``""`` for a plain row; a card with no name has none in
    either language)."""
    b = state.bomb(card)
    name_es = (b.name_es or card_title(b, "es")) if b.name else ""
    return {"id": card, "name": b.name or "", "name_es": name_es, "layout": _LAYOUTS.get(b.shape.layout, ""),
            "kind": b.kind, "points": b.points}


def work(x: float) -> int | None:
    """Expected dice, rounded as a person would say it; None: no way to finish."""
    if x >= HOPELESS:
        return None
    return max(1, int(x + 0.5)) if x > 0 else 0


def to_go(after: float, before: float) -> dict[str, int | None]:
    """How a card's expected work moves: ``{"after": 6, "before": 9}``."""
    return {"after": work(after), "before": work(before)}


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
        # an ability changes one die (it has a ``die``) or rerolls several (``dice``)
        one = getattr(self.role, "die", None)
        if self.role is not None and isinstance(one, int):
            self.role_dice = {one}
            # the others are advised on the roll as the role leaves it: their placements of other
            # dice are legal now already (a die's fit depends only on that die and the card)
            trial = state.clone()
            trial.apply(self.role)
            base = planner.plan(state)
            self._plan = planner.plan(trial)
            self.role_saves = self._plan.value - base.value
        elif self.role is not None:
            self.role_dice = set(getattr(self.role, "dice", ()))

    @property
    def plan(self) -> Plan:
        if self._plan is None:
            self._plan = self.p.plan(self.s)
        return self._plan

    def die(self, die: int) -> dict[str, Any]:
        return die_view(self.s, die)

    def card(self, card: str) -> dict[str, Any]:
        return card_fact(self.s, card)

    def hints(self, decisions: dict[int, Decision]) -> list[Hint]:
        # seats replacing defused cards choose in the engine's pick order, each from what the
        # seats before it leave, so that no two are told to take the same card
        order = [p.seat for p in self.s.picks if p.seat in decisions]
        order += [s for s in sorted(decisions) if s not in order]
        out = {seat: self.one(seat, decisions[seat]) for seat in dict.fromkeys(order)}
        return [out[seat] for seat in sorted(out)]

    def one(self, seat: int, dec: Decision) -> Hint:
        handler = _HINTS.get(dec.kind)
        return handler(self, seat, dec) if handler is not None else self.declared(seat, dec)

    def declared(self, seat: int, dec: Decision) -> Hint:
        """A kind the rules declare where they give it: its default answer, said as the action."""
        a = answer_declared(self.s, seat, dec.kind)
        assert a is not None, f"{dec.kind} asks seat {seat} but gives it no action"
        advice: Advice = {"kind": "act", "action": a.to_data()}
        for key in ("die", "dice"):
            v = getattr(a, key, None)
            if isinstance(v, int):
                advice["die"] = self.die(v)
            elif isinstance(v, tuple):
                advice["dice"] = [self.die(d) for d in v]
        return Hint(seat, dec.kind, a, advice)

    def roll_six(self, seat: int, dec: Decision) -> Hint:
        return Hint(seat, dec.kind, RollSix(seat, self.s.time_ms), {"kind": "roll_six"})

    def turn(self, seat: int, dec: Decision) -> Hint:
        """Placing dice, or the leader's role: an early defusal first, then the role, then the plan."""
        s = self.s
        defuse = next((a for a in s.legal_actions(seat) if isinstance(a, Defuse)), None)
        if defuse is not None:
            return Hint(seat, dec.kind, defuse, {"kind": "defuse", "card": self.card(defuse.card)})
        if seat == s.leader and self.role is not None:
            return self.use_role(seat, dec, self.role)
        if dec.kind == "role":
            return Hint(seat, dec.kind, None, {"kind": "no_role_gain"})
        return self.distribute(seat, dec)

    # ------------------------------------------------------------------ placing dice
    def distribute(self, seat: int, dec: Decision) -> Hint:
        moves = [m for m in self.plan.moves if m.action.seat == seat]
        # a die the leader's role is about to change cannot be placed yet: place the others first
        now = [m for m in moves if isinstance(m.action, Place) and m.action.die not in self.role_dice]
        if moves and not now:
            m = max(moves, key=lambda m: (m.completes, m.gain))
            w = m.action
            assert isinstance(w, Place)
            return Hint(seat, dec.kind, None, {"kind": "wait_for_role", "leader": self.s.leader,
                                               "die": self.die(w.die), "card": self.card(w.card)})
        if now:
            m = max(now, key=lambda m: (m.completes, m.gain))
            a = m.action
            assert isinstance(a, Place)
            return Hint(seat, dec.kind, a, {"kind": "place", "die": self.die(a.die),
                                            "card": self.card(a.card), "slot": a.slot,
                                            "why": self.place_why(m, a)})
        return self.done(seat, dec)

    def place_why(self, m: Move, a: Place) -> Advice:
        s = self.s
        if m.completes:
            b = s.bomb(a.card)
            if b.kind == "spark":
                return {"kind": "clears_spark"}
            done = sum(1 for x in self.plan.moves if x.completes and isinstance(x.action, Place)
                       and s.bomb(x.action.card).kind != "spark")
            left = self.p.bombs_to_win(s)
            if 0 < left <= done:
                # the roll's completions take the last bombs from the middle
                return {"kind": "wins", "points": b.points, "left": left}
            return {"kind": "completes", "points": b.points}
        go = to_go(m.after, m.before)
        ahead = self.ahead(a)
        if ahead is not None:
            return {"kind": "next_roll", "to_go": go, **ahead}
        if m.after < m.before:
            spare = self.spare(a)
            if spare is not None:
                return {"kind": "focus", "to_go": go, "spare": self.card(spare), "left": self.p.bombs_left(s)}
            slots = sum(1 for x in s.legal_actions(a.seat)
                        if isinstance(x, Place) and x.die == a.die and x.card == a.card)
            return {"kind": "closer", "most_ways": slots > 1, "to_go": go}
        if s.config.uses_sparks:
            return {"kind": "spares_spark", "to_go": go}
        return {"kind": "beats_penalty", "to_go": go}

    def ahead(self, a: Place) -> Advice | None:
        """Where the next rolls changed this seat's placement (``Weights.look_rolls``): what the
        roll alone would have had the seat do, and how much more work the team's next roll is
        expected to do this way, in tenths of a die."""
        alone = self.plan.alone
        if alone is None:
            return None
        mine = next((m.action for m in alone if m.action.seat == a.seat), None)
        if isinstance(mine, Place) and (mine.die, mine.card, mine.slot) == (a.die, a.card, a.slot):
            return None
        instead = None
        if isinstance(mine, Place):
            instead = {"die": self.die(mine.die), "card": self.card(mine.card)}
        return {"instead": instead, "ahead_tenths": max(1, round(self.plan.ahead * 10))}

    def spare(self, a: Place) -> str | None:
        """A card of the same seat that this die also fits but that will likely never need
        finishing (few bombs are left in the middle), when the die goes to one that will."""
        duds = self.p.likely_duds(self.s)
        if not duds or (a.seat, a.card) in duds:
            return None
        fits = {x.card for x in self.s.legal_actions(a.seat) if isinstance(x, Place) and x.die == a.die}
        return next((hc.card for hc in self.s.hands[a.seat]
                     if (a.seat, hc.card) in duds and hc.card in fits), None)

    def done(self, seat: int, dec: Decision) -> Hint:
        s = self.s
        options = [a for a in s.legal_actions(seat) if isinstance(a, Place)]
        why: Advice
        if not options:
            why = {"kind": "no_fit"}
        else:
            gains = [(self.gain(a), a) for a in options]
            best_gain, best = max(gains, key=lambda g: (g[0], -g[1].die))
            elsewhere = {m.action.die: m for m in self.plan.moves
                         if isinstance(m.action, Place) and m.action.seat != seat}
            if best_gain <= 0:
                why = {"kind": "harder"}
            elif best.die in elsewhere:
                other = elsewhere[best.die].action
                assert isinstance(other, Place)
                why = {"kind": "better_elsewhere", "die": self.die(best.die), "seat": other.seat,
                       "card": self.card(other.card)}
            else:
                why = {"kind": "team"}
        then: Advice | None = None
        if s.config.uses_sparks:
            short = max(0, s.quota - s.taken[seat]) if s.hands[seat] else 0
            if short:
                then = {"kind": "sparks", "count": short}
        elif self.plan.unused:
            # what the dice left cost, in the planner's own measure, once the plan's dice are on
            # the cards (the penalty comes after them and may take them too): a die whose penalty
            # can knock nothing off is left free, and the player should hear so. The planner that
            # weighed it so says what it found, every die of the plan on its card; for another,
            # the cost is worked out on the position after the plan's first placements
            if set(self.plan.penalty) == set(self.plan.unused):
                cost = sum(self.plan.penalty[d] for d in self.plan.unused)
            else:
                after = self.after_plan()
                cost = sum(self.p.penalty_cost(after, d) for d in self.plan.unused)
            # "costs nothing" only where nothing can be lost: a small cost stays at least a tenth
            tenths = 0 if cost <= 0 else max(1, round(cost * 10))
            then = {"kind": "penalty", "dice": [self.die(d) for d in self.plan.unused],
                    "cost_tenths": tenths}
        return Hint(seat, dec.kind, Done(seat, s.time_ms), {"kind": "done", "why": why, "then": then})

    def after_plan(self) -> GameState:
        """The position once the plan's placements are made (as far as they stay legal)."""
        g = self.s.clone()
        for m in self.plan.moves:
            a = m.action
            if not isinstance(a, Place) or g.is_over:
                continue
            placed = with_time(a, g.time_ms)
            if placed in g.legal_actions(a.seat):
                g.apply_unchecked(placed)
        return g

    def gain(self, a: Place) -> float:
        """Work a placement saves on its card (negative: the card gets harder)."""
        s = self.s
        hc = s.hand_card(a.seat, a.card)
        assert hc is not None
        rules = s.card_rules(a.card)
        m = self.p.model(s, a.card)
        nk = hc.key[:a.slot] + (rules.canon[s.die_type(a.die)],) + hc.key[a.slot + 1:]
        return m.draws(hc.key) - m.draws(nk)

    # ------------------------------------------------------------------ the leader's role
    def use_role(self, seat: int, dec: Decision, a: Action) -> Hint:
        s = self.s
        die = getattr(a, "die", None)
        if not isinstance(die, int):  # an ability over several dice: say which
            return Hint(seat, dec.kind, a, {"kind": "role", "role": a.verb,
                                            "dice": [self.die(d) for d in getattr(a, "dice", ())]})
        advice: Advice
        if isinstance(a, Recolour):
            advice = {"kind": "role", "role": "recolour", "die": self.die(a.die), "colour": a.colour}
        else:
            # an ability that turns one die (Renumber, Flip, ...): the face it will show
            trial = s.clone()
            trial.apply_unchecked(a)
            advice = {"kind": "role", "role": a.verb, "die": self.die(die), "face": trial.faces[die]}
        use = next((m.action for m in self.plan.moves   # the plan after the role (see __init__)
                    if isinstance(m.action, Place) and m.action.die == die), None)
        advice["then"] = ({"seat": use.seat, "card": self.card(use.card)} if isinstance(use, Place)
                          else None)
        advice["saves"] = work(self.role_saves)
        return Hint(seat, dec.kind, a, advice)

    # ------------------------------------------------------------------ other decisions
    def take(self, seat: int, dec: Decision) -> Hint:
        s = self.s
        options = [str(c) for c in dec.options if c not in self._taken]
        if not options:
            if dec.options:
                return Hint(seat, dec.kind, None, {"kind": "wait_to_take"})
            return Hint(seat, dec.kind, None, {"kind": "nothing_to_take"})
        view = s
        if self._taken:
            # the middle as this seat will find it: without the cards hinted to the seats before
            view = s.clone()
            view.row = [c for c in s.row if c not in self._taken]
            if view.stacks is not None:
                view.stacks.piles = {lv: [] if st and st[-1] in self._taken else list(st)
                                     for lv, st in view.stacks.piles.items()}
        ahead = self.p.take_ahead(view, seat)
        card = self.p.choose_card(view, seat, ahead=ahead)
        plain = self.p.choose_card(view, seat, look=False) if ahead else card
        self._taken[card] = seat
        where = "stacks" if s.config.setup is Setup.STACKS else "row"
        costs = {c: self.p.model(s, c).draws(s.card_rules(c).empty) for c in options}
        e = costs[card]
        why: Advice
        if len(options) == 1:
            why = {"kind": "only", "work": work(e)}
        elif s.config.difficulty.top and self.p.takes_hardest(view):
            why = {"kind": "hardest_first", "where": where, "work": work(e)}
        elif self.p.late_in_game(view):
            why = {"kind": "hardest_late", "work": work(e)}
        elif plain != card and ahead[card] - ahead[plain] >= 0.05:
            # the next roll changed the card: say what it would have been, and what it gains
            why = {"kind": "next_roll", "where": where, "work": work(e), "instead": self.card(plain),
                   "ahead_tenths": max(1, round((ahead[card] - ahead[plain]) * 10))}
        elif e <= min(costs.values()) + 1e-9:
            why = {"kind": "easiest", "where": where, "work": work(e)}
        elif (self.p.w.take_size > 0 and not s.config.difficulty.top
              and card_size(s, card) <= min(card_size(s, c) for c in options)):
            why = {"kind": "smallest", "where": where, "work": work(e)}
        else:
            why = {"kind": "best_trade", "where": where, "work": work(e)}
        others = [{"card": self.card(c), "seat": p} for c, p in sorted(self._taken.items()) if p != seat]
        return Hint(seat, dec.kind, TakeCard(seat, s.time_ms, card),
                    {"kind": "take", "card": self.card(card), "why": why, "others": others})

    def give_up(self, seat: int, dec: Decision) -> Hint:
        s = self.s
        die = self.p.choose_give_up(s, seat, dec.options)
        hc = next(h for h in s.hands[seat] if die in h.dice)
        m = self.p.model(s, hc.card)
        before = m.draws(hc.key)
        after = m.draws(m.without(hc.key, hc.dice.index(die)))
        return Hint(seat, dec.kind, GiveUp(seat, s.time_ms, die),
                    {"kind": "give_up", "die": self.die(die), "card": self.card(hc.card),
                     "cause": removal_cause(s), "to_go": to_go(after, before)})

    def name(self, seat: int, dec: Decision) -> Hint:
        s = self.s
        value = self.p.choose_name(s, [str(o) for o in dec.options])
        in_bag = (sum(1 for d in s.bag if s.dice.colours[d] & BY_LETTER[value]) if value in BY_LETTER
                  else None)
        return Hint(seat, dec.kind, Name(seat, s.time_ms, value),
                    {"kind": "name", "value": value, "in_bag": in_bag})

    def penalty(self, seat: int, dec: Decision) -> Hint:
        a = self.p.choose_penalty(self.s, seat, dec.options)
        assert isinstance(a, (RerollUnused, ReturnFree))
        kind = "return_free" if isinstance(a, ReturnFree) else "reroll"
        return Hint(seat, dec.kind, a, {"kind": kind, "die": self.die(a.die)})


#: decision kind -> the hint for it (``rules.decision_kinds``: one per kind)
_HINTS: dict[str, Callable[[_Hinter, int, Decision], Hint]] = complete({
    "distribute": _Hinter.turn, "take": _Hinter.take, "give_up": _Hinter.give_up,
    "reroll": _Hinter.penalty, "name": _Hinter.name, "roll_six": _Hinter.roll_six,
    "role": _Hinter.turn, "return": _Hinter.penalty,
}, "bots.hints")
