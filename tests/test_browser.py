"""End to end in a real browser: Debian's Chromium driven by Playwright against a real server.

Two people join one room from two browser contexts and place dice together; a whole game is
played against bots to the end screen and then found in the BDT Log; the page switches to Spanish;
a reload returns a player to their seat; a tutorial lesson and keyboard play work. Screenshots of
the lobby, play and end screens are kept under ``artifacts/screenshots`` (not committed).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from liveserver import live_server

pytestmark = pytest.mark.timeout(240)

CHROMIUM = "/usr/bin/chromium"
#: Without these, Chromium keeps trying to reach Google's services, which this machine refuses.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = Path(os.environ.get("FUSE_ARTIFACTS", Path(__file__).parent.parent / "artifacts")) / "screenshots"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("browser") / "fuse.db"
    with live_server(f"sqlite:///{db}") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium package")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    yield ctx
    ctx.close()


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def create_room(page: Page, base: str, *, players: int = 2, bots_fast: bool = True,
                difficulty: str = "training") -> str:
    """Fill in the home page's form as a person would and create the room; returns its code."""
    page.goto(base + "/")
    page.get_by_test_id("opt-players").fill(str(players))
    page.get_by_test_id("opt-difficulty").select_option(difficulty)
    if bots_fast:
        page.get_by_test_id("opt-bot-delay").fill("50")
    page.get_by_test_id("create-game").click()
    page.wait_for_url(re.compile(r"#/room/[A-Z0-9]{5}$"))
    return page.url.rsplit("/", 1)[1]


def join_seat(page: Page, name: str) -> None:
    page.get_by_test_id("join-name").fill(name)
    page.get_by_test_id("join-button").click()
    expect(page.get_by_test_id("ready-button")).to_be_visible()


def wait_playing(page: Page) -> None:
    expect(page.locator("[data-page='play']")).to_have_count(1, timeout=15000)


def place_first_legal_die(page: Page) -> tuple[str, str]:
    """Click a free die that has a legal slot, then the first highlighted slot; returns (die, card)."""
    dice = page.locator("[data-testid^='die-'][data-legal='true']")
    expect(dice.first).to_be_visible()
    die = dice.first
    die_id = (die.get_attribute("data-testid") or "").removeprefix("die-")
    die.click()
    slot = page.locator("svg.card g.slot.legal").first
    expect(slot).to_be_visible()
    card = slot.locator("xpath=ancestor::*[local-name()='svg'][1]").get_attribute("data-card") or ""
    slot.click()
    return die_id, card


def test_two_browsers_join_one_room_and_place_dice_together(base: str, browser: Browser) -> None:
    a_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    b_ctx = browser.new_context(viewport={"width": 390, "height": 844})  # a phone
    try:
        a, b = a_ctx.new_page(), b_ctx.new_page()
        code = create_room(a, base)
        join_seat(a, "Ana")
        b.goto(f"{base}/#/room/{code}")
        join_seat(b, "Bo")
        expect(a.get_by_test_id("seat-1")).to_contain_text("Bo")
        shot(a, "lobby")
        a.get_by_test_id("ready-button").click()
        b.get_by_test_id("ready-button").click()
        wait_playing(a)
        wait_playing(b)
        expect(a.get_by_test_id("clock")).to_have_text(re.compile(r"^(10:00|9:5\d)$"))
        die, card = place_first_legal_die(a)
        # Bo sees Ana's die on her card at once
        expect(b.locator(f"svg.card[data-card='{card}'] [data-die='{die}']")).to_have_count(1)
        expect(b.get_by_test_id(f"die-{die}")).to_have_attribute("data-placed", "true")
        shot(a, "play")
        shot(b, "play-phone")
    finally:
        a_ctx.close()
        b_ctx.close()


def test_a_whole_game_against_bots_ends_on_the_score_screen_and_in_the_log(
        base: str, context: BrowserContext) -> None:
    page = context.new_page()
    create_room(page, base, players=3, difficulty="standard")
    join_seat(page, "Ana")
    page.get_by_test_id("fill-bots").click()
    expect(page.get_by_test_id("seat-2")).to_contain_text("Bot")
    page.get_by_test_id("ready-button").click()
    wait_playing(page)
    place_first_legal_die(page)
    page.get_by_test_id("autoplay").click()  # "a bot plays for me": the team planner finishes it
    end = page.get_by_test_id("end-screen")
    expect(end).to_be_visible(timeout=180_000)
    total = page.get_by_test_id("score-total").inner_text()
    assert re.fullmatch(r"\d+", total.strip())
    expect(page.locator(".fuse-alert.show")).to_have_count(0, timeout=10_000)  # the fuse card has faded
    shot(page, "end")
    page.get_by_test_id("log-link").click()
    expect(page.locator("[data-page='replay']")).to_have_count(1)
    page.goto(base + "/#/log")
    rows = page.get_by_test_id("log-row")
    expect(rows.first).to_be_visible()
    expect(rows.first).to_contain_text("Ana")
    expect(rows.first).to_contain_text(total.strip())
    shot(page, "log")


def test_the_page_switches_to_spanish_and_remembers_it(base: str, context: BrowserContext) -> None:
    page = context.new_page()
    page.goto(base + "/")
    expect(page.get_by_test_id("create-game")).to_have_text(re.compile("Create", re.I))
    page.get_by_test_id("lang-switch").select_option("es")
    expect(page.get_by_test_id("create-game")).to_have_text(re.compile("Crear", re.I))
    page.reload()
    expect(page.get_by_test_id("create-game")).to_have_text(re.compile("Crear", re.I))
    expect(page.locator("html")).to_have_attribute("lang", "es")


def test_a_reload_returns_the_player_to_their_seat(base: str, context: BrowserContext) -> None:
    page = context.new_page()
    create_room(page, base, players=2)
    join_seat(page, "Ana")
    page.get_by_test_id("fill-bots").click()
    page.get_by_test_id("ready-button").click()
    wait_playing(page)
    page.reload()
    wait_playing(page)
    expect(page.get_by_test_id("my-name")).to_contain_text("Ana")
    place_first_legal_die(page)


def test_keyboard_play_places_a_die(base: str, context: BrowserContext) -> None:
    page = context.new_page()
    create_room(page, base, players=1)
    join_seat(page, "Ana")
    page.get_by_test_id("ready-button").click()
    wait_playing(page)
    page.wait_for_function("document.body.dataset.seq !== undefined")
    seq = int(page.evaluate("document.body.dataset.seq"))
    legal = page.locator("[data-testid^='die-'][data-legal='true']").first
    index = int(legal.get_attribute("data-index") or "0")
    page.keyboard.press(str(index + 1))
    page.keyboard.press("Enter")
    page.wait_for_function(f"Number(document.body.dataset.seq) > {seq}")
    expect(page.locator("svg.card [data-die]")).not_to_have_count(0)


def test_a_tutorial_lesson_is_played_in_the_page(base: str, context: BrowserContext) -> None:
    page = context.new_page()
    page.goto(base + "/#/tutorial")
    expect(page.locator("[data-page='tutorial']")).to_have_count(1)
    red = page.locator("[data-testid^='die-'][aria-label^='Red']").first
    red.click()
    page.locator("svg.card[data-card='T1'] g.slot[data-slot='0']").click()
    expect(page.get_by_test_id("tutorial-message")).to_contain_text("Well done")
    expect(page.get_by_test_id("tutorial-next")).to_be_enabled()
