"""The BDT Log's replay as a table one watches: in Debian's Chromium against a real server.

At a laptop's size (1280×800) and a phone's (390×844), a five-player FUSE game and a FUSE: Countdown
game (tall cards, long hands) show the whole table (the roll, the row or stacks, every hand and
every card), the controls and the step's words on one screen without scrolling, the game's review
beside them (under them on a phone); Next and the arrow keys move the table that is in view; the
address names the step (``#/log/ID?step=N``), opens it and follows the replay without filling the
history; play runs at 1×, 2× and 4×; the page speaks Spanish. Screenshots go under
``artifacts/screenshots`` (not committed).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from test_browser import VIEWPORTS, browser, in_spanish, shot  # noqa: F401

from fusegame import new_game
from fusegame.server.app import create_app
from fusegame.server.options import parse_options
from fusegame.server.storage import entry_from_state
from fusegame.sim import Pace, get_policy, play_game
from fusegame.words import catalogue
from liveserver import Server, served

pytestmark = pytest.mark.timeout(240)

#: The deals: a full FUSE table and a Countdown table, each played by the planner at the pace of play.
GAMES: dict[str, tuple[dict[str, Any], list[str]]] = {
    "fuse5": ({"players": 5, "difficulty": "standard", "seed": 7}, ["Ana", "Bo", "Cy", "Dee", "Eve"]),
    "countdown": ({"game": "countdown", "players": 4, "difficulty": "standard", "seed": 7},
                  ["Ana", "Bo", "Cy", "Dee"]),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("replay-table") / "fuse.db"
    with served(create_app(f"sqlite:///{db}")) as s:
        yield s


def log_game(server: Server, options: dict[str, Any], names: list[str]) -> int:
    """A game played by the planner at the pace of play (its clock running), kept in the log."""
    opts = parse_options(options)
    seed = options["seed"]
    record = play_game(opts.config, seed, get_policy("play"), Pace(), record=True).record
    assert record is not None
    state = new_game(opts.config, seed)
    for action in record.actions:
        state.apply(action)
    entry = entry_from_state(state, record, names, 0, opts.to_dict())
    log_id: int = server.app.state.storage.save_game(entry)
    return log_id


@pytest.fixture(scope="module")
def games(server: Server) -> dict[str, int]:
    return {name: log_game(server, options, names) for name, (options, names) in GAMES.items()}


def steps_of(server: Server, log_id: int) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = httpx.get(f"{server.base}/api/log/{log_id}/replay").json()["steps"]
    return steps


def open_step(page: Page, server: Server, log_id: int, step: int | str) -> None:
    page.goto(f"{server.base}/#/log/{log_id}?step={step}")


def shown_step(page: Page) -> int:
    """The step the table shows (set once it is drawn)."""
    return int(page.locator("[data-page='replay']").get_attribute("data-step") or -1)


def wait_step(page: Page, step: int) -> None:
    expect(page.locator("[data-page='replay']")).to_have_attribute("data-step", str(step))


def box_of(page: Page, selector: str) -> list[dict[str, float]]:
    """The bounding boxes of what ``selector`` matches, as drawn (none for what is not displayed)."""
    boxes: list[dict[str, float]] = page.evaluate("""(sel) => [...document.querySelectorAll(sel)]
      .map((e) => e.getBoundingClientRect()).filter((b) => b.width > 0)
      .map((b) => ({left: b.left, top: b.top, right: b.right, bottom: b.bottom}))""", selector)
    return boxes


def outside(boxes: list[dict[str, float]], width: float, height: float) -> list[dict[str, float]]:
    return [b for b in boxes
            if b["left"] < -1 or b["top"] < -1 or b["right"] > width + 1 or b["bottom"] > height + 1]


CONTROLS = ["replay-first", "replay-prev", "replay-play", "replay-next", "replay-last", "replay-slider",
            "replay-speed-1", "replay-speed-2", "replay-speed-4"]


@pytest.mark.parametrize("size", list(VIEWPORTS))
@pytest.mark.parametrize("game", list(GAMES))
def test_the_whole_table_and_the_controls_are_on_one_screen(server: Server, browser: Browser,  # noqa: F811
                                                             games: dict[str, int], game: str,
                                                             size: str) -> None:
    log_id = games[game]
    steps = steps_of(server, log_id)
    mid = len(steps) // 2
    viewport = VIEWPORTS[size]
    w, h = viewport["width"], viewport["height"]
    ctx = browser.new_context(viewport=viewport)
    try:
        page = ctx.new_page()
        open_step(page, server, log_id, mid)
        wait_step(page, mid)
        page.wait_for_load_state("networkidle")
        players = len(GAMES[game][1])
        expect(page.locator(".replay-board .hand")).to_have_count(players)  # every hand, nobody's "own"
        assert page.evaluate("window.scrollY") == 0
        cards = box_of(page, ".replay-board .card-wrap")
        hands = box_of(page, ".replay-board .hand")
        assert len(hands) == players and len(cards) >= players
        board = box_of(page, ".replay-board .roll") + box_of(page, ".replay-board .middle") + hands + cards
        assert not outside(board, w, h), f"the table goes off the screen: {outside(board, w, h)}"
        controls = [b for testid in CONTROLS for b in box_of(page, f"[data-testid='{testid}']")]
        assert len(controls) == len(CONTROLS), "a control is not shown"
        assert not outside(controls, w, h), f"a control is off the screen: {outside(controls, w, h)}"
        # the step's words: beside the table on a laptop, under it on a phone, in view on both
        words = box_of(page, ".replay-words")[0]
        table = box_of(page, ".replay-board .table")[0]
        assert not outside([words], w, h)
        if size == "desktop":
            assert words["left"] >= table["right"]
        else:
            assert words["top"] >= table["bottom"] - 1
        expect(page.get_by_test_id("step-action")).not_to_be_empty()
        # nothing on the table is drawn over: the controls, the words and the pace keep off it
        pace = box_of(page, "[data-testid='pace-chart']")
        for b in [*controls, words, *pace]:
            assert b["left"] >= table["right"] - 1 or b["top"] >= table["bottom"] - 1, b
        # cards are drawn at a size one can read: slots of at least 13 px on a phone, 22 on a laptop
        slot = page.evaluate(
            "parseFloat(getComputedStyle(document.querySelector('.replay-board')).getPropertyValue('--die'))")
        assert slot >= (22 if size == "desktop" else 13), slot
        # the game's review (being made, or made): beside the table on a laptop, under it on a phone
        expect(page.get_by_test_id("review-panel")).to_be_visible()
        review = box_of(page, "[data-testid='review-panel']")[0]
        assert review["left"] >= table["right"] - 1 or review["top"] >= table["bottom"] - 1, review
        assert not outside(board, w, h), "the review pushed the table off the screen"
        shot(page, f"replay-table-{game}-{size}")
    finally:
        ctx.close()


def place_step(steps: list[dict[str, Any]]) -> int:
    """A step after which a die is placed and nothing else happens."""
    return next(i for i in range(1, len(steps) - 1) if steps[i + 1]["act"]["verb"] == "place"
                and [e["kind"] for e in steps[i + 1]["events"]] == ["die_placed"])


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_next_and_the_arrow_keys_move_the_table_in_view(server: Server, browser: Browser,  # noqa: F811
                                                        games: dict[str, int], size: str) -> None:
    log_id = games["fuse5"]
    steps = steps_of(server, log_id)
    i = place_step(steps)
    act = steps[i + 1]["act"]
    slot_sel = f".replay-board svg.card[data-card='{act['card']}'] g.slot[data-slot='{act['slot']}']"
    viewport = VIEWPORTS[size]
    ctx = browser.new_context(viewport=viewport)
    try:
        page = ctx.new_page()
        open_step(page, server, log_id, i)
        wait_step(page, i)
        slot = page.locator(slot_sel)
        expect(slot).not_to_have_attribute("data-holds", re.compile(".*"))
        page.get_by_test_id("replay-next").click()
        wait_step(page, i + 1)
        # the die is on its card, and the card is on the screen: the move is seen where it happens
        expect(slot).to_have_attribute("data-holds", str(act["die"]))
        assert not outside(box_of(page, slot_sel), viewport["width"], viewport["height"])
        assert page.evaluate("window.scrollY") == 0
        page.keyboard.press("ArrowLeft")
        wait_step(page, i)
        expect(slot).not_to_have_attribute("data-holds", re.compile(".*"))
        page.keyboard.press("ArrowRight")
        wait_step(page, i + 1)
        expect(slot).to_have_attribute("data-holds", str(act["die"]))
        page.keyboard.press("End")
        wait_step(page, len(steps) - 1)
        page.keyboard.press("Home")
        wait_step(page, 0)
        expect(page.get_by_test_id("step-action")).to_have_text("the deal")
        # typing in a text field is not a step
        page.evaluate("""() => { const f = document.createElement('input'); f.type = 'text';
          f.dataset.testid = 'typing'; document.body.append(f); f.focus(); }""")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("End")
        page.wait_for_timeout(300)
        assert shown_step(page) == 0
    finally:
        ctx.close()


def test_the_address_names_the_step_and_follows_the_replay(server: Server, browser: Browser,  # noqa: F811
                                                           games: dict[str, int]) -> None:
    log_id = games["countdown"]
    last = len(steps_of(server, log_id)) - 1
    ctx = browser.new_context(viewport=VIEWPORTS["desktop"])
    try:
        page = ctx.new_page()
        open_step(page, server, log_id, 12)
        wait_step(page, 12)
        expect(page.get_by_test_id("replay-slider")).to_have_value("12")
        expect(page.get_by_test_id("replay-step")).to_contain_text(f"Step 12 of {last}")
        length = page.evaluate("history.length")
        page.get_by_test_id("replay-next").click()
        wait_step(page, 13)
        assert page.url.endswith(f"#/log/{log_id}?step=13")
        for key in ("ArrowRight", "ArrowRight", "ArrowLeft"):
            page.keyboard.press(key)
        wait_step(page, 14)
        page.get_by_test_id("replay-slider").fill("30")
        wait_step(page, 30)
        assert page.url.endswith(f"#/log/{log_id}?step=30")
        assert page.evaluate("history.length") == length, "moving through a game is not history"
        # an address typed or followed on the open page moves the table, without a new page
        page.evaluate("window.stillHere = true")
        page.evaluate(f"location.hash = '#/log/{log_id}?step=40'")
        wait_step(page, 40)
        assert page.evaluate("window.stillHere") is True
        # a step the game does not have: the nearest it has, and the address says which
        for asked, shown in ((100_000, last), (-5, 0), ("abc", 0)):
            open_step(page, server, log_id, asked)
            wait_step(page, shown)
            expect(page.get_by_test_id("replay-slider")).to_have_value(str(shown))
            page.wait_for_url(re.compile(rf"#/log/{log_id}\?step={shown}$"))
        # the plain address opens the deal
        page.goto(f"{server.base}/#/log/{log_id}")
        page.reload()
        wait_step(page, 0)
        page.wait_for_url(re.compile(rf"#/log/{log_id}\?step=0$"))
        # the shared address of a moment opens it in another browser
        other = browser.new_context(viewport=VIEWPORTS["phone"])
        try:
            shared = other.new_page()
            shared.goto(f"{server.base}/#/log/{log_id}?step=25")
            wait_step(shared, 25)
            expect(shared.get_by_test_id("replay-slider")).to_have_value("25")
        finally:
            other.close()
    finally:
        ctx.close()


def steps_played(page: Page, speed: int, ms: int) -> int:
    """From the deal, play at ``speed`` for ``ms``: the steps it went."""
    page.keyboard.press("Home")
    wait_step(page, 0)
    page.get_by_test_id(f"replay-speed-{speed}").click()
    expect(page.get_by_test_id(f"replay-speed-{speed}")).to_have_attribute("aria-pressed", "true")
    play = page.get_by_test_id("replay-play")
    play.click()
    expect(play).to_have_attribute("aria-pressed", "true")
    page.wait_for_timeout(ms)
    play.click()
    expect(play).to_have_attribute("aria-pressed", "false")
    page.wait_for_timeout(300)  # a step under way when paused is drawn
    return shown_step(page)


def test_play_at_4x_goes_faster_than_at_1x(server: Server, browser: Browser,  # noqa: F811
                                           games: dict[str, int]) -> None:
    log_id = games["fuse5"]
    last = len(steps_of(server, log_id)) - 1
    ctx = browser.new_context(viewport=VIEWPORTS["desktop"])
    try:
        page = ctx.new_page()
        open_step(page, server, log_id, 0)
        wait_step(page, 0)
        # the help says what a speed means: a fixed number of steps a second
        expect(page.get_by_test_id("replay-play")).to_have_attribute("title",
                                                                     re.compile("one step a second at 1×"))
        expect(page.get_by_test_id("replay-speed-4")).to_have_attribute("title", "Play 4 steps a second")
        slow = steps_played(page, 1, 3000)
        fast = steps_played(page, 4, 3000)
        assert 1 <= slow <= 4, slow
        assert fast >= 2 * slow and fast >= slow + 4, (slow, fast)
        page.wait_for_timeout(600)
        assert shown_step(page) == fast, "paused: the table stays"
        # played to the end, it stops there
        page.get_by_test_id("replay-slider").fill(str(last - 2))
        wait_step(page, last - 2)
        page.get_by_test_id("replay-play").click()
        wait_step(page, last)
        expect(page.get_by_test_id("replay-play")).to_have_attribute("aria-pressed", "false", timeout=5000)
    finally:
        ctx.close()


def test_the_replay_speaks_spanish(server: Server, browser: Browser, games: dict[str, int]) -> None:  # noqa: F811
    en, es = catalogue("en"), catalogue("es")
    log_id = games["fuse5"]
    steps = steps_of(server, log_id)
    i = place_step(steps)
    for size, viewport in VIEWPORTS.items():
        ctx: BrowserContext = browser.new_context(viewport=viewport)
        in_spanish(ctx)
        try:
            page = ctx.new_page()
            open_step(page, server, log_id, i + 1)
            wait_step(page, i + 1)
            expect(page.get_by_test_id("replay-step")).to_contain_text(f"Paso {i + 1} de {len(steps) - 1}")
            expect(page.get_by_test_id("replay-step")).to_contain_text("de partida")
            expect(page.get_by_test_id("step-action")).to_contain_text(re.compile(r"^\w+ coloca el dado "))
            expect(page.get_by_test_id("replay-slider")).to_have_attribute("aria-label", es["replay.step"])
            expect(page.get_by_test_id("replay-next")).to_have_attribute("aria-label", es["replay.next"])
            expect(page.get_by_test_id("replay-play")).to_have_attribute("title", es["replay.playHelp"])
            expect(page.get_by_role("group", name=es["replay.speedTitle"])).to_be_visible()
            expect(page.get_by_test_id("replay-score")).to_contain_text(
                es["replay.finalScore"] if size == "desktop" else es["score.total"])
            expect(page.get_by_test_id("pace-summary")).to_contain_text("frente a la línea de ritmo")
            if size == "desktop":
                expect(page.locator(".replay-keys")).to_have_text(es["replay.keys"])
            # none of the replay's English words on the page
            shown = page.evaluate("""() => {
              const out = document.body.innerText.split('\\n');
              for (const e of document.querySelectorAll('[title], [aria-label]')) {
                out.push(e.getAttribute('title') || '', e.getAttribute('aria-label') || '');
              }
              return out.map((s) => s.trim()).filter(Boolean);
            }""")
            english = {v for k, v in en.items()
                       if k.startswith(("replay.", "pace.")) and v != es[k] and "{" not in v}
            assert not english & set(shown), english & set(shown)
            shot(page, f"replay-table-es-{size}")
        finally:
            ctx.close()
