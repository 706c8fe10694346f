"""The Ship's Computer, tried as owners of the box would at a real table: what to lay out for the
chosen game (the rulebook's figures), the countdown with start, pause and resume, "Bombs defused!"
with its time bonus, the score counted at the table and kept in the BDT Log, and a reload that keeps
the clock running. The clock is driven by Playwright's controllable clock, never by real waiting,
except across the reload, where the real one must keep going."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from test_browser import VIEWPORTS, browser, in_spanish, shot  # noqa: F401

from fusegame.server.app import create_app
from liveserver import Server, served

pytestmark = pytest.mark.timeout(240)

T0 = datetime(2026, 11, 24, 20, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("computer") / "fuse.db"
    with served(create_app(f"sqlite:///{db}")) as s:
        yield s


@pytest.fixture
def ctx(browser: Browser) -> Iterator[BrowserContext]:  # noqa: F811
    context = browser.new_context(viewport=VIEWPORTS["desktop"])
    yield context
    context.close()


def choose(page: Page, game: str, players: int, level: str) -> None:
    page.get_by_test_id("comp-c-game").select_option(game)
    page.get_by_test_id("comp-c-players").select_option(str(players))
    page.get_by_test_id("comp-c-level").select_option(level)


def clocked_computer(server: Server, ctx: BrowserContext) -> Page:
    """The Ship's Computer on a page whose clock the test drives, held five seconds past ``T0``."""
    page = ctx.new_page()
    page.clock.install(time=T0)
    page.goto(server.base + "/#/computer")
    page.clock.pause_at(T0.replace(second=5))
    return page


def figure(page: Page, testid: str) -> str:
    return page.get_by_test_id(testid).locator(".figure").inner_text()


def test_countdown_for_three_at_expert_lays_out_the_rulebook_s_figures(server: Server,
                                                                        ctx: BrowserContext) -> None:
    page = ctx.new_page()
    page.goto(server.base + "/")
    page.get_by_test_id("link-computer").click()  # one click from the home page
    expect(page.get_by_test_id("lay-out")).to_be_visible()
    choose(page, "countdown", 3, "expert")
    # docs/rules.md A.9.2: 3 players at Expert build a bomb deck of 29; the hands (2 each) come from it,
    # 5 go face up in the row: 29 - 6 - 5 = 18 face down. B.4: one role each; fuse cards from
    # Expert up, 1 to 10 of them (6 unless the team says); the spark deck; Countdown's 25 dice.
    expect(page.get_by_test_id("setup-deck")).to_contain_text("29")
    assert figure(page, "setup-deck") == "29"
    assert figure(page, "setup-hand") == "2"
    assert figure(page, "setup-row") == "5"
    assert figure(page, "setup-face-down") == "18"
    assert figure(page, "setup-roles") == "3"
    assert figure(page, "setup-fuses") == "6"
    expect(page.get_by_test_id("setup-hand")).to_contain_text("3 or less")
    expect(page.get_by_test_id("comp-c-fuses")).to_have_attribute("max", "10")
    expect(page.get_by_test_id("setup-sparks")).to_be_visible()
    assert figure(page, "setup-dice") == "25"
    expect(page.get_by_test_id("setup-dice")).to_contain_text("split")
    shot(page, "computer-setup-desktop")
    # FUSE for 3 at Standard (B.1's own example): 6 hand cards, a deck of 21, 16 face down, 6 fuses
    choose(page, "fuse", 3, "standard")
    expect(page.get_by_test_id("setup-face-down").locator(".figure")).to_have_text("16")
    assert figure(page, "setup-deck") == "21"
    assert figure(page, "setup-fuses") == "6"
    expect(page.get_by_test_id("setup-roles")).to_have_count(0)
    expect(page.get_by_test_id("setup-sparks")).to_have_count(0)
    # Countdown at Standard has no fuse cards (B.5)
    choose(page, "countdown", 4, "standard")
    # each choice asks the server again: the 3-player answer also shows no fuse cards, so wait for
    # the 4-player deck itself rather than read it as soon as the fuse cards read 0
    expect(page.get_by_test_id("setup-deck").locator(".figure")).to_have_text("31")
    expect(page.get_by_test_id("setup-fuses").locator(".figure")).to_have_text("0")


