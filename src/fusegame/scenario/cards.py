"""The cards of a scenario document: references (an id, notation, ``fuse:R``, a mapping), ad hoc
definitions, where each card lies (a card can be in one place only), the role cards dealt, and the
catalogue the position needs (padded so that ``GameConfig`` accepts it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from fusegame.cards.catalogue import Catalogue, parse_fuse_symbol
from fusegame.cards.model import Ability, BombCard, FuseCard, FuseEffect, RoleCard
from fusegame.cards.notation import NotationError, parse
from fusegame.constraints import CompiledCard
from fusegame.rules.config import Difficulty, GameConfig
from fusegame.rules.schema import ScenarioError
from fusegame.scenario.fields import (
    _CARD_KEYS,
    _FUSE_TEXTS,
    _PAD_FUSES,
    _ability,
    _check_keys,
    _int,
    _kind,
    _list,
    _Probe,
)

if TYPE_CHECKING:
    from fusegame.rules.state import GameState


class CardBook:
    """The cards a document refers to and defines, and where each one lies."""

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
        self.players = 1
        self.player_entries: list[dict[str, Any]] = []
        self.state: GameState = cast("GameState", None)  # from stage 2 on

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
        return self.card_list_at(self.data.get(key), key, fuse_ok, bombs_only, accept, place)

    def card_list_at(self, value: Any, key: str, fuse_ok: bool = False, bombs_only: bool = True,
                     accept: tuple[str, ...] = ("bomb",), place: bool = True) -> list[str]:
        out = []
        for i, item in enumerate(_list(value, key)):
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
            rule = probe.spec.fuse_cards  # enough for the default count at the lowest difficulty
            want = rule.default_for(Difficulty.TRAINING, rule.default)
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

    def role_ids(self, value: Any, where: str) -> list[str]:
        """``roles``: a role card id or a role (``technologist``) per seat, null for none."""
        n = self.players
        raw = _list(value, where)
        if len(raw) != n:
            raise ScenarioError(where, f"lists {len(raw)} roles for {n} players (one per player; null "
                                       "for a player without one)")
        out: list[str] = []
        used: dict[str, str] = {}
        for i, v in enumerate(raw):
            at = f"{where}[{i}]"
            if v is None or v == "":
                out.append("")
                continue
            if not isinstance(v, str):
                raise ScenarioError(at, f"expected a role card id or a role such as technologist, "
                                        f"got {_kind(v)}")
            if v in self.roles:
                rid = v
            else:
                ab = _ability(v)
                if ab is None:
                    raise ScenarioError(at, f"{v!r} is neither a role card id nor a role (choose from "
                                            f"{', '.join(a.value for a in Ability)})")
                cards = [r for r in self.roles.values() if r.ability is ab]
                free = [r for r in cards if r.id not in used]
                if free:
                    rid = free[0].id
                elif cards:
                    raise ScenarioError(at, f"the only {ab.value} role card ({cards[0].id}) is already at "
                                            f"{used[cards[0].id]}")
                else:  # no such card in the catalogue (builtin_cards: false): an ad hoc one
                    role = RoleCard(self._new_id("XR"), "countdown", ab, ab.value.replace("-", " ").title())
                    self.roles[role.id] = role
                    self.adhoc_roles.append(role)
                    rid = role.id
            if rid in used:
                raise ScenarioError(at, f"role card {rid} is already at {used[rid]}")
            used[rid] = at
            out.append(rid)
        return out

