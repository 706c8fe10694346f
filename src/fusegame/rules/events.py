"""Events: what every state change reports, as facts, for UIs, logs and replays.

An event is a kind and JSON-ready data: seats, card ids, numbers, and dice as views
(``rules.views.die_view``: id, label, colours, face, temporary colour). Dice given up carry their
``cause``: ``{"kind": "fuse", "card", "shows"}``, ``{"kind": "penalty", "die"}`` or
``{"kind": "no_spark"}``. Words are made from the facts at the edge: ``str(event)`` is the
engine's English log line, and ``fusegame.words`` says it in English or Spanish.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Every kind of event, with the facts it carries.
EVENT_KINDS: dict[str, tuple[str, ...]] = {
    "dice_rolled": ("leader", "dice"),
    "die_placed": ("seat", "die", "card", "slot"),
    "card_completed": ("seat", "card"),
    "bomb_defused": ("seat", "card", "points"),
    "card_taken": ("seat", "card"),
    "card_revealed": ("card",),
    "fuse_activated": ("card", "effect", "shows"),
    "die_returned": ("seat", "die", "card", "slot", "cause"),
    "seat_done": ("seat",),
    "penalty_rolled": ("die",),
    "turn_ended": ("turn", "leader"),
    "game_won": ("reason", "score"),
    "game_lost": ("reason", "score"),
    # Countdown's parts
    "spark_drawn": ("seat", "card"),
    "spark_defused": ("seat", "card"),
    "sparks_turned_over": ("cards",),
    "no_spark_left": ("seat",),
    "card_turned_down": ("seat", "card"),
    "clock_stopped": ("time_ms",),
    "role_used": ("seat", "role"),
    "role_restored": ("seat",),
    "dice_rerolled": ("dice",),
    "six_rolled": ("seat", "face"),
    "not_six": ("seat", "face"),
    "die_returned_free": ("seat", "die"),
}


@dataclass(frozen=True)
class Event:
    """One thing that happened: ``kind`` (one of ``EVENT_KINDS``) and its facts."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.data}

    def __str__(self) -> str:
        from fusegame.words import event_text

        return event_text(self.to_dict(), record=True)


__all__ = ["EVENT_KINDS", "Event"]
