"""Reading a scenario document into a ``GameState``: the config, the cards, the phase and the clock,
where every die is, the parts of the rules (by their declared fields), the pending decisions, and
the checks that the position is one a game can reach."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from fusegame.cards.catalogue import CardDataError, Catalogue, builtin_catalogue
from fusegame.constraints import EMPTY, CompiledCard
from fusegame.dice import NAMES, DiceSet, colours_text, parse_colours
from fusegame.rng import Rng
from fusegame.rules import ending
from fusegame.rules.config import ConfigError, Difficulty, Game, GameConfig, Module, Setup
from fusegame.rules.decisions import Pending, push
from fusegame.rules.games import GAMES
from fusegame.rules.outcome import Outcome
from fusegame.rules.removals import NO_SPARK, Cause, Removals
from fusegame.rules.roles import AFTER_ROLL as _AFTER_ROLL
from fusegame.rules.schema import Part, ScenarioError
from fusegame.rules.sparks import REST, SparkDraws
from fusegame.rules.state import GameState, Phase
from fusegame.rules.table import HandCard, Pick
from fusegame.rules.validity import FILLER
from fusegame.scenario.cards import CardBook
from fusegame.scenario.fields import (
    _CARD_KEYS,
    _CONFIG_KEYS,
    _PHASES,
    _bool,
    _check_keys,
    _DieRef,
    _int,
    _kind,
    _list,
    _parse_die,
    _pending_kinds,
    _player_keys,
    _Probe,
    _top_keys,
    die_label,
)


def read(data: Mapping[str, Any]) -> GameState:
    """The position a scenario document describes (``ScenarioError`` when it is not valid)."""
    return Builder(data).build()


class Builder(CardBook):
    """Reads one document; ``build`` returns the state or raises ``ScenarioError``."""

    #: ``spark_discard: rest``: every spark card not written elsewhere is in the discards
    discard_rest = False

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
            if out and not GAMES[game].modules:
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
        spec = GAMES[game]
        lo, hi = spec.players
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
                raise ScenarioError("players", f"{spec.name_for_players} for {lo} to {hi} players, not "
                                               f"{len(players)}")
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

    # ------------------------------------------------------------------ the document context
    def card_ids(self, value: Any, where: str, accept: tuple[str, ...], placed: bool = True) -> list[str]:
        if where == "spark_discard" and value == "rest":  # filled in once the game's sparks are known
            if self.data.get("spark_deck") == "rest":
                raise ScenarioError("spark_discard", "spark_deck and spark_discard both say rest: only one "
                                                     "place can hold every spark card not written elsewhere "
                                                     "(list the cards of the other)")
            self.discard_rest = True
            return []
        if accept == ("fuse",):
            ids = self.card_list_at(value, where, fuse_ok=True, place=placed)
            for i, cid in enumerate(ids):
                if cid not in self.fuses:
                    raise ScenarioError(f"{where}[{i}]", f"{cid!r} is not a fuse card")
            return ids
        return self.card_list_at(value, where, accept=accept, place=placed)

    def is_placed(self, card_id: str) -> bool:
        return card_id in self.placed

    def card_points(self, card_id: str) -> int:
        return self.bombs[card_id].points

    def die_text(self, die: int) -> str:
        return die_label(self.state, die)

    def die_on(self, value: Any, where: str, among: Any) -> int:
        return self._die_on(self.state, value, where, list(among))

    # ------------------------------------------------------------------ build
    def build(self) -> GameState:
        d = self.data
        _check_keys(d, _top_keys(), "")
        kw = self.config_kwargs()
        n_players: int = kw["players"]
        self.players = n_players
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
        extra: list[dict[str, Any]] = []
        in_hand = ("bomb", "spark") if probe.uses_sparks else ("bomb",)
        for p, entry in enumerate(players_raw):
            where = f"players[{p}]"
            if isinstance(entry, list):
                entry = {"cards": entry}
            if not isinstance(entry, Mapping):
                raise ScenarioError(where, "expected a list of cards or a mapping with 'cards', "
                                           f"got {_kind(entry)}")
            _check_keys(entry, _player_keys(), where)
            hand = []
            for c, item in enumerate(_list(entry.get("cards"), f"{where}.cards")):
                cw = f"{where}.cards[{c}]"
                cid = self.use(self.card(item, cw, extra={"dice"}, accept=in_hand), cw)
                dice_raw = item.get("dice") if isinstance(item, Mapping) else None
                hand.append((cid, _list(dice_raw, f"{cw}.dice"), cw))
            hands.append(hand)
            extra.append(dict(entry))
        self.player_entries = extra
        row = self.card_list("row")
        deck = self.card_list("deck", fuse_ok=True)
        score_pile = self.card_list("score_pile")
        fuses_activated = self.card_list("fuses_activated", fuse_ok=True)
        for key, ids in (("deck", deck), ("fuses_activated", fuses_activated)):
            for i, cid in enumerate(ids):
                if key != "deck" and cid not in self.fuses:
                    raise ScenarioError(f"{key}[{i}]", f"{cid!r} is not a fuse card")
        # the parts of the rules this game has read their cards now (every card must be known
        # before the catalogue is made); the fields of parts it has not must be left out
        names = probe.parts
        parts: dict[str, Part] = {name: Part.registry[name]() for name in names}
        self.check_absent(names)
        given: dict[str, set[str]] = {name: part.read_doc(d, self, 1) for name, part in parts.items()}

        # ---- config, catalogue, state
        catalogue = self.catalogue(kw, builtin)
        try:
            config = GameConfig(**kw, cards=catalogue)
        except ConfigError as e:
            raise ScenarioError("config", str(e)) from None
        except TypeError as e:
            raise ScenarioError("config", f"bad option: {e}") from None
        g = self.state = GameState(config, dice)
        g.parts = parts
        g._wire()
        if self.discard_rest:
            self.spark_rest_to_discard(g)
        seed = d.get("seed", 0)
        g.rng = Rng(_int(seed, "seed", 0))
        g.row, g.deck = row, deck[::-1]
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
        steps = config.turn_steps
        if phase_raw is None:
            phase = steps[-1] if unused_raw else Phase.DISTRIBUTE if rolled_raw else Phase.ROLL
        elif not isinstance(phase_raw, str) or phase_raw not in _PHASES:
            raise ScenarioError("phase", f"unknown phase {phase_raw!r} (distribute, defuse, sparks, penalty "
                                         "or roll; a finished game is written with 'outcome')")
        else:
            phase = _PHASES[phase_raw]
        if not over:
            if phase is Phase.PENALTY and Phase.PENALTY not in steps:
                raise ScenarioError("phase", "this game draws sparks for untaken dice instead of rerolling "
                                             "them (phase: sparks)")
            if phase is Phase.SPARKS and Phase.SPARKS not in steps:
                raise ScenarioError("phase", "this game has no spark cards: untaken dice are rerolled "
                                             "(phase: penalty)")
            if phase is Phase.DEFUSE and Phase.DEFUSE not in steps:
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

        # ---- the parts' own state, and the pending decisions the document describes
        for part in parts.values():
            part.before_doc(g, d, over)
        items: list[tuple[Pending, set[str]]] = []
        for kind in _pending_kinds():
            keys = [f.doc for f in kind.fields() if f.doc is not None]
            if all(d.get(k) is None for k in keys):
                continue
            if kind.info().needs and kind.info().needs not in names:
                for k in keys:
                    if d.get(k):
                        raise ScenarioError(k, kind.absent_message(k))
                continue
            item = kind()
            item.before_doc(g, d, over)
            items.append((item, set()))
        for name, part in parts.items():
            given[name] |= part.read_doc(d, self, 2)
        for item, item_given in items:
            item_given |= item.read_doc(d, self, 2)

        # ---- time
        stop = g.step3.clock_stop if g.step3 is not None else None
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
            if config.time_limit is not None and g.time_ms > config.time_limit * 1000 and stop is None:
                raise ScenarioError("time_ms",
                                    f"{g.time_ms} ms is past the time limit ({config.time_limit} s)")
        if stop is not None and stop > g.time_ms:
            raise ScenarioError("clock_stop", f"the clock cannot stop ({stop} ms) after the game "
                                              f"time ({g.time_ms} ms)")

        # ---- dice
        middle = self.place_dice(g, hands, rolled_raw, unused_raw, over)
        g.refresh_types()
        if g.phase in (Phase.DISTRIBUTE, Phase.OVER):
            g.free = middle  # the rolled dice in the middle (not those since returned to the bag)
        if _bool(d.get("check_cards", True), "check_cards"):
            for p, hand in enumerate(hands):
                for hc, (cid, _, cw) in zip(g.hands[p], hand):
                    if not reachable(g.card_rules(cid), hc.types):
                        raise ScenarioError(f"{cw}.dice", f"these dice cannot all be on {cid} "
                                            f"({g.bomb(cid).notation}): no order of legal placements "
                                            "leads there (set check_cards: false to allow it)")

        # ---- what refers to dice: the leader's ability, the dice each player took, the queue
        for name, part in parts.items():
            given[name] |= part.read_doc(d, self, 3)
        for item, item_given in items:
            item_given |= item.read_doc(d, self, 3)
        for p, entry in enumerate(extra):
            # before the roll (and once over) `taken` is the last turn's: a Logistics leader's extra die
            most = g.seat_quota(p) if g.phase in _AFTER_ROLL else g.quota + (
                1 if g.roles is not None and g.roles.cards else 0)
            g.taken[p] = _int(entry.get("taken", 0), f"players[{p}].taken", 0, most)
            g.done[p] = _bool(entry.get("done", False), f"players[{p}].done")
        for item, item_given in items:
            item.after_doc(g, self, item_given, over)
            if not item.empty():
                push(g, item)
        for name, part in parts.items():
            part.after_doc(g, self, given[name], over)

        # ---- pending decisions
        self.pending(g, over)
        if not over:
            self.stop_clock(g)
        self.check_position(g)
        if not over:
            g.settle()  # e.g. a distribution nobody can take part in moves on
        return g

    def spark_rest_to_discard(self, g: GameState) -> None:
        """``spark_discard: rest``: every spark card of the game not written elsewhere is in the
        discards, in catalogue order, the first the oldest (turned over, it is on top, as in a
        ``spark_deck: rest``); the spark deck is then empty unless the document lists its cards."""
        sp = g.sparks
        assert sp is not None  # spark_discard is refused in a game without spark cards
        if sp.deck is REST:
            sp.deck = []
        sp.discard = [s.id for s in g.config.playable.sparks
                      if not self.is_placed(s.id) and s.source != FILLER]
        for i, cid in enumerate(sp.discard):
            self.placed[cid] = f"spark_discard[{i}]"

    def check_absent(self, names: tuple[str, ...]) -> None:
        """A document may not give the fields of a part of the rules this game does not have."""
        d = self.data
        for name, cls in Part.registry.items():
            if name in names or issubclass(cls, Pending):
                continue
            for f in cls.fields():
                if f.doc is None:
                    continue
                if f.per_player:
                    for p, entry in enumerate(self.player_entries):
                        if entry.get(f.doc):
                            raise ScenarioError(f"players[{p}].{f.doc}", cls.absent_message(f.doc))
                elif d.get(f.doc):
                    raise ScenarioError(f.doc, cls.absent_message(f.doc))

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
        # ``bag: rest``: every die not written elsewhere; a die nowhere else is a problem (``problems``)
        missing = [i for i in range(n) if i not in where_id] if rest else []

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
                if g.roles is None:
                    raise ScenarioError(ref.where, "a temporary colour comes from a role ability, and this "
                                                   "game has no role cards")
                g.roles.temp[ref.id] = ref.temp
        return middle

    def _die_on(self, g: GameState, value: Any, where: str, among: list[int]) -> int:
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
        """The replacements owed for defused cards, and the dice players must give up."""
        d = self.data
        order = [(g.leader + k) % g.players for k in range(g.players)] if g.phase is Phase.DEFUSE \
            else list(range(g.players))
        complete = [(p, hc.card) for p in order for hc in g.hands[p] if hc.complete]
        countdown = g.step3 is not None
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
                g.picks.append(Pick(seat, hc.card, revealed))
            if g.picks and countdown and g.phase is Phase.DISTRIBUTE and g.players > 2 and not over:
                raise ScenarioError("picks", "only 1-2 player Countdown games defuse cards before Step 3")
        elif not over and bombs_done:
            if g.phase is Phase.DEFUSE or (g.phase is Phase.DISTRIBUTE and not countdown):
                g.picks = [Pick(p, cid) for p, cid in bombs_done]
            elif g.phase is not Phase.DISTRIBUTE:
                p, cid = bombs_done[0]
                where = "during distribution" + (" and Step 3 (phase: defuse)" if countdown else "")
                raise ScenarioError(f"players[{p}]", f"{cid} is complete: a complete card waits for its "
                                                     f"replacement only {where}")
        if not over and g.picks and not g.middle_has_bombs():
            p, cid = g.picks[0].seat, g.picks[0].card
            raise ScenarioError(f"players[{p}]", f"{cid} is complete but the middle is empty: with "
                                                 "nothing to take, a complete card is defused at once")
        if not over and (not countdown or g.phase is Phase.DEFUSE):
            picked = {(p.seat, p.card) for p in g.picks}
            for p, cid in bombs_done:
                if (p, cid) not in picked:
                    raise ScenarioError("picks", f"player {p}'s complete card {cid} needs a pick")
        raw = d.get("removals") or {}
        if not isinstance(raw, Mapping):
            raise ScenarioError("removals", "expected a mapping player -> dice the player may give up")
        choices: dict[int, tuple[int, ...]] = {}
        for k, dice in raw.items():
            try:
                seat = int(k)
            except (TypeError, ValueError):
                raise ScenarioError(f"removals.{k}", "keys are player numbers (0, 1, ...)") from None
            where = f"removals.{k}"
            if not 0 <= seat < g.players:
                raise ScenarioError(where, f"there is no player {seat}")
            on_cards = [x for hc in g.hands[seat] for x in hc.dice if x != EMPTY]
            ids = tuple(self._die_on(g, v, f"{where}[{i}]", on_cards)
                        for i, v in enumerate(_list(dice, where)))
            if ids:
                choices[seat] = ids
        cause = self.cause(g)
        if choices:
            if cause == NO_SPARK and g.sparks is not None:
                push(g, SparkDraws([], choices))  # a spark could not be drawn: a die of one's choice
            else:
                push(g, Removals(choices, cause))

    def cause(self, g: GameState) -> Cause:
        """Why the listed dice must be given up: ``removal_cause`` (``{kind: fuse, card: F03}``,
        ``{kind: penalty, die: G4@12}``, ``{kind: no_spark}``), or the older ``removal_reason``
        text (``fuse card R``, ``unused die G4``, ``no spark card left``)."""
        d = self.data
        raw = d.get("removal_cause")
        if raw is not None:
            if not isinstance(raw, Mapping) or not isinstance(raw.get("kind"), str):
                raise ScenarioError("removal_cause", "expected a mapping with 'kind' (fuse, penalty or "
                                                     "no_spark)")
            _check_keys(raw, {"kind", "card", "shows", "die"}, "removal_cause")
            kind = raw["kind"]
            if kind == "fuse":
                card = raw.get("card")
                if card is not None:
                    if not isinstance(card, str) or card not in self.fuses:
                        raise ScenarioError("removal_cause.card", f"{card!r} is not a fuse card")
                    return Cause.fuse(card, self.fuses[card].symbol)
                shows = raw.get("shows")
                if not isinstance(shows, str):
                    raise ScenarioError("removal_cause", "a fuse card cause names the 'card' (or what it "
                                                         "'shows')")
                return Cause.fuse("", shows)
            if kind == "penalty":
                ref = _parse_die(raw.get("die"), "removal_cause.die")
                return Cause("penalty", die=EMPTY if ref.id is None else ref.id,
                             colours=colours_text(ref.colours), face=ref.face or 0)
            if kind == "no_spark":
                return NO_SPARK
            raise ScenarioError("removal_cause.kind", f"unknown cause {kind!r} (fuse, penalty or no_spark)")
        reason = d.get("removal_reason", "")
        if not isinstance(reason, str):
            raise ScenarioError("removal_reason", "expected text")
        if reason.startswith("fuse card "):
            shows = reason.removeprefix("fuse card ")
            card = next((f for f in reversed(g.fuses_activated) if g.fuse(f).symbol == shows), "")
            return Cause.fuse(card, shows)
        if reason.startswith("unused die "):
            ref = _parse_die(reason.removeprefix("unused die "), "removal_reason")
            return Cause("penalty", colours=colours_text(ref.colours), face=ref.face or 0)
        if reason == "no spark card left":
            return NO_SPARK
        return Cause("unstated")

    def stop_clock(self, g: GameState) -> None:
        """E.2: a 1-2 player Countdown position saved mid-turn has its clock stopped (at the game time,
        unless the document says when)."""
        step = g.step3
        if (step is not None and step.clock_stop is None and g.players <= 2 and g.phase is Phase.DISTRIBUTE
                and ending.saved(g) and any(not hc.complete for hand in g.hands for hc in hand)):
            step.clock_stop = g.time_ms

    def check_position(self, g: GameState) -> None:
        """The position is one a game can reach (``GameState.problems``: the dice, cards and sparks
        add up, the middle, the face-down hand cards and the stopped clock agree (docs/rules.md C.2.2,
        E), ...); the first problem is refused, at the field it is about. Every spark card is
        somewhere, as every die is: a game sets none aside."""
        for p in g.problems():
            if p.code == "too_many_rolled":  # a document may roll more dice than A.10, to set up a test
                continue
            raise ScenarioError(p.where, str(p) + HINTS.get(p.code, ""))


#: what a document can do about a problem, added to its text
HINTS: dict[str, str] = {
    "dice_missing": " (write bag: rest)",
    "sparks_missing": " (a game sets no spark card aside: list them in spark_deck or spark_discard, or write "
                      "spark_discard: rest for every spark card not written elsewhere)",
    "won_not_over": " (add row cards)",
}


def reachable(rules: CompiledCard, target: tuple[int, ...]) -> bool:
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
