"""One declaration per piece of state: the fields of every rule component, and how each is kept.

A rule component (``Part``) or a pending decision (``rules.decisions.Pending``) is a dataclass
whose fields are declared with ``declared(kind, ...)``. The *kind* says how values are copied,
written as JSON, read from and written to scenario documents and shown in a player's view; the
declaration also names the field's key in scenario documents (``doc``) and in views (``view``).
Cloning, the JSON round trip, the scenario reader and writer and the observation are all derived
from these declarations, so adding a field to a part changes one place::

    @dataclass
    class Tally(Part):
        count: int = declared(Count(), default=0, doc="tally", view="tally")

    Part.register(Tally, "tally")

Scenario documents refer to dice by their label (``Y5@17``) and to cards by id, so reading and
writing go through a ``DocContext`` that the scenario module provides; the kinds here only say
what to ask it for.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from mypy_extensions import mypyc_attr

from fusegame.constraints import EMPTY
from fusegame.dice import colours_text, parse_colours

if TYPE_CHECKING:
    from fusegame.rules.state import GameState

T = TypeVar("T")
P = TypeVar("P", bound="Part")


class ScenarioError(ValueError):
    """A scenario document that does not describe a valid position.

    ``where`` is the field (``players[1].cards[0].dice[2]``), ``message`` what is wrong with it.
    """

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where
        self.message = message


class DocContext(Protocol):
    """What a kind needs from the scenario reader or writer (``fusegame.scenario`` provides it)."""

    @property
    def state(self) -> GameState:
        """The state being built (from stage 2) or written."""
        ...

    @property
    def data(self) -> Mapping[str, Any]:
        """The document being read."""
        ...

    @property
    def players(self) -> int:
        ...

    @property
    def player_entries(self) -> Sequence[Mapping[str, Any]]:
        """Each player's entry of the document."""
        ...

    def die_on(self, value: Any, where: str, among: Sequence[int]) -> int:
        """The die ``value`` (``Y5``, ``Y5@17``) names among the die ids ``among``."""
        ...

    def die_text(self, die: int) -> str:
        """``Y5@17``: die ``die`` as a document writes it."""
        ...

    def card_ids(self, value: Any, where: str, accept: tuple[str, ...], placed: bool = True) -> list[str]:
        """The card ids a list of card references names (``placed``: each card is in this place,
        and a card can be in one place only)."""
        ...

    def is_placed(self, card_id: str) -> bool:
        """Has the document put this card somewhere already?"""
        ...

    def role_ids(self, value: Any, where: str) -> list[str]:
        """One role card id per seat (``""`` for none) from role card ids or role names."""
        ...

    def card_points(self, card_id: str) -> int:
        """The points of a bomb card the document may refer to."""
        ...


def kind_of(v: Any) -> str:
    """How a document value reads to a person: ``a number``, ``text``, ``a list``..."""
    if v is None:
        return "nothing (null)"
    return {bool: "true/false", int: "a number", float: "a number", str: "text", list: "a list",
            dict: "a mapping"}.get(type(v), type(v).__name__)


