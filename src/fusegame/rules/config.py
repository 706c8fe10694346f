"""Game configuration: which game, players, difficulty, setups, modules, options (RULES.md A.9,
B, F, G).

One ``GameConfig`` describes every way of playing: FUSE (with any of the five Countdown modules),
FUSE: Countdown, the two sets integrated, and epic games for 6-9 players. The rules that follow
from it (which deck table, which dice, sparks or rerolls, roles or not, when cards are defused)
are derived properties, so the engine asks the config rather than the game's name.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cached_property
from typing import Any

from fusegame.cards.catalogue import Catalogue, builtin_catalogue, catalogue_from_data
from fusegame.cards.model import FuseEffect
from fusegame.dice import COLOURS, DiceSet, colours_text


class ConfigError(ValueError):
    """A configuration that cannot make a game (the message says which option and why)."""


class Difficulty(str, Enum):
    TRAINING = "training"
    STANDARD = "standard"
    EXPERT = "expert"
    ELITE = "elite"
    INSANE = "insane"  #: FUSE's top level
    HEROIC = "heroic"  #: Countdown's top level (the same column of the tables)

    @property
    def column(self) -> int:
        return min(list(Difficulty).index(self), 4)

    @property
    def top(self) -> bool:
        """Insane or Heroic: the cards in front of the players must be defused too."""
        return self in (Difficulty.INSANE, Difficulty.HEROIC)


class Game(str, Enum):
    """Which rules frame the game (RULES.md F.4)."""

    FUSE = "fuse"  #: FUSE, optionally with Countdown modules
    COUNTDOWN = "countdown"  #: FUSE: Countdown on its own
    INTEGRATED = "integrated"  #: both sets shuffled together under Countdown's rules (F.1)
    EPIC = "epic"  #: both sets for 6-9 players (F.3)


class Module(str, Enum):
    """The five Countdown expansion modules for FUSE (RULES.md F.2)."""

    ROLES = "roles"  #: add the role cards
    BOMBS = "bombs"  #: Countdown's bomb cards instead of FUSE's
    FUSES = "fuses"  #: Countdown's fuse cards instead of FUSE's
    SPARKS = "sparks"  #: spark cards instead of the unused-dice reroll
    SPLIT_DICE = "split-dice"  #: Countdown's dice (with the split dice) instead of FUSE's


class Setup(str, Enum):
    STANDARD = "standard"  #: B.1: hands, deck of A.9.1 size, row of 5, 6 fuse cards shuffled in
    SINGLE_DECK = "single-deck"  #: B.6: chosen counts per level, one deck
    STACKS = "stacks"  #: B.6: one face-up stack per level, fuse cards face down beside them


#: A.9.1: bomb cards in the game deck (row + draw pile), not counting the hands.
DECK_SIZE: dict[int, tuple[int, int, int, int, int]] = {
    1: (16, 19, 21, 23, 25),
    2: (17, 20, 22, 24, 26),
    3: (18, 21, 23, 25, 27),
    4: (19, 22, 24, 26, 28),
    5: (20, 23, 25, 27, 29),
}
#: A.9.2: Countdown's bomb deck, the starting hands included (they are dealt from it).
COUNTDOWN_DECK_SIZE: dict[int, tuple[int, int, int, int, int]] = {
    1: (19, 21, 24, 26, 28),
    2: (19, 22, 25, 27, 29),
    3: (24, 27, 29, 31, 33),
    4: (28, 31, 33, 35, 37),
}
#: A.9.3: epic games, hands included (G-44).
EPIC_DECK_SIZE: dict[int, tuple[int, int, int, int, int]] = {
    6: (36, 41, 44, 48, 52),
    7: (40, 46, 49, 54, 60),
    8: (44, 51, 54, 60, 68),
    9: (48, 56, 59, 66, 76),
}
LEVELS = (1, 2, 3, 4, 6)
ROW_SIZE = 5
#: Countdown's dice: four of each colour and five split dice; the pairs are a cycle in which every
#: colour appears twice (only black/yellow is named in the rulebook: RULES.md A.2, I-07).
COUNTDOWN_DICE = "4R 4B 4G 4Y 4K 1R/B 1B/G 1G/Y 1Y/K 1K/R"
#: Suggested number of fuse cards from Expert up in Countdown-style games (G-40; not in the rules).
DEFAULT_COUNTDOWN_FUSES = 6


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
    allowed (RULES.md D.6.4). ``level_counts`` (advanced setups) maps point level -> cards; when
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
            object.__setattr__(self, "difficulty",
                               Difficulty.INSANE if self.game is Game.FUSE else Difficulty.HEROIC)
        if isinstance(self.setup, str) and not isinstance(self.setup, Setup):
            object.__setattr__(self, "setup", _enum(Setup, self.setup, "setup"))
        if isinstance(self.modules, str):
            object.__setattr__(self, "modules", tuple(m for m in self.modules.replace(",", " ").split()))
        mods = {_enum(Module, m, "module") if not isinstance(m, Module) else m for m in self.modules}
        object.__setattr__(self, "modules", tuple(m for m in Module if m in mods))
        if isinstance(self.level_counts, dict):
            object.__setattr__(self, "level_counts", tuple(sorted(self.level_counts.items())))
        self.validate()

    # -- derived rules ---------------------------------------------------------------------
    @property
    def countdown_rules(self) -> bool:
        """Countdown's framework: hands from the deck, five-step turn, defusal in Step 3."""
        return self.game is not Game.FUSE

    @property
    def uses_sparks(self) -> bool:
        """Sparks replace the unused-dice reroll (Countdown-style games, or the Spark module)."""
        return self.countdown_rules or Module.SPARKS in self.modules

    @property
    def uses_roles(self) -> bool:
        """Role cards are dealt (Countdown, integrated, or the Role module; never epic)."""
        return self.game in (Game.COUNTDOWN, Game.INTEGRATED) or (
            self.game is Game.FUSE and Module.ROLES in self.modules)

    @property
    def split_dice(self) -> bool:
        """Are split dice in the game?"""
        return any(bin(c).count("1") == 2 for c in self.dice_set.colours)

    @cached_property  # derived once: validation, setup and from_dict all ask
    def dice_set(self) -> DiceSet:
        """The dice in the bag (RULES.md A.1, A.2, F.3, I-07)."""
        if self.dice is not None:
            return DiceSet.parse(self.dice)
        if self.game is Game.FUSE and Module.SPLIT_DICE not in self.modules:
            return DiceSet.fuse()
        text = COUNTDOWN_DICE
        if self.game is Game.EPIC:  # G-45: the FUSE dice added in equal shares of each colour
            each = self.players - 4
            text += " " + " ".join(f"{each}{colours_text(c)}" for c in COLOURS)
        return DiceSet.parse(text)

    @property
    def bomb_sets(self) -> tuple[str, ...]:
        if self.game is Game.FUSE:
            return ("countdown",) if Module.BOMBS in self.modules else ("fuse",)
        return ("countdown",) if self.game is Game.COUNTDOWN else ("fuse", "countdown")

    @property
    def fuse_sets(self) -> tuple[str, ...]:
        if self.game is Game.FUSE:
            return ("countdown",) if Module.FUSES in self.modules else ("fuse",)
        return ("countdown",) if self.game is Game.COUNTDOWN else ("fuse", "countdown")

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
        not in play (RULES.md F.2: split dice, roles, sparks; F.3: the role fuse card and the
        split-die cards in epic games), and minus FUSE's 6-point cards unless they are asked for."""
        cat = self.catalogue
        split = self.split_dice and self.game is not Game.EPIC
        bombs = tuple(b for b in cat.bombs if (split or not b.shape.requires_split_die)
                      and (self.six_point_cards or b.points != 6 or b.set != "fuse"))
        fuses = tuple(f for f in cat.fuses
                      if (f.effect is not FuseEffect.LOSE_ROLES or self.uses_roles)
                      and (f.effect is not FuseEffect.SPARK or self.uses_sparks))
        sparks = tuple(s for s in cat.sparks if split or not s.shape.requires_split_die)
        return Catalogue(bombs, fuses, cat.origin, sparks, cat.roles)

    @property
    def deck_size(self) -> int:
        """Bomb cards in the game deck: FUSE's row and draw pile (A.9.1), or the Countdown and
        epic bomb deck with the hands included (A.9.2, A.9.3)."""
        table = (DECK_SIZE if self.game is Game.FUSE else
                 EPIC_DECK_SIZE if self.game is Game.EPIC else COUNTDOWN_DECK_SIZE)
        return table[self.players][self.difficulty.column]

    @property
    def hands_in_deck(self) -> bool:
        """Countdown deals the hands from the built deck (G-04)."""
        return self.countdown_rules

    @property
    def hand_limit(self) -> int:
        """A two-card hand needs a card worth at most this (FUSE setup 2, Countdown setup 3: B.3)."""
        return 3 if self.countdown_rules else 2

    @property
    def fuse_count(self) -> int:
        """Fuse cards shuffled into the deck (B.5)."""
        if self.fuse_cards is not None:
            return self.fuse_cards
        if not self.countdown_rules:
            return min(6, len(self.playable.fuses))
        if self.difficulty in (Difficulty.TRAINING, Difficulty.STANDARD):
            return 0
        return min(DEFAULT_COUNTDOWN_FUSES, len(self.playable.fuses))

    @property
    def base_quota(self) -> int:
        """The most dice one player may take in a turn (a Logistics leader may take one more)."""
        return quota(self.players)

    @property
    def hand_size(self) -> int:
        return 4 if self.players == 1 else 2

    @property
    def levels(self) -> tuple[int, ...]:
        return LEVELS if self.six_point_cards else LEVELS[:4]

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
        if self.game is Game.FUSE and not 1 <= players <= 5:
            raise ConfigError("FUSE is for 1 to 5 players (6 to 9: an epic game, --game epic)")
        if self.game in (Game.COUNTDOWN, Game.INTEGRATED) and not 1 <= players <= 4:
            raise ConfigError(f"{self.game.value} games are for 1 to 4 players "
                              "(6 to 9: an epic game, --game epic)")
        if self.game is Game.EPIC and not 6 <= players <= 9:
            raise ConfigError("epic games are for 6 to 9 players")
        if self.modules and self.game is not Game.FUSE:
            raise ConfigError("modules add Countdown parts to FUSE; use them with the fuse game")
        if self.setup is not Setup.STANDARD and self.game is not Game.FUSE:
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
            if self.countdown_rules and self.difficulty in (Difficulty.TRAINING, Difficulty.STANDARD):
                if self.fuse_cards:
                    raise ConfigError(f"{self.difficulty.value} uses no fuse cards in "
                                      f"{self.game.value} games (Expert and up use 1 to {pool})")
            elif self.countdown_rules and not 1 <= self.fuse_cards <= pool:
                raise ConfigError(f"{self.difficulty.value} uses 1 to {pool} fuse cards")
            elif not 0 <= self.fuse_cards <= pool:
                raise ConfigError(f"fuse cards must be 0 to {pool}")
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
                raise ConfigError(f"no level {sorted(bad)} in this game (levels: {self.levels})")
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
        known = {"players", "difficulty", "setup", "six_point_cards", "fuse_cards", "level_counts",
                 "feasibility", "time_limit", "first_leader", "cards", "game", "modules", "dice",
                 "shuffle_sparks"}
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
