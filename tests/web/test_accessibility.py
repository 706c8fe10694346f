"""Every page scanned by axe-core (the ``axe-playwright-python`` package, which carries axe-core)
in Debian's Chromium, at a laptop's and a phone's size: no serious or critical violation, and the
table is played from the keyboard with a visible focus."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect
from test_browser import VIEWPORTS, browser, create_room, join_seat, logged_game, start_fuse_went_off  # noqa: F401
from test_layout import MUST_TAKE, OPENING, seat_ana
from test_replay_table import GAMES, log_game

from fusegame.server.app import create_app
from liveserver import Server, served

pytestmark = pytest.mark.timeout(240)

AXE = Axe()
#: axe-core's default rules, and one it still calls experimental: a control's name must contain the
#: words it shows (WCAG 2.5.3), or a voice-control user cannot say what they see.
OPTIONS = {"resultTypes": ["violations"], "rules": {"label-content-name-mismatch": {"enabled": True}}}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("a11y") / "fuse.db"
    with served(create_app(f"sqlite:///{db}")) as s:
        yield s


@pytest.fixture(scope="module")
def log_id(server: Server) -> int:
    return logged_game(server)


def serious(page: Page) -> list[str]:
    """The serious and critical violations on the page, one line each."""
    found = AXE.run(page, options=OPTIONS).response["violations"]
    return [f"{v['impact']} {v['id']}: {v['help']} at {[n['target'] for n in v['nodes']][:5]}"
            for v in found if v["impact"] in ("serious", "critical")]


def home(page: Page, server: Server, log_id: int) -> None:
    page.goto(server.base + "/")
    expect(page.get_by_test_id("create-game")).to_be_attached()


def lobby(page: Page, server: Server, log_id: int) -> None:
    create_room(page, server.base, players=3)
    join_seat(page, "Ana")


def play(page: Page, server: Server, log_id: int) -> None:
    seat_ana(server, page, OPENING)
    expect(page.locator("[data-testid='hand-0'] svg.card")).to_have_count(2)
    page.locator("[data-testid^='die-'][data-legal='true']").first.click()  # slots lit up


def choice(page: Page, server: Server, log_id: int) -> None:
    seat_ana(server, page, MUST_TAKE)  # a bomb defused: the cards of the row are buttons to take
    expect(page.locator(".card-wrap.takeable").first).to_be_visible()


def give(page: Page, server: Server, log_id: int) -> None:
    start_fuse_went_off(server, page, hints=False)  # a fuse card went off: a red die to give up
    expect(page.get_by_test_id("action-give").first).to_be_visible()


def end(page: Page, server: Server, log_id: int) -> None:
    seat_ana(server, page, {**OPENING, "time_left": 1})  # the clock runs out: the game is lost
    expect(page.get_by_test_id("end-screen")).to_be_visible(timeout=15_000)


def log(page: Page, server: Server, log_id: int) -> None:
    page.goto(server.base + "/#/log")
    expect(page.get_by_test_id("log-row").first).to_be_visible()


def replay(page: Page, server: Server, log_id: int) -> None:
    page.goto(f"{server.base}/#/log/{log_id}")
    expect(page.get_by_test_id("replay-step")).to_be_visible()


#: The five-player game of ``replay_team``, logged once for each server.
TEAM_GAMES: dict[str, int] = {}


def replay_team(page: Page, server: Server, log_id: int) -> None:
    """A five-player game's replay in the middle of the game, with its score's breakdown open."""
    if server.base not in TEAM_GAMES:
        TEAM_GAMES[server.base] = log_game(server, *GAMES["fuse5"])
    page.goto(f"{server.base}/#/log/{TEAM_GAMES[server.base]}?step=60")
    expect(page.locator("[data-page='replay']")).to_have_attribute("data-step", "60")
    expect(page.locator(".replay-board .hand")).to_have_count(5)
    page.get_by_test_id("replay-score").locator("summary").click()
    expect(page.get_by_test_id("score-total")).to_be_visible()


def tutorial(page: Page, server: Server, log_id: int) -> None:
    page.goto(server.base + "/#/tutorial")
    expect(page.locator("[data-page='tutorial']")).to_have_count(1)
    expect(page.locator("svg.card").first).to_be_visible()


def tutorial_slots(page: Page, server: Server, log_id: int) -> None:
    tutorial(page, server, log_id)
    page.locator("[data-testid^='die-'][title^='Red']").first.click()  # two-colour slots light up
    expect(page.locator("svg.card[data-card='F02'] g.slot.legal").first).to_be_attached()
    # a lit slot says what pressing it does, then what is drawn on it
    expect(page.locator("svg.card[data-card='F02'] g.slot.legal").first).to_have_accessible_name(
        re.compile(r"^Place on slot \d of F02: \w+ or \w+$"))


def cards(page: Page, server: Server, log_id: int) -> None:
    page.goto(server.base + "/cards?set=fuse")
    expect(page.locator("#legend")).to_be_visible()


def computer(page: Page, server: Server, log_id: int) -> None:
    page.goto(server.base + "/#/computer")
    expect(page.get_by_test_id("lay-out")).to_be_visible()


def computer_clock(page: Page, server: Server, log_id: int) -> None:
    computer(page, server, log_id)
    page.get_by_test_id("clock-start").click()
    expect(page.get_by_test_id("clock-pause")).to_be_visible()


def computer_score(page: Page, server: Server, log_id: int) -> None:
    computer_clock(page, server, log_id)
    page.get_by_test_id("clock-defused").click()
    page.get_by_test_id("to-score").click()
    expect(page.get_by_test_id("score-form")).to_be_visible()


PAGES: dict[str, Callable[[Page, Server, int], None]] = {
    "home": home, "lobby": lobby, "play": play, "choice": choice, "give": give, "end": end, "log": log,
    "replay": replay, "replay_team": replay_team, "tutorial": tutorial, "tutorial_slots": tutorial_slots,
    "cards": cards, "computer": computer, "computer_clock": computer_clock, "computer_score": computer_score}


@pytest.mark.parametrize("size", list(VIEWPORTS))
@pytest.mark.parametrize("name", list(PAGES))
def test_no_serious_accessibility_violation(server: Server, browser: Browser, log_id: int,  # noqa: F811
                                            name: str, size: str) -> None:
    ctx = browser.new_context(viewport=VIEWPORTS[size])
    try:
        page = ctx.new_page()
        PAGES[name](page, server, log_id)
        problems = serious(page)
        assert not problems, "\n".join(problems)
    finally:
        ctx.close()


def test_the_table_is_played_from_the_keyboard_with_a_visible_focus(server: Server,
                                                                    browser: Browser) -> None:  # noqa: F811
    ctx = browser.new_context(viewport=VIEWPORTS["desktop"])
    try:
        page = ctx.new_page()
        seat_ana(server, page, OPENING)
        page.wait_for_function("document.body.dataset.seq !== undefined")
        seq = int(page.evaluate("document.body.dataset.seq"))
        # Tab reaches the first free die, and its focus ring shows
        for _ in range(40):
            page.keyboard.press("Tab")
            if (page.evaluate("document.activeElement.dataset.testid") or "").startswith("die-"):
                break
        else:
            pytest.fail("Tab never reached a die")
        outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
        assert outline not in ("none", ""), outline
        # named as it is spoken: the colour and the number, without the badge of its key
        expect(page.locator(":focus")).to_have_accessible_name(re.compile(r"^(Green|Blue|Red) \d$"))
        page.keyboard.press("Enter")  # selects it
        legal = page.locator("svg.card g.slot.legal")
        expect(legal.first).to_be_visible()
        page.keyboard.press("ArrowRight")  # the keyboard cursor: a slot of its own look
        cursor = page.locator("svg.card g.slot.cursor .slot-box")
        expect(cursor).to_have_count(1)
        # a solid near-black frame, clear on the cream card (the hint's frame is dashed orange)
        expect(cursor).to_have_css("stroke", "rgb(11, 15, 23)")
        expect(cursor).to_have_css("stroke-dasharray", "none")
        page.keyboard.press("Enter")
        page.wait_for_function(f"Number(document.body.dataset.seq) > {seq}")
        expect(page.locator("svg.card g.slot[data-holds]")).to_have_count(1)
        # Done from the keyboard too
        page.keyboard.press("d")
        expect(page.get_by_test_id("done-button")).to_have_count(0)
    finally:
        ctx.close()
