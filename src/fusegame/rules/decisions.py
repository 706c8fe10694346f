"""Who must decide what, and in which order: the queue of pending decisions.

A game is always at one *step*: the head of its queue. The queue (``GameState.queue``) holds what
interrupts the turn until it is settled, in the order ``ORDER`` declares once:

1. ``removals``: players give up a die (a fuse card, a penalty roll: C.3);
2. ``roll_six``: "all players must roll a 6" (A.5);
3. ``rethrow``: the Explosives Instructor's dice in the air (A.7);
4. ``spark_draws``: sparks to draw, for a fuse card or Step 4 (a player with no spark to draw
   gives up a die instead);
5. ``refill``: row cards still to turn over from the deck (a fuse card turned over goes off first).

Under the queue is the turn's own step (``GameState.phase``: roll, distribute, penalty, defuse,
sparks), as the table of games lists them. Every question about the position asks the head:
``is_chance``, ``to_act``, ``legal_actions``, validation, the engine's dispatch of an action, and
the loop that runs the automatic steps (``GameState.settle``). Each item is declared data (a
``Part``), so the queue is cloned, saved and written in scenario documents like any other state.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, overload

from mypy_extensions import trait

from fusegame.rules.actions import Action, Done, Place
from fusegame.rules.errors import IllegalAction, NotYourDecision
from fusegame.rules.schema import Part

if TYPE_CHECKING:
    from fusegame.rules.events import Event
    from fusegame.rules.state import GameState

#: The order in which pending items are settled (the first one present is the head). A module that
#: declares a new kind of item says where it goes (``settle_before``), so this list is not edited.
ORDER: list[str] = ["removals", "roll_six", "rethrow", "spark_draws", "refill"]


def settle_before(name: str, later: str) -> None:
    """Declare that pending items named ``name`` are settled just before those named ``later``
    (called once, where the item's class is registered)."""
    if name in ORDER:
        raise ValueError(f"pending {name!r} already has its place in the queue's order")
    ORDER.insert(ORDER.index(later), name)


@dataclass(frozen=True)
class DecisionSpec:
    """A kind of decision declared by the rule that gives it (a fuse effect's own decision), for
    the clients' table (``rules.decision_kinds``): who decides (``named``, ``leader`` or ``each``),
    the verbs that answer it, whether a person's choice is timed (I-11) and the verbs of the
    actions drawn from when the time runs out. Bots and hints answer such a kind by its
    ``default`` verbs until they are taught better."""

    kind: str
    who: str
    verbs: tuple[str, ...]
    timed: bool = False
    default: tuple[str, ...] = ()


@dataclass(frozen=True)
class Decision:
    """What one seat must or may decide now: ``kind`` and the die ids or card ids to choose from."""

    kind: str  #: a kind of ``rules.decision_kinds.KINDS``: "distribute", "take", "give_up", ...
    options: tuple[Any, ...] = ()


#: The legal placements of one die on one card by one seat, ``(seat, die, card, slots)``: one
#: action per slot. A plain tuple, because the legal actions of every position hold dozens of them.
Placements = tuple[int, int, str, tuple[int, ...]]

#: A seat's ``Done``, as its seat number: every seat that may still place has one at every step.
DoneOf = int

Legal = list[Action | Placements | DoneOf]


@trait
class Step:
    """A step of the game: what the head of the queue answers. The defaults suit a step that
    waits for nobody and does nothing. (A trait, for the compiled engine: a queue item is a
    ``Part`` first and a ``Step`` too.)"""

    def begin(self, g: GameState, ev: list[Event]) -> None:
        """The turn has just come to this step."""

    def chance(self, g: GameState) -> bool:
        """Is the next thing to happen random?"""
        return False

    def decisions(self, g: GameState) -> dict[int, Decision]:
        """Who may act now, and what each must decide."""
        return {}

    def legal(self, g: GameState, seats: Sequence[int], at: int) -> Legal | LegalActions:
        """The legal actions of ``seats`` (placements grouped by die and card)."""
        return []

    def check(self, g: GameState, a: Action) -> None:
        """Raise ``IllegalAction`` (with the reason) unless ``a`` may be taken now."""
        raise NotYourDecision("not_now", {"action": type(a).__name__})

    def perform(self, g: GameState, a: Action, ev: list[Event]) -> None:
        """Carry out a legal action."""
        raise AssertionError(f"{a} reached a step that takes no actions")

    def run(self, g: GameState, ev: list[Event], chance: bool) -> bool:
        """Do what happens by itself; False when waiting for players (or for chance, when
        ``chance`` is False). True means something changed: ask the (new) head again."""
        return False

    def outcomes(self, g: GameState) -> list[tuple[tuple[int, ...], float]]:
        """The possible results of the pending chance event and their probabilities."""
        return []

    def settle_chance(self, g: GameState, outcome: tuple[int, ...], ev: list[Event]) -> None:
        """Apply one result of the pending chance event (from ``outcomes``)."""
        raise IllegalAction("no_chance")


def check_faces(outcome: Any, k: int) -> None:
    """A chance outcome given to ``settle_chance`` that is ``k`` faces of a die."""
    if len(outcome) != k or any(f not in range(1, 7) for f in outcome):
        raise IllegalAction("bad_faces", {"n": k, "outcome": repr(outcome)})


class Pending(Part, Step):
    """An item of the queue: a decision some players owe, or an automatic step (``info().needs``:
    the part of the rules without which a game never has this item)."""

    def merge(self, other: Pending) -> None:
        """Another item of the same kind arrives while this one waits."""
        raise ValueError(f"two {self.name} items at once")

    def finish(self, g: GameState) -> None:
        """Leave the queue: this item is settled."""
        g.queue[:] = [x for x in g.queue if x is not self]


def push(g: GameState, item: Pending) -> None:
    """Add ``item`` to ``g``'s queue at its place in ``ORDER`` (merged with one of its kind)."""
    rank = ORDER.index(item.name)
    q = g.queue
    for i, other in enumerate(q):
        if other.name == item.name:
            other.merge(item)
            return
        if ORDER.index(other.name) > rank:
            q.insert(i, item)
            return
    q.append(item)


def pending(g: GameState, name: str) -> Pending | None:
    """The queue's item of kind ``name``, if there is one."""
    for item in g.queue:
        if item.name == name:
            return item
    return None


class LegalActions(Sequence[Action]):
    """The legal actions of a position, as a sequence of ``Action`` values.

    Placements are kept as one entry per (seat, die, card) with the card's tuple of legal slots,
    and a seat's ``Done`` as the seat's number; both become actions only when looked at: a policy
    that picks one action builds one.
    """

    __slots__ = ("_items", "_at", "_n")

    def __init__(self, items: Legal, at: int, n: int | None = None) -> None:
        self._items = items
        self._at = at
        self._n = n if n is not None else sum(len(x[3]) if type(x) is tuple else 1 for x in items)

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> list[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | list[Action]:
        if isinstance(i, slice):
            return list(self)[i]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("legal action index out of range")
        for x in self._items:
            if type(x) is tuple:
                k = len(x[3])
                if i < k:
                    return Place(x[0], self._at, x[1], x[2], x[3][i])
                i -= k
            elif i == 0:
                return Done(x, self._at) if type(x) is int else x  # type: ignore[return-value]
            else:
                i -= 1
        raise IndexError(i)  # unreachable: the counts agree

    def __iter__(self) -> Iterator[Action]:
        at = self._at
        for x in self._items:
            if type(x) is tuple:
                seat, die, card, slots = x
                for slot in slots:
                    yield Place(seat, at, die, card, slot)
            elif type(x) is int:
                yield Done(x, at)
            else:
                yield x  # type: ignore[misc]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LegalActions({list(self)!r})"


__all__ = ["Decision", "DecisionSpec", "LegalActions", "ORDER", "Pending", "Placements", "Step", "pending",
           "push", "settle_before"]
