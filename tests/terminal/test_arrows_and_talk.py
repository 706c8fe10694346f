"""↑ and ↓ move the slot cursor as ← and → do, even with a ship's log long enough to scroll; the
quick signals (n, t, w) and the chat line (c) reach the table, as the page's buttons and chat box
do."""

from __future__ import annotations

import asyncio

from terminaltable import local_app, shown, until

from fusegame.terminal.app import FuseApp


def _die_with_slots(app: FuseApp, at_least: int) -> int | None:
    for n, d in enumerate(app.table.rolled(), 1):
        if len(app.table.targets(int(d["id"]))) >= at_least:
            return n
    return None


def test_up_and_down_move_the_slot_cursor_with_a_long_log() -> None:
    async def go() -> None:
        app = local_app(players=4, difficulty="standard", seed=2, bot_delay_ms=10_000)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.table.my_decision() is not None)
            for i in range(40):  # more than the log's box holds: it can scroll
                app.table.log.append({"chat": {"name": "Luis", "text": f"line {i}"}})
            app.show()
            await pilot.pause(0.1)
            log = app.screen.query_one("#log-left")
            assert log.max_scroll_y > 0
            n = _die_with_slots(app, 2)
            assert n is not None
            await pilot.press(str(n))
            first = app.table.target()
            await pilot.press("down")
            assert app.table.target() != first
            await pilot.press("up")
            assert app.table.target() == first
            await pilot.press("up")
            assert app.table.target() == app.table.targets()[-1]  # round to the last
            assert app.focused is None  # the log never took the keys
    asyncio.run(go())


def test_signals_and_chat_reach_the_table() -> None:
    async def go() -> None:
        app = local_app(players=2, seed=2, bot_delay_ms=10_000)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.table.my_decision() is not None)
            await pilot.press("w")  # Wait, about no die
            await until(pilot, lambda: "Ana ⚑ Wait" in shown(app, "#log-left-text"))
            n = _die_with_slots(app, 1)
            assert n is not None
            die = app.table.rolled()[n - 1]
            await pilot.press(str(n), "n")  # I need this, about the picked die
            await until(pilot, lambda: "Ana ⚑ I need this" in shown(app, "#log-left-text"))
            signal = next(x["signal"] for x in reversed(app.table.log) if "signal" in x)
            assert signal["signal"] == "need" and signal["die"] == die["id"]
            assert app.table.die == die["id"]  # the die stays picked
            await pilot.press("escape", "c")
            assert app.focused is not None and app.focused.id == "chat"
            await pilot.press(*"d1 h q", "enter")  # letters that are keys of the table go to the line
            await until(pilot, lambda: "Ana: d1 h q" in shown(app, "#log-left-text"))
            assert app.focused is None and not app.screen.query_one("#chat").display
            assert app.is_running and app.table.die is None
            await pilot.press("c", *"never mind", "escape")  # Esc closes the line, sending nothing
            assert not app.screen.query_one("#chat").display
            await pilot.pause(0.2)
            assert "never mind" not in shown(app, "#log-left-text")
    asyncio.run(go())


def test_spanish_signals_name_the_die() -> None:
    async def go() -> None:
        app = local_app(players=2, seed=2, bot_delay_ms=10_000, lang="es")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.table.my_decision() is not None)
            n = _die_with_slots(app, 1)
            await pilot.press(str(n), "t")
            die = app.table.rolled()[n - 1]  # type: ignore[index]
            colour = {"R": "rojo", "B": "azul", "G": "verde", "Y": "amarillo", "K": "negro"}[die["colours"]]
            said = f"Ana ⚑ Cógelo ({colour} {die['face']})"
            await until(pilot, lambda: said in shown(app, "#log-left-text"))
    asyncio.run(go())
