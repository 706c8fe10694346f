"""Scenario documents: build any mid-game FUSE or FUSE: Countdown position from a small YAML or JSON
document.

A scenario names the cards in front of each player (with the dice on them), the row, the deck, the
dice in the middle, whose turn it is and how much time is left; everything it leaves out gets a
sensible default. Tests, tutorials and bug reports all use the same documents::

    config: {players: 2, difficulty: standard}
    seed: 7
    players:
      - cards:
          - {notation: "? =c|n ? =c|n ?", dice: [Y5, null, null]}
          - F12
      - [F03, F20]
    row: [F01, F02, F04, F05, F06]
    deck: [F07, "fuse:R", F08]
    rolled: [R5, B3, G1, Y2]
    time_left: 300

Countdown, the FUSE modules, integrated sets and epic games are described the same way
(``config: {game: countdown}``), with spark cards in front of the players (``{spark: "G5"}``), the
spark deck and discards, role cards (``roles: [technologist, cutter]``), temporary colours on rolled
dice (``rolled: [B4 as R]``) and the state of the leader's ability.

``load_scenario(path)``, ``scenario_from_text(text)`` and ``scenario_from_data(data)`` return a
``GameState``; ``dump_scenario(state)`` writes any state back as a document, so that
``scenario_from_data(dump_scenario(s)) == s``. Bad input raises ``ScenarioError`` (a
``ValueError``) whose message starts with the field it is about, e.g.
``players[0].cards[1].dice[2]: 'Q5' is not a die ...``. The full schema is in docs/scenarios.md.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

import yaml

from fusegame.cards.catalogue import CardDataError, Catalogue, builtin_catalogue, parse_fuse_symbol
from fusegame.cards.model import Ability, BombCard, FuseCard, FuseEffect, RoleCard
from fusegame.cards.notation import NotationError, parse
from fusegame.constraints import EMPTY, CompiledCard
from fusegame.dice import BY_LETTER, NAMES, DiceSet, colours_text, die_text, parse_colours
from fusegame.rng import Rng
from fusegame.rules import roles as _roles
from fusegame.rules.config import ConfigError, Difficulty, Game, GameConfig, Module, Setup
from fusegame.rules.outcome import Outcome
from fusegame.rules.state import GameState, HandCard, Phase

__all__ = [
    "ScenarioError", "dump_scenario", "dump_scenario_text", "load_scenario", "scenario_from_data",
    "scenario_from_text",
]


class ScenarioError(ValueError):
    """A scenario document that does not describe a valid position.

    ``where`` is the field (``players[1].cards[0].dice[2]``), ``message`` what is wrong with it.
    """

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where
        self.message = message


# ====================================================================== public API
def load_scenario(path: str | Path) -> GameState:
    """Read a scenario from a ``.yaml``/``.yml`` or ``.json`` file."""
    p = Path(path)
    try:
        text = p.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ScenarioError(str(p), f"cannot read the file: {e}") from None
    if p.suffix.lower() == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ScenarioError(str(p), f"not valid JSON: {e}") from None
        return scenario_from_data(data)
    return scenario_from_text(text, source=str(p))


def scenario_from_text(text: str, source: str = "<scenario>") -> GameState:
    """Build a position from YAML text (JSON is YAML too)."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise ScenarioError(source, f"not valid YAML: {e}") from None
    return scenario_from_data(data)


def scenario_from_data(data: Any) -> GameState:
    """Build a position from parsed scenario data (a dict, as from YAML or JSON)."""
    if not isinstance(data, Mapping):
        raise ScenarioError("", f"a scenario must be a mapping of fields, not {_kind(data)}")
    return _Builder(data).build()


def dump_scenario(state: GameState) -> dict[str, Any]:
    """Write ``state`` as a scenario document (plain data; YAML- and JSON-ready).

    Dice are written with their ids (``Y5@17``) and the generator's state as ``seed``, so loading
    the document gives back an equal state.
    """
    return _dump(state)


def dump_scenario_text(state: GameState) -> str:
    """``dump_scenario`` as YAML text."""
    return yaml.safe_dump(_dump(state), sort_keys=False, default_flow_style=None, width=110)


# ====================================================================== reading
_TOP_KEYS = {
    "title", "description", "notes", "config", "seed", "dice", "builtin_cards", "cards", "fuses",
    "spark_cards", "role_cards", "check_cards", "players", "row", "deck", "stacks", "fuse_deck", "bag",
    "leader", "turn", "phase", "rolled", "unused", "penalty_die", "removals", "removal_reason", "refills",
    "picks", "time_left", "time_ms", "score_pile", "fuses_activated", "outcome",
    "spark_deck", "spark_discard", "sparks_defused", "spark_queue", "roles", "roles_up", "named",
    "role_eligible", "role_dice", "role_uses", "bonus_die", "free_return", "rethrow", "six", "six_pending",
    "clock_stop",
}
_CONFIG_KEYS = ("players", "difficulty", "setup", "six_point_cards", "fuse_cards", "level_counts",
                "feasibility", "time_limit", "first_leader", "game", "modules", "dice", "shuffle_sparks")
_CARD_KEYS = {"id", "notation", "points", "name", "source", "set"}
_PLAYER_KEYS = {"cards", "taken", "done", "duds"}
_DIE_RE = re.compile(r"\s*([RBGYK](?:/[RBGYK])?)([1-6])?(?:\s*@\s*(\d+))?(?:\s+as\s+(\S+))?\s*")
_PHASES = {"roll": Phase.ROLL, "distribute": Phase.DISTRIBUTE, "penalty": Phase.PENALTY,
           "defuse": Phase.DEFUSE, "sparks": Phase.SPARKS}
#: players per game (RULES.md F.4)
_PLAYERS = {Game.FUSE: (1, 5), Game.COUNTDOWN: (1, 4), Game.INTEGRATED: (1, 4), Game.EPIC: (6, 9)}
#: fuse card symbols used when the catalogue has too few fuse cards (see _Builder.catalogue)
_PAD_FUSES = ("1", "2", "3", "4", "5", "6", "R", "B", "G", "Y", "K")
#: the rulebook's text fuse cards (RULES.md A.5), for ``fuse:spark`` and friends
_FUSE_TEXTS = {
    FuseEffect.SPARK: "All players must draw a spark card.",
    FuseEffect.LOSE_ROLES: "All players lose their role ability until they defuse a bomb card.",
    FuseEffect.ROLL_SIX: "All players must roll a 6 before the game continues.",
}
#: phases in which a turn's roll has happened (a Logistics leader's extra die counts)
_AFTER_ROLL = (Phase.DISTRIBUTE, Phase.DEFUSE, Phase.SPARKS, Phase.PENALTY)


def _kind(v: Any) -> str:
    if v is None:
        return "nothing (null)"
    return {bool: "true/false", int: "a number", float: "a number", str: "text", list: "a list",
            dict: "a mapping"}.get(type(v), type(v).__name__)


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


def _default_bonus(g: GameState) -> bool:
    """A Logistics Specialist leading this turn's roll (RULES.md A.7): one more die, quota + 1."""
    return g.phase in _AFTER_ROLL and g.active_ability() is Ability.LOGISTICS_SPECIALIST


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


