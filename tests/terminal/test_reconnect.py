"""``fuse play --join`` keeps its seat: a real ``fuse serve`` process is stopped (SIGTERM) and
killed (``kill -9``) under a game; the terminal says so, holds its clock, opens its socket again
by itself with its seat's token and finishes the game in its seat. The same link joined again
from the same machine takes the seat back; another machine is refused and may watch."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path
from typing import Any

import httpx
import pytest
from terminaltable import shown, until
from textual.pilot import Pilot
from typer.testing import CliRunner
from websockets.asyncio.client import connect

from fusegame import cli
from fusegame.terminal.app import FuseApp
from fusegame.terminal.remote import JoinError, RemoteLink, RoomLink, SeatBook, parse_room_url, take_seat
from fusegame.terminal.table import action_of_hint
from fuseproc import FuseServer
from liveserver import live_server

pytestmark = pytest.mark.timeout(300)


async def _follow_hints(app: FuseApp, pilot: Pilot[Any], moves: int | None) -> None:
    """Play this seat by the planner's hints: ``moves`` of them, or to the end of the game."""
    made = 0
    while app.table.outcome is None and (moves is None or made < moves):
        await until(pilot, lambda: app.table.outcome is not None or (
            app.table.my_hint() is not None and action_of_hint(app.table.my_hint() or {}) is not None),
            timeout=60)
        if app.table.outcome is not None:
            break
        seq = app.table.seq
        await pilot.press("h")
        verb = ((app.table.hint or {}).get("act") or {}).get("verb")
        await pilot.press("d" if verb == "done" else "enter")
        await until(pilot, lambda s=seq: app.table.seq > s or app.table.outcome is not None, timeout=60)
        made += 1


async def _server_goes_away(app: FuseApp, pilot: Pilot[Any], server: FuseServer, how: str) -> None:
    """Stop the server (``term``: SIGTERM; ``kill``: SIGKILL) under the game, check what the
    table says while it is away, start it again and wait until the table is back."""
    seq = app.table.seq
    if how == "term":
        assert server.proc is not None
        server.proc.send_signal(signal.SIGTERM)
        await until(pilot, lambda: app.table.restarting, timeout=30)
        assert "The server is restarting" in shown(app, "#notice")
        await asyncio.to_thread(server.proc.wait, 30)
    else:
        await asyncio.to_thread(server.kill)
    await until(pilot, lambda: app.table.connection == "connecting", timeout=30)
    notice = shown(app, "#notice")
    assert ("restarting" if how == "term" else "reconnecting by itself") in notice
    # the clock is held while the server is away (the server holds it too)
    held = app.table.clock_ms()
    top = shown(app, "#top")
    await pilot.pause(1.2)
    assert app.table.clock_ms() == held and shown(app, "#top") == top
    await asyncio.to_thread(server.start)
    await until(pilot, lambda: app.table.connection == "open" and app.table.seq >= seq
                and not app.table.restarting and app.table.clock_running, timeout=60)
    assert "reconnecting" not in shown(app, "#notice") and "restarting" not in shown(app, "#notice")


def test_a_join_player_survives_a_restart_and_a_kill_9_and_finishes_in_its_seat(tmp_path: Path) -> None:
    with FuseServer(f"sqlite:///{tmp_path / 'fuse.db'}", tmp_path, args=("--no-rate-limits",)) as server:
        server.start()
        made = httpx.post(f"{server.base}/api/rooms", json={
            "players": 2, "difficulty": "training", "seed": 3, "hints": True, "bot_delay_ms": 200}).json()
        link = parse_room_url(server.base + made["url"])
        book = SeatBook(tmp_path / "seats.json")
        seat, token, again = take_seat(link, "Ana", book)
        assert not again and book.get(link) == (seat, token)

        async def go() -> dict[str, Any]:
            app = FuseApp(RemoteLink(link, seat, token, book), "en")
            async with app.run_test(size=(100, 30)) as pilot:
                await until(pilot, lambda: "Ana (you)" in shown(app, "#lobby"))
                await pilot.press("b", "r")  # a bot in the other seat, and ready
                await until(pilot, lambda: app.table.view is not None)
                await _follow_hints(app, pilot, 3)
                await _server_goes_away(app, pilot, server, "term")
                await _follow_hints(app, pilot, 3)
                await _server_goes_away(app, pilot, server, "kill")
                await _follow_hints(app, pilot, None)
                await until(pilot, lambda: app.table.log_id is not None, timeout=60)
                assert "In the BDT Log as game" in shown(app, "#dialog")
                await pilot.press("q")
            assert app.table.seat == seat
            return {"log_id": app.table.log_id, "total": app.table.outcome["score"]["total"]}  # type: ignore[index]

        ended = asyncio.run(go())
        entry = httpx.get(f"{server.base}/api/log/{ended['log_id']}").json()
        assert entry["names"][seat] == "Ana"
        assert entry["played_by"][seat] == "person"  # the seat was never handed to a bot
        assert entry["score"]["total"] == ended["total"]


async def _start_with_a_bot(link: RoomLink, token: str) -> None:
    async with connect(link.socket_url(token)) as ws:
        await ws.send('{"type": "fill_bots"}')
        await ws.send('{"type": "ready", "ready": true}')
        async for text in ws:
            if '"type":"state"' in text.replace(" ", ""):
                return


