"""fusegame: a pure, deterministic engine for the cooperative dice game FUSE.

    >>> from fusegame import GameConfig, new_game
    >>> game = new_game(GameConfig(players=2, difficulty="standard"), seed=7)
    >>> game.phase.value
    'distribute'
    >>> sorted(game.to_act())
    [0, 1]
"""

from fusegame.cards import BombCard, CardDataError, Catalogue, FuseCard, builtin_catalogue, load_catalogue
from fusegame.dice import DiceSet
from fusegame.rules import (
    Action,
    ActionParseError,
    BadTime,
    ConfigError,
    Decision,
    Difficulty,
    Done,
    Event,
    GameConfig,
    GameOverError,
    GameState,
    GiveUp,
    IllegalAction,
    IllegalPlacement,
    NotYourDecision,
    Outcome,
    Phase,
    Place,
    RerollUnused,
    RevealFuse,
    Score,
    Setup,
    TakeCard,
    Termination,
    Tick,
    new_game,
)

__version__ = "0.1.0"

__all__ = [
    "Action", "ActionParseError", "BadTime", "BombCard", "CardDataError", "Catalogue", "ConfigError",
    "Decision", "DiceSet", "Difficulty", "Done", "Event", "FuseCard", "GameConfig", "GameOverError",
    "GameState", "GiveUp", "IllegalAction", "IllegalPlacement", "NotYourDecision", "Outcome", "Phase",
    "Place", "RerollUnused", "RevealFuse", "Score", "Setup", "TakeCard", "Termination", "Tick",
    "builtin_catalogue", "load_catalogue", "new_game",
]
