"""The team table in a real browser: every hand in view on a laptop, on varied deals of 2 to 5
players and an epic game, a phone that keeps what a player acts on in view, and a geometry that
does not move under the pointer.

The deals are chosen for what breaks a table: tall stacks (F45 "Long fall", C32, F23) in one's own
hand, in the row and in the teammates' hands at once, pyramids and double stacks, the widest
six-slot rows, a four-card hand late in an Elite game, a solo Countdown hand of four bombs and six
sparks. Every measure fails on a single miss. Screenshots go to ``artifacts/screenshots``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect
from test_browser import VIEWPORTS, browser, join_seat, shot, wait_playing  # noqa: F401

from fusegame import GameConfig
from fusegame.rules.games import Game
from fusegame.scenario import scenario_from_data
from fusegame.server.app import create_app
from fusegame.server.options import RoomOptions
from liveserver import Server, served

pytestmark = pytest.mark.timeout(300)


def deal(players: list[list[str]], row: list[str], *, game: str = "fuse", difficulty: str = "standard",
         time_left: int = 540) -> dict[str, Any]:
    rolled = ["G6", "B2", "R3", "Y4", "K5", "R1", "B6", "G2", "Y5"][:max(1, len(players))]
    config: dict[str, Any] = {"players": len(players), "difficulty": difficulty}
    if game != "fuse":
        config["game"] = game
    return {"config": config, "players": players, "row": row,
            "deck": [] if game == "countdown" else ["F08", "F09"], "rolled": rolled, "time_left": time_left}


#: Laptop deals: name -> scenario. Tall cards everywhere, wide rows, long hands.
DESKTOP_DEALS: dict[str, dict[str, Any]] = {
    "2p-pyramids": deal([["F50", "F53", "F45"], ["F54", "F51", "F23"]], ["F44", "F46", "F36", "F52", "F05"]),
    "3p-stacks": deal([["F45", "F48", "F52"], ["F43", "F50", "F20"], ["F42", "F14", "F33"]],
                      ["F44", "F53", "F36", "F19", "F07"]),
    "3p-wide-rows": deal([["F46", "F33", "F47"], ["F40", "F01"], ["F32", "F02", "F04"]],
                         ["F03", "F22", "F05", "F06", "F07"]),
    "4p-elite-long-hand": deal([["F23", "F01", "F54", "F10"], ["F45", "F51"], ["F42", "F52", "F02"],
                                ["F48", "F53", "F17"]], ["F36", "F43", "F44", "F37", "F19"],
                               difficulty="elite", time_left=300),
    "5p-tall": deal([["F45", "F50", "F11"], ["F43", "F20"], ["F48", "F14", "F33"], ["F23", "F17"],
                     ["F36", "F54", "F05"]], ["F01", "F44", "F03", "F53", "F07"]),
    "5p-elite-long-hands": deal([["F42", "F46", "F37", "F19"], ["F45", "F10", "F33"], ["F23", "F52", "F01"],
                                 ["F43", "F54", "F40"], ["F48", "F51", "F02"]],
                                ["F36", "F44", "F53", "F47", "F17"], difficulty="elite", time_left=240),
}
#: An epic game at 1920x1080: seven players, cards of both boxes.
EPIC = deal([["F45", "C09", "F50"], ["F43", "C20"], ["C37", "F14", "F33"], ["F23", "C04"],
             ["F36", "F54", "F05"], ["C52", "F42"], ["F48", "C45", "F11"]],
            ["F01", "F44", "C32", "F53", "F07"], game="epic")
#: Phone deals: a tall card in one's own hand and in the row, and a solo Countdown hand of ten.
PHONE_DEALS: dict[str, dict[str, Any]] = {
    "3p-stacks": DESKTOP_DEALS["3p-stacks"],
    "5p-tall": DESKTOP_DEALS["5p-tall"],
    "countdown-solo-ten-cards": deal([["C09", "C20", "C41", "C02", "S01", "S02", "S03", "S04", "S05", "S06"]],
                                     ["C10", "C32", "C03"], game="countdown", time_left=400),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("team") / "fuse.db"
    with served(create_app(f"sqlite:///{db}")) as s:
        yield s


def seat_ana(server: Server, page: Page, scenario: dict[str, Any]) -> None:
    """Ana's page in a room started from ``scenario``, the other seats bots that take their time."""
    conf = scenario["config"]
    players = conf["players"]
    game = Game(conf.get("game", "fuse"))
    room = server.open_room(RoomOptions(GameConfig(players=players, game=game), bot_delay_ms=600_000, seed=3,
                                        choice_timeout_s=600))

    def bots() -> None:
        for seat in range(1, players):
            room.seats[seat].kind, room.seats[seat].name = "bot", f"Bot {seat + 1}"

    server.call(bots)
    page.goto(f"{server.base}/#/room/{room.code}")
    join_seat(page, "Ana")
    server.call(lambda: room.start(scenario_from_data(scenario)))
    wait_playing(page)
    cards = sum(len(hand) for hand in scenario["players"])
    expect(page.locator(".hand svg.card")).to_have_count(cards)
    page.wait_for_timeout(400)  # the words of the cards arrive after their pictures


