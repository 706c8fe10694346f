"""Reviews of logged games (``fusegame.review``), made on demand in a worker process and kept with
the games in the log.

A review replays a game and asks the planner about every roll: seconds of work on one core. It
runs in a process of its own, so the event loop never waits for it (a thread would share the
interpreter with it), one review at a time; the page asks again every second until it is ready
(``GET /api/log/{id}/review`` answers 202 meanwhile). A review waiting its turn that nobody has
asked about for ``UNWANTED_AFTER_S`` is dropped (the page that asked has gone), so that the end
screens of many games ended at once wait only for the reviews someone still waits for. A review
made is kept with its game (``Storage.save_review``), whether or not its page is still there, and
made again only when ``fusegame.review.VERSION`` changes.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from fusegame.record import GameRecord, RecordError
from fusegame.review import VERSION, Reviewer
from fusegame.server.planners import exit_with_parent
from fusegame.server.storage import PERSON, LogEntry, Storage, StorageUnavailable

log = logging.getLogger("fusegame.server")

#: A review not yet begun is dropped once nobody has asked about it for this long (seconds). The
#: pages ask every second (``POLL_MS`` in review.js), and a browser slows the timers of a tab out
#: of sight to no less than once a second at first: a page this quiet has gone.
UNWANTED_AFTER_S = 30.0

#: The reviewer of the worker process: its planner's memos serve every review the process makes.
_REVIEWER: Reviewer | None = None


def review_data(record: dict[str, Any], bots: list[int]) -> dict[str, Any]:
    """The review of a record as JSON data (run in the worker process)."""
    global _REVIEWER
    if _REVIEWER is None:
        _REVIEWER = Reviewer()
    return _REVIEWER.review(GameRecord.from_dict(record, "the logged game"), bots).to_dict()


def bot_seats(entry: LogEntry) -> list[int]:
    """The seats a bot played, all of the game or part of it (none known for older games)."""
    return [i for i, p in enumerate(entry.played_by or []) if p != PERSON]


class ReviewUnavailable(Exception):
    """The game has no review to make: ``status`` 404 (no such game, or one played at a table) or
    500 (its record does not replay)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class _Making:
    """A review asked for: the worker's task, and the server's, which keeps what it makes."""

    work: Future[dict[str, Any]]
    kept: asyncio.Task[dict[str, Any]]
    asked: float  #: (``time.monotonic``) when a page last asked for it


class Reviews:
    """The server's reviews: those being made and those made, over ``storage``."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._pool: ProcessPoolExecutor | None = None
        self._running: dict[int, _Making] = {}

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawned, not forked: the server's threads and sockets stay out of the worker
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=exit_with_parent, initargs=(os.getpid(),))
        return self._pool

    async def get(self, log_id: int) -> dict[str, Any] | None:
        """The game's review, or ``None`` while it is being made (started by the first ask).
        Raises ``ReviewUnavailable``."""
        now = time.monotonic()
        self._drop_unwanted(now, but=log_id)
        running = self._running.get(log_id)
        if running is None:
            kept = await asyncio.to_thread(self.storage.get_review, log_id)
            if kept is not None and kept.get("version") == VERSION:
                return kept
            entry = await asyncio.to_thread(self.storage.get_game, log_id)
            if entry is None:
                raise ReviewUnavailable(404, f"no game {log_id} in the log")
            if entry.table or entry.record is None:
                raise ReviewUnavailable(404, f"game {log_id} was played at a table: "
                                             "it has no moves to review")
            # (another ask may have started it while this one read the log)
            running = self._running.get(log_id) or self._start(log_id, entry, now)
        running.asked = now
        if not running.kept.done():
            return None
        del self._running[log_id]
        try:
            return running.kept.result()
        except RecordError as e:
            raise ReviewUnavailable(500, str(e)) from None
        except BrokenProcessPool:
            self._pool = None  # the worker died (killed, out of memory): the next ask starts another
            raise ReviewUnavailable(500, "the review's worker stopped; ask again") from None

    def ahead(self, log_id: int) -> int:
        """How many reviews the worker makes before game ``log_id``'s (0: it is being made, or is
        next)."""
        count = 0
        for other, running in self._running.items():
            if other == log_id:
                return count
            count += not running.kept.done()
        return 0

    def _start(self, log_id: int, entry: LogEntry, now: float) -> _Making:
        assert entry.record is not None
        bots = bot_seats(entry)
        try:
            work: Future[dict[str, Any]] = self._executor().submit(review_data, entry.record, bots)
        except BrokenProcessPool:
            self._pool = None
            work = self._executor().submit(review_data, entry.record, bots)
        running = self._running[log_id] = _Making(work, asyncio.create_task(self._keep(log_id, work)), now)
        return running

    async def _keep(self, log_id: int, work: Future[dict[str, Any]]) -> dict[str, Any]:
        """The review once made, kept with its game first (where the log can take it: a page that
        waits for it is shown it even so)."""
        data = await asyncio.wrap_future(work)
        try:
            await asyncio.to_thread(self.storage.save_review, log_id, data)
        except StorageUnavailable as e:
            log.warning("the review of game %d is not kept: %s", log_id, e)
        return data

    def _drop_unwanted(self, now: float, but: int) -> None:
        """Let go of the reviews nobody has asked about for ``UNWANTED_AFTER_S`` (but game
        ``but``'s): those not begun are not made, those made are in the log already."""
        for log_id, running in list(self._running.items()):
            if log_id == but or now - running.asked <= UNWANTED_AFTER_S:
                continue
            if running.kept.done():
                if not running.kept.cancelled():
                    running.kept.exception()  # (a failure nobody heard: the next ask tries again)
                del self._running[log_id]
            elif running.work.cancel():
                log.info("the review of game %d is not made: nobody waits for it any more", log_id)
                del self._running[log_id]

    def close(self) -> None:
        """Stop the worker (a review under way is dropped: it is made again when next asked)."""
        for running in self._running.values():
            running.kept.cancel()
        self._running.clear()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
