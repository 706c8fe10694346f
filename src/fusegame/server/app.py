"""The web server: HTTP for the lobby, the BDT Log, cards and tutorial; a WebSocket per player.

``create_app(db_url)`` builds the FastAPI application; ``fuse serve`` runs it under uvicorn. The
rooms live in memory on the server's event loop and are written to the database as they change,
so that a restarted server resumes them (``fusegame.server.lobby``; see ``fusegame.server.room``
for the match pipeline, ``fusegame.server.sockets`` for the sockets); finished games go to the BDT
Log through ``fusegame.server.storage``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, HTTPException, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from redis.exceptions import RedisError
from starlette.types import Scope

from fusegame.cards import builtin_catalogue
from fusegame.constraints import set_memo_limit
from fusegame.pace import far_behind
from fusegame.record import GameRecord, RecordError
from fusegame.server import wire
from fusegame.server.cardpages import CACHE_CONTROL, CardPages, _drawn, respond
from fusegame.server.cluster import Cluster, Remote, Unavailable
from fusegame.server.guard import RATE_LIMITS, Origins, Rates, client_key
from fusegame.server.lobby import ENGINE_MEMO_STATES, Lobby, normal_code, stop_on_signals
from fusegame.server.options import OptionError, option_choices, parse_options
from fusegame.server.replays import Replay, ReplayCache
from fusegame.server.reviews import Reviews, ReviewUnavailable
from fusegame.server.room import Room, RoomError
from fusegame.server.sockets import SocketClient, rate_limited
from fusegame.server.storage import Storage, StorageError, StorageUnavailable, default_url
from fusegame.server.tablegames import TableGameError, setup_for, table_entry
from fusegame.server.tutorial import Tutorial
from fusegame.words import LANGUAGES, catalogue

log = logging.getLogger("fusegame.server")

MAX_BODY = wire.MAX_BODY
#: Close codes of a socket refused at its opening: too many look-ups from its address, no such room.
CLOSE_RATE_LIMITED = 4429
CLOSE_UNKNOWN_ROOM = 4404


def _static_dir() -> Path:
    return Path(str(resources.files("fusegame.web") / "static"))


def _error(status: int, detail: str) -> JSONResponse:
    return JSONResponse({"detail": detail}, status_code=status)


class RoomOver(Exception):
    """A look-up of a room whose game is over and in the log, after the room has left the server
    (404, with the log id, so that a page reloaded on the end screen is sent to the game)."""

    def __init__(self, code: str, log_id: int) -> None:
        super().__init__(f"room {code!r} has finished: its game is number {log_id} in the BDT Log")
        self.log_id = log_id

    def to_dict(self) -> dict[str, Any]:
        return {"detail": str(self), "reason": "finished", "params": {"log_id": self.log_id}}


class RateLimited(Exception):
    """A request refused for its address's rate (429, with Retry-After)."""

    def __init__(self, wait: float, what: str) -> None:
        super().__init__(what)
        self.wait = max(1, round(wait))
        self.what = what


async def _body(request: Request) -> bytes:
    """The request body, read no further than ``MAX_BODY`` (413 beyond it)."""
    too_large = HTTPException(413, f"the request body is larger than {MAX_BODY // 1024} KiB")
    size = request.headers.get("content-length")
    if size is not None and size.isdigit() and int(size) > MAX_BODY:
        raise too_large
    chunks, total = [], 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > MAX_BODY:
            raise too_large
        chunks.append(chunk)
    return b"".join(chunks)


class _Files(StaticFiles):
    """The client's files; a path the file system cannot even look up (a NUL byte, a name too
    long) is simply not there."""

    def lookup_path(self, path: str) -> tuple[str, Any]:
        try:
            return super().lookup_path(path)
        except (OSError, ValueError):
            return "", None

    async def get_response(self, path: str, scope: Scope) -> Response:
        try:
            return await super().get_response(path, scope)
        except (OSError, ValueError):
            raise HTTPException(404) from None


