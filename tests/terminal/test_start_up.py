"""The start of ``fuse play``: the screen says something at once, before the room is laid out;
a first game at a BDT Log gives the newcomer gentler bots and says so, with the option that
sets their pace."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from terminaltable import shown, until
from typer.testing import CliRunner

from fusegame import cli
from fusegame.rules.config import GameConfig
from fusegame.server.options import RoomOptions
from fusegame.server.storage import Storage
from fusegame.terminal.app import FuseApp
from fusegame.terminal.local import LocalLink


class SlowLink(LocalLink):
    """A local game whose room takes a while to lay out (a cold start)."""

    async def start(self, deliver: Callable[[str], None]) -> None:
        await asyncio.sleep(0.8)
        await super().start(deliver)


def test_the_first_frame_comes_before_the_room() -> None:
    async def go() -> None:
        options = RoomOptions(GameConfig(players=2, difficulty="training"), hints=True, bot_delay_ms=10_000)
        app = FuseApp(SlowLink(options, "Ana", None), "en")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.2)
            assert app.table.view is None
            assert shown(app, "#top") == "FUSE  dealing the cards…"
            await until(pilot, lambda: app.table.view is not None)
            assert "dealing" not in shown(app, "#top")
    asyncio.run(go())


def test_a_first_game_says_how_fast_the_bots_are_until_the_player_acts() -> None:
    async def go() -> None:
        options = RoomOptions(GameConfig(players=2, difficulty="training"), hints=True, bot_delay_ms=10_000)
        app = FuseApp(LocalLink(options, "Ana", None), "en",
                      intro=("first_game", {"s": "3", "usual": "1.5"}))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.table.done_move() is not None)
            said = "Your first game here: your teammates wait 3 s before each die"
            assert shown(app, "#hint").startswith(said)
            assert "--bot-delay" in shown(app, "#hint")
            await pilot.press("d")
            await until(pilot, lambda: not shown(app, "#hint"))
    asyncio.run(go())


def test_fuse_play_gives_a_first_game_gentler_bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first_game = cli._first_game
    ran: list[tuple[Any, Any]] = []
    monkeypatch.setattr(cli, "_run_app", lambda link, lang, intro=None: ran.append((link, intro)))
    db = f"sqlite:///{tmp_path / 'fuse.db'}"
    assert CliRunner().invoke(cli.app, ["play", "--db", db]).exit_code == 0
    link, intro = ran[-1]
    assert link.options.bot_delay_ms == 3000 and intro == ("first_game", {"s": "3", "usual": "1.5"})
    assert CliRunner().invoke(cli.app, ["play", "--db", db, "--bot-delay", "0.5"]).exit_code == 0
    link, intro = ran[-1]
    assert link.options.bot_delay_ms == 500 and intro is None  # the player chose the pace
    monkeypatch.setattr(cli, "_first_game", lambda storage: False)
    assert CliRunner().invoke(cli.app, ["play", "--db", db]).exit_code == 0
    link, intro = ran[-1]
    assert link.options.bot_delay_ms == 1500 and intro is None
    storage = Storage(db)
    try:
        assert first_game(storage)  # an empty log: a first game
    finally:
        storage.close()
