"""End to end in a real browser: Debian's Chromium driven by Playwright against a real server.

Two people join one room from two browser contexts and place dice together; a whole game is
played against bots to the end screen and then found in the BDT Log; the page switches to Spanish;
a reload returns a player to their seat; a tutorial lesson and keyboard play work; hints, the
causes of dice given up and the replay viewer are told in words in both languages. Screenshots of
the lobby, play, hint, replay and end screens are kept under ``artifacts/screenshots`` (not
committed).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from playwright.sync_api import Browser, BrowserContext, Locator, Page, ViewportSize, expect, sync_playwright

from fusegame import GameConfig, new_game
from fusegame.bots.hints import hint
from fusegame.bots.team import TeamPlanner
from fusegame.pace import PaceLine
from fusegame.record import GameRecord
from fusegame.rules.actions import with_time
from fusegame.scenario import scenario_from_data
from fusegame.server.app import create_app
from fusegame.server.options import RoomOptions, parse_options
from fusegame.server.room import Room
from fusegame.server.storage import entry_from_state
from fusegame.sim import Pace, get_policy, play_game
from fusegame.words import hint_reason
from liveserver import Server, served

pytestmark = pytest.mark.timeout(240)

CHROMIUM = "/usr/bin/chromium"
#: Without these, Chromium keeps trying to reach Google's services, which this machine refuses.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path(os.environ.get("FUSE_ARTIFACTS", ROOT / "artifacts")) / "screenshots"
#: The two screens a release is looked at on: a laptop and a phone.
VIEWPORTS: dict[str, ViewportSize] = {"desktop": {"width": 1280, "height": 800},
                                      "phone": {"width": 390, "height": 844}}
COLOUR_WORDS = {"en": {"R": "Red", "B": "Blue", "G": "Green", "Y": "Yellow", "K": "Black"},
                "es": {"R": "Rojo", "B": "Azul", "G": "Verde", "Y": "Amarillo", "K": "Negro"}}
#: A FUSE position: the red fuse card has gone off and Ana must give up one of her red dice.
FUSE_WENT_OFF = {
    "config": {"players": 2, "difficulty": "standard"},
    "players": [[{"id": "F32", "dice": ["R1", "G2", "B3", "Y4"]}, {"notation": "? ? ?", "dice": ["R5"]}],
                ["F20"]],
    "row": ["F01", "F02", "F03", "F04", "F05"], "deck": ["F06", "F07"],
    "fuses_activated": ["fuse:R"], "rolled": ["G6"], "removals": {0: ["R1", "R5"]},
    "removal_reason": "fuse card R", "time_left": 380}

@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("browser") / "fuse.db"
    with served(create_app(f"sqlite:///{db}")) as s:
        yield s


@pytest.fixture(scope="module")
def base(server: Server) -> str:
    return server.base


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
                difficulty: str = "training", seed: int | None = None) -> str:
    """Fill in the home page's form (under "More options") as a person would and create the room;
    returns its code."""
    page.goto(base + "/")
    more = page.get_by_test_id("more-options")
    if more.get_attribute("open") is None:
        more.locator("summary").click()
    page.get_by_test_id("opt-players").fill(str(players))
    page.get_by_test_id("opt-difficulty").select_option(difficulty)
    if bots_fast:
        page.get_by_test_id("opt-bot-delay").fill("50")
    if seed is not None:
        page.get_by_test_id("opt-seed").fill(str(seed))
    page.get_by_test_id("create-game").click()
    page.wait_for_url(re.compile(r"#/room/[A-Z0-9]{12}$"))
    return page.url.rsplit("/", 1)[1]


def join_seat(page: Page, name: str) -> None:
    page.get_by_test_id("join-name").fill(name)
    page.get_by_test_id("join-button").click()
    expect(page.get_by_test_id("ready-button")).to_be_visible()


def wait_playing(page: Page) -> None:
    expect(page.locator("[data-page='play']")).to_have_count(1, timeout=15000)


def place_first_legal_die(page: Page, *teammates: Page) -> tuple[str, str]:
    """Click a free die that has a legal slot, then the first highlighted slot; returns (die, card).

    A roll can leave this seat nothing it may place (teammates took the dice that fit, or none fit
    its cards): then it and its ``teammates`` (people at other browsers, who would not wait for
    ever) press Done, as players would, and it tries the next roll."""
    dice = page.locator("[data-testid^='die-'][data-legal='true']")
    for _ in range(8):
        try:
            expect(dice.first).to_be_visible(timeout=5000)
            break
        except AssertionError:
            for who in (page, *teammates):
                done = who.get_by_test_id("done-button")
                if done.is_visible() and done.is_enabled():
                    done.click()
    expect(dice.first).to_be_visible()
    die = dice.first
    die_id = (die.get_attribute("data-testid") or "").removeprefix("die-")
    die.click()
    slot = page.locator("svg.card g.slot.legal").first
    expect(slot).to_be_visible()
    # a lit slot is framed, not painted over: what it asks for keeps its printed colours
    fill = slot.locator(".slot-box").evaluate("e => getComputedStyle(e).fill")
    assert fill == "none", fill
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
        die, card = place_first_legal_die(a, b)
        # Bo sees Ana's die on her card at once
        expect(b.locator(f"svg.card[data-card='{card}'] [data-die='{die}']")).to_have_count(1)
        expect(b.get_by_test_id(f"die-{die}")).to_have_attribute("data-placed", "true")
        expect(a.get_by_test_id("chat-input")).to_be_visible()  # a team of two talks
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
    # "a bot plays for me" (the two bots, 50 ms apart, may take every die that fits Ana's cards
    # before a person could: placing by hand is the two-browser test's)
    page.get_by_test_id("autoplay").click()
    end = page.get_by_test_id("end-screen")
    expect(end).to_be_visible(timeout=180_000)
    total = page.get_by_test_id("score-total").inner_text()
    assert re.fullmatch(r"\d+", total.strip())
    expect(page.locator(".fuse-alert.show")).to_have_count(0, timeout=10_000)  # the fuse card has faded
    # the game's pace pictured: the bombs taken against the line
    expect(end.get_by_test_id("pace-chart")).to_be_visible()
    expect(end.get_by_test_id("pace-summary")).to_contain_text("against the pace line")
    shot(page, "end")
    page.set_viewport_size({"width": 390, "height": 844})  # on a phone the picture fits the screen
    box = end.get_by_test_id("pace-chart").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    shot(page, "end-phone")
    page.set_viewport_size({"width": 1280, "height": 900})
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
    create_room(page, base, players=1, seed=7)  # a deal whose first roll fits the hand
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
    red = page.locator("[data-testid^='die-'][title^='Red']").first
    red.click()
    page.locator("svg.card[data-card='T1'] g.slot[data-slot='0']").click()
    expect(page.get_by_test_id("tutorial-message")).to_contain_text("Well done")
    expect(page.get_by_test_id("tutorial-next")).to_be_enabled()
    # the learner is a trainee, not a seat number, and the first lesson shows no game bar
    expect(page.get_by_test_id("hand-0").locator(".hand-name")).to_contain_text("Trainee (you)")
    expect(page.locator(".table .info")).to_be_hidden()


def test_the_lesson_list_numbers_each_title_on_its_first_line(base: str, browser: Browser) -> None:
    ctx = browser.new_context(viewport=VIEWPORTS["phone"])
    try:
        page = ctx.new_page()
        page.goto(base + "/#/tutorial")
        expect(page.get_by_test_id("lesson-6")).to_contain_text("Countdown")
        links = page.locator(".lesson-link")
        assert links.count() >= 11
        for i in range(links.count()):
            link = links.nth(i)
            num = link.locator(".lesson-num").bounding_box()
            name = link.locator(".lesson-name").bounding_box()
            assert num is not None and name is not None
            assert abs(num["y"] - name["y"]) < 3, (i, num, name)
    finally:
        ctx.close()


# ====================================================================== the game in words
def in_spanish(ctx: BrowserContext) -> None:
    """Pages of ``ctx`` open in Spanish, as for a visitor who chose it before."""
    ctx.add_init_script("localStorage.setItem('fuse.lang', 'es')")


def viewport_pages(browser: Browser) -> Iterator[tuple[str, Page]]:
    """A fresh page at each screen size a release is looked at on: the desktop in English, the
    phone in Spanish."""
    for name, viewport in VIEWPORTS.items():
        ctx = browser.new_context(viewport=viewport)
        try:
            if name == "phone":
                in_spanish(ctx)
            yield name, ctx.new_page()
        finally:
            ctx.close()


def start_fuse_went_off(server: Server, page: Page, *, hints: bool) -> Room:
    """Ana's page in a room started from ``FUSE_WENT_OFF``; Bo, a bot, has nothing to do in it."""
    room = server.open_room(RoomOptions(GameConfig(players=2), hints=hints, bot_delay_ms=0, seed=3,
                                        choice_timeout_s=300))

    def bot_in_seat_1() -> None:
        room.seats[1].kind, room.seats[1].name = "bot", "Bo"

    server.call(bot_in_seat_1)
    page.goto(f"{server.base}/#/room/{room.code}")
    join_seat(page, "Ana")
    server.call(lambda: room.start(scenario_from_data(FUSE_WENT_OFF)))
    wait_playing(page)
    return room


