"""A whole game at the terminal table, played by key presses: the planner's hint (h) then Enter,
or d when it says done, until the end screen; the game is then in the BDT Log and replays."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from terminaltable import local_app, shown, until
from typer.testing import CliRunner

from fusegame import cli
from fusegame.server.storage import Storage
from fusegame.terminal.app import EndScreen
from fusegame.terminal.table import action_of_hint


def test_follow_the_hints_to_the_end_and_the_game_is_stored(tmp_path: Path) -> None:
    asyncio.run(_follow_the_hints(tmp_path))


async def _follow_the_hints(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'fuse.db'}")
    app = local_app(players=2, difficulty="training", seed=11, storage=storage)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: app.table.view is not None)
        placed_by_me = 0
        while app.table.outcome is None:
            await until(pilot, lambda: app.table.outcome is not None or app.table.my_hint() is not None
                        and action_of_hint(app.table.my_hint() or {}) is not None, timeout=30)
            if app.table.outcome is not None:
                break
            seq = app.table.seq
            await pilot.press("h")
            hint = app.table.hint
            assert hint is not None
            assert shown(app, "#hint").startswith("Hint:")
            verb = (hint.get("act") or {}).get("verb")
            await pilot.press("d" if verb == "done" else "enter")
            placed_by_me += verb == "place"
            await until(pilot, lambda s=seq: app.table.seq > s or app.table.outcome is not None)
        await until(pilot, lambda: app.table.log_id is not None)
        assert isinstance(app.screen, EndScreen)
        end = shown(app, "#dialog")
        assert "Total" in end and "Bomb points" in end and f"game {app.table.log_id}" in end
        total = app.table.outcome["score"]["total"]  # type: ignore[index]
        assert placed_by_me > 0
        await pilot.press("q")  # the game is over: q leaves at once
    assert not app.is_running
    entry = storage.get_game(app.table.log_id)  # type: ignore[arg-type]
    assert entry is not None and entry.score.total == total and entry.names[0] == "Ana"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(entry.record))
    result = CliRunner().invoke(cli.app, ["replay", str(path)])  # as `fuse replay game.json`
    assert result.exit_code == 0
    assert f"total {total}" in " ".join(result.output.split()[-40:])
    storage.close()