def _int(v: Any, where: str, lo: int, hi: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise ScenarioError(where, f"expected a whole number, got {_kind(v)}")
    if v < lo or (hi is not None and v > hi):
        raise ScenarioError(where, f"{v} is out of range ({lo} to {hi})" if hi is not None
                            else f"{v} must be at least {lo}")
    return v


def _bool(v: Any, where: str) -> bool:
    if not isinstance(v, bool):
        raise ScenarioError(where, f"expected true or false, got {_kind(v)}")
    return v


def _list(v: Any, where: str) -> list[Any]:
    if v is None:
        return []
    if not isinstance(v, list):
        raise ScenarioError(where, f"expected a list, got {_kind(v)}")
    return v


def _check_keys(d: Mapping[str, Any], allowed: set[str] | tuple[str, ...], where: str) -> None:
    unknown = [str(k) for k in d if k not in allowed]
    if unknown:
        prefix = f"{where}." if where else ""
        raise ScenarioError(f"{prefix}{unknown[0]}",
                            f"unknown field (known fields: {', '.join(sorted(allowed))})")


class _Builder:
    """Reads one document; ``build`` returns the state or raises ``ScenarioError``."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.bombs: dict[str, BombCard] = {}
        self.sparks: dict[str, BombCard] = {}
        self.fuses: dict[str, FuseCard] = {}
        self.roles: dict[str, RoleCard] = {}
        self.adhoc: list[BombCard] = []
        self.adhoc_sparks: list[BombCard] = []
        self.adhoc_fuses: list[FuseCard] = []
        self.adhoc_roles: list[RoleCard] = []
        self.placed: dict[str, str] = {}  # card id -> where it is, to catch a card used twice
        self.unchecked: dict[str, str] = {}  # defined cards not yet checked to be completable
        self.types_in_play = 0
        self.probe: GameConfig = _Probe()

    # ------------------------------------------------------------------ cards
    def _taken_id(self, cid: str) -> bool:
        known = (cid in self.bombs or cid in self.sparks or cid in self.fuses or cid in self.roles)
        return known or any(c.id == cid for c in self.adhoc + self.adhoc_sparks) or any(
            c.id == cid for c in self.adhoc_fuses) or any(c.id == cid for c in self.adhoc_roles)

    def _new_id(self, prefix: str) -> str:
        n = 1
        while self._taken_id(f"{prefix}{n}"):
            n += 1
        return f"{prefix}{n}"

    def _set(self, value: Any, where: str, default: str, allowed: tuple[str, ...]) -> str:
        if value is None:
            return default
        if not isinstance(value, str) or value not in ("fuse", "countdown"):
            raise ScenarioError(f"{where}.set", f"a card's set is fuse or countdown, not {value!r}")
        if value not in allowed:
            raise ScenarioError(f"{where}.set", f"this game uses {' and '.join(allowed)} cards of this kind, "
                                                f"not {value} ones")
        return value

    def define(self, cid: str | None, text: str, points: Any, where: str, name: Any = "",
               source: Any = "scenario", bare: bool = False, spark: bool = False,
               card_set: Any = None, definition: bool = False) -> str:
        """An ad hoc bomb or spark card from notation (or the existing one if ``cid`` names the same
        card). A ``definition`` (under ``cards`` or ``spark_cards``) may be of a kind or set this game
        does not use: it joins the catalogue but cannot be used, and whether it can be completed
        is checked only where it is used."""
        if spark and not self.probe.uses_sparks and not definition:
            raise ScenarioError(where, "this game has no spark cards (they are in Countdown-style games and "
                                       "in FUSE with modules: [sparks])")
        try:
            shape = parse(text)
        except NotationError as e:
            if bare:
                raise ScenarioError(where, f"{text!r} is neither a card id in the catalogue nor card "
                                           f"notation ({e})") from None
            raise ScenarioError(where, f"bad notation {text!r}: {e}") from None
        if spark:
            if points is not None:
                raise ScenarioError(f"{where}.points", "spark cards have no points")
            pts = 0
        else:
            pts = 1 if points is None else _int(points, f"{where}.points", 1, 6)
        if not isinstance(name, str) or not isinstance(source, str):
            raise ScenarioError(where, "'name' and 'source' must be text")
        own, other = (self.sparks, self.bombs) if spark else (self.bombs, self.sparks)
        if cid is not None:
            old = own.get(cid)
            if old is not None:
                if old.notation == text and (points is None or old.points == pts):
                    return cid
                raise ScenarioError(f"{where}.id", f"{cid!r} is already a card with other notation or "
                                                   "points; choose another id")
            if cid in other:
                what = "bomb" if spark else "spark"
                raise ScenarioError(f"{where}.id", f"{cid!r} is already a {what} card")
            if cid in self.fuses or cid in self.roles:
                what = "fuse" if cid in self.fuses else "role"
                raise ScenarioError(f"{where}.id", f"{cid!r} is already a {what} card")
        else:
            cid = self._new_id("XS" if spark else "X")
        if definition:
            self.unchecked[cid] = text
        elif CompiledCard(shape, self.types_in_play).completion() is None:
            raise ScenarioError(where, f"card {text!r} can never be completed with these dice")
        both = ("fuse", "countdown")
        if spark:
            cs = self._set(card_set, where, "countdown", both if definition else ("countdown",))
            card = BombCard(cid, cs, 0, shape, text, kind="spark", name=name, source=source)
            if cs == "countdown" and self.probe.uses_sparks:
                self.sparks[cid] = card
            self.adhoc_sparks.append(card)
        else:
            sets = self.probe.bomb_sets
            cs = self._set(card_set, where, sets[-1], both if definition else sets)
            card = BombCard(cid, cs, pts, shape, text, name=name, source=source)
            if cs in sets:
                self.bombs[cid] = card
            self.adhoc.append(card)
        return cid

    def card(self, item: Any, where: str, extra: set[str] | None = None, fuse_ok: bool = False,
             accept: tuple[str, ...] = ("bomb",)) -> str:
        """Resolve a card reference (id, notation, ``fuse:R``, or a mapping) to a card id.

        ``accept`` says which kinds may stand here: ``bomb``, ``spark`` (and fuse cards with
        ``fuse_ok``); bare notation defines a spark where only sparks are accepted."""
        only_sparks = accept == ("spark",)
        if isinstance(item, int) and not isinstance(item, bool):
            item = str(item)  # YAML reads a one-slot card such as 5 as a number
        if isinstance(item, str):
            text = item.strip()
            if text in self.bombs or text in self.sparks:
                return self._accept(text, where, accept)
            if text in self.fuses or text.startswith("fuse:"):
                if not fuse_ok:
                    raise ScenarioError(where, f"{text!r} is a fuse card: fuse cards belong in the deck, "
                                               "fuse_deck or fuses_activated")
                return text if text in self.fuses else self.fuse_shorthand(text[5:], where)
            if text in self.roles:
                raise ScenarioError(where, f"{text!r} is a role card: role cards belong under roles")
            if not text:
                raise ScenarioError(where, "empty card reference")
            return self.define(None, text, None, where, bare=True, spark=only_sparks)
        if isinstance(item, Mapping):
            _check_keys(item, _CARD_KEYS | {"spark"} | (extra or set()), where)
            cid = item.get("id")
            if cid is not None and not isinstance(cid, str):
                cid = str(cid)
            if "spark" in item or "notation" in item:
                if "spark" in item and "notation" in item:
                    raise ScenarioError(where, "give 'notation' (a bomb card) or 'spark' (a spark card), "
                                               "not both")
                key = "spark" if "spark" in item else "notation"
                text = item[key]
                if not isinstance(text, str):
                    if isinstance(text, int) and not isinstance(text, bool):
                        text = str(text)
                    else:
                        raise ScenarioError(f"{where}.{key}",
                                            f"expected card notation text, got {_kind(text)}")
                spark = key == "spark" or only_sparks
                cid = self.define(cid, text, item.get("points"), where, item.get("name", ""),
                                  item.get("source", "scenario"), spark=spark, card_set=item.get("set"))
                return self._accept(cid, where, accept)
            if cid is None:
                raise ScenarioError(where,
                                    "a card needs an 'id' or a 'notation' (or, for a spark card, 'spark')")
            if "points" in item or "name" in item or "set" in item:
                raise ScenarioError(where, "'points', 'name' and 'set' need a 'notation' (an ad hoc card)")
            return self.card(cid, f"{where}.id", fuse_ok=fuse_ok, accept=accept)
        raise ScenarioError(where, f"expected a card id, card notation or a mapping, got {_kind(item)}")

    def _accept(self, cid: str, where: str, accept: tuple[str, ...]) -> str:
        kind = "spark" if cid in self.sparks else "bomb"
        if kind in accept:
            return cid
        if kind == "spark":
            raise ScenarioError(where, f"{cid!r} is a spark card: sparks belong in front of the players, in "
                                       "spark_deck, spark_discard or sparks_defused")
        raise ScenarioError(where, f"{cid!r} is not a spark card")

    def fuse_shorthand(self, symbol: str, where: str) -> str:
        numbers: tuple[int, ...]
        effect = next((e for e in _FUSE_TEXTS if e.value == symbol.strip()), None)
        colours, numbers = 0, ()
        if effect is None:
            try:
                colours, numbers = parse_fuse_symbol(symbol)
            except ValueError as e:
                raise ScenarioError(where, f"fuse:{symbol}: {e} (or a text card: fuse:spark, "
                                           "fuse:lose-roles, fuse:roll-six)") from None
        for f in self.fuses.values():
            if f.id in self.placed:
                continue
            if effect is not None and f.effect is effect:
                return f.id
            if effect is None and f.effect is FuseEffect.SYMBOL and f.colours == colours \
                    and f.numbers == numbers:
                return f.id
        fid = f"FZ{symbol.replace(' ', '')}"
        if self._taken_id(fid):
            fid = self._new_id(fid + "_")
        card_set = self.probe.fuse_sets[-1]
        if effect is not None:
            card = FuseCard(fid, card_set, text=_FUSE_TEXTS[effect], effect=effect)
        else:
            card = FuseCard(fid, card_set, colours, numbers)
        self.fuses[fid] = card
        self.adhoc_fuses.append(card)
        return fid

    def use(self, cid: str, where: str) -> str:
        text = self.unchecked.pop(cid, None)
        if text is not None and CompiledCard(parse(text), self.types_in_play).completion() is None:
            raise ScenarioError(where, f"card {cid} ({text!r}) can never be completed with these dice")
        if cid in self.placed:
            raise ScenarioError(where, f"card {cid!r} is already used at {self.placed[cid]} (each card "
                                       "can be in one place only)")
        self.placed[cid] = where
        return cid

    def card_list(self, key: str, fuse_ok: bool = False, bombs_only: bool = True,
                  accept: tuple[str, ...] = ("bomb",), place: bool = True) -> list[str]:
        out = []
        for i, item in enumerate(_list(self.data.get(key), key)):
            where = f"{key}[{i}]"
            cid = self.card(item, where, fuse_ok=fuse_ok, accept=accept)
            if place:
                self.use(cid, where)
            if not fuse_ok and bombs_only and accept == ("bomb",) and cid not in self.bombs:
                raise ScenarioError(where, f"{cid!r} is not a bomb card")
            out.append(cid)
        return out

    def _defined_id(self, item: Mapping[str, Any], where: str, what: str) -> str:
        """The ``id`` of a card being defined: present, and no other card's."""
        cid = item.get("id")
        if not isinstance(cid, str) or not cid:
            raise ScenarioError(f"{where}.id", f"{what} needs an id")
        if self._taken_id(cid):
            raise ScenarioError(f"{where}.id", f"{cid!r} is already a card")
        return cid

    def define_fuse(self, item: Any, where: str) -> None:
        if not isinstance(item, Mapping):
            raise ScenarioError(where, "a fuse card definition is a mapping with 'id' and 'shows' (or "
                                       "'effect')")
        _check_keys(item, {"id", "shows", "effect", "text", "set"}, where)
        fid = self._defined_id(item, where, "a fuse card")
        sets = self.probe.fuse_sets
        card_set = self._set(item.get("set"), where, sets[-1], ("fuse", "countdown"))
        text = item.get("text", "")
        if not isinstance(text, str):
            raise ScenarioError(f"{where}.text", f"expected text, got {_kind(text)}")
        if "effect" in item:
            if "shows" in item:
                raise ScenarioError(where, "a text fuse card ('effect') shows no symbols: drop 'shows'")
            effect = next((e for e in _FUSE_TEXTS if e.value == item["effect"]), None)
            if effect is None:
                raise ScenarioError(f"{where}.effect", f"unknown fuse effect {item['effect']!r} (choose from "
                                                       f"{', '.join(e.value for e in _FUSE_TEXTS)})")
            card_f = FuseCard(fid, card_set, text=text, effect=effect)
        else:
            shows = item.get("shows")
            try:
                colours, numbers = parse_fuse_symbol(str(shows if shows is not None else ""))
            except ValueError as e:
                raise ScenarioError(f"{where}.shows", str(e)) from None
            card_f = FuseCard(fid, card_set, colours, numbers, text=text)
        if card_set in sets:
            self.fuses[fid] = card_f
        self.adhoc_fuses.append(card_f)

    def define_role(self, item: Any, where: str) -> None:
        if not isinstance(item, Mapping):
            raise ScenarioError(where, "a role card definition is a mapping with 'id' and 'ability'")
        _check_keys(item, {"id", "ability", "name", "text", "set"}, where)
        rid = self._defined_id(item, where, "a role card")
        raw = item.get("ability")
        ab = _ability(raw) if isinstance(raw, str) else None
        if ab is None:
            raise ScenarioError(f"{where}.ability", f"unknown ability {raw!r} (choose from "
                                                    f"{', '.join(a.value for a in Ability)})")
        name, text = item.get("name", ""), item.get("text", "")
        if not isinstance(name, str) or not isinstance(text, str):
            raise ScenarioError(where, "'name' and 'text' must be text")
        card_set = self._set(item.get("set"), where, "countdown", ("fuse", "countdown"))
        role = RoleCard(rid, card_set, ab, name or ab.value.replace("-", " ").title(), text)
        if card_set == "countdown" and self.probe.uses_roles:
            self.roles[rid] = role
        self.adhoc_roles.append(role)

    # ------------------------------------------------------------------ config and catalogue
    def config_kwargs(self) -> dict[str, Any]:
        raw = self.data.get("config") or {}
        if not isinstance(raw, Mapping):
            raise ScenarioError("config", f"expected a mapping of options, got {_kind(raw)}")
        _check_keys(raw, _CONFIG_KEYS, "config")
        kw: dict[str, Any] = dict(raw)
        game = Game.FUSE
        if "game" in kw:
            value = kw["game"]
            if not isinstance(value, str) or value not in {g.value for g in Game}:
                raise ScenarioError("config.game", f"unknown game {value!r} (choose from "
                                                   f"{', '.join(g.value for g in Game)})")
            game = kw["game"] = Game(value)
        if "modules" in kw:
            mods = kw["modules"]
            if isinstance(mods, str):
                mods = mods.replace(",", " ").split()
            mods = _list(mods, "config.modules")
            out = []
            for i, m in enumerate(mods):
                if not isinstance(m, str) or m not in {x.value for x in Module}:
                    raise ScenarioError(f"config.modules[{i}]", f"unknown module {m!r} (choose from "
                                                                f"{', '.join(x.value for x in Module)})")
                out.append(Module(m))
            if out and game is not Game.FUSE:
                raise ScenarioError("config.modules", f"modules add Countdown parts to FUSE; a {game.value} "
                                                      "game has them all already (use them with game: fuse)")
            kw["modules"] = tuple(out)
        if kw.get("dice") is not None:
            if not isinstance(kw["dice"], str):
                raise ScenarioError("config.dice", "write the dice as text, e.g. '4R 4B 4G 4Y 4K 1K/Y ...'")
            try:
                dice = DiceSet.parse(kw["dice"])
            except ValueError as e:
                raise ScenarioError("config.dice", str(e)) from None
            if not 1 <= len(dice) <= 100:
                raise ScenarioError("config.dice", "a game has 1 to 100 dice")
        lo, hi = _PLAYERS[game]
        players = _list(self.data.get("players"), "players")
        if "players" in kw:
            kw["players"] = _int(kw["players"], "config.players", lo, hi)
            if players and len(players) != kw["players"]:
                raise ScenarioError("players", f"lists {len(players)} players but config.players is "
                                               f"{kw['players']}")
        else:
            if not players:
                raise ScenarioError("players", "list each player's cards (or set config.players)")
            if not lo <= len(players) <= hi:
                name = "FUSE" if game is Game.FUSE else f"{game.value} games"
                raise ScenarioError("players", f"{name} {'is' if game is Game.FUSE else 'are'} for {lo} to "
                                               f"{hi} players, not {len(players)}")
            kw["players"] = len(players)
        for key in ("difficulty", "setup"):
            if key in kw and not isinstance(kw[key], str):
                raise ScenarioError(f"config.{key}", f"expected text, got {_kind(kw[key])}")
        for key in ("six_point_cards", "feasibility", "shuffle_sparks"):
            if key in kw:
                _bool(kw[key], f"config.{key}")
        if kw.get("fuse_cards") is not None:
            _int(kw["fuse_cards"], "config.fuse_cards", 0)
        if kw.get("time_limit") is not None:
            _int(kw["time_limit"], "config.time_limit", 1)
        if kw.get("first_leader") is not None:
            _int(kw["first_leader"], "config.first_leader", 0)
        if kw.get("level_counts") is not None:
            lc = kw["level_counts"]
            if not isinstance(lc, Mapping):
                raise ScenarioError("config.level_counts", "expected a mapping level -> number of cards")
            try:
                kw["level_counts"] = tuple(sorted((int(k), int(v)) for k, v in lc.items()))
            except (TypeError, ValueError):
                raise ScenarioError("config.level_counts",
                                    "levels and counts must be whole numbers") from None
        try:
            kw["difficulty"] = Difficulty(kw.get("difficulty", "standard"))
        except ValueError:
            raise ScenarioError("config.difficulty", f"unknown difficulty {kw['difficulty']!r} (choose from "
                                f"{', '.join(d.value for d in Difficulty)})") from None
        try:
            kw["setup"] = Setup(kw.get("setup", "standard"))
        except ValueError:
            raise ScenarioError("config.setup", f"unknown setup {kw['setup']!r} (choose from "
                                f"{', '.join(s.value for s in Setup)})") from None
        return kw

    def catalogue(self, kw: dict[str, Any], builtin: Catalogue | None) -> Catalogue | None:
        """The catalogue for the config: None (the built-in one) unless cards were added or padded.

        ``GameConfig.validate`` wants enough cards to set up a whole game of this size (bomb cards
        for the deck and the hands, fuse cards for ``config.fuse_cards``, spark cards, a role card
        per player): a position needs none of that, so the catalogue is padded with filler cards
        of the game's sets that are never dealt anywhere (ids PAD1..., PZ1..., PS1..., PR1...)."""
        base = builtin or Catalogue((), ())
        bombs = base.bombs + tuple(self.adhoc)
        fuses = base.fuses + tuple(self.adhoc_fuses)
        sparks = base.sparks + tuple(self.adhoc_sparks)
        roles = base.roles + tuple(self.adhoc_roles)
        custom = builtin is None or bool(self.adhoc or self.adhoc_fuses or self.adhoc_sparks
                                         or self.adhoc_roles)
        probe = _Probe(**kw, cards=Catalogue(bombs, fuses, "scenario", sparks, roles))
        playable = probe.playable
        need = probe.deck_size + (0 if probe.hands_in_deck else probe.hand_size * probe.players + 4)
        bomb_set = probe.bomb_sets[-1]
        pad: list[BombCard] = []
        for i in range(need - len(playable.bombs)):
            cid = self._new_id("PAD")
            card = BombCard(cid, bomb_set, i % 4 + 1, parse("? ?"), "? ?", source="scenario-padding")
            self.bombs[cid] = card
            pad.append(card)
        pad_fuses: list[FuseCard] = []
        want = kw.get("fuse_cards")
        if want is None:
            want = 0 if probe.countdown_rules else 6
        for i in range(want - len(playable.fuses)):
            fid = self._new_id("PZ")
            colours, numbers = parse_fuse_symbol(_PAD_FUSES[i % len(_PAD_FUSES)])
            card_f = FuseCard(fid, probe.fuse_sets[-1], colours, numbers)
            self.fuses[fid] = card_f
            pad_fuses.append(card_f)
        pad_sparks: list[BombCard] = []
        if probe.uses_sparks and not playable.sparks:
            sid = self._new_id("PS")
            spark = BombCard(sid, "countdown", 0, parse("?"), "?", kind="spark", source="scenario-padding")
            self.sparks[sid] = spark
            pad_sparks.append(spark)
        pad_roles: list[RoleCard] = []
        if probe.uses_roles:
            abilities = list(Ability)
            for i in range(probe.players - len(playable.roles)):
                ab = abilities[i % len(abilities)]
                role = RoleCard(self._new_id("PR"), "countdown", ab, ab.value.replace("-", " ").title())
                self.roles[role.id] = role
                pad_roles.append(role)
        if pad or pad_fuses or pad_sparks or pad_roles:
            custom = True
        if not custom:
            return None
        return Catalogue(bombs + tuple(pad), fuses + tuple(pad_fuses), "scenario", sparks + tuple(pad_sparks),
                         roles + tuple(pad_roles))

    def resolve_roles(self, n: int) -> tuple[list[str], list[bool]] | None:
        """``roles`` (a role card id or an ability per seat, null for none) and ``roles_up``."""
        d = self.data
        if d.get("roles") is None:
            if d.get("roles_up") is not None:
                raise ScenarioError("roles_up", "give the role cards (roles) too")
            return None
        if not self.probe.uses_roles:
            raise ScenarioError("roles", "this game has no role cards (they are in countdown and integrated "
                                         "games, and in FUSE with modules: [roles])")
        raw = _list(d["roles"], "roles")
        if len(raw) != n:
            raise ScenarioError("roles", f"lists {len(raw)} roles for {n} players (one per player; null "
                                         "for a player without one)")
        out: list[str] = []
        used: dict[str, str] = {}
        for i, v in enumerate(raw):
            where = f"roles[{i}]"
            if v is None or v == "":
                out.append("")
                continue
            if not isinstance(v, str):
                raise ScenarioError(where, f"expected a role card id or a role such as technologist, "
                                           f"got {_kind(v)}")
            if v in self.roles:
                rid = v
            else:
                ab = _ability(v)
                if ab is None:
                    raise ScenarioError(where, f"{v!r} is neither a role card id nor a role (choose from "
                                               f"{', '.join(a.value for a in Ability)})")
                cards = [r for r in self.roles.values() if r.ability is ab]
                free = [r for r in cards if r.id not in used]
                if free:
                    rid = free[0].id
                elif cards:
                    raise ScenarioError(where, f"the only {ab.value} role card ({cards[0].id}) is already at "
                                               f"{used[cards[0].id]}")
                else:  # no such card in the catalogue (builtin_cards: false): an ad hoc one
                    role = RoleCard(self._new_id("XR"), "countdown", ab, ab.value.replace("-", " ").title())
                    self.roles[role.id] = role
                    self.adhoc_roles.append(role)
                    rid = role.id
            if rid in used:
                raise ScenarioError(where, f"role card {rid} is already at {used[rid]}")
            used[rid] = where
            out.append(rid)
        up_raw = d.get("roles_up", True)
        if isinstance(up_raw, bool):
            up = [up_raw] * n
        else:
            items = _list(up_raw, "roles_up")
            if len(items) != n:
                raise ScenarioError("roles_up", f"lists {len(items)} values for {n} players (or write one "
                                                "true/false for all)")
            up = [_bool(x, f"roles_up[{i}]") for i, x in enumerate(items)]
        return out, up

    # ------------------------------------------------------------------ build
    def build(self) -> GameState:
        d = self.data
        _check_keys(d, _TOP_KEYS, "")
        kw = self.config_kwargs()
        n_players: int = kw["players"]
        self.probe = probe = _Probe(**kw)

        dice = probe.dice_set
        raw_dice = d.get("dice")
        if isinstance(raw_dice, list):  # one colour set per die id, as dump_scenario may write it
            try:
                dice = DiceSet(tuple(parse_colours(str(c)) for c in raw_dice))
            except ValueError as e:
                raise ScenarioError("dice", str(e)) from None
        elif raw_dice is not None:
            if not isinstance(raw_dice, str):
                raise ScenarioError("dice", "write the dice as text, e.g. '5R 5B 5G 5Y 5K'")
            try:
                dice = DiceSet.parse(raw_dice)
            except ValueError as e:
                raise ScenarioError("dice", str(e)) from None
        if not 1 <= len(dice) <= 100:
            raise ScenarioError("dice", "a game has 1 to 100 dice")
        self.types_in_play = dice.types_in_play

        builtin_cards = _bool(d.get("builtin_cards", True), "builtin_cards")
        builtin: Catalogue | None = None
        if builtin_cards:
            try:
                builtin = builtin_catalogue()
            except (CardDataError, ValueError) as e:
                raise ScenarioError("builtin_cards", f"the built-in catalogue cannot be loaded ({e}); set "
                                                     "builtin_cards: false and define the cards") from None
            self.bombs.update((b.id, b) for b in builtin.bombs if b.set in probe.bomb_sets)
            self.fuses.update((f.id, f) for f in builtin.fuses if f.set in probe.fuse_sets)
            if probe.uses_sparks:
                self.sparks.update((s.id, s) for s in builtin.sparks if s.set == "countdown")
            if probe.uses_roles:
                self.roles.update((r.id, r) for r in builtin.roles if r.set == "countdown")

        for key in ("cards", "spark_cards"):
            spark = key == "spark_cards"
            for i, item in enumerate(_list(d.get(key), key)):
                where = f"{key}[{i}]"
                if not isinstance(item, Mapping) or not isinstance(item.get("notation"), str):
                    raise ScenarioError(where, f"a{' spark' if spark else ''} card definition is a mapping "
                                               "with 'notation' (and 'id', 'points', 'name')")
                _check_keys(item, _CARD_KEYS, where)
                cid = item.get("id")
                self.define(None if cid is None else str(cid), item["notation"], item.get("points"), where,
                            item.get("name", ""), item.get("source", "scenario"), spark=spark,
                            card_set=item.get("set"), definition=True)
        for i, item in enumerate(_list(d.get("fuses"), "fuses")):
            self.define_fuse(item, f"fuses[{i}]")
        for i, item in enumerate(_list(d.get("role_cards"), "role_cards")):
            self.define_role(item, f"role_cards[{i}]")

        # ---- cards in play
        players_raw = _list(d.get("players"), "players") or [[] for _ in range(n_players)]
        hands: list[list[tuple[str, list[Any], str]]] = []
        duds: list[list[str]] = []
        extra: list[dict[str, Any]] = []
        in_hand = ("bomb", "spark") if probe.uses_sparks else ("bomb",)
        for p, entry in enumerate(players_raw):
            where = f"players[{p}]"
            if isinstance(entry, list):
                entry = {"cards": entry}
            if not isinstance(entry, Mapping):
                raise ScenarioError(where, "expected a list of cards or a mapping with 'cards', "
                                           f"got {_kind(entry)}")
            _check_keys(entry, _PLAYER_KEYS, where)
            hand = []
            for c, item in enumerate(_list(entry.get("cards"), f"{where}.cards")):
                cw = f"{where}.cards[{c}]"
                cid = self.use(self.card(item, cw, extra={"dice"}, accept=in_hand), cw)
                dice_raw = item.get("dice") if isinstance(item, Mapping) else None
                hand.append((cid, _list(dice_raw, f"{cw}.dice"), cw))
            hands.append(hand)
            down = []
            for c, item in enumerate(_list(entry.get("duds"), f"{where}.duds")):
                cw = f"{where}.duds[{c}]"
                down.append(self.use(self.card(item, cw), cw))
            duds.append(down)
            extra.append(dict(entry))
        row = self.card_list("row")
        deck = self.card_list("deck", fuse_ok=True)
        stacks: dict[int, list[str]] = {}
        raw_stacks = d.get("stacks") or {}
        if not isinstance(raw_stacks, Mapping):
            raise ScenarioError("stacks", "expected a mapping level -> cards (top first)")
        for lv, items in raw_stacks.items():
            where = f"stacks.{lv}"
            try:
                level = int(lv)
            except (TypeError, ValueError):
                raise ScenarioError(where, "stack levels are point values (1, 2, 3, 4, 6)") from None
            cards = []
            for i, item in enumerate(_list(items, where)):
                cid = self.use(self.card(item, f"{where}[{i}]"), f"{where}[{i}]")
                if self.bombs[cid].points != level:
                    raise ScenarioError(f"{where}[{i}]",
                                        f"{cid} is worth {self.bombs[cid].points}, not {level}")
                cards.append(cid)
            stacks[level] = cards[::-1]
        fuse_deck = self.card_list("fuse_deck", fuse_ok=True)
        score_pile = self.card_list("score_pile")
        fuses_activated = self.card_list("fuses_activated", fuse_ok=True)
        for key, ids in (("deck", deck), ("fuse_deck", fuse_deck), ("fuses_activated", fuses_activated)):
            for i, cid in enumerate(ids):
                if key != "deck" and cid not in self.fuses:
                    raise ScenarioError(f"{key}[{i}]", f"{cid!r} is not a fuse card")
        for key in ("spark_deck", "spark_discard", "sparks_defused"):
            if not probe.uses_sparks and d.get(key):
                raise ScenarioError(key, "this game has no spark cards (they are in Countdown-style games "
                                         "and in FUSE with modules: [sparks])")
        spark_rest = d.get("spark_deck", "rest") in ("rest", None) and probe.uses_sparks
        spark_deck = [] if spark_rest else self.card_list("spark_deck", accept=("spark",))
        spark_discard = self.card_list("spark_discard", accept=("spark",))
        # defused sparks are a record, not a place: a spark turned over with the discards can be
        # defused again
        sparks_defused = self.card_list("sparks_defused", accept=("spark",), place=False)
        role_deal = self.resolve_roles(n_players)

        # ---- config, catalogue, state
        catalogue = self.catalogue(kw, builtin)
        try:
            config = GameConfig(**kw, cards=catalogue)
        except ConfigError as e:
            raise ScenarioError("config", str(e)) from None
        except TypeError as e:
            raise ScenarioError("config", f"bad option: {e}") from None
        if (stacks or fuse_deck) and config.setup is not Setup.STACKS:
            raise ScenarioError("stacks", "stacks and fuse_deck need config.setup: stacks")
        if config.setup is Setup.STACKS and (row or deck):
            raise ScenarioError("row", "the stacks setup has no row or deck (use stacks and fuse_deck)")
        g = GameState(config, dice)
        seed = d.get("seed", 0)
        g.rng = Rng(_int(seed, "seed", 0))
        g.row, g.deck, g.stacks, g.fuse_deck = row, deck[::-1], stacks, fuse_deck[::-1]
        g.score_pile, g.fuses_activated = score_pile, fuses_activated
        for p, hand in enumerate(hands):
            g.hands[p] = [HandCard(cid, g.bomb(cid).shape.size) for cid, _, _ in hand]
        g.duds = duds
        if spark_rest:  # every spark card not in play, in catalogue order, the first on top
            g.spark_deck = [s.id for s in config.playable.sparks
                            if s.id not in self.placed and s.source != "scenario-padding"][::-1]
        else:
            g.spark_deck = spark_deck[::-1]
        g.spark_discard, g.sparks_defused = spark_discard, sparks_defused
        if role_deal is not None:
            g.roles, g.roles_up = role_deal

        outcome = d.get("outcome")
        over = outcome is not None
        if over:
            if not isinstance(outcome, Mapping):
                raise ScenarioError("outcome", "expected a mapping (as Outcome.to_dict writes it)")
            try:
                g.outcome = Outcome.from_dict(dict(outcome))
            except (KeyError, TypeError, ValueError) as e:
                raise ScenarioError("outcome", f"not a valid outcome ({e})") from None

        # ---- phase and turn
        rolled_raw = _list(d.get("rolled"), "rolled")
        unused_raw = _list(d.get("unused"), "unused")
        phase_raw = d.get("phase")
        if phase_raw is None:
            after = Phase.SPARKS if config.uses_sparks else Phase.PENALTY
            phase = after if unused_raw else Phase.DISTRIBUTE if rolled_raw else Phase.ROLL
        elif not isinstance(phase_raw, str) or phase_raw not in _PHASES:
            raise ScenarioError("phase", f"unknown phase {phase_raw!r} (distribute, defuse, sparks, penalty "
                                         "or roll; a finished game is written with 'outcome')")
        else:
            phase = _PHASES[phase_raw]
        if not over:
            if phase is Phase.PENALTY and config.uses_sparks:
                raise ScenarioError("phase", "this game draws sparks for untaken dice instead of rerolling "
                                             "them (phase: sparks)")
            if phase is Phase.SPARKS and not config.uses_sparks:
                raise ScenarioError("phase", "this game has no spark cards: untaken dice are rerolled "
                                             "(phase: penalty)")
            if phase is Phase.DEFUSE and not config.countdown_rules:
                raise ScenarioError("phase", "only Countdown-style games defuse cards in a Step 3 (phase: "
                                             "defuse); FUSE defuses a card the moment it is complete")
            if phase is Phase.ROLL and rolled_raw:
                raise ScenarioError("rolled", "no dice are in the middle while the next roll is awaited "
                                              "(phase: roll)")
            if phase in (Phase.ROLL, Phase.DISTRIBUTE) and unused_raw:
                raise ScenarioError("unused", "unused dice only exist in the penalty phase (FUSE) and in "
                                              "Countdown's Steps 3 and 4 (phase: penalty, defuse or sparks)")
        g.phase = Phase.OVER if over else phase
        g.leader = _int(d.get("leader", 0), "leader", 0, n_players - 1)
        g.turn = _int(d.get("turn", 1), "turn", 1)

        # ---- time
        clock_stop = d.get("clock_stop")
        if clock_stop is not None:
            g.clock_stop = _int(clock_stop, "clock_stop", 0)
        if "time_left" in d and "time_ms" in d:
            raise ScenarioError("time_left", "give time_left or time_ms, not both")
        if "time_left" in d:
            left = d["time_left"]
            if isinstance(left, bool) or not isinstance(left, (int, float)) or not math.isfinite(left) \
                    or left < 0:
                raise ScenarioError("time_left", f"expected seconds left (a number >= 0), got {left!r}")
            if config.time_limit is None:
                raise ScenarioError("time_left",
                                    "this game is untimed (config.time_limit: null); use time_ms")
            if left > config.time_limit:
                raise ScenarioError("time_left",
                                    f"{left} s is more than the time limit ({config.time_limit} s)")
            g.time_ms = round((config.time_limit - left) * 1000)
        elif "time_ms" in d:
            g.time_ms = _int(d["time_ms"], "time_ms", 0)
            if config.time_limit is not None and g.time_ms > config.time_limit * 1000 \
                    and g.clock_stop is None:
                raise ScenarioError("time_ms",
                                    f"{g.time_ms} ms is past the time limit ({config.time_limit} s)")
        if g.clock_stop is not None and g.clock_stop > g.time_ms:
            raise ScenarioError("clock_stop", f"the clock cannot stop ({g.clock_stop} ms) after the game "
                                              f"time ({g.time_ms} ms)")

        # ---- dice
        middle = self.place_dice(g, hands, rolled_raw, unused_raw, over)
        g.refresh_types()
        if g.phase in (Phase.DISTRIBUTE, Phase.OVER):
            g.free = middle  # the rolled dice in the middle (not those since returned to the bag)
        if _bool(d.get("check_cards", True), "check_cards"):
            for p, hand in enumerate(hands):
                for hc, (cid, _, cw) in zip(g.hands[p], hand):
                    if not _reachable(g.card_rules(cid), hc.types):
                        raise ScenarioError(f"{cw}.dice", f"these dice cannot all be on {cid} "
                                            f"({g.bomb(cid).notation}): no order of legal placements "
                                            "leads there (set check_cards: false to allow it)")

        # ---- the leader's ability, taken dice, text fuse cards
        self.turn_state(g, extra, over)

        # ---- pending decisions
        self.pending(g, over)
        if not over:
            self.check_endgame(g)
            g.settle()  # e.g. a distribution nobody can take part in moves on
        return g

    def place_dice(self, g: GameState, hands: list[list[tuple[str, list[Any], str]]], rolled_raw: list[Any],
                   unused_raw: list[Any], over: bool) -> list[int]:
        """Give every die of the document a concrete die id; check that the dice add up.

        Returns the rolled dice that are in the middle (on no card and not in the bag)."""
        n = len(g.dice)
        refs: list[tuple[str, _DieRef, tuple[Any, ...]]] = []  # (place, die, detail)
        for p, hand in enumerate(hands):
            for c, (cid, dice_raw, cw) in enumerate(hand):
                size = g.bomb(cid).shape.size
                if len(dice_raw) > size:
                    raise ScenarioError(f"{cw}.dice", f"{cid} has {size} slots, {len(dice_raw)} dice given")
                for s, v in enumerate(dice_raw):
                    if v is not None:
                        refs.append(("card", _parse_die(v, f"{cw}.dice[{s}]"), (p, c, s)))
        for i, v in enumerate(rolled_raw):
            refs.append(("rolled", _parse_die(v, f"rolled[{i}]", temp_ok=True), (i,)))
        for i, v in enumerate(unused_raw):
            refs.append(("unused", _parse_die(v, f"unused[{i}]"), (i,)))
        bag_raw = self.data.get("bag", "rest")
        rest = bag_raw == "rest" or bag_raw is None
        if not rest:
            for i, v in enumerate(_list(bag_raw, "bag")):
                refs.append(("bag", _parse_die(v, f"bag[{i}]", need_face=False), (i,)))

        where_id: dict[int, list[tuple[str, _DieRef]]] = {}
        face: dict[int, int] = {}
        for place, ref, _ in refs:  # explicit ids first
            if ref.id is None:
                continue
            if ref.id >= n:
                raise ScenarioError(ref.where, f"there is no die {ref.id} (die ids run from 0 to {n - 1})")
            if g.dice.colours[ref.id] != ref.colours:
                raise ScenarioError(ref.where, f"die {ref.id} is {colours_text(g.dice.colours[ref.id])}, "
                                               f"not {colours_text(ref.colours)}")
            if ref.face is not None:
                if face.setdefault(ref.id, ref.face) != ref.face:
                    raise ScenarioError(ref.where, f"die {ref.id} shows {face[ref.id]} elsewhere")
            where_id.setdefault(ref.id, []).append((place, ref))
        free = {cs: [i for i in range(n) if g.dice.colours[i] == cs and i not in where_id]
                for cs in set(g.dice.colours)}
        for place, ref, _ in refs:  # then the lowest free id of the die's colours
            if ref.id is not None:
                continue
            pool = free.get(ref.colours, [])
            if not pool:
                total = g.dice.colours.count(ref.colours)
                name = NAMES.get(ref.colours, colours_text(ref.colours))
                raise ScenarioError(ref.where, f"one {name} die too many: the game has {total} {name} "
                                               f"dice and they are all used already")
            ref.id = pool.pop(0)
            if ref.face is not None:
                face[ref.id] = ref.face
            where_id[ref.id] = [(place, ref)]

        # each die is in exactly one place: the bag, a card slot or the middle; a `rolled` entry may
        # repeat (by id) a die rolled this turn that is now on a card or back in the bag
        middle_kind = "rolled" if g.phase in (Phase.ROLL, Phase.DISTRIBUTE) else "unused"
        for i, places in where_id.items():
            kinds = [k for k, _ in places]
            homes = [k for k in kinds if k != "rolled"]
            if len(homes) > 1 or kinds.count("rolled") > 1:
                a, b = places[0][1].where, places[1][1].where
                raise ScenarioError(b, f"die {i} is also at {a}: a die can only be in one place")
            if not homes and middle_kind != "rolled" and not over:
                raise ScenarioError(places[0][1].where, f"die {i} was rolled this turn but is neither "
                                                        "unused, on a card nor in the bag")
        missing = [i for i in range(n) if i not in where_id]
        if missing and not rest:
            counts = {cs: sum(1 for i in missing if g.dice.colours[i] == cs) for cs in set(g.dice.colours)}
            what = ", ".join(f"{k} {NAMES.get(cs, colours_text(cs))}"
                             for cs, k in sorted(counts.items()) if k)
            raise ScenarioError("bag", f"{len(missing)} dice are nowhere ({what}): the bag, the cards and "
                                       f"the middle must hold all {n} dice (write bag: rest)")

        for i, f in face.items():
            g.faces[i] = f
        g.bag = sorted(missing + [i for i, ps in where_id.items() if any(k == "bag" for k, _ in ps)])
        for place, ref, detail in refs:
            if place == "card":
                p, c, s = detail
                assert ref.id is not None
                g.hands[p][c].dice[s] = ref.id
        g.rolled = [r.id for k, r, _ in refs if k == "rolled" and r.id is not None]
        g.unused = [r.id for k, r, _ in refs if k == "unused" and r.id is not None]
        for u in g.unused:
            if u not in g.rolled:
                g.rolled.append(u)
        middle = [i for i in g.rolled if all(k == "rolled" for k, _ in where_id[i])]
        for _, ref, _ in refs:
            if ref.temp:
                assert ref.id is not None
                if ref.id not in middle:
                    raise ScenarioError(ref.where, f"die {ref.id} has a temporary colour but is not in the "
                                                   "middle (a changed colour reverts once the die is placed)")
                g.temp[ref.id] = ref.temp
        return middle

    def die_on(self, g: GameState, value: Any, where: str, among: list[int]) -> int:
        ref = _parse_die(value, where, need_face=False)
        hits = [i for i in among if g.dice.colours[i] == ref.colours and ref.face in (None, g.faces[i])
                and ref.id in (None, i)]
        if not hits:
            raise ScenarioError(where, f"no {ref.text()} die there")
        if len(hits) > 1:
            raise ScenarioError(where,
                                f"several {ref.text()} dice fit: add the die id ({ref.text()}@{hits[0]})")
        return hits[0]

    def seats(self, key: str, n: int) -> list[int]:
        return [_int(v, f"{key}[{i}]", 0, n - 1) for i, v in enumerate(_list(self.data.get(key), key))]

    def turn_state(self, g: GameState, extra: list[dict[str, Any]], over: bool) -> None:
        """The leader's ability this turn, the dice each player has taken, the text fuse cards."""
        d = self.data
        n = g.players
        if not g.roles:
            for key in ("named", "role_eligible", "role_dice", "role_uses", "rethrow"):
                if d.get(key):
                    raise ScenarioError(key, "nobody has a role card (give the roles)")
        named = d.get("named")
        if named is not None and named != "":
            if isinstance(named, int) and not isinstance(named, bool):
                named = str(named)
            if not isinstance(named, str):
                raise ScenarioError("named", f"expected a colour letter or a number, got {_kind(named)}")
            role = g.roles[g.leader] if g.roles else ""
            ability = g.role(role).ability if role else None
            if ability is Ability.CUTTER:
                if named not in BY_LETTER:
                    raise ScenarioError("named",
                                        f"the Cutter names a colour (R, B, G, Y or K), not {named!r}")
            elif ability is Ability.OPERATIONS_ENGINEER:
                if named not in ("1", "2", "3", "4", "5", "6"):
                    raise ScenarioError("named",
                                        f"the Operations Engineer names a number (1-6), not {named!r}")
            else:
                raise ScenarioError("named", f"only a Cutter or an Operations Engineer names a colour or "
                                             f"number, and the leader (seat {g.leader}) is neither")
            g.named = named
        if "role_eligible" in d:
            g.role_eligible = [self.die_on(g, v, f"role_eligible[{i}]", g.rolled)
                               for i, v in enumerate(_list(d["role_eligible"], "role_eligible"))]
        elif g.named and g.phase is Phase.DISTRIBUTE:
            _roles.after_roll(g, g.rolled)  # the dice the named colour or number lets change
        g.role_dice = [self.die_on(g, v, f"role_dice[{i}]", g.rolled)
                       for i, v in enumerate(_list(d.get("role_dice"), "role_dice"))]
        g.role_uses = _int(d.get("role_uses", len(g.role_dice)), "role_uses", 0)
        g.bonus_die = _bool(d.get("bonus_die", _default_bonus(g)), "bonus_die")
        g.free_return = _bool(d.get("free_return", False), "free_return")
        if g.free_return and (g.phase is not Phase.PENALTY and not over):
            raise ScenarioError("free_return", "only in the penalty phase may the Logistics Specialist send "
                                               "an unused die back free")
        if d.get("rethrow"):
            if g.phase is not Phase.DISTRIBUTE and not over:
                raise ScenarioError("rethrow", "the Explosives Instructor rerolls dice only during the "
                                               "distribution")
            g.rethrow = [self.die_on(g, v, f"rethrow[{i}]", g.free)
                         for i, v in enumerate(_list(d["rethrow"], "rethrow"))]
        for p, entry in enumerate(extra):
            # before the roll (and once over) `taken` is the last turn's: a Logistics leader's extra die
            most = g.seat_quota(p) if g.phase in _AFTER_ROLL else g.quota + (1 if g.roles else 0)
            g.taken[p] = _int(entry.get("taken", 0), f"players[{p}].taken", 0, most)
            g.done[p] = _bool(entry.get("done", False), f"players[{p}].done")
        g.six = self.seats("six", n)
        if len(set(g.six)) != len(g.six):
            raise ScenarioError("six", "each player rolls for a 6 once")
        if d.get("six_pending") is not None:
            g.six_pending = _int(d["six_pending"], "six_pending", 0, n - 1)
            if g.six_pending not in g.six:
                raise ScenarioError("six_pending", f"player {g.six_pending} is not one of the players still "
                                                   "to roll a 6 (six)")
        if "spark_queue" in d:
            g.spark_queue = self.seats("spark_queue", n)
            if g.spark_queue and not g.config.uses_sparks:
                raise ScenarioError("spark_queue", "this game has no spark cards")
        elif g.phase is Phase.SPARKS:
            g.queue_sparks()  # Step 4: the sparks owed for dice not taken

    def pending(self, g: GameState, over: bool) -> None:
        d = self.data
        order = [(g.leader + k) % g.players for k in range(g.players)] if g.phase is Phase.DEFUSE \
            else list(range(g.players))
        complete = [(p, hc.card) for p in order for hc in g.hands[p] if hc.complete]
        countdown = g.config.countdown_rules
        if not over:
            for p, cid in complete:
                if not g.is_spark(cid):
                    continue
                if not countdown:
                    raise ScenarioError(f"players[{p}]", f"{cid} is complete: a spark card is discarded the "
                                                         "moment it is complete")
                if g.phase is not Phase.DISTRIBUTE:
                    raise ScenarioError(f"players[{p}]", f"{cid} is complete: a complete spark waits only "
                                                         "until Step 3 (phase: distribute)")
        bombs_done = [(p, cid) for p, cid in complete if not g.is_spark(cid)]
        if "picks" in d:
            for i, item in enumerate(_list(d["picks"], "picks")):
                where = f"picks[{i}]"
                if not isinstance(item, list) or len(item) not in (2, 3):
                    raise ScenarioError(where, "a pick is [player, card] or [player, card, fuse revealed]")
                seat = _int(item[0], f"{where}[0]", 0, g.players - 1)
                hc = g.hand_card(seat, str(item[1]))
                if hc is None or not hc.complete or g.is_spark(hc.card):
                    raise ScenarioError(where, f"{item[1]!r} is not a complete card of player {seat}")
                revealed = _bool(item[2], f"{where}[2]") if len(item) == 3 else False
                g.picks.append([seat, hc.card, revealed])
            if g.picks and countdown and g.phase is Phase.DISTRIBUTE and g.players > 2 and not over:
                raise ScenarioError("picks", "only 1-2 player Countdown games defuse cards before Step 3")
        elif not over and bombs_done:
            if g.phase is Phase.DEFUSE or (g.phase is Phase.DISTRIBUTE and not countdown):
                g.picks = [[p, cid, False] for p, cid in bombs_done]
            elif g.phase is not Phase.DISTRIBUTE:
                p, cid = bombs_done[0]
                where = "during distribution" + (" and Step 3 (phase: defuse)" if countdown else "")
                raise ScenarioError(f"players[{p}]", f"{cid} is complete: a complete card waits for its "
                                                     f"replacement only {where}")
        if not over and g.picks and not g.middle_has_bombs():
            p, cid = g.picks[0][0], g.picks[0][1]
            raise ScenarioError(f"players[{p}]", f"{cid} is complete but the middle is empty: with "
                                                 "nothing to take, a complete card is defused at once")
        if not over and (not countdown or g.phase is Phase.DEFUSE):
            picked = {(p[0], p[1]) for p in g.picks}
            for p, cid in bombs_done:
                if (p, cid) not in picked:
                    raise ScenarioError("picks", f"player {p}'s complete card {cid} needs a pick")
        raw = d.get("removals") or {}
        if not isinstance(raw, Mapping):
            raise ScenarioError("removals", "expected a mapping player -> dice the player may give up")
        for k, dice in raw.items():
            try:
                seat = int(k)
            except (TypeError, ValueError):
                raise ScenarioError(f"removals.{k}", "keys are player numbers (0, 1, ...)") from None
            where = f"removals.{k}"
            if not 0 <= seat < g.players:
                raise ScenarioError(where, f"there is no player {seat}")
            on_cards = [x for hc in g.hands[seat] for x in hc.dice if x != EMPTY]
            ids = tuple(self.die_on(g, v, f"{where}[{i}]", on_cards)
                        for i, v in enumerate(_list(dice, where)))
            if ids:
                g.removals[seat] = ids
        reason = d.get("removal_reason", "")
        if not isinstance(reason, str):
            raise ScenarioError("removal_reason", "expected text")
        g.removal_reason = reason
        g.refills = _int(d.get("refills", 0), "refills", 0)
        if d.get("penalty_die") is not None:
            if g.phase is not Phase.PENALTY and not over:
                raise ScenarioError("penalty_die", "only the penalty phase has a die about to be rerolled")
            g.penalty_die = self.die_on(g, d["penalty_die"], "penalty_die", g.unused)

    def check_endgame(self, g: GameState) -> None:
        """The middle, the face-down hand cards and the stopped clock agree (RULES.md C.2.2, E)."""
        cfg = g.config
        middle = g.middle_has_bombs()
        if middle:
            for p, down in enumerate(g.duds):
                if down:
                    raise ScenarioError(f"players[{p}].duds", "hand cards are turned face down only once no "
                                                              "bomb card is left in the middle")
        elif g.sparks_in_play() and not cfg.difficulty.top:
            for p, hand in enumerate(g.hands):
                for c, hc in enumerate(hand):
                    if not g.is_spark(hc.card) and not hc.complete:
                        raise ScenarioError(f"players[{p}].cards[{c}]",
                                            f"with no bomb card left in the middle and sparks in play, "
                                            f"{hc.card} is face down: list it under players[{p}].duds "
                                            "(RULES.md C.2.2)")
        saved = not middle and not g.sparks_in_play() and not (
            cfg.difficulty.top and any(not g.is_spark(hc.card) for hand in g.hands for hc in hand))
        stoppable = cfg.countdown_rules and g.players <= 2 and g.phase is Phase.DISTRIBUTE
        if saved and not stoppable:
            why = " and no spark card is in play" if cfg.uses_sparks else ""
            if cfg.difficulty.top:
                why += " (and no bomb card in front of the players)"
            raise ScenarioError("row", f"the middle (row and deck) has no bomb cards{why}: this game would "
                                       "already be won (add row cards)")
        if saved and g.clock_stop is None:
            g.clock_stop = g.time_ms  # E.2: saved mid-turn; the turn's dice may still be placed
        if g.clock_stop is not None and not saved:
            raise ScenarioError("clock_stop", "the clock stops mid-turn only in a 1-2 player Countdown game "
                                              "once no bomb is left in the middle and no spark in play")


def _reachable(rules: CompiledCard, target: tuple[int, ...]) -> bool:
    """Can the dice ``target`` shows be put on the card, one legal placement at a time?"""
    start = rules.empty
    seen = {start}
    todo = [start]
    while todo:
        cur = todo.pop()
        if cur == target:
            return True
        for s, t in enumerate(target):
            if t != EMPTY and cur[s] == EMPTY and rules.is_legal(cur, s, t):
                nxt = cur[:s] + (t,) + cur[s + 1:]
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
    return False


# ====================================================================== writing
def _die(g: GameState, i: int, temp: bool = False) -> str:
    text = f"{die_text(g.dice.colours[i], g.faces[i])}@{i}"
    if temp and i in g.temp:
        text += f" as {colours_text(g.temp[i])}"
    return text


def _dump_cards(g: GameState, doc: dict[str, Any]) -> None:
    cfg = g.config
    if cfg.cards is None:
        return
    builtin = builtin_catalogue()
    cat = cfg.cards
    parts = ("bombs", "fuses", "sparks", "roles")
    if all(getattr(cat, k)[:len(getattr(builtin, k))] == getattr(builtin, k) for k in parts):
        bombs, fuses = cat.bombs[len(builtin.bombs):], cat.fuses[len(builtin.fuses):]
        sparks, roles = cat.sparks[len(builtin.sparks):], cat.roles[len(builtin.roles):]
    else:
        doc["builtin_cards"] = False
        bombs, fuses, sparks, roles = cat.bombs, cat.fuses, cat.sparks, cat.roles

    def own_set(card_set: str, default: str) -> dict[str, str]:
        return {} if card_set == default else {"set": card_set}

    if bombs:
        doc["cards"] = [{"id": b.id, "notation": b.notation, "points": b.points,
                         **({"name": b.name} if b.name else {}), "source": b.source,
                         **own_set(b.set, cfg.bomb_sets[-1])} for b in bombs]
    if sparks:
        doc["spark_cards"] = [{"id": s.id, "notation": s.notation, **({"name": s.name} if s.name else {}),
                               "source": s.source, **own_set(s.set, "countdown")} for s in sparks]
    if fuses:
        doc["fuses"] = [{"id": f.id, **({"shows": f.symbol} if f.effect is FuseEffect.SYMBOL
                                        else {"effect": f.effect.value}),
                         **({"text": f.text} if f.text else {}), **own_set(f.set, cfg.fuse_sets[-1])}
                        for f in fuses]
    if roles:
        doc["role_cards"] = [{"id": r.id, "ability": r.ability.value, "name": r.name,
                              **({"text": r.text} if r.text else {}), **own_set(r.set, "countdown")}
                             for r in roles]


def _dump(g: GameState) -> dict[str, Any]:
    doc: dict[str, Any] = {}
    cfg = g.config
    defaults = GameConfig.__dataclass_fields__
    conf: dict[str, Any] = {"players": cfg.players}
    for key in _CONFIG_KEYS[1:]:
        value = getattr(cfg, key)
        if value != defaults[key].default:
            if key == "level_counts":
                value = {lv: k for lv, k in value}
            elif key == "modules":
                value = [m.value for m in value]
            elif isinstance(value, Enum):
                value = value.value
            conf[key] = value
    doc["config"] = conf
    doc["seed"] = g.rng.state
    if g.dice != cfg.dice_set:
        text = g.dice.text()
        same = DiceSet.parse(text).colours == g.dice.colours
        doc["dice"] = text if same else [colours_text(c) for c in g.dice.colours]
    _dump_cards(g, doc)
    doc["players"] = []
    for p, hand in enumerate(g.hands):
        held = [{"id": hc.card, "dice": [None if x == EMPTY else _die(g, x) for x in hc.dice]} for hc in hand]
        entry: dict[str, Any] = {"cards": held, "taken": g.taken[p], "done": g.done[p]}
        if g.duds[p]:
            entry["duds"] = g.duds[p][:]
        doc["players"].append(entry)
    if g.roles:
        doc["roles"] = [r or None for r in g.roles]
        if not all(g.roles_up):
            doc["roles_up"] = g.roles_up[:]
    if g.row or cfg.setup is not Setup.STACKS:
        doc["row"] = g.row[:]
    if g.deck:
        doc["deck"] = g.deck[::-1]
    if g.stacks:
        doc["stacks"] = {lv: cards[::-1] for lv, cards in sorted(g.stacks.items())}
    if g.fuse_deck:
        doc["fuse_deck"] = g.fuse_deck[::-1]
    if cfg.uses_sparks or g.spark_deck:
        doc["spark_deck"] = g.spark_deck[::-1]
    if g.spark_discard:
        doc["spark_discard"] = g.spark_discard[:]
    if g.sparks_defused:
        doc["sparks_defused"] = g.sparks_defused[:]
    if all(g.faces[i] == 1 for i in g.bag) and not set(g.bag) & set(g.rolled):
        doc["bag"] = "rest"
    else:
        doc["bag"] = [_die(g, i) for i in g.bag]
    doc["leader"] = g.leader
    doc["turn"] = g.turn
    if g.phase is not Phase.OVER:
        doc["phase"] = g.phase.value
    doc["rolled"] = [_die(g, i, temp=True) for i in g.rolled]
    if g.unused:
        doc["unused"] = [_die(g, i) for i in g.unused]
    if g.penalty_die != EMPTY:
        doc["penalty_die"] = _die(g, g.penalty_die)
    if g.removals:
        doc["removals"] = {seat: [_die(g, i) for i in ids] for seat, ids in sorted(g.removals.items())}
    if g.removal_reason:
        doc["removal_reason"] = g.removal_reason
    if g.refills:
        doc["refills"] = g.refills
    if g.picks or any(hc.complete for hand in g.hands for hc in hand):
        doc["picks"] = [p[:] for p in g.picks]
    if g.named:
        doc["named"] = g.named
        doc["role_eligible"] = [_die(g, i) for i in g.role_eligible]
    if g.role_dice:
        doc["role_dice"] = [_die(g, i) for i in g.role_dice]
    if g.role_uses != len(g.role_dice):
        doc["role_uses"] = g.role_uses
    if g.bonus_die != _default_bonus(g):
        doc["bonus_die"] = g.bonus_die
    if g.free_return:
        doc["free_return"] = True
    if g.rethrow:
        doc["rethrow"] = [_die(g, i) for i in g.rethrow]
    if g.six:
        doc["six"] = g.six[:]
    if g.six_pending != EMPTY:
        doc["six_pending"] = g.six_pending
    if g.spark_queue or g.phase is Phase.SPARKS:
        doc["spark_queue"] = g.spark_queue[:]
    doc["time_ms"] = g.time_ms
    if g.clock_stop is not None:
        doc["clock_stop"] = g.clock_stop
    if g.score_pile:
        doc["score_pile"] = g.score_pile[:]
    if g.fuses_activated:
        doc["fuses_activated"] = g.fuses_activated[:]
    if g.outcome is not None:
        doc["outcome"] = g.outcome.to_dict()
    if not all(_reachable(g.card_rules(hc.card), hc.types) for hand in g.hands for hc in hand):
        doc["check_cards"] = False  # e.g. a die placed with a temporary colour (RULES.md D.9)
    return doc
