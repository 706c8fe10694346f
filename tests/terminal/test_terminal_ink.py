"""Every die keeps its ink: a die's colours and the cursor on a slot are drawn inside click links,
and the screen the terminal is sent (not the markup) must still have dark ink on yellow and white
ink on red, blue, green and black, at 80 columns and on the table drawn in full."""

from __future__ import annotations

import asyncio

import pytest
from rich.style import Style
from terminaltable import contrast, local_app, screen_cells, until

from fusegame.terminal.app import FuseApp
from fusegame.terminal.drawing import DIE_BG

#: The backgrounds of the dice and of the slot cursor, as the terminal gets them.
PAPERS = {c.lower(): letter for letter, c in DIE_BG.items()}


def _die_cells(app: FuseApp) -> list[tuple[int, int, str, Style]]:
    out = []
    for x, y, ch, style in screen_cells(app):
        if style.reverse and style.color is not None:  # reverse video: the ink is the paper
            style = Style(color=style.bgcolor, bgcolor=style.color)
        bg = style.bgcolor.get_truecolor() if style.bgcolor is not None else None
        if bg is not None and ch.strip() and f"#{bg.red:02x}{bg.green:02x}{bg.blue:02x}" in PAPERS:
            out.append((x, y, ch, style))
    return out


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
def test_every_die_and_the_cursor_keep_their_ink(size: tuple[int, int]) -> None:
    async def go() -> None:
        # seed 2: the roll holds a yellow die
        app = local_app(players=4, difficulty="standard", seed=2, bot_delay_ms=10_000)
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: app.table.my_decision() is not None)
            colours = {d["colours"] for d in app.table.rolled()}
            assert "Y" in colours
            n = next(n for n, d in enumerate(app.table.rolled(), 1) if app.table.targets(int(d["id"])))
            await pilot.press(str(n))  # the cursor (yellow) on a slot of your cards
            assert app.table.target() is not None
            await pilot.pause(0.1)
            cells = _die_cells(app)
            papers = {PAPERS[f"#{s.bgcolor.get_truecolor().red:02x}{s.bgcolor.get_truecolor().green:02x}"  # type: ignore[union-attr]
                             f"{s.bgcolor.get_truecolor().blue:02x}"] for _, _, _, s in cells}
            assert colours <= papers and "Y" in papers
            faint = [(x, y, ch, str(s.color), str(s.bgcolor), round(contrast(s), 2))
                     for x, y, ch, s in cells if contrast(s) < 4.5]
            assert not faint, faint[:8]
            if size[0] >= 120:  # the cursor's own marks are dark on yellow too
                assert any(ch in "▶◀" for _, _, ch, _ in cells)
    asyncio.run(go())


def test_the_ink_stays_under_the_mouse() -> None:
    async def go() -> None:
        app = local_app(players=4, difficulty="standard", seed=2, bot_delay_ms=10_000)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.table.my_decision() is not None)
            yellow = next(x for x, y, ch, s in _die_cells(app) if y == app.screen.query_one("#roll").region.y
                          and ch == "Y")
            await pilot.hover("#roll", offset=(yellow, 0))
            await pilot.pause(0.1)
            cell = next(s for x, y, ch, s in _die_cells(app) if x == yellow and ch == "Y")
            assert contrast(cell) >= 4.5 and cell.underline  # a link under the mouse is underlined
    asyncio.run(go())
