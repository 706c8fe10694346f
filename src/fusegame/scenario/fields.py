"""What a scenario document may hold, and how it writes dice (``Y5``, ``Y5@17``, ``B4 as R``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fusegame.cards.model import Ability, FuseEffect
from fusegame.dice import BY_LETTER, NAMES, colours_text, die_text, parse_colours
from fusegame.rules.config import GameConfig
from fusegame.rules.decisions import Pending
from fusegame.rules.schema import Part, ScenarioError, kind_of, read_bool, read_int, read_list
from fusegame.rules.state import GameState, Phase
from fusegame.words.en import EFFECTS

_kind = kind_of
_int = read_int
_bool = read_bool
_list = read_list

_CORE_KEYS = {
    "title", "description", "notes", "config", "seed", "dice", "builtin_cards", "cards", "fuses",
    "spark_cards", "role_cards", "check_cards", "players", "row", "deck", "bag", "leader", "turn", "phase",
    "rolled", "unused", "removals", "removal_cause", "removal_reason", "picks", "time_left", "time_ms",
    "score_pile", "fuses_activated", "outcome",
}
_CONFIG_KEYS = ("players", "difficulty", "setup", "six_point_cards", "fuse_cards", "level_counts",
                "feasibility", "time_limit", "first_leader", "game", "modules", "dice", "shuffle_sparks")
_CARD_KEYS = {"id", "notation", "points", "name", "source", "set"}
_DIE_RE = re.compile(r"\s*([RBGYK](?:/[RBGYK])?)([1-6])?(?:\s*@\s*(\d+))?(?:\s+as\s+(\S+))?\s*")
_PHASES = {"roll": Phase.ROLL, "distribute": Phase.DISTRIBUTE, "penalty": Phase.PENALTY,
           "defuse": Phase.DEFUSE, "sparks": Phase.SPARKS}
#: fuse card symbols used when the catalogue has too few fuse cards (see _Builder.catalogue)
_PAD_FUSES = ("1", "2", "3", "4", "5", "6", "R", "B", "G", "Y", "K")
#: the rulebook's text fuse cards (docs/rules.md A.5), for ``fuse:spark`` and friends
_FUSE_TEXTS = {e: EFFECTS[e.value] for e in FuseEffect if e is not FuseEffect.SYMBOL}


def _declared_keys(per_player: bool) -> set[str]:
    return {f.doc for cls in Part.registry.values() for f in cls.fields()
            if f.doc is not None and f.per_player == per_player}


def _top_keys() -> set[str]:
    return _CORE_KEYS | _declared_keys(False)


def _player_keys() -> set[str]:
    return {"cards", "taken", "done"} | _declared_keys(True)


def _pending_kinds() -> list[type[Pending]]:
    """The kinds of pending decision a document can describe by their declared fields."""
    return [cls for cls in Part.registry.values()
            if issubclass(cls, Pending) and any(f.doc is not None for f in cls.fields())]


_kind = kind_of
_int = read_int
_bool = read_bool
_list = read_list


class _Probe(GameConfig):
    """A ``GameConfig`` that skips validation: its derived rules (sets, deck size, dice, spark
    and role use) before the catalogue exists, and to count what the catalogue must be padded with."""

    def validate(self) -> None:
        return None


def _ability(text: str) -> Ability | None:
    """``technologist``, ``Explosives Instructor``, ``operations_engineer`` -> the ability."""
    key = re.sub(r"[\s_]+", "-", text.strip().lower())
    try:
        return Ability(key)
    except ValueError:
        return None


@dataclass
class _DieRef:
    colours: int
    face: int | None
    id: int | None
    where: str
    temp: int = 0  # a temporary colour ("B4 as R"), rolled dice only

    def text(self) -> str:
        return colours_text(self.colours) + (str(self.face) if self.face else "")


def _parse_die(value: Any, where: str, need_face: bool = True, temp_ok: bool = False) -> _DieRef:
    if not isinstance(value, str):
        raise ScenarioError(where, f"expected a die such as Y5, got {_kind(value)}")
    m = _DIE_RE.fullmatch(value)
    if not m:
        raise ScenarioError(where, f"{value!r} is not a die: write its colour and face, e.g. Y5, R3 or K/Y2 "
                                   "(optionally with its die id: Y5@17)")
    try:
        colours = parse_colours(m.group(1))
    except ValueError as e:
        raise ScenarioError(where, str(e)) from None
    face = int(m.group(2)) if m.group(2) else None
    if need_face and face is None:
        raise ScenarioError(where, f"{value!r} needs a face: write e.g. {m.group(1)}5")
    temp = 0
    if m.group(4) is not None:
        if not temp_ok:
            raise ScenarioError(where, f"{value!r}: a temporary colour ('as R') only exists on a rolled die "
                                       "still in the middle (write it under rolled)")
        if m.group(4) not in BY_LETTER:
            raise ScenarioError(where, f"{value!r}: a die can be made one colour (R, B, G, Y or K), "
                                       f"not {m.group(4)!r}")
        temp = BY_LETTER[m.group(4)]
        if temp == colours:
            raise ScenarioError(where, f"{value!r}: the die is {NAMES[colours]} already")
    return _DieRef(colours, face, int(m.group(3)) if m.group(3) else None, where, temp)


def _check_keys(d: Mapping[str, Any], allowed: set[str] | tuple[str, ...], where: str) -> None:
    unknown = [str(k) for k in d if k not in allowed]
    if unknown:
        prefix = f"{where}." if where else ""
        raise ScenarioError(f"{prefix}{unknown[0]}",
                            f"unknown field (known fields: {', '.join(sorted(allowed))})")




def die_label(g: GameState, i: int, temp: bool = False) -> str:
    """``Y5@17``: die ``i`` as a document writes it (``B4@5 as R`` with a temporary colour)."""
    text = f"{die_text(g.dice.colours[i], g.faces[i])}@{i}"
    if temp and g.temp_colour(i):
        text += f" as {colours_text(g.temp_colour(i))}"
    return text
