"""Player actions as small frozen values that print and parse back (``Action.parse(str(a)) == a``).

Every action class is registered under its verb (``ACTIONS``), and its fields say how they are
written: one registry serves parsing, printing, the engine's dispatch and the server. Seats are
numbered from 0. ``at`` is the game time in milliseconds since the first roll; the engine reads no
clock, so time enters only here. Text forms::

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

``a.to_data()`` gives the same action as JSON data (``{"verb": "place", "seat": 0, "die": 12,
"card": "F07", "slot": 2, "at": 15200}``, slots 0-based as everywhere in data), and
``Action.from_data`` reads it back.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from typing import Any


class ActionParseError(ValueError):
    pass


@dataclass(frozen=True)
class Arg:
    """How one field of an action is written in its text form."""

    write: Callable[[Any], str]
    read: Callable[[str], Any]  #: raises ValueError for text it does not accept
    many: bool = False  #: takes every remaining word (a list of dice)
    #: what the field names, for clients that number things by position (the RL action table):
    #: ``rolled`` a die of the turn's roll, ``unused`` an untaken die, ``held`` a die on one of the
    #: seat's cards, ``hand`` a card in front of the seat, ``middle`` a card one may take, ``slot``,
    #: ``colour``, ``face``, ``named`` (a colour letter or a number)
    names: str = ""


def _die(text: str) -> int:
    if not text.startswith("d"):
        raise ValueError(text)
    return int(text[1:])


def _slot(text: str) -> int:
    if not text.startswith("s"):
        raise ValueError(text)
    return int(text[1:]) - 1


def _one_of(choices: str) -> Callable[[str], str]:
    def read(text: str) -> str:
        if len(text) != 1 or text not in choices:
            raise ValueError(text)
        return text
    return read


DIE = Arg(lambda v: f"d{v}", _die, names="rolled")  #: a die of the turn's roll
UNUSED_DIE = Arg(lambda v: f"d{v}", _die, names="unused")  #: a die nobody took
HELD_DIE = Arg(lambda v: f"d{v}", _die, names="held")  #: a die on one of the seat's cards
CARD = Arg(str, str, names="hand")  #: a card in front of the seat
MIDDLE_CARD = Arg(str, str, names="middle")  #: a card one may take
SLOT = Arg(lambda v: f"s{v + 1}", _slot, names="slot")
COLOUR = Arg(str, _one_of("RBGYK"), names="colour")
FACE = Arg(str, lambda t: int(_one_of("123456")(t)), names="face")
#: a colour letter or a number, as a Cutter or Engineer names it
NAMED = Arg(str, _one_of("RBGYK123456"), names="named")
DICE = Arg(lambda v: " ".join(f"d{d}" for d in v), lambda t: _die(t), many=True, names="rolled")


def arg(kind: Arg, default: Any) -> Any:
    """A field of an action, written in its text form as ``kind`` says."""
    return field(default=default, metadata={"arg": kind})


#: verb -> action class: the one registry of actions.
ACTIONS: dict[str, type[Action]] = {}
#: action class -> its verb (the registry read the other way)
VERB_OF: dict[type[Action], str] = {}


@dataclass(frozen=True)
class Action:
    seat: int
    at: int | None = None

    @property
    def verb(self) -> str:
        """The word that names this kind of action (``place``, ``take``, ...)."""
        return VERB_OF[type(self)]

    @staticmethod
    def register(cls: type[Action], verb: str) -> None:
        """Name an action class (an explicit call, not a class keyword or a class constant: the
        engine also runs compiled, where a dataclass would take a constant for a field)."""
        ACTIONS[verb] = cls
        VERB_OF[cls] = verb

    @classmethod
    def args(cls) -> tuple[tuple[str, Arg], ...]:
        """The fields written after the verb, in order."""
        out = _ARGS.get(cls)
        if out is None:
            out = _ARGS[cls] = tuple((f.name, f.metadata["arg"]) for f in fields(cls) if "arg" in f.metadata)
        return out

    def _args(self) -> str:
        return " ".join(a.write(getattr(self, name)) for name, a in self.args())

    def body(self) -> str:
        """The verb and its fields, without the seat and the time: what a client sends
        (``place d3 F12 s1``)."""
        args = self._args()
        return f"{self.verb} {args}" if args else self.verb

    def __str__(self) -> str:
        return f"p{self.seat} {self.body()}" + (f" @{self.at}" if self.at is not None else "")

    @staticmethod
    def parse(text: str) -> Action:
        """Parse an action's text form (see the module docstring)."""
        m = _TEXT.fullmatch(text)
        if not m:
            raise ActionParseError(f"cannot read action {text!r}")
        seat = int(m.group(1)) if m.group(1) is not None else -1
        verb, words, at = m.group(2), m.group(3).split(), (int(m.group(4)) if m.group(4) else None)
        cls = ACTIONS.get(verb)
        if cls is None:
            raise ActionParseError(f"cannot read action {text!r}")
        if cls is Tick:
            if seat != -1 or words:
                raise ActionParseError(f"cannot read action {text!r}")
            return Tick(-1, at)
        if seat < 0:
            raise ActionParseError(f"action {text!r} needs a seat (p0, p1, ...)")
        values: dict[str, Any] = {}
        try:
            rest = words
            for name, a in cls.args():
                if a.many:
                    if not rest:
                        raise ValueError("no values")
                    values[name] = tuple(a.read(w) for w in rest)
                    rest = []
                else:
                    if not rest:
                        raise ValueError("too few words")
                    values[name] = a.read(rest[0])
                    rest = rest[1:]
            if rest:
                raise ValueError("too many words")
        except ValueError:
            raise ActionParseError(f"cannot read action {text!r}") from None
        return cls(seat, at, **values)

    def to_json(self) -> str:
        return str(self)

    def to_data(self) -> dict[str, Any]:
        """The action as JSON data: verb, seat, its fields and its time."""
        out: dict[str, Any] = {"verb": self.verb, "seat": self.seat}
        for name, _ in self.args():
            v = getattr(self, name)
            out[name] = list(v) if isinstance(v, tuple) else v
        out["at"] = self.at
        return out

    @staticmethod
    def from_data(data: Any) -> Action:
        """The action ``to_data`` describes; ``ActionParseError`` for anything else."""
        if not isinstance(data, dict) or data.get("verb") not in ACTIONS:
            raise ActionParseError(f"not an action: {data!r}")
        cls = ACTIONS[data["verb"]]
        seat, at = data.get("seat", -1), data.get("at")
        if not isinstance(seat, int) or isinstance(seat, bool) or not (at is None or isinstance(at, int)):
            raise ActionParseError(f"not an action: {data!r}")
        values: dict[str, Any] = {}
        for name, a in cls.args():
            if name not in data:
                raise ActionParseError(f"a {VERB_OF[cls]} action needs {name!r}")
            v = data[name]
            values[name] = tuple(v) if a.many and isinstance(v, list) else v
        action = cls(seat, at, **values)
        try:
            same = Action.parse(str(action)) == action
        except ActionParseError:
            same = False
        if not same:
            raise ActionParseError(f"not an action: {data!r}")
        return action


