"""Room options: what the lobby's "new game" form may ask for, checked and turned into a ``GameConfig``.

Everything the engine offers is here (game, players, difficulty, modules, setup, six-point cards,
fuse card count, strict FUSE, timed or untimed practice) plus what only the server decides: hints
on or off, how fast bots act, and the seed. A bad option is an ``OptionError`` whose message names
it, so the lobby can show one readable line.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError

from fusegame.rules.config import ConfigError, Difficulty, Game, GameConfig, Module, Setup
from fusegame.rules.decision_kinds import table_data
from fusegame.rules.games import GAMES

#: How long a bot waits before each action unless the room says otherwise: about a person's pace.
DEFAULT_BOT_DELAY_MS = 1500
MAX_BOT_DELAY_MS = 10_000
#: docs/rules.md I-11: a penalty choice left open this long is made at random.
CHOICE_TIMEOUT_S = 10.0
#: A player whose connection has been gone this long during a game is replaced by a bot (until
#: they come back), so the others are not left waiting and an abandoned game is still played out.
LEAVE_GRACE_S = 30.0

#: The players each game allows (the table of games).
PLAYER_RANGES: dict[str, tuple[int, int]] = {g.value: spec.players for g, spec in GAMES.items()}


class OptionError(ValueError):
    """A room option that cannot make a game; the message says which and why."""


@dataclass(frozen=True)
class RoomOptions:
    """A room's game and the server-side settings around it."""

    config: GameConfig
    hints: bool = False
    bot_delay_ms: int = DEFAULT_BOT_DELAY_MS
    seed: int | None = None
    choice_timeout_s: float = CHOICE_TIMEOUT_S
    leave_grace_s: float = LEAVE_GRACE_S

    @property
    def timed(self) -> bool:
        return self.config.time_limit is not None

    def to_dict(self) -> dict[str, Any]:
        """The options as the lobby shows them (and as ``parse_options`` reads them back)."""
        c = self.config
        return {
            "game": c.game.value, "players": c.players, "difficulty": c.difficulty.value,
            "modules": [m.value for m in c.modules], "setup": c.setup.value,
            "six_point_cards": c.six_point_cards, "fuse_cards": c.fuse_count,
            "strict_fuse": not c.feasibility, "timed": self.timed, "hints": self.hints,
            "bot_delay_ms": self.bot_delay_ms,
        }


class _OptionsBody(BaseModel):
    """The JSON body of ``POST /api/rooms`` as declared; ``parse_options`` adds the checks that
    depend on the game (players, fuse cards) and the engine's own (``GameConfig``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    game: Game = Game.FUSE
    players: StrictInt | None = None
    difficulty: Difficulty = Difficulty.STANDARD
    modules: Annotated[list[Module], Field(max_length=len(Module))] = []
    setup: Setup = Setup.STANDARD
    six_point_cards: StrictBool = False
    fuse_cards: Annotated[StrictInt, Field(ge=0)] | None = None
    strict_fuse: StrictBool = False
    timed: StrictBool = True
    hints: StrictBool = False
    bot_delay_ms: Annotated[StrictInt, Field(ge=0, le=MAX_BOT_DELAY_MS)] | None = None
    seed: Annotated[StrictInt, Field(ge=0, le=2**63 - 1)] | None = None


_KNOWN = ", ".join(sorted(_OptionsBody.model_fields))


def _problem(e: ValidationError) -> str:
    err = e.errors(include_url=False, include_input=False)[0]
    loc = err["loc"]
    if err["type"] == "extra_forbidden":
        return f"unknown option {str(loc[0])!r} (known: {_KNOWN})"
    if err["type"] in ("model_type", "model_attributes_type", "dict_type"):
        return "the room options must be a JSON object"
    where = ".".join(str(x) for x in loc)
    msg = str(err["msg"]).removeprefix("Value error, ")
    return f"{where}: {msg}" if where else msg


def parse_options(data: Any) -> RoomOptions:
    """Read the JSON body of ``POST /api/rooms`` (already parsed); every field is optional."""
    try:
        body = _OptionsBody.model_validate({} if data is None else data)
    except ValidationError as e:
        raise OptionError(_problem(e)) from None
    lo, hi = GAMES[body.game].players
    players = body.players if body.players is not None else GAMES[body.game].default_players
    if not lo <= players <= hi:
        raise OptionError(f"players: must be from {lo} to {hi}, got {players}")
    most = max(r["max"] for by_level in fuse_card_ranges().values() for r in by_level.values())
    if body.fuse_cards is not None and body.fuse_cards > most:
        raise OptionError(f"fuse_cards: must be from 0 to {most}, got {body.fuse_cards}")
    try:
        config = GameConfig(
            players=players, difficulty=body.difficulty, setup=body.setup,
            six_point_cards=body.six_point_cards, fuse_cards=body.fuse_cards,
            feasibility=not body.strict_fuse, time_limit=600 if body.timed else None,
            game=body.game, modules=tuple(body.modules))
    except ConfigError as e:
        raise OptionError(str(e)) from None
    delay = body.bot_delay_ms if body.bot_delay_ms is not None else DEFAULT_BOT_DELAY_MS
    return RoomOptions(config=config, hints=body.hints, bot_delay_ms=delay, seed=body.seed)


@cache
def fuse_card_ranges() -> dict[str, dict[str, dict[str, int]]]:
    """How many fuse cards each game allows at each difficulty (without modules), from the table of
    games' fuse-card rule and the fuse cards the game has, so that the lobby form offers only those."""
    out: dict[str, dict[str, dict[str, int]]] = {}
    for game, spec in GAMES.items():
        pool = len(GameConfig(players=spec.players[0], game=game).playable.fuses)
        for d in Difficulty:
            lo, hi = spec.fuse_cards.allowed(d, pool)
            out.setdefault(game.value, {})[d.value] = {"min": lo, "max": hi}
    return out


def option_choices() -> dict[str, Any]:
    """What ``GET /api/options`` tells the lobby form."""
    return {
        "games": [g.value for g in Game],
        "players": {g: {"min": lo, "max": hi} for g, (lo, hi) in PLAYER_RANGES.items()},
        "difficulties": [d.value for d in Difficulty],
        "modules": [m.value for m in Module],
        "setups": [s.value for s in Setup],
        "defaults": parse_options({}).to_dict(),
        "bot_delay_ms": {"min": 0, "max": MAX_BOT_DELAY_MS, "default": DEFAULT_BOT_DELAY_MS},
        "fuse_cards": fuse_card_ranges(),
        "choice_timeout_s": CHOICE_TIMEOUT_S,
        "decision_kinds": table_data(),  # which are timed choices, and their words (the page reads it)
    }