def test_a_hint_and_its_reason_are_told_in_the_page_s_language(server: Server, browser: Browser) -> None:
    for name, page in viewport_pages(browser):
        start_fuse_went_off(server, page, hints=True)
        text, reason = page.get_by_test_id("hint-text"), page.get_by_test_id("hint-reason")
        # the die the planner gives up is marked on the table
        expect(page.locator(".hand[data-seat='0'] g.slot.giveable.hinted")).to_have_count(1)
        if name == "desktop":
            expect(text).to_contain_text(re.compile(r"Give up the Red [15] from \w+"))
            expect(reason).to_contain_text("the fuse card FZR asks for Red")
            expect(reason).to_contain_text("it costs the least to replace")
            shot(page, f"play-hint-{name}")
            page.get_by_test_id("lang-switch").select_option("es")
        expect(text).to_contain_text(re.compile(r"Entrega el dado rojo [15] de \w+"))
        expect(reason).to_contain_text("la carta de mecha FZR pide Rojo")
        expect(reason).to_contain_text("es el que menos cuesta reponer")
        expect(reason).not_to_contain_text(re.compile("fuse|costs|replace"))
        shot(page, f"play-hint-{name}-es")


#: tests/scenarios/hints/take_smallest.yaml: Ana replaces a defused card; the row's easiest card
#: is not its smallest.
TAKE_SMALLEST = yaml.safe_load((ROOT / "tests" / "scenarios" / "hints" / "take_smallest.yaml").read_text())


