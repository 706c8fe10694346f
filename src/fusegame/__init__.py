"""fusegame: a pure, deterministic engine for the cooperative dice games FUSE and FUSE: Countdown.

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
    Defuse,
    Difficulty,
    Done,
    Event,
    Flip,
    Game,
    GameConfig,
    GameOverError,
    GameState,
    GiveUp,
    IllegalAction,
    IllegalPlacement,
    Module,
    Name,
    NotYourDecision,
    Outcome,
    Phase,
    Place,
    Recolour,
    Renumber,
    RerollUnused,
    Rethrow,
    ReturnFree,
    RevealFuse,
    RollSix,
    Score,
    Setup,
    TakeCard,
    Termination,
    Tick,
    new_game,
)

__version__ = "0.1.0"

# gymnasium.make("fusegame/Fuse-v1") after ``import fusegame``, without importing Gymnasium here
from fusegame import gym_ids as _gym_ids  # noqa: E402

_gym_ids.watch()


def engine_kind() -> str:
    """Which engine runs: ``"compiled"`` (the rules built to C extensions by mypyc, as a normal install
    does where a C compiler is at hand) or ``"python"`` (the sources themselves: an editable install,
    or a build without a compiler or with ``FUSEGAME_PURE=1``). Both play the same games."""
    from fusegame.rules import state

    return "python" if state.__file__.endswith(".py") else "compiled"


__all__ = [
    "Action", "ActionParseError", "BadTime", "BombCard", "CardDataError", "Catalogue", "ConfigError",
    "Decision", "Defuse", "DiceSet", "Difficulty", "Done", "Event", "Flip", "FuseCard", "Game", "GameConfig",
    "GameOverError", "GameState", "GiveUp", "IllegalAction", "IllegalPlacement", "Module", "Name",
    "NotYourDecision", "Outcome", "Phase", "Place", "Recolour", "Renumber", "RerollUnused", "Rethrow",
    "ReturnFree", "RevealFuse", "RollSix", "Score", "Setup", "TakeCard", "Termination", "Tick",
    "builtin_catalogue", "engine_kind", "load_catalogue", "new_game",
]
