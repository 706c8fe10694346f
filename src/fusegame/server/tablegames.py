"""Games played with the box at a real table: the Ship's Computer's setup query and the score its
players counted, checked against what the game could give and turned into a BDT Log entry.

A score counted at a table cannot be replayed, so it is checked instead: every count has to be one
the chosen game could produce (no more bomb cards of a value than it has, no more points than its
best cards hold, no sparks in a game without them, no time bonus on a loss). The first problem found
is one readable line that names the field.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError

from fusegame.observe import game_title
from fusegame.rules.config import Difficulty, Game, GameConfig, Module, Setup
from fusegame.rules.outcome import Termination, score
from fusegame.rules.tabletop import TableSetup, table_setup
from fusegame.server.options import OptionError, parse_options
from fusegame.server.storage import LogEntry, LogScore
from fusegame.server.wire import clean_text

#: The longest clock a table game may say it ran (minutes are chosen on the page: 1 to 60).
MAX_TIME_LIMIT_S = 3600
#: A won game used at least this much of its clock: no team defuses a deck in less (a win with
#: the whole ten minutes left is a mistyped or a made-up score).
MIN_WON_MS = 60_000
Count = Annotated[StrictInt, Field(ge=0, le=10_000)]


class TableGameError(ValueError):
    """A table game's score that the chosen game could not have given; the message names the field."""


class TableOptions(BaseModel):
    """The game as the table played it: the options of ``POST /api/rooms`` that change the setup."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    game: Game = Game.FUSE
    players: StrictInt | None = None
    difficulty: Difficulty = Difficulty.STANDARD
    modules: Annotated[list[Module], Field(max_length=len(Module))] = []
    setup: Setup = Setup.STANDARD
    six_point_cards: StrictBool = False
    fuse_cards: Annotated[StrictInt, Field(ge=0)] | None = None


class TableGameBody(BaseModel):
    """The JSON body of ``POST /api/log/table``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    options: TableOptions = TableOptions()
    names: Annotated[list[Annotated[str, Field(max_length=200)]], Field(max_length=9)] | None = None
    won: StrictBool
    reason: Literal["bombs-defused", "time-up", "bag-empty"] | None = None
    time_left_ms: Annotated[StrictInt, Field(ge=0)] | None = None
    time_bonus: Annotated[StrictInt, Field(ge=0)] | None = None
    time_limit_s: Annotated[StrictInt, Field(ge=60, le=MAX_TIME_LIMIT_S)] = 600
    bombs: Annotated[dict[str, Count], Field(max_length=10)] = {}
    fuse_cards: Count = 0
    sparks: Count = 0


_KNOWN = ", ".join(sorted(TableGameBody.model_fields))


def _problem(e: ValidationError) -> str:
    err = e.errors(include_url=False, include_input=False)[0]
    loc = ".".join(str(x) for x in err["loc"])
    if err["type"] == "extra_forbidden":
        return f"unknown field {loc!r} (known: {_KNOWN})"
    if err["type"] in ("model_type", "model_attributes_type", "dict_type") and not loc:
        return "a table game must be a JSON object"
    msg = str(err["msg"]).removeprefix("Value error, ")
    return f"{loc}: {msg}" if loc else msg


def config_of(options: dict[str, Any]) -> GameConfig:
    """The ``GameConfig`` of a table game's options (``OptionError`` names a bad one)."""
    return parse_options({**options, "timed": True}).config


def setup_for(options: dict[str, Any]) -> TableSetup:
    """What to lay out for these options (``GET /api/computer/setup``)."""
    return table_setup(config_of(options))


