"""Grids of batches: player counts × difficulties × paces, and the option syntax that names them.

    players:     4 | 2,4 | 1-5 | all        (all: every count the game allows)
    difficulty:  standard | training,expert | training-elite | all
    pace:        12+1 | 20 | 12+1,8+0.5     (TURN[+PERDIE] seconds; PERDIE defaults to 0)

Every cell of a grid plays the same game seeds, so cells differ only by what the grid varies
(common random numbers: differences between cells are not deal-to-deal noise).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from fusegame.rules.config import GameConfig
from fusegame.rules.games import GAMES
from fusegame.sim.batch import BatchStats
from fusegame.sim.game import Pace

#: The difficulty columns in order. Heroic is Countdown's name for the top one (insane).
DIFFICULTY_ORDER = ("training", "standard", "expert", "elite", "insane")
_DIFFICULTY_ALIASES = {"heroic": "insane"}

#: Player counts of each game (``all``), from the table of games.
PLAYER_RANGES: dict[str, range] = {g.value: range(spec.players[0], spec.players[1] + 1)
                                   for g, spec in GAMES.items()}


def _unique(items: Iterable[Any]) -> list[Any]:
    return list(dict.fromkeys(items))


def _tokens(specs: str | Sequence[str]) -> list[str]:
    """The comma-separated items of one spec or of several (a repeated option)."""
    parts = [specs] if isinstance(specs, str) else list(specs)
    return [t.strip() for p in parts for t in p.split(",") if t.strip()]


def parse_players(spec: str | Sequence[str], game: str = "fuse") -> list[int]:
    """Player counts: ``4``, ``2,4``, ``1-5`` or ``all`` (what ``game`` allows), in the order given.

    Counts outside the game's range are left for ``GameConfig`` to refuse with its own message.
    """
    tokens = _tokens(spec)
    hint = "a number, a list (2,4), a range (1-5) or all"
    if not tokens:
        raise ValueError(f"expected {hint}")
    out: list[int] = []
    for tok in tokens:
        if tok.lower() == "all":
            out.extend(PLAYER_RANGES.get(game, PLAYER_RANGES["fuse"]))
            continue
        lo, sep, hi = tok.partition("-")
        try:
            a = int(lo)
            b = int(hi) if sep else a
        except ValueError:
            raise ValueError(f"expected {hint}, not {tok!r}") from None
        if b < a:
            raise ValueError(f"the range {tok!r} runs backwards")
        out.extend(range(a, b + 1))
    return _unique(out)


def _difficulty_index(name: str) -> int:
    key = _DIFFICULTY_ALIASES.get(name.lower(), name.lower())
    if key not in DIFFICULTY_ORDER:
        raise ValueError(f"unknown difficulty {name!r} (choose from {', '.join(DIFFICULTY_ORDER)}, "
                         "heroic, a range such as training-elite, or all)")
    return DIFFICULTY_ORDER.index(key)


def parse_difficulties(spec: str | Sequence[str]) -> list[str]:
    """Difficulties: ``standard``, ``training,expert``, ``standard-elite`` or ``all``.

    Heroic and insane are the same column (``insane``); each game names it its own way.
    """
    tokens = _tokens(spec)
    if not tokens:
        raise ValueError("expected a difficulty, a list, a range (training-elite) or all")
    out: list[str] = []
    for tok in tokens:
        if tok.lower() == "all":
            out.extend(DIFFICULTY_ORDER)
            continue
        lo, sep, hi = tok.partition("-")
        a = _difficulty_index(lo)
        b = _difficulty_index(hi) if sep else a
        if b < a:
            raise ValueError(f"the range {tok!r} runs backwards (the order is {', '.join(DIFFICULTY_ORDER)})")
        out.extend(DIFFICULTY_ORDER[a:b + 1])
    return _unique(out)


def _seconds(text: str, spec: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0 or text.strip().startswith(("+", "-")):
        raise ValueError(f"bad pace {spec!r}: expected TURN or TURN+PERDIE in seconds, e.g. 12+1")
    return value


def parse_pace(spec: str) -> Pace:
    """``TURN[+PERDIE]``: a turn costs TURN seconds plus PERDIE for every die rolled (``12+1``).

    >>> parse_pace("8+0.5")
    Pace(turn_seconds=8.0, die_seconds=0.5)
    """
    turn, sep, die = spec.strip().partition("+")
    return Pace(_seconds(turn, spec), _seconds(die, spec) if sep else 0.0)


def parse_paces(specs: str | Sequence[str]) -> list[Pace]:
    """Several paces, comma-separated or repeated (``12+1,8+1``)."""
    tokens = _tokens(specs)
    if not tokens:
        raise ValueError("expected TURN or TURN+PERDIE in seconds, e.g. 12+1")
    return _unique(parse_pace(t) for t in tokens)


def format_pace(pace: Pace) -> str:
    """The spec of ``pace``: ``Pace(12, 1)`` is ``12+1``, ``Pace(20, 0)`` is ``20+0``."""
    return f"{pace.turn_seconds:g}+{pace.die_seconds:g}"


@dataclass(frozen=True)
class Cell:
    """One batch of a grid: a configuration and a pace."""

    config: GameConfig
    pace: Pace

    @property
    def players(self) -> int:
        return self.config.players

    @property
    def difficulty(self) -> str:
        return self.config.difficulty.value

    @property
    def column(self) -> int:
        """The difficulty's position in ``DIFFICULTY_ORDER`` (heroic counts as insane)."""
        return _difficulty_index(self.difficulty)

    def label(self) -> str:
        return f"{self.players}p {self.difficulty} {format_pace(self.pace)}"


@dataclass(frozen=True)
class CellResult:
    """A cell and the statistics of its batch."""

    cell: Cell
    stats: BatchStats

    def to_dict(self) -> dict[str, Any]:
        """The cell and its statistics as plain data (``fuse sim --json``)."""
        return {**self.stats.to_dict(), **self.stats.details(),
                "game": self.cell.config.game.value, "players": self.cell.players,
                "difficulty": self.cell.difficulty, "pace": format_pace(self.cell.pace)}


def grid(configs: Sequence[GameConfig], paces: Sequence[Pace]) -> list[Cell]:
    """Every configuration at every pace: configurations outer, paces inner."""
    return [Cell(c, p) for c in configs for p in paces]
