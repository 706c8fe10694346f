"""A finished game's review in the page: in Debian's Chromium against a real server.

Two games played by greedy bots (one won at Training, one lost at Standard) are kept in the log;
their replays show the review beside the table at a laptop's size (1280×800) and under it on a
phone (390×844): the key moments in the sentences ``fuse review`` prints, each a click from the step
that shows it (the table, the slider and the address follow, the board and the controls stay in
view), where the time went, the dice lost, each player with the bots marked, and roll by roll
folded away. "Reviewing the game…" shows while the server makes it; a review that fails or has
nothing to review is one line, and a game played at a table shows none. The page says it all in
Spanish, and axe-core finds no serious problem with it. The end screen of a game links to its review
and names its key moments in a line each. Screenshots go under ``artifacts/screenshots``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from test_accessibility import serious
from test_browser import VIEWPORTS, browser, in_spanish, join_seat, shot, wait_playing  # noqa: F401
from test_replay_table import CONTROLS, box_of, outside, shown_step, wait_step

from fusegame import GameConfig
from fusegame.record import GameRecord, final_state
from fusegame.rules.actions import Tick
from fusegame.rules.config import Difficulty
from fusegame.server.app import create_app
from fusegame.server.options import RoomOptions
from fusegame.server.storage import BOT, PERSON, entry_from_state
from fusegame.sim import Pace, get_policy, play_game
from fusegame.words import catalogue
from fusegame.words.review import moment_words
from liveserver import Server, served

pytestmark = pytest.mark.timeout(300)

NAMES = ["Ana", "Bo", "Cy"]
#: Greedy bots' games: a win at Training and a loss at Standard (seeds that give each).
GAMES: dict[str, tuple[str, int]] = {"won": ("training", 3), "lost": ("standard", 2)}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("review-page") / "fuse.db"
    with served(create_app(f"sqlite:///{db}")) as s:
        yield s


def greedy_record(difficulty: str, seed: int) -> GameRecord:
    result = play_game(GameConfig(players=3, difficulty=Difficulty(difficulty)), seed, get_policy("greedy"),
                       Pace(), record=True)
    assert result.record is not None
    return result.record


def wait_review(server: Server, log_id: int) -> dict[str, Any]:
    """The game's review, asked for as the page asks (again while the server makes it)."""
    deadline = time.monotonic() + 180
    while True:
        r = httpx.get(f"{server.base}/api/log/{log_id}/review", timeout=30)
        if r.status_code == 200:
            review: dict[str, Any] = r.json()["review"]
            return review
        assert r.status_code == 202, r.text
        assert time.monotonic() < deadline, "the review never came"
        time.sleep(0.3)


@pytest.fixture(scope="module")
def games(server: Server) -> dict[str, tuple[int, dict[str, Any]]]:
    """name -> (log id, review): Ana played seat 1, bots the others."""
    out: dict[str, tuple[int, dict[str, Any]]] = {}
    for name, (difficulty, seed) in GAMES.items():
        record = greedy_record(difficulty, seed)
        state = final_state(record)
        assert state.outcome is not None and state.outcome.won is (name == "won")
        entry = entry_from_state(state, record, NAMES, 2, played_by=[PERSON, BOT, BOT])
        log_id = server.app.state.storage.save_game(entry)
        out[name] = (log_id, wait_review(server, log_id))
    for _, review in out.values():
        assert review["moments"], "a greedy team's game has key moments"
    return out


def open_replay(page: Page, server: Server, log_id: int, step: int = 0) -> None:
    page.goto(f"{server.base}/#/log/{log_id}?step={step}")
    wait_step(page, step)


def panel_text(page: Page) -> str:
    text: str = page.get_by_test_id("review-panel").inner_text()
    return text


def in_view(page: Page, what: list[dict[str, float]]) -> list[dict[str, float]]:
    vp = page.viewport_size
    assert vp is not None
    return outside(what, vp["width"], vp["height"])


