"""What the terminal tests share: a local game's app, the text a part of the screen shows, and
waiting (with a deadline) for the table to reach a state."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from textual.content import Content
from textual.pilot import Pilot
from textual.widgets import Static

from fusegame.rules.config import GameConfig
from fusegame.server.options import RoomOptions
from fusegame.server.storage import Storage
from fusegame.terminal.app import FuseApp
from fusegame.terminal.local import LocalLink


def local_app(*, game: str = "fuse", players: int = 2, difficulty: str = "training", seed: int = 3,
              time_limit: int | None = 600, bot_delay_ms: int = 0, lang: str = "en",
              storage: Storage | None = None, hints: bool = True) -> FuseApp:
    """The app on a game on this machine: you in seat 0, bots in the others."""
    config = GameConfig(players=players, difficulty=difficulty, game=game,  # type: ignore[arg-type]
                        time_limit=time_limit)
    options = RoomOptions(config, hints=hints, bot_delay_ms=bot_delay_ms, seed=seed)
    return FuseApp(LocalLink(options, "Ana", storage), lang)


def shown(app: FuseApp, selector: str) -> str:
    """The plain text a part of the screen on top shows."""
    widget = app.screen.query_one(selector, Static)
    content = widget.content
    if isinstance(content, str):
        return Content.from_markup(content).plain
    return str(content)


async def until(pilot: Pilot[Any], test: Callable[[], bool], timeout: float = 20.0) -> None:
    """Let the app run until ``test()`` holds; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not test():
        if time.monotonic() > deadline:
            raise AssertionError(f"not reached within {timeout} s")
        await pilot.pause(0.02)