_ARGS: dict[type[Action], tuple[tuple[str, Arg], ...]] = {}
_TEXT = re.compile(r"\s*(?:p(\d+) )?(\w+)((?: [^@\s]+)*)(?: @(\d+))?\s*")


# Every action writes its own __init__: the one dataclasses writes for a frozen class runs as
# interpreted Python even in the compiled engine, about 1.2 µs for a Place, against about 0.07 µs for
# one written here, which the compiled engine turns into direct field writes (the legal actions of a
# Countdown leader's role hold dozens of actions at every step). A test checks each against the
# dataclass's fields, so both say the same thing. (Action itself keeps the __init__ that dataclasses
# writes: compiled, a class given its __init__ by dataclasses cannot inherit from one that wrote its
# own.)
@dataclass(frozen=True, init=False)
class Place(Action):
    die: int = arg(DIE, -1)
    card: str = arg(CARD, "")
    slot: int = arg(SLOT, -1)

    def __init__(self, seat: int, at: int | None = None, die: int = -1, card: str = "",
                 slot: int = -1) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "at", at)
        object.__setattr__(self, "die", die)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "slot", slot)

    def body(self) -> str:
        # written out: a frame lists every placement open to every seat, and the general
        # writing (one call per field) took most of the time that listing took
        return f"place d{self.die} {self.card} s{self.slot + 1}"


@dataclass(frozen=True, init=False)
class Done(Action):
    def __init__(self, seat: int, at: int | None = None) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "at", at)


@dataclass(frozen=True, init=False)
class TakeCard(Action):
    card: str = arg(MIDDLE_CARD, "")

    def __init__(self, seat: int, at: int | None = None, card: str = "") -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "at", at)
        object.__setattr__(self, "card", card)


@dataclass(frozen=True, init=False)
class RevealFuse(Action):
    def __init__(self, seat: int, at: int | None = None) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "at", at)


