"""What the table shows: at 80×24 the clock, the roll and your cards all on screen; from 120
columns the team and the log in a column of their own; Spanish; Countdown's roles and sparks; the
end screen with the rulebook's score lines when the time runs out."""

from __future__ import annotations

import asyncio
from pathlib import Path

from terminaltable import local_app, shown, until

from fusegame.server.storage import Storage
from fusegame.terminal.app import EndScreen, FuseApp
from fusegame.terminal.render import pace_text
from fusegame.terminal.texts import Words
from fusegame.words import event_text


def _on_screen(app: FuseApp, selector: str) -> bool:
    region = app.screen.query_one(selector).region
    return region.height > 0 and region.y >= 0 and region.bottom <= app.size.height


def test_80x24_shows_the_clock_the_roll_and_your_cards() -> None:
    async def go() -> None:
        app = local_app(players=4, difficulty="standard", seed=2, bot_delay_ms=10_000)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.table.view is not None)
            for part in ("#top", "#notice", "#roll", "#mine", "#team-left", "#keys"):
                assert _on_screen(app, part), part
            assert not app.screen.query_one("#right").display
            top = shown(app, "#top")
            assert "10:00" in top or "09:5" in top
            assert "pace on the line" in top  # no bomb taken, and the line has not taken one yet
            roll = shown(app, "#roll")
            for d in app.table.rolled():
                assert str(d["die"]) in roll  # colour letters and number, never colour alone
            mine = shown(app, "#mine")
            for card in app.table.view["hands"][0]["cards"]:  # type: ignore[index]
                assert card["id"] in mine
            team = shown(app, "#team-left")
            for seat in (2, 3, 4):
                assert f"Bot {seat}" in team
            assert "1-9 die" in shown(app, "#keys")
    asyncio.run(go())


def test_a_wide_terminal_gives_team_and_log_a_column() -> None:
    async def go() -> None:
        app = local_app(players=4, difficulty="standard", seed=2, bot_delay_ms=10_000)
        async with app.run_test(size=(160, 48)) as pilot:
            await until(pilot, lambda: app.table.view is not None)
            assert app.screen.query_one("#right").display
            assert _on_screen(app, "#team-right") and _on_screen(app, "#log-right")
            assert not app.screen.query_one("#team-left").display
            # the row is drawn in full, each card as a card: its id and points on its top edge, its
            # name inside
            row = shown(app, "#row")
            for card in app.table.view["row"]:  # type: ignore[index]
                assert f"╭ {card['id']} " in row and card["name"] in row
            assert row.count("╭") == len(app.table.view["row"])  # type: ignore[index]
    asyncio.run(go())


def test_spanish() -> None:
    async def go() -> None:
        app = local_app(seed=5, lang="es", bot_delay_ms=10_000)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.table.view is not None and bool(app.table.log))
            assert "Tirada" in shown(app, "#roll")
            assert "Tus cartas" in shown(app, "#mine")
            assert "salir" in shown(app, "#keys")
            first = app.table.log[0]["event"]
            assert event_text(first, "es", app.table.names) in shown(app, "#log-left-text")
            await pilot.press("q")
            assert "¿Dejar la partida?" in shown(app, "#dialog")
    asyncio.run(go())


def test_countdown_shows_roles_and_sparks() -> None:
    async def go() -> None:
        app = local_app(game="countdown", players=3, seed=4, bot_delay_ms=10_000)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.table.view is not None)
            roles = {r["seat"]: r["name"] for r in app.table.view["roles"]}  # type: ignore[index]
            assert f"role: {roles[0]}" in shown(app, "#mine")
            assert "sparks 0" in shown(app, "#mine")
            assert "sparks 0" in shown(app, "#team-left")
            await pilot.resize_terminal(160, 48)  # a wide terminal has room for everyone's role
            await until(pilot, lambda: bool(app.screen.query_one("#right").display))
            assert f"role: {roles[1]}" in shown(app, "#team-right")
            assert f"role: {roles[2]}" in shown(app, "#team-right")
    asyncio.run(go())


def test_time_up_ends_the_game_with_the_score_breakdown(tmp_path: Path) -> None:
    async def go() -> None:
        storage = Storage(f"sqlite:///{tmp_path / 'fuse.db'}")
        app = local_app(seed=5, time_limit=1, bot_delay_ms=10_000, storage=storage)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.table.log_id is not None, timeout=10)
            assert isinstance(app.screen, EndScreen)
            end = shown(app, "#dialog")
            assert "The team lost." in end and "the time ran out" in end
            for line in ("Win bonus", "Time bonus", "Bomb points", "Fuse card points", "Total"):
                assert line in end
            assert f"game {app.table.log_id}" in end
            await pilot.press("escape")  # look at the table behind it
            assert not isinstance(app.screen, EndScreen)
            assert "00:00" in shown(app, "#top")
            await pilot.press("q")  # over: no question
            await until(pilot, lambda: not app.is_running)
        entry = storage.get_game(app.table.log_id)  # type: ignore[arg-type]
        assert entry is not None and entry.reason == "time-up" and not entry.won
        storage.close()
    asyncio.run(go())


def test_the_top_line_holds_the_bombs_taken_against_the_pace_line() -> None:
    # 21 bombs on a 10-minute clock: with five minutes left the line has taken 12
    view = {"pace": {"needed": 21, "taken": 9, "every_ms": 25_000, "far": -3}, "time_limit_ms": 600_000,
            "outcome": None}
    assert pace_text(view, 300_000, Words("en")) == "pace [bold #ff5a4f]3 behind[/]"
    assert pace_text(view, 300_000, Words("es")) == "ritmo [bold #ff5a4f]3 por detrás[/]"
    # a table of four or more turns red only five behind: three behind is amber there
    big = {**view, "pace": {**view["pace"], "far": -5}}
    assert pace_text(big, 300_000, Words("en")) == "pace [bold #ffcc4d]3 behind[/]"
    assert pace_text(big, 250_000, Words("en")) == "pace [bold #ff5a4f]5 behind[/]"  # 5:50 played: 14
    ahead = {**view, "pace": {"needed": 21, "taken": 14, "every_ms": 25_000}}
    assert pace_text(ahead, 300_000, Words("en")) == "pace [bold #4cd37c]2 ahead[/]"
    assert pace_text(view, 350_000, Words("en")) == "pace [bold #ffcc4d]1 behind[/]"  # 4:10 played: 10
    # no gauge once the middle is empty, the game over, or without a clock
    emptied = {**view, "pace": {"needed": 21, "taken": 21, "every_ms": 25_000}}
    assert pace_text(emptied, 100_000, Words("en")) == ""
    assert pace_text({**view, "outcome": {"won": False}}, 0, Words("en")) == ""
    assert pace_text({**view, "pace": None}, 300_000, Words("en")) == ""
