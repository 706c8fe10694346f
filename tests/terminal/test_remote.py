"""``fuse play --join``: a terminal player and a WebSocket player (as the browser is) at one table
of a real ``fuse serve`` on a loopback port; each sees what the other does."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
from terminaltable import shown, until
from typer.testing import CliRunner
from websockets.asyncio.client import connect

from fusegame import cli
from fusegame.terminal.app import FuseApp
from fusegame.terminal.remote import RemoteLink, join, parse_room_url
from liveserver import live_server


def test_a_terminal_and_a_browser_player_share_a_table(tmp_path: Path) -> None:
    with live_server(f"sqlite:///{tmp_path / 'fuse.db'}") as base:
        made = httpx.post(f"{base}/api/rooms", json={"players": 2, "difficulty": "training", "seed": 3,
                                                     "bot_delay_ms": 0})
        code, url = made.json()["code"], made.json()["url"]
        other = httpx.post(f"{base}/api/rooms/{code}/join", json={"name": "Luis"}).json()
        link = parse_room_url(base + url)  # the link the browser shows
        seat, token = join(link, "Ana")
        assert seat == 1 - other["seat"]
        asyncio.run(_play(link, seat, token, base, code, other))


async def _play(link: Any, seat: int, token: str, base: str, code: str, other: dict[str, Any]) -> None:
    frames: list[dict[str, Any]] = []
    ws_url = base.replace("http", "ws") + f"/ws/{code}?token={other['token']}"
    async with connect(ws_url) as ws:
        async def read() -> None:
            async for text in ws:
                frames.append(json.loads(text))

        reader = asyncio.create_task(read())
        app = FuseApp(RemoteLink(link, seat, token), "en")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "Luis" in shown(app, "#lobby")
                        and "Ana (you)" in shown(app, "#lobby"))
            await pilot.press("r")  # ready
            await ws.send(json.dumps({"type": "ready"}))
            await until(pilot, lambda: app.table.view is not None)
            # the browser player acts: the terminal player sees it in the ship's log
            state = next(f for f in reversed(frames) if f["type"] == "state")
            place = state["moves"]["place"]
            mine = place[0]["actions"][0] if place else "done"
            await ws.send(json.dumps({"type": "act", "action": mine}))
            kind = "die_placed" if place else "seat_done"
            await until(pilot, lambda: any(e.get("kind") == kind and e.get("seat") == other["seat"]
                                           for e in [x.get("event", {}) for x in app.table.log]))
            assert "Luis" in shown(app, "#log-left-text")
            # the terminal player acts by keys: the browser player's socket hears it
            await until(pilot, lambda: app.table.my_hint() is not None or app.table.done_move() is not None)
            await pilot.press("d")
            await until(pilot, lambda: any(e["kind"] == "seat_done" and e["seat"] == seat
                                           for f in frames if f["type"] == "state" for e in f["events"]))
            # the terminal player talks: the browser player's socket hears a signal and a line
            await pilot.press("w", "c", *"hola", "enter")
            await until(pilot, lambda: any(f["type"] == "chat" and f["seat"] == seat for f in frames))
            signal = next(f for f in frames if f["type"] == "signal" and f["seat"] == seat)
            assert signal["signal"] == "wait" and signal["die"] is None
            assert next(f for f in frames if f["type"] == "chat")["text"] == "hola"
            # and hears the browser player's
            await ws.send(json.dumps({"type": "signal", "signal": "take", "die": None}))
            await until(pilot, lambda: "Luis ⚑ Take it" in shown(app, "#log-left-text"))
            await pilot.press("q")
            assert "Leave the game?" in shown(app, "#dialog")
            await pilot.press("y")
        reader.cancel()


def test_joining_a_full_room_or_a_wrong_code_is_one_line(tmp_path: Path) -> None:
    with live_server(f"sqlite:///{tmp_path / 'fuse.db'}") as base:
        made = httpx.post(f"{base}/api/rooms", json={"players": 1}).json()
        httpx.post(f"{base}/api/rooms/{made['code']}/join", json={"name": "Luis"})
        full = CliRunner().invoke(cli.app, ["play", "--join", base + made["url"], "--name", "Ana"])
        assert full.exit_code == 1
        assert full.stderr.strip().splitlines() == [
            f"fuse: error: cannot join room {made['code']}: every seat is taken (watch the game: "
            f"fuse play --join {base}/#/room/{made['code']} --watch)"]
        wrong = CliRunner().invoke(cli.app, ["play", "--join", f"{base}/#/room/ZZZZ", "--name", "Ana"])
        assert wrong.exit_code == 1
        assert wrong.stderr.startswith(f"fuse: error: no room ZZZZ at {base}")
        assert "Traceback" not in full.output + wrong.output
