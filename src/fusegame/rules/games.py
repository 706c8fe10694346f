"""The table of games: FUSE, FUSE: Countdown, the integrated sets, epic games and the five modules.

Every fact that tells one game from another is a field of its row here, the way python-chess
declares its variants: how many players, which deck-size table (docs/rules.md A.9), which dice, the top
difficulty, the steps of a turn, which rule components are in play, how many fuse cards. A module
is a small row of changes applied to FUSE's row. ``GameConfig``, the command line, the server's
options and the scenario reader all read this table; nothing else repeats these facts.

    >>> spec = game_spec(Game.FUSE, (Module.SPARKS,))
    >>> spec.parts, spec.players
    (('sparks',), (1, 5))
    >>> [p.value for p in game_spec(Game.COUNTDOWN).turn_steps]
    ['roll', 'distribute', 'defuse', 'sparks']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cache
from typing import Any


class Difficulty(str, Enum):
    TRAINING = "training"
    STANDARD = "standard"
    EXPERT = "expert"
    ELITE = "elite"
    INSANE = "insane"  #: FUSE's top level
    HEROIC = "heroic"  #: Countdown's top level (the same column of the tables)

    @property
    def column(self) -> int:
        """The column of the deck-size tables (Insane and Heroic share the last one)."""
        return _COLUMNS[self]

    @property
    def top(self) -> bool:
        """Insane or Heroic: the cards in front of the players must be defused too."""
        return self in (Difficulty.INSANE, Difficulty.HEROIC)


#: every view and deal reads the tables' columns: worked out once
_COLUMNS: dict[Difficulty, int] = {d: min(i, 4) for i, d in enumerate(Difficulty)}


class Game(str, Enum):
    """Which rules frame the game (docs/rules.md F.4)."""

    FUSE = "fuse"  #: FUSE, optionally with Countdown modules
    COUNTDOWN = "countdown"  #: FUSE: Countdown on its own
    INTEGRATED = "integrated"  #: both sets shuffled together under Countdown's rules (F.1)
    EPIC = "epic"  #: both sets for 6-9 players (F.3)


class Module(str, Enum):
    """The five Countdown expansion modules for FUSE (docs/rules.md F.2)."""

    ROLES = "roles"  #: add the role cards
    BOMBS = "bombs"  #: Countdown's bomb cards instead of FUSE's
    FUSES = "fuses"  #: Countdown's fuse cards instead of FUSE's
    SPARKS = "sparks"  #: spark cards instead of the unused-dice reroll
    SPLIT_DICE = "split-dice"  #: Countdown's dice (with the split dice) instead of FUSE's


class Setup(str, Enum):
    STANDARD = "standard"  #: B.1: hands, deck of A.9.1 size, row of 5, 6 fuse cards shuffled in
    SINGLE_DECK = "single-deck"  #: B.6: chosen counts per level, one deck
    STACKS = "stacks"  #: B.6: one face-up stack per level, fuse cards face down beside them


class Phase(str, Enum):
    """The step of the turn a game is in (the bottom of its queue of pending decisions)."""

    ROLL = "roll"  #: waiting for the turn's draw and roll (a chance node)
    DISTRIBUTE = "distribute"  #: players claim and place rolled dice
    PENALTY = "penalty"  #: FUSE: unused dice are rerolled one at a time
    DEFUSE = "defuse"  #: Countdown Step 3: complete cards are defused and replaced
    SPARKS = "sparks"  #: Countdown Step 4 (and the Spark module): sparks for dice not taken
    OVER = "over"


#: The optional parts of the rules, each a module of ``fusegame.rules`` with its own state:
#: ``penalty`` (FUSE: untaken dice are rerolled as penalties, C.1.7), ``sparks`` (spark cards are
#: drawn for them instead, C.2 Step 4), ``roles`` (role cards, A.7), ``step3`` (Countdown's five-step
#: turn: complete cards wait for Step 3, C.2) and ``stacks`` (FUSE's level stacks setup, B.6).
PARTS = ("penalty", "sparks", "roles", "step3", "stacks")


FUSE_DICE = "5R 5B 5G 5Y 5K"
#: Countdown's dice: four of each colour and five split dice; the pairs are a cycle in which every
#: colour appears twice (only black/yellow is named in the rulebook: docs/rules.md A.2, I-07).
COUNTDOWN_DICE = "4R 4B 4G 4Y 4K 1R/B 1B/G 1G/Y 1Y/K 1K/R"
ROW_SIZE = 5

DeckTable = Mapping[int, tuple[int, int, int, int, int]]
#: A.9.1: bomb cards in the game deck (row + draw pile), not counting the hands.
DECK_SIZE: DeckTable = {
    1: (16, 19, 21, 23, 25),
    2: (17, 20, 22, 24, 26),
    3: (18, 21, 23, 25, 27),
    4: (19, 22, 24, 26, 28),
    5: (20, 23, 25, 27, 29),
}
#: A.9.2: Countdown's bomb deck, the starting hands included (they are dealt from it).
COUNTDOWN_DECK_SIZE: DeckTable = {
    1: (19, 21, 24, 26, 28),
    2: (19, 22, 25, 27, 29),
    3: (24, 27, 29, 31, 33),
    4: (28, 31, 33, 35, 37),
}
#: A.9.3: epic games, hands included (G-44).
EPIC_DECK_SIZE: DeckTable = {
    6: (36, 41, 44, 48, 52),
    7: (40, 46, 49, 54, 60),
    8: (44, 51, 54, 60, 68),
    9: (48, 56, 59, 66, 76),
}


@dataclass(frozen=True)
class FuseCardRule:
    """How many fuse cards a game uses (B.5, G-40): ``default`` (capped by the cards there are)
    from difficulty ``first`` up, none below it; a player may choose ``least`` up to all of them."""

    default: int
    first: Difficulty = Difficulty.TRAINING
    least: int = 0

    def uses_fuses(self, difficulty: Difficulty) -> bool:
        return difficulty.column >= self.first.column

    def allowed(self, difficulty: Difficulty, pool: int) -> tuple[int, int]:
        """The fewest and most fuse cards a game at ``difficulty`` may use, of ``pool`` cards."""
        if not self.uses_fuses(difficulty):
            return 0, 0
        return self.least, pool

    def default_for(self, difficulty: Difficulty, pool: int) -> int:
        return min(self.default, pool) if self.uses_fuses(difficulty) else 0


@dataclass(frozen=True)
class GameSpec:
    """One row of the table of games (or FUSE's row with modules applied: ``game_spec``)."""

    game: Game
    title: str  #: the name on the box
    players: tuple[int, int]  #: fewest and most players
    deck_sizes: DeckTable  #: players -> bomb cards per difficulty column (docs/rules.md A.9)
    hands_in_deck: bool  #: the starting hands are dealt from the built deck (Countdown, G-04)
    hand_limit: int  #: a two-card hand needs a card worth at most this (B.3)
    dice: str  #: the dice in the bag
    bomb_sets: tuple[str, ...]  #: which sets' bomb cards are used
    fuse_sets: tuple[str, ...]  #: which sets' fuse cards are used
    parts: tuple[str, ...]  #: the optional parts of the rules in play (see ``PARTS``)
    top: Difficulty  #: the name of the top difficulty in this game
    fuse_cards: FuseCardRule
    setups: tuple[Setup, ...] = (Setup.STANDARD,)
    modules: bool = False  #: Countdown's modules may be added (FUSE only)
    fuse_dice_per_player: bool = False  #: epic: FUSE dice added, players - 4 of each colour (G-45)
    split_cards: bool = True  #: cards needing a split die may be used when split dice are in the bag

    @property
    def turn_steps(self) -> tuple[Phase, ...]:
        """The steps of one turn, in order (C.1.7; C.2's five steps without passing the bag)."""
        after = (Phase.DEFUSE,) if self.step3 else ()
        last = Phase.SPARKS if self.uses_sparks else Phase.PENALTY
        return (Phase.ROLL, Phase.DISTRIBUTE, *after, last)

    @property
    def uses_sparks(self) -> bool:
        """Spark cards are drawn for untaken dice (instead of FUSE's penalty rolls)."""
        return "sparks" in self.parts

    @property
    def roles(self) -> bool:
        """Role cards are dealt."""
        return "roles" in self.parts

    @property
    def step3(self) -> bool:
        """Complete cards wait for Step 3 (Countdown's five-step turn) instead of going at once."""
        return "step3" in self.parts

    def difficulties(self) -> tuple[Difficulty, ...]:
        """The difficulty levels by this game's names (Training to Insane, or to Heroic)."""
        return tuple(d for d in Difficulty if not d.top) + (self.top,)

    def deck_size(self, players: int, difficulty: Difficulty) -> int:
        return self.deck_sizes[players][difficulty.column]

    @property
    def default_players(self) -> int:
        """Four players, as near as the game allows (an epic game starts at six)."""
        lo, hi = self.players
        return min(max(4, lo), hi)

    def players_problem(self, players: int) -> str:
        """'' when ``players`` may play this game, else why not (for people)."""
        lo, hi = self.players
        if lo <= players <= hi:
            return ""
        epic = GAMES[Game.EPIC]
        hint = "" if self.game is Game.EPIC else (
            f" ({epic.players[0]} to {epic.players[1]}: an epic game, --game epic)")
        return f"{self.name_for_players} for {lo} to {hi} players{hint}"

    @property
    def name_for_players(self) -> str:
        """``FUSE is`` / ``countdown games are``: how a sentence about this game's players starts."""
        return "FUSE is" if self.game is Game.FUSE else f"{self.game.value} games are"


@dataclass(frozen=True)
class ModuleSpec:
    """A Countdown module for FUSE: the fields of FUSE's row it changes and the parts of the rules
    it adds and takes away (docs/rules.md F.2)."""

    module: Module
    title: str
    changes: Mapping[str, Any] = field(default_factory=dict)
    adds: tuple[str, ...] = ()
    drops: tuple[str, ...] = ()

    def apply(self, spec: GameSpec) -> GameSpec:
        parts = tuple(p for p in PARTS if (p in spec.parts or p in self.adds) and p not in self.drops)
        return replace(spec, **self.changes, parts=parts)


_FUSE_FUSES = FuseCardRule(default=6)
#: Countdown-style games use no fuse cards at Training and Standard; from Expert up 1 to all of
#: them, 6 when the players do not say (G-40: the number is not in the rules).
_COUNTDOWN_FUSES = FuseCardRule(default=6, first=Difficulty.EXPERT, least=1)

#: The table of games.
GAMES: dict[Game, GameSpec] = {
    Game.FUSE: GameSpec(
        Game.FUSE, "FUSE", (1, 5), DECK_SIZE, hands_in_deck=False, hand_limit=2, dice=FUSE_DICE,
        bomb_sets=("fuse",), fuse_sets=("fuse",), parts=("penalty",), top=Difficulty.INSANE,
        fuse_cards=_FUSE_FUSES, setups=tuple(Setup), modules=True),
    Game.COUNTDOWN: GameSpec(
        Game.COUNTDOWN, "FUSE: Countdown", (1, 4), COUNTDOWN_DECK_SIZE, hands_in_deck=True, hand_limit=3,
        dice=COUNTDOWN_DICE, bomb_sets=("countdown",), fuse_sets=("countdown",),
        parts=("sparks", "roles", "step3"), top=Difficulty.HEROIC, fuse_cards=_COUNTDOWN_FUSES),
    Game.INTEGRATED: GameSpec(
        Game.INTEGRATED, "FUSE + FUSE: Countdown (integrated)", (1, 4), COUNTDOWN_DECK_SIZE,
        hands_in_deck=True, hand_limit=3, dice=COUNTDOWN_DICE, bomb_sets=("fuse", "countdown"),
        fuse_sets=("fuse", "countdown"), parts=("sparks", "roles", "step3"),
        top=Difficulty.HEROIC, fuse_cards=_COUNTDOWN_FUSES),
    Game.EPIC: GameSpec(
        Game.EPIC, "FUSE + FUSE: Countdown (epic)", (6, 9), EPIC_DECK_SIZE, hands_in_deck=True,
        hand_limit=3, dice=COUNTDOWN_DICE, bomb_sets=("fuse", "countdown"), fuse_sets=("fuse", "countdown"),
        parts=("sparks", "step3"), top=Difficulty.HEROIC, fuse_cards=_COUNTDOWN_FUSES,
        fuse_dice_per_player=True, split_cards=False),
}

#: The modules, in the order they are listed.
MODULES: dict[Module, ModuleSpec] = {
    Module.ROLES: ModuleSpec(Module.ROLES, "role cards", adds=("roles",)),
    Module.BOMBS: ModuleSpec(Module.BOMBS, "Countdown's bomb cards", {"bomb_sets": ("countdown",)}),
    Module.FUSES: ModuleSpec(Module.FUSES, "Countdown's fuse cards", {"fuse_sets": ("countdown",)}),
    Module.SPARKS: ModuleSpec(Module.SPARKS, "spark cards", adds=("sparks",), drops=("penalty",)),
    Module.SPLIT_DICE: ModuleSpec(Module.SPLIT_DICE, "Countdown's dice", {"dice": COUNTDOWN_DICE}),
}


@cache
def game_spec(game: Game, modules: tuple[Module, ...] = ()) -> GameSpec:
    """The row of ``game`` with ``modules`` applied (modules only apply to FUSE)."""
    spec = GAMES[game]
    for m in modules:
        spec = MODULES[m].apply(spec)
    return spec


def game_names() -> tuple[str, ...]:
    return tuple(g.value for g in GAMES)


def players_text() -> str:
    """``FUSE 1-5, countdown and integrated 1-4, epic 6-9``: the player counts of the games, for
    help texts."""
    by_range: dict[tuple[int, int], list[str]] = {}
    for spec in GAMES.values():
        by_range.setdefault(spec.players, []).append("FUSE" if spec.game is Game.FUSE else spec.game.value)
    return ", ".join(f"{' and '.join(names)} {lo}-{hi}" for (lo, hi), names in by_range.items())


__all__ = [
    "COUNTDOWN_DICE", "DECK_SIZE", "COUNTDOWN_DECK_SIZE", "EPIC_DECK_SIZE", "FUSE_DICE", "GAMES", "MODULES",
    "PARTS", "ROW_SIZE", "Difficulty", "FuseCardRule", "Game", "GameSpec", "Module", "ModuleSpec", "Phase",
    "Setup", "game_spec", "game_names", "players_text",
]