#: Every measure of the page in one pass: boxes, the narrowest slots, the teammates' card names.
MEASURE = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return {x: r.x, y: r.y, right: r.right, bottom: r.bottom, width: r.width, height: r.height}; };
  const byId = {};
  for (const e of document.querySelectorAll('[data-testid]')) byId[e.dataset.testid] = box(e);
  const slots = (sel) => [...document.querySelectorAll(sel + ' g.slot .slot-box')]
    .map((e) => e.getBoundingClientRect().width);
  const names = [...document.querySelectorAll('.hands.others .mate-name')].map((e) => ({
    size: parseFloat(getComputedStyle(e).fontSize), height: e.getBoundingClientRect().height,
    shown: e.getBoundingClientRect().width > 0 && getComputedStyle(e).visibility !== 'hidden'}));
  const col = document.querySelector('.table-col');
  const bar = document.querySelector('.talk-bar');
  return {byId, own: slots("[data-testid='hand-0']"), row: slots("[data-testid='row']"),
    mates: slots('.hands.others'), names, scrolls: col.scrollHeight - col.clientHeight,
    barTop: bar && getComputedStyle(bar).display !== 'none' ? bar.getBoundingClientRect().top : innerHeight};
}"""


def in_view(m: dict[str, Any], testid: str, width: int, bottom: float) -> str | None:
    b = m["byId"].get(testid)
    if b is None:
        return f"{testid} is not drawn"
    if b["x"] < -1 or b["y"] < -1 or b["right"] > width + 1 or b["bottom"] > bottom + 1:
        corners = f"({b['x']:.0f}, {b['y']:.0f})-({b['right']:.0f}, {b['bottom']:.0f})"
        return f"{testid} at {corners} is not wholly in view"
    return None


def desktop_misses(m: dict[str, Any], players: int, width: int, height: int, mate_floor: float) -> list[str]:
    misses = [miss for t in ["clock", "roll", "row", *(f"hand-{s}" for s in range(players))]
              if (miss := in_view(m, t, width, height))]
    if m["scrolls"] > 1:
        misses.append(f"the table scrolls by {m['scrolls']} px")
    for where, floor in (("own", 28), ("row", 28)):
        if not m[where] or min(m[where]) < floor:
            misses.append(f"{where} slots {min(m[where] or [0]):.1f} px < {floor}")
    if players > 1:
        if not m["mates"] or min(m["mates"]) < mate_floor:
            misses.append(f"teammates' slots {min(m['mates'] or [0]):.1f} px < {mate_floor}")
        small = [n for n in m["names"] if not n["shown"] or n["size"] < 10 or n["height"] < 10]
        if not m["names"] or small:
            misses.append(f"teammates' card names below 10 px: {small or 'none drawn'}")
    return misses


@pytest.mark.parametrize("name", list(DESKTOP_DEALS))
def test_a_laptop_shows_every_hand_of_the_team(server: Server, browser: Browser, name: str) -> None:  # noqa: F811
    scenario = DESKTOP_DEALS[name]
    ctx = browser.new_context(viewport=VIEWPORTS["desktop"])
    try:
        page = ctx.new_page()
        seat_ana(server, page, scenario)
        m = page.evaluate(MEASURE)
        shot(page, f"team-{name}-desktop")
        assert desktop_misses(m, len(scenario["players"]), 1280, 800, 16) == []
    finally:
        ctx.close()


def test_an_epic_game_shows_all_seven_hands_on_a_large_screen(server: Server, browser: Browser) -> None:  # noqa: F811
    ctx = browser.new_context(viewport=ViewportSize(width=1920, height=1080))
    try:
        page = ctx.new_page()
        seat_ana(server, page, EPIC)
        m = page.evaluate(MEASURE)
        shot(page, "team-epic-1920")
        assert desktop_misses(m, 7, 1920, 1080, 14) == []
    finally:
        ctx.close()


@pytest.mark.parametrize("name", list(PHONE_DEALS))
def test_a_phone_keeps_the_clock_the_roll_the_row_and_one_s_hand_in_view(server: Server, browser: Browser,  # noqa: F811
                                                                        name: str) -> None:
    scenario = PHONE_DEALS[name]
    ctx = browser.new_context(viewport=VIEWPORTS["phone"], has_touch=True)
    try:
        page = ctx.new_page()
        seat_ana(server, page, scenario)
        m = page.evaluate(MEASURE)
        shot(page, f"team-{name}-phone")
        # nothing under the bar at the bottom counts as in view
        misses = [miss for t in ("clock", "roll", "row", "hand-0", "top-score")
                  if (miss := in_view(m, t, 390, m["barTop"]))]
        assert not misses, misses
        assert min(m["own"]) >= 24, m["own"]
        assert min(m["row"]) >= 24, m["row"]
        # the score and the fuse cards left by the clock
        top = page.get_by_test_id("top-score")
        expect(top).to_contain_text("Score")
        expect(top).to_contain_text("Fuses")
        # a hand says how many cards it holds, and one wider than the screen shows that it scrolls
        n = len(scenario["players"][0])
        expect(page.get_by_test_id("hand-count")).to_have_text(f"{n} cards")
        own = page.locator("[data-testid='hand-0'] .cards")
        wider = page.evaluate("e => e.scrollWidth > e.clientWidth + 1", own.element_handle())
        expect(own).to_have_class(re.compile(r"\bscrolls\b") if wider else re.compile(r"^(?!.*\bscrolls\b)"))
        if len(scenario["players"]) > 1:
            # the teammates' hands are one tap away
            mate = page.get_by_test_id("hand-1")
            page.get_by_test_id("team-jump").tap()
            page.wait_for_timeout(200)
            b = mate.bounding_box()
            assert b is not None and 0 <= b["y"] < m["barTop"] - 40, b
            page.get_by_test_id("team-jump").tap()
            page.wait_for_timeout(200)
            assert in_view(page.evaluate(MEASURE), "hand-0", 390, m["barTop"]) is None
            # the talk sheet leaves the clock in view
            page.get_by_test_id("talk-open").tap()
            sheet = page.get_by_test_id("side-sheet")
            expect(sheet).to_be_visible()
            page.wait_for_timeout(300)
            clock, s = box_of(page, "clock"), sheet.bounding_box()
            assert s is not None and s["y"] >= clock["y"] + clock["height"], (s, clock)
        else:
            expect(page.get_by_test_id("team-jump")).to_be_hidden()
    finally:
        ctx.close()


def box_of(page: Page, testid: str) -> dict[str, float]:
    b = page.get_by_test_id(testid).bounding_box()
    assert b is not None, f"{testid} is not drawn"
    return b


def geometry(page: Page) -> dict[str, tuple[float, float, float, float]]:
    """Where every die of the roll and every slot of one's own cards is drawn, and how large."""
    found: dict[str, tuple[float, float, float, float]] = page.evaluate("""() => {
      const out = {};
      const put = (key, e) => { const r = e.getBoundingClientRect();
        out[key] = [r.x, r.y, r.width, r.height].map((n) => Math.round(n * 2) / 2); };
      for (const d of document.querySelectorAll('.roll [data-testid^="die-"]')) put(d.dataset.testid, d);
      for (const g of document.querySelectorAll("[data-testid='hand-0'] g.slot")) {
        put(`${g.closest('svg').dataset.card}/${g.dataset.slot}`, g.querySelector('.slot-box'));
      }
      return out;
    }""")
    return found


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_no_die_or_slot_moves_under_the_pointer_during_a_turn(server: Server, browser: Browser,  # noqa: F811
                                                              size: str) -> None:
    ctx = browser.new_context(viewport=VIEWPORTS[size])
    try:
        page = ctx.new_page()
        seat_ana(server, page, DESKTOP_DEALS["3p-stacks"])
        before = geometry(page)
        # a die chosen: its slots light up, the buttons change; a die placed: the bar changes again
        page.locator(".roll button.die.free").first.click()
        expect(page.locator("g.slot.legal").first).to_be_visible()
        page.wait_for_timeout(200)
        assert geometry(page) == before
        page.locator("g.slot.legal").first.dispatch_event("click")
        expect(page.locator("[data-testid='hand-0'] g.slot[data-holds]")).to_have_count(1)
        page.wait_for_timeout(400)
        after = geometry(page)
        moved = {k: (before.get(k), after.get(k)) for k in before if before.get(k) != after.get(k)}
        assert after == before, moved
    finally:
        ctx.close()


