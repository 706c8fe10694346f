"""A room's surroundings, made by hand for the tests that drive a room without a server: a clock
whose time the test moves, and a socket that keeps what it is sent."""

from __future__ import annotations

import heapq
import itertools
import json
from collections.abc import Callable
from typing import Any

Frame = dict[str, Any]


class _Handle:
    def __init__(self, at: float, fn: Callable[[], None]) -> None:
        self.at, self.fn, self.cancelled = at, fn, False

    def cancel(self) -> None:
        self.cancelled = True


class Clock:
    """A scheduler whose time the test moves (``advance``), running the timers that fall due in
    their order, as the event loop would."""

    def __init__(self) -> None:
        self.t = 1000.0
        self._heap: list[tuple[float, int, _Handle]] = []
        self._n = itertools.count()

    def now(self) -> float:
        return self.t

    def call_later(self, delay: float, fn: Callable[[], None]) -> _Handle:
        h = _Handle(self.t + max(0.0, delay), fn)
        heapq.heappush(self._heap, (h.at, next(self._n), h))
        return h

    def advance(self, seconds: float) -> None:
        end = self.t + seconds
        while self._heap and self._heap[0][0] <= end:
            at, _, h = heapq.heappop(self._heap)
            if not h.cancelled:
                self.t = max(self.t, at)
                h.fn()
        self.t = end


class Page:
    """A socket: it keeps the frames it is sent."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.frames: list[Frame] = []

    def send(self, text: str) -> None:
        self.frames.append(json.loads(text))

    def last(self, kind: str) -> Frame:
        return next(f for f in reversed(self.frames) if f["type"] == kind)


def bots_play_it_out(room: Any, clock: Clock) -> Page:
    """Ana takes a seat of ``room`` (a lobby), fills the others with bots, says she is ready and
    hands her own seat to the bot; the clock then runs a second at a time until the game is over.
    Returns her page."""
    seat = room.join("Ana")
    page = Page(seat.index)
    room.connect(page)
    room.handle(page, '{"type": "fill_bots"}')
    room.handle(page, '{"type": "ready", "ready": true}')
    room.handle(page, '{"type": "bot", "seat": 0, "on": true}')
    while room.status == "playing":
        clock.advance(1.0)
    return page