#: How ``fuse serve`` runs uvicorn. Frames over 1 MiB close the socket (smaller oversized ones get an
#: error frame: ``room.MAX_MESSAGE``). Compression is off: every change sends each player the same
#: few kilobytes, and compressing them per socket cost 40% of the server's time under load
#: (bench/ws_latency.py), for a saving of about 11 KB/s a player.
UVICORN_OPTIONS: dict[str, Any] = {"log_level": "warning", "ws_max_size": 1 << 20,
                                   "ws_per_message_deflate": False}


#: The collector's thresholds in the server. Each open socket keeps a couple of hundred objects
#: the collector follows (the ASGI stack's coroutines, the protocol's buffers), so at 2,000 players
#: a full collection walks some 400,000 objects and stops everything for 50-340 ms. With Python's
#: defaults (700, 10, 10) that happened every 10 s and set the p99 of a claim at 95-210 ms; counting
#: to 10,000 new objects before a young collection lets most of a frame's objects die first, so
#: few reach the old generation and full collections are rare (bench/ws_latency.py, README).
GC_THRESHOLDS = (10_000, 100, 1000)

#: How long a thread may hold the interpreter while another waits for it (Python's default is 5
#: ms). The event loop gives the interpreter up at every wait for its sockets and, with the default,
#: waited up to 5 ms to have it back each time another thread was busy: when the planner still
#: thought on a thread of this process, 500 players beside 100 rooms of bots had a claim answered
#: in 207 ms at p50 and 1,954 ms at p99, at 0.5 ms in 8 ms and 58 ms. The planner has a process of
#: its own now (``fusegame.server.planners``); the database's threads still share the interpreter.
SWITCH_INTERVAL_S = 0.0005

#: Where ``fuse serve --workers N`` leaves its settings for the worker processes (JSON).
SETTINGS_ENV = "FUSE_SERVE_SETTINGS"


def app_from_env() -> FastAPI:
    """The application of one worker process of ``fuse serve --workers N``."""
    s = json.loads(os.environ[SETTINGS_ENV])
    return create_app(s["db"], rate_limits=RATE_LIMITS if s["rate_limits"] else None,
                      allowed_origins=s["origins"], redis_url=s["redis"])


