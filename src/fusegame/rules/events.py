"""Events: what every state change reports, for UIs, logs and replays."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """One thing that happened. ``kind`` is one of:

    ``dice_rolled``, ``die_placed``, ``card_completed``, ``bomb_defused``, ``card_taken``,
    ``card_revealed``, ``fuse_activated``, ``die_returned``, ``seat_done``, ``penalty_rolled``,
    ``turn_ended``, ``game_won``, ``game_lost``.
    """

    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.data}

    def __str__(self) -> str:
        d = self.data
        k = self.kind
        seat = f"P{d['seat'] + 1}" if "seat" in d else ""
        if k == "dice_rolled":
            return f"{'P' + str(d['leader'] + 1)} rolls " + " ".join(d["dice"])
        if k == "die_placed":
            return f"{seat} places {d['die']} on {d['card']} slot {d['slot'] + 1}"
        if k == "card_completed":
            return f"{seat} completes {d['card']}"
        if k == "bomb_defused":
            return f"{seat} defuses {d['card']} (+{d['points']})"
        if k == "card_taken":
            return f"{seat} takes {d['card']}"
        if k == "card_revealed":
            return f"{d['card']} is turned into the row"
        if k == "fuse_activated":
            return f"fuse card {d['card']} ({d['shows']}) goes off (+2)"
        if k == "die_returned":
            return f"{seat} returns {d['die']} from {d['card']} to the bag ({d['reason']})"
        if k == "seat_done":
            return f"{seat} is done"
        if k == "penalty_rolled":
            return f"unused die rolled: {d['die']}"
        if k == "turn_ended":
            return f"turn {d['turn']} ends"
        if k == "game_won":
            return f"the team wins: score {d['score']}"
        if k == "game_lost":
            return f"the team loses ({d['reason']}): score {d['score']}"
        return f"{k} {d}"
