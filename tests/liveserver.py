"""``fuse serve`` in a thread on a free port: real uvicorn, real loopback sockets, for the tests
that need a real server (concurrent WebSocket claims, the browser tests, the fuzzing)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import httpx
import uvicorn
from fastapi import FastAPI

from fusegame.server.app import UVICORN_OPTIONS, create_app
from fusegame.server.options import RoomOptions
from fusegame.server.room import Room
from pgserver import free_port

T = TypeVar("T")


@dataclass
class Server:
    """The game served on a real port, with its application and event loop at hand."""

    base: str
    app: FastAPI
    loop: asyncio.AbstractEventLoop

    def call(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` on the server's event loop, where the rooms live."""
        async def run() -> T:
            return fn()
        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(10)

    def open_room(self, options: RoomOptions) -> Room:
        room: Room = self.call(lambda: self.app.state.lobby.open(options))
        return room


@contextmanager
def served(app: FastAPI, **options: Any) -> Iterator[Server]:
    """Serve ``app`` on 127.0.0.1 from a thread of its own, until the block ends (``options``:
    uvicorn's, over the server's own)."""
    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                        **{**UVICORN_OPTIONS, **options}))
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, args=(srv.serve(),), daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while True:
        try:
            if httpx.get(base + "/api/health").status_code == 200:
                break
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start on port {port}") from None
            time.sleep(0.05)
    try:
        yield Server(base, app, loop)
    finally:
        srv.should_exit = True
        thread.join(10)
        loop.close()


@contextmanager
def live_server(db_url: str) -> Iterator[str]:
    """Serve the game on 127.0.0.1 with the BDT Log at ``db_url``; yields the base URL."""
    with served(create_app(db_url)) as server:
        yield server.base