def create_app(db_url: str | None = None, *, rate_limits: Mapping[str, str] | None = RATE_LIMITS,
               allowed_origins: Iterable[str] = (), redis_url: str | None = None) -> FastAPI:
    """The FUSE web application, storing finished games at ``db_url`` (default: a SQLite file in
    the user's data folder, see ``fusegame.server.storage.default_url``). ``rate_limits`` are the
    limits per client address (``fusegame.server.guard``; None: none), ``allowed_origins`` the
    web pages besides the server's own that may open its sockets (``"*"``: any). With
    ``redis_url`` this process is one of many sharing that Redis and the database
    (``fusegame.server.cluster``): rooms have one owner each, and the rate limits are counted there."""
    storage = Storage(db_url or default_url())
    lobby = Lobby(storage)
    # first of all, the rooms a server stopped while the database was away kept in files: none is
    # resumed from the database's older copy
    if not lobby.unspool():
        storage.close()
        raise StorageError(f"the rooms kept while {storage.url} was away cannot be written to it yet: "
                           "start the server again once it answers")
    tutorial = Tutorial()
    replays = ReplayCache()
    reviews = Reviews(storage)
    rates = Rates(rate_limits, storage_uri=redis_url)
    origins = Origins(allowed_origins)
    cluster = Cluster(redis_url, lobby, rates) if redis_url is not None else None

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # everything loaded so far (catalogues, compiled cards, the planner's tables) lives as long
        # as the server: keeping it out of the collector's full passes shortens their pauses
        set_memo_limit(ENGINE_MEMO_STATES)
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        sys.setswitchinterval(SWITCH_INTERVAL_S)
        # every room that was open when the server stopped, however it stopped, is back before
        # the first request is served (in a cluster: those that no other process holds)
        if cluster is not None:
            try:
                await cluster.start()
            except (RedisError, OSError) as e:
                raise StorageError(f"cannot reach Redis at {redis_url}: {e}") from None
            resumed = len(lobby.rooms)
        else:
            resumed = lobby.resume()
        await lobby.stores_done()  # a game that had ended unlogged is in the log before any request
        if resumed:
            log.warning("resumed %d room(s) from %s", resumed, storage.url)
        restore_signals = stop_on_signals(lobby, cluster.close if cluster is not None else None)
        try:
            yield
        finally:
            restore_signals()
            await lobby.close()  # already done if a signal stopped the server
            reviews.close()
            if cluster is not None:
                await cluster.close()
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

    @app.exception_handler(wire.BodyError)
    async def bad_body(request: Request, exc: wire.BodyError) -> JSONResponse:
        return _error(exc.status, str(exc))

    @app.exception_handler(Unavailable)
    async def unavailable(request: Request, exc: Unavailable) -> JSONResponse:
        return JSONResponse(exc.to_dict(), status_code=503, headers={"Retry-After": "2"})

    @app.exception_handler(StorageUnavailable)
    async def log_away(request: Request, exc: StorageUnavailable) -> JSONResponse:
        # the database is away for a moment: a 503 that says so, never a bare 500
        log.warning("the BDT Log's database did not answer: %s", exc)
        return JSONResponse({"detail": "the BDT Log cannot be reached just now: try again in a moment",
                             "reason": "unavailable", "params": {}},
                            status_code=503, headers={"Retry-After": "5"})

    @app.exception_handler(RoomOver)
    async def room_over(request: Request, exc: RoomOver) -> JSONResponse:
        return JSONResponse(exc.to_dict(), status_code=404)

    @app.exception_handler(RateLimited)
    async def too_many(request: Request, exc: RateLimited) -> JSONResponse:
        # the reason and the wait let the page say it in its own words
        return JSONResponse({"detail": f"too many {exc.what} from your address: wait {exc.wait} s",
                             "reason": "rate_limited", "params": {"retry_after": exc.wait}},
                            status_code=429, headers={"Retry-After": str(exc.wait)})

    def address_of(conn: Request | WebSocket) -> str:
        return client_key(conn.client.host if conn.client else None)

    def count(kind: str, address: str, what: str) -> None:
        wait = rates.hit(kind, address)
        if wait is not None:
            raise RateLimited(wait, what)

    async def find_room(code: str, address: str) -> Room | Remote:
        """The room for a look-up from ``address``: held here, or in a cluster by another process
        (404 when there is none). An address that has used up its misses is refused every
        look-up, so a guesser learns nothing more."""
        wait = rates.wait("miss", address)
        if wait is not None:
            raise RateLimited(wait, "look-ups of unknown rooms")
        count("lookup", address, "room look-ups")
        try:
            if cluster is None or len(code) > 64:
                return lobby.get(code)
            found = await cluster.find(normal_code(code))
            if found is None:
                return lobby.get(code)  # the 404
            return found
        except HTTPException as e:
            if e.status_code != 404:
                raise
            log_id = game_of_room(code)
            if log_id is not None:
                raise RoomOver(normal_code(code), log_id) from None
            rates.hit("miss", address)
            raise

    def game_of_room(code: str) -> int | None:
        if len(code) > 64:
            return None
        try:
            return storage.game_of_room(normal_code(code))
        except StorageError:
            log.exception("could not look a room up in the log")
            return None

    # ---------------------------------------------------------------- lobby
    @app.get("/api/options")
    async def options() -> dict[str, Any]:
        return option_choices()

    @app.post("/api/rooms", status_code=201)
    async def create_room(request: Request) -> dict[str, Any]:
        count("create", address_of(request), "new rooms")
        body = wire.parse_json(await _body(request))
        try:
            options = parse_options(body)
        except OptionError as e:
            raise HTTPException(422, str(e)) from None
        room = lobby.open(options, await cluster.new_code() if cluster is not None else None)
        return {"code": room.code, "url": room.to_dict()["url"], "room": room.to_dict()}

    async def room_view(room: Room, args: dict[str, Any]) -> tuple[int, Any]:
        return 200, {"room": room.to_dict()}

    async def join_room(room: Room, args: dict[str, Any]) -> tuple[int, Any]:
        name = wire.join_name(args.get("name", ""))
        try:
            if name is None:
                raise RoomError(f"a name is 1 to {wire.MAX_NAME} characters", 422, reason="name",
                                max=wire.MAX_NAME)
            s = room.join(name, args.get("seat"))
        except RoomError as e:
            # the refusal's reason and facts let the page say it in its own words
            return e.status, {"detail": str(e), "reason": e.reason, "params": e.params}
        return 200, {"code": room.code, "seat": s.index, "token": s.token}

    #: what a request may ask of a room, on whichever process holds it
    ops: dict[str, Callable[[Room, dict[str, Any]], Awaitable[tuple[int, Any]]]] = {
        "get": room_view, "join": join_room}
    if cluster is not None:
        cluster.handlers.update(ops)

    async def on_owner(found: Room | Remote, op: str, args: dict[str, Any]) -> JSONResponse:
        if isinstance(found, Room):
            status, body = await ops[op](found, args)
        else:
            assert cluster is not None
            try:
                status, body = await cluster.call(found, op, args)
            except Unavailable as e:
                status, body = 503, e.to_dict()
        return JSONResponse(body, status_code=status)

    @app.get("/api/rooms/{code}", response_model=None)
    async def get_room(code: str, request: Request) -> JSONResponse:
        return await on_owner(await find_room(code, address_of(request)), "get", {})

    @app.post("/api/rooms/{code}/join", response_model=None)
    async def join(code: str, request: Request) -> JSONResponse:
        address = address_of(request)
        count("join", address, "joins")
        found = await find_room(code, address)
        body = wire.parse_body(await _body(request), wire.JoinBody)
        return await on_owner(found, "join", {"name": body.name, "seat": body.seat})

    # ---------------------------------------------------------------- the match
    @app.websocket("/ws/{code}")
    async def play(ws: WebSocket, code: str, token: str | None = None) -> None:
        origin = ws.headers.get("origin")
        if not origins.allows(origin, ws.headers.get("host")):
            log.warning("refused a socket opened by the page at %r (fuse serve --allow-origin lets "
                        "another site's pages in)", (origin or "")[:200])
            await ws.close(code=1008)  # before accepting: the browser is answered 403
            return
        address = address_of(ws)
        await ws.accept()
        try:
            room = await find_room(code, address)
        except RateLimited as e:
            await ws.send_text(rate_limited(e.wait, e.what))
            await ws.close(code=CLOSE_RATE_LIMITED)
            return
        except RoomOver as e:
            await ws.send_text(json.dumps({"type": "error", "code": "unknown_room", "message": str(e),
                                           "reason": "finished", "params": {"log_id": e.log_id}}))
            await ws.close(code=CLOSE_UNKNOWN_ROOM)
            return
        except Unavailable as e:  # a room held elsewhere while Redis cannot be reached
            body = e.to_dict()
            await ws.send_text(json.dumps({"type": "error", "code": "unavailable", "message": body["detail"],
                                           "reason": body["reason"], "params": body["params"]}))
            await ws.close(code=wire.CLOSE_MOVED)  # the page tries again
            return
        except HTTPException:
            await ws.send_text(json.dumps({"type": "error", "code": "unknown_room",
                                           "message": f"no room {code.upper()[:16]!r}", "reason": None,
                                           "params": {}}))
            await ws.close(code=CLOSE_UNKNOWN_ROOM)
            return
        if isinstance(room, Remote):
            await relay(ws, room, wire.seat_token(token), address)
            return
        client = SocketClient(ws, room.seat_of(wire.seat_token(token)), address=address, rates=rates)
        pump = asyncio.create_task(client.pump())
        room.connect(client)
        try:
            async for text in client.incoming():
                client.receive(room, text)
        finally:
            client.closed = True
            room.disconnect(client)
            pump.cancel()

    async def relay(ws: WebSocket, remote: Remote, token: str | None, address: str) -> None:
        """A socket for a room another process holds: its frames go to the owner and back."""
        assert cluster is not None
        client = SocketClient(ws, None, address=address)
        pump = asyncio.create_task(client.pump())
        conn = cluster.relay_open(remote, client, token)
        try:
            async for text in client.incoming():
                cluster.relay_frame(conn, text)
        finally:
            cluster.relay_close(conn)
            if not client.closed:
                pump.cancel()
            else:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(pump, 2)

    # ---------------------------------------------------------------- the BDT Log
    @app.get("/api/log")
    async def log_list(game: str | None = None, players: int | None = None, difficulty: str | None = None,
                       won: bool | None = None, ranked: bool | None = None, bots: bool | None = None,
                       seeded: bool | None = None, official: bool | None = None,
                       source: Literal["digital", "table", "all"] | None = None, limit: int = 50,
                       offset: int = 0) -> dict[str, Any]:
        if not 1 <= limit <= 500 or not 0 <= offset <= wire.MAX_OFFSET:
            raise HTTPException(422, f"limit: 1 to 500; offset: 0 to {wire.MAX_OFFSET}")
        f: dict[str, Any] = {"game": game, "players": players, "difficulty": difficulty, "won": won,
                             "ranked": ranked, "bots": bots, "seeded": seeded, "official": official,
                             "source": source}
        games = await asyncio.to_thread(storage.list_games, limit=limit, offset=offset, **f)
        best = await asyncio.to_thread(storage.best_games, limit=10, **f)
        total = await asyncio.to_thread(storage.count_games, **f)
        return {"games": [g.to_dict() for g in games], "best": [g.to_dict() for g in best], "total": total}

    @app.post("/api/log/table", status_code=201)
    async def save_table_game(request: Request) -> dict[str, Any]:
        """A game played with the box at a real table, its score counted by its players."""
        count("table", address_of(request), "saved table games")
        body = wire.parse_json(await _body(request))
        try:
            entry = table_entry(body)
        except TableGameError as e:
            raise HTTPException(422, str(e)) from None
        entry.id = await asyncio.to_thread(storage.save_game, entry)
        return {"id": entry.id, "entry": entry.to_dict()}

    def load_replay(log_id: int) -> Replay:
        entry = storage.get_game(log_id)
        if entry is None:
            raise HTTPException(404, f"no game {log_id} in the log")
        if entry.table:
            raise HTTPException(404, f"game {log_id} was played at a table: it has no replay")
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

    @app.get("/api/log/{log_id}/pace")
    async def log_pace(log_id: int) -> dict[str, Any]:
        rep = await asyncio.to_thread(replays.get, log_id, lambda: load_replay(log_id))
        return rep.pace_summary()

    @app.get("/api/log/{log_id}/review", response_model=None)
    async def log_review(log_id: int) -> dict[str, Any] | JSONResponse:
        """The game's review (``fusegame.review``): ``{"status": "ready", "review": {...}}``, or 202
        ``{"status": "working", "ahead": N}`` while a worker makes it (ask again; ``ahead``: the
        reviews it makes first)."""
        try:
            data = await reviews.get(log_id)
        except ReviewUnavailable as e:
            raise HTTPException(e.status, str(e)) from None
        if data is None:
            return JSONResponse({"status": "working", "ahead": reviews.ahead(log_id)}, status_code=202)
        return {"status": "ready", "review": data}

    @app.get("/api/log/{log_id}/replay/{step}")
    async def log_replay_step(log_id: int, step: int) -> dict[str, Any]:
        rep = await asyncio.to_thread(replays.get, log_id, lambda: load_replay(log_id))
        if not 0 <= step <= rep.last:
            raise HTTPException(404, f"game {log_id} has steps 0 to {rep.last}")
        return await asyncio.to_thread(rep.view, step)

    # ---------------------------------------------------------------- the Ship's Computer
    @app.get("/api/computer/setup")
    async def computer_setup(game: str = "fuse", players: int | None = None, difficulty: str = "standard",
                             modules: Annotated[list[str] | None, Query()] = None, setup: str = "standard",
                             six_point_cards: bool = False, fuse_cards: int | None = None) -> dict[str, Any]:
        """What to lay out for a game with the box at a real table."""
        options: dict[str, Any] = {"game": game, "difficulty": difficulty, "modules": modules or [],
                                   "setup": setup, "six_point_cards": six_point_cards}
        if players is not None:
            options["players"] = players
        if fuse_cards is not None:
            options["fuse_cards"] = fuse_cards
        try:
            table = setup_for(options)
        except OptionError as e:
            raise HTTPException(422, str(e)) from None
        # the pace gauge's red at this table, so the Ship's Computer need not know the rule
        return {**table.to_dict(), "pace_far": far_behind(table.game, table.players)}

    # ---------------------------------------------------------------- words
    # every template of a language (fusegame.words.catalogue): the page's words (i18n.js) and the
    # refusals of the rules; like a card, it changes only with a new version of the server
    catalogues = {lang: _drawn(json.dumps(dict(catalogue(lang)), ensure_ascii=False), "application/json")
                  for lang in LANGUAGES}

    @app.get("/api/words/{lang}", response_model=None)
    async def words_catalogue(lang: str, request: Request) -> Response:
        drawn = catalogues.get(lang)
        if drawn is None:
            raise HTTPException(404, f"no words for language {lang[:40]!r} "
                                     f"(choose from {', '.join(LANGUAGES)})")
        return respond(drawn, request)

    # ---------------------------------------------------------------- tutorial
    @app.get("/api/tutorial")
    async def tutorial_lessons(lang: str = "en") -> dict[str, Any]:
        return {"lessons": tutorial.lessons(lang)}

    @app.post("/api/tutorial/{lesson}/try")
    async def tutorial_try(lesson: str, request: Request, lang: str = "en") -> dict[str, Any]:
        body = wire.parse_body(await _body(request), wire.TryBody)
        try:
            return tutorial.attempt(lesson, body.action, lang)
        except KeyError:
            raise HTTPException(404, f"no lesson {lesson[:40]!r}") from None

    # ---------------------------------------------------------------- cards
    pictures = CardPages(builtin_catalogue(), tutorial.cards)

    @app.get("/api/cards/{name}")
    async def card_svg(name: str, request: Request, lang: Literal["en", "es"] = "en",
                       compact: bool = False) -> Response:
        if name.endswith(".json"):  # the card in words
            card_id = name.removesuffix(".json")
            words = pictures.words(card_id, lang)
            if words is None:
                raise HTTPException(404, f"no card {card_id[:40]!r}")
            return JSONResponse(words.to_dict(), headers={"Cache-Control": CACHE_CONTROL})
        card_id = name.removesuffix(".svg")
        drawn = await pictures.card(card_id, compact, lang)
        if drawn is None:
            raise HTTPException(404, f"no card {card_id[:40]!r}")
        return respond(drawn, request)

    @app.get("/api/legend")
    async def symbol_legend(lang: Literal["en", "es"] = "en") -> JSONResponse:
        from fusegame.web.legend import legend

        items = [item.to_dict() for item in legend(lang)]
        return JSONResponse(items, headers={"Cache-Control": CACHE_CONTROL})

    @app.get("/cards")
    async def cards_page(request: Request, set: Literal["fuse", "countdown"] | None = None,
                         lang: Literal["en", "es"] = "en") -> Response:
        return respond(await pictures.page(set, lang), request)

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "rooms": len(lobby.rooms),
                "players": sum(len(r.clients) for r in lobby.rooms.values())}

    static = _static_dir()
    if static.is_dir():
        app.mount("/", _Files(directory=static, html=True), name="client")
    return app
