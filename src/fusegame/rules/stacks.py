"""FUSE's level stacks setup (docs/rules.md B.6): instead of a row and a deck, one face-up stack of bomb
cards per level, and the fuse cards face down beside them. A player who defuses a card may first
reveal a fuse card (it goes off at once: +2 points, and it hurts), then takes the top card of a
stack of their choice. Nothing is refilled; the game is won when the stacks are empty."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fusegame.rules import fuse_cards
from fusegame.rules.actions import Action, RevealFuse
from fusegame.rules.events import Event
from fusegame.rules.moves import check_reveal
from fusegame.rules.schema import Cards, DocContext, Kind, Part, ScenarioError, declared
from fusegame.rules.views import card_view

if TYPE_CHECKING:
    from fusegame.rules.state import GameState


class LevelPiles(Kind):
    """Level -> the stack of that level's cards (top at the end; documents write the top first)."""

    stage = 1

    def read(self, raw: Any, where: str, ctx: DocContext) -> dict[int, list[str]]:
        if not isinstance(raw, Mapping):
            raise ScenarioError(where, "expected a mapping level -> cards (top first)")
        out: dict[int, list[str]] = {}
        for lv, items in raw.items():
            at = f"{where}.{lv}"
            try:
                level = int(lv)
            except (TypeError, ValueError):
                raise ScenarioError(at, "stack levels are point values (1, 2, 3, 4, 6)") from None
            cards = ctx.card_ids(items, at, ("bomb",))
            for i, cid in enumerate(cards):
                points = ctx.card_points(cid)
                if points != level:
                    raise ScenarioError(f"{at}[{i}]", f"{cid} is worth {points}, not {level}")
            out[level] = cards[::-1]
        return out

    def write(self, v: dict[int, list[str]], ctx: DocContext) -> dict[int, list[str]]:
        return {lv: cards[::-1] for lv, cards in sorted(v.items())}

    def copy(self, v: dict[int, list[str]]) -> dict[int, list[str]]:
        return {k: s[:] for k, s in v.items()}

    def to_json(self, v: dict[int, list[str]]) -> dict[str, list[str]]:
        return {str(k): s[:] for k, s in v.items()}

    def from_json(self, d: Any) -> dict[int, list[str]]:
        return {int(k): list(s) for k, s in d.items()}

    def show(self, v: dict[int, list[str]], g: GameState) -> list[dict[str, Any]]:
        return [{"level": lv, "size": len(cards), "top": card_view(g, cards[-1]) if cards else None}
                for lv, cards in sorted(v.items())]


@dataclass
class Stacks(Part):
    """The stacks, and the face-down fuse cards beside them."""

    piles: dict[int, list[str]] = declared(LevelPiles(), default_factory=dict, doc="stacks", view="stacks")
    fuses: list[str] = declared(Cards(("fuse",), top_first=True, shown="size"), default_factory=list,
                                doc="fuse_deck", view="fuse_deck_size")

    @classmethod
    def absent_message(cls, key: str) -> str:
        return "stacks and fuse_deck need config.setup: stacks"

    def before_doc(self, g: GameState, doc: Mapping[str, Any], over: bool) -> None:
        if g.row or g.deck:
            raise ScenarioError("row", "the stacks setup has no row or deck (use stacks and fuse_deck)")

    def has_bombs(self) -> bool:
        return any(self.piles.values())

    def tops(self) -> list[str]:
        """The cards a player may take: the top of each non-empty stack, lowest level first."""
        return [s[-1] for _, s in sorted(self.piles.items()) if s]

    def take(self, card: str) -> None:
        for s in self.piles.values():
            if s and s[-1] == card:
                s.pop()
                return

    def may_reveal(self, g: GameState, seat: int) -> bool:
        """A seat with a replacement to take may first reveal one fuse card for it."""
        return bool(self.fuses) and any(p.seat == seat for p in g.picks) and not any(
            p.revealed for p in g.picks if p.seat == seat)


Part.register(Stacks, "stacks")


def reveal(g: GameState, a: Action, ev: list[Event]) -> None:
    assert isinstance(a, RevealFuse) and g.stacks is not None
    for p in g.picks:
        if p.seat == a.seat:
            p.revealed = True
            break
    fuse_cards.activate(g, g.stacks.fuses.pop(), ev)


def reveal_actions(g: GameState, seat: int, at: int) -> list[Action]:
    return [RevealFuse(seat, at)] if g.stacks is not None and g.stacks.may_reveal(g, seat) else []


__all__ = ["LevelPiles", "Stacks", "check_reveal", "reveal", "reveal_actions"]