def test_the_keyboard_reaches_every_choice_and_the_help_never_eats_a_key(server: Server,
                                                                        browser: Browser) -> None:  # noqa: F811
    from test_browser import FUSE_WENT_OFF
    ctx = browser.new_context(viewport=VIEWPORTS["desktop"])
    try:
        page = ctx.new_page()
        seat_ana(server, page, FUSE_WENT_OFF)
        # the help names the key of the choices, and Esc gives the keyboard back where it was
        talk = page.get_by_test_id("chat-input")
        page.get_by_test_id("signal-wait").focus()
        page.keyboard.press("?")
        help_box = page.get_by_test_id("help")
        expect(help_box).to_be_visible()
        expect(help_box).to_contain_text("give up, reroll or return a die")
        page.keyboard.press("Escape")
        expect(help_box).to_be_hidden()
        expect(page.get_by_test_id("signal-wait")).to_be_focused()
        expect(talk).not_to_be_focused()
        # A: the give-up choice the red fuse card asks for takes the keyboard, Enter makes it
        page.get_by_test_id("play-heading").focus()
        page.keyboard.press("a")
        give = page.locator("[data-testid='action-give']")
        expect(give.first).to_be_focused()
        # a game key pressed behind the help closes it and is played
        page.keyboard.press("?")
        expect(help_box).to_be_visible()
        page.keyboard.press("a")
        expect(help_box).to_be_hidden()
        expect(give.first).to_be_focused()
        page.keyboard.press("Enter")
        expect(give).to_have_count(0)
        expect(page.locator("[data-testid='hand-0'] g.slot[data-holds]")).to_have_count(4)
    finally:
        ctx.close()


