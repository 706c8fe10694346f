"""Player actions as small frozen values that print and parse back (``Action.parse(str(a)) == a``).

Seats are numbered from 0. ``at`` is the game time in milliseconds since the first roll; the
engine reads no clock, so time enters only here. Text forms::

    p0 place d12 F07 s3 @15200     seat 0 puts die 12 on slot 3 (1-based) of card F07
    p1 done @20000                 seat 1 takes no (more) dice this turn
    p2 take F33                    seat 2 takes row card F33 (or a stack's top card) after a defusal
    p2 reveal                      stacks setup: reveal and activate a fuse card before taking
    p0 give d4                     seat 0 gives up die 4 to a penalty or fuse card
    p3 reroll d9                   the leader picks the next unused die to roll as a penalty
    tick @61000                    time passes

Countdown (and the FUSE modules) add::

    p0 defuse C12                  1-2 players: defuse a complete card now, before Step 3
    p1 roll                        "all players must roll a 6": roll your virtual die
    p0 name R    /  p0 name 5      Cutter / Operations Engineer: name a colour / number before the draw
    p0 recolour d12 B              change a rolled die's colour until it is placed
    p0 renumber d12 5              turn a rolled die to another number
    p0 flip d12                    Disposal Expert: turn a rolled die to its opposite face
    p0 rethrow d3 d7               Explosives Instructor: reroll these rolled dice
    p0 return d9                   Logistics Specialist (FUSE penalties): an untaken die goes back free
"""

from __future__ import annotations

import re
from dataclasses import dataclass


class ActionParseError(ValueError):
    pass


@dataclass(frozen=True)
class Action:
    seat: int
    at: int | None = None

    verb = ""

    def _args(self) -> str:
        return ""

    def __str__(self) -> str:
        args = self._args()
        return f"p{self.seat} {self.verb}" + (f" {args}" if args else "") + (
            f" @{self.at}" if self.at is not None else "")

    @staticmethod
    def parse(text: str) -> Action:
        """Parse an action's text form (see the module docstring)."""
        m = re.fullmatch(r"\s*(?:p(\d+) )?(\w+)((?: [^@\s]+)*)(?: @(\d+))?\s*", text)
        if not m:
            raise ActionParseError(f"cannot read action {text!r}")
        seat = int(m.group(1)) if m.group(1) is not None else -1
        verb, args, at = m.group(2), m.group(3).split(), (int(m.group(4)) if m.group(4) else None)
        try:
            if verb == "tick" and seat == -1 and not args:
                return Tick(-1, at)
            if seat < 0:
                raise ActionParseError(f"action {text!r} needs a seat (p0, p1, ...)")
            if verb == "place" and len(args) == 3 and args[0][0] == "d" and args[2][0] == "s":
                return Place(seat, at, int(args[0][1:]), args[1], int(args[2][1:]) - 1)
            if verb == "done" and not args:
                return Done(seat, at)
            if verb == "take" and len(args) == 1:
                return TakeCard(seat, at, args[0])
            if verb == "reveal" and not args:
                return RevealFuse(seat, at)
            if verb == "give" and len(args) == 1 and args[0][0] == "d":
                return GiveUp(seat, at, int(args[0][1:]))
            if verb == "reroll" and len(args) == 1 and args[0][0] == "d":
                return RerollUnused(seat, at, int(args[0][1:]))
            if verb == "defuse" and len(args) == 1:
                return Defuse(seat, at, args[0])
            if verb == "roll" and not args:
                return RollSix(seat, at)
            if verb == "name" and len(args) == 1 and args[0] in ("R", "B", "G", "Y", "K", "1", "2", "3",
                                                                 "4", "5", "6"):
                return Name(seat, at, args[0])
            if verb == "recolour" and len(args) == 2 and args[0][0] == "d" and args[1] in "RBGYK" \
                    and len(args[1]) == 1:
                return Recolour(seat, at, int(args[0][1:]), args[1])
            if verb == "renumber" and len(args) == 2 and args[0][0] == "d" and args[1] in "123456" \
                    and len(args[1]) == 1:
                return Renumber(seat, at, int(args[0][1:]), int(args[1]))
            if verb == "flip" and len(args) == 1 and args[0][0] == "d":
                return Flip(seat, at, int(args[0][1:]))
            if verb == "rethrow" and args and all(x[0] == "d" for x in args):
                return Rethrow(seat, at, tuple(int(x[1:]) for x in args))
            if verb == "return" and len(args) == 1 and args[0][0] == "d":
                return ReturnFree(seat, at, int(args[0][1:]))
        except ValueError:
            pass
        raise ActionParseError(f"cannot read action {text!r}")

    def to_json(self) -> str:
        return str(self)