def hinted_position(server: Server, page: Page, position: dict[str, Any]) -> tuple[Locator, Locator]:
    """Ana's page in a room with hints, started from a scenario ``position``; the other seats stay
    empty, so nothing moves while the page is read. The hint's text and reason."""
    players = len(position["players"])
    room = server.open_room(RoomOptions(GameConfig(players=players), hints=True, seed=3,
                                        choice_timeout_s=300))
    page.goto(f"{server.base}/#/room/{room.code}")
    join_seat(page, "Ana")
    server.call(lambda: room.start(scenario_from_data(position)))
    wait_playing(page)
    return page.get_by_test_id("hint-text"), page.get_by_test_id("hint-reason")


#: tests/scenarios/hints/take_hardest_first.yaml: Ana replaces a defused card at Insane, where
#: every card must be finished.
TAKE_HARDEST = yaml.safe_load(
    (ROOT / "tests" / "scenarios" / "hints" / "take_hardest_first.yaml").read_text())

#: tests/scenarios/hints/take_next_roll.yaml: the bag holds no red die, so Ana takes the card
#: that wants blues rather than the one that wants reds
TAKE_NEXT_ROLL = yaml.safe_load(
    (ROOT / "tests" / "scenarios" / "hints" / "take_next_roll.yaml").read_text())

