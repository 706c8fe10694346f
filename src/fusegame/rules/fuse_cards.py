"""Fuse cards going off (docs/rules.md A.5, C.1.5, C.2.1): a symbol card takes a matching die from every
player; Countdown's text cards make every player draw a spark, lose their role ability until they
defuse a bomb card, or roll a 6 before the game goes on. Each card scores 2 points."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fusegame.cards.model import FuseCard, FuseEffect
from fusegame.constraints import EMPTY
from fusegame.rules import removals, sparks
from fusegame.rules.actions import Action
from fusegame.rules.actions import RollSix as RollSixAction
from fusegame.rules.decisions import Decision, DecisionSpec, Legal, Pending, check_faces, push
from fusegame.rules.errors import NotYourDecision
from fusegame.rules.events import Event
from fusegame.rules.schema import DocContext, Part, ScenarioError, Seat, Seats, declared

if TYPE_CHECKING:
    from fusegame.rules.state import GameState


def activate(g: GameState, card_id: str, ev: list[Event]) -> None:
    """Fuse card ``card_id`` goes off: its effect's handler in ``EFFECTS`` does the rest."""
    f = g.fuse(card_id)
    g.fuses_activated.append(card_id)
    if g.listening:
        shows = f.symbol.split() if f.effect is FuseEffect.SYMBOL else []
        ev.append(Event("fuse_activated", {"card": card_id, "effect": f.effect.value, "shows": shows}))
    EFFECTS[f.effect].handler(g, f, ev)


def _symbol(g: GameState, f: FuseCard, ev: list[Event]) -> None:
    removals.start_all(g, f.matches, removals.Cause.fuse(f.id, f.symbol), ev)


def _spark(g: GameState, f: FuseCard, ev: list[Event]) -> None:
    sparks.queue_draws(g, list(range(g.players)))


def _lose_roles(g: GameState, f: FuseCard, ev: list[Event]) -> None:
    if g.roles is not None:
        g.roles.lose_all(g)


def _roll_six(g: GameState, f: FuseCard, ev: list[Event]) -> None:
    push(g, RollSix(list(range(g.players))))


@dataclass(frozen=True)
class EffectRule:
    """What one fuse effect does when its card goes off, and which pending decision it opens (the
    kind of the queue's item, ``""`` for none), so that a new effect is one row here, its handler,
    and its card data and words. An effect whose decision is a kind of its own declares it
    (``decision``) and its item's place in the queue (``decisions.settle_before``) beside its class."""

    handler: Callable[[GameState, FuseCard, list[Event]], None]
    opens: str
    #: a kind of decision of the effect's own (its pending item's ``Decision.kind``), declared here
    #: for the clients' table (``rules.decision_kinds``); None when the kind is one of the table's
    decision: DecisionSpec | None = None


#: Every fuse effect of the catalogue's cards (docs/rules.md A.5): a test checks none is missing.
EFFECTS: dict[FuseEffect, EffectRule] = {
    FuseEffect.SYMBOL: EffectRule(_symbol, "removals"),
    FuseEffect.SPARK: EffectRule(_spark, "spark_draws"),
    FuseEffect.LOSE_ROLES: EffectRule(_lose_roles, ""),
    FuseEffect.ROLL_SIX: EffectRule(_roll_six, "roll_six"),
}


@dataclass
class RollSix(Pending):
    """"All players must roll a 6 before the game continues": the seats still to roll, and the
    seat whose roll is in the air (a chance node). Everyone else waits (I-10)."""

    seats: list[int] = declared(Seats(), default_factory=list, doc="six", view="must_roll_six")
    rolling: int = declared(Seat(), default=EMPTY, doc="six_pending", view=None)

    def empty(self) -> bool:
        return not self.seats

    def after_doc(self, g: GameState, ctx: DocContext, given: set[str], over: bool) -> None:
        if len(set(self.seats)) != len(self.seats):
            raise ScenarioError("six", "each player rolls for a 6 once")
        if self.rolling != EMPTY and self.rolling not in self.seats:
            raise ScenarioError("six_pending", f"player {self.rolling} is not one of the players still to "
                                               "roll a 6 (six)")

    def merge(self, other: Pending) -> None:
        assert isinstance(other, RollSix)
        self.seats, self.rolling = other.seats, other.rolling

    def chance(self, g: GameState) -> bool:
        return self.rolling != EMPTY

    def decisions(self, g: GameState) -> dict[int, Decision]:
        return {s: Decision("roll_six") for s in self.seats}

    def legal(self, g: GameState, seats: Sequence[int], at: int) -> Legal:
        return [RollSixAction(s, at) for s in seats if s in self.seats]

    def check(self, g: GameState, a: Action) -> None:
        if not isinstance(a, RollSixAction) or a.seat not in self.seats:
            raise NotYourDecision("waiting_for_six", {"seats": list(self.seats)})

    def perform(self, g: GameState, a: Action, ev: list[Event]) -> None:
        self.rolling = a.seat

    def run(self, g: GameState, ev: list[Event], chance: bool) -> bool:
        if self.rolling == EMPTY or not chance:
            return False
        self.roll(g, g.rng.below(6) + 1, ev)
        return True

    def roll(self, g: GameState, face: int, ev: list[Event]) -> None:
        seat, self.rolling = self.rolling, EMPTY
        if g.listening:
            ev.append(Event("six_rolled" if face == 6 else "not_six", {"seat": seat, "face": face}))
        if face == 6:
            self.seats.remove(seat)
            if not self.seats:
                self.finish(g)

    def outcomes(self, g: GameState) -> list[tuple[tuple[int, ...], float]]:
        return [((f,), 1 / 6) for f in range(1, 7)]

    def settle_chance(self, g: GameState, outcome: Any, ev: list[Event]) -> None:
        check_faces(outcome, 1)
        self.roll(g, outcome[0], ev)


Part.register(RollSix, "roll_six", shown_when_absent=True)


__all__ = ["EFFECTS", "EffectRule", "RollSix", "activate"]
