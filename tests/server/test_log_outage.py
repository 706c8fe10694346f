"""A game that ends while the BDT Log's database is away, against a real PostgreSQL server and a real
``fuse serve`` process: the game is kept and logged once the database is back (the end screen says
what is happening meanwhile), never lost and never logged twice, and the Log answers 503 with its
reason while the database is away, not a plain 500."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from websockets.asyncio.client import connect

from fuseproc import FuseServer
from pgserver import fresh_database, postgres_url  # noqa: F401

pytestmark = pytest.mark.timeout(240)


def connections(url: str, allowed: bool) -> None:
    """Let the database take connections, or shut it: no new one, and the open ones ended."""
    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS {"true" if allowed else "false"}')
        if not allowed:
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))


def solo_room(http: httpx.Client) -> tuple[str, str]:
    """A one-player room whose bot plays at once, with Ana seated: its code and her token."""
    code = http.post("/api/rooms", json={"players": 1, "difficulty": "training", "bot_delay_ms": 0,
                                         "hints": False}).json()["code"]
    return code, http.post(f"/api/rooms/{code}/join", json={"name": "Ana"}).json()["token"]


async def ended_with_the_log_away(ws: Any, db: str) -> dict[str, Any]:
    """Ana is ready; the database goes away mid-game, and the bot plays the game to its end: the
    first ``over`` frame."""
    await ws.send(json.dumps({"type": "ready", "ready": True}))
    while json.loads(await ws.recv())["type"] != "state":
        pass
    await asyncio.to_thread(connections, db, False)
    await ws.send(json.dumps({"type": "bot", "seat": 0, "on": True}))
    while (m := json.loads(await ws.recv()))["type"] != "over":
        pass
    frame: dict[str, Any] = m
    return frame


def test_a_game_ended_while_the_log_is_away_is_logged_once_it_is_back(postgres_url: str,  # noqa: F811
                                                                       tmp_path: Path) -> None:
    db = fresh_database(postgres_url)
    with FuseServer(db, tmp_path, args=("--no-rate-limits",)) as server:
        server.start()
        http = httpx.Client(base_url=server.base, timeout=30)
        code, token = solo_room(http)

        async def play() -> tuple[dict[str, Any], dict[str, Any], httpx.Response]:
            async with connect(f"{server.ws_base}/ws/{code}?token={token}", max_size=None) as ws:
                waiting = await ended_with_the_log_away(ws, db)
                # the Log says it is away, with its reason
                away = await asyncio.to_thread(http.get, "/api/log")
                await asyncio.to_thread(connections, db, True)
                while True:
                    m = json.loads(await ws.recv())
                    if m["type"] == "over" and m["log_id"] is not None:
                        return waiting, m, away

        waiting, logged, away = asyncio.run(play())
        assert waiting["log_waits"] is True and waiting["log_id"] is None
        assert away.status_code == 503 and away.json()["reason"] == "unavailable"
        assert logged["log_waits"] is False
        # logged once, with the game as it was played
        games = http.get("/api/log").json()
        assert games["total"] == 1 and games["games"][0]["id"] == logged["log_id"]
        assert games["games"][0]["score"]["total"] == waiting["outcome"]["score"]["total"]


def test_a_server_stopping_while_a_game_waits_for_the_log_stops_at_once_and_logs_it_later(postgres_url: str,  # noqa: F811
                                                                         tmp_path: Path) -> None:
    db = fresh_database(postgres_url)
    with FuseServer(db, tmp_path, args=("--no-rate-limits",)) as server:
        server.start()
        code, token = solo_room(httpx.Client(base_url=server.base, timeout=30))

        async def play() -> dict[str, Any]:
            async with connect(f"{server.ws_base}/ws/{code}?token={token}", max_size=None) as ws:
                return await ended_with_the_log_away(ws, db)

        ended = asyncio.run(play())
        assert ended["log_waits"]
        # the game waits for the log, trying again: a SIGTERM still stops the server at once
        start = time.monotonic()
        status = server.terminate(timeout=20)
        assert time.monotonic() - start < 10, "the server waited for the log instead of stopping"
        assert status in (0, -signal.SIGTERM)
        connections(db, True)
        # started again with the database back: the game is logged as it was played, from the moves
        # the stopping server kept in a file (the database had missed them), never played anew
        server.start()
        http = httpx.Client(base_url=server.base, timeout=30)
        games = http.get("/api/log").json()
        assert games["total"] == 1
        logged, played = games["games"][0]["score"], ended["outcome"]["score"]
        assert (logged["total"], logged["time"], logged["bombs"]) == (played["total"], played["time_bonus"],
                                                                      played["bomb_points"])
        assert games["games"][0]["reason"] == ended["outcome"]["reason"]
        gone = http.get(f"/api/rooms/{code}").json()
        assert (gone["reason"], gone["params"]) == ("finished", {"log_id": games["games"][0]["id"]})
        assert "kept in" in server.output() and "are in the database now" in server.output()