#: tests/scenarios/hints/last_bomb.yaml: one bomb is left in the middle, and Ana's Red 6 completes
#: her REDS, which takes it: the team wins
LAST_BOMB = yaml.safe_load((ROOT / "tests" / "scenarios" / "hints" / "last_bomb.yaml").read_text())

#: a hint and its reason: (position, screenshot name, card, English phrases, Spanish phrases,
#: English words the Spanish page must not show)
REASON_HINTS = {
    "smallest": (TAKE_SMALLEST, "play-hint-take", "F06",
                 ("the smallest card in the row (fewest slots and points", "leave the big ones for last"),
                 ("la carta más pequeña de la fila (menos casillas y puntos",
                  "deja las grandes para el final"),
                 "smallest|slots|leave"),
    "hardest at insane": (TAKE_HARDEST, "play-hint-take-hardest", "F15",
                          ("the hardest card in the row", "leave the quick ones for the end"),
                          ("la carta más difícil de la fila", "deja las rápidas para el final"),
                          "hardest|quick|finished"),
    "the dice in the bag": (TAKE_NEXT_ROLL, "play-hint-take-next-roll", "TWO_BLUES",
                            ("the card the dice in the bag fit", "rather than TWO_REDS",
                             "the team’s next roll should do about"),
                            ("la carta a la que mejor se ajustan los dados de la bolsa",
                             "en vez de TWO_REDS", "la próxima tirada del equipo"),
                            "the bag|rather|next roll"),
    "a completion that wins": (LAST_BOMB, "play-hint-wins", "REDS",
                               ("this roll takes the last bomb from the middle, and the team wins",),
                               ("esta tirada se lleva la última bomba del centro, y el equipo gana",),
                               "last|middle|wins"),
}


@pytest.mark.parametrize("case", REASON_HINTS)
def test_a_hint_is_shown_with_its_reason_in_words(server: Server, browser: Browser, case: str) -> None:
    position, shot_name, card, english, spanish, not_spanish = REASON_HINTS[case]
    for name, page in viewport_pages(browser):
        text, reason = hinted_position(server, page, position)
        if name == "desktop":
            expect(text).to_contain_text(card)
            for phrase in english:
                expect(reason).to_contain_text(phrase)
            shot(page, f"{shot_name}-{name}")
            page.get_by_test_id("lang-switch").select_option("es")
        for phrase in spanish:
            expect(reason).to_contain_text(phrase)
        expect(reason).not_to_contain_text(re.compile(not_spanish))
        shot(page, f"{shot_name}-{name}-es")


def test_the_clock_shows_the_bombs_taken_against_the_pace_line(server: Server, browser: Browser) -> None:
    # one bomb left of the 21 a 3-player Standard game starts with, and a minute on the clock: the
    # line (a bomb every 25 s) emptied the middle at 8:45, so the table is a bomb behind it
    position = {**LAST_BOMB, "time_left": 60}
    for name, page in viewport_pages(browser):
        hinted_position(server, page, position)
        gauge = page.get_by_test_id("pace")
        expect(gauge).to_be_visible()
        expect(gauge).to_have_attribute("data-level", "behind")
        if name == "desktop":
            expect(gauge).to_have_text(re.compile(r"Pace\s*1 behind", re.I))
            expect(gauge).to_have_attribute("title", re.compile("a bomb every 25 s"))
            shot(page, f"play-pace-{name}")
            page.get_by_test_id("lang-switch").select_option("es")
        expect(gauge).to_have_text(re.compile(r"Ritmo\s*1 por detrás", re.I))
        expect(gauge).to_have_attribute("title", re.compile("una bomba cada 25 s"))
        shot(page, f"play-pace-{name}-es")


