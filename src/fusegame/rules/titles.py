"""The title of a game, as the game log, the server and the table checklist show it.

It lives in the rules layer so that ``rules.tabletop`` can name a game without reaching up into
``fusegame.observe``, which re-exports it for the log and the server.
"""

from __future__ import annotations

from fusegame.rules.config import Game, GameConfig


def game_title(cfg: GameConfig) -> str:
    """``FUSE``, ``FUSE + roles, sparks``, ``FUSE: Countdown``, ``FUSE + FUSE: Countdown (epic)``."""
    if cfg.game is Game.FUSE:
        return "FUSE" + (" + " + ", ".join(m.value for m in cfg.modules) if cfg.modules else "")
    return cfg.spec.title


__all__ = ["game_title"]
