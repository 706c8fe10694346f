"""What lies on the table: the cards in front of the players (with their dice), and the
replacements owed for defused cards."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fusegame.constraints import EMPTY


class HandCard:
    """A bomb or spark card in front of a player, with the dice on its slots.

    ``types`` caches the die type on each slot; ``key`` is the same with each type replaced by its
    class representative for this card (``CompiledCard.canon``), the key of the card's tables.
    """

    __slots__ = ("card", "dice", "types", "key")

    def __init__(self, card: str, n: int) -> None:
        self.card = card
        self.dice: list[int] = [EMPTY] * n
        self.types: tuple[int, ...] = (EMPTY,) * n
        self.key: tuple[int, ...] = self.types

    @property
    def complete(self) -> bool:
        return EMPTY not in self.dice

    def copy(self) -> HandCard:
        h = HandCard(self.card, 0)  # no slots to fill: they are copied next
        h.card, h.dice, h.types, h.key = self.card, self.dice[:], self.types, self.key
        return h

    def set_slot(self, slot: int, die: int, t: int, canon: tuple[int, ...]) -> None:
        """Put ``die`` of type ``t`` on ``slot`` (``die`` EMPTY: clear it)."""
        self.dice[slot] = die
        self.types = self.types[:slot] + (t,) + self.types[slot + 1:]
        self.key = self.key[:slot] + (t if t == EMPTY else canon[t],) + self.key[slot + 1:]

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card, "dice": self.dice[:]}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> HandCard:
        hc = cls(d["card"], len(d["dice"]))
        hc.dice = list(d["dice"])
        return hc  # types and keys are derived: GameState.refresh_types


@dataclass
class Pick:
    """A defused bomb card whose owner still has to take its replacement (C.1.3 step 3).

    ``revealed``: in the stacks setup, the owner has already revealed a fuse card for it."""

    seat: int
    card: str
    revealed: bool = False

    def copy(self) -> Pick:
        return Pick(self.seat, self.card, self.revealed)

    def to_json(self) -> list[Any]:
        return [self.seat, self.card, self.revealed]

    @classmethod
    def from_json(cls, d: Any) -> Pick:
        return cls(int(d[0]), str(d[1]), bool(d[2]) if len(d) > 2 else False)


__all__ = ["HandCard", "Pick"]
