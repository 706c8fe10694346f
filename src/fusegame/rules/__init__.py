"""The rules of FUSE and FUSE: Countdown: configuration, setup, actions, the state machine, scoring."""

from fusegame.rules.actions import (
    Action,
    ActionParseError,
    Defuse,
    Done,
    Flip,
    GiveUp,
    Name,
    Place,
    Recolour,
    Renumber,
    RerollUnused,
    Rethrow,
    ReturnFree,
    RevealFuse,
    RollSix,
    TakeCard,
    Tick,
)
from fusegame.rules.config import (
    ConfigError,
    Difficulty,
    Game,
    GameConfig,
    Module,
    Setup,
    dice_per_turn,
    quota,
)
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
    "Action", "ActionParseError", "BadTime", "ConfigError", "Decision", "Defuse", "Difficulty", "Done",
    "Event", "Flip", "Game", "GameConfig", "GameOverError", "GameState", "GiveUp", "IllegalAction",
    "IllegalPlacement", "LegalActions", "Module", "Name", "NotYourDecision", "Outcome", "Phase", "Place",
    "Recolour", "Renumber", "RerollUnused", "Rethrow", "ReturnFree", "RevealFuse", "RollSix", "Score",
    "Setup", "TakeCard", "Termination", "Tick", "dice_per_turn", "new_game", "quota",
]
