"""The page reads the table of decision kinds (``GET /api/options``: ``decision_kinds``): a timed
choice shows its clock and the kind's words, and every hand names what its seat is deciding."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect
from test_browser import VIEWPORTS, browser, start_fuse_went_off  # noqa: F401

from fusegame.rules.decision_kinds import KINDS
from fusegame.server.app import create_app
from liveserver import Server, served

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("kinds") / "fuse.db"
    with served(create_app(f"sqlite:///{db}")) as s:
        yield s


def test_a_timed_give_up_shows_its_clock_and_its_words(server: Server, browser: Browser) -> None:  # noqa: F811
    assert KINDS["give_up"].timed
    ctx = browser.new_context(viewport=VIEWPORTS["desktop"])
    try:
        page = ctx.new_page()
        start_fuse_went_off(server, page, hints=False)
        you = page.get_by_test_id("your-turn")
        expect(you).to_contain_text("Give up one of the highlighted dice")
        expect(page.get_by_test_id("auto-choice")).to_be_visible()
        expect(page.get_by_test_id("hand-0").locator(".tag.acting")).to_contain_text("giving up a die")
        kinds = page.evaluate("fetch('/api/options').then((r) => r.json()).then((o) => o.decision_kinds)")
        assert set(kinds) == set(KINDS) and kinds["give_up"]["words"] == "give_up"
    finally:
        ctx.close()