def test_the_same_link_joined_again_takes_the_seat_back(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FUSE_DATA_DIR", str(tmp_path))
    with live_server(f"sqlite:///{tmp_path / 'fuse.db'}") as base:
        made = httpx.post(f"{base}/api/rooms", json={"players": 2, "difficulty": "training", "seed": 3,
                                                     "bot_delay_ms": 10_000}).json()
        url = base + made["url"]
        link = parse_room_url(url)
        book = SeatBook()  # in $FUSE_DATA_DIR, beside the log's database
        assert book.path == tmp_path / "terminal-seats.json"
        seat, token, again = take_seat(link, "Ana", book)
        assert not again
        assert oct(book.path.stat().st_mode & 0o777) == "0o600"  # a seat's token is the user's alone
        asyncio.run(_start_with_a_bot(link, token))
        # the game has started: this machine takes its seat back with the token it kept...
        assert take_seat(link, "Ana", SeatBook()) == (seat, token, True)
        # ...another machine is refused, and told how to watch
        started = r"the game has started \(watch it: fuse play --join .* --watch\)"
        with pytest.raises(JoinError, match=started):
            take_seat(link, "Bo", SeatBook(tmp_path / "elsewhere.json"))
        # a token the room no longer knows is forgotten, and a new seat asked for
        book.put(link, seat, "not-a-token", "Ana")
        with pytest.raises(JoinError, match="the game has started"):
            take_seat(link, "Ana", book)
        assert book.get(link) is None

        # the room's game is the room's: a game option with --join is refused in one line
        res = CliRunner().invoke(cli.app, ["play", "--join", url, "-p", "3"])
        assert res.exit_code == 2
        assert res.stderr.strip().splitlines() == [
            "fuse: error: --players makes a game of your own: with --join the room's game is played as "
            "the room was made"]
        res = CliRunner().invoke(cli.app, ["play", "--watch"])
        assert res.exit_code == 2 and "--watch needs --join" in res.stderr

        async def watch() -> None:
            app = FuseApp(RemoteLink(link, None, None), "en")
            async with app.run_test(size=(80, 24)) as pilot:
                await until(pilot, lambda: app.table.view is not None)
                assert shown(app, "#notice").startswith("You are watching this game.")
                assert "Ana" in shown(app, "#team-left") and "Bot 2" in shown(app, "#team-left")
                assert shown(app, "#keys").startswith("watching")
                await pilot.press("1", "d", "h")  # a spectator's keys do nothing
                await pilot.press("q")  # and leaving asks nothing
                await until(pilot, lambda: not app.is_running)

        asyncio.run(watch())


def test_a_join_player_on_another_process_survives_the_owner_killed(tmp_path: Path) -> None:
    """Many processes on Redis: the seat's socket is on B, the room's owner A is killed; B takes the
    room over from the database and the terminal, back by itself, plays on in its seat."""
    from redisproc import RedisServer

    with RedisServer(tmp_path / "redis") as redis:
        db = f"sqlite:///{tmp_path / 'fuse.db'}"
        args = ("--redis", redis.url, "--no-rate-limits")
        (tmp_path / "a").mkdir()
        (tmp_path / "b").mkdir()
        with FuseServer(db, tmp_path / "a", args=args) as a, FuseServer(db, tmp_path / "b", args=args) as b:
            a.start()
            b.start()
            made = httpx.post(f"{a.base}/api/rooms", json={"players": 2, "difficulty": "training", "seed": 3,
                                                           "hints": True, "bot_delay_ms": 200}).json()
            link = parse_room_url(b.base + made["url"])  # the room's link, on B
            seat, token, _ = take_seat(link, "Ana", SeatBook(tmp_path / "seats.json"))

            async def go() -> int | None:
                app = FuseApp(RemoteLink(link, seat, token), "en")
                async with app.run_test(size=(100, 30)) as pilot:
                    await until(pilot, lambda: "Ana (you)" in shown(app, "#lobby"))
                    await pilot.press("b", "r")
                    await until(pilot, lambda: app.table.view is not None)
                    await _follow_hints(app, pilot, 3)
                    seq = app.table.seq
                    await asyncio.to_thread(a.kill)  # the owner dies; B closes the socket it relays
                    await until(pilot, lambda: app.table.connection == "connecting", timeout=30)
                    await until(pilot, lambda: app.table.connection == "open" and app.table.seq >= seq,
                                timeout=60)
                    await _follow_hints(app, pilot, None)
                    await until(pilot, lambda: app.table.log_id is not None, timeout=60)
                    await pilot.press("q")
                return app.table.log_id

            log_id = asyncio.run(go())
            entry = httpx.get(f"{b.base}/api/log/{log_id}").json()
            assert entry["names"][seat] == "Ana" and entry["played_by"][seat] == "person"


def test_a_room_gone_while_away_ends_the_tries_and_says_where_the_game_is() -> None:
    class Gone:
        """A socket that answers as a server does for a room whose game is over and gone."""

        def __aiter__(self) -> Gone:
            self.frames = ['{"type": "error", "code": "unknown_room", "message": "no room", '
                           '"reason": "finished", "params": {"log_id": 12}}']
            return self

        async def __anext__(self) -> str:
            if not self.frames:
                raise StopAsyncIteration
            return self.frames.pop(0)

    link = RemoteLink(parse_room_url("http://127.0.0.1:1/#/room/ABCD"), 0, "tok")
    seen: list[str] = []
    final = asyncio.run(link._read(Gone(), seen.append))  # type: ignore[arg-type]
    assert final == "!room_over 12" and len(seen) == 1
    app = FuseApp(link, "en")
    app._lost(final)
    assert app.table.error == ("The game ended while the connection was away: it is in the BDT Log as "
                               "game 12. Press q.")