def test_the_clock_pauses_resumes_and_bombs_defused_gives_the_time_bonus(server: Server,
                                                                         ctx: BrowserContext) -> None:
    page = clocked_computer(server, ctx)
    expect(page.get_by_test_id("clock-start")).to_be_enabled()
    expect(page.get_by_test_id("clock-start")).to_contain_text("10:00")
    page.get_by_test_id("clock-start").click()
    clock = page.get_by_test_id("computer-clock")
    expect(clock).to_have_text("10:00")
    page.clock.fast_forward(60_000)
    expect(clock).to_have_text("9:00")
    expect(page.get_by_test_id("announce")).to_have_text("9 minutes left.")
    wake = page.get_by_test_id("wake-status")
    assert wake.get_attribute("data-state") in ("on", "failed", "unsupported")  # it says which
    # a phone call: pause from the keyboard (the focus is on Pause once the clock runs)
    expect(page.get_by_test_id("clock-pause")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("paused")).to_be_visible()
    page.clock.fast_forward(95_000)
    expect(clock).to_have_text("9:00")  # the time on hold is not counted
    expect(page.get_by_test_id("clock-resume")).to_be_focused()
    page.keyboard.press("Enter")
    page.clock.fast_forward(277_000)  # 1:00 + 4:37 played: 4:23 left
    expect(clock).to_have_text("4:23")
    page.get_by_test_id("clock-defused").click()
    # E.3: one point per full ten seconds left: 263 s -> 26
    expect(page.get_by_test_id("verdict")).to_be_visible()
    expect(page.get_by_test_id("time-bonus")).to_contain_text("26")
    page.clock.fast_forward(30_000)
    expect(clock).to_have_text("4:23")  # the clock has stopped
    page.get_by_test_id("to-score").click()
    expect(page.get_by_test_id("score-won")).to_be_checked()
    expect(page.get_by_test_id("b-time").locator("td")).to_have_text("26")


def test_the_last_seconds_are_counted_down_and_time_up_ends_the_game(server: Server,
                                                                     ctx: BrowserContext) -> None:
    page = clocked_computer(server, ctx)
    page.get_by_test_id("comp-minutes").fill("1")
    page.get_by_test_id("comp-minutes").press("Tab")
    expect(page.get_by_test_id("clock-start")).to_contain_text("1:00")
    page.get_by_test_id("clock-start").click()
    announce = page.get_by_test_id("announce")
    page.clock.fast_forward(30_000)
    expect(announce).to_have_text("Thirty seconds.")
    expect(page.get_by_test_id("computer-clock")).to_have_class(re.compile("urgent"))
    page.clock.fast_forward(23_000)
    expect(announce).to_have_text("7")
    page.clock.fast_forward(8_000)
    expect(page.get_by_test_id("verdict")).to_have_text("Time's up!")
    expect(page.get_by_test_id("time-bonus")).to_have_count(0)
    page.get_by_test_id("to-score").click()
    expect(page.get_by_test_id("score-lost")).to_be_checked()


def test_the_score_counted_at_the_table_goes_in_the_bdt_log(server: Server, ctx: BrowserContext) -> None:
    page = clocked_computer(server, ctx)
    choose(page, "countdown", 3, "expert")
    expect(page.get_by_test_id("setup-deck").locator(".figure")).to_have_text("29")
    page.get_by_test_id("clock-start").click()
    page.clock.fast_forward(480_000)  # 2:00 left
    page.get_by_test_id("clock-defused").click()
    page.get_by_test_id("to-score").click()
    for testid, times in (("bombs-1-plus", 2), ("bombs-3-plus", 1), ("bombs-5-plus", 2), ("fuses-plus", 3),
                          ("sparks-plus", 1)):
        for _ in range(times):
            page.get_by_test_id(testid).click()
    page.get_by_test_id("bombs-5-minus").click()
    page.get_by_test_id("score-name-0").fill("Ana")
    # the rulebook's breakdown as it is filled: 10 + 12 (2:00 left) + 2 + 3 + 5 + 3 x 2 + 1 x 2
    expect(page.get_by_test_id("b-bombs").locator("td")).to_have_text("10")
    expect(page.get_by_test_id("b-fuses").locator("td")).to_have_text("6")
    expect(page.get_by_test_id("b-sparks").locator("td")).to_have_text("2")
    expect(page.get_by_test_id("b-total").locator("td")).to_have_text("40")
    shot(page, "computer-score-desktop")
    page.get_by_test_id("score-save").click()
    expect(page.get_by_test_id("saved")).to_be_visible()
    page.get_by_test_id("saved-link").click()
    expect(page.get_by_test_id("table-game")).to_be_visible()
    expect(page.get_by_test_id("score-total")).to_have_text("40")
    expect(page.get_by_test_id("table-game")).to_contain_text("Ana")
    expect(page.get_by_test_id("bombs-counted")).to_have_text(
        "Bomb cards defused: 2 × 1 point, 1 × 3 points, 1 × 5 points")
    # the log: side by side with digital games, marked, and filtered on request
    page.goto(server.base + "/#/log")
    row = page.get_by_test_id("log-row").filter(has=page.get_by_test_id("tag-table"))
    expect(row).to_have_count(1)
    expect(row).to_contain_text("40")
    expect(page.get_by_test_id("best-row")).to_have_count(0)  # never among the digital best scores
    page.get_by_test_id("filter-source").select_option("table")
    expect(page.get_by_test_id("best-row")).to_have_count(1)
    expect(page.get_by_test_id("best-note")).to_contain_text("real table")
    page.get_by_test_id("filter-source").select_option("digital")
    expect(page.get_by_test_id("log-empty")).to_be_visible()


