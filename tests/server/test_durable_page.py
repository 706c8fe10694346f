"""A page in a real browser (Debian's Chromium) through a restart of ``fuse serve``: it is told
the server is restarting, shows it, reconnects by itself and is back in its seat."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from fuseproc import FuseServer

pytestmark = pytest.mark.timeout(180)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium package")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    yield ctx.new_page()
    ctx.close()


def test_a_page_is_told_of_a_restart_and_comes_back_to_its_seat_by_itself(tmp_path: Path, page: Page) -> None:
    with FuseServer(f"sqlite:///{tmp_path / 'fuse.db'}", tmp_path) as server:
        server.start()
        code = httpx.post(server.base + "/api/rooms", json={"players": 2}).json()["code"]
        page.goto(f"{server.base}/#/room/{code}")
        expect(page.get_by_test_id("room-code")).to_have_text(" ".join([code[:4], code[4:8], code[8:]]))
        page.get_by_test_id("join-name").fill("Ana")
        page.get_by_test_id("join-button").click()
        expect(page.get_by_test_id("ready-button")).to_be_visible()
        page.get_by_test_id("ready-button").click()
        expect(page.get_by_test_id("ready-button")).to_have_attribute("aria-pressed", "true")
        assert server.proc is not None
        server.proc.send_signal(signal.SIGTERM)
        expect(page.get_by_test_id("error-toast")).to_contain_text("The server is restarting")
        server.proc.wait(30)
        expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "closed")
        server.start()
        # back by itself, in the same seat, still ready: nothing was lost
        expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "open", timeout=30_000)
        expect(page.get_by_test_id("seat-0")).to_contain_text("Ana")
        expect(page.get_by_test_id("ready-button")).to_have_attribute("aria-pressed", "true")
