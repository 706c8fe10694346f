"""The pages around the table, tried as a new player would: the tutorial tells its verdict where it
is seen and a solved lesson stops asking for a move; the keyboard's focus follows Join and Ready;
the BDT Log reads on a phone; /cards has the game's icon and a way back."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

import httpx
import pytest
from playwright.sync_api import Browser, expect
from test_browser import VIEWPORTS, browser, create_room, join_seat, logged_game, wait_playing  # noqa: F401

from fusegame.server.app import create_app
from liveserver import Server, served

pytestmark = pytest.mark.timeout(240)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("pages") / "fuse.db"
    with served(create_app(f"sqlite:///{db}")) as s:
        yield s


def test_a_tutorial_lesson_tells_its_verdict_in_view_and_then_asks_for_nothing(server: Server,
                                                                              browser: Browser) -> None:  # noqa: F811
    ctx = browser.new_context(viewport=VIEWPORTS["phone"])
    try:
        page = ctx.new_page()
        page.goto(server.base + "/#/tutorial")
        expect(page.locator("[data-page='tutorial']")).to_have_count(1)
        following = page.get_by_test_id("tutorial-next")
        expect(following).to_be_disabled()
        # a disabled Next is grey, not the teal of a button to press
        assert following.evaluate("e => getComputedStyle(e).backgroundImage") == "none"
        expect(page.get_by_test_id("your-turn")).to_have_count(1)
        page.locator("[data-testid^='die-'][title^='Red']").first.click()
        slot = page.locator("svg.card[data-card='T1'] g.slot[data-slot='0']")
        slot.scroll_into_view_if_needed()
        slot.click()
        expect(page.get_by_test_id("tutorial-message")).to_contain_text("Well done")
        page.wait_for_function("""() => { const r = document.querySelector('[data-testid="tutorial-message"]')
            .getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }""")
        # solved: nothing on the table asks for a move any more, and the lesson says it is done
        expect(page.get_by_test_id("your-turn")).to_have_count(0)
        expect(page.get_by_test_id("lesson-solved")).to_have_text("Lesson solved: on to the next one.")
        expect(page.locator("g.slot.legal")).to_have_count(0)
        expect(following).to_be_enabled()
        assert following.evaluate("e => getComputedStyle(e).backgroundImage") != "none"
    finally:
        ctx.close()


def test_the_keyboard_focus_follows_join_and_ready(server: Server, browser: Browser) -> None:  # noqa: F811
    ctx = browser.new_context(viewport=VIEWPORTS["desktop"])
    try:
        page = ctx.new_page()
        create_room(page, server.base, players=3)
        page.get_by_test_id("join-name").fill("Ana")
        page.get_by_test_id("join-name").press("Enter")
        ready = page.get_by_test_id("ready-button")
        expect(ready).to_be_visible()
        expect(ready).to_be_focused()
        page.keyboard.press("Enter")  # ready, but the seats are open: still the lobby
        expect(ready).to_have_attribute("aria-pressed", "true")
        expect(ready).to_be_focused()
        page.keyboard.press("Enter")  # not ready after all
        expect(ready).to_have_attribute("aria-pressed", "false")
        expect(ready).to_be_focused()
        # a seat's bot button becomes its opposite, in its place
        page.get_by_test_id("add-bot-1").focus()
        page.keyboard.press("Enter")
        expect(page.get_by_test_id("remove-bot-1")).to_be_focused()
        # filling the seats takes that button away: Ready is next
        page.get_by_test_id("fill-bots").focus()
        page.keyboard.press("Enter")
        expect(page.get_by_test_id("fill-bots")).to_have_count(0)
        expect(ready).to_be_focused()
        page.keyboard.press("Enter")  # ready: the bots are too, and the game starts
        wait_playing(page)
        expect(page.get_by_test_id("play-heading")).to_be_focused()
        # and the next Tab goes on into the page, not back to its top, and stays there while the
        # bots' moves redraw the page around it
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.dataset.testid || ''")
        assert focused
        page.wait_for_timeout(1500)
        assert page.evaluate("document.activeElement.dataset.testid || ''") == focused
    finally:
        ctx.close()


def ranked_game(server: Server) -> None:
    """A logged game made ranked and played by five long names: the widest row the BDT Log shows,
    in both of its tables (the games and the best scores)."""
    storage = server.app.state.storage
    entry = storage.get_game(logged_game(server))
    assert entry is not None
    storage.save_game(replace(entry, ranked=True, players=5,
                              names=["Alexandrina", "Bartholomew", "Cassiopeia", "Desdemona", "Evangeline"]))


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_bdt_log_reads_on_a_phone(server: Server, browser: Browser, lang: str) -> None:  # noqa: F811
    ranked_game(server)
    ctx = browser.new_context(viewport=VIEWPORTS["phone"])
    try:
        page = ctx.new_page()
        page.goto(server.base + "/#/log")
        page.get_by_test_id("lang-switch").select_option(lang)
        expect(page.get_by_test_id("best-row").first).to_be_visible()
        # no column cut off: every cell of a game is inside the screen, with its column's name
        width = page.viewport_size["width"] if page.viewport_size else 390
        for testid, columns in (("log-row", 7), ("best-row", 5)):
            cells = page.get_by_test_id(testid).first.locator("td")
            assert cells.count() == columns
            for i in range(columns):
                b = cells.nth(i).bounding_box()
                assert b is not None and b["x"] >= 0 and b["x"] + b["width"] <= width + 1, (testid, i, b)
            labels = [cells.nth(i).evaluate("e => getComputedStyle(e, '::before').content")
                      for i in range(columns)]
            assert all(label not in ("none", '""') for label in labels), labels
        if lang == "en":
            assert labels[1] == '"Score"', labels
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        ctx.close()


def test_the_cards_page_has_the_game_s_icon_and_a_way_back(server: Server) -> None:
    page = httpx.get(server.base + "/cards").text
    game = httpx.get(server.base + "/").text
    icon = re.search(r'<link rel="icon" href="data:image/svg\+xml,[^"]+">', game)
    assert icon is not None and icon.group(0) in page
    assert re.search(r'<a href="/"[^>]*>', page)
    # landmarks: the page's head with its way back, and the cards as the main part
    assert re.search(r"<header><h1>[^<]+</h1><nav[^>]*>.*</nav></header><main>", page)
    # the site's own navigation, as on every other page
    for link in ('href="/#/log"', 'href="/#/tutorial"', 'href="/#/computer"', 'href="/#/"'):
        assert link in page, link
