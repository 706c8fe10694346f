"""Game configuration: which game, players, difficulty, setups, modules, options (docs/rules.md A.9,
B, F, G).

One ``GameConfig`` describes every way of playing: FUSE (with any of the five Countdown modules),
FUSE: Countdown, the two sets integrated, and epic games for 6-9 players. What follows from the
game and its modules (which deck table, which dice, sparks or rerolls, roles or not, when cards
are defused) is read from the table of games (``rules.games``): ``config.spec`` is the row.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import Enum
from functools import cached_property
from typing import Any

from fusegame.cards.catalogue import Catalogue, builtin_catalogue, catalogue_from_data
from fusegame.dice import COLOURS, DiceSet, colours_text
from fusegame.rules.games import (
    COUNTDOWN_DECK_SIZE,
    COUNTDOWN_DICE,
    DECK_SIZE,
    EPIC_DECK_SIZE,
    GAMES,
    ROW_SIZE,
    Difficulty,
    Game,
    GameSpec,
    Module,
    Phase,
    Setup,
    game_spec,
)


class ConfigError(ValueError):
    """A configuration that cannot make a game (the message says which option and why)."""


#: The levels of FUSE's bomb cards (the 6-point cards only when asked for).
LEVELS = (1, 2, 3, 4, 6)
#: Suggested number of fuse cards from Expert up in Countdown-style games (G-40; not in the rules).
DEFAULT_COUNTDOWN_FUSES = GAMES[Game.COUNTDOWN].fuse_cards.default


def dice_per_turn(players: int) -> int:
    """A.10: solo 3, two players 4, otherwise one per player (a Logistics Specialist adds one)."""
    return {1: 3, 2: 4}.get(players, players)


def quota(players: int) -> int:
    """A.10: the most dice one player may take in a turn."""
    return {1: 3, 2: 2}.get(players, 1)


@dataclass(frozen=True)
class GameConfig:
    """Everything that defines a game apart from the seed.

    ``game`` picks the rules frame (FUSE, Countdown, integrated sets, epic) and ``modules`` adds
    Countdown modules to FUSE. ``fuse_cards`` ``None`` means the game's default (FUSE: 6;
    Countdown-style: none at Training and Standard, 6 from Expert up). ``dice`` replaces the dice
    inventory (e.g. other split pairs: ``"4R 4B 4G 4Y 4K 1K/Y ..."``).
    ``time_limit`` is in seconds (``None``: untimed practice, scored but marked unofficial).
    ``feasibility=False`` is the "strict FUSE" option: placements that leave a card impossible are
    allowed (docs/rules.md D.6.4). ``level_counts`` (advanced setups) maps point level -> cards; when
    omitted the total is spread evenly over the levels. ``cards`` replaces the built-in catalogue.
    ``shuffle_sparks`` shuffles the spark discards when they become the new spark deck instead of
    turning the pile over (G-36).
    """

    players: int = 4
    difficulty: Difficulty = Difficulty.STANDARD
    setup: Setup = Setup.STANDARD
    six_point_cards: bool = False
    fuse_cards: int | None = None
    level_counts: tuple[tuple[int, int], ...] | None = None
    feasibility: bool = True
    time_limit: int | None = 600
    first_leader: int | None = None
    cards: Catalogue | None = field(default=None, compare=True)
    game: Game = Game.FUSE
    modules: tuple[Module, ...] = ()
    dice: str | None = None
    shuffle_sparks: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.game, str) and not isinstance(self.game, Game):
            object.__setattr__(self, "game", _enum(Game, self.game, "game"))
        if isinstance(self.difficulty, str) and not isinstance(self.difficulty, Difficulty):
            object.__setattr__(self, "difficulty", _enum(Difficulty, self.difficulty, "difficulty"))
        # Insane and Heroic are the same column; each game uses its own name for it
        if self.difficulty.top:
            object.__setattr__(self, "difficulty", GAMES[self.game].top)
        if isinstance(self.setup, str) and not isinstance(self.setup, Setup):
            object.__setattr__(self, "setup", _enum(Setup, self.setup, "setup"))
        if isinstance(self.modules, str):
            object.__setattr__(self, "modules", tuple(m for m in self.modules.replace(",", " ").split()))
        mods = {_enum(Module, m, "module") if not isinstance(m, Module) else m for m in self.modules}
        object.__setattr__(self, "modules", tuple(m for m in Module if m in mods))
        if isinstance(self.level_counts, dict):
            object.__setattr__(self, "level_counts", tuple(sorted(self.level_counts.items())))
        self.validate()

    # -- the row of the table of games -------------------------------------------------------
    def __hash__(self) -> int:
        return self._hash

    @cached_property  # configurations are memo keys of the bots (asked on every roll): hashed once
    def _hash(self) -> int:
        return hash(tuple(getattr(self, f.name) for f in fields(self) if f.compare))

    def __getstate__(self) -> dict[str, Any]:
        # a hash is only good in the process that made it (strings hash differently in each)
        state = dict(self.__dict__)
        state.pop("_hash", None)
        return state

    @cached_property  # asked by the rules and the bots many times a turn
    def spec(self) -> GameSpec:
        """This game's row of the table of games, with its modules applied."""
        return game_spec(self.game, self.modules if self.game is Game.FUSE else ())

    @property
    def countdown_rules(self) -> bool:
        """Countdown's framework: hands from the deck, five-step turn, defusal in Step 3."""
        return self.spec.step3

    @property
    def uses_sparks(self) -> bool:
        """Sparks replace the unused-dice reroll (Countdown-style games, or the Spark module)."""
        return self.spec.uses_sparks

    @property
    def uses_roles(self) -> bool:
        """Role cards are dealt (Countdown, integrated, or the Role module; never epic)."""
        return self.spec.roles

    @property
    def turn_steps(self) -> tuple[Phase, ...]:
        """The steps of one turn (the table's row)."""
        return self.spec.turn_steps

    @property
    def parts(self) -> tuple[str, ...]:
        """The optional parts of the rules in play: the table's row, and the level stacks when
        this is the stacks setup."""
        return self.spec.parts + (("stacks",) if self.setup is Setup.STACKS else ())

    @property
    def split_dice(self) -> bool:
        """Are split dice in the game?"""
        return any(bin(c).count("1") == 2 for c in self.dice_set.colours)

    @cached_property  # derived once: validation, setup and from_dict all ask
    def dice_set(self) -> DiceSet:
        """The dice in the bag (docs/rules.md A.1, A.2, F.3, I-07)."""
        if self.dice is not None:
            return DiceSet.parse(self.dice)
        spec = self.spec
        text = spec.dice
        if spec.fuse_dice_per_player:  # G-45: the FUSE dice added in equal shares of each colour
            each = self.players - 4
            text += " " + " ".join(f"{each}{colours_text(c)}" for c in COLOURS)
        return DiceSet.parse(text)

    @property
    def bomb_sets(self) -> tuple[str, ...]:
        return self.spec.bomb_sets

    @property
    def fuse_sets(self) -> tuple[str, ...]:
        return self.spec.fuse_sets

    @cached_property  # derived once: validation, setup and from_dict all ask
    def catalogue(self) -> Catalogue:
        """Every card of this game's sets (the cards a game or a scenario can refer to)."""
        full = self.cards or builtin_catalogue()
        return Catalogue(tuple(b for b in full.bombs if b.set in self.bomb_sets),
                         tuple(f for f in full.fuses if f.set in self.fuse_sets), full.origin,
                         tuple(s for s in full.sparks if s.set == "countdown") if self.uses_sparks else (),
                         tuple(r for r in full.roles if r.set == "countdown") if self.uses_roles else ())

    @cached_property  # derived once: validation, setup and from_dict all ask
    def playable(self) -> Catalogue:
        """The cards a game is set up from: the catalogue minus every card that needs something
        not in play (docs/rules.md F.2: split dice, roles, sparks; F.3: the role fuse card and the
        split-die cards in epic games), and minus FUSE's 6-point cards unless they are asked for."""
        cat = self.catalogue
        split = self.split_dice and self.spec.split_cards
        bombs = tuple(b for b in cat.bombs if (split or not b.shape.requires_split_die)
                      and (self.six_point_cards or b.points != 6 or b.set != "fuse"))
        parts = self.parts
        fuses = tuple(f for f in cat.fuses if not f.needs or f.needs in parts)
        sparks = tuple(s for s in cat.sparks if split or not s.shape.requires_split_die)
        return Catalogue(bombs, fuses, cat.origin, sparks, cat.roles)

    @property
    def deck_size(self) -> int:
        """Bomb cards in the game deck: FUSE's row and draw pile (A.9.1), or the Countdown and
        epic bomb deck with the hands included (A.9.2, A.9.3)."""
        return self.spec.deck_size(self.players, self.difficulty)

    @property
    def middle_size(self) -> int:
        """Bomb cards in the middle once the hands are dealt (the row and draw pile, or the level
        stacks): the bombs a table must take to empty it."""
        return self.deck_size - (self.hand_size * self.players if self.hands_in_deck else 0)

    @property
    def hands_in_deck(self) -> bool:
        """Countdown deals the hands from the built deck (G-04)."""
        return self.spec.hands_in_deck

    @property
    def hand_limit(self) -> int:
        """A two-card hand needs a card worth at most this (FUSE setup 2, Countdown setup 3: B.3)."""
        return self.spec.hand_limit

    def fuse_range(self) -> tuple[int, int]:
        """The fewest and most fuse cards this game may use (B.5, G-40)."""
        return self.spec.fuse_cards.allowed(self.difficulty, len(self.playable.fuses))

    @property
    def fuse_count(self) -> int:
        """Fuse cards shuffled into the deck (B.5)."""
        if self.fuse_cards is not None:
            return self.fuse_cards
        return self.spec.fuse_cards.default_for(self.difficulty, len(self.playable.fuses))

    @property
    def base_quota(self) -> int:
        """The most dice one player may take in a turn (a Logistics leader may take one more)."""
        return quota(self.players)

    @property
    def hand_size(self) -> int:
        return 4 if self.players == 1 else 2

    @property
    def levels(self) -> tuple[int, ...]:
        """The levels of the advanced setups: one per point value among the bomb cards in play
        (docs/rules.md B.6: 1-4 in FUSE, 6 with the 6-point cards, 1-6 with Countdown's bomb cards)."""
        return tuple(sorted({b.points for b in self.playable.bombs}))

    def level_sizes(self) -> dict[int, int]:
        """How many bomb cards in play each level of the advanced setups holds (B.6)."""
        sizes: dict[int, int] = {}
        for b in self.playable.bombs:
            sizes[b.points] = sizes.get(b.points, 0) + 1
        return dict(sorted(sizes.items()))

    def levels_text(self) -> str:
        """The levels that exist and their cards, for messages: "1 (12 cards), 2 (13 cards), ..."."""
        return ", ".join(f"{lv} ({n} cards)" for lv, n in self.level_sizes().items())

    def counts_per_level(self) -> dict[int, int]:
        """Cards of each level for the advanced setups (B.6)."""
        if self.level_counts is not None:
            return dict(self.level_counts)
        levels = self.levels
        base, extra = divmod(self.deck_size, len(levels))
        # the remainder goes to the highest levels: the rulebook's example leans hard
        return {lv: base + (1 if i >= len(levels) - extra else 0) for i, lv in enumerate(levels)}

    def validate(self) -> None:
        players = self.players
        if not isinstance(players, int) or isinstance(players, bool):
            raise ConfigError("players must be a whole number")
        spec = self.spec
        problem = spec.players_problem(players)
        if problem:
            raise ConfigError(problem)
        if self.modules and not spec.modules:
            raise ConfigError("modules add Countdown parts to FUSE; use them with the fuse game")
        if self.setup not in spec.setups:
            raise ConfigError("the advanced setups (single-deck, stacks) are FUSE setups")
        if self.dice is not None:
            try:
                dice = DiceSet.parse(self.dice)
            except ValueError as e:
                raise ConfigError(f"dice: {e}") from None
            if not len(dice):
                raise ConfigError("dice: the bag needs at least one die")
        playable = self.playable
        pool = len(playable.fuses)
        if self.fuse_cards is not None:
            lo, hi = self.fuse_range()
            rule = spec.fuse_cards
            if not lo <= self.fuse_cards <= hi:
                if not rule.uses_fuses(self.difficulty):
                    first = rule.first.value.capitalize()
                    raise ConfigError(f"{self.difficulty.value} uses no fuse cards in {self.game.value} "
                                      f"games ({first} and up use {rule.least} to {pool})")
                if rule.least:
                    raise ConfigError(f"{self.difficulty.value} uses {lo} to {hi} fuse cards")
                raise ConfigError(f"fuse cards must be {lo} to {hi}")
        if self.time_limit is not None and self.time_limit <= 0:
            raise ConfigError("the time limit must be positive (or none for an untimed game)")
        if self.first_leader is not None and not 0 <= self.first_leader < self.players:
            raise ConfigError(f"the first leader must be a seat from 0 to {self.players - 1}")
        if self.level_counts is not None:
            if self.setup is Setup.STANDARD:
                raise ConfigError("level counts only apply to the advanced setups")
            counts = dict(self.level_counts)
            bad = set(counts) - set(self.levels)
            if bad:
                raise ConfigError(f"level_counts: no level {sorted(bad)} in this game (the levels: "
                                  f"{self.levels_text()})")
            sizes = self.level_sizes()
            for lv, n in sorted(counts.items()):
                if n > sizes[lv]:  # B.6: a level's stack holds only that level's cards
                    raise ConfigError(f"level_counts: level {lv} has {sizes[lv]} cards, not {n} (the "
                                      f"levels: {self.levels_text()})")
            if any(v < 0 for v in counts.values()) or sum(counts.values()) != self.deck_size:
                raise ConfigError(f"level counts must add up to {self.deck_size} for "
                                  f"{self.players} players at {self.difficulty.value}")
        available = len(playable.bombs)
        need = self.deck_size if self.hands_in_deck else self.deck_size + self.hand_size * players + 4
        if available < need:
            raise ConfigError(f"the catalogue has {available} usable bomb cards; this game "
                              f"needs at least {need}")
        if self.uses_roles and len(playable.roles) < players:
            raise ConfigError(f"the catalogue has {len(playable.roles)} role cards for "
                              f"{players} players")
        if self.uses_sparks and not playable.sparks:
            raise ConfigError("this game uses spark cards but the catalogue has none")

    @property
    def official(self) -> bool:
        return self.time_limit == 600

    def describe(self) -> str:
        """``countdown, 3 players, expert, 6 fuse cards``: a one-line summary for people."""
        name = self.game.value + ("+" + "+".join(m.value for m in self.modules) if self.modules else "")
        return (f"{name}, {self.players} player{'s' if self.players > 1 else ''}, "
                f"{self.difficulty.value}, {self.fuse_count} fuse cards")

    # -- data ------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "players": self.players, "difficulty": self.difficulty.value, "setup": self.setup.value,
            "six_point_cards": self.six_point_cards, "fuse_cards": self.fuse_cards,
            "level_counts": {str(k): v for k, v in self.level_counts} if self.level_counts else None,
            "feasibility": self.feasibility, "time_limit": self.time_limit,
            "first_leader": self.first_leader,
        }
        if self.game is not Game.FUSE or self.modules:  # FUSE records keep their old shape
            d["game"] = self.game.value
            d["modules"] = [m.value for m in self.modules]
        if self.dice is not None:
            d["dice"] = self.dice
        if self.shuffle_sparks:
            d["shuffle_sparks"] = True
        if self.cards is not None:
            d["cards"] = self.cards.to_data()
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameConfig:
        known = set(cls.__dataclass_fields__)
        unknown = set(d) - known
        if unknown:
            raise ConfigError(f"unknown config option(s): {', '.join(sorted(unknown))}")
        kw = {k: v for k, v in d.items() if k != "cards"}
        if "modules" in kw:
            kw["modules"] = tuple(kw["modules"] or ())
        if kw.get("level_counts"):
            kw["level_counts"] = tuple(sorted((int(k), int(v)) for k, v in kw["level_counts"].items()))
        cards = (catalogue_from_data(d["cards"], "<config>", check_completable=False)
                 if d.get("cards") else None)
        return cls(**kw, cards=cards)

    def with_(self, **changes: Any) -> GameConfig:
        return replace(self, **changes)


def _enum(kind: type[Enum], value: str, what: str) -> Any:
    try:
        return kind(value)
    except ValueError:
        raise ConfigError(f"unknown {what} {value!r} (choose from "
                          f"{', '.join(str(m.value) for m in kind)})") from None


__all__ = [
    "COUNTDOWN_DECK_SIZE", "COUNTDOWN_DICE", "DECK_SIZE", "DEFAULT_COUNTDOWN_FUSES", "EPIC_DECK_SIZE",
    "LEVELS", "ROW_SIZE", "ConfigError", "Difficulty", "Game", "GameConfig", "Module", "Setup",
    "dice_per_turn", "quota",
]