def test_a_reload_keeps_the_running_clock(server: Server, ctx: BrowserContext) -> None:
    page = ctx.new_page()
    page.goto(server.base + "/#/computer")
    page.get_by_test_id("clock-start").click()
    clock = page.get_by_test_id("computer-clock")
    expect(clock).to_have_text("9:59", timeout=5_000)
    page.reload()
    # still running after the reload, from where it was: not back to 10:00, not paused
    expect(page.get_by_test_id("clock-pause")).to_be_visible()
    expect(clock).to_have_text(re.compile(r"^9:5\d$"))
    expect(clock).to_have_text(re.compile(r"^9:5[0-7]$"), timeout=5_000)


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("size", ["desktop", "phone", "phone-landscape"])
def test_screenshots_at_the_table(server: Server, browser: Browser, size: str, lang: str) -> None:  # noqa: F811
    viewport = VIEWPORTS.get(size) or {"width": 844, "height": 390}
    context = browser.new_context(viewport=viewport)
    if lang == "es":
        in_spanish(context)
    try:
        page = context.new_page()
        page.clock.install(time=T0)
        page.goto(server.base + "/#/computer")
        page.clock.pause_at(T0.replace(second=5))
        choose(page, "countdown", 3, "expert")
        expect(page.get_by_test_id("setup-deck").locator(".figure")).to_have_text("29")
        shot(page, f"computer-setup-{size}-{lang}")
        page.get_by_test_id("clock-start").click()
        page.clock.fast_forward(572_000)
        expect(page.get_by_test_id("computer-clock")).to_have_text("0:28")
        # readable from across the table: the digits take a good part of the screen's width
        box = page.get_by_test_id("computer-clock").bounding_box()
        assert box is not None and box["width"] >= 0.4 * viewport["width"], box
        for testid in ("clock-pause", "clock-defused"):
            button = page.get_by_test_id(testid).bounding_box()
            assert button is not None and button["height"] >= 48, (testid, button)  # big touch targets
            assert button["y"] + button["height"] <= viewport["height"] + 1, f"{testid} is below the fold"
        shot(page, f"computer-clock-{size}-{lang}")
        page.get_by_test_id("clock-defused").click()
        page.get_by_test_id("to-score").click()
        expect(page.get_by_test_id("score-form")).to_be_visible()
        shot(page, f"computer-score-{size}-{lang}")
        if lang == "es":
            expect(page.get_by_test_id("score-save")).to_have_text("Guardar en el Registro BDT")
    finally:
        context.close()


def test_the_bombs_taken_are_held_against_the_pace_line(server: Server, ctx: BrowserContext) -> None:
    page = clocked_computer(server, ctx)
    choose(page, "fuse", 3, "standard")
    expect(page.get_by_test_id("setup-face-down").locator(".figure")).to_have_text("16")
    page.get_by_test_id("clock-start").click()
    # 21 bombs in the middle on a 10-minute clock: the line takes a bomb every 25 s
    gauge = page.get_by_test_id("computer-pace")
    expect(gauge).to_contain_text("on the line")
    expect(gauge).to_have_attribute("title", re.compile("a bomb every 25 s.*3 or more behind, speed up"))
    page.clock.fast_forward(60_000)  # the line has taken 2.4 bombs, the table none
    expect(gauge).to_contain_text("2 behind")
    expect(gauge).to_have_attribute("data-level", "behind")
    for _ in range(3):
        page.get_by_test_id("taken-plus").click()
    expect(page.get_by_test_id("taken-value")).to_have_text("3")
    expect(gauge).to_contain_text("1 ahead")
    expect(gauge).to_have_attribute("data-level", "ahead")
    page.clock.fast_forward(240_000)  # five minutes played: the line has taken 12
    expect(gauge).to_contain_text("9 behind")
    expect(gauge).to_have_attribute("data-level", "far")
    # said at the minute mark too, for a table that counts
    expect(page.get_by_test_id("announce")).to_have_text("5 minutes left. Pace: 9 behind.")
    shot(page, "computer-pace-desktop")
    page.get_by_test_id("taken-minus").click()  # a tap too many taken back
    expect(page.get_by_test_id("taken-value")).to_have_text("2")
    expect(gauge).to_contain_text("10 behind")
    page.reload()  # the count is kept with the clock
    expect(page.get_by_test_id("taken-value")).to_have_text("2")
    page.get_by_test_id("lang-switch").select_option("es")
    expect(page.get_by_test_id("computer-pace")).to_contain_text("10 por detrás")
    expect(page.get_by_test_id("taken")).to_contain_text("Bombas tomadas del centro")


