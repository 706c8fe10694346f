"""How a game ended and what it scored (docs/rules.md A.8, E.1, E.3)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any


class Termination(str, Enum):
    BOMBS_DEFUSED = "bombs-defused"  #: the middle is clear (Insane/Heroic: and the hands; sparks too)
    TIME_UP = "time-up"  #: the clock reached 0:00
    BAG_EMPTY = "bag-empty"  #: dice had to be drawn and the bag was empty


@dataclass(frozen=True)
class Score:
    """The score the way the BDT Log counts it."""

    win_bonus: int
    time_bonus: int
    bomb_points: int
    fuse_points: int
    spark_points: int = 0  #: Countdown: 2 per defused spark card

    @property
    def total(self) -> int:
        return self.win_bonus + self.time_bonus + self.bomb_points + self.fuse_points + self.spark_points

    def to_dict(self) -> dict[str, int]:
        d = {"win_bonus": self.win_bonus, "time_bonus": self.time_bonus,
             "bomb_points": self.bomb_points, "fuse_points": self.fuse_points}
        if self.spark_points:
            d["spark_points"] = self.spark_points
        return {**d, "total": self.total}


@dataclass(frozen=True)
class Outcome:
    won: bool
    reason: Termination
    score: Score
    time_left_ms: int | None  #: None in an untimed game
    official: bool  #: False for untimed or non-standard-length games

    def to_dict(self) -> dict[str, Any]:
        return {"won": self.won, "reason": self.reason.value, "score": self.score.to_dict(),
                "time_left_ms": self.time_left_ms, "official": self.official}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Outcome:
        s = d["score"]
        return cls(d["won"], Termination(d["reason"]),
                   Score(s["win_bonus"], s["time_bonus"], s["bomb_points"], s["fuse_points"],
                         s.get("spark_points", 0)),
                   d["time_left_ms"], d["official"])


def score(won: bool, time_left_ms: int | None, bomb_points: int, fuses: int, sparks: int = 0) -> Score:
    """E.3: +10 and one point per full 10 s left for a win; card points, 2 per fuse card and
    2 per defused spark card always."""
    bonus = (time_left_ms or 0) // 10_000 if won else 0
    return Score(10 if won else 0, bonus, bomb_points, 2 * fuses, 2 * sparks)
