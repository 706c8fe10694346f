"""The actions of a game in play on the server, kept in their text form, packed.

A server holds the actions of every game it runs until the game is in the log. As objects, each
one was an action, its time and the card's name as the planner's answer brought it: about 140
bytes of small blocks in Python's own allocator, which hands an arena back to the system only when
every block in it is free. With 200 games at once those blocks opened arenas that the few
long-lived objects made meanwhile then kept. Packed as text in one buffer per game, an action costs
its text (``p0 place d12 F07 s3 @15200``) and the eight bytes that say where it ends; past a few
hundred bytes, both buffers live in the C library's heap, which gives back what a game frees once
it ends.

The text form is the one the log and the planner's process take anyway (``GameRecord.to_dict``),
and ``Action.parse`` reads it back to the same action, time included.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable

from fusegame.rules.actions import Action


class ActionLog:
    """The actions of one game, in order, as text. Append only."""

    __slots__ = ("_text", "_ends")

    def __init__(self, actions: Iterable[Action] = ()) -> None:
        self._text = bytearray()
        self._ends = array("L")  #: where each action's text ends in ``_text``
        for action in actions:
            self.append(action)

    def append(self, action: Action) -> None:
        self._text += str(action).encode()
        self._ends.append(len(self._text))

    def __len__(self) -> int:
        return len(self._ends)

    def texts(self, start: int = 0, stop: int | None = None) -> list[str]:
        """The text forms of actions ``start`` to ``stop`` (the end when None), as ``list[a:b]``
        slices for non-negative bounds."""
        ends = self._ends
        stop = len(ends) if stop is None else min(stop, len(ends))
        text = self._text
        out: list[str] = []
        at = ends[start - 1] if 0 < start <= len(ends) else 0
        for i in range(start, stop):
            end = ends[i]
            out.append(text[at:end].decode())
            at = end
        return out

    def actions(self, start: int = 0, stop: int | None = None) -> list[Action]:
        """Actions ``start`` to ``stop`` read back (each as it was appended, time included)."""
        return [Action.parse(t) for t in self.texts(start, stop)]
