"""The sockets: one per player or spectator, written by its own task from a queue."""

from __future__ import annotations

import asyncio

from fastapi import WebSocket

#: A socket whose queue grows past this is too slow to follow the game: it is closed.
MAX_QUEUED = 2000


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