@dataclass(frozen=True, init=False)
class GiveUp(Action):
    die: int = arg(HELD_DIE, -1)

    def __init__(self, seat: int, at: int | None = None, die: int = -1) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "at", at)
        object.__setattr__(self, "die", die)


@dataclass(frozen=True, init=False)
class RerollUnused(Action):
    die: int = arg(UNUSED_DIE, -1)

    def __init__(self, seat: int, at: int | None = None, die: int = -1) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "at", at)
        object.__setattr__(self, "die", die)


@dataclass(frozen=True, init=False)
class Defuse(Action):
    """1-2 player Countdown: defuse a complete card before Step 3 (docs/rules.md C.2 Step 3)."""

    card: str = arg(CARD, "")

    def __init__(self, seat: int, at: int | None = None, card: str = "") -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "at", at)
        object.__setattr__(self, "card", card)


@dataclass(frozen=True, init=False)
class RollSix(Action):
    """Roll one's virtual die for the "all players must roll a 6" fuse card."""

    def __init__(self, seat: int, at: int | None = None) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "at", at)


@dataclass(frozen=True, init=False)
class Name(Action):
    """Cutter / Operations Engineer: before the draw, name a colour letter or a number."""

    value: str = arg(NAMED, "")

    def __init__(self, seat: int, at: int | None = None, value: str = "") -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "at", at)
        object.__setattr__(self, "value", value)


@dataclass(frozen=True, init=False)
class Recolour(Action):
    """Give a rolled, unplaced die a temporary colour (it reverts once placed: docs/rules.md D.9)."""

    die: int = arg(DIE, -1)
    colour: str = arg(COLOUR, "")

    def __init__(self, seat: int, at: int | None = None, die: int = -1, colour: str = "") -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "at", at)
        object.__setattr__(self, "die", die)
        object.__setattr__(self, "colour", colour)


@dataclass(frozen=True, init=False)
class Renumber(Action):
    """Turn a rolled, unplaced die to another number (permanent)."""

    die: int = arg(DIE, -1)
    face: int = arg(FACE, 0)

    def __init__(self, seat: int, at: int | None = None, die: int = -1, face: int = 0) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "at", at)
        object.__setattr__(self, "die", die)
        object.__setattr__(self, "face", face)


@dataclass(frozen=True, init=False)
class Flip(Action):
    """Disposal Expert: turn a rolled, unplaced die to its opposite face."""

    die: int = arg(DIE, -1)

    def __init__(self, seat: int, at: int | None = None, die: int = -1) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "at", at)
        object.__setattr__(self, "die", die)


@dataclass(frozen=True, init=False)
class Rethrow(Action):
    """Explosives Instructor: reroll some rolled, unplaced dice (at most three rerolls a turn)."""

    dice: tuple[int, ...] = arg(DICE, ())

    def __init__(self, seat: int, at: int | None = None, dice: tuple[int, ...] = ()) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "at", at)
        object.__setattr__(self, "dice", dice)


@dataclass(frozen=True, init=False)
class ReturnFree(Action):
    """Logistics Specialist with FUSE's reroll penalty: one untaken die goes back with no penalty."""

    die: int = arg(UNUSED_DIE, -1)

    def __init__(self, seat: int, at: int | None = None, die: int = -1) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "at", at)
        object.__setattr__(self, "die", die)


@dataclass(frozen=True, init=False)
class Tick(Action):
    """Time passes (``seat`` is ignored); at or past the time limit the game is lost."""

    def __init__(self, seat: int, at: int | None = None) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "at", at)

    def __str__(self) -> str:
        return f"tick @{self.at}"

    def to_data(self) -> dict[str, Any]:
        return {"verb": self.verb, "seat": -1, "at": self.at}


def with_time(action: Action, at: int | None) -> Action:
    """The same action stamped with another time."""
    return replace(action, at=at)


for _cls, _verb in (
    (Place, "place"), (Done, "done"), (TakeCard, "take"), (RevealFuse, "reveal"), (GiveUp, "give"),
    (RerollUnused, "reroll"), (Defuse, "defuse"), (RollSix, "roll"), (Name, "name"),
    (Recolour, "recolour"), (Renumber, "renumber"), (Flip, "flip"), (Rethrow, "rethrow"),
    (ReturnFree, "return"), (Tick, "tick"),
):
    Action.register(_cls, _verb)


__all__ = [
    "ACTIONS", "Action", "ActionParseError", "Arg", "Defuse", "Done", "Flip", "GiveUp", "Name", "Place",
    "Recolour", "Renumber", "RerollUnused", "Rethrow", "ReturnFree", "RevealFuse", "RollSix", "TakeCard",
    "Tick", "with_time",
]
