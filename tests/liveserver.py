"""``fuse serve`` in a thread on a free port: real uvicorn, real loopback sockets, for the tests
that need a real server (concurrent WebSocket claims, the browser tests)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import uvicorn

from fusegame.server.app import UVICORN_OPTIONS, create_app
from pgserver import free_port


@contextmanager
def live_server(db_url: str) -> Iterator[str]:
    """Serve the game on 127.0.0.1 with the BDT Log at ``db_url``; yields the base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(db_url), host="127.0.0.1", port=port,
                                           **UVICORN_OPTIONS))
    thread = threading.Thread(target=server.run, daemon=True)
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
        yield base
    finally:
        server.should_exit = True
        thread.join(10)