def board_and_controls(page: Page) -> list[dict[str, float]]:
    boxes = box_of(page, ".replay-board .table")
    assert boxes, "the board is not drawn"
    controls = [b for testid in CONTROLS for b in box_of(page, f"[data-testid='{testid}']")]
    assert len(controls) == len(CONTROLS), "a control is not shown"
    return [*boxes, *controls]


@pytest.mark.parametrize("size", list(VIEWPORTS))
@pytest.mark.parametrize("game", list(GAMES))
def test_the_review_names_its_key_moments_and_each_opens_its_step(
        server: Server, browser: Browser, games: dict[str, tuple[int, dict[str, Any]]],  # noqa: F811
        game: str, size: str) -> None:
    log_id, review = games[game]
    moments = review["moments"]
    ctx = browser.new_context(viewport=VIEWPORTS[size])
    try:
        page = ctx.new_page()
        open_replay(page, server, log_id)
        links = page.get_by_test_id("review-moment")
        expect(links).to_have_count(len(moments), timeout=30_000)
        # the sentences of `fuse review`, word for word
        for i, m in enumerate(moments):
            expect(links.nth(i)).to_have_text(moment_words("en", m, NAMES))
            expect(links.nth(i)).to_have_attribute("href", f"#/log/{log_id}?step={m['step']}")
        expect(page.get_by_test_id("review-estimate")).to_be_visible()
        expect(page.get_by_test_id("review-estimate")).to_contain_text("estimate")
        expect(page.get_by_test_id("review-summary")).to_have_text(
            f"{review['judged']} of {review['rolls']} rolls judged; the team’s choices cost about "
            f"{review['cost']:.1f} dice of work in all.")
        expect(page.get_by_test_id("review-time")).to_contain_text("sharing the dice")
        expect(page.get_by_test_id("review-lost")).to_contain_text("Dice lost: ")
        # each player, the bots marked as bots
        players = page.get_by_test_id("review-player")
        expect(players).to_have_count(3)
        expect(players.nth(0)).to_have_text(re.compile(r"^Ana: \d+ dice placed"))
        for seat in (1, 2):
            expect(players.nth(seat)).to_have_attribute("data-bot", "true")
            expect(players.nth(seat)).to_have_text(re.compile(rf"^{NAMES[seat]} \(bot\): \d+ dice placed"))
        # roll by roll: folded away until asked for
        turns = page.get_by_test_id("review-turns")
        expect(turns).not_to_have_attribute("open", re.compile(".*"))
        expect(page.get_by_test_id("review-turn").first).to_be_hidden()
        # the review sits beside the board on a laptop, under it on a phone, never over it
        table = box_of(page, ".replay-board .table")[0]
        box = box_of(page, "[data-testid='review-panel']")[0]
        if size == "desktop":
            assert box["left"] >= table["right"] - 1
            assert not in_view(page, [box]), "the review's box goes off the screen"
        else:
            assert box["top"] >= table["bottom"] - 1
        assert not in_view(page, board_and_controls(page))
        assert page.evaluate("window.scrollY") == 0
        shot(page, f"review-{game}-{size}")
        # a click on a key moment: the table shows its step, the address says so, it is marked
        length = page.evaluate("history.length")
        for i in reversed(range(len(moments))):
            step = moments[i]["step"]
            link = links.nth(i)
            link.scroll_into_view_if_needed()
            link.click()
            wait_step(page, step)
            expect(page.get_by_test_id("replay-slider")).to_have_value(str(step))
            page.wait_for_url(re.compile(rf"#/log/{log_id}\?step={step}$"))
            expect(link).to_have_attribute("aria-current", "step")
            expect(page.locator("a.moment[aria-current]")).to_have_count(
                sum(1 for m in moments if m["step"] == step))
            page.wait_for_timeout(150)  # the table fitted to the step
            assert not in_view(page, board_and_controls(page)), f"moment {i}: the board or a control went off"
            assert shown_step(page) == step
        assert page.evaluate("history.length") == length, "moving through a game is not history"
        # the roll before the first moment's step: not a moment of its own, nothing marked
        page.keyboard.press("Home")
        wait_step(page, 0)
        expect(page.locator("a.moment[aria-current]")).to_have_count(
            sum(1 for m in moments if m["step"] == 0))
        # roll by roll: each roll links to its step
        turns.locator("summary").click()
        expect(turns).to_have_attribute("open", "")
        rows = page.get_by_test_id("review-turn")
        expect(rows).to_have_count(len(review["turns"]))
        turn = review["turns"][len(review["turns"]) // 2]
        row = rows.nth(len(review["turns"]) // 2)
        expect(row).to_have_text(re.compile(
            rf"^Roll {turn['turn']}: \d+ s, {len(turn['rolled'])} dice rolled"))
        row.scroll_into_view_if_needed()
        row.click()
        wait_step(page, turn["step"])
        page.wait_for_url(re.compile(rf"#/log/{log_id}\?step={turn['step']}$"))
        expect(page.locator(".turn-list li.current")).to_have_count(1)
        assert not in_view(page, board_and_controls(page))
    finally:
        ctx.close()


def review_words_shown(page: Page) -> list[str]:
    """The review panel's words, its titles and labels too."""
    shown: list[str] = page.evaluate("""() => {
      const panel = document.querySelector("[data-testid='review-panel']");
      const out = panel.innerText.split('\\n');
      for (const e of [panel, ...panel.querySelectorAll('[title], [aria-label]')]) {
        out.push(e.getAttribute('title') || '', e.getAttribute('aria-label') || '');
      }
      return out.map((s) => s.trim()).filter(Boolean);
    }""")
    return shown


def spanish_numbers(text: str) -> str:
    """Python's sentence as the page writes its numbers in Spanish (a decimal comma)."""
    return re.sub(r"(\d)\.(\d)", r"\1,\2", text)


def assert_spanish(page: Page, moments: list[dict[str, Any]]) -> None:
    en, es = catalogue("en"), catalogue("es")
    links = page.get_by_test_id("review-moment")
    expect(links).to_have_count(len(moments), timeout=30_000)
    for i, m in enumerate(moments):
        expect(links.nth(i)).to_have_text(spanish_numbers(moment_words("es", m, NAMES)))
    expect(page.get_by_test_id("review-panel")).to_have_attribute("aria-label", es["review.title"])
    text = panel_text(page)
    for key in ("review.keyMoments", "review.timeTitle", "review.lostTitle", "review.playersTitle",
                "review.turnsTitle", "review.estimateShort"):
        assert es[key].lower() in text.lower(), key
    expect(page.get_by_test_id("review-player").nth(1)).to_have_text(
        re.compile(r"^Bo \(bot\): \d+ dados colocados"))
    shown = review_words_shown(page)
    assert not [s for s in shown if "review." in s], "a catalogue key shown raw"
    english = {v for k, v in en.items() if k.startswith("review.") and v != es[k] and "{" not in v}
    assert not english & set(shown), english & set(shown)
    assert "the team did" not in text and "dice of work" not in text


def test_the_review_speaks_spanish(server: Server, browser: Browser,  # noqa: F811
                                   games: dict[str, tuple[int, dict[str, Any]]]) -> None:
    for name, (log_id, review) in games.items():
        for size, viewport in VIEWPORTS.items():
            # opened in Spanish
            ctx: BrowserContext = browser.new_context(viewport=viewport)
            in_spanish(ctx)
            try:
                page = ctx.new_page()
                open_replay(page, server, log_id, review["moments"][0]["step"])
                assert_spanish(page, review["moments"])
                shot(page, f"review-{name}-{size}-es")
            finally:
                ctx.close()
    # switched on the open page: the review is drawn again in Spanish, and back
    log_id, review = games["lost"]
    ctx = browser.new_context(viewport=VIEWPORTS["desktop"])
    try:
        page = ctx.new_page()
        open_replay(page, server, log_id)
        expect(page.get_by_test_id("review-moment")).to_have_count(len(review["moments"]), timeout=30_000)
        page.get_by_test_id("review-moment").first.click()
        wait_step(page, review["moments"][0]["step"])
        page.get_by_test_id("lang-switch").select_option("es")
        assert_spanish(page, review["moments"])
        # the moment shown is still marked in the panel drawn again
        expect(page.get_by_test_id("review-moment").first).to_have_attribute("aria-current", "step")
        page.get_by_test_id("lang-switch").select_option("en")
        expect(page.get_by_test_id("review-moment").first).to_have_text(
            moment_words("en", review["moments"][0], NAMES))
    finally:
        ctx.close()


def test_the_review_says_it_is_being_made_then_shows_it(server: Server, browser: Browser,  # noqa: F811
                                                        games: dict[str, tuple[int, dict[str, Any]]]) -> None:
    log_id, review = games["won"]
    ctx = browser.new_context(viewport=VIEWPORTS["desktop"])
    try:
        page = ctx.new_page()
        asked: list[str] = []
        # the server makes two other reviews first, then this one: 202 until the route is lifted
        page.route(f"**/api/log/{log_id}/review", lambda route: (
            asked.append(route.request.url),
            route.fulfill(status=202, content_type="application/json",
                          body=json.dumps({"status": "working", "ahead": max(0, 3 - len(asked))}))))
        open_replay(page, server, log_id)
        working = page.get_by_test_id("review-working")
        words = catalogue("en")
        expect(working).to_have_text(words["review.waiting"].replace("{n}", "2"))
        expect(working).to_have_text(words["review.waiting_one"])
        expect(working).to_have_text(words["review.working"])
        expect(working).to_have_attribute("role", "status")
        page.wait_for_timeout(2500)
        assert len(asked) >= 2, "asked again while it is made"
        page.unroute(f"**/api/log/{log_id}/review")
        expect(page.get_by_test_id("review-moment")).to_have_count(len(review["moments"]), timeout=10_000)
        expect(working).to_have_count(0)
    finally:
        ctx.close()


@pytest.mark.parametrize("status", [500, 404])
def test_a_review_that_cannot_be_had_is_one_line(server: Server, browser: Browser,  # noqa: F811
                                                 games: dict[str, tuple[int, dict[str, Any]]],
                                                 status: int) -> None:
    log_id, _ = games["lost"]
    ctx = browser.new_context(viewport=VIEWPORTS["desktop"])
    try:
        page = ctx.new_page()
        page.route(f"**/api/log/{log_id}/review", lambda route: route.fulfill(
            status=status, content_type="application/json", body='{"detail": "the record does not replay"}'))
        open_replay(page, server, log_id)
        panel = page.get_by_test_id("review-panel")
        expect(panel).to_be_visible()
        if status == 500:
            expect(panel).to_have_text("The review could not be made: the record does not replay")
        else:
            expect(panel).to_have_text(catalogue("en")["review.unavailable"])
        assert panel.locator("*").count() == 1, "one line, nothing more"
        assert not in_view(page, board_and_controls(page))
    finally:
        ctx.close()


def test_a_game_played_at_a_table_has_no_review(server: Server, browser: Browser) -> None:  # noqa: F811
    table = httpx.post(f"{server.base}/api/log/table", json={
        "options": {"game": "fuse", "players": 3, "difficulty": "standard"}, "won": True,
        "bombs": {"1": 4, "2": 5}}).json()
    ctx = browser.new_context(viewport=VIEWPORTS["desktop"])
    try:
        page = ctx.new_page()
        asked: list[str] = []
        page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/review") else None)
        page.goto(f"{server.base}/#/log/{table['id']}")
        expect(page.get_by_test_id("table-game")).to_be_visible()
        page.wait_for_timeout(1000)
        expect(page.get_by_test_id("review-panel")).to_have_count(0)
        assert not asked, "a game with no moves is not sent for review"
    finally:
        ctx.close()


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_replay_with_its_review_has_no_serious_accessibility_violation(
        server: Server, browser: Browser, games: dict[str, tuple[int, dict[str, Any]]],  # noqa: F811
        size: str) -> None:
    log_id, review = games["won"]
    ctx = browser.new_context(viewport=VIEWPORTS[size])
    try:
        page = ctx.new_page()
        open_replay(page, server, log_id)
        expect(page.get_by_test_id("review-moment")).to_have_count(len(review["moments"]), timeout=30_000)
        page.get_by_test_id("review-moment").first.click()  # a moment marked as the one shown
        wait_step(page, review["moments"][0]["step"])
        page.get_by_test_id("review-turns").locator("summary").click()  # roll by roll open
        problems = serious(page)
        assert not problems, "\n".join(problems)
    finally:
        ctx.close()


# ============================================================================ the end screen
def play_to_the_end(server: Server, page: Page, record: GameRecord) -> int:
    """Ana's page in a room whose game is the one in ``record`` (the same deal), its moves made on
    the server as they were recorded; returns the room's game's log id once it is stored."""
    config = record.config
    room = server.open_room(RoomOptions(config, bot_delay_ms=600_000, seed=record.seed, choice_timeout_s=600))

    def bots() -> None:
        for seat in (1, 2):
            room.seats[seat].kind, room.seats[seat].name = "bot", NAMES[seat]

    server.call(bots)
    page.goto(f"{server.base}/#/room/{room.code}")
    join_seat(page, "Ana")
    server.call(room.start)
    wait_playing(page)

    def play() -> None:
        for action in record.actions:
            if not isinstance(action, Tick):  # the room's clock stamps each move
                room.apply(action)

    server.call(play)
    expect(page.get_by_test_id("end-screen")).to_be_visible(timeout=30_000)
    expect(page.get_by_test_id("log-link")).to_be_visible(timeout=30_000)
    assert room.log_id is not None
    return room.log_id


def test_the_end_screen_links_to_the_review_and_names_its_key_moments(server: Server,
                                                                       browser: Browser) -> None:  # noqa: F811
    record = greedy_record(*GAMES["won"])
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = ctx.new_page()
        log_id = play_to_the_end(server, page, record)
        end = page.get_by_test_id("end-screen")
        lines = end.get_by_test_id("end-moment")
        expect(lines.first).to_be_visible(timeout=120_000)
        review = wait_review(server, log_id)
        moments = review["moments"][:3]
        expect(lines).to_have_count(len(moments))
        expect(end.get_by_test_id("end-review-working")).to_have_count(0)
        for i, m in enumerate(moments):
            line = lines.nth(i)
            expect(line).to_have_attribute("href", f"#/log/{log_id}?step={m['step']}")
            expect(line).to_have_text(re.compile(rf"^Roll {m['turn']}: \w.+ \(about .+ of work\)$"))
            expect(line).to_have_attribute("title", moment_words("en", m, NAMES))
            box = line.bounding_box()
            assert box is not None and box["height"] < 30, "one line each"
        link = end.get_by_test_id("review-link")
        expect(link).to_have_text("Review this game")
        expect(link).to_have_attribute("href", f"#/log/{log_id}?step={moments[0]['step']}")
        shot(page, "end-review")
        problems = serious(page)
        assert not problems, "\n".join(problems)
        page.set_viewport_size(VIEWPORTS["phone"])
        end.get_by_test_id("end-review").scroll_into_view_if_needed()
        shot(page, "end-review-phone")
        page.set_viewport_size({"width": 1280, "height": 900})
        # in Spanish too
        page.get_by_test_id("lang-switch").select_option("es")
        es = catalogue("es")
        expect(end.get_by_test_id("review-link")).to_have_text(es["review.open"])
        expect(end.get_by_test_id("end-review")).to_contain_text(es["review.keyMoments"])
        expect(lines.first).to_have_text(
            re.compile(rf"^Tirada {moments[0]['turn']}: \w.+ \(un.+ de trabajo\)$"))
        assert "review." not in end.inner_text()
        shot(page, "end-review-es")
        page.get_by_test_id("lang-switch").select_option("en")
        # the link opens the replay at the costliest moment, its review beside it
        end.get_by_test_id("review-link").click()
        wait_step(page, moments[0]["step"])
        expect(page.get_by_test_id("review-moment").first).to_have_attribute("aria-current", "step")
    finally:
        ctx.close()


# ============================================================================ the words
DIE_R3 = {"id": 1, "die": "R3", "colours": "R", "face": 3, "as": None}
DIE_B2 = {"id": 2, "die": "B2", "colours": "B", "face": 2, "as": None}
DIE_KY5 = {"id": 3, "die": "K/Y5", "colours": "K/Y", "face": 5, "as": None}
#: One moment of each kind, as the review's JSON has them.
MOMENTS: list[dict[str, Any]] = [
    {"kind": "roll", "turn": 4, "step": 12, "seat": None, "cost": 1.04, "unit": "dice", "why": "complete",
     "did": {"places": [{"seat": 0, "die": DIE_R3, "card": "F12", "slot": 2}]},
     "better": {"places": [{"seat": 1, "die": DIE_R3, "card": "F07", "slot": 1},
                           {"seat": 2, "die": DIE_KY5, "card": "F30", "slot": 3}]}},
    {"kind": "roll", "turn": 5, "step": 15, "seat": None, "cost": 2.46, "unit": "dice", "why": "idle",
     "did": {"places": []}, "better": {"places": [{"seat": 2, "die": DIE_B2, "card": "F01", "slot": 1}]}},
    {"kind": "take", "turn": 9, "step": 40, "seat": 1, "cost": 3.2, "unit": "dice", "why": "bigger_card",
     "did": {"card": "F44", "dice": 12.0}, "better": {"card": "F05", "dice": 8.8}},
    {"kind": "give_up", "turn": 11, "step": 52, "seat": 2, "cost": 0.7, "unit": "dice", "why": "costlier_die",
     "did": {"die": DIE_KY5, "card": "F20"}, "better": {"die": DIE_B2, "card": "F21"}},
    {"kind": "slow", "turn": 14, "step": 66, "seat": None, "cost": 31.2, "unit": "s", "why": "slow",
     "did": {"ms": 46200}, "better": {"ms": 15000}},
]


def test_every_kind_of_moment_is_said_as_fuse_review_says_it(server: Server,
                                                              browser: Browser) -> None:  # noqa: F811
    page = browser.new_page()
    try:
        page.goto(server.base + "/")
        expect(page.get_by_test_id("nav-log")).to_be_visible()
        for lang in ("en", "es"):
            said = page.evaluate("""async ([lang, moments, names]) => {
              const i18n = await import('/i18n.js');
              const review = await import('/review.js');
              i18n.setLang(lang);
              return moments.map((m) => [review.momentWords(m, names), review.momentLine(m, names)]);
            }""", [lang, MOMENTS, NAMES])
            for m, (sentence, line) in zip(MOMENTS, said, strict=True):
                want = moment_words(lang, m, NAMES)
                if lang == "es":
                    want = spanish_numbers(want)
                # the page writes a split die "Black/Yellow 5" where Python writes "Black/yellow 5"
                assert sentence.replace("/Yellow", "/yellow") == want, m["kind"]
                assert "{" not in line and "review." not in line and line.startswith(
                    f"{'Roll' if lang == 'en' else 'Tirada'} {m['turn']}: "), line
    finally:
        page.close()
