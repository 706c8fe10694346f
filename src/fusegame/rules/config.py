"""Game configuration: players, difficulty, setups, options (RULES.md A.9, B, G)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from fusegame.cards.catalogue import Catalogue, builtin_catalogue, catalogue_from_data


class ConfigError(ValueError):
    """A configuration that cannot make a game (the message says which option and why)."""


class Difficulty(str, Enum):
    TRAINING = "training"
    STANDARD = "standard"
    EXPERT = "expert"
    ELITE = "elite"
    INSANE = "insane"


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
LEVELS = (1, 2, 3, 4, 6)
ROW_SIZE = 5


def dice_per_turn(players: int) -> int:
    """A.10: solo 3, two players 4, otherwise one per player."""
    return {1: 3, 2: 4}.get(players, players)


def quota(players: int) -> int:
    """A.10: the most dice one player may take in a turn."""
    return {1: 3, 2: 2}.get(players, 1)


@dataclass(frozen=True)
class GameConfig:
    """Everything that defines a FUSE game apart from the seed.

    ``time_limit`` is in seconds (``None``: untimed practice, scored but marked unofficial).
    ``feasibility=False`` is the "strict FUSE" option: placements that leave a card impossible are
    allowed (RULES.md D.6.4). ``level_counts`` (advanced setups) maps point level -> cards; when
    omitted the total is spread evenly over the levels. ``cards`` replaces the built-in catalogue.
    """

    players: int = 4
    difficulty: Difficulty = Difficulty.STANDARD
    setup: Setup = Setup.STANDARD
    six_point_cards: bool = False
    fuse_cards: int = 6
    level_counts: tuple[tuple[int, int], ...] | None = None
    feasibility: bool = True
    time_limit: int | None = 600
    first_leader: int | None = None
    cards: Catalogue | None = field(default=None, compare=True)

    def __post_init__(self) -> None:
        if isinstance(self.difficulty, str) and not isinstance(self.difficulty, Difficulty):
            object.__setattr__(self, "difficulty", _enum(Difficulty, self.difficulty, "difficulty"))
        if isinstance(self.setup, str) and not isinstance(self.setup, Setup):
            object.__setattr__(self, "setup", _enum(Setup, self.setup, "setup"))
        if isinstance(self.level_counts, dict):
            object.__setattr__(self, "level_counts", tuple(sorted(self.level_counts.items())))
        self.validate()

    # -- derived ---------------------------------------------------------------------------
    @property
    def catalogue(self) -> Catalogue:
        return (self.cards or builtin_catalogue()).of_set("fuse")

    @property
    def deck_size(self) -> int:
        return DECK_SIZE[self.players][list(Difficulty).index(self.difficulty)]

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
        if not isinstance(self.players, int) or not 1 <= self.players <= 5:
            raise ConfigError("FUSE is for 1 to 5 players")
        if not 0 <= self.fuse_cards <= len(self.catalogue.fuses):
            raise ConfigError(f"fuse cards must be 0 to {len(self.catalogue.fuses)}")
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
        available = [b for b in self.catalogue.bombs if self.six_point_cards or b.points != 6]
        if len(available) < self.deck_size + self.hand_size * self.players + 4:
            raise ConfigError(f"the catalogue has {len(available)} usable bomb cards; this game "
                              f"needs at least {self.deck_size + self.hand_size * self.players + 4}")

    @property
    def official(self) -> bool:
        return self.time_limit == 600

    # -- data ------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "players": self.players, "difficulty": self.difficulty.value, "setup": self.setup.value,
            "six_point_cards": self.six_point_cards, "fuse_cards": self.fuse_cards,
            "level_counts": {str(k): v for k, v in self.level_counts} if self.level_counts else None,
            "feasibility": self.feasibility, "time_limit": self.time_limit,
            "first_leader": self.first_leader,
        }
        if self.cards is not None:
            d["cards"] = self.cards.to_data()
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameConfig:
        known = {"players", "difficulty", "setup", "six_point_cards", "fuse_cards", "level_counts",
                 "feasibility", "time_limit", "first_leader", "cards"}
        unknown = set(d) - known
        if unknown:
            raise ConfigError(f"unknown config option(s): {', '.join(sorted(unknown))}")
        kw = {k: v for k, v in d.items() if k != "cards"}
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