def test_the_gauge_turns_red_later_at_four_players(server: Server, browser: Browser) -> None:
    # four bombs left in the middle with a minute on the clock: four behind the line, red at three
    # players, amber at four, whose tables catch up late (the server says where red begins)
    behind = {**LAST_BOMB, "row": ["F01", "F02", "F03", "F04"], "time_left": 60}
    four = {**behind, "config": {"players": 4, "difficulty": "standard"},
            "players": [*LAST_BOMB["players"], [{"id": "GREENS", "notation": "G G", "points": 1}]]}
    ctx = browser.new_context(viewport=VIEWPORTS["desktop"])
    try:
        for position, level, red_from in ((behind, "far", 3), (four, "behind", 5)):
            page = ctx.new_page()
            hinted_position(server, page, position)
            gauge = page.get_by_test_id("pace")
            expect(gauge).to_have_text(re.compile(r"Pace\s*4 behind", re.I))
            expect(gauge).to_have_attribute("data-level", level)
            expect(gauge).to_have_attribute("title", re.compile(f"{red_from} or more behind, speed up"))
            page.close()
    finally:
        ctx.close()


def test_the_minute_mark_says_the_pace(server: Server, browser: Browser) -> None:
    # a second past a minute left, with the table a bomb behind the line: the mark says both
    ctx = browser.new_context(viewport=VIEWPORTS["desktop"])
    ctx.add_init_script("window.__said = [];"
                        "window.speechSynthesis.speak = (u) => window.__said.push(u.text);")
    try:
        page = ctx.new_page()
        hinted_position(server, page, {**LAST_BOMB, "time_left": 61})
        page.wait_for_function("window.__said.length > 0", timeout=10_000)
        assert page.evaluate("window.__said") == ["1 minute remaining. Pace: 1 behind."]
    finally:
        ctx.close()


#: tests/scenarios/hints/penalty_free.yaml and penalty_cost.yaml: nothing rolled fits Ana's card,
#: and the dice left for the penalty cost nothing (no die is on any card yet) or a little
PENALTY_HINTS = {name: yaml.safe_load((ROOT / "tests" / "scenarios" / "hints" / f"{name}.yaml").read_text())
                 for name in ("penalty_free", "penalty_cost")}


@pytest.mark.parametrize("case", PENALTY_HINTS)
def test_a_die_left_for_the_penalty_is_hinted_with_what_it_costs(server: Server, browser: Browser,
                                                                 case: str) -> None:
    position = PENALTY_HINTS[case]
    advice = {h.seat: h for h in hint(scenario_from_data(position))}[0].advice
    assert advice["kind"] == "done"
    # the page gives the reason the command line gives (after its "Say done: "), and in Spanish
    # the same cost (the page names the dice its own way)
    english = hint_reason(advice, "en", seat=0).split(": ", 1)[1]
    spanish = hint_reason(advice, "es", seat=0).split("penalización", 1)[1]
    assert ("costs nothing" in english) == (case == "penalty_free")
    for name, page in viewport_pages(browser):
        text, reason = hinted_position(server, page, position)
        if name == "desktop":
            expect(text).to_contain_text("Say you are done")
            expect(reason).to_have_text(f"— {english}")
            shot(page, f"play-hint-{case.replace('_', '-')}-{name}")
            page.get_by_test_id("lang-switch").select_option("es")
        expect(reason).to_contain_text(spanish)
        shot(page, f"play-hint-{case.replace('_', '-')}-{name}-es")


#: tests/scenarios/hints/finish_first.yaml: one bomb is left in the middle; Ana's Yellow 2 does
#: more on her F42, but F43 is the card she can finish first.
FINISH_FIRST = yaml.safe_load((ROOT / "tests" / "scenarios" / "hints" / "finish_first.yaml").read_text())


