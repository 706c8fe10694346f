"""The home page's quick start, tried as a new player would: one click to a game with bots, one
click to a room for friends, every other option folded under "More options" and remembered."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect
from test_browser import VIEWPORTS, browser, in_spanish, shot, wait_playing  # noqa: F401

from fusegame.server.app import create_app
from liveserver import Server, served

pytestmark = pytest.mark.timeout(240)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("home") / "fuse.db"
    with served(create_app(f"sqlite:///{db}")) as s:
        yield s


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_play_now_is_one_click_to_a_game_with_bots(server: Server, browser: Browser,  # noqa: F811
                                                   size: str) -> None:
    ctx = browser.new_context(viewport=VIEWPORTS[size])
    try:
        page = ctx.new_page()
        page.goto(server.base + "/")
        expect(page.get_by_test_id("more-options")).not_to_have_attribute("open", re.compile(".*"))
        expect(page.get_by_test_id("opt-seed")).to_be_hidden()
        play_now = page.get_by_test_id("play-now")
        expect(play_now).to_be_enabled()
        box = play_now.bounding_box()
        fold = VIEWPORTS[size]["height"]
        assert box is not None and box["y"] + box["height"] <= fold, "Play now is below the fold"
        shot(page, f"home-{size}")
        # the name is asked beside the button, and remembered for the next game
        name = page.get_by_test_id("quick-name")
        expect(name).to_be_visible()
        expect(name).to_have_value("")
        name.fill("Mara")
        play_now.click()
        wait_playing(page)
        seats = page.locator("[data-testid^='seat-']")
        expect(seats).to_have_count(4)  # the default: four players
        assert [seats.nth(i).get_attribute("data-kind") for i in range(4)] == ["human", "bot", "bot", "bot"]
        expect(page.get_by_test_id("my-name")).to_have_text("Mara")
        page.goto(server.base + "/")
        expect(page.get_by_test_id("quick-name")).to_have_value("Mara")
    finally:
        ctx.close()


def test_play_with_friends_opens_a_room_to_share(server: Server, browser: Browser) -> None:  # noqa: F811
    ctx = browser.new_context(viewport=VIEWPORTS["desktop"])
    in_spanish(ctx)
    try:
        page = ctx.new_page()
        page.goto(server.base + "/")
        expect(page.get_by_test_id("play-friends")).to_contain_text("Jugar con amigos")
        page.get_by_test_id("play-friends").click()
        page.wait_for_url(re.compile(r"#/room/[A-Z0-9]{12}$"))
        expect(page.get_by_test_id("room-link")).to_have_value(re.compile(r"#/room/[A-Z0-9]{12}$"))
        expect(page.get_by_test_id("join-name")).to_be_visible()  # nobody is seated yet: the friends come
    finally:
        ctx.close()


def test_more_options_are_remembered_and_used_by_play_now(server: Server, browser: Browser) -> None:  # noqa: F811
    ctx = browser.new_context(viewport=VIEWPORTS["desktop"])
    try:
        page = ctx.new_page()
        page.goto(server.base + "/")
        page.get_by_test_id("more-options").locator("summary").click()
        page.get_by_test_id("opt-players").fill("2")
        page.get_by_test_id("opt-difficulty").select_option("training")
        page.get_by_test_id("opt-untimed").check()
        page.get_by_test_id("opt-seed").fill("7")
        page.get_by_test_id("create-game").click()
        page.wait_for_url(re.compile(r"#/room/[A-Z0-9]{12}$"))
        page.goto(server.base + "/")
        page.reload()
        expect(page.get_by_test_id("quick-summary")).to_contain_text("2 players")
        page.get_by_test_id("more-options").locator("summary").click()
        expect(page.get_by_test_id("opt-players")).to_have_value("2")
        expect(page.get_by_test_id("opt-difficulty")).to_have_value("training")
        expect(page.get_by_test_id("opt-untimed")).to_be_checked()
        expect(page.get_by_test_id("opt-seed")).to_have_value("")  # a chosen deal is for one game only
        page.get_by_test_id("play-now").click()
        wait_playing(page)
        expect(page.locator("[data-testid^='seat-']")).to_have_count(2)
        expect(page.get_by_test_id("clock")).to_have_attribute("aria-label", re.compile("."))
        expect(page.locator(".computer.practice")).to_have_count(1)  # untimed, as chosen
    finally:
        ctx.close()