def read_int(v: Any, where: str, lo: int, hi: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise ScenarioError(where, f"expected a whole number, got {kind_of(v)}")
    if v < lo or (hi is not None and v > hi):
        raise ScenarioError(where, f"{v} is out of range ({lo} to {hi})" if hi is not None
                            else f"{v} must be at least {lo}")
    return v


def read_bool(v: Any, where: str) -> bool:
    if not isinstance(v, bool):
        raise ScenarioError(where, f"expected true or false, got {kind_of(v)}")
    return v


def read_list(v: Any, where: str) -> list[Any]:
    if v is None:
        return []
    if not isinstance(v, list):
        raise ScenarioError(where, f"expected a list, got {kind_of(v)}")
    return v


# ====================================================================== kinds
class Kind:
    """How the values of one field are copied, kept as JSON, read, written and shown.

    The defaults suit immutable JSON values (numbers, text, true/false). ``stage`` says when a
    scenario document's value can be read: 1, with the cards (before the game state exists),
    2, with the turn and the clock, or 3, once every die has its place."""

    stage = 2

    def copy(self, v: Any) -> Any:
        return v

    def to_json(self, v: Any) -> Any:
        return v

    def from_json(self, d: Any) -> Any:
        return d

    def read(self, raw: Any, where: str, ctx: DocContext) -> Any:
        return raw

    def write(self, v: Any, ctx: DocContext) -> Any:
        return self.to_json(v)

    def show(self, v: Any, g: GameState) -> Any:
        return self.to_json(v)


class Flag(Kind):
    """True or false."""

    def read(self, raw: Any, where: str, ctx: DocContext) -> bool:
        return read_bool(raw, where)


class Count(Kind):
    """A whole number from ``lo`` up."""

    def __init__(self, lo: int = 0) -> None:
        self.lo = lo

    def read(self, raw: Any, where: str, ctx: DocContext) -> int:
        return read_int(raw, where, self.lo)


class Text(Kind):
    """Free text."""

    def read(self, raw: Any, where: str, ctx: DocContext) -> str:
        if not isinstance(raw, str):
            raise ScenarioError(where, "expected text")
        return raw


class Seat(Kind):
    """A seat number, or ``EMPTY`` (-1) for none (written as null)."""

    def read(self, raw: Any, where: str, ctx: DocContext) -> int:
        if raw is None:
            return EMPTY
        return read_int(raw, where, 0, ctx.state.players - 1)

    def write(self, v: Any, ctx: DocContext) -> Any:
        return None if v == EMPTY else v


class Seats(Kind):
    """A list of seat numbers (in order; a seat may repeat)."""

    def copy(self, v: list[int]) -> list[int]:
        return v[:]

    def from_json(self, d: Any) -> list[int]:
        return list(d)

    def read(self, raw: Any, where: str, ctx: DocContext) -> list[int]:
        n = ctx.state.players
        return [read_int(x, f"{where}[{i}]", 0, n - 1) for i, x in enumerate(read_list(raw, where))]

    def to_json(self, v: list[int]) -> list[int]:
        return v[:]


class Values(Kind):
    """A list of plain JSON values (one per seat, say)."""

    def __init__(self, item: Kind | None = None) -> None:
        self.item = item or Kind()
        self.stage = self.item.stage

    def copy(self, v: list[Any]) -> list[Any]:
        return [self.item.copy(x) for x in v]

    def to_json(self, v: list[Any]) -> list[Any]:
        return [self.item.to_json(x) for x in v]

    def from_json(self, d: Any) -> list[Any]:
        return [self.item.from_json(x) for x in d]

    def read(self, raw: Any, where: str, ctx: DocContext) -> list[Any]:
        return [self.item.read(x, f"{where}[{i}]", ctx) for i, x in enumerate(read_list(raw, where))]

    def write(self, v: list[Any], ctx: DocContext) -> list[Any]:
        return [self.item.write(x, ctx) for x in v]


class Cards(Kind):
    """A pile or list of card ids. ``top_first``: the list keeps the top card at its end, and
    documents write it top first (as a person reads a pile). ``accept``: the kinds of card a
    document may put here (``bomb``, ``spark``, ``fuse``). Views show the cards (``shown="cards"``),
    only their ids (face-down cards whose identity is known), or only how many there are
    (``"size"``: a pile whose order is hidden)."""

    stage = 1

    def __init__(self, accept: tuple[str, ...] = ("bomb",), top_first: bool = False,
                 shown: str = "cards", placed: bool = True) -> None:
        self.accept = accept
        self.top_first = top_first
        self.shown = shown
        self.placed = placed  # False: a record (defused sparks), not a place a card lies in

    def copy(self, v: list[str]) -> list[str]:
        return v[:]

    def to_json(self, v: list[str]) -> list[str]:
        return v[:]

    def from_json(self, d: Any) -> list[str]:
        return list(d)

    def read(self, raw: Any, where: str, ctx: DocContext) -> list[str]:
        ids = ctx.card_ids(raw, where, self.accept, self.placed)
        return ids[::-1] if self.top_first else ids

    def write(self, v: list[str], ctx: DocContext) -> list[str]:
        return v[::-1] if self.top_first else v[:]

    def show(self, v: list[str], g: GameState) -> Any:
        if self.shown == "size":
            return len(v)
        if self.shown == "ids":
            return v[:]
        from fusegame.rules.views import card_view

        return [card_view(g, c) for c in v]


class Dice(Kind):
    """A list of die ids, read from a document among the dice ``among(state)`` names."""

    stage = 3

    def __init__(self, among: Callable[[GameState], Sequence[int]]) -> None:
        self.among = among

    def copy(self, v: list[int]) -> list[int]:
        return v[:]

    def to_json(self, v: list[int]) -> list[int]:
        return v[:]

    def from_json(self, d: Any) -> list[int]:
        return list(d)

    def read(self, raw: Any, where: str, ctx: DocContext) -> list[int]:
        among = self.among(ctx.state)
        return [ctx.die_on(x, f"{where}[{i}]", among) for i, x in enumerate(read_list(raw, where))]

    def write(self, v: list[int], ctx: DocContext) -> list[str]:
        return [ctx.die_text(d) for d in v]


class OneDie(Kind):
    """One die id, or ``EMPTY`` (-1) for none; views show the die."""

    stage = 3

    def __init__(self, among: Callable[[GameState], Sequence[int]]) -> None:
        self.among = among

    def read(self, raw: Any, where: str, ctx: DocContext) -> int:
        if raw is None:
            return EMPTY
        return ctx.die_on(raw, where, self.among(ctx.state))

    def write(self, v: int, ctx: DocContext) -> Any:
        return None if v == EMPTY else ctx.die_text(v)

    def show(self, v: int, g: GameState) -> Any:
        from fusegame.rules.views import die_view

        return None if v == EMPTY else die_view(g, v)


class ColourMap(Kind):
    """Die id -> colour mask (a temporary colour per die)."""

    def copy(self, v: dict[int, int]) -> dict[int, int]:
        return dict(v)

    def to_json(self, v: dict[int, int]) -> dict[str, str]:
        return {str(k): colours_text(c) for k, c in v.items()}

    def from_json(self, d: Any) -> dict[int, int]:
        return {int(k): parse_colours(c) for k, c in d.items()}


class SeatMap(Kind):
    """Seat -> a value (kept with string keys in JSON)."""

    def __init__(self, item: Kind | None = None) -> None:
        self.item = item or Kind()

    def copy(self, v: dict[int, Any]) -> dict[int, Any]:
        return {k: self.item.copy(x) for k, x in v.items()}

    def to_json(self, v: dict[int, Any]) -> dict[str, Any]:
        return {str(k): self.item.to_json(x) for k, x in v.items()}

    def from_json(self, d: Any) -> dict[int, Any]:
        return {int(k): self.item.from_json(x) for k, x in d.items()}


class DieTuple(Kind):
    """A tuple of die ids (immutable: shared by copies)."""

    def to_json(self, v: tuple[int, ...]) -> list[int]:
        return list(v)

    def from_json(self, d: Any) -> tuple[int, ...]:
        return tuple(d)


class Record(Kind):
    """A small frozen value with ``to_json`` / ``from_json`` of its own (shared by copies)."""

    def __init__(self, cls: Any) -> None:
        self.cls = cls

    def to_json(self, v: Any) -> Any:
        return None if v is None else v.to_json()

    def from_json(self, d: Any) -> Any:
        return None if d is None else self.cls.from_json(d)


class Objects(Kind):
    """A list of mutable values with ``copy``, ``to_json`` and ``from_json`` of their own."""

    def __init__(self, cls: Any) -> None:
        self.cls = cls

    def copy(self, v: list[Any]) -> list[Any]:
        return [x.copy() for x in v]

    def to_json(self, v: list[Any]) -> list[Any]:
        return [x.to_json() for x in v]

    def from_json(self, d: Any) -> list[Any]:
        return [self.cls.from_json(x) for x in d]


# ====================================================================== declarations
SAME = "\x00same"  # a doc or view key equal to the field's name


@dataclass(frozen=True)
class FieldSpec:
    """How one field of a part is kept: its kind, and its keys in documents and views (None: not
    there). ``per_player``: a list indexed by seat, written in each player's entry of a document
    and of the view's ``hands``."""

    kind: Kind
    doc: str | None
    view: str | None
    per_player: bool = False


def declared(kind: Kind, *, default: Any = MISSING, default_factory: Any = MISSING, doc: str | None = SAME,
             view: str | None = SAME, per_player: bool = False) -> Any:
    """Declare a field of a ``Part`` (see the module docstring)."""
    spec = FieldSpec(kind, doc, view, per_player)
    if default_factory is not MISSING:
        return field(default_factory=default_factory, metadata={"schema": spec})
    return field(default=default, metadata={"schema": spec})


@dataclass(frozen=True)
class Declared:
    """One declared field: its name and how it is kept."""

    name: str
    kind: Kind
    doc: str | None
    view: str | None
    per_player: bool

    @property
    def seat_kind(self) -> Kind:
        """For a per-player field (a ``Values`` list indexed by seat): the kind of one seat's value."""
        return self.kind.item if isinstance(self.kind, Values) else self.kind


_FIELDS: dict[type, tuple[Declared, ...]] = {}


def declared_fields(cls: type) -> tuple[Declared, ...]:
    """The declared fields of a part or pending-decision class, in declaration order."""
    out = _FIELDS.get(cls)
    if out is None:
        items = []
        for f in fields(cls):
            spec = f.metadata.get("schema")
            if spec is None:
                continue
            items.append(Declared(f.name, spec.kind, f.name if spec.doc == SAME else spec.doc,
                                  f.name if spec.view == SAME else spec.view, spec.per_player))
        out = _FIELDS[cls] = tuple(items)
    return out


_SHOWN: dict[tuple[type, bool], tuple[tuple[str, str, Kind], ...]] = {}


def _shown(cls: type, per_player: bool) -> tuple[tuple[str, str, Kind], ...]:
    """(name, view key, kind of one value) of each field of ``cls`` that views show, per player
    (its seat's value, in the view's ``hands``) or not: every view of every table reads them."""
    out = _SHOWN.get((cls, per_player))
    if out is None:
        out = _SHOWN[cls, per_player] = tuple(
            (f.name, f.view, f.seat_kind if per_player else f.kind) for f in declared_fields(cls)
            if f.view is not None and f.per_player == per_player)
    return out


@dataclass(frozen=True)
class PartInfo:
    """How a part is known: ``name`` (its registry key), ``shown_when_absent`` (views show its keys,
    with its defaults, in every game, so that clients meet one shape whatever the game; otherwise
    only in games that have it) and ``needs`` (a queue item: the part of the rules without which a
    game never has it)."""

    name: str
    shown_when_absent: bool = False
    needs: str = ""


# new rule components (and tests) may be written in plain Python even where the engine runs compiled
@mypyc_attr(allow_interpreted_subclasses=True)
class Part:
    """The state of one rule component (sparks, roles, the level stacks, ...): a dataclass whose
    fields are ``declared``. Subclasses are registered under their name
    (``Part.register(Sparks, "sparks")``), so that saved states find their class again."""

    registry: ClassVar[dict[str, type[Part]]] = {}
    infos: ClassVar[dict[type[Part], PartInfo]] = {}

    @staticmethod
    def register(cls: type[Part], name: str, *, shown_when_absent: bool = False, needs: str = "") -> None:
        """Record ``cls`` under ``name``, so that saved states find their class again. An explicit
        call, not a class keyword or class constants: the engine also runs compiled, where a
        dataclass would take a class constant for a field."""
        Part.registry[name] = cls
        Part.infos[cls] = PartInfo(name, shown_when_absent, needs)

    @classmethod
    def info(cls) -> PartInfo:
        """This part's name and how views and documents treat it."""
        return Part.infos[cls]

    @property
    def name(self) -> str:
        """The name this part is registered under (``sparks``, ``removals``, ...)."""
        return self.info().name

    @classmethod
    def fields(cls) -> tuple[Declared, ...]:
        return declared_fields(cls)

    @classmethod
    def create(cls: type[P], g: GameState) -> P:
        """This part's state at the start of a game of ``g``'s size (before the setup deals)."""
        return cls()

    def clone(self: P) -> P:
        """An independent copy (every declared field copied by its kind)."""
        # a fresh instance, then field by field: the compiled engine's parts have no __dict__
        new = type(self)()
        for f in self.fields():
            setattr(new, f.name, f.kind.copy(getattr(self, f.name)))
        return new

    def to_json(self) -> dict[str, Any]:
        return {f.name: f.kind.to_json(getattr(self, f.name)) for f in self.fields()}

    @classmethod
    def from_json(cls: type[P], d: Mapping[str, Any]) -> P:
        new = cls()
        for f in cls.fields():
            if f.name in d:
                setattr(new, f.name, f.kind.from_json(d[f.name]))
        return new

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Part) and type(other) is type(self) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    # -- scenario documents -------------------------------------------------------------------
    @classmethod
    def absent_message(cls, key: str) -> str:
        """What to say when a document gives ``key`` for a game without this part."""
        return f"this game has no {cls.info().name}"

    def read_doc(self, doc: Mapping[str, Any], ctx: DocContext, stage: int) -> set[str]:
        """Read this part's fields of ``stage`` (see ``Kind.stage``) from a scenario document;
        returns the document keys that were present."""
        given: set[str] = set()
        for f in self.fields():
            if f.doc is None or f.kind.stage != stage:
                continue
            if f.per_player:
                values = getattr(self, f.name)
                for p, entry in enumerate(ctx.player_entries):
                    if entry.get(f.doc) is not None and p < len(values):
                        values[p] = f.seat_kind.read(entry[f.doc], f"players[{p}].{f.doc}", ctx)
                        given.add(f.doc)
            elif doc.get(f.doc) is not None:
                setattr(self, f.name, f.kind.read(doc[f.doc], f.doc, ctx))
                given.add(f.doc)
        return given

    def before_doc(self, g: GameState, doc: Mapping[str, Any], over: bool) -> None:
        """Checks on the document before this part's stage 2 and 3 fields are read (the cards,
        the phase and the turn are known)."""

    def after_doc(self, g: GameState, ctx: DocContext, given: set[str], over: bool) -> None:
        """Defaults and checks once the document's fields are read (``given``: the keys present)."""

    def empty(self) -> bool:
        """A pending item with nothing left to settle is dropped from a scenario's queue."""
        return False

    def write_doc(self, g: GameState, ctx: DocContext) -> dict[str, Any]:
        """This part's fields for a scenario document: those that differ from their defaults."""
        out: dict[str, Any] = {}
        blank = type(self)()
        for f in self.fields():
            if f.doc is None or f.per_player:
                continue
            v = getattr(self, f.name)
            if v != getattr(blank, f.name):
                out[f.doc] = f.kind.write(v, ctx)
        return out

    # -- views ------------------------------------------------------------------------------
    def view(self, g: GameState) -> dict[str, Any]:
        """The declared fields a player may see, under their view keys (per-player fields are
        shown in the view's ``hands`` instead: see ``player_view``)."""
        return {view: kind.show(getattr(self, name), g) for name, view, kind in _shown(type(self), False)}

    def player_view(self, g: GameState, seat: int) -> dict[str, Any]:
        """What the view's entry for ``seat`` shows of this part."""
        out = {}
        for name, view, kind in _shown(type(self), True):
            values = getattr(self, name)
            out[view] = kind.show(values[seat], g) if seat < len(values) else []
        return out


def part_from_json(d: Mapping[str, Any]) -> Part:
    """A part (or a pending decision) from ``{"kind": name, ...fields}``."""
    cls = Part.registry[d["kind"]]
    return cls.from_json(d)


def part_to_json(p: Part) -> dict[str, Any]:
    return {"kind": p.name, **p.to_json()}


__all__ = [
    "Cards", "ColourMap", "Count", "Declared", "DieTuple", "Dice", "DocContext", "FieldSpec", "Flag", "Kind",
    "Objects", "OneDie", "Part", "Record", "ScenarioError", "Seat", "SeatMap", "Seats", "Text", "Values",
    "declared", "declared_fields", "kind_of", "part_from_json", "part_to_json", "read_bool", "read_int",
    "read_list",
]