def test_late_in_the_game_the_hint_says_which_card_can_wait(server: Server, browser: Browser) -> None:
    for name, page in viewport_pages(browser):
        text, reason = hinted_position(server, page, FINISH_FIRST)
        if name == "desktop":
            expect(text).to_contain_text("F43")
            expect(reason).to_contain_text("only 1 bomb is left in the middle")
            expect(reason).to_contain_text(re.compile(r"so F42.* will likely never need finishing"))
            shot(page, f"play-hint-focus-{name}")
            page.get_by_test_id("lang-switch").select_option("es")
        expect(reason).to_contain_text("solo queda 1 bomba en el centro")
        expect(reason).to_contain_text(re.compile(r"no hará falta terminar F42"))
        expect(reason).not_to_contain_text(re.compile("bomb is|middle|finishing"))
        shot(page, f"play-hint-focus-{name}-es")


#: tests/scenarios/hints/next_roll.yaml: the bag holds no red die, so Ana's PAIR is told to take
#: the Blue 1, not the Red 1 the roll alone would have given her.
NEXT_ROLL = yaml.safe_load((ROOT / "tests" / "scenarios" / "hints" / "next_roll.yaml").read_text())


def test_a_hint_the_next_roll_changed_says_why(server: Server, browser: Browser) -> None:
    for name, page in viewport_pages(browser):
        text, reason = hinted_position(server, page, NEXT_ROLL)
        if name == "desktop":
            expect(text).to_contain_text("PAIR")
            expect(reason).to_contain_text(re.compile(r"rather than the Red 1 on PAIR"))
            expect(reason).to_contain_text("the team’s cards want dice the bag still holds")
            expect(reason).to_contain_text(re.compile(r"the next roll should do about [0-9.]+ dice more"))
            shot(page, f"play-hint-next-roll-{name}")
            page.get_by_test_id("lang-switch").select_option("es")
        expect(reason).to_contain_text(re.compile(r"en vez del dado rojo 1 en PAIR"))
        expect(reason).to_contain_text("dados que aún quedan en la bolsa")
        expect(reason).not_to_contain_text(re.compile("rather|bag still|next roll"))
        shot(page, f"play-hint-next-roll-{name}-es")


def test_a_die_given_up_to_a_fuse_card_shows_its_cause_in_words(server: Server,
                                                                context: BrowserContext) -> None:
    page = context.new_page()
    start_fuse_went_off(server, page, hints=False)
    notice = page.get_by_test_id("removal-reason")
    expect(notice).to_contain_text("Fuse card FZR (Red) went off: each player gives up one matching die")
    page.get_by_test_id("lang-switch").select_option("es")
    expect(notice).to_contain_text("Ha saltado la carta de mecha FZR (Rojo): cada jugador entrega un dado")
    page.locator(".hand[data-seat='0'] g.slot.giveable").first.click()
    log = page.get_by_test_id("event-log")
    expect(log).to_contain_text(
        re.compile(r"Ana devuelve el dado rojo [15] de \w+ a la bolsa \(carta de mecha FZR: Rojo\)"))
    expect(page.get_by_test_id("removal-reason")).to_have_count(0)
    page.get_by_test_id("lang-switch").select_option("en")
    expect(page.get_by_test_id("event-log")).to_contain_text(
        re.compile(r"Ana returns the Red [15] from \w+ to the bag \(fuse card FZR: Red\)"))


def logged_game(server: Server) -> int:
    """A one-player game played to its end by the team planner and kept in the server's log."""
    options = parse_options({"players": 1, "difficulty": "training", "seed": 5})
    state = new_game(options.config, 5)
    record = GameRecord(options.config, 5)
    planner = TeamPlanner()
    for _ in range(2000):
        if state.outcome is not None:
            break
        action = next(h.action for h in hint(state, planner) if h.action is not None)
        action = with_time(action, state.time_ms)
        state.apply(action)
        record.actions.append(action)
    entry = entry_from_state(state, record, ["Ana"], 0, options.to_dict())
    log_id: int = server.app.state.storage.save_game(entry)
    return log_id


