"""The rules of FUSE and FUSE: Countdown: configuration, setup, actions, the state machine, scoring."""

from fusegame.rules.actions import (
    ACTIONS,
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
from fusegame.rules.decisions import Decision, LegalActions
from fusegame.rules.errors import BadTime, GameOverError, IllegalAction, IllegalPlacement, NotYourDecision
from fusegame.rules.events import Event
from fusegame.rules.games import GAMES, MODULES, GameSpec, Phase, game_spec
from fusegame.rules.outcome import Outcome, Score, Termination
from fusegame.rules.state import GameState, new_game

__all__ = [
    "Action", "ActionParseError", "ACTIONS", "BadTime", "ConfigError", "Decision", "Defuse",
    "dice_per_turn", "Difficulty", "Done", "Event", "Flip", "Game", "game_spec", "GameConfig",
    "GameOverError", "GAMES", "GameSpec", "GameState", "GiveUp", "IllegalAction", "IllegalPlacement",
    "LegalActions", "Module", "MODULES", "Name", "new_game", "NotYourDecision", "Outcome", "Phase", "Place",
    "quota", "Recolour", "Renumber", "RerollUnused", "Rethrow", "ReturnFree", "RevealFuse", "RollSix",
    "Score", "Setup", "TakeCard", "Termination", "Tick",
]
