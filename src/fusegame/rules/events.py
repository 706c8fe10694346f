"""Events: what every state change reports, for UIs, logs and replays."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """One thing that happened. ``kind`` is one of:

    ``dice_rolled``, ``die_placed``, ``card_completed``, ``bomb_defused``, ``card_taken``,
    ``card_revealed``, ``fuse_activated``, ``die_returned``, ``seat_done``, ``penalty_rolled``,
    ``turn_ended``, ``game_won``, ``game_lost``;

    and with Countdown's parts: ``spark_drawn``, ``spark_defused``, ``sparks_turned_over``,
    ``no_spark_left``, ``card_turned_down``, ``clock_stopped``, ``role_used``, ``role_restored``,
    ``dice_rerolled``, ``six_rolled``, ``not_six``, ``die_returned_free``.
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
            if "effect" in d:  # a Countdown text card: "shows" is its text
                return f"fuse card {d['card']} goes off (+2): {d['shows']}"
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
        if k == "spark_drawn":
            return f"{seat} draws spark {d['card']}"
        if k == "spark_defused":
            return f"{seat} defuses spark {d['card']} (+2)"
        if k == "sparks_turned_over":
            return f"the spark discard pile ({d['cards']} cards) becomes the spark deck"
        if k == "no_spark_left":
            return f"{seat} must draw a spark but every spark is in play: gives up a die instead"
        if k == "card_turned_down":
            return f"{seat} turns {d['card']} face down (it need not be defused)"
        if k == "clock_stopped":
            s = d["time_ms"] // 1000
            return f"the ship is saved: the clock stops after {s // 60}:{s % 60:02d}"
        if k == "role_used":
            return _role_used(seat, d)
        if k == "role_restored":
            return f"{seat}'s role card is face up again"
        if k == "dice_rerolled":
            return "rerolled: " + " ".join(d["dice"])
        if k == "six_rolled":
            return f"{seat} rolls a 6"
        if k == "not_six":
            return f"{seat} rolls a {d['face']}, not a 6"
        if k == "die_returned_free":
            return f"{seat} returns {d['die']} to the bag without penalty"
        return f"{k} {d}"


def _role_used(seat: str, d: dict[str, Any]) -> str:
    role = d.get("role")
    if role == "name":
        return f"{seat} names {d['value']}"
    if role == "recolour":
        return f"{seat} recolours d{d['die_id']}: {d['die']}"
    if role == "renumber":
        return f"{seat} turns d{d['die_id']} to {d['die']}"
    if role == "flip":
        return f"{seat} flips d{d['die_id']} to {d['die']}"
    if role == "rethrow":
        return f"{seat} rerolls " + " ".join(f"d{x}" for x in d["die_ids"])
    return f"{seat} uses a role ability {d}"
