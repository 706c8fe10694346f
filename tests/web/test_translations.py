"""Everything the page says, in Spanish too: a string shown without its translation fails here.

The page's words are the catalogues the server serves (``GET /api/words/{lang}``, from
``fusegame/words/en.json`` and ``es.json``), which ``i18n.js`` fetches before the page is drawn: the
page shows them in either language, and says so in a fixed line when it cannot have them.

Two checks of the words themselves: the page's dictionaries have the same keys in both languages and a
Spanish word wherever the English one is a word; and with the page in Spanish, a walk through the
home page, the lobby, the table with its card choice, the legend, the end screen, the log, a replay,
the tutorial, the Ship's Computer and ``/cards?lang=es`` finds no English dictionary entry and no
English card name in what is shown (the text, the titles and labels, the words drawn in the card
pictures).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect
from test_browser import VIEWPORTS, browser, create_room, in_spanish, join_seat, logged_game  # noqa: F401
from test_layout import MUST_TAKE, OPENING, seat_ana

from fusegame.cards import builtin_catalogue
from fusegame.server.app import create_app
from fusegame.words import catalogue
from liveserver import Server, served

pytestmark = pytest.mark.timeout(300)

#: Entries whose words are the same in both languages (names, numbers, loan words).
SAME_IN_BOTH = {"nav.tutorial", "home.tutorial", "tutorial.title", "home.seconds", "game.fuse",
                "game.countdown", "seat.bot", "score.total", "log.bots", "log.bots_one", "advice.take",
                "advice.giveUpFor", "review.botMark", "review.time.roles"}
#: Entries whose Spanish leaves out a fact on purpose (none now: the engine's refusals come with
#: a reason code, worded in the page's language).
LEAVES_OUT: set[str] = set()

#: Everything a page shows: its text, its titles and labels, and the words in its SVG pictures.
SHOWN = """() => {
  const out = document.body.innerText.split('\\n');
  for (const e of document.querySelectorAll('[title], [aria-label], [placeholder]')) {
    for (const a of ['title', 'aria-label', 'placeholder']) {
      if (e.getAttribute(a)) out.push(e.getAttribute(a));
    }
  }
  for (const e of document.querySelectorAll('svg text, svg title')) out.push(e.textContent);
  return out.map((s) => s.trim()).filter(Boolean);
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("words") / "fuse.db"
    with served(create_app(f"sqlite:///{db}")) as s:
        yield s


def dictionaries(page: Page) -> tuple[dict[str, str], dict[str, str]]:
    d = page.evaluate("import('/i18n.js').then((m) => m.DICTS)")
    return d["en"], d["es"]


def test_the_page_speaks_from_the_served_catalogue(server: Server, browser: Browser) -> None:  # noqa: F811
    en, es = catalogue("en"), catalogue("es")
    ctx = browser.new_context(locale="en-US")
    try:
        page = ctx.new_page()
        asked: list[str] = []
        page.on("request", lambda r: asked.append(r.url.rsplit("/", 1)[1]) if "/api/words/" in r.url
                else None)
        page.goto(server.base + "/")
        expect(page.get_by_role("heading", level=1)).to_have_text(en["home.title"])
        expect(page.get_by_test_id("nav-log")).to_have_text(en["nav.log"])
        assert sorted(asked) == ["en", "es"], "both catalogues, fetched once each"
        page.get_by_test_id("lang-switch").select_option("es")
        expect(page.get_by_role("heading", level=1)).to_have_text(es["home.title"])
        expect(page.get_by_test_id("nav-log")).to_have_text(es["nav.log"])
        expect(page.locator("html")).to_have_attribute("lang", "es")
        # a placeholder with a Python format spec is filled like a plain one
        filled = page.evaluate("import('/i18n.js').then((m) => m.tOr('no.key', '{n:,} and {n}', {n: 7}))")
        assert filled == "7 and 7"
    finally:
        ctx.close()


def test_a_page_without_its_words_says_so(server: Server, browser: Browser) -> None:  # noqa: F811
    """One catalogue missing: the other stands in; both missing: a fixed line, not a blank page."""
    es = catalogue("es")
    ctx = browser.new_context(locale="en-US")
    try:
        page = ctx.new_page()
        page.route("**/api/words/en", lambda route: route.fulfill(status=503, body="{}"))
        page.goto(server.base + "/")
        expect(page.get_by_role("heading", level=1)).to_have_text(es["home.title"])
        page.close()
        page = ctx.new_page()
        page.route("**/api/words/*", lambda route: route.abort())
        page.goto(server.base + "/")
        expect(page.locator("#app")).to_have_attribute("data-page", "no-words")
        expect(page.locator("#app")).to_contain_text("could not load its words")
        expect(page.locator("#app")).to_contain_text("no pudo cargar sus textos")
    finally:
        ctx.close()


def test_every_entry_of_the_page_s_dictionary_is_in_both_languages(server: Server,
                                                                    browser: Browser) -> None:  # noqa: F811
    page = browser.new_page()
    try:
        page.goto(server.base + "/")
        en, es = dictionaries(page)
        assert sorted(set(en) - set(es)) == [], "English entries with no Spanish"
        assert sorted(set(es) - set(en)) == [], "Spanish entries with no English"
        same = {k for k in en if en[k] == es[k] and re.search(r"[A-Za-z]{2}", re.sub(r"\{\w+\}", "", en[k]))}
        assert same <= SAME_IN_BOTH, f"not translated: {sorted(same - SAME_IN_BOTH)}"
        # the same placeholders on both sides: nothing said in one language is lost in the other
        for k in set(en) - LEAVES_OUT:
            assert sorted(re.findall(r"\{(\w+)\}", en[k])) == sorted(re.findall(r"\{(\w+)\}", es[k])), k
    finally:
        page.close()


def english_shown(page: Page, english: set[str]) -> list[str]:
    return sorted({s for s in page.evaluate(SHOWN) if s in english})


def test_a_spanish_page_shows_no_english(server: Server, browser: Browser) -> None:  # noqa: F811
    log_id = logged_game(server)
    ctx = browser.new_context(viewport=VIEWPORTS["desktop"])
    in_spanish(ctx)
    try:
        page = ctx.new_page()
        page.goto(server.base + "/")
        en, es = dictionaries(page)
        catalogue = builtin_catalogue()
        names = {c.name for c in (*catalogue.bombs, *catalogue.sparks) if c.name}
        english = {v for k, v in en.items() if v != es[k] and "{" not in v and len(v) > 3} | names
        english |= {"SPARK", "ROLE", "1st", "last", "Every player returns one die that matches."}
        english |= {r.name for r in catalogue.roles}
        seen: dict[str, list[str]] = {}

        def look(where: str) -> None:
            found = english_shown(page, english)
            if found:
                seen[where] = found

        look("home")
        create_room(page, server.base, players=2)
        join_seat(page, "Ana")
        look("lobby")
        seat_ana(server, page, MUST_TAKE)
        expect(page.get_by_test_id("card-choice")).to_be_visible()
        expect(page.locator(".choice-text").first).not_to_be_empty()
        look("play: the card choice")
        page.get_by_test_id("legend-open").click()
        expect(page.get_by_test_id("legend").locator(".legend-item")).not_to_have_count(0)
        look("the legend")
        page.keyboard.press("Escape")
        seat_ana(server, page, {**OPENING, "time_left": 1})
        expect(page.get_by_test_id("end-screen")).to_be_visible(timeout=15_000)
        look("the end screen")
        page.goto(server.base + "/#/log")
        expect(page.get_by_test_id("log-row").first).to_be_visible()
        look("the log")
        page.goto(f"{server.base}/#/log/{log_id}")
        expect(page.get_by_test_id("replay-step")).to_be_visible()
        look("a replay")
        page.goto(server.base + "/#/tutorial")
        expect(page.locator("svg.card").first).to_be_visible()
        look("the tutorial")
        page.goto(server.base + "/#/computer")
        page.get_by_test_id("comp-c-game").select_option("countdown")
        expect(page.get_by_test_id("setup-sparks")).to_be_visible()
        look("the ship's computer")
        page.get_by_test_id("clock-start").click()
        look("the ship's computer: the clock")
        page.get_by_test_id("clock-defused").click()
        page.get_by_test_id("to-score").click()
        expect(page.get_by_test_id("score-form")).to_be_visible()
        look("the ship's computer: the score")
        page.goto(server.base + "/cards?lang=es")
        look("/cards")
        assert not seen, f"English on a Spanish page: {seen}"
    finally:
        ctx.close()


def test_a_refusal_of_the_rules_is_worded_in_the_page_s_language(server: Server,
                                                                   browser: Browser) -> None:  # noqa: F811
    """An ``illegal`` error frame carries its reason code and facts: the page says it in Spanish,
    and keeps the server's English for a code it does not know."""
    page = browser.new_page()
    try:
        page.goto(server.base + "/")
        said = page.evaluate("""async () => {
          const i18n = await import('/i18n.js');
          const words = await import('/words.js');
          i18n.setLang('es');
          const die = {id: 14, die: 'B4', colours: 'B', face: 4, as: null};
          const frame = (reason, params, message) => ({code: 'illegal', reason, params, message});
          return [
            words.refusalWords(frame('quota', {n: 2}, 'you may take at most 2 dice a turn')),
            words.refusalWords(frame('slot_first', {die, card: 'F03', slot: 2, first: 0}, 'B4 cannot go')),
            words.refusalWords(frame('give_up_first', {seats: [0, 2]}, 'first P1, P3 must')),
            words.refusalWords(frame('brand_new', {}, 'something new')),
          ];
        }""")
        assert said[0] == "Ahora no es posible: puedes coger como mucho 2 dados por turno"
        assert said[1].lower().startswith("ahora no es posible: el dado azul 4 no puede ir en f03, casilla 3")
        assert "casilla 1" in said[1] and "14" not in said[1]
        assert said[2] == "Ahora no es posible: primero J1, J3 debe elegir un dado para entregar"
        assert said[3] == "Ahora no es posible: something new"
    finally:
        page.close()
