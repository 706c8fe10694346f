"""A seat at a room of a running ``fuse serve``, as the browser takes one: ``POST
/api/rooms/{code}/join`` for a seat token, then the room's WebSocket (``/ws/{code}?token=...``)
for the same frames and messages (docs/protocol.md).

The join is made before the app starts (``join``), with the standard library, so that a bad link,
a server that is down or a full room is one line and an exit code. ``RemoteLink`` then carries the
frames over the ``websockets`` package on the app's event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit

import websockets
from websockets.asyncio.client import ClientConnection, connect

#: Seconds to wait for the server to answer the join.
JOIN_TIMEOUT_S = 10.0


class JoinError(Exception):
    """The seat cannot be taken; the message is one line for the player."""


@dataclass(frozen=True)
class RoomLink:
    """Where a room is: the server's base URL and the room's code."""

    base: str  #: ``http://host:port`` (no slash at the end)
    code: str

    @property
    def ws_url(self) -> str:
        """The room's WebSocket URL (without the token)."""
        scheme = "wss" if self.base.startswith("https:") else "ws"
        return f"{scheme}{self.base[self.base.index(':'):]}/ws/{quote(self.code)}"


def parse_room_url(url: str) -> RoomLink:
    """Read a room link as the browser shows it (``http://host:8000/#/room/CODE``); a link to the
    room's page without the ``#`` is read too. ``JoinError`` when it is not a room link."""
    text = url.strip()
    if "://" not in text:
        text = "http://" + text
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise JoinError(f"not a room link: {url!r} (expected http://HOST:PORT/#/room/CODE)")
    route = parts.fragment or parts.path
    bits = [b for b in route.split("/") if b]
    if len(bits) < 2 or bits[-2] != "room" or not bits[-1].replace("-", "").isalnum():
        raise JoinError(f"not a room link: {url!r} (expected http://HOST:PORT/#/room/CODE)")
    try:
        port = parts.port
    except ValueError:
        raise JoinError(f"not a room link: {url!r} (bad port)") from None
    host = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
    base = f"{parts.scheme}://{host}" + (f":{port}" if port else "")
    return RoomLink(base, bits[-1].replace("-", "").upper())


def join(link: RoomLink, name: str, seat: int | None = None) -> tuple[int, str]:
    """Take a seat (the first open one unless ``seat``): its number and token. ``JoinError`` says
    why not (the server is down, no such room, every seat taken, the game has started)."""
    body = json.dumps({"name": name, "seat": seat}).encode()
    req = urllib.request.Request(f"{link.base}/api/rooms/{quote(link.code)}/join", data=body,
                                 headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=JOIN_TIMEOUT_S) as resp:
            data = json.loads(resp.read().decode("utf-8"))
    except urllib.error.HTTPError as e:
        detail = _detail(e)
        if e.code == 404:
            raise JoinError(f"no room {link.code} at {link.base}: {detail}") from None
        raise JoinError(f"cannot join room {link.code}: {detail}") from None
    except (urllib.error.URLError, OSError, TimeoutError) as e:
        why = getattr(e, "reason", None) or e
        raise JoinError(f"cannot reach the server at {link.base}: {why}") from None
    except ValueError:
        raise JoinError(f"{link.base} did not answer as a FUSE server") from None
    try:
        return int(data["seat"]), str(data["token"])
    except (KeyError, TypeError, ValueError):
        raise JoinError(f"{link.base} did not answer as a FUSE server") from None


def _detail(e: urllib.error.HTTPError) -> str:
    try:
        data: Any = json.loads(e.read().decode("utf-8"))
        return str(data.get("detail") or e.reason)
    except (ValueError, AttributeError, OSError):
        return str(e.reason)


class RemoteLink:
    """The room's WebSocket with the seat's token; frames go to ``deliver``, and ``on_close``
    hears why the socket closed."""

    def __init__(self, link: RoomLink, seat: int, token: str) -> None:
        self.link = link
        self.seat: int | None = seat
        self.token = token
        self._ws: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        self.on_close: Callable[[str], None] = lambda why: None

    async def start(self, deliver: Callable[[str], None]) -> None:
        """Open the room's socket with the seat's token and hand every frame to ``deliver``."""
        url = f"{self.link.ws_url}?token={quote(self.token)}"
        try:
            self._ws = await connect(url, max_size=2**22, open_timeout=JOIN_TIMEOUT_S)
        except (OSError, websockets.exceptions.WebSocketException, TimeoutError) as e:
            self.on_close(str(e) or type(e).__name__)
            return
        self._reader = asyncio.get_running_loop().create_task(self._read(deliver))

    async def _read(self, deliver: Callable[[str], None]) -> None:
        assert self._ws is not None
        why = "closed"
        try:
            async for text in self._ws:
                deliver(text if isinstance(text, str) else text.decode("utf-8", "replace"))
        except websockets.exceptions.ConnectionClosed as e:
            why = (e.rcvd.reason or f"code {e.rcvd.code}") if e.rcvd is not None else "closed"
        except OSError as e:
            why = str(e)
        self.on_close(why)

    def message(self, text: str) -> None:
        """Send one message (JSON text) to the room."""
        ws = self._ws
        if ws is None:
            return
        task = asyncio.get_running_loop().create_task(self._send(ws, text))
        task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)

    @staticmethod
    async def _send(ws: ClientConnection, text: str) -> None:
        with contextlib.suppress(websockets.exceptions.ConnectionClosed):
            await ws.send(text)

    async def close(self) -> None:
        """Close the socket."""
        if self._reader is not None:
            self._reader.cancel()
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