def table_entry(data: Any, *, now: datetime | None = None) -> LogEntry:
    """Check a table game's counted score (the parsed JSON body) and make its log entry.

    Raises ``TableGameError`` with one readable line for the first problem found.
    """
    try:
        body = TableGameBody.model_validate(data)
    except ValidationError as e:
        raise TableGameError(_problem(e)) from None
    opts = body.options.model_dump(mode="json", exclude_none=True)
    try:
        config = config_of(opts)
    except OptionError as e:
        raise TableGameError(f"options: {e}") from None
    s = table_setup(config)
    names = _names(body.names, config.players)
    bombs: dict[int, int] = {}
    for key, n in body.bombs.items():
        if not key.isdigit() or int(key) not in s.bomb_values:
            raise TableGameError(f"bombs: no {key}-point bomb cards in this game (values: "
                                 f"{', '.join(map(str, s.bomb_values))})")
        if n > s.max_bombs_by_value[int(key)]:
            raise TableGameError(f"bombs.{key}: this game has at most {s.max_bombs_by_value[int(key)]} "
                                 f"bomb cards worth {key}, not {n}")
        bombs[int(key)] = n
    points = sum(v * n for v, n in bombs.items())
    cards = sum(bombs.values())
    most_cards = s.deck + (0 if s.hands_in_deck else s.hand_size * s.players)
    if points > s.max_bomb_points:
        raise TableGameError(f"bombs: {points} points, more than this game's bomb cards hold "
                             f"({s.max_bomb_points})")
    if cards > most_cards:
        raise TableGameError(f"bombs: {cards} bomb cards, but this game has only {most_cards}")
    if body.fuse_cards > s.fuse_cards:
        raise TableGameError(f"fuse_cards: this game used {s.fuse_cards} fuse cards, not {body.fuse_cards}")
    if body.sparks and not s.sparks:
        raise TableGameError("sparks: this game has no spark cards")
    if body.sparks > s.sparks:
        raise TableGameError(f"sparks: this game has {s.sparks} spark cards, not {body.sparks}")
    limit_ms = body.time_limit_s * 1000
    if body.time_left_ms is not None and body.time_left_ms > limit_ms:
        raise TableGameError(f"time_left_ms: more than the clock's {body.time_limit_s} s")
    # a loss with time on the clock can only be the bag running out (E.1)
    reason = Termination(body.reason) if body.reason else (
        Termination.BOMBS_DEFUSED if body.won else
        Termination.BAG_EMPTY if body.time_left_ms else Termination.TIME_UP)
    if body.won and reason is not Termination.BOMBS_DEFUSED:
        raise TableGameError(f"reason: a won game ends with the bombs defused, not {reason.value}")
    if not body.won and reason is Termination.BOMBS_DEFUSED:
        raise TableGameError("reason: a lost game did not defuse every bomb")
    time_left = body.time_left_ms
    if body.time_bonus is not None:
        if not body.won and body.time_bonus:
            raise TableGameError("time_bonus: a lost game has no time bonus")
        if time_left is None:
            time_left = body.time_bonus * 10_000
            if time_left > limit_ms:
                raise TableGameError(f"time_bonus: {body.time_bonus} is more than the clock's "
                                     f"{body.time_limit_s} s allow")
        elif body.won and body.time_bonus != time_left // 10_000:
            raise TableGameError(f"time_bonus: {time_left // 1000} s left gives {time_left // 10_000}, "
                                 f"not {body.time_bonus}")
    if body.won and time_left is not None and time_left > limit_ms - MIN_WON_MS:
        raise TableGameError(f"time_left_ms: a won game takes at least {MIN_WON_MS // 1000} s of the clock, "
                             f"so at most {(limit_ms - MIN_WON_MS) // 1000} s are left")
    if reason is Termination.TIME_UP:
        time_left = 0
    result = score(body.won, time_left, points, body.fuse_cards, body.sparks)
    return LogEntry(
        finished_at=now or datetime.now(UTC), game=config.game.value, title=game_title(config),
        players=config.players, names=names, bots=0, difficulty=config.difficulty.value,
        options={**opts, "fuse_cards": config.fuse_count, "players": config.players,
                 "time_limit_s": body.time_limit_s, "bombs": {str(v): n for v, n in sorted(bombs.items())}},
        won=body.won, reason=reason.value, time_left_ms=time_left, score=LogScore.from_score(result),
        official=body.time_limit_s == 600, record=None, table=True)


def _names(names: list[str] | None, players: int) -> list[str]:
    if names is None:
        return [f"Player {i + 1}" for i in range(players)]
    if len(names) != players:
        raise TableGameError(f"names: {players} players, {len(names)} names")
    # cleaned as every name at the table is (no control, bidi-override or invisible characters)
    clean = [clean_text(n) for n in names]
    for i, n in enumerate(clean):
        if not 1 <= len(n) <= 40:
            raise TableGameError(f"names.{i}: a name is 1 to 40 characters")
    return clean


__all__ = ["TableGameError", "config_of", "setup_for", "table_entry"]
