"""The game screen in a real browser at a laptop's and a phone's size: one screen, the card choice,
the legend, the talk on a phone, and motion that respects a player's wish for less of it.

Each test starts its room from a scenario (so the position is known) with the other seats held by
bots that wait, and looks at the page as a player would: what is on screen without scrolling, how
large the dice are drawn, what the cards say. Screenshots go to ``artifacts/screenshots`` (not
committed).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect
from test_browser import VIEWPORTS, browser, in_spanish, join_seat, shot, wait_playing  # noqa: F401

from fusegame import GameConfig
from fusegame.cards import builtin_catalogue
from fusegame.scenario import scenario_from_data
from fusegame.server.app import create_app
from fusegame.server.options import RoomOptions
from fusegame.server.room import Room
from liveserver import Server, served

pytestmark = pytest.mark.timeout(240)

#: Ana's first turn in a three-player game: two cards each, five in the row.
OPENING = {"config": {"players": 3, "difficulty": "standard"},
           "players": [["F34", "F11"], ["F20", "F14"], ["F09", "F17"]],
           "row": ["F01", "F02", "F03", "F04", "F05"], "deck": ["F06", "F07", "F08"],
           "rolled": ["G6", "B2", "R3"], "time_left": 540}
#: The longest hand FUSE deals: three six-die cards (a pyramid, two stacks side by side, a row of
#: six), with six-die cards in the row and in the teammates' hands too.
LONG_HAND = {"config": {"players": 3, "difficulty": "standard"},
             "players": [["F50", "F51", "F33"], ["F52", "F20"], ["F05", "F54"]],
             "row": ["F01", "F53", "F03", "F19", "F07"], "deck": ["F08", "F09"],
             "rolled": ["G6", "B2", "R3"], "time_left": 540}
#: Ana has just completed F18 and must take a card from the row.
MUST_TAKE = {"config": {"players": 3, "difficulty": "standard"},
             "players": [[{"id": "F18", "dice": ["Y3", "R1"]}, "F34"], ["F20"], ["F05", "F06"]],
             "row": ["F01", "F02", "F03", "F04", "F07"], "deck": ["F08", "F09"],
             "rolled": ["G6", "B2"], "time_left": 400}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("layout") / "fuse.db"
    with served(create_app(f"sqlite:///{db}")) as s:
        yield s


def seat_ana(server: Server, page: Page, scenario: dict[str, Any], *, humans: int = 1) -> Room:
    """Ana's page in a room started from ``scenario``; the seats after the first ``humans`` are
    bots that take their time (the position stays as it is while the test looks at it)."""
    players = scenario["config"]["players"]
    room = server.open_room(RoomOptions(GameConfig(players=players), bot_delay_ms=600_000, seed=3,
                                        choice_timeout_s=600))

    def bots() -> None:
        for seat in range(humans, players):
            room.seats[seat].kind, room.seats[seat].name = "bot", f"Bot {seat + 1}"

    server.call(bots)
    page.goto(f"{server.base}/#/room/{room.code}")
    join_seat(page, "Ana")
    if humans == 1:
        server.call(lambda: room.start(scenario_from_data(scenario)))
        wait_playing(page)
    return room


def box(page: Page, testid: str) -> dict[str, float]:
    found = page.get_by_test_id(testid).bounding_box()
    assert found is not None, f"{testid} is not drawn"
    return found


def assert_in_view(page: Page, testid: str) -> None:
    vp = page.viewport_size
    assert vp is not None
    b = box(page, testid)
    inside = b["x"] >= -1 and b["y"] >= -1 and b["x"] + b["width"] <= vp["width"] + 1 \
        and b["y"] + b["height"] <= vp["height"] + 1
    assert inside, f"{testid} at {b} is not inside the {vp['width']}x{vp['height']} screen"


def smallest_die(page: Page, selector: str) -> float:
    """The narrowest slot (in CSS pixels) of the cards under ``selector``."""
    sizes: list[float] = page.evaluate(
        "s => [...document.querySelectorAll(s + ' g.slot .slot-box')]"
        ".map(e => e.getBoundingClientRect().width)",
        selector)
    assert sizes, f"no slots under {selector}"
    return min(sizes)


@pytest.fixture(params=list(VIEWPORTS), ids=list(VIEWPORTS))
def screen(request: pytest.FixtureRequest, browser: Browser) -> Iterator[tuple[str, BrowserContext]]:  # noqa: F811
    size: str = request.param
    ctx = browser.new_context(viewport=VIEWPORTS[size])
    yield size, ctx
    ctx.close()


@pytest.mark.parametrize("name,scenario", [("play", OPENING), ("long-hand", LONG_HAND)])
def test_the_table_fits_on_one_screen(server: Server, screen: tuple[str, BrowserContext], name: str,
                                      scenario: dict[str, Any]) -> None:
    size, ctx = screen
    page = ctx.new_page()
    seat_ana(server, page, scenario)
    expect(page.locator("[data-testid='hand-0'] svg.card")).to_have_count(len(scenario["players"][0]))
    page.wait_for_timeout(300)  # the dice are sized once the cards are in
    for testid in ("clock", "roll", "row", "hand-0"):
        assert_in_view(page, testid)
    if size == "desktop":
        for testid in ("hand-1", "hand-2"):
            assert_in_view(page, testid)
        # legible: one's own cards and the row draw every die at least 28 px wide
        assert smallest_die(page, "[data-testid='hand-0']") >= 28
        assert smallest_die(page, "[data-testid='row']") >= 28
    shot(page, f"{name}-{size}")


def test_a_large_screen_draws_the_cards_larger(server: Server, browser: Browser) -> None:  # noqa: F811
    sizes = {}
    for width, height in ((1280, 800), (1920, 1080)):
        ctx = browser.new_context(viewport=ViewportSize(width=width, height=height))
        try:
            page = ctx.new_page()
            seat_ana(server, page, OPENING)
            page.wait_for_timeout(300)
            sizes[width] = smallest_die(page, "[data-testid='hand-0']")
            assert_in_view(page, "hand-2")
        finally:
            ctx.close()
    assert sizes[1920] > sizes[1280] * 1.15, sizes


def test_the_card_choice_shows_each_card_with_its_points_and_words(
        server: Server, screen: tuple[str, BrowserContext]) -> None:
    size, ctx = screen
    page = ctx.new_page()
    seat_ana(server, page, MUST_TAKE)
    expect(page.get_by_test_id("card-choice")).to_be_visible()
    assert_in_view(page, "card-choice")
    catalogue = {c.id: c for c in builtin_catalogue().bombs}
    for card_id in MUST_TAKE["row"]:
        choice = page.get_by_test_id(f"choice-{card_id}")
        expect(choice.locator(".choice-text")).not_to_be_empty()
        card = catalogue[card_id]
        expect(choice.locator(".choice-name")).to_have_text(card.name)
        expect(choice.locator(".choice-points")).to_have_text(
            "1 point" if card.points == 1 else f"{card.points} points")
        assert card.notation not in choice.inner_text()
    # as large as one's own cards at least: big enough to compare
    mine = smallest_die(page, "[data-testid='hand-0']")
    assert smallest_die(page, ".middle.choosing") >= mine - 0.5
    shot(page, f"card-choice-{size}")
    page.get_by_test_id("choice-F03").locator(".card-wrap").click()
    expect(page.locator("[data-testid='hand-0'] svg.card[data-card='F03']")).to_have_count(1)
    expect(page.get_by_test_id("card-choice")).to_have_count(0)


def test_a_fuse_card_flashes_in_without_hiding_the_table(server: Server,
                                                       screen: tuple[str, BrowserContext]) -> None:
    size, ctx = screen
    page = ctx.new_page()
    # the card Ana takes is replaced from a deck whose top card is a fuse card: it goes off
    seat_ana(server, page, {**MUST_TAKE, "deck": ["fuse:3", "F08", "F09"]})
    page.get_by_test_id("choice-F03").locator(".card-wrap").click()
    alert = page.locator(".fuse-alert.show")
    expect(alert).to_have_count(1)
    expect(page.get_by_test_id("fuse-alert")).to_contain_text("3")
    shot(page, f"fuse-{size}")
    # it covers nothing one acts on or reads in play: the clock, the roll, the cards, the team, the
    # seat's button, the talk; and the table can still be clicked
    panel = page.locator(".fuse-alert .fuse-panel").bounding_box()
    assert panel is not None
    others = ("talk-open", "team-jump") if size == "phone" else ("seat-0", "seat-1", "seat-2", "signal-need")
    for testid in ("clock", "roll", "hand-0", "row", "autoplay", *others):
        b = box(page, testid)
        overlap_x = min(panel["x"] + panel["width"], b["x"] + b["width"]) - max(panel["x"], b["x"])
        overlap_y = min(panel["y"] + panel["height"], b["y"] + b["height"]) - max(panel["y"], b["y"])
        assert overlap_x <= 0 or overlap_y <= 0, f"the fuse card covers {testid}"
    assert page.evaluate("getComputedStyle(document.querySelector('.fuse-alert')).pointerEvents") == "none"
    expect(alert).to_have_count(0, timeout=5000)


def test_no_card_on_the_table_shows_its_notation(server: Server, browser: Browser) -> None:  # noqa: F811
    ctx = browser.new_context(viewport=VIEWPORTS["desktop"])
    try:
        page = ctx.new_page()
        seat_ana(server, page, LONG_HAND)
        page.wait_for_timeout(500)  # the words arrive after the pictures
        shown = page.evaluate("""() => document.body.innerText + '\\n' +
            [...document.querySelectorAll('[title], [aria-label]')].map(
              e => (e.getAttribute('title') || '') + ' ' + (e.getAttribute('aria-label') || ''))
            .join('\\n')""")
        catalogue = {c.id: c for c in builtin_catalogue().bombs}
        on_table = {c for hand in LONG_HAND["players"] for c in hand} | set(LONG_HAND["row"])
        for card_id in on_table:
            notation = catalogue[card_id].notation
            assert notation not in shown, f"{card_id} shows its notation {notation!r}"
        # and each says what it asks for in words
        pyramid = page.locator("[data-testid='hand-0'] .card-wrap[data-card='F50']")
        title = pyramid.get_attribute("title") or ""
        assert "pyramid" in title, title
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_card_tells_its_words_on_focus_and_on_a_long_press(server: Server, browser: Browser,  # noqa: F811
                                                            lang: str) -> None:
    ctx = browser.new_context(viewport=VIEWPORTS["phone"], has_touch=True)
    if lang == "es":
        in_spanish(ctx)
    try:
        page = ctx.new_page()
        seat_ana(server, page, LONG_HAND)
        pyramid = page.locator("[data-testid='hand-0'] .card-wrap[data-card='F50']")
        expect(pyramid).to_have_attribute("data-words", re.compile("."))
        tip = page.get_by_test_id("card-tip")
        pyramid.focus()
        words = {"en": "pyramid", "es": "pirámide"}[lang]
        expect(tip).to_be_visible()
        expect(tip).to_contain_text(words)
        page.get_by_test_id("talk-open").focus()
        expect(tip).to_be_hidden()
        # a long press on a touch screen opens the context menu: it shows the words instead
        page.locator("[data-testid='row'] .card-wrap[data-card='F53']").dispatch_event("contextmenu")
        expect(tip).to_be_visible()
        expect(tip).to_contain_text(words)
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_legend_explains_every_symbol(server: Server, browser: Browser, lang: str) -> None:  # noqa: F811
    ctx = browser.new_context(viewport=VIEWPORTS["desktop"])
    if lang == "es":
        in_spanish(ctx)
    try:
        page = ctx.new_page()
        seat_ana(server, page, OPENING)
        opener = page.get_by_test_id("legend-open")
        opener.click()
        legend = page.get_by_test_id("legend")
        expect(legend).to_be_visible()
        items = legend.locator(".legend-item")
        expect(items).to_have_count(23)
        texts = items.locator(".legend-text").all_inner_texts()
        assert all(t.strip() for t in texts)
        assert len(set(texts)) == len(texts), "a symbol explained twice"
        assert items.locator("svg").count() >= 23
        words = {"en": "Any die.", "es": "Cualquier dado."}[lang]
        expect(items.first).to_contain_text(words)
        if lang == "en":
            shot(page, "legend-desktop")
        page.keyboard.press("Escape")
        expect(legend).to_be_hidden()
        assert page.evaluate("document.activeElement.dataset.testid") == "legend-open"
    finally:
        ctx.close()


def test_on_a_phone_the_talk_is_one_tap_away_and_news_shows_over_the_table(server: Server,
                                                                           browser: Browser) -> None:  # noqa: F811
    phone = browser.new_context(viewport=VIEWPORTS["phone"])
    laptop = browser.new_context(viewport=VIEWPORTS["desktop"])
    try:
        ana, bo = phone.new_page(), laptop.new_page()
        room = seat_ana(server, ana, OPENING, humans=2)
        bo.goto(f"{server.base}/#/room/{room.code}")
        join_seat(bo, "Bo")
        server.call(lambda: room.start(scenario_from_data(OPENING)))
        wait_playing(ana)
        wait_playing(bo)
        # the sheet is closed: the table is what the phone shows
        expect(ana.get_by_test_id("chat-input")).not_to_be_visible()
        assert_in_view(ana, "talk-open")
        bo.get_by_test_id("chat-input").fill("I take the green six")
        bo.get_by_test_id("chat-send").click()
        ticker = ana.get_by_test_id("talk-ticker")
        expect(ticker).to_contain_text("Bo: I take the green six")
        assert_in_view(ana, "talk-ticker")
        expect(ana.get_by_test_id("talk-unread")).to_have_text("1")
        ana.get_by_test_id("talk-open").click()
        expect(ana.get_by_test_id("chat-input")).to_be_visible()
        expect(ana.get_by_test_id("chat-list")).to_contain_text("I take the green six")
        expect(ana.get_by_test_id("talk-unread")).to_have_count(0)
        ana.get_by_test_id("signal-wait").click()
        expect(bo.get_by_test_id("event-log")).to_contain_text("Ana")
        # a signal about a die: a short bubble under the die, never over the next one nor over the
        # die's colour letter, and the sender by name (a bare initial reads like a colour letter)
        bo_die = bo.locator("[data-testid^='die-'][data-legal='true']").first
        die_id = bo_die.get_attribute("data-testid") or ""
        bo_die.click()
        bo.get_by_test_id("signal-need").click()
        bubble = ana.locator(f"[data-testid='{die_id}'] .bubble.on-die")
        expect(bubble).to_have_text("Bo need")
        b, d = bubble.bounding_box(), ana.get_by_test_id(die_id).bounding_box()
        assert b is not None and d is not None
        assert b["x"] >= d["x"] - 4 and b["x"] + b["width"] <= d["x"] + d["width"] + 4
        assert b["y"] >= d["y"] + 0.75 * d["height"], (b, d)
        roll = ana.get_by_test_id("roll").bounding_box()
        assert roll is not None and b["y"] + b["height"] <= roll["y"] + roll["height"] + 0.5
        shot(ana, "talk-phone")
        ana.get_by_test_id("talk-close").click()
        expect(ana.get_by_test_id("chat-input")).not_to_be_visible()
        assert_in_view(ana, "hand-0")
    finally:
        phone.close()
        laptop.close()


#: Counts, from now on, the flying dice drawn over the page.
WATCH_FLIGHTS = """() => {
  window.flights = 0;
  new MutationObserver((list) => {
    for (const m of list) for (const n of m.addedNodes) {
      if (n.classList && n.classList.contains('fly-ghost')) window.flights++;
    }
  }).observe(document.body, {childList: true});
}"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_claimed_die_flies_to_its_slot_unless_motion_is_reduced(server: Server, browser: Browser,  # noqa: F811
                                                                  motion: str) -> None:
    ctx = browser.new_context(viewport=VIEWPORTS["desktop"], reduced_motion=motion)  # type: ignore[arg-type]
    try:
        page = ctx.new_page()
        seat_ana(server, page, OPENING)
        page.evaluate(WATCH_FLIGHTS)
        page.wait_for_function("document.body.dataset.seq !== undefined")
        seq = int(page.evaluate("document.body.dataset.seq"))
        die = page.locator("[data-testid^='die-'][data-legal='true']").first
        die_id = (die.get_attribute("data-testid") or "").removeprefix("die-")
        die.click()
        page.locator("svg.card g.slot.legal").first.click()
        # the state is drawn at once, whatever the motion
        page.wait_for_function(f"Number(document.body.dataset.seq) > {seq}")
        expect(page.locator(f"svg.card g.slot[data-holds='{die_id}']")).to_have_count(1)
        flights = int(page.evaluate("window.flights"))
        assert (flights > 0) == (motion == "no-preference"), flights
    finally:
        ctx.close()