def test_the_ship_s_log_says_why_a_spark_is_drawn(server: Server, browser: Browser) -> None:  # noqa: F811
    # solo Countdown: Ana takes none of her three dice, and draws a spark for each
    scenario = {"config": {"game": "countdown", "players": 1, "difficulty": "standard"},
                "players": [["C05", "C06"]], "row": ["C10", "C32"],
                "spark_deck": ["S01", "S02", "S03", "S04"], "spark_discard": "rest",  # three are drawn
                "rolled": ["G6", "B2", "R3"], "time_left": 400}
    ctx = browser.new_context(viewport=VIEWPORTS["desktop"])
    try:
        page = ctx.new_page()
        seat_ana(server, page, scenario)
        page.get_by_test_id("done-button").click()
        log = page.get_by_test_id("event-log")
        expect(log.locator("li", has_text="draws spark")).to_have_count(3)
        for line in log.locator("li", has_text="draws spark").all_inner_texts():
            assert line.endswith("a die not taken this turn"), line
    finally:
        ctx.close()


def test_a_game_won_with_cards_left_in_hand_says_what_happened(server: Server, browser: Browser) -> None:  # noqa: F811
    # Standard: Ana completes F18 and takes F02, the last card of the middle; F34 stays in her hand
    scenario = {"config": {"players": 1, "difficulty": "standard"},
                "players": [[{"id": "F18", "dice": ["Y3"]}, "F34"]], "row": ["F02"], "deck": [],
                "rolled": ["R1"], "time_left": 400}
    ctx = browser.new_context(viewport=VIEWPORTS["desktop"])
    try:
        page = ctx.new_page()
        seat_ana(server, page, scenario)
        page.keyboard.press("1")
        page.keyboard.press("Enter")
        page.get_by_test_id("choice-F02").locator(".card-wrap").click()
        end = page.get_by_test_id("end-screen")
        expect(end).to_have_attribute("data-won", "true")
        reason = page.get_by_test_id("end-reason")
        expect(reason).to_contain_text("The middle is clear")
        expect(reason).to_contain_text("need not be defused")
        expect(reason).not_to_contain_text("Every bomb")
        # the result takes the keyboard
        expect(end.locator("h2")).to_be_focused()
    finally:
        ctx.close()


