"""Writing any state as a scenario document, so that reading it back gives an equal state."""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any

from fusegame.cards.catalogue import builtin_catalogue
from fusegame.cards.model import FuseEffect
from fusegame.constraints import EMPTY
from fusegame.dice import DiceSet, colours_text
from fusegame.rules.config import GameConfig
from fusegame.rules.removals import NO_SPARK, Cause, Removals
from fusegame.rules.sparks import SparkDraws
from fusegame.rules.state import GameState, Phase
from fusegame.scenario.fields import _CONFIG_KEYS, die_label
from fusegame.scenario.reader import reachable


class _Writer:
    """The document context for writing a state (``rules.schema.DocContext``)."""

    def __init__(self, g: GameState) -> None:
        self.state = g
        self.data: Mapping[str, Any] = {}
        self.players = g.players
        self.player_entries: list[Mapping[str, Any]] = []

    def die_text(self, die: int) -> str:
        return die_label(self.state, die)

    def die_on(self, value: Any, where: str, among: Any) -> int:
        raise NotImplementedError

    def card_ids(self, value: Any, where: str, accept: tuple[str, ...], placed: bool = True) -> list[str]:
        raise NotImplementedError

    def is_placed(self, card_id: str) -> bool:
        raise NotImplementedError

    def role_ids(self, value: Any, where: str) -> list[str]:
        raise NotImplementedError

    def card_points(self, card_id: str) -> int:
        return self.state.bomb(card_id).points


def _cause_doc(g: GameState, cause: Cause) -> dict[str, Any]:
    if cause.kind == "fuse":
        return {"kind": "fuse", "card": cause.card} if cause.card else {"kind": "fuse",
                                                                         "shows": " ".join(cause.shows)}
    if cause.kind == "penalty":
        label = f"{cause.colours}{cause.face}"
        return {"kind": "penalty", "die": label if cause.die == EMPTY else f"{label}@{cause.die}"}
    return {"kind": cause.kind}


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


def write(g: GameState) -> dict[str, Any]:
    """Any state as a scenario document (plain data)."""
    doc: dict[str, Any] = {}
    ctx = _Writer(g)
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
        held = [{"id": hc.card, "dice": [None if x == EMPTY else die_label(g, x) for x in hc.dice]}
                for hc in hand]
        entry: dict[str, Any] = {"cards": held, "taken": g.taken[p], "done": g.done[p]}
        for part in g.parts.values():
            for f in part.fields():
                if f.doc is not None and f.per_player:
                    value = getattr(part, f.name)[p]
                    if value:
                        entry[f.doc] = f.seat_kind.write(value, ctx)
        doc["players"].append(entry)
    if g.stacks is None:
        doc["row"] = g.row[:]
    if g.deck:
        doc["deck"] = g.deck[::-1]
    for part in g.parts.values():
        doc.update(part.write_doc(g, ctx))
    if all(g.faces[i] == 1 for i in g.bag) and not set(g.bag) & set(g.rolled):
        doc["bag"] = "rest"
    else:
        doc["bag"] = [die_label(g, i) for i in g.bag]
    doc["leader"] = g.leader
    doc["turn"] = g.turn
    if g.phase is not Phase.OVER:
        doc["phase"] = g.phase.value
    doc["rolled"] = [die_label(g, i, temp=True) for i in g.rolled]
    if g.unused:
        doc["unused"] = [die_label(g, i) for i in g.unused]
    for item in g.queue:
        owed: dict[int, tuple[int, ...]] = {}
        if isinstance(item, Removals):
            owed, cause = item.seats, item.cause
        elif isinstance(item, SparkDraws):
            owed, cause = item.owing, NO_SPARK
        if owed:
            doc["removals"] = {seat: [die_label(g, i) for i in ids] for seat, ids in sorted(owed.items())}
            doc["removal_cause"] = _cause_doc(g, cause)
    if g.picks or any(hc.complete for hand in g.hands for hc in hand):
        doc["picks"] = [p.to_json() for p in g.picks]
    for item in g.queue:
        doc.update(item.write_doc(g, ctx))
    doc["time_ms"] = g.time_ms
    if g.score_pile:
        doc["score_pile"] = g.score_pile[:]
    if g.fuses_activated:
        doc["fuses_activated"] = g.fuses_activated[:]
    if g.outcome is not None:
        doc["outcome"] = g.outcome.to_dict()
    if not all(reachable(g.card_rules(hc.card), hc.types) for hand in g.hands for hc in hand):
        doc["check_cards"] = False  # e.g. a die placed with a temporary colour (docs/rules.md D.9)
    return doc
