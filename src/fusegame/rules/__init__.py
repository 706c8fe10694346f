"""The rules of FUSE: configuration, setup, actions, the state machine, scoring."""

from fusegame.rules.actions import (
    Action,
    ActionParseError,
    Done,
    GiveUp,
    Place,
    RerollUnused,
    RevealFuse,
    TakeCard,
    Tick,
)
from fusegame.rules.config import ConfigError, Difficulty, GameConfig, Setup, dice_per_turn, quota
from fusegame.rules.events import Event
from fusegame.rules.outcome import Outcome, Score, Termination
from fusegame.rules.state import (
    BadTime,
    Decision,
    GameOverError,
    GameState,
    IllegalAction,
    IllegalPlacement,
    LegalActions,
    NotYourDecision,
    Phase,
    new_game,
)

__all__ = [
    "Action", "ActionParseError", "BadTime", "ConfigError", "Decision", "Difficulty", "Done", "Event",
    "GameConfig", "GameOverError", "GameState", "GiveUp", "IllegalAction", "IllegalPlacement",
    "LegalActions", "NotYourDecision", "Outcome", "Phase", "Place", "RerollUnused", "RevealFuse", "Score",
    "Setup",
    "TakeCard", "Termination", "Tick", "dice_per_turn", "new_game", "quota",
]