def test_a_replay_that_answers_late_does_not_draw_over_the_next_page(server: Server,
                                                                     browser: Browser) -> None:
    # the player opens a replay and goes back to the log before the server has sent the replay
    log_id = logged_game(server)
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        held: list[Any] = []
        page.route(f"**/api/log/{log_id}/replay", lambda route: held.append(route))
        page.goto(f"{server.base}/#/log/{log_id}")
        for _ in range(200):
            if held:
                break
            page.wait_for_timeout(25)
        assert held, "the replay was never asked for"
        page.get_by_test_id("nav-log").click()
        rows = page.get_by_test_id("log-row")
        expect(rows.first).to_be_visible()
        held[0].continue_()  # the replay arrives now
        page.wait_for_load_state("networkidle")
        expect(page.locator("#app")).to_have_attribute("data-page", "log")
        expect(rows.first).to_be_visible()
        expect(page.get_by_test_id("replay-slider")).to_have_count(0)
    finally:
        ctx.close()


def test_the_replay_viewer_tells_each_step_in_words(server: Server, browser: Browser) -> None:
    log_id = logged_game(server)
    steps: list[dict[str, Any]] = httpx.get(f"{server.base}/api/log/{log_id}/replay").json()["steps"]
    place = next(i for i, st in enumerate(steps) if st["act"] and st["act"]["verb"] == "place")
    done = next(i for i, st in enumerate(steps) if st["act"] and st["act"]["verb"] == "done")
    act, die = steps[place]["act"], steps[place]["events"][0]["die"]

    def colour(lang: str) -> str:
        words = (COLOUR_WORDS[lang][c] for c in die["colours"].split("/"))
        return "/".join(w.lower() if lang == "es" else w for w in words)  # "el dado rojo 5"

    card, slot = act["card"], act["slot"] + 1
    expected = {"en": (f"Ana places the {colour('en')} {die['face']} on {card} (slot {slot})", "Ana is done"),
                "es": (f"Ana coloca el dado {colour('es')} {die['face']} en {card} (casilla {slot})",
                       "Ana ha terminado")}
    for name, viewport in VIEWPORTS.items():
        ctx = browser.new_context(viewport=viewport)
        try:
            langs = ["en", "es"] if name == "desktop" else ["es"]
            if name == "phone":
                in_spanish(ctx)
            page = ctx.new_page()
            page.goto(f"{server.base}/#/log/{log_id}")
            what, info = page.get_by_test_id("step-action"), page.get_by_test_id("replay-step")
            for lang in langs:
                if lang != langs[0]:
                    page.get_by_test_id("lang-switch").select_option(lang)
                page.get_by_test_id("replay-slider").fill(str(done))
                expect(what).to_have_text(expected[lang][1])
                page.get_by_test_id("replay-slider").fill(str(place))
                expect(what).to_have_text(expected[lang][0])
                expect(page.locator("[data-page='replay']")).to_have_attribute("data-step", str(place))
                # words only: no action text (p0, d12, @1500) on the page
                expect(info).not_to_contain_text(re.compile(r"\bp\d+\b|\bd\d+\b|@\d"))
                shot(page, f"replay-{name}-{lang}")
        finally:
            ctx.close()


def timed_logged_game(server: Server) -> int:
    """A 3-player Standard game played by the planner in play at the default pace (its clock
    running), kept in the server's log."""
    options = parse_options({"players": 3, "difficulty": "standard", "seed": 5})
    record = play_game(options.config, 5, get_policy("play"), Pace(), record=True).record
    assert record is not None
    state = new_game(options.config, 5)
    for action in record.actions:
        state.apply(action)
    log_id: int = server.app.state.storage.save_game(entry_from_state(state, record, ["Ana", "Bo", "Cy"], 2,
                                                                       options.to_dict()))
    return log_id