def test_at_four_players_the_gauge_turns_red_only_five_bombs_behind(server: Server,
                                                                     ctx: BrowserContext) -> None:
    # four players catch up late: three or four behind the line still wins most games there
    page = clocked_computer(server, ctx)
    choose(page, "fuse", 4, "standard")
    expect(page.get_by_test_id("setup-face-down").locator(".figure")).to_have_text("17")
    page.get_by_test_id("clock-start").click()
    gauge = page.get_by_test_id("computer-pace")
    # 22 bombs in the middle: the line takes a bomb every 23.9 s, 3.8 after a minute and a half
    expect(gauge).to_have_attribute("title", re.compile("a bomb every 24 s.*5 or more behind, speed up"))
    page.clock.fast_forward(90_000)
    expect(gauge).to_contain_text("4 behind")
    expect(gauge).to_have_attribute("data-level", "behind")
    page.clock.fast_forward(30_000)  # two minutes: the line has taken 5.0
    expect(gauge).to_contain_text("5 behind")
    expect(gauge).to_have_attribute("data-level", "far")
    shot(page, "computer-pace-four-players")
    page.get_by_test_id("lang-switch").select_option("es")
    expect(gauge).to_have_attribute("title", re.compile("con 5 o más por detrás, aceleren"))


def test_no_pace_line_at_insane_where_the_hands_must_be_cleared_too(server: Server,
                                                                   ctx: BrowserContext) -> None:
    page = ctx.new_page()
    page.goto(server.base + "/#/computer")
    choose(page, "fuse", 3, "top")
    expect(page.get_by_test_id("comp-c-level")).to_have_value("top")
    expect(page.get_by_test_id("clock-start")).to_be_enabled()
    page.get_by_test_id("clock-start").click()
    expect(page.get_by_test_id("clock-pause")).to_be_visible()
    expect(page.get_by_test_id("taken")).to_have_count(0)
    expect(page.get_by_test_id("computer-pace")).to_have_count(0)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_epic_and_integrated_lay_outs_say_which_box_gives_what(server: Server, browser: Browser,  # noqa: F811
                                                                  lang: str) -> None:
    ctx = browser.new_context(viewport=VIEWPORTS["desktop"])
    if lang == "es":
        in_spanish(ctx)
    try:
        page = ctx.new_page()
        page.goto(server.base + "/#/computer")
        expect(page.get_by_test_id("lay-out")).to_be_visible()
        # four players chosen, then the epic game: the count moves into its range (6 to 9) before
        # the server is asked, so no refusal of the server's ever shows
        page.get_by_test_id("comp-c-players").select_option("4")
        page.get_by_test_id("comp-c-game").select_option("epic")
        expect(page.get_by_test_id("comp-c-players")).to_have_value("6")
        expect(page.get_by_test_id("setup-boxes")).to_be_visible()
        expect(page.locator(".lay-out [role='alert']")).to_have_count(0)
        # one count per colour: Countdown's four of each and FUSE's two of each (G-45), with the split dice
        expect(page.get_by_test_id("setup-dice").locator(".figure")).to_have_text("35")
        expect(page.get_by_test_id("setup-dice")).to_contain_text(
            {"en": "6 of each colour", "es": "6 de cada color"}[lang])
        page.get_by_test_id("comp-c-players").select_option("8")
        page.get_by_test_id("comp-c-game").select_option("integrated")
        expect(page.get_by_test_id("comp-c-players")).to_have_value("4")
        expect(page.get_by_test_id("setup-boxes")).to_contain_text("Countdown")
        # the lay-out is drawn again when the server answers: wait for the new figure
        expect(page.get_by_test_id("setup-dice").locator(".figure")).to_have_text("25")
        expect(page.locator(".lay-out [role='alert']")).to_have_count(0)
        page.get_by_test_id("comp-c-game").select_option("fuse")
        expect(page.get_by_test_id("setup-boxes")).to_have_count(0)
        shot(page, f"computer-boxes-{lang}")
    finally:
        ctx.close()


def test_a_refused_score_is_told_in_the_page_s_words(server: Server, ctx: BrowserContext) -> None:
    # "Bombs defused!" ten seconds in: no team defuses a deck that fast, and the Log refuses it; the
    # page says why in its own words, never the server's line ("time_left_ms: ...")
    page = clocked_computer(server, ctx)
    page.get_by_test_id("clock-start").click()
    page.clock.fast_forward(10_000)
    page.get_by_test_id("clock-defused").click()
    page.get_by_test_id("to-score").click()
    page.get_by_test_id("score-save").click()
    error = page.get_by_test_id("save-error")
    expect(error).to_contain_text("Not saved: the time left is not one a game can end with")
    expect(error).not_to_contain_text("time_left_ms")
