"""The pace line: how many bombs a table should have taken by now to be on course for a win.

The line is a steady pace that empties the middle with an eighth of the clock to spare (1:15 of
the 10:00): at FUSE 3 players Standard, 21 bombs, a bomb every 25 seconds. A table counts the
bombs it has taken (its score pile) against the line; the bots' games say what being ahead of it
or behind it is worth (``research/studies/pace_line.py``, written up in ``research/pace.md``).
The game screen and the Ship's Computer show it as the pace gauge.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: the share of the clock the line leaves to spare when the middle is empty
SPARE = 1 / 8


@dataclass(frozen=True)
class PaceLine:
    """A steady pace for ``needed`` bombs on a clock of ``clock_ms``."""

    needed: int
    clock_ms: int

    def __post_init__(self) -> None:
        if self.needed < 1 or self.clock_ms < 1:
            raise ValueError(f"a pace line needs bombs and a clock, not {self.needed} and {self.clock_ms} ms")

    @property
    def every_ms(self) -> float:
        """The time the line allows a bomb."""
        return self.clock_ms * (1 - SPARE) / self.needed

    def expected(self, elapsed_ms: int) -> float:
        """The bombs the line has taken after ``elapsed_ms`` of play."""
        return min(float(self.needed), max(0, elapsed_ms) / self.every_ms)

    def ahead(self, taken: int, elapsed_ms: int) -> float:
        """How many bombs ``taken`` is ahead of the line (behind it when negative)."""
        return taken - self.expected(elapsed_ms)

    def step(self, taken: int, elapsed_ms: int) -> int:
        """``ahead`` to the nearest whole bomb, as the gauge shows it (halves round up, as the
        browser's ``Math.round`` does)."""
        return math.floor(self.ahead(taken, elapsed_ms) + 0.5)


#: three bombs behind the line or more: the gauge's red (in the bots' games at three players, a
#: third or more of those games are lost)
FAR_BEHIND = -3

#: from this many players, in FUSE, the gauge turns red only at ``FAR_BEHIND_BIG``: with a die a
#: seat, those tables finish more cards a turn once many are near done, so they catch up late
BIG_TABLE = 4

#: five bombs behind the line or more: the gauge's red in FUSE at ``BIG_TABLE`` players or more (in
#: the bots' games at four and five players, three or four behind after five minutes won 92-97%
#: of games, five or more behind about four in five). Countdown at four players does not catch up
#: so: at 16 + 1 s a turn, its Expert games two to four behind won a third to a half, so its red
#: stays at three, as does the red of the games of both sets, which have no such figures
FAR_BEHIND_BIG = -5


def far_behind(game: str, players: int) -> int:
    """The step at which the gauge turns red at a table of ``players`` playing ``game`` (a
    ``rules.games.Game`` value: ``fuse``, ``countdown``, ``integrated`` or ``epic``)."""
    return FAR_BEHIND_BIG if game == "fuse" and players >= BIG_TABLE else FAR_BEHIND


def gauge_level(step: int, far: int = FAR_BEHIND) -> str:
    """The gauge's colour for a step: ``ahead``, ``line``, ``behind`` or ``far`` (``far`` behind
    or more; ``far_behind`` gives it for a table)."""
    if step > 0:
        return "ahead"
    if step == 0:
        return "line"
    return "behind" if step > far else "far"
