"""Giving up dice (docs/rules.md C.3): a fuse card or a penalty roll makes every player return one
matching die from an unfinished card to the bag, if they have one that is not safe; each chooses
which (a player with exactly one such die gives it up at once). The choices are made together,
so they wait in the queue as one ``removals`` item until every player has chosen."""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fusegame.constraints import EMPTY
from fusegame.rules.actions import Action, GiveUp
from fusegame.rules.decisions import Decision, Legal, Pending, push
from fusegame.rules.errors import NotYourDecision
from fusegame.rules.events import Event
from fusegame.rules.schema import DieTuple, Part, Record, SeatMap, declared
from fusegame.rules.views import die_view

if TYPE_CHECKING:
    from fusegame.rules.state import GameState

Matches = Callable[[int, int], bool]  # (colours, face) -> must this die go?


@dataclass(frozen=True)
class Cause:
    """Why dice must be given up, as facts: a fuse card (its id and the symbols it shows), the
    penalty roll of an unused die (the die as it landed), or a spark that could not be drawn."""

    kind: str  #: "fuse", "penalty" or "no_spark"
    card: str = ""  #: fuse: the fuse card
    shows: tuple[str, ...] = ()  #: fuse: its symbols (``R``, ``3``)
    die: int = EMPTY  #: penalty: the die rolled
    colours: str = ""  #: penalty: its colours (``G``, ``K/Y``)
    face: int = 0  #: penalty: the face it landed on

    @classmethod
    def fuse(cls, card: str, shows: str) -> Cause:
        return cls("fuse", card=card, shows=tuple(shows.split()))

    @classmethod
    def penalty(cls, g: GameState, die: int) -> Cause:
        return cls("penalty", die=die, colours=g.colours_of(die), face=g.faces[die])

    def to_json(self) -> dict[str, Any]:
        if self.kind == "fuse":
            return {"kind": "fuse", "card": self.card, "shows": list(self.shows)}
        if self.kind == "penalty":
            return {"kind": "penalty", "die": {"id": None if self.die == EMPTY else self.die,
                                               "die": f"{self.colours}{self.face}", "colours": self.colours,
                                               "face": self.face, "as": None}}
        return {"kind": self.kind}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Cause:
        if d["kind"] == "fuse":
            return cls("fuse", card=str(d.get("card", "")), shows=tuple(d.get("shows", ())))
        if d["kind"] == "penalty":
            die = d["die"]
            return cls("penalty", die=EMPTY if die.get("id") is None else int(die["id"]),
                       colours=str(die["colours"]), face=int(die["face"]))
        return cls(str(d["kind"]))


NO_SPARK = Cause("no_spark")


def eligible(g: GameState, seat: int, matches: Matches) -> tuple[int, ...]:
    """The dice ``seat`` may give up: unsafe, on an unfinished card, and matching."""
    return tuple(g.eligible_dice(seat, matches))


def remove_die(g: GameState, seat: int, die: int, cause: Cause, ev: list[Event]) -> None:
    """Take die ``die`` off ``seat``'s card and put it back in the bag."""
    for hc in g.hands[seat]:
        if die in hc.dice:
            s = hc.dice.index(die)
            if g.listening:
                ev.append(Event("die_returned", {"seat": seat, "die": die_view(g, die), "card": hc.card,
                                                 "slot": s, "cause": cause.to_json()}))
            hc.set_slot(s, EMPTY, EMPTY, ())
            insort(g.bag, die)
            return
    raise AssertionError(f"die {die} is not on seat {seat}'s cards")


def start(g: GameState, matches: Matches, cause: Cause, ev: list[Event],
          seats: Sequence[int] | None = None) -> dict[int, tuple[int, ...]]:
    """C.3: each player returns one matching, unsafe die from an unfinished card, if they can.
    Returns the choices still to be made (seat -> the dice to choose from); the caller queues them."""
    out: dict[int, tuple[int, ...]] = {}
    for seat in range(g.players) if seats is None else seats:
        dice = tuple(g.eligible_dice(seat, matches))
        if len(dice) == 1:
            remove_die(g, seat, dice[0], cause, ev)
        elif dice:
            out[seat] = dice
    return out


def start_all(g: GameState, matches: Matches, cause: Cause, ev: list[Event]) -> None:
    """Every player gives up a matching die; the choices wait in the queue."""
    choices = start(g, matches, cause, ev)
    if choices:
        push(g, Removals(choices, cause))


def give_up_check(seats: dict[int, tuple[int, ...]], a: Action) -> None:
    """Raise unless ``a`` is a legal give-up among ``seats``' choices."""
    if not isinstance(a, GiveUp) or a.seat not in seats:
        raise NotYourDecision("give_up_first", {"seats": sorted(seats)})
    if a.die not in seats[a.seat]:
        raise NotYourDecision("cannot_give_up")


@dataclass
class Removals(Pending):
    """Players who must each give up one of the listed dice, and why."""

    seats: dict[int, tuple[int, ...]] = declared(SeatMap(DieTuple()), default_factory=dict, doc=None,
                                                 view=None)
    cause: Cause = declared(Record(Cause), default=NO_SPARK, doc=None, view="removal_cause")

    def decisions(self, g: GameState) -> dict[int, Decision]:
        return {s: Decision("give_up", dice) for s, dice in sorted(self.seats.items())}

    def legal(self, g: GameState, seats: Sequence[int], at: int) -> Legal:
        return [GiveUp(s, at, d) for s in seats for d in self.seats.get(s, ())]

    def check(self, g: GameState, a: Action) -> None:
        give_up_check(self.seats, a)

    def perform(self, g: GameState, a: Action, ev: list[Event]) -> None:
        assert isinstance(a, GiveUp)
        self.seats.pop(a.seat)
        remove_die(g, a.seat, a.die, self.cause, ev)
        if not self.seats:
            self.finish(g)


Part.register(Removals, "removals")


__all__ = ["Cause", "NO_SPARK", "Removals", "eligible", "remove_die", "start", "start_all"]
