"""Room options: what the lobby's "new game" form may ask for, checked and turned into a ``GameConfig``.

Everything the engine offers is here (game, players, difficulty, modules, setup, six-point cards,
fuse card count, strict FUSE, timed or untimed practice) plus what only the server decides: hints
on or off, how fast bots act, and the seed. A bad option is an ``OptionError`` whose message names
it, so the lobby can show one readable line.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from fusegame.rules.config import ConfigError, Difficulty, Game, GameConfig, Module, Setup
from fusegame.rules.games import GAMES

#: How long a bot waits before each action unless the room says otherwise: about a person's pace.
DEFAULT_BOT_DELAY_MS = 1500
MAX_BOT_DELAY_MS = 10_000
#: RULES.md I-11: a penalty choice left open this long is made at random.
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


def _bool(data: dict[str, Any], key: str, default: bool) -> bool:
    v = data.get(key, default)
    if not isinstance(v, bool):
        raise OptionError(f"{key}: expected true or false, got {v!r}")
    return v


def _int(data: dict[str, Any], key: str, default: int | None, lo: int, hi: int) -> int | None:
    v = data.get(key, default)
    if v is None:
        return None
    if not isinstance(v, int) or isinstance(v, bool):
        raise OptionError(f"{key}: expected a whole number, got {v!r}")
    if not lo <= v <= hi:
        raise OptionError(f"{key}: must be from {lo} to {hi}, got {v}")
    return v


def _choice(data: dict[str, Any], key: str, default: str, choices: list[str]) -> str:
    v = data.get(key, default)
    if v not in choices:
        raise OptionError(f"{key}: {v!r} is not one of {', '.join(choices)}")
    return str(v)


def parse_options(data: Any) -> RoomOptions:
    """Read the JSON body of ``POST /api/rooms``; every field is optional."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise OptionError("the room options must be a JSON object")
    known = {"game", "players", "difficulty", "modules", "setup", "six_point_cards", "fuse_cards",
             "strict_fuse", "timed", "hints", "bot_delay_ms", "seed"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise OptionError(f"unknown option {unknown[0]!r} (known: {', '.join(sorted(known))})")
    game = _choice(data, "game", Game.FUSE.value, [g.value for g in Game])
    spec = GAMES[Game(game)]
    lo, hi = spec.players
    players = _int(data, "players", spec.default_players, lo, hi)
    difficulty = _choice(data, "difficulty", Difficulty.STANDARD.value, [d.value for d in Difficulty])
    modules = data.get("modules", [])
    if not isinstance(modules, list) or not all(isinstance(m, str) for m in modules):
        raise OptionError("modules: expected a list of module names")
    names = [m.value for m in Module]
    for m in modules:
        if m not in names:
            raise OptionError(f"modules: {m!r} is not one of {', '.join(names)}")
    setup = _choice(data, "setup", Setup.STANDARD.value, [s.value for s in Setup])
    most = max(r["max"] for by_level in fuse_card_ranges().values() for r in by_level.values())
    fuse_cards = _int(data, "fuse_cards", None, 0, most)
    timed = _bool(data, "timed", True)
    seed = _int(data, "seed", None, 0, 2**63 - 1)
    delay = _int(data, "bot_delay_ms", DEFAULT_BOT_DELAY_MS, 0, MAX_BOT_DELAY_MS)
    try:
        config = GameConfig(
            players=players or 1, difficulty=Difficulty(difficulty), setup=Setup(setup),
            six_point_cards=_bool(data, "six_point_cards", False), fuse_cards=fuse_cards,
            feasibility=not _bool(data, "strict_fuse", False), time_limit=600 if timed else None,
            game=Game(game), modules=tuple(Module(m) for m in modules))
    except ConfigError as e:
        raise OptionError(str(e)) from None
    return RoomOptions(config=config, hints=_bool(data, "hints", False),
                       bot_delay_ms=delay if delay is not None else DEFAULT_BOT_DELAY_MS, seed=seed)


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
    }