def contrast(a: str, b: str) -> float:
    """WCAG contrast of two CSS colours given as ``rgb(r, g, b)`` or ``#rrggbb``."""
    def lum(c: str) -> float:
        if c.startswith("#"):
            rgb = [int(c[i:i + 2], 16) for i in (1, 3, 5)]
        else:
            rgb = [int(float(x)) for x in re.findall(r"[\d.]+", c)[:3]]
        lin = [(v / 255) / 12.92 if v / 255 <= 0.03928 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_a_lit_slot_keeps_its_colours_and_the_cursor_stands_out(server: Server, browser: Browser) -> None:  # noqa: F811
    ctx = browser.new_context(viewport=VIEWPORTS["desktop"])
    try:
        page = ctx.new_page()
        seat_ana(server, page, DESKTOP_DEALS["3p-stacks"])
        page.keyboard.press("1")
        lit = page.locator("[data-testid='hand-0'] g.slot.legal:not(.cursor) .slot-box")
        expect(lit.first).to_be_visible()
        styles = [lit.nth(i).evaluate("e => [getComputedStyle(e).fill, getComputedStyle(e).strokeDasharray]")
                  for i in range(lit.count())]
        # framed, never tinted: what the slot asks for keeps its printed colours; and the frame is
        # told by its shape (dashed), not by a hue alone
        assert all(fill == "none" and dash not in ("none", "") for fill, dash in styles), styles
        cursor = page.locator("[data-testid='hand-0'] g.slot.cursor .slot-box")
        expect(cursor).to_have_count(1)
        stroke, width = cursor.evaluate(
            "e => [getComputedStyle(e).stroke, parseFloat(getComputedStyle(e).strokeWidth)]")
        card = "#fbf8f1"  # the card's panel (web/svg.py)
        assert contrast(stroke, card) >= 3, stroke
        assert width >= 6
    finally:
        ctx.close()
