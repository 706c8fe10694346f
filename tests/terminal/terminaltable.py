"""What the terminal tests share: a local game's app, the text a part of the screen shows, and
waiting (with a deadline) for the table to reach a state."""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.segment import ControlType
from rich.style import Style
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
              storage: Storage | None = None, hints: bool = True, name: str = "Ana") -> FuseApp:
    """The app on a game on this machine: you in seat 0, bots in the others."""
    config = GameConfig(players=players, difficulty=difficulty, game=game,  # type: ignore[arg-type]
                        time_limit=time_limit)
    options = RoomOptions(config, hints=hints, bot_delay_ms=bot_delay_ms, seed=seed)
    return FuseApp(LocalLink(options, name, storage), lang)


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


def screen_cells(app: FuseApp) -> list[tuple[int, int, str, Style]]:
    """Every character on the screen as the terminal is sent it: its column, its line, the
    character and its style (the ink and the background the screen really has)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    out: list[tuple[int, int, str, Style]] = []
    x = y = 0
    for seg in console._record_buffer:
        if seg.control:
            for code in seg.control:
                if code[0] is ControlType.CURSOR_MOVE_TO:
                    x, y = int(code[1]), int(code[2])  # type: ignore[misc]
            continue
        for ch in seg.text:
            if ch == "\n":
                x, y = 0, y + 1
                continue
            out.append((x, y, ch, seg.style or Style()))
            x += 1
    return out


def contrast(style: Style) -> float:
    """The WCAG contrast ratio between a style's ink and its background."""
    def luminance(rgb: tuple[int, int, int]) -> float:
        def channel(c: int) -> float:
            v = c / 255
            return v / 12.92 if v <= 0.03928 else float(((v + 0.055) / 1.055) ** 2.4)
        r, g, b = (channel(c) for c in rgb)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    assert style.color is not None and style.bgcolor is not None, style
    ink = style.color.get_truecolor()
    paper = style.bgcolor.get_truecolor()
    a, b = luminance((ink.red, ink.green, ink.blue)), luminance((paper.red, paper.green, paper.blue))
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)
