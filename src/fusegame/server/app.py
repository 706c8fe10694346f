"""The web server: HTTP for the lobby, the BDT Log, cards and tutorial; a WebSocket per player.

``create_app(db_url)`` builds the FastAPI application; ``fuse serve`` runs it under uvicorn. The
rooms live in memory on the server's event loop (see ``fusegame.server.room`` for the match
pipeline); finished games go to the database through ``fusegame.server.storage``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import secrets
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from fusegame.cards import builtin_catalogue
from fusegame.record import GameRecord, RecordError
from fusegame.server.options import OptionError, RoomOptions, option_choices, parse_options
from fusegame.server.replays import Replay, ReplayCache
from fusegame.server.room import MAX_MESSAGE, Room, RoomError, Timer
from fusegame.server.storage import Storage, default_url, entry_from_state
from fusegame.server.tutorial import Tutorial

log = logging.getLogger("fusegame.server")

#: Room codes: short, read aloud easily, no look-alike letters (0/O, 1/I/L).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5
#: A finished room with nobody left in it is forgotten after this long (its game is in the log).
ROOM_TTL_S = 30 * 60
#: A socket whose queue grows past this is too slow to follow the game: it is closed.
MAX_QUEUED = 2000
MAX_BODY = 64 * 1024


class LoopScheduler:
    """The room's clock and timers: the running asyncio event loop."""

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def call_later(self, delay: float, fn: Callable[[], None]) -> Timer:
        def run() -> None:
            try:
                fn()
            except Exception:  # a bug in one room must not stop the server's loop
                log.exception("room timer failed")

        return asyncio.get_running_loop().call_later(max(0.0, delay), run)


class SocketClient:
    """One WebSocket: frames are queued by the room and written by ``pump``."""

    def __init__(self, ws: WebSocket, seat: int | None) -> None:
        self.ws = ws
        self.seat = seat
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() > MAX_QUEUED:
            self.closed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    async def pump(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                await self.ws.close(code=1008, reason="too slow")
                return
            await self.ws.send_text(text)


class Lobby:
    """Every room on this server, by code."""

    def __init__(self, storage: Storage) -> None:
        self.rooms: dict[str, Room] = {}
        self.storage = storage
        self.scheduler = LoopScheduler()
        self._tasks: set[asyncio.Task[None]] = set()

    def new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.rooms:
                return code

    def create(self, body: Any) -> Room:
        """A new room from the JSON options of ``POST /api/rooms`` (``OptionError`` when bad)."""
        return self.open(parse_options(body))

    def open(self, options: RoomOptions) -> Room:
        """A new room for already checked options."""
        self.forget_old()
        room = Room(self.new_code(), options, self.scheduler, on_over=self._store)
        self.rooms[room.code] = room
        return room

    def get(self, code: str) -> Room:
        room = self.rooms.get(code.upper())
        if room is None:
            raise HTTPException(404, f"no room {code!r}: check the code, or create a new game")
        return room

    def forget_old(self) -> None:
        now = self.scheduler.now()
        for code, room in list(self.rooms.items()):
            idle = room.finished_at is not None and now - room.finished_at > ROOM_TTL_S
            abandoned = room.status == "lobby" and not room.clients and now - room.created > 6 * ROOM_TTL_S
            if (idle or abandoned) and not room.clients:
                del self.rooms[code]

    def _store(self, room: Room) -> None:
        task = asyncio.get_running_loop().create_task(self._store_async(room))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _store_async(self, room: Room) -> None:
        m = room.match
        assert m is not None
        names = [s.name for s in room.seats]
        bots = sum(1 for s in room.seats if s.kind == "bot")
        entry = entry_from_state(m.state, m.record, names, bots, room.options.to_dict(),
                                 datetime.now(UTC))
        log_id: int | None = None
        try:
            log_id = await asyncio.to_thread(self.storage.save_game, entry)
        except Exception:
            log.exception("could not store the game of room %s", room.code)
        room.stored(log_id)


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