@dataclass(frozen=True)
class Place(Action):
    die: int = -1
    card: str = ""
    slot: int = -1
    verb = "place"

    def _args(self) -> str:
        return f"d{self.die} {self.card} s{self.slot + 1}"


@dataclass(frozen=True)
class Done(Action):
    verb = "done"


@dataclass(frozen=True)
class TakeCard(Action):
    card: str = ""
    verb = "take"

    def _args(self) -> str:
        return self.card


@dataclass(frozen=True)
class RevealFuse(Action):
    verb = "reveal"


@dataclass(frozen=True)
class GiveUp(Action):
    die: int = -1
    verb = "give"

    def _args(self) -> str:
        return f"d{self.die}"


@dataclass(frozen=True)
class RerollUnused(Action):
    die: int = -1
    verb = "reroll"

    def _args(self) -> str:
        return f"d{self.die}"


@dataclass(frozen=True)
class Defuse(Action):
    """1-2 player Countdown: defuse a complete card before Step 3 (RULES.md C.2 Step 3)."""

    card: str = ""
    verb = "defuse"

    def _args(self) -> str:
        return self.card


@dataclass(frozen=True)
class RollSix(Action):
    """Roll one's virtual die for the "all players must roll a 6" fuse card."""

    verb = "roll"


@dataclass(frozen=True)
class Name(Action):
    """Cutter / Operations Engineer: before the draw, name a colour letter or a number."""

    value: str = ""
    verb = "name"

    def _args(self) -> str:
        return self.value


@dataclass(frozen=True)
class Recolour(Action):
    """Give a rolled, unplaced die a temporary colour (it reverts once placed: RULES.md D.9)."""

    die: int = -1
    colour: str = ""
    verb = "recolour"

    def _args(self) -> str:
        return f"d{self.die} {self.colour}"


@dataclass(frozen=True)
class Renumber(Action):
    """Turn a rolled, unplaced die to another number (permanent)."""

    die: int = -1
    face: int = 0
    verb = "renumber"

    def _args(self) -> str:
        return f"d{self.die} {self.face}"


@dataclass(frozen=True)
class Flip(Action):
    """Disposal Expert: turn a rolled, unplaced die to its opposite face."""

    die: int = -1
    verb = "flip"

    def _args(self) -> str:
        return f"d{self.die}"


@dataclass(frozen=True)
class Rethrow(Action):
    """Explosives Instructor: reroll some rolled, unplaced dice (at most three rerolls a turn)."""

    dice: tuple[int, ...] = ()
    verb = "rethrow"

    def _args(self) -> str:
        return " ".join(f"d{d}" for d in self.dice)


@dataclass(frozen=True)
class ReturnFree(Action):
    """Logistics Specialist with FUSE's reroll penalty: one untaken die goes back with no penalty."""

    die: int = -1
    verb = "return"

    def _args(self) -> str:
        return f"d{self.die}"


@dataclass(frozen=True)
class Tick(Action):
    """Time passes (``seat`` is ignored); at or past the time limit the game is lost."""

    verb = "tick"

    def __str__(self) -> str:
        return f"tick @{self.at}"


def with_time(action: Action, at: int | None) -> Action:
    """The same action stamped with another time."""
    from dataclasses import replace

    return replace(action, at=at)
