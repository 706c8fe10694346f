"""Scenario documents: build any mid-game FUSE position from a small YAML or JSON document.

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
from pathlib import Path
from typing import Any

import yaml

from fusegame.cards.catalogue import CardDataError, Catalogue, builtin_catalogue, parse_fuse_symbol
from fusegame.cards.model import BombCard, FuseCard
from fusegame.cards.notation import NotationError, parse
from fusegame.constraints import EMPTY, CompiledCard
from fusegame.dice import NAMES, DiceSet, colours_text, die_text, parse_colours
from fusegame.rng import Rng
from fusegame.rules.config import DECK_SIZE, ConfigError, Difficulty, GameConfig, Setup, quota
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
    "check_cards", "players", "row", "deck", "stacks", "fuse_deck", "bag", "leader", "turn", "phase",
    "rolled", "unused", "penalty_die", "removals", "removal_reason", "refills", "picks", "time_left",
    "time_ms", "score_pile", "fuses_activated", "outcome",
}
_CONFIG_KEYS = ("players", "difficulty", "setup", "six_point_cards", "fuse_cards", "level_counts",
                "feasibility", "time_limit", "first_leader")
_CARD_KEYS = {"id", "notation", "points", "name", "source"}
_DIE_RE = re.compile(r"\s*([RBGYK](?:/[RBGYK])?)([1-6])?(?:\s*@\s*(\d+))?\s*")
_PHASES = {"roll": Phase.ROLL, "distribute": Phase.DISTRIBUTE, "penalty": Phase.PENALTY}
#: fuse card symbols used when the catalogue has too few fuse cards (see _pad)
_PAD_FUSES = ("1", "2", "3", "4", "5", "6", "R", "B", "G", "Y", "K")


def _kind(v: Any) -> str:
    if v is None:
        return "nothing (null)"
    return {bool: "true/false", int: "a number", float: "a number", str: "text", list: "a list",
            dict: "a mapping"}.get(type(v), type(v).__name__)


@dataclass
class _DieRef:
    colours: int
    face: int | None
    id: int | None
    where: str

    def text(self) -> str:
        return colours_text(self.colours) + (str(self.face) if self.face else "")


def _parse_die(value: Any, where: str, need_face: bool = True) -> _DieRef:
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
    return _DieRef(colours, face, int(m.group(3)) if m.group(3) else None, where)


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
        self.fuses: dict[str, FuseCard] = {}
        self.adhoc: list[BombCard] = []
        self.adhoc_fuses: list[FuseCard] = []
        self.placed: dict[str, str] = {}  # card id -> where it is, to catch a card used twice
        self.types_in_play = 0

    # ------------------------------------------------------------------ cards
    def _new_id(self, prefix: str) -> str:
        n = 1
        while f"{prefix}{n}" in self.bombs or f"{prefix}{n}" in self.fuses:
            n += 1
        return f"{prefix}{n}"

    def define(self, cid: str | None, text: str, points: Any, where: str, name: Any = "",
               source: Any = "scenario", bare: bool = False) -> str:
        """An ad hoc bomb card from notation (or the existing one if ``cid`` names the same card)."""
        try:
            shape = parse(text)
        except NotationError as e:
            if bare:
                raise ScenarioError(where, f"{text!r} is neither a card id in the catalogue nor card "
                                           f"notation ({e})") from None
            raise ScenarioError(where, f"bad notation {text!r}: {e}") from None
        pts = 1 if points is None else _int(points, f"{where}.points", 1, 6)
        if not isinstance(name, str) or not isinstance(source, str):
            raise ScenarioError(where, "'name' and 'source' must be text")
        if cid is not None:
            old = self.bombs.get(cid)
            if old is not None:
                if old.notation == text and (points is None or old.points == pts):
                    return cid
                raise ScenarioError(f"{where}.id", f"{cid!r} is already a card with other notation or "
                                                   "points; choose another id")
            if cid in self.fuses:
                raise ScenarioError(f"{where}.id", f"{cid!r} is already a fuse card")
        else:
            cid = self._new_id("X")
        if CompiledCard(shape, self.types_in_play).completion() is None:
            raise ScenarioError(where, f"card {text!r} can never be completed with these dice")
        card = BombCard(cid, "fuse", pts, shape, text, name=name, source=source)
        self.bombs[cid] = card
        self.adhoc.append(card)
        return cid

    def card(self, item: Any, where: str, extra: set[str] | None = None, fuse_ok: bool = False) -> str:
        """Resolve a card reference (id, notation, ``fuse:R`` or a mapping) to a card id."""
        if isinstance(item, int) and not isinstance(item, bool):
            item = str(item)  # YAML reads a one-slot card such as 5 as a number
        if isinstance(item, str):
            text = item.strip()
            if text in self.bombs:
                return text
            if text in self.fuses or text.startswith("fuse:"):
                if not fuse_ok:
                    raise ScenarioError(where, f"{text!r} is a fuse card: fuse cards belong in the deck, "
                                               "fuse_deck or fuses_activated")
                return text if text in self.fuses else self.fuse_shorthand(text[5:], where)
            if not text:
                raise ScenarioError(where, "empty card reference")
            return self.define(None, text, None, where, bare=True)
        if isinstance(item, Mapping):
            _check_keys(item, _CARD_KEYS | (extra or set()), where)
            cid = item.get("id")
            if cid is not None and not isinstance(cid, str):
                cid = str(cid)
            if "notation" in item:
                text = item["notation"]
                if not isinstance(text, str):
                    raise ScenarioError(f"{where}.notation",
                                        f"expected card notation text, got {_kind(text)}")
                return self.define(cid, text, item.get("points"), where, item.get("name", ""),
                                   item.get("source", "scenario"))
            if cid is None:
                raise ScenarioError(where, "a card needs an 'id' or a 'notation'")
            if "points" in item or "name" in item:
                raise ScenarioError(where, "'points' and 'name' need a 'notation' (an ad hoc card)")
            return self.card(cid, f"{where}.id", fuse_ok=fuse_ok)
        raise ScenarioError(where, f"expected a card id, card notation or a mapping, got {_kind(item)}")

    def fuse_shorthand(self, symbol: str, where: str) -> str:
        try:
            colours, numbers = parse_fuse_symbol(symbol)
        except ValueError as e:
            raise ScenarioError(where, f"fuse:{symbol}: {e}") from None
        for f in self.fuses.values():
            if f.colours == colours and f.numbers == numbers and f.id not in self.placed:
                return f.id
        fid = f"FZ{symbol.replace(' ', '')}"
        if fid in self.fuses or fid in self.bombs:
            fid = self._new_id(fid + "_")
        card = FuseCard(fid, "fuse", colours, numbers)
        self.fuses[fid] = card
        self.adhoc_fuses.append(card)
        return fid

    def use(self, cid: str, where: str) -> str:
        if cid in self.placed:
            raise ScenarioError(where, f"card {cid!r} is already used at {self.placed[cid]} (each card "
                                       "can be in one place only)")
        self.placed[cid] = where
        return cid

    def card_list(self, key: str, fuse_ok: bool = False, bombs_only: bool = True) -> list[str]:
        out = []
        for i, item in enumerate(_list(self.data.get(key), key)):
            where = f"{key}[{i}]"
            cid = self.use(self.card(item, where, fuse_ok=fuse_ok), where)
            if not fuse_ok and bombs_only and cid not in self.bombs:
                raise ScenarioError(where, f"{cid!r} is not a bomb card")
            out.append(cid)
        return out

    # ------------------------------------------------------------------ config and catalogue
    def config_kwargs(self) -> dict[str, Any]:
        raw = self.data.get("config") or {}
        if not isinstance(raw, Mapping):
            raise ScenarioError("config", f"expected a mapping of options, got {_kind(raw)}")
        _check_keys(raw, _CONFIG_KEYS, "config")
        kw: dict[str, Any] = dict(raw)
        players = _list(self.data.get("players"), "players")
        if "players" in kw:
            kw["players"] = _int(kw["players"], "config.players", 1, 5)
            if players and len(players) != kw["players"]:
                raise ScenarioError("players", f"lists {len(players)} players but config.players is "
                                               f"{kw['players']}")
        else:
            if not players:
                raise ScenarioError("players", "list each player's cards (or set config.players)")
            if len(players) > 5:
                raise ScenarioError("players", "FUSE is for 1 to 5 players")
            kw["players"] = len(players)
        for key in ("difficulty", "setup"):
            if key in kw and not isinstance(kw[key], str):
                raise ScenarioError(f"config.{key}", f"expected text, got {_kind(kw[key])}")
        for key in ("six_point_cards", "feasibility"):
            if key in kw:
                _bool(kw[key], f"config.{key}")
        if "fuse_cards" in kw:
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
        """The catalogue for the config: None (the built-in one) unless cards were added or padded."""
        bombs = (builtin.bombs if builtin else ()) + tuple(self.adhoc)
        fuses = (builtin.fuses if builtin else ()) + tuple(self.adhoc_fuses)
        custom = builtin is None or bool(self.adhoc or self.adhoc_fuses)
        # GameConfig.validate wants enough bomb cards to set up a whole game of this size and
        # enough fuse cards for config.fuse_cards: a position needs neither, so pad with filler
        # cards (never dealt anywhere; ids PAD1, PAD2, ... and PZ1, PZ2, ...).
        players, six = kw["players"], kw.get("six_point_cards", False)
        need = DECK_SIZE[players][list(Difficulty).index(kw["difficulty"])] + (4 if players == 1 else 2) * \
            players + 4
        usable = sum(1 for b in bombs if b.set == "fuse" and (six or b.points != 6))
        pad: list[BombCard] = []
        for i in range(need - usable):
            cid = self._new_id("PAD")
            card = BombCard(cid, "fuse", i % 4 + 1, parse("? ?"), "? ?", source="scenario-padding")
            self.bombs[cid] = card
            pad.append(card)
        pad_fuses: list[FuseCard] = []
        want_fuses = kw.get("fuse_cards", 6)
        for i in range(want_fuses - sum(1 for f in fuses if f.set == "fuse")):
            fid = self._new_id("PZ")
            colours, numbers = parse_fuse_symbol(_PAD_FUSES[i % len(_PAD_FUSES)])
            card_f = FuseCard(fid, "fuse", colours, numbers)
            self.fuses[fid] = card_f
            pad_fuses.append(card_f)
        if pad or pad_fuses:
            custom = True
        if not custom:
            return None
        return Catalogue(bombs + tuple(pad), fuses + tuple(pad_fuses), "scenario")

    # ------------------------------------------------------------------ build
    def build(self) -> GameState:
        d = self.data
        _check_keys(d, _TOP_KEYS, "")
        kw = self.config_kwargs()
        n_players: int = kw["players"]

        dice = DiceSet.fuse()
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
            self.bombs.update((b.id, b) for b in builtin.bombs if b.set == "fuse")
            self.fuses.update((f.id, f) for f in builtin.fuses if f.set == "fuse")

        for i, item in enumerate(_list(d.get("cards"), "cards")):
            where = f"cards[{i}]"
            if not isinstance(item, Mapping) or "notation" not in item:
                raise ScenarioError(where, "a card definition is a mapping with 'notation' (and 'id', "
                                           "'points', 'name')")
            self.card(item, where)
        for i, item in enumerate(_list(d.get("fuses"), "fuses")):
            where = f"fuses[{i}]"
            if not isinstance(item, Mapping):
                raise ScenarioError(where, "a fuse card definition is a mapping with 'id' and 'shows'")
            _check_keys(item, {"id", "shows"}, where)
            fid, shows = item.get("id"), item.get("shows")
            if not isinstance(fid, str) or not fid:
                raise ScenarioError(f"{where}.id", "a fuse card needs an id")
            if fid in self.fuses or fid in self.bombs:
                raise ScenarioError(f"{where}.id", f"{fid!r} is already a card")
            try:
                colours, numbers = parse_fuse_symbol(str(shows if shows is not None else ""))
            except ValueError as e:
                raise ScenarioError(f"{where}.shows", str(e)) from None
            card_f = FuseCard(fid, "fuse", colours, numbers)
            self.fuses[fid] = card_f
            self.adhoc_fuses.append(card_f)

        # ---- cards in play
        players_raw = _list(d.get("players"), "players") or [[] for _ in range(n_players)]
        hands: list[list[tuple[str, list[Any], str]]] = []
        extra: list[dict[str, Any]] = []
        for p, entry in enumerate(players_raw):
            where = f"players[{p}]"
            if isinstance(entry, list):
                entry = {"cards": entry}
            if not isinstance(entry, Mapping):
                raise ScenarioError(where, "expected a list of cards or a mapping with 'cards', "
                                           f"got {_kind(entry)}")
            _check_keys(entry, {"cards", "taken", "done"}, where)
            hand = []
            for c, item in enumerate(_list(entry.get("cards"), f"{where}.cards")):
                cw = f"{where}.cards[{c}]"
                cid = self.use(self.card(item, cw, extra={"dice"}), cw)
                dice_raw = item.get("dice") if isinstance(item, Mapping) else None
                hand.append((cid, _list(dice_raw, f"{cw}.dice"), cw))
            hands.append(hand)
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
            phase = Phase.PENALTY if unused_raw else Phase.DISTRIBUTE if rolled_raw else Phase.ROLL
        elif not isinstance(phase_raw, str) or phase_raw not in _PHASES:
            raise ScenarioError("phase", f"unknown phase {phase_raw!r} (distribute, penalty or roll; "
                                         "a finished game is written with 'outcome')")
        else:
            phase = _PHASES[phase_raw]
        if not over:
            if phase is Phase.ROLL and rolled_raw:
                raise ScenarioError("rolled", "no dice are in the middle while the next roll is awaited "
                                              "(phase: roll)")
            if phase is not Phase.PENALTY and unused_raw:
                raise ScenarioError("unused", "unused dice only exist in the penalty phase (phase: penalty)")
        g.phase = Phase.OVER if over else phase
        g.leader = _int(d.get("leader", 0), "leader", 0, n_players - 1)
        g.turn = _int(d.get("turn", 1), "turn", 1)
        q = quota(n_players)
        for p, entry in enumerate(extra):
            g.taken[p] = _int(entry.get("taken", 0), f"players[{p}].taken", 0, q)
            g.done[p] = _bool(entry.get("done", False), f"players[{p}].done")

        # ---- time
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
            if config.time_limit is not None and g.time_ms > config.time_limit * 1000:
                raise ScenarioError("time_ms",
                                    f"{g.time_ms} ms is past the time limit ({config.time_limit} s)")

        # ---- dice
        middle = self.place_dice(g, hands, rolled_raw, unused_raw, over)
        g.refresh_types()
        if g.phase is Phase.DISTRIBUTE:
            g.free = middle  # the rolled dice in the middle (not those since returned to the bag)
        if _bool(d.get("check_cards", True), "check_cards"):
            for p, hand in enumerate(hands):
                for hc, (cid, _, cw) in zip(g.hands[p], hand):
                    if not _reachable(g.card_rules(cid), hc.types):
                        raise ScenarioError(f"{cw}.dice", f"these dice cannot all be on {cid} "
                                            f"({self.bombs[cid].notation}): no order of legal placements "
                                            "leads there (set check_cards: false to allow it)")

        # ---- pending decisions
        self.pending(g, over)
        if not over:
            if not g.middle_has_bombs() and config.difficulty is not Difficulty.INSANE:
                raise ScenarioError("row", "the middle (row and deck) has no bomb cards: this game would "
                                           "already be won (only Insane goes on; add row cards)")
            g._advance([], False)  # settle: e.g. a distribution nobody can take part in moves on
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
            refs.append(("rolled", _parse_die(v, f"rolled[{i}]"), (i,)))
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
        middle_kind = "unused" if g.phase is Phase.PENALTY else "rolled"
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
        return [i for i in g.rolled if all(k == "rolled" for k, _ in where_id[i])]

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

    def pending(self, g: GameState, over: bool) -> None:
        d = self.data
        complete = [(p, hc.card) for p, hand in enumerate(g.hands) for hc in hand if hc.complete]
        if "picks" in d:
            for i, item in enumerate(_list(d["picks"], "picks")):
                where = f"picks[{i}]"
                if not isinstance(item, list) or len(item) not in (2, 3):
                    raise ScenarioError(where, "a pick is [player, card] or [player, card, fuse revealed]")
                seat = _int(item[0], f"{where}[0]", 0, g.players - 1)
                hc = g.hand_card(seat, str(item[1]))
                if hc is None or not hc.complete:
                    raise ScenarioError(where, f"{item[1]!r} is not a complete card of player {seat}")
                revealed = _bool(item[2], f"{where}[2]") if len(item) == 3 else False
                g.picks.append([seat, hc.card, revealed])
        elif not over and complete:
            if g.phase is not Phase.DISTRIBUTE:
                p, cid = complete[0]
                raise ScenarioError(f"players[{p}]", f"{cid} is complete: a complete card waits for its "
                                                     "replacement only during distribution")
            g.picks = [[p, cid, False] for p, cid in complete]
        if not over and complete and not g.middle_has_bombs():
            p, cid = complete[0]
            raise ScenarioError(f"players[{p}]", f"{cid} is complete but the middle is empty: with "
                                                 "nothing to take, a complete card is defused at once")
        if not over:
            picked = {(p[0], p[1]) for p in g.picks}
            for p, cid in complete:
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
def _die(g: GameState, i: int) -> str:
    return f"{die_text(g.dice.colours[i], g.faces[i])}@{i}"


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
            conf[key] = value.value if isinstance(value, (Difficulty, Setup)) else value
    doc["config"] = conf
    doc["seed"] = g.rng.state
    if g.dice != DiceSet.fuse():
        text = g.dice.text()
        same = DiceSet.parse(text).colours == g.dice.colours
        doc["dice"] = text if same else [colours_text(c) for c in g.dice.colours]
    if cfg.cards is not None:
        builtin = builtin_catalogue()
        nb, nf = len(builtin.bombs), len(builtin.fuses)
        if cfg.cards.bombs[:nb] == builtin.bombs and cfg.cards.fuses[:nf] == builtin.fuses:
            bombs, fuses = cfg.cards.bombs[nb:], cfg.cards.fuses[nf:]
        else:
            doc["builtin_cards"] = False
            bombs, fuses = cfg.cards.bombs, cfg.cards.fuses
        if bombs:
            doc["cards"] = [{"id": b.id, "notation": b.notation, "points": b.points,
                             **({"name": b.name} if b.name else {}), "source": b.source} for b in bombs]
        if fuses:
            doc["fuses"] = [{"id": f.id, "shows": f.symbol} for f in fuses]
    doc["players"] = []
    for p, hand in enumerate(g.hands):
        held = [{"id": hc.card, "dice": [None if x == EMPTY else _die(g, x) for x in hc.dice]} for hc in hand]
        doc["players"].append({"cards": held, "taken": g.taken[p], "done": g.done[p]})
    if g.row or cfg.setup is not Setup.STACKS:
        doc["row"] = g.row[:]
    if g.deck:
        doc["deck"] = g.deck[::-1]
    if g.stacks:
        doc["stacks"] = {lv: cards[::-1] for lv, cards in sorted(g.stacks.items())}
    if g.fuse_deck:
        doc["fuse_deck"] = g.fuse_deck[::-1]
    if all(g.faces[i] == 1 for i in g.bag) and not set(g.bag) & set(g.rolled):
        doc["bag"] = "rest"
    else:
        doc["bag"] = [_die(g, i) for i in g.bag]
    doc["leader"] = g.leader
    doc["turn"] = g.turn
    if g.phase is not Phase.OVER:
        doc["phase"] = g.phase.value
    doc["rolled"] = [_die(g, i) for i in g.rolled]
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
    doc["time_ms"] = g.time_ms
    if g.score_pile:
        doc["score_pile"] = g.score_pile[:]
    if g.fuses_activated:
        doc["fuses_activated"] = g.fuses_activated[:]
    if g.outcome is not None:
        doc["outcome"] = g.outcome.to_dict()
    return doc
