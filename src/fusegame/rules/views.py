"""The shapes in which dice and cards appear in views and event facts (plain JSON data)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fusegame.dice import N_TYPES, TYPE_LABELS, colours_text, type_colours, type_face

if TYPE_CHECKING:
    from fusegame.rules.state import GameState


#: per die type: its label, its colours' letters and its face (every event names dice)
_TYPE_FACTS = tuple((TYPE_LABELS[t], colours_text(type_colours(t)), type_face(t)) for t in range(N_TYPES))


def die_view(g: GameState, die: int) -> dict[str, Any]:
    """A die as it lies now: ``{"id", "die": "B4" (its label, "B4 as R" with a temporary colour),
    "colours": "B", "face": 4, "as": "R" or None}``."""
    label, colours, face = _TYPE_FACTS[g.types[die]]
    roles = g.roles
    temp = roles.temp.get(die, 0) if roles is not None else 0
    if temp:
        as_ = colours_text(temp)
        return {"id": die, "die": f"{label} as {as_}", "colours": colours, "face": face, "as": as_}
    return {"id": die, "die": label, "colours": colours, "face": face, "as": None}


def card_view(g: GameState, card_id: str) -> dict[str, Any]:
    """A bomb or spark card: ``{"id", "kind", "points", "notation", "name", "slots"}``."""
    b = g.bomb(card_id)
    return {"id": b.id, "kind": b.kind, "points": b.points, "notation": b.notation, "name": b.name,
            "slots": b.shape.size}


def die_label(fact: dict[str, Any]) -> str:
    """``B4``, ``K/Y3``, ``B4 as R``: a die view's label (notation, not words)."""
    return str(fact["die"])
