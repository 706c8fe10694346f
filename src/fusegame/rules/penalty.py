"""FUSE's penalty for untaken dice (docs/rules.md C.1.7, G-21, G-27): every rolled die nobody took is
rolled again, one at a time, in the order the leader chooses, and every player gives up a die
that shares its colour or shows its number; the rerolled die goes back in the bag. A Logistics
Specialist leading (the Role module) may first send one untaken die back free."""

from __future__ import annotations

from bisect import insort
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from fusegame.constraints import EMPTY
from fusegame.rules import moves, removals
from fusegame.rules.actions import Action, RerollUnused, ReturnFree
from fusegame.rules.decisions import Decision, Legal, Step, check_faces
from fusegame.rules.errors import NotYourDecision
from fusegame.rules.events import Event
from fusegame.rules.games import Phase
from fusegame.rules.schema import Flag, OneDie, Part, ScenarioError, declared
from fusegame.rules.views import die_view

if TYPE_CHECKING:
    from fusegame.rules.state import GameState


@dataclass
class Penalty(Part):
    """The untaken die chosen to be rolled next, and whether the Logistics leader may still
    return one free (which comes before the first penalty roll)."""

    die: int = declared(OneDie(lambda g: g.unused), default=EMPTY, doc="penalty_die", view="penalty_die")
    free_return: bool = declared(Flag(), default=False, doc="free_return", view="free_return")

    @classmethod
    def absent_message(cls, key: str) -> str:
        if key == "free_return":
            return "only in the penalty phase may the Logistics Specialist send an unused die back free"
        return "only the penalty phase has a die about to be rerolled"

    def before_doc(self, g: GameState, doc: Mapping[str, Any], over: bool) -> None:
        if g.phase is not Phase.PENALTY and not over:
            for key in ("free_return", "penalty_die"):
                if doc.get(key):
                    raise ScenarioError(key, self.absent_message(key))

    def on_turn_end(self, g: GameState) -> None:
        self.free_return = False


Part.register(Penalty, "penalty", shown_when_absent=True)


def _part(g: GameState) -> Penalty:
    return cast(Penalty, g.penalty)  # the penalty step exists only in games with this part


def check(g: GameState, a: Action) -> None:
    """The leader chooses the next die to roll, or (Logistics) a die to return free."""
    p = _part(g)
    if isinstance(a, ReturnFree):
        if a.seat != g.leader or not p.free_return:
            raise NotYourDecision("no_free_return")
        if a.die not in g.unused:
            raise NotYourDecision("not_unused_die", {"die_id": a.die})
        return
    if not isinstance(a, RerollUnused) or a.seat != g.leader:
        raise NotYourDecision("leader_rerolls", {"seat": g.leader})
    if a.die not in g.unused:
        raise NotYourDecision("not_unused_die", {"die_id": a.die})


def choose(g: GameState, a: Action, ev: list[Event]) -> None:
    assert isinstance(a, RerollUnused)
    _part(g).die = a.die


def return_free(g: GameState, a: Action, ev: list[Event]) -> None:
    assert isinstance(a, ReturnFree)
    _part(g).free_return = False
    g.unused.remove(a.die)
    insort(g.bag, a.die)
    if g.listening:
        ev.append(Event("die_returned_free", {"seat": a.seat, "die": die_view(g, a.die)}))


def roll(g: GameState, die: int, face: int, ev: list[Event]) -> None:
    """The penalty roll of ``die``: every player gives up a die of its colour or number."""
    p = _part(g)
    g.set_face(die, face)
    g.unused.remove(die)
    p.die = EMPTY
    p.free_return = False  # the free return comes before the first penalty roll
    colours = g.dice.colours[die]
    if g.listening:
        ev.append(Event("penalty_rolled", {"die": die_view(g, die)}))
    removals.start_all(g, lambda c, n: bool(c & colours) or n == face, removals.Cause.penalty(g, die), ev)
    insort(g.bag, die)  # G-21: the rerolled die goes back into the bag


class PenaltyStep(Step):
    """C.1.7: the untaken dice are rerolled one by one; then the bag passes on."""

    def begin(self, g: GameState, ev: list[Event]) -> None:
        _part(g).free_return = bool(g.roles is not None and g.roles.bonus_die and g.unused
                                    and g.taken[g.leader] <= g.quota)

    def chance(self, g: GameState) -> bool:
        return _part(g).die != EMPTY

    def decisions(self, g: GameState) -> dict[int, Decision]:
        kind = "return" if _part(g).free_return else "reroll"
        return {g.leader: Decision(kind, tuple(g.unused))}

    def legal(self, g: GameState, seats: Sequence[int], at: int) -> Legal:
        acts: Legal = []
        if g.leader in seats:
            free_return = _part(g).free_return
            seen: set[int] = set()
            for d in g.unused:
                cs = g.dice.colours[d]
                if cs not in seen:  # dice of one colour set are interchangeable here
                    seen.add(cs)
                    acts.append(RerollUnused(g.leader, at, d))
                    if free_return:
                        acts.append(ReturnFree(g.leader, at, d))
        return acts

    def check(self, g: GameState, a: Action) -> None:
        if not moves.check_common(g, a):
            check(g, a)

    def perform(self, g: GameState, a: Action, ev: list[Event]) -> None:
        moves.perform(g, a, ev)

    def run(self, g: GameState, ev: list[Event], chance: bool) -> bool:
        p = _part(g)
        if p.die == EMPTY:
            if not g.unused:
                moves.end_turn(g, ev)
                return True
            if p.free_return or len({g.dice.colours[d] for d in g.unused}) > 1:
                return False  # the leader chooses the order (or the die to return free)
            p.die = g.unused[0]
        if not chance:
            return False
        roll(g, p.die, g.rng.below(6) + 1, ev)
        return True

    def outcomes(self, g: GameState) -> list[tuple[tuple[int, ...], float]]:
        return [((f,), 1 / 6) for f in range(1, 7)]

    def settle_chance(self, g: GameState, outcome: Any, ev: list[Event]) -> None:
        check_faces(outcome, 1)
        roll(g, _part(g).die, outcome[0], ev)


STEP = PenaltyStep()

__all__ = ["STEP", "Penalty", "PenaltyStep", "check", "choose", "return_free", "roll"]
