"""Every room on this server: creating them, finding them by code, forgetting them, and storing
their finished games in the BDT Log."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from fastapi import HTTPException

from fusegame.server.options import RoomOptions, parse_options
from fusegame.server.room import Room, Timer
from fusegame.server.storage import Storage, entry_from_state

log = logging.getLogger("fusegame.server")

#: Room codes: short, read aloud easily, no look-alike letters (0/O, 1/I/L).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5
#: A finished room with nobody left in it is forgotten after this long (its game is in the log).
ROOM_TTL_S = 30 * 60


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
