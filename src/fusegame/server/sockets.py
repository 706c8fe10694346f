"""The sockets: one per player or spectator, written by its own task from a queue.

``SocketClient.receive`` is the socket's side of the door: each frame is counted against its
address's rate limits, read as a declared message (``fusegame.server.wire``) and only then handed
to the room. ``SocketClient.pump`` writes the queued frames; if writing fails for any reason other
than the browser having gone, the failure is logged and this one socket is closed, so that the
room and its other sockets go on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Protocol

from fastapi import WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketState

from fusegame.server import wire

if TYPE_CHECKING:
    from fusegame.server.guard import Rates
    from fusegame.server.room import Room

log = logging.getLogger("fusegame.server")

#: A socket whose queue grows past this many frames, or bytes, is too slow to follow the game: its
#: queue is dropped and it is closed (a reader that never reads is also closed by the keepalive pings).
MAX_QUEUED = 2000
MAX_QUEUED_BYTES = 1 << 20
#: Past this many queued bytes a socket is behind: a new state frame replaces the state frames still
#: waiting (a slow reader only needs the newest table; the log lines of the ones dropped are lost).
COALESCE_BYTES = 64 << 10
_STATE = '{"type":"state"'
_PING = '{"type":"ping"}'
_PING_MAX = 32
#: Close codes: the server failed to write to the socket, or the browser could not keep up; the page
#: reconnects after either and gets the current state.
CLOSE_FAILED = 1011
CLOSE_TOO_SLOW = 1008


def rate_limited(wait: float, what: str) -> str:
    """The error frame refusing ``what`` for ``wait`` seconds (the page words it from ``reason``)."""
    seconds = max(1, round(wait))
    return json.dumps({"type": "error", "code": "rate_limited",
                       "message": f"too many {what}: wait {seconds} s", "reason": "rate_limited",
                       "params": {"retry_after": seconds}}, separators=(",", ":"))


class DoorClient(Protocol):
    """What the door needs of a socket, here or relayed from another process."""

    seat: int | None
    address: str
    rates: Rates | None

    def send(self, text: str) -> None: ...


def through_the_door(client: DoorClient, room: Room, text: str) -> None:
    """One frame from ``client``: counted against its address's rate limits, read as a declared
    message (``fusegame.server.wire``), and only then handed to ``room``."""
    rates = client.rates
    # a keepalive ping is answered whatever the address has sent: refused, it would make a page at a
    # flooding address lose its socket every few seconds, and it costs the room nothing
    if len(text) <= _PING_MAX and text.replace(" ", "") == _PING:
        room.handle_message(client, wire.parse_message(text))
        return
    if rates is not None and rates.enabled:
        wait = rates.hit("message", client.address)
        if wait is not None:
            client.send(rate_limited(wait, "messages"))
            return
    try:
        msg = wire.parse_message(text)
    except wire.WireError as e:
        room.error(client, e.code, str(e))
        return
    if rates is not None and rates.enabled and msg.type in ("chat", "signal"):
        wait = rates.hit("chat", client.address)
        if wait is not None:
            client.send(rate_limited(wait, "chat messages"))
            return
    room.handle_message(client, msg)


class SocketClient:
    """One WebSocket: frames are queued by the room and written by ``pump``."""

    def __init__(self, ws: WebSocket, seat: int | None, *, address: str = "unknown",
                 rates: Rates | None = None) -> None:
        self.ws = ws
        self.seat = seat
        self.address = address
        self.rates = rates
        #: frames to write; None closes the socket as too slow, a number closes it with that code
        self.queue: deque[str | int | None] = deque()
        self.queued_bytes = 0
        self._wake = asyncio.Event()
        self.closed = False

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self.queued_bytes > COALESCE_BYTES and text.startswith(_STATE):
            # behind: the state frames still waiting are replaced by this newer one
            kept = [f for f in self.queue if not (isinstance(f, str) and f.startswith(_STATE))]
            self.queue = deque(kept)
            self.queued_bytes = sum(len(f) for f in kept if isinstance(f, str))
        if len(self.queue) >= MAX_QUEUED or self.queued_bytes + len(text) > MAX_QUEUED_BYTES:
            # too slow even so: what it has not read is dropped, and the socket closed
            self.closed = True
            self.queue.clear()
            self.queued_bytes = 0
            self._put(None)
            return
        self.queued_bytes += len(text)
        self._put(text)

    def _put(self, item: str | int | None) -> None:
        self.queue.append(item)
        self._wake.set()

    async def _next(self) -> str | int | None:
        while not self.queue:
            self._wake.clear()
            await self._wake.wait()
        item = self.queue.popleft()
        if isinstance(item, str):
            self.queued_bytes -= len(item)
        return item

    async def incoming(self) -> AsyncIterator[str]:
        """The text of each frame the socket sends, until it closes (or this side closes it)."""
        try:
            while not self.closed:
                msg = await self.ws.receive()
                if msg["type"] == "websocket.disconnect":
                    return
                text = msg.get("text")
                if text is None:
                    data = msg.get("bytes") or b""
                    # an oversized binary frame is refused like an oversized text one
                    text = (data.decode("utf-8", "replace") if len(data) <= wire.MAX_MESSAGE
                            else "x" * (wire.MAX_MESSAGE + 1))
                yield text
        except WebSocketDisconnect:
            return

    def close_soon(self, code: int) -> None:
        """Close the socket with ``code`` once the frames queued before are written."""
        if not self.closed:
            self.closed = True
            self._put(code)

    def receive(self, room: Room, text: str) -> None:
        """One frame from this socket, through the door to ``room``."""
        through_the_door(self, room, text)

    async def pump(self) -> None:
        """Write the queued frames until the socket closes or the task is cancelled; a failure
        ends this socket only."""
        try:
            while True:
                text = await self._next()
                if text is None:
                    await self.ws.close(code=CLOSE_TOO_SLOW, reason="too slow")
                    return
                if isinstance(text, int):
                    await self.ws.close(code=text)
                    return
                try:
                    await self.ws.send_text(text)
                except UnicodeEncodeError:
                    # a frame that holds text the door should have refused: send it repaired,
                    # and say where it came from, rather than leave the player without frames
                    log.error("a frame could not be encoded as UTF-8 (repaired): %r", text[:200])
                    await self.ws.send_text(text.encode("utf-8", "replace").decode("utf-8"))
        except asyncio.CancelledError:
            raise
        except (WebSocketDisconnect, OSError):
            self.closed = True  # the browser has gone: the receiving side says goodbye to the room
        except Exception:
            self.closed = True
            if self._gone():
                return
            log.exception("a socket's frames could not be sent: closing that socket")
            with contextlib.suppress(Exception):  # already broken: nothing more to tell that browser
                await self.ws.close(code=CLOSE_FAILED, reason="server error")

    def _gone(self) -> bool:
        return WebSocketState.DISCONNECTED in (self.ws.client_state, self.ws.application_state)
