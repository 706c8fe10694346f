"""The games of the table (``fusegame.rules.games.GAMES``) and FUSE with the Countdown modules, as
pytest parameters: a rule that several games share is checked in each game that has it, the way
a simulation test runs every game of a registry.

Positions are scenario documents with ad hoc cards (``"? ? ?"``, ``"fuse:R"``, ``{spark: "?"}``),
so the same document describes the position in any of the games.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from fusegame.dice import colours_text
from fusegame.rules import GameConfig, GameState
from fusegame.rules.games import GAMES, MODULES, Game, GameSpec, Module, game_spec
from fusegame.scenario import scenario_from_data


@dataclass(frozen=True)
class Variant:
    """A game of the table, or FUSE with some of Countdown's modules."""

    game: Game
    modules: tuple[Module, ...] = ()

    @property
    def spec(self) -> GameSpec:
        return game_spec(self.game, self.modules)

    def seats(self, players: int) -> bool:
        lo, hi = self.spec.players
        return lo <= players <= hi

    def fewest(self, players: int) -> int:
        """``players``, or the fewest this game seats when that is more (epic games: 6)."""
        return max(players, self.spec.players[0])

    def config(self, players: int, **kw: Any) -> dict[str, Any]:
        """The ``config`` of a scenario document for this game."""
        return {"game": self.game.value, "modules": [m.value for m in self.modules], "players": players, **kw}

    def dice(self, players: int) -> list[str]:
        """The colours of the game's dice, one per die (``R``, ``K/Y``)."""
        cfg = GameConfig(players=players, game=self.game, modules=self.modules)
        return [colours_text(c) for c in cfg.dice_set.colours]

    def __str__(self) -> str:
        return "+".join([self.game.value, *(m.value for m in self.modules)])


#: Every game of the table, FUSE with each module alone and FUSE with all five.
ALL: tuple[Variant, ...] = (
    *(Variant(g) for g in GAMES),
    *(Variant(Game.FUSE, (m,)) for m in MODULES),
    Variant(Game.FUSE, tuple(MODULES)),
)


def variants(where: Callable[[GameSpec], bool] = lambda spec: True, *,
             players: int | None = None) -> list[Any]:
    """``pytest.param`` for each variant whose row satisfies ``where`` (and that seats ``players``)."""
    return [pytest.param(v, id=str(v)) for v in ALL
            if where(v.spec) and (players is None or v.seats(players))]


def uses_sparks(spec: GameSpec) -> bool:
    return spec.uses_sparks


def has_roles(spec: GameSpec) -> bool:
    return spec.roles


def countdown_fuses(spec: GameSpec) -> bool:
    """Countdown's fuse cards (the text cards among them) are shuffled in."""
    return "countdown" in spec.fuse_sets


def split_dice(spec: GameSpec) -> bool:
    return "/" in spec.dice


def load(v: Variant, players: int, doc: dict[str, Any], **config: Any) -> GameState:
    """The position ``doc`` (a scenario document without its ``config``) in game ``v``."""
    return scenario_from_data({"config": v.config(players, **config), **doc})


def all_but(v: Variant, players: int, bag: list[str]) -> dict[str, Any]:
    """A card holding every die of the game but the ``bag`` ones (colour letters), one slot left
    free: put in front of a player, it leaves just those dice in the bag."""
    rest = v.dice(players)
    for c in bag:
        rest.remove(c)
    return {"notation": " ".join(["?"] * (len(rest) + 1)), "dice": [f"{c}1" for c in rest]}
