"""Countdown's Step 3 (docs/rules.md C.2 Step 3, E.2): complete cards are not defused the moment their
last die goes on, but together once the dice are distributed, the leader's seat first, each bomb's
owner taking a replacement from the row. With 1-2 players a complete card may be defused early, in
the middle of the distribution, so the remaining dice can go on its replacement; if that saves the
ship, the clock stops there and the turn's remaining dice may still be placed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fusegame.rules import defusal, ending, moves
from fusegame.rules.actions import Action, Defuse, TakeCard
from fusegame.rules.decisions import Decision, Legal, Step
from fusegame.rules.errors import NotYourDecision
from fusegame.rules.events import Event
from fusegame.rules.schema import Kind, Part, declared

if TYPE_CHECKING:
    from fusegame.rules.state import GameState


class OptionalMs(Kind):
    """A time in milliseconds, or None."""

    def read(self, raw: Any, where: str, ctx: Any) -> int | None:
        from fusegame.rules.schema import read_int

        return None if raw is None else read_int(raw, where, 0)


@dataclass
class Step3(Part):
    """``clock_stop``: the game time at which the ship was saved mid-turn (E.2), or None."""

    clock_stop: int | None = declared(OptionalMs(), default=None, doc="clock_stop", view="clock_stopped_ms")

    @classmethod
    def absent_message(cls, key: str) -> str:
        return ("the clock stops mid-turn only in a 1-2 player Countdown game once no bomb is left in the "
                "middle and no spark in play")


Part.register(Step3, "step3", shown_when_absent=True)


def early(g: GameState) -> bool:
    """May complete cards be defused before Step 3 (Countdown, 1-2 players)?"""
    return g.step3 is not None and g.players <= 2


def early_defusals(g: GameState, seat: int, at: int) -> list[Action]:
    """The complete cards ``seat`` may defuse now, before Step 3."""
    picked = {p.card for p in g.picks}
    return [Defuse(seat, at, hc.card) for hc in g.hands[seat] if hc.complete and hc.card not in picked]


def check_defuse(g: GameState, a: Action) -> None:
    assert isinstance(a, Defuse)
    if not early(g):
        raise NotYourDecision("defuse_in_step3")
    hc = g.hand_card(a.seat, a.card)
    if hc is None or not hc.complete or any(p.card == a.card for p in g.picks):
        raise NotYourDecision("not_complete_card", {"card": a.card})


def defuse_early(g: GameState, a: Action, ev: list[Event]) -> None:
    assert isinstance(a, Defuse)
    hc = g.hand_card(a.seat, a.card)
    assert hc is not None
    defusal.complete(g, a.seat, hc, ev)


class DefuseStep(Step):
    """Step 3: every complete card is defused, the leader's seat first (C.2); the owners of bombs
    take their replacements."""

    def begin(self, g: GameState, ev: list[Event]) -> None:
        picked = {p.card for p in g.picks}
        for k in range(g.players):
            seat = (g.leader + k) % g.players
            for hc in [h for h in g.hands[seat] if h.complete]:
                if hc.card not in picked:
                    defusal.complete(g, seat, hc, ev)

    def decisions(self, g: GameState) -> dict[int, Decision]:
        options = tuple(defusal.options(g))
        return {s: Decision("take", options) for s in range(g.players) if defusal.owes_pick(g, s)}

    def legal(self, g: GameState, seats: Sequence[int], at: int) -> Legal:
        acts: Legal = []
        for s in seats:
            if defusal.owes_pick(g, s):
                acts += [TakeCard(s, at, c) for c in defusal.options(g)]
        return acts

    def check(self, g: GameState, a: Action) -> None:
        moves.check_after_distribution(g, a)

    def perform(self, g: GameState, a: Action, ev: list[Event]) -> None:
        moves.perform(g, a, ev)

    def run(self, g: GameState, ev: list[Event], chance: bool) -> bool:
        if g.picks:
            return False
        defusal.middle_changed(g, ev)
        if ending.saved(g):  # E.2: the ship is saved; Step 4 is skipped
            ending.win(g, ev)
            return True
        moves.next_step(g, ev)
        return True


STEP = DefuseStep()

__all__ = ["STEP", "DefuseStep", "Step3", "check_defuse", "defuse_early", "early", "early_defusals"]
