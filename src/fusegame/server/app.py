"""The web server: HTTP for the lobby, the BDT Log, cards and tutorial; a WebSocket per player.

``create_app(db_url)`` builds the FastAPI application; ``fuse serve`` runs it under uvicorn. The
rooms live in memory on the server's event loop (``fusegame.server.lobby``; see
``fusegame.server.room`` for the match pipeline, ``fusegame.server.sockets`` for the sockets);
finished games go to the database through ``fusegame.server.storage``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from fusegame.cards import builtin_catalogue
from fusegame.record import GameRecord, RecordError
from fusegame.server.lobby import Lobby
from fusegame.server.options import OptionError, option_choices
from fusegame.server.replays import Replay, ReplayCache
from fusegame.server.room import MAX_MESSAGE, RoomError
from fusegame.server.sockets import SocketClient
from fusegame.server.storage import Storage, default_url
from fusegame.server.tutorial import Tutorial

log = logging.getLogger("fusegame.server")

MAX_BODY = 64 * 1024


def _static_dir() -> Path:
    return Path(str(resources.files("fusegame.web") / "static"))


def _error(status: int, detail: str) -> JSONResponse:
    return JSONResponse({"detail": detail}, status_code=status)


async def _json_body(request: Request) -> Any:
    size = request.headers.get("content-length")
    if size is not None and size.isdigit() and int(size) > MAX_BODY:
        raise HTTPException(413, f"the request body is larger than {MAX_BODY // 1024} KiB")
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise HTTPException(413, f"the request body is larger than {MAX_BODY // 1024} KiB")
    if not raw.strip():
        return {}
    try:
        return json.loads(raw)
    except ValueError:
        raise HTTPException(400, "the request body is not valid JSON") from None


#: How ``fuse serve`` runs uvicorn. Frames over 1 MiB close the socket (smaller oversized ones get an
#: error frame: ``room.MAX_MESSAGE``). Compression is off: every change sends each player the same
#: few kilobytes, and compressing them per socket cost 40% of the server's time under load
#: (bench/ws_latency.py), for a saving of about 11 KB/s a player.
UVICORN_OPTIONS: dict[str, Any] = {"log_level": "warning", "ws_max_size": 1 << 20,
                                   "ws_per_message_deflate": False}


def create_app(db_url: str | None = None) -> FastAPI:
    """The FUSE web application, storing finished games at ``db_url`` (default: a SQLite file in
    the user's data folder, see ``fusegame.server.storage.default_url``)."""
    storage = Storage(db_url or default_url())
    lobby = Lobby(storage)
    tutorial = Tutorial()
    replays = ReplayCache()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # everything loaded so far (catalogues, compiled cards, the planner's tables) lives as long
        # as the server: keeping it out of the collector's full passes shortens their pauses
        gc.collect()
        gc.freeze()
        yield
        storage.close()

    app = FastAPI(title="FUSE", version="0.1.0", lifespan=lifespan,
                  description="Play FUSE and FUSE: Countdown together in the browser.")
    app.state.lobby = lobby
    app.state.storage = storage

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for err in exc.errors():
            where = ".".join(str(x) for x in err.get("loc", ()) if x not in ("query", "path", "body"))
            parts.append(f"{where}: {err.get('msg', 'invalid')}" if where else str(err.get("msg")))
        return _error(422, "; ".join(parts) or "invalid request")

    # ---------------------------------------------------------------- lobby
    @app.get("/api/options")
    async def options() -> dict[str, Any]:
        return option_choices()

    @app.post("/api/rooms", status_code=201)
    async def create_room(request: Request) -> dict[str, Any]:
        body = await _json_body(request)
        try:
            room = lobby.create(body)
        except OptionError as e:
            raise HTTPException(422, str(e)) from None
        return {"code": room.code, "url": room.to_dict()["url"], "room": room.to_dict()}

    @app.get("/api/rooms/{code}")
    async def get_room(code: str) -> dict[str, Any]:
        return {"room": lobby.get(code).to_dict()}

    @app.post("/api/rooms/{code}/join", response_model=None)
    async def join(code: str, request: Request) -> dict[str, Any] | JSONResponse:
        room = lobby.get(code)
        body = await _json_body(request)
        if not isinstance(body, dict):
            raise HTTPException(422, 'send {"name": "...", "seat": null}')
        seat = body.get("seat")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise HTTPException(422, "seat: expected a seat number or null")
        try:
            s = room.join(str(body.get("name", "")), seat)
        except RoomError as e:
            # the refusal's reason and facts let the page say it in its own words
            return JSONResponse({"detail": str(e), "reason": e.reason, "params": e.params},
                                status_code=e.status)
        return {"code": room.code, "seat": s.index, "token": s.token}

    # ---------------------------------------------------------------- the match
    @app.websocket("/ws/{code}")
    async def play(ws: WebSocket, code: str, token: str | None = None) -> None:
        await ws.accept()
        room = lobby.rooms.get(code.upper())
        if room is None:
            await ws.send_text(json.dumps({"type": "error", "code": "unknown_room",
                                           "message": f"no room {code.upper()[:16]!r}", "reason": None,
                                           "params": {}}))
            await ws.close(code=4404)
            return
        client = SocketClient(ws, room.seat_of(token))
        pump = asyncio.create_task(client.pump())
        room.connect(client)
        try:
            while not client.closed:
                msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                text = msg.get("text")
                if text is None:
                    data = msg.get("bytes") or b""
                    # an oversized binary frame is refused like an oversized text one
                    text = data.decode("utf-8", "replace") if len(data) <= MAX_MESSAGE else "x" * (
                        MAX_MESSAGE + 1)
                room.handle(client, text)
        except WebSocketDisconnect:
            pass
        finally:
            client.closed = True
            room.disconnect(client)
            pump.cancel()

    # ---------------------------------------------------------------- the BDT Log
    def filters(game: str | None, players: int | None, difficulty: str | None,
                won: bool | None) -> dict[str, Any]:
        return {"game": game, "players": players, "difficulty": difficulty, "won": won}

    @app.get("/api/log")
    async def log_list(game: str | None = None, players: int | None = None, difficulty: str | None = None,
                       won: bool | None = None, limit: int = 50, offset: int = 0) -> dict[str, Any]:
        if not 1 <= limit <= 500 or offset < 0:
            raise HTTPException(422, "limit: 1 to 500; offset: 0 or more")
        f = filters(game, players, difficulty, won)
        games = await asyncio.to_thread(storage.list_games, limit=limit, offset=offset, **f)
        best = await asyncio.to_thread(storage.best_games, limit=10, **f)
        total = await asyncio.to_thread(storage.count_games, **f)
        return {"games": [g.to_dict() for g in games], "best": [g.to_dict() for g in best], "total": total}

    def load_replay(log_id: int) -> Replay:
        entry = storage.get_game(log_id)
        if entry is None:
            raise HTTPException(404, f"no game {log_id} in the log")
        try:
            return Replay(GameRecord.from_dict(entry.record, f"game {log_id}"))
        except RecordError as e:
            raise HTTPException(500, str(e)) from None

    @app.get("/api/log/{log_id}")
    async def log_entry(log_id: int) -> dict[str, Any]:
        entry = await asyncio.to_thread(storage.get_game, log_id)
        if entry is None:
            raise HTTPException(404, f"no game {log_id} in the log")
        return entry.to_dict(with_record=True)

    @app.get("/api/log/{log_id}/replay")
    async def log_replay(log_id: int) -> dict[str, Any]:
        rep = await asyncio.to_thread(replays.get, log_id, lambda: load_replay(log_id))
        return rep.summary()

    @app.get("/api/log/{log_id}/replay/{step}")
    async def log_replay_step(log_id: int, step: int) -> dict[str, Any]:
        rep = await asyncio.to_thread(replays.get, log_id, lambda: load_replay(log_id))
        if not 0 <= step <= rep.last:
            raise HTTPException(404, f"game {log_id} has steps 0 to {rep.last}")
        return await asyncio.to_thread(rep.view, step)

    # ---------------------------------------------------------------- tutorial
    @app.get("/api/tutorial")
    async def tutorial_lessons(lang: str = "en") -> dict[str, Any]:
        return {"lessons": tutorial.lessons(lang)}

    @app.post("/api/tutorial/{lesson}/try")
    async def tutorial_try(lesson: str, request: Request, lang: str = "en") -> dict[str, Any]:
        body = await _json_body(request)
        action = body.get("action") if isinstance(body, dict) else None
        if not isinstance(action, str):
            raise HTTPException(422, 'send {"action": "place d3 F12 s1"}')
        try:
            return tutorial.attempt(lesson, action, lang)
        except KeyError:
            raise HTTPException(404, f"no lesson {lesson!r}") from None

    # ---------------------------------------------------------------- cards
    catalogue = builtin_catalogue()

    @app.get("/api/cards/{name}")
    async def card_svg(name: str) -> Response:
        from fusegame.web.svg import any_card_svg, card_svg

        card_id = name.removesuffix(".svg")
        try:
            svg = any_card_svg(catalogue, card_id)
        except (KeyError, ValueError):
            lesson_card = tutorial.cards.get(card_id)
            if lesson_card is None:
                raise HTTPException(404, f"no card {card_id!r}") from None
            svg = card_svg(lesson_card)
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "max-age=3600"})

    @app.get("/cards", response_class=HTMLResponse)
    async def cards_page(set: str | None = None) -> HTMLResponse:
        from fusegame.web.svg import catalogue_page

        if set not in (None, "fuse", "countdown"):
            raise HTTPException(422, "set: fuse or countdown")
        return HTMLResponse(catalogue_page(catalogue, set))

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "rooms": len(lobby.rooms),
                "players": sum(len(r.clients) for r in lobby.rooms.values())}

    static = _static_dir()
    if static.is_dir():
        app.mount("/", StaticFiles(directory=static, html=True), name="client")
    return app
