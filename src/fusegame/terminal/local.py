"""A game on this machine: the server's own ``Room`` run in process on the app's event loop.

The room is the same authoritative pipeline ``fuse serve`` runs (stamp, validate, apply, record,
frames), with this app as its one socket in seat 0 and the team planner in every other seat at a
person's pace. Its clock and timers are the event loop's (``LoopScheduler``), so the game runs in
real time. A finished game goes into the BDT Log database that ``fuse serve`` uses, so it shows on
the Log page and replays like any other; an unfinished one is not kept.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, datetime

from fusegame.rules.state import GameState
from fusegame.server import wire
from fusegame.server.lobby import LoopScheduler
from fusegame.server.options import RoomOptions
from fusegame.server.room import Room
from fusegame.server.storage import BOT, PERSON, Storage, entry_from_state

log = logging.getLogger("fusegame.terminal")

#: The code of the room a local game runs in (it is never listed or joined).
LOCAL_CODE = "LOCAL"


class LogHost:
    """The room's host for a local game: nothing is written while it is played; the finished game
    goes to the BDT Log (``storage``; None keeps nothing)."""

    def __init__(self, storage: Storage | None) -> None:
        self.storage = storage
        self._tasks: set[asyncio.Task[None]] = set()

    def room_changed(self, room: Room) -> None:
        pass  # a local game is not brought back after a restart: there is no row to keep up to date

    def action_recorded(self, room: Room, action: object, seats: object) -> None:
        pass

    def room_idle(self, room: Room) -> None:
        pass

    def game_over(self, room: Room) -> None:
        task = asyncio.get_running_loop().create_task(self._store(room))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _store(self, room: Room) -> None:
        m = room.match
        assert m is not None
        log_id: int | None = None
        if self.storage is not None:
            played = [s.played or (PERSON if s.kind == "human" else BOT) for s in room.seats]
            entry = entry_from_state(m.state, m.record_data(), [s.name for s in room.seats],
                                     sum(1 for p in played if p != PERSON), room.options.to_dict(),
                                     datetime.now(UTC), played_by=played,
                                     seeded=room.options.seed is not None)
            try:
                log_id = await asyncio.to_thread(self.storage.finish_room, None, entry)
            except Exception:  # the game was played: say it could not be kept, never crash the table
                log.exception("could not store the game")
        room.stored(log_id)

    async def done(self) -> None:
        """Wait until the finished game is stored."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


class LocalLink:
    """Seat 0 of an in-process room, the other seats bots; frames go to ``deliver``."""

    seat: int | None = 0
    arriving = "starting"  #: the screen's word until the first frame (the cards are being dealt)

    def __init__(self, options: RoomOptions, name: str, storage: Storage | None, *,
                 position: GameState | None = None) -> None:
        self.options = options
        #: a position to start from instead of a new deal (a scenario: such a game is not stored,
        #: as its record would not replay it)
        self.position = position
        self.name = name
        self.seeded = options.seed is not None  #: a chosen deal: the game is unranked
        self.host = LogHost(storage)
        self.room: Room | None = None
        self._deliver: Callable[[str], None] = lambda text: None

    def send(self, text: str) -> None:  # the room's side: a frame for this "socket"
        self._deliver(text)

    async def start(self, deliver: Callable[[str], None]) -> None:
        """Open the room, take seat 0, fill the others with bots and start at once."""
        self._deliver = deliver
        room = Room(LOCAL_CODE, self.options, LoopScheduler(), host=self.host)
        self.room = room
        room.join(self.name, 0)
        room.connect(self)
        if self.position is not None:
            for seat in room.seats[1:]:
                seat.kind, seat.name = "bot", f"Bot {seat.index + 1}"
            room.start(self.position)
            return
        room.handle_message(self, wire.FillBots(type="fill_bots"))
        room.handle_message(self, wire.Ready(type="ready"))

    def message(self, text: str) -> None:
        """A message from the player (the same JSON a browser sends)."""
        if self.room is not None:
            self.room.handle(self, text)

    async def close(self) -> None:
        """Stop the room's timers and wait for a finished game to be stored."""
        room = self.room
        if room is not None:
            room.hold()
            room.disconnect(self)
        await self.host.done()
