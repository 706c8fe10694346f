"""The keys and the mouse at the terminal table: picking a die, moving between its slots, placing,
the hint, the list of keys, and quitting only after a question while the game is on."""

from __future__ import annotations

import asyncio

from terminaltable import local_app, shown, until

from fusegame.terminal.app import FuseApp, HelpScreen, QuitScreen

#: Bots this slow never act during a test: the table stays as dealt.
SLOW = 10_000


def _first_placeable(app: FuseApp) -> tuple[int, int]:
    """The number on screen (1, 2...) and the id of the first die of the roll that fits a card."""
    for n, d in enumerate(app.table.rolled(), 1):
        if app.table.targets(int(d["id"])):
            return n, int(d["id"])
    raise AssertionError("no die of the roll fits a card")


def _my_dice(app: FuseApp) -> int:
    hand = next(h for h in app.table.view["hands"] if h["seat"] == 0)  # type: ignore[index]
    return sum(d is not None for c in hand["cards"] for d in c["dice"])


def test_digit_picks_a_die_arrows_move_between_its_slots_enter_places() -> None:
    async def go() -> None:
        app = local_app(seed=5, bot_delay_ms=SLOW)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.table.my_decision() is not None)
            n, die = _first_placeable(app)
            await pilot.press(str(n))
            assert app.table.die == die
            assert f"▶{n}" in shown(app, "#roll")
            assert "▶" in shown(app, "#mine")  # the cursor is on a slot of your cards
            first = app.table.target()
            if len(app.table.targets()) > 1:
                await pilot.press("right")
                assert app.table.target() != first
                await pilot.press("left")
            assert app.table.target() == first
            await pilot.press("escape")
            assert app.table.die is None and "▶" not in shown(app, "#mine")
            await pilot.press("9")
            assert "There is no die 9" in shown(app, "#notice")
            await pilot.press(str(n), "enter")
            await until(pilot, lambda: _my_dice(app) == 1)
            assert first is not None
            card = next(c for c in app.table.view["hands"][0]["cards"] if c["id"] == first.card)  # type: ignore[index]
            assert card["dice"][first.slot]["id"] == die
    asyncio.run(go())


def test_clicks_pick_a_die_and_place_it() -> None:
    async def go() -> None:
        app = local_app(seed=5, bot_delay_ms=SLOW)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.table.my_decision() is not None)
            n, die = _first_placeable(app)
            label = str(next(d for d in app.table.rolled() if d["id"] == die)["die"])
            roll = shown(app, "#roll")
            await pilot.click("#roll", offset=(roll.index(f"{n} {label}") + len(str(n)) + 1, 0))
            assert app.table.die == die
            target = app.table.target()
            assert target is not None
            lines = shown(app, "#mine").split("\n")
            row = next(i for i, line in enumerate(lines) if "▶" in line)
            await pilot.click("#mine", offset=(lines[row].index("▶") + 1, row))
            await until(pilot, lambda: _my_dice(app) == 1)
    asyncio.run(go())


def test_hint_then_enter_follows_it_and_d_is_done() -> None:
    async def go() -> None:
        app = local_app(seed=5, bot_delay_ms=SLOW)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.table.my_hint() is not None)
            await pilot.press("h")
            hint = app.table.hint
            assert hint is not None and shown(app, "#hint").startswith("Hint: ")
            if hint["act"]["verb"] == "place":
                assert app.table.die == hint["act"]["die"]
                await pilot.press("enter")
                await until(pilot, lambda: _my_dice(app) == 1)
            await until(pilot, lambda: app.table.done_move() is not None)
            await pilot.press("d")
            await until(pilot, lambda: bool(app.table.view["hands"][0]["done"]))  # type: ignore[index]
            assert any(e.get("event", {}).get("kind") == "seat_done" for e in app.table.log)
    asyncio.run(go())


def test_question_mark_lists_the_keys_and_q_asks_before_leaving_a_game() -> None:
    async def go() -> None:
        app = local_app(seed=5, bot_delay_ms=SLOW)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.table.view is not None)
            await pilot.press("question_mark")
            assert isinstance(app.screen, HelpScreen)
            assert "pick a die" in shown(app, "#dialog")
            await pilot.press("escape")
            await pilot.press("q")
            assert isinstance(app.screen, QuitScreen)
            assert "Leave the game?" in shown(app, "#dialog")
            await pilot.press("n")
            assert not isinstance(app.screen, QuitScreen) and app.is_running
            await pilot.press("q", "y")
            await until(pilot, lambda: not app.is_running)
    asyncio.run(go())