def test_the_replay_pictures_the_bombs_taken_against_the_pace_line(server: Server, browser: Browser) -> None:
    log_id = timed_logged_game(server)
    replay = httpx.get(f"{server.base}/api/log/{log_id}/replay").json()
    steps, pace = replay["steps"], replay["pace"]
    # 21 bombs on the 10-minute clock; the bombs taken from the deal on, each at the step that took it
    assert (pace["needed"], pace["every_ms"], pace["clock_ms"]) == (21, 25_000, 600_000)
    taken = pace["taken"]
    assert taken[0] == [0, 0, 0]
    assert [n for _, n, _ in taken] == sorted({n for _, n, _ in taken})  # one entry a change, rising
    assert all(steps[step]["time_ms"] == ms for ms, _, step in taken)
    line = PaceLine(21, 600_000)

    def at(ms: int) -> int:
        return max(n for t, n, _ in taken if t <= ms)

    words = {step: "on the line" if step == 0 else f"{abs(step)} {'ahead' if step > 0 else 'behind'}"
             for step in range(-21, 22)}
    expected = [f"after {m} min: {words[line.step(at(m * 60_000), m * 60_000)]}" for m in (3, 5)]
    for name, viewport in VIEWPORTS.items():
        ctx = browser.new_context(viewport=viewport)
        try:
            page = ctx.new_page()
            page.goto(f"{server.base}/#/log/{log_id}")
            chart = page.get_by_test_id("pace-chart")
            expect(chart).to_be_visible()
            summary = page.get_by_test_id("pace-summary")
            for phrase in expected:
                expect(summary).to_contain_text(phrase)
                expect(chart).to_have_attribute("aria-label", re.compile(re.escape(phrase)))
            # a tap on the picture at five minutes goes to the step played then
            replay_page = page.locator("[data-page='replay']")
            # the first step is on the table before the tap (its data-step is set once it is drawn)
            expect(replay_page).to_have_attribute("data-step", "0")
            box = chart.locator("svg").bounding_box()
            assert box is not None
            chart.click(position={"x": box["width"] * (30 + 320 * 0.5) / 360, "y": box["height"] / 2})
            expect(replay_page).to_have_attribute("data-step", re.compile(r"^[1-9][0-9]*$"))
            step = int(replay_page.get_attribute("data-step") or 0)
            assert 290_000 <= steps[step]["time_ms"] <= 330_000
            if (steps[step]["act"] or {}).get("verb") == "tick":  # a turn's time, not the clock's end
                expect(page.get_by_test_id("step-action")).to_have_text("The turn’s time passes")
            # the mark of the moment shown has moved there (30 + 320 units across ten minutes)
            mark = chart.locator("line.now")
            expect(mark).to_have_count(1)
            expect(mark).not_to_have_attribute("x1", "30.0")
            x1 = float(mark.get_attribute("x1") or 0)
            assert abs(x1 - (30 + 320 * steps[step]["time_ms"] / 600_000)) < 0.06
            shot(page, f"replay-pace-{name}")
        finally:
            ctx.close()


def test_every_card_on_the_table_says_what_it_asks_for_in_the_page_s_language(
        base: str, context: BrowserContext) -> None:
    context.add_init_script("localStorage.setItem('fuse.lang', 'es')")
    page = context.new_page()
    create_room(page, base, players=1)
    join_seat(page, "Ana")
    page.get_by_test_id("ready-button").click()
    wait_playing(page)
    cards = page.locator(".card-wrap")
    expect(cards.first).to_be_visible()
    said = re.compile(r"^.+: (Un dado|(Dos|Tres|Cuatro|Cinco|Seis) dados).*"
                      r"(Vale \d+ puntos?|sin puntos.*)\.$")
    for i in range(cards.count()):  # the hand and the row, each in Spanish words, none in notation
        expect(cards.nth(i)).to_have_attribute("title", said)
    label = cards.first.locator("svg").get_attribute("aria-label") or ""
    assert label.startswith("Carta ") and ("dados" in label or "Un dado" in label)
    # alone at the table: no team talk to show
    expect(page.get_by_test_id("chat-input")).to_be_hidden()
    expect(page.get_by_test_id("signal-need")).to_be_hidden()
