"""Every room on this server: creating them, finding them by code, keeping them in the database
while they are open, bringing them back when the server starts again, forgetting them, and storing
their finished games in the BDT Log.

**Durable rooms.** A room is written down when it is created, and again whenever it changes: its
status and seats (names, tokens, ready, bots, who has played each seat) with each change, each
action of its game as one more row. The room calls its host (this lobby) before it sends the frames
that show a change (``fusegame.server.room.RoomHost``), so whatever a page has seen is in the
database. A write that fails is logged and the room is written whole at its next change. When the
server starts, ``resume`` builds every room again from what was kept (``Room.restore``).

**One holder.** Taking a room from the database raises its ``epoch``, and every write of the room
names the epoch this lobby took it at: a process that has lost a room (another took it over while
Redis was away or restarting) is refused by the database at its next write (``RoomMoved``), before
the move is shown, and lets the room go (``lost``); its pages reconnect and find the new holder.
A finished game is logged in the same transaction that ends the room's row at its epoch, so a room
is logged once.

**Bounded memory.** A finished room leaves memory as soon as its game is in the log and its last
socket has closed (at most ``FINISHED_KEEP_S`` after the end while sockets stay open: they keep
their own reference until they close). A lobby that nobody has had open for ``LOBBY_IDLE_S`` is
forgotten, in memory and in the database. Each of these is a timer of its own on the event loop,
started when the room falls idle and cancelled or re-armed as it changes: creating or finding a
room never looks at the others.

**The planner's process.** Bots and hints are worked out by the team planner, which takes up to a
tenth of a second on some rolls: ``LoopScheduler.think`` asks the server's planner process (``PLANNERS``,
``fusegame.server.planners``) and takes the answer back on the loop, so a room thinking holds up no
other room and the planner never holds the loop's interpreter. A room's planner leaves with its game
(or with the room, if it leaves in play). When no game is left in play, the planner's process is
ended (its memory goes back to the system whole), and the memory the games freed here is handed back
too (``release_memory``, a few seconds later).

**Stopping.** ``close`` holds every clock, tells every page that the server is restarting, writes
the clocks down, waits for the games being stored and gives the sockets a moment to send it all;
``stop_on_signals`` runs it when the process gets SIGTERM or SIGINT, before uvicorn closes the
sockets.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import dataclasses
import gc
import logging
import platform
import secrets
import signal
import threading
from collections import deque
from collections.abc import Awaitable, Callable, Collection
from datetime import UTC, datetime
from functools import partial
from types import FrameType
from typing import Any

from fastapi import HTTPException

from fusegame.bots.hints import Hint
from fusegame.memos import forget_card_memos
from fusegame.rules.actions import Action
from fusegame.rules.config import GameConfig
from fusegame.server.options import RoomOptions, parse_options
from fusegame.server.planners import PlannerProcess, Question
from fusegame.server.room import Room, Scheduler, Timer
from fusegame.server.storage import (
    BOT,
    PERSON,
    RoomMoved,
    Storage,
    StorageError,
    StorageUnavailable,
    StoredRoom,
    entry_from_state,
)

log = logging.getLogger("fusegame.server")

#: Room codes: read aloud easily, no look-alike letters (0/O, 1/I/L). Twelve of these 31 characters
#: are about 59 bits: with a thousand rooms open, a guesser making a hundred thousand look-ups a
#: second would need some 250 years on average to find one.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 12
#: A lobby that nobody has had open this long is forgotten.
LOBBY_IDLE_S = 30 * 60
#: A finished room whose sockets stay open is still found by its code this long after its end.
FINISHED_KEEP_S = 10 * 60
#: How long a stopping server waits for the sockets to send their last frames.
FLUSH_S = 2.0
#: A finished game the database could not take is tried again after this long, then twice as long
#: each time, never longer apart than the most: it stays in memory, and its page says so, until logged.
STORE_RETRY_FIRST_S = 1.0
STORE_RETRY_MAX_S = 60.0
#: The card states each card's memos keep in the server's process (``fusegame.constraints.set_memo_limit``).
#: Its engine asks a card about the states of the games in play, one frame at a time, and seldom
#: meets a state again once a game has moved on: with 200 games at once, a frame's moves cost
#: 79–84 µs with 20 states a card against 71–75 µs with 1,000, which hold eight times as many
#: states (``research/studies/frame_memos.py``). Fewer states open fewer of the allocator's arenas
#: at the height of the games, arenas that would stay the server's afterwards.
ENGINE_MEMO_STATES = 20
#: The card states each card's memos keep in the planner's process, whose search meets the same
#: states many times over in a decision and from one roll to the next: memos of every card under
#: about 150 MB however long the server runs.
PLANNER_MEMO_STATES = 1_000
#: When the last game in play on this server has ended, the memory the games freed is handed back
#: to the system this long after (unless a game has started again).
RELEASE_AFTER_S = 5.0


#: The planner's process: every bot's and hint's decision of this process is worked out there, one
#: after another, off the event loop (``LoopScheduler.think``).
PLANNERS = PlannerProcess(PLANNER_MEMO_STATES)


class LoopScheduler:
    """The room's clock and timers: the running asyncio event loop; its planner's worker:
    ``PLANNERS``, the server's planner process."""

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def call_later(self, delay: float, fn: Callable[[], None]) -> Timer:
        def run() -> None:
            try:
                fn()
            except Exception:  # a bug in one room must not stop the server's loop
                log.exception("room timer failed")

        return asyncio.get_running_loop().call_later(max(0.0, delay), run)

    def think(self, question: Question, then: Callable[[list[Hint] | Exception], None]) -> None:
        """Have the planner's process work out the hints of ``question``'s table, then run ``then``
        on the loop with them (or the exception that stopped it)."""
        PLANNERS.ask(question, then)

    def forget(self, key: str) -> None:
        PLANNERS.forget(key)


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where the C library is another."""
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return None
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None
    return trim


def release_memory() -> None:
    """No game is in play: end the planner's process (``PlannerProcess.recycle``), forget the memos
    of cards the games built here (``forget_card_memos``), free what the finished games left
    (cycles the collector has not met yet) and hand the pages the allocator keeps free back to the
    system (glibc's ``malloc_trim``; nothing more elsewhere)."""
    PLANNERS.recycle()
    forget_card_memos()
    gc.collect()
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


def options_to_stored(options: RoomOptions) -> dict[str, Any]:
    """A room's options as the database keeps them: everything ``RoomOptions`` holds."""
    return {"config": options.config.to_dict(), "hints": options.hints, "bot_delay_ms": options.bot_delay_ms,
            "seed": options.seed, "choice_timeout_s": options.choice_timeout_s,
            "leave_grace_s": options.leave_grace_s}


def options_from_stored(d: dict[str, Any]) -> RoomOptions:
    return RoomOptions(config=GameConfig.from_dict(d["config"]), hints=bool(d["hints"]),
                       bot_delay_ms=int(d["bot_delay_ms"]), seed=d["seed"],
                       choice_timeout_s=float(d["choice_timeout_s"]), leave_grace_s=float(d["leave_grace_s"]))


def normal_code(code: str) -> str:
    """A code as typed or read out (any case, spaces or dashes between the groups) as stored."""
    return "".join(code.split()).replace("-", "").upper()


class Lobby:
    """Every room on this server, by code (see the module's docstring)."""

    def __init__(self, storage: Storage, scheduler: Scheduler | None = None) -> None:
        self.rooms: dict[str, Room] = {}
        self.storage = storage
        self.scheduler: Scheduler = scheduler or LoopScheduler()
        self.closing = False
        self._tasks: set[asyncio.Task[None]] = set()
        self._stopping = asyncio.Event()  # set by close: the games waiting for the log stop waiting
        self._expiry: dict[str, Timer] = {}
        self._unsaved: set[str] = set()  # rooms whose last write failed: written whole next time
        self._stored: set[str] = set()  # finished rooms whose game has gone to the log
        #: the epoch each room's row was written or taken at (``fusegame.server.storage.RoomMoved``);
        #: a room with none has no row yet
        self._epoch: dict[str, int] = {}
        #: whether writes name their epoch (set by ``fusegame.server.cluster``: one process alone
        #: holds every room it has, and saves the database a look at the row on every move)
        self.fenced = False
        #: told of every room that leaves memory (the cluster gives up its lease on it)
        self.on_drop: Callable[[Room], None] | None = None
        self._release: Timer | None = None  # ``release_memory`` once no game is in play

    def new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.rooms:
                return code

    def create(self, body: Any) -> Room:
        """A new room from the JSON options of ``POST /api/rooms`` (``OptionError`` when bad)."""
        return self.open(parse_options(body))

    def open(self, options: RoomOptions, code: str | None = None) -> Room:
        """A new room for already checked options (under ``code`` when one is given: a code this
        process has claimed in the cluster)."""
        room = Room(code or self.new_code(), options, self.scheduler, host=self)
        self.rooms[room.code] = room
        self._write_whole(room)
        self._expire_later(room, LOBBY_IDLE_S)
        return room

    def get(self, code: str) -> Room:
        room = self.rooms.get(normal_code(code)) if len(code) <= 64 else None
        if room is None:
            raise HTTPException(404, f"no room {code[:20]!r}: check the code, or create a new game")
        return room

    # ================================================================== writing rooms down
    def _stored_form(self, room: Room) -> StoredRoom:
        m = room.match
        return StoredRoom(code=room.code, status=room.status, options=options_to_stored(room.options),
                          seed=room.seed, seats=[s.stored() for s in room.seats],
                          created_at=datetime.now(UTC), clock_ms=room.held_ms,
                          actions=m.log.texts() if m is not None else [],
                          epoch=self._epoch.get(room.code, 1))

    def _write_whole(self, room: Room) -> None:
        try:
            self.storage.save_room(self._stored_form(room), replacing=room.code in self._epoch)
            self._epoch.setdefault(room.code, 1)
        except RoomMoved as e:
            self.lost(room, e)
        except StorageError as e:
            log.error("room %s is not written down (%s); it is written whole at its next change",
                      room.code, e)
            self._unsaved.add(room.code)
        else:
            self._unsaved.discard(room.code)

    def _write(self, room: Room, write: Callable[[], None]) -> None:
        if room.code in self._unsaved:
            self._write_whole(room)
            return
        try:
            write()
        except RoomMoved as e:
            self.lost(room, e)
        except StorageError as e:
            log.error("room %s: a change is not written down (%s); the room is written whole at its "
                      "next change", room.code, e)
            self._unsaved.add(room.code)

    def _let_go(self, room: Room) -> bool:
        # a room that has left this process (another process holds it, or its game is logged)
        # writes nothing more of its own: its epoch forgotten, a write would no longer be fenced
        return self.rooms.get(room.code) is not room

    def room_changed(self, room: Room) -> None:
        if self._let_go(room):
            return
        if not room.durable:  # a match from a scenario: there is nothing to bring back
            self._write(room, partial(self.storage.delete_room, room.code, epoch=self._fence(room)))
            return
        seats = [s.stored() for s in room.seats]
        self._write(room, partial(self.storage.update_room, room.code, status=room.status, seats=seats,
                                  epoch=self._fence(room)))

    def action_recorded(self, room: Room, action: Action, seats: list[dict[str, Any]] | None) -> None:
        assert room.match is not None
        if self._let_go(room):
            return
        index = len(room.match.log) - 1
        self._write(room, partial(self.storage.append_action, room.code, index, str(action), seats=seats,
                                  epoch=self._fence(room)))

    async def still_held(self, room: Room) -> bool:
        """Whether the database still has ``room`` at the epoch this lobby holds it at (a process
        that was paused, or cut off from Redis, may have lost it without having written since);
        a room lost is let go (``lost``). True when the database cannot be asked."""
        try:
            epoch = await asyncio.to_thread(self.storage.room_epoch, room.code)
        except StorageError:
            return True
        if room.code in self._stored or room.code not in self._epoch or epoch == self._epoch[room.code]:
            return True  # its game logged here, or a room not written yet, or still ours
        self.lost(room, RoomMoved(f"room {room.code} is held at epoch {epoch} now" if epoch is not None
                                  else f"room {room.code} has left the database (its game is logged)"))
        return False

    def _fence(self, room: Room) -> int | None:
        """The epoch ``room``'s writes must find, where other processes may take rooms over (a
        cluster); None on a server of its own, whose writes need no fence."""
        return self._epoch.get(room.code) if self.fenced else None

    def lost(self, room: Room, why: Exception | None = None) -> None:
        """Another process holds ``room`` now: stop it here without a word more to its pages
        (they reconnect and find it there) and let it leave memory, its row left as it is."""
        if self.rooms.get(room.code) is not room:
            return
        log.error("room %s is held by another process now: it leaves this one%s", room.code,
                  f" ({why})" if why is not None else "")
        room.moved()
        self._drop(room)

    # ================================================================== finished games
    def game_over(self, room: Room) -> None:
        self._release_later()
        task = asyncio.get_running_loop().create_task(self._store(room))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _store(self, room: Room) -> None:
        m = room.match
        assert m is not None
        played = [s.played or (PERSON if s.kind == "human" else BOT) for s in room.seats]
        entry = entry_from_state(m.state, m.record_data(), [s.name for s in room.seats],
                                 sum(1 for p in played if p != PERSON), room.options.to_dict(),
                                 datetime.now(UTC), played_by=played, seeded=room.options.seed is not None)
        log_id: int | None = None
        wait = STORE_RETRY_FIRST_S
        while log_id is None:
            try:
                # the log entry and the end of the room's row are one transaction: a server stopping
                # in between neither loses the game nor logs it twice (a room still kept is stored
                # when the server is back)
                log_id = await asyncio.to_thread(self.storage.finish_room,
                                                 room.code if room.durable else None, entry,
                                                 epoch=self._fence(room))
            except RoomMoved as e:
                self.lost(room, e)  # the process that holds it now logs it
                return
            except StorageUnavailable as e:
                if self.closing:
                    # the server stops: the room's row keeps the game, logged when it starts again
                    log.error("room %s: the game could not be logged (%s); it is logged at the next "
                              "start", room.code, e)
                    return
                # the database is away: the game is kept here and tried again, the page told so
                log.error("room %s: the game could not be logged (%s); trying again in %.0f s",
                          room.code, e, wait)
                room.log_waiting(True)
                with contextlib.suppress(TimeoutError):  # a stopping server does not wait it out
                    await asyncio.wait_for(self._stopping.wait(), wait)
                wait = min(wait * 2, STORE_RETRY_MAX_S)
            except Exception:
                log.exception("could not store the game of room %s", room.code)
                break
        room.stored(log_id)
        self._stored.add(room.code)
        if room.clients:
            self._expire_later(room, FINISHED_KEEP_S)
        else:
            self._drop(room)

    # ================================================================== leaving memory
    def room_idle(self, room: Room) -> None:
        if room.status == "lobby":
            self._expire_later(room, LOBBY_IDLE_S)
        elif room.status == "over" and room.code in self._stored:
            self._drop(room)
        elif room.stuck:  # an untimed game at its cap of moves: no clock will ever end it
            log.warning("room %s: an untimed game at its cap of moves, left by everyone, is let go",
                        room.code)
            epoch = self._fence(room)
            self._drop(room)
            self._write(room, partial(self.storage.delete_room, room.code, epoch=epoch))

    def _expire_later(self, room: Room, delay: float) -> None:
        old = self._expiry.pop(room.code, None)
        if old is not None:
            old.cancel()
        self._expiry[room.code] = self.scheduler.call_later(delay, partial(self._expire, room))

    def _expire(self, room: Room) -> None:
        self._expiry.pop(room.code, None)
        if self.rooms.get(room.code) is not room:
            return
        if room.status == "over":
            self._drop(room)  # sockets still open keep their own reference until they close
        elif room.status == "lobby" and not room.clients:
            epoch = self._fence(room)
            self._drop(room)  # a socket still open re-arms this when it closes
            self._write(room, partial(self.storage.delete_room, room.code, epoch=epoch))

    def _drop(self, room: Room) -> None:
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
        room.drop_planner()  # a page still open keeps the room, never its planner's memos
        timer = self._expiry.pop(room.code, None)
        if timer is not None:
            timer.cancel()
        self._stored.discard(room.code)
        self._unsaved.discard(room.code)
        self._epoch.pop(room.code, None)
        if self.on_drop is not None:
            self.on_drop(room)
        if room.status == "playing":
            self._release_later()

    def _release_later(self) -> None:
        """A game has ended or left: once none is in play, hand the memory the games freed back
        (``release_memory``)."""
        if self._release is None and not self.closing:
            self._release = self.scheduler.call_later(RELEASE_AFTER_S, self._release_now)

    def _release_now(self) -> None:
        self._release = None
        if self.closing or any(r.status == "playing" for r in self.rooms.values()):
            return  # the next game to leave tries again
        if isinstance(self.scheduler, LoopScheduler):
            release_memory()

    # ================================================================== restarting
    def resume(self, codes: Collection[str] | None = None) -> int:
        """Bring back every room the database keeps (when the server starts), or those of
        ``codes`` (rooms this process has taken over in a cluster); returns how many. A room that
        cannot be rebuilt is logged and marked ``broken`` (kept, never tried again)."""
        try:
            kept = self.storage.load_rooms(codes, take=True)
        except StorageError as e:
            log.error("the open rooms cannot be read, none is resumed: %s", e)
            return 0
        count = 0
        for k in kept:
            if k.code in self.rooms:
                self._epoch[k.code] = k.epoch  # held here already: still ours, at the epoch just taken
                continue
            if k.status == "broken":
                continue
            self._epoch[k.code] = k.epoch
            try:
                room = Room.restore(k.code, options_from_stored(k.options), self.scheduler, host=self,
                                    seed=k.seed, status=k.status, seats=k.seats,
                                    actions=[Action.parse(a) for a in k.actions], clock_ms=k.clock_ms)
            except Exception:
                log.exception("room %s cannot be resumed; it is kept as broken", k.code)
                try:
                    self.storage.update_room(k.code, status="broken", epoch=k.epoch)
                except StorageError:
                    pass
                self._epoch.pop(k.code, None)
                continue
            self.rooms[room.code] = room  # a finished one leaves again once its game is stored
            if room.status == "lobby":
                self._expire_later(room, LOBBY_IDLE_S)
            count += 1
        return count

    def _spool(self, room: Room) -> None:
        """The server stops with moves of ``room`` the database has not taken (it is away): keep
        the room whole in a file, for ``unspool`` to write at the next start, so that the game is
        neither lost nor resumed from a point its players had already passed."""
        kept = self._stored_form(room)
        kept.epoch = self._epoch.get(room.code, 0)  # 0: it has no row yet
        if kept.status == "over":
            kept.status = "playing"  # replayed to its end at the next start, then logged
        try:
            where = self.storage.spool_room(kept)
        except OSError as e:
            log.error("room %s: its last moves could not be kept anywhere (%s): they are lost",
                      room.code, e)
            return
        if where is not None:
            log.error("room %s could not be written to the database; it is kept in %s until the "
                      "next start", room.code, where)

    def unspool(self) -> bool:
        """Write the rooms ``_spool`` kept into the database (when the server starts, before the
        rooms are resumed). False when the database is still away: the rooms stay in their files,
        and none may be resumed from the database's older copy."""
        for path, kept in self.storage.spooled():
            try:
                held = self.storage.room_epoch(kept.code)
                if kept.epoch == 0 and held is None:
                    self.storage.save_room(dataclasses.replace(kept, epoch=1))
                else:
                    self.storage.save_room(kept, replacing=True)
                log.warning("room %s: its moves kept in %s are in the database now", kept.code, path)
            except RoomMoved:
                log.error("room %s is held by another process, or its game was logged: the copy "
                          "kept in %s is set aside", kept.code, path)
                path.replace(path.with_suffix(".set-aside"))
                continue
            except StorageError as e:
                log.error("the rooms kept in %s cannot be written yet (%s): none is resumed",
                          path.parent, e)
                return False
            path.unlink(missing_ok=True)
        return True

    async def stores_done(self) -> None:
        """Wait until every finished game on its way to the log is there."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        """The server is stopping: hold every clock and tell every page (``restarting``), write
        the held clocks down, wait for the games being stored, and give the sockets up to
        ``FLUSH_S`` to send their last frames. Safe to call twice."""
        if not self.closing:
            self.closing = True
            self._stopping.set()
            for room in list(self.rooms.values()):
                room.suspend()
                if room.durable and room.status != "over":
                    seats = [s.stored() for s in room.seats]
                    self._write(room, partial(self.storage.update_room, room.code, seats=seats,
                                              clock_ms=room.held_ms, epoch=self._fence(room)))
            for room in list(self.rooms.values()):
                if room.durable and room.code in self._unsaved and room.code not in self._stored:
                    self._spool(room)
        await self.stores_done()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + FLUSH_S
        while loop.time() < deadline and any(_unsent(c) for r in self.rooms.values() for c in r.clients):
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)  # the last frame taken from a queue may still be on its way out


def _unsent(client: object) -> bool:
    # the server's sockets queue their frames (``fusegame.server.sockets``); others send at once
    queue = getattr(client, "queue", None)
    return isinstance(queue, deque) and len(queue) > 0


def stop_on_signals(lobby: Lobby, then: Callable[[], Awaitable[None]] | None = None) -> Callable[[], None]:
    """Run ``lobby.close`` when the process gets SIGTERM or SIGINT, then hand the signal on to the
    handler that was there (uvicorn's, which stops the server and closes the sockets). A second
    signal while closing goes straight on. Only where a server installed handlers of its own, in
    the main thread; returns what puts them back."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    loop = asyncio.get_running_loop()
    previous: dict[int, Callable[[int, FrameType | None], Any]] = {}
    closing: list[asyncio.Task[None] | None] = []

    async def close_then(handler: Callable[[int, FrameType | None], Any], signum: int) -> None:
        try:
            await lobby.close()
            if then is not None:
                await then()  # a cluster's leases, given up once every room is written down
        except Exception:
            log.exception("the rooms could not all be stopped cleanly")
        handler(signum, None)

    def on_signal(signum: int, frame: FrameType | None) -> None:
        handler = previous[signum]
        if closing:
            handler(signum, frame)
            return
        closing.append(None)

        # the handler runs between two bytecodes of whatever the loop was doing: the message in
        # the pipeline is finished first, and the rooms are stopped from the loop
        def start() -> None:
            closing.append(loop.create_task(close_then(handler, signum)))

        loop.call_soon_threadsafe(start)

    for sig in (signal.SIGTERM, signal.SIGINT):
        handler = signal.getsignal(sig)
        if callable(handler) and handler is not signal.default_int_handler:
            previous[sig] = handler
            signal.signal(sig, on_signal)

    def restore() -> None:
        for sig, handler in previous.items():
            if signal.getsignal(sig) is on_signal:
                signal.signal(sig, handler)

    return restore
