"""The BDT Log page in a real browser (Debian's Chromium): who played each seat is shown, the best
scores hold ranked games only, and the games can be filtered by how they were played."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from fusegame import GameConfig
from fusegame.record import final_state
from fusegame.server.storage import LogScore, Storage, entry_from_state
from fusegame.sim import get_policy, play_game
from liveserver import live_server

pytestmark = pytest.mark.timeout(180)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium package")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    yield ctx.new_page()
    ctx.close()


def test_the_log_page_shows_who_played_and_filters_by_the_kind_of_game(tmp_path: Path, page: Page) -> None:
    url = f"sqlite:///{tmp_path / 'fuse.db'}"
    result = play_game(GameConfig(players=1, difficulty="training"), 4, get_policy("greedy"), record=True)
    assert result.record is not None
    state = final_state(result.record)
    t0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
    with Storage(url) as store:
        def log(name: str, minutes: int, total: int, played: str, seeded: bool) -> None:
            e = entry_from_state(state, result.record, [name], int(played != "person"), {"game": "fuse"},
                                 t0 + timedelta(minutes=minutes), played_by=[played], seeded=seeded)
            store.save_game(dataclasses.replace(e, score=LogScore(total, 10, 0, total - 10, 0)))

        log("Ana", 0, 60, "person", seeded=False)  # the only ranked game
        log("Bo", 1, 130, "person", seeded=True)  # a chosen deal
        log("Cy", 2, 120, "person_then_bot", seeded=False)  # handed to the bot
    with live_server(url) as base:
        page.goto(base + "/#/log")
        rows = page.get_by_test_id("log-row")
        expect(rows).to_have_count(3)
        best = page.get_by_test_id("best-row")
        expect(best).to_have_count(1)
        expect(best.first).to_contain_text("Ana")
        expect(page.get_by_test_id("best-note")).to_contain_text("Ranked games only")
        expect(rows.filter(has_text="Cy")).to_contain_text("Cy (then a bot)")
        # said once: the seat a bot took over is not counted again as "1 bot"
        expect(rows.filter(has_text="Cy")).not_to_contain_text("1 bot")
        expect(rows.filter(has_text="Bo").get_by_test_id("tag-seeded")).to_have_text("chosen deal")
        expect(rows.filter(has_text="Ana").get_by_test_id("tag-ranked")).to_be_visible()
        for kind, name in (("ranked", "Ana"), ("seeded", "Bo"), ("bots", "Cy")):
            page.get_by_test_id("filter-kind").select_option(kind)
            expect(rows).to_have_count(1)
            expect(rows.first).to_contain_text(name)
        page.get_by_test_id("filter-kind").select_option("")
        expect(rows).to_have_count(3)


def test_a_room_opened_after_its_game_ended_and_left_the_server_shows_the_game(tmp_path: Path,
                                                                               page: Page) -> None:
    # a page reloaded on the end screen, or a room link opened later: the room itself has gone
    url = f"sqlite:///{tmp_path / 'fuse.db'}"
    result = play_game(GameConfig(players=1, difficulty="training"), 4, get_policy("greedy"), record=True)
    assert result.record is not None
    e = entry_from_state(final_state(result.record), result.record, ["Ana"], 0, {"game": "fuse"},
                         datetime(2024, 5, 1, 12, 0, tzinfo=UTC), played_by=["person"], seeded=False)
    with Storage(url) as store:
        log_id = store.finish_room("HJKMHJKMHJKM", e)
    with live_server(url) as base:
        page.goto(base + "/#/room/hjkm-hjkm-hjkm")
        expect(page.get_by_test_id("replay-slider")).to_be_visible()
        # the replay of that game, at its first step (the replay names its step in the address)
        assert re.search(rf"#/log/{log_id}(\?step=0)?$", page.url), page.url
