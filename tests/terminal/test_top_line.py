"""The top line fits 80 columns in every game: the clock, the bag and the score are never cut off,
whatever the leader's name, the language, the game's title or the pace gauge."""

from __future__ import annotations

import asyncio

import pytest
from terminaltable import local_app, shown, until

from fusegame.terminal.render import cells, top_line
from fusegame.terminal.table import Table
from fusegame.terminal.texts import Words

LONG = "Maximiliana Fernández-Or"  # 24 characters: the longest name a seat may have


@pytest.mark.parametrize("game, lang", [("fuse", "en"), ("countdown", "en"), ("fuse", "es"),
                                        ("countdown", "es")])
def test_the_top_line_fits_80_columns_with_a_long_name(game: str, lang: str) -> None:
    async def go() -> None:
        app = local_app(game=game, players=3, difficulty="standard", seed=4, lang=lang, name=LONG,
                        bot_delay_ms=10_000)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.table.view is not None)
            v = app.table.view
            assert v is not None
            top = shown(app, "#top")
            w = Words(lang)
            assert len(top.rstrip()) <= 80
            assert f"{w('bag')} {v['bag_size']}" in top and f"{w('deck')} {v['deck_size']}" in top
            assert top.rstrip().endswith(f"{w('score')} 0")
            assert "10:00" in top or "09:5" in top
    asyncio.run(go())


def _table(turn: int, leader: str, title: str, taken: int) -> Table:
    t = Table()
    t.feed({"type": "welcome", "seat": 0, "room": {"title": title, "status": "playing",
                                                    "seats": [{"seat": 0, "name": leader, "kind": "human"}]}})
    t.feed({"type": "state", "seq": 9, "seat": 0, "clock": {"left_ms": 125_000, "running": True},
            "view": {"game": "countdown", "turn": turn, "leader": 0, "deck_size": 24, "bag_size": 27,
                     "score": {"total": 104}, "time_limit_ms": 600_000, "outcome": None,
                     "pace": {"needed": 21, "taken": taken, "every_ms": 25_000, "far": -3}},
            "moves": {"place": [], "actions": []}})
    return t


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("width", [80, 100])
def test_the_longest_top_line_is_cut_in_order_of_need(lang: str, width: int) -> None:
    w = Words(lang)
    t = _table(17, LONG, "FUSE: Countdown", 1)  # far behind the pace line
    line = top_line(t, w, width)
    assert cells(line) <= width
    plain = line
    for part in ("02:05", f"{w('bag')} 27", "104"):
        assert part in plain
    wide = top_line(t, w, 200)  # with room, everything: the title, the turn, the whole name
    assert "FUSE: Countdown" in wide and LONG in wide and f"{w('turn')} 17" in wide
    assert cells(wide) > 80


def test_a_short_top_line_keeps_everything() -> None:
    t = _table(3, "Ana", "FUSE", 2)
    line = top_line(t, Words("en"), 80)
    assert line.startswith("[bold]FUSE[/]") and "turn 3 · leader Ana" in line and "pace" in line
