"""The page against a server that misbehaves or refuses, in Debian's Chromium: a socket that goes
silent (the server stops writing to it) is noticed by the missing pong and opened again, and the
player is back in their seat; a refusal for too many requests is worded in the page's language."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, expect, sync_playwright

from fusegame import GameConfig
from fusegame.server.app import create_app
from fusegame.server.options import RoomOptions
from fusegame.server.room import Room
from liveserver import Server, served

pytestmark = pytest.mark.timeout(240)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A server of its own for each test: the rate limits count per address, and every request
    here comes from 127.0.0.1."""
    with served(create_app(f"sqlite:///{tmp_path / 'fuse.db'}")) as s:
        yield s


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


def test_a_silent_socket_is_noticed_and_the_player_is_back_in_their_seat(server: Server,
                                                                         context: BrowserContext) -> None:
    room: Room = server.call(lambda: server.app.state.lobby.open(RoomOptions(GameConfig(players=2), seed=3)))
    page = context.new_page()
    page.goto(f"{server.base}/#/room/{room.code}")
    page.get_by_test_id("join-name").fill("Ana")
    page.get_by_test_id("join-button").click()
    expect(page.get_by_test_id("ready-button")).to_be_visible()

    def seated() -> list[object]:
        return [c for c in room.clients if c.seat == 0]

    first = server.call(seated)
    assert len(first) == 1

    def silence() -> None:
        # the socket stays open but nothing reaches the page any more, pongs included: what a
        # send task that died, or a connection dropped without a word, looks like from the page
        first[0].send = lambda text: None  # type: ignore[method-assign]

    server.call(silence)
    t0 = time.monotonic()
    while True:
        now = server.call(seated)
        if now and now[0] is not first[0]:
            break
        assert time.monotonic() - t0 < 25, "the page did not notice its silent socket"
        time.sleep(0.2)
    waited = time.monotonic() - t0
    assert 8 < waited < 25  # about one ping and its wait, not at once and not the old 25 s
    # the new socket is the seat's: the page acts through it and sees the answer
    expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "open")
    page.get_by_test_id("fill-bots").click()
    expect(page.get_by_test_id("seat-1")).to_contain_text("Bot")
    assert server.call(lambda: room.seats[1].kind) == "bot"


def test_a_refusal_for_too_many_requests_is_told_in_the_page_s_language(server: Server,
                                                                       context: BrowserContext) -> None:
    context.add_init_script("localStorage.setItem('fuse.lang', 'es')")
    room: Room = server.call(lambda: server.app.state.lobby.open(RoomOptions(GameConfig(players=2))))
    page = context.new_page()
    page.goto(f"{server.base}/#/room/{room.code}")
    expect(page.get_by_test_id("join-name")).to_be_visible()
    # the joins this address may make in a minute, used up (by tries without a name) elsewhere
    with httpx.Client(base_url=server.base) as http:
        answers = {http.post(f"/api/rooms/{room.code}/join", json={"name": ""}).status_code
                   for _ in range(60)}
    assert answers == {422}
    page.get_by_test_id("join-name").fill("Ana")
    page.get_by_test_id("join-button").click()
    expect(page.get_by_test_id("error-toast")).to_contain_text("Demasiadas peticiones")
    expect(page.get_by_test_id("error-toast")).to_contain_text(" s.")
