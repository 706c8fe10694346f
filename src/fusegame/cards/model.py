"""The card model: slots with predicates and supports, relations, equations, layouts.

Cards are plain frozen values. ``fusegame.cards.notation`` turns them into text and back;
``fusegame.constraints`` compiles them into look-up tables for the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from fusegame.dice import COLOUR_SETS, FACES, N_TYPES, type_colours, type_face


class PredKind(str, Enum):
    ANY = "?"  #: any die
    NUMBER = "#"  #: the number matters (relations fix it)
    COLOUR = "%"  #: the colour matters (relations fix it)
    EITHER = "*"  #: "any number or any colour" (Countdown icon; a wildcard)
    SPLIT = "S"  #: must be a split die
    ONE_OF = "="  #: one of a few (colour?, number?) alternatives
    NOT = "!"  #: not the colour shown


@dataclass(frozen=True)
class Pred:
    """A slot's own test.

    ``alts`` holds ``(colour, face)`` pairs for ONE_OF, either part may be 0 (= any): ``Y`` is
    ``((Y, 0),)``, ``5`` is ``((0, 5),)``, ``Y5`` is ``((Y, 5),)``, ``Y|1`` is ``((Y, 0), (0, 1))``.
    ``hashed`` marks a coloured ``#`` (``B#``), which tests the same as ``B`` but prints differently.
    """

    kind: PredKind
    alts: tuple[tuple[int, int], ...] = ()
    colour: int = 0
    hashed: bool = False

    def accepts(self, colours: int, face: int, *, split: bool | None = None) -> bool:
        """Does a die with colour set ``colours`` showing ``face`` pass this test?

        ``split`` is whether the physical die is a split die (defaults to ``colours`` having two
        colours); it differs only while a role has made a split die temporarily single-coloured.
        """
        k = self.kind
        if k is PredKind.ONE_OF:
            return any((c == 0 or colours & c) and (f == 0 or f == face) for c, f in self.alts)
        if k is PredKind.NOT:
            return not colours & self.colour
        if k is PredKind.SPLIT:
            return bool(split) if split is not None else bin(colours).count("1") == 2
        return True

    def type_mask(self) -> int:
        """Bit mask of the die types this predicate accepts."""
        mask = 0
        for t in range(N_TYPES):
            if self.accepts(type_colours(t), type_face(t)):
                mask |= 1 << t
        return mask

    @property
    def reads_colour(self) -> bool:
        return self.kind in (PredKind.NOT, PredKind.SPLIT) or (
            self.kind is PredKind.ONE_OF and any(c for c, _ in self.alts))

    @property
    def reads_number(self) -> bool:
        return self.kind is PredKind.ONE_OF and any(f for _, f in self.alts)


class Rel(str, Enum):
    """Relations drawn between two neighbouring slots (left/lower first)."""

    LT = "<"  #: left number < right number (in stacks: lower < upper)
    GT = ">"
    SAME_NUMBER = "="
    DIFF_NUMBER = "!="
    SAME_COLOUR = "=c"
    DIFF_COLOUR = "!=c"
    SAME_BOTH = "=cn"
    SAME_EITHER = "=c|n"

    def holds(self, c1: int, n1: int, c2: int, n2: int) -> bool:
        if self is Rel.LT:
            return n1 < n2
        if self is Rel.GT:
            return n1 > n2
        if self is Rel.SAME_NUMBER:
            return n1 == n2
        if self is Rel.DIFF_NUMBER:
            return n1 != n2
        if self is Rel.SAME_COLOUR:
            return bool(c1 & c2)
        if self is Rel.DIFF_COLOUR:
            return not c1 & c2
        if self is Rel.SAME_BOTH:
            return bool(c1 & c2) and n1 == n2
        return bool(c1 & c2) or n1 == n2

    @property
    def reads_colour(self) -> bool:
        return self in (Rel.SAME_COLOUR, Rel.DIFF_COLOUR, Rel.SAME_BOTH, Rel.SAME_EITHER)

    @property
    def reads_number(self) -> bool:
        return self is not Rel.SAME_COLOUR and self is not Rel.DIFF_COLOUR


@dataclass(frozen=True)
class Relation:
    """A relation symbol between slots ``a`` and ``b`` (``a`` is the left or lower one)."""

    a: int
    b: int
    rel: Rel


class Group(str, Enum):
    """Whole-group tests used in clauses: ``same-colour(a,b,c)`` and friends."""

    SAME_COLOUR = "same-colour"
    SAME_NUMBER = "same-number"
    DIFF_COLOUR = "different-colours"
    DIFF_NUMBER = "different-numbers"


#: An arithmetic term: ``(sign, slot, constant)``; slot -1 means the constant.
Term = tuple[int, int, int]


@dataclass(frozen=True)
class Comparison:
    """``expr op expr op expr ...`` over slot numbers, e.g. ``a - b = c`` or ``a + b = c + d``."""

    exprs: tuple[tuple[Term, ...], ...]
    ops: tuple[str, ...]  # each "=", "<" or ">"

    @property
    def slots(self) -> tuple[int, ...]:
        return tuple(sorted({s for e in self.exprs for _, s, _ in e if s >= 0}))

    def holds(self, faces: dict[int, int]) -> bool:
        vals = [sum(sg * (faces[s] if s >= 0 else k) for sg, s, k in e) for e in self.exprs]
        for op, x, y in zip(self.ops, vals, vals[1:]):
            if op == "=" and x != y or op == "<" and not x < y or op == ">" and not x > y:
                return False
        return True


@dataclass(frozen=True)
class GroupTest:
    group: Group
    members: tuple[int, ...]

    @property
    def slots(self) -> tuple[int, ...]:
        return tuple(sorted(self.members))

    def holds(self, colours: dict[int, int], faces: dict[int, int]) -> bool:
        ms = self.members
        if self.group is Group.SAME_NUMBER:
            return len({faces[m] for m in ms}) == 1
        if self.group is Group.DIFF_NUMBER:
            return len({faces[m] for m in ms}) == len(ms)
        if self.group is Group.SAME_COLOUR:
            common = 31
            for m in ms:
                common &= colours[m]
            return common != 0
        return all(not colours[x] & colours[y] for i, x in enumerate(ms) for y in ms[i + 1:])


Atom = Comparison | GroupTest


@dataclass(frozen=True)
class Clause:
    """A constraint written after ``;``: one or more alternatives joined by ``or``."""

    alts: tuple[Atom, ...]

    @property
    def slots(self) -> tuple[int, ...]:
        return tuple(sorted({s for a in self.alts for s in a.slots}))

    def holds(self, colours: dict[int, int], faces: dict[int, int]) -> bool:
        for a in self.alts:
            if isinstance(a, Comparison):
                if a.holds(faces):
                    return True
            elif a.holds(colours, faces):
                return True
        return False

    @property
    def reads_colour(self) -> bool:
        return any(isinstance(a, GroupTest) and a.group in (Group.SAME_COLOUR, Group.DIFF_COLOUR)
                   for a in self.alts)

    @property
    def reads_number(self) -> bool:
        return any(not (isinstance(a, GroupTest) and a.group in (Group.SAME_COLOUR, Group.DIFF_COLOUR))
                   for a in self.alts)


class Layout(str, Enum):
    ROW = "row"
    STACK = "stack"
    DOUBLE_STACK = "stacks"
    PYRAMID = "pyramid"
    WALL = "wall"
    ZIGGURAT = "ziggurat"


@dataclass(frozen=True)
class Slot:
    pred: Pred
    supports: tuple[int, ...] = ()
    first: bool = False
    last: bool = False


@dataclass(frozen=True)
class CardShape:
    """Everything the rules need to know about a bomb or spark card's requirements.

    ``rows`` keeps the geometry for printing: one tuple of slot indices (or -1 for a gap in a
    wall's upper row) per row/stack, in the order the notation writes them.
    """

    layout: Layout
    slots: tuple[Slot, ...]
    relations: tuple[Relation, ...] = ()
    clauses: tuple[Clause, ...] = ()
    rows: tuple[tuple[int, ...], ...] = ()

    @property
    def requires_split_die(self) -> bool:
        return any(s.pred.kind is PredKind.SPLIT for s in self.slots)

    @property
    def size(self) -> int:
        return len(self.slots)


@dataclass(frozen=True)
class BombCard:
    """A bomb or spark card: identity, set, points (0 for a spark) and its shape.

    ``kind`` is ``"bomb"`` or ``"spark"``; sparks (Countdown) have requirements but no points.
    """

    id: str
    set: str
    points: int
    shape: CardShape
    notation: str
    kind: str = "bomb"
    name: str = ""
    source: str = field(default="designed", compare=False)
    #: the name in Spanish (the catalogue's ``name_es``); without it the words make one from the model
    name_es: str = field(default="", compare=False)


class FuseEffect(str, Enum):
    """What a fuse card does when it is turned over (docs/rules.md A.5)."""

    SYMBOL = "symbol"  #: every player returns one die matching a colour or number shown
    SPARK = "spark"  #: "All players must draw a spark card."
    LOSE_ROLES = "lose-roles"  #: "All players lose their role ability until they defuse a bomb card."
    ROLL_SIX = "roll-six"  #: "All players must roll a 6 before the game continues."


@dataclass(frozen=True)
class FuseCard:
    """A fuse card: the colours and numbers it shows (FUSE cards show exactly one symbol), or
    one of Countdown's three text effects."""

    id: str
    set: str
    colours: int = 0
    numbers: tuple[int, ...] = ()
    text: str = ""
    kind: str = "fuse"
    effect: FuseEffect = FuseEffect.SYMBOL

    def matches(self, colours: int, face: int) -> bool:
        return bool(self.colours & colours) or face in self.numbers

    @property
    def symbol(self) -> str:
        from fusegame.dice import colours_text  # local: keeps the model import-light

        parts = [colours_text(c) for c in COLOUR_SETS[:5] if self.colours & c]
        parts += [str(n) for n in self.numbers]
        return " ".join(parts) or self.text

    @property
    def needs(self) -> str:
        """The module this card needs to make sense ('' for none): docs/rules.md F.2."""
        return {FuseEffect.SPARK: "sparks", FuseEffect.LOSE_ROLES: "roles"}.get(self.effect, "")


class Ability(str, Enum):
    """The seven Countdown roles (docs/rules.md A.7). Only the leader's role is active."""

    CUTTER = "cutter"  #: before the draw name a colour; each rolled die of it may change colour or number
    OPERATIONS_ENGINEER = "operations-engineer"  #: the same for a named number
    LOGISTICS_SPECIALIST = "logistics-specialist"  #: draw one more die; take an extra or return one free
    TECHNOLOGIST = "technologist"  #: change the colour of one rolled die (until it is placed)
    EQUIPMENT_TECHNICIAN = "equipment-technician"  #: change the number of one rolled die
    DISPOSAL_EXPERT = "disposal-expert"  #: turn any rolled dice to their opposite faces
    EXPLOSIVES_INSTRUCTOR = "explosives-instructor"  #: reroll any rolled dice, up to three times


@dataclass(frozen=True)
class RoleCard:
    """A Countdown role card."""

    id: str
    set: str
    ability: Ability
    name: str
    text: str = ""
    kind: str = "role"


__all__ = [
    "Ability", "BombCard", "CardShape", "Clause", "Comparison", "FACES", "FuseCard", "FuseEffect", "Group",
    "GroupTest", "Layout", "Pred", "PredKind", "Rel", "RoleCard", "Relation", "Slot",
]
