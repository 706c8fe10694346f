"""Choices other than placing a die, made by keys: giving up a die to a fuse card, and taking a
card from the row after a defusal (positions from the hint scenarios); and a long hint shown
whole."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from terminaltable import shown, until
from textual.widgets import Static

from fusegame.scenario import load_scenario
from fusegame.server.options import RoomOptions
from fusegame.terminal.app import FuseApp
from fusegame.terminal.local import LocalLink

HINTS = Path(__file__).resolve().parents[1] / "scenarios" / "hints"


def _app(name: str) -> FuseApp:
    state = load_scenario(HINTS / f"{name}.yaml")
    options = RoomOptions(state.config, hints=True, bot_delay_ms=10_000, choice_timeout_s=60)
    return FuseApp(LocalLink(options, "Ana", None, position=state), "en")


def test_give_up_a_die_with_the_arrows_and_enter() -> None:
    async def go() -> None:
        app = _app("give_up")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.table.my_decision() is not None)
            notice = shown(app, "#notice")
            assert "Give up a die" in notice and "chosen for you in" in notice  # the timeout shows
            choices = shown(app, "#choices")
            assert "▶ Give up R1 ◀" in choices and "[ Give up R5 ]" in choices
            await pilot.press("right")
            assert "▶ Give up R5 ◀" in shown(app, "#choices")
            await pilot.press("enter")
            await until(pilot, lambda: any(e.get("event", {}).get("kind") == "die_returned"
                                           for e in app.table.log))
            hand = app.table.view["hands"][0]["cards"]  # type: ignore[index]
            assert [d["die"] for c in hand for d in c["dice"] if d] == ["R1", "G2", "B3", "Y4"]
    asyncio.run(go())


def test_take_a_card_from_the_row() -> None:
    async def go() -> None:
        app = _app("take_card")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.table.my_decision() is not None)
            row = shown(app, "#row")
            assert row.startswith("The row: take a card")
            assert "▶ F33" in row  # each card of the row on its own line, the first one marked
            await pilot.press("down")
            assert "▶ F16" in shown(app, "#row")
            await pilot.press("enter")
            await until(pilot, lambda: any(c["id"] == "F16" for c in app.table.view["hands"][0]["cards"]))  # type: ignore[index]
            assert "F16" not in [c["id"] for c in app.table.view["row"]]  # type: ignore[index]
    asyncio.run(go())


def test_a_hint_that_names_a_card_that_can_wait_is_shown_whole_at_80_columns() -> None:
    async def go() -> None:
        state = load_scenario(HINTS / "finish_first.yaml")
        options = RoomOptions(state.config, hints=True, bot_delay_ms=10_000, choice_timeout_s=60)
        app = FuseApp(LocalLink(options, "Ana", None, position=state), "es")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.table.my_decision() is not None)
            await pilot.press("h")
            await until(pilot, lambda: "F42" in shown(app, "#hint"))
            hint = shown(app, "#hint")
            assert "termina esta primero" in hint
            assert hint.rstrip().endswith("F42 (Cuatro colores arriba, pila)")
            # Spanish runs to three lines at this width: none of them is cut off
            box = app.screen.query_one("#hint", Static)
            needed = box.get_content_height(app.screen.size, app.screen.size, box.size.width)
            assert box.size.height == needed == 3
    asyncio.run(go())


@pytest.mark.parametrize("scenario, card, lang, phrases, end", [
    # a placement the next roll changed, and a card to take it changed
    ("next_roll", "PAIR", "en", ("the bag still holds",), "was 6)"),
    ("next_roll", "PAIR", "es", ("aún quedan en la bolsa",), "antes 6)"),
    ("take_next_roll", "TWO_BLUES", "en", ("the dice in the bag fit", "TWO_REDS"), "dice more work"),
    ("take_next_roll", "TWO_BLUES", "es", ("se ajustan los dados de la bolsa", "TWO_REDS"), "más de trabajo"),
    # a completion that takes the last bomb from the middle
    ("last_bomb", "REDS", "en", ("completes it", "last bomb"), "the team wins"),
    ("last_bomb", "REDS", "es", ("la completa", "última bomba"), "el equipo gana"),
], ids=["place-en", "place-es", "take-en", "take-es", "wins-en", "wins-es"])
def test_a_long_hint_is_shown_whole_at_80_columns(
        scenario: str, card: str, lang: str, phrases: tuple[str, ...], end: str) -> None:
    async def go() -> None:
        state = load_scenario(HINTS / f"{scenario}.yaml")
        options = RoomOptions(state.config, hints=True, bot_delay_ms=10_000, choice_timeout_s=60)
        app = FuseApp(LocalLink(options, "Ana", None, position=state), lang)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.table.my_decision() is not None)
            await pilot.press("h")
            await until(pilot, lambda: card in shown(app, "#hint"))
            hint = shown(app, "#hint")
            assert all(p in hint for p in phrases) and hint.rstrip().endswith(end)
            box = app.screen.query_one("#hint", Static)

            def needed() -> int:
                return box.get_content_height(app.screen.size, app.screen.size, box.size.width)

            # the layout follows a new text at a later refresh: a box that never grows fails here
            await until(pilot, lambda: box.size.height == needed())
            assert box.size.height == needed()  # every line of it, none cut off
    asyncio.run(go())
