"""A seat at a room of a running ``fuse serve``, as the browser takes one: ``POST
/api/rooms/{code}/join`` for a seat token, then the room's WebSocket (``/ws/{code}?token=...``)
for the same frames and messages (docs/protocol.md).

The join is made before the app starts (``take_seat``), with the standard library, so that a bad
link, a server that is down or a full room is one line and an exit code. The seat's token is kept
in the user's data directory (``SeatBook``), as the page keeps it in the browser's storage: the
same link joined again from this machine takes the same seat back, even once the game has started.

``RemoteLink`` then carries the frames over the ``websockets`` package on the app's event loop and,
as the page's ``RoomSocket`` does, opens the socket again by itself whenever it closes (a server
restart, a ``kill -9``, a dropped connection, a socket gone silent), with the seat's token and a
growing wait between tries: the server answers with ``welcome`` and the current state, so nothing
is replayed here.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import websockets
from websockets.asyncio.client import ClientConnection, connect
from websockets.sync.client import connect as connect_now

#: Seconds to wait for the server to answer the join.
JOIN_TIMEOUT_S = 10.0
#: A ping goes out this often while the socket is open, and a socket whose pong has not come this
#: long after its ping is taken for dead (as the page's): it is dropped and opened again.
PING_EVERY_S = 5.0
PONG_WAIT_S = 10.0
#: The longest wait between two tries to open the socket again (the first waits half a second,
#: each one twice as long as the one before).
MAX_BACKOFF_S = 8.0
#: The close codes after which trying again is no use: the room is gone (4404).
FINAL_CODES = frozenset({4404})
#: The seats kept in the book (the newest).
BOOK_SIZE = 100


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

    def socket_url(self, token: str | None) -> str:
        """The room's WebSocket URL with the seat's token (a spectator's without one)."""
        return self.ws_url + (f"?token={quote(token)}" if token else "")


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


#: A refused join (``reason`` of the server's answer) in the command line's words.
REFUSED = {
    "full": "every seat is taken (watch the game: fuse play --join {url} --watch)",
    "started": "the game has started (watch it: fuse play --join {url} --watch)",
    "seat_taken": "that seat is taken",
}


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
        detail, reason, params = _refusal(e)
        if e.code == 404:
            if reason == "finished" and params.get("log_id") is not None:
                raise JoinError(f"the game of room {link.code} is over: it is in the BDT Log as game "
                                f"{params['log_id']}") from None
            raise JoinError(f"no room {link.code} at {link.base}: {detail}") from None
        said = REFUSED.get(reason or "", detail).format(url=f"{link.base}/#/room/{link.code}")
        raise JoinError(f"cannot join room {link.code}: {said}") from None
    except (urllib.error.URLError, OSError, TimeoutError) as e:
        why = getattr(e, "reason", None) or e
        raise JoinError(f"cannot reach the server at {link.base}: {why}") from None
    except ValueError:
        raise JoinError(f"{link.base} did not answer as a FUSE server") from None
    try:
        return int(data["seat"]), str(data["token"])
    except (KeyError, TypeError, ValueError):
        raise JoinError(f"{link.base} did not answer as a FUSE server") from None


def _refusal(e: urllib.error.HTTPError) -> tuple[str, str | None, dict[str, Any]]:
    try:
        data: Any = json.loads(e.read().decode("utf-8"))
        return (str(data.get("detail") or e.reason), data.get("reason"), dict(data.get("params") or {}))
    except (ValueError, AttributeError, OSError, TypeError):
        return str(e.reason), None, {}


def seat_of(link: RoomLink, token: str) -> int | None:
    """The seat ``token`` holds in the room, as the room's ``welcome`` says it (None: the room
    does not know the token). ``JoinError`` when the room cannot be reached or is gone."""
    try:
        with connect_now(link.socket_url(token), open_timeout=JOIN_TIMEOUT_S,
                         close_timeout=1, max_size=2**22) as ws:
            while True:
                frame = json.loads(ws.recv(timeout=JOIN_TIMEOUT_S))
                if frame.get("type") == "welcome":
                    seat = frame.get("seat")
                    return int(seat) if seat is not None else None
                if frame.get("type") == "error" and frame.get("code") == "unknown_room":
                    log_id = (frame.get("params") or {}).get("log_id")
                    if log_id is not None:
                        raise JoinError(f"the game of room {link.code} is over: it is in the BDT Log "
                                        f"as game {log_id}")
                    raise JoinError(f"no room {link.code} at {link.base}")
    except (OSError, TimeoutError, websockets.exceptions.WebSocketException) as e:
        raise JoinError(f"cannot reach the server at {link.base}: {e}") from None


class SeatBook:
    """The seats this user holds in rooms of ``fuse serve``s, by link: each one's number, token
    and name, in ``terminal-seats.json`` in the user's data directory (``$FUSE_DATA_DIR``, else
    ``~/.local/share/fusegame``, beside the BDT Log's database), readable by the user alone."""

    def __init__(self, path: Path | None = None) -> None:
        if path is None:
            from fusegame.server.storage import data_dir

            path = data_dir() / "terminal-seats.json"
        self.path = path

    @staticmethod
    def key(link: RoomLink) -> str:
        return f"{link.base}/#/room/{link.code}"

    def _read(self) -> dict[str, dict[str, Any]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            seats = data.get("seats") if isinstance(data, dict) else None
            return {k: v for k, v in seats.items() if isinstance(v, dict)} if isinstance(seats, dict) else {}
        except (OSError, ValueError):
            return {}

    def _write(self, seats: dict[str, dict[str, Any]]) -> None:
        newest = dict(sorted(seats.items(), key=lambda kv: -float(kv[1].get("at", 0)))[:BOOK_SIZE])
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"version": 1, "seats": newest}, f, indent=1)
            os.replace(tmp, self.path)
        except OSError:
            pass  # a seat that cannot be remembered lasts as long as this game's process

    def get(self, link: RoomLink) -> tuple[int, str] | None:
        """The seat and token kept for ``link``, if any."""
        got = self._read().get(self.key(link))
        try:
            return (int(got["seat"]), str(got["token"])) if got else None
        except (KeyError, TypeError, ValueError):
            return None

    def put(self, link: RoomLink, seat: int, token: str, name: str) -> None:
        seats = self._read()
        seats[self.key(link)] = {"seat": seat, "token": token, "name": name, "at": time.time()}
        self._write(seats)

    def forget(self, link: RoomLink) -> None:
        seats = self._read()
        if seats.pop(self.key(link), None) is not None:
            self._write(seats)


def take_seat(link: RoomLink, name: str, book: SeatBook | None = None) -> tuple[int, str, bool]:
    """The seat to sit in: the one kept in ``book`` for this link when the room still knows its
    token (whether or not the game has started), else a new one (``join``), then kept. Returns the
    seat, its token and whether it was taken back."""
    kept = book.get(link) if book is not None else None
    if kept is not None:
        seat = seat_of(link, kept[1])
        if seat is not None:
            return seat, kept[1], True
        assert book is not None
        book.forget(link)
    seat, token = join(link, name)
    if book is not None:
        book.put(link, seat, token, name)
    return seat, token, False


class RemoteLink:
    """The room's WebSocket with the seat's token (a spectator's without one); frames go to
    ``deliver``. The socket is opened again by itself when it closes: ``on_status`` hears
    ``connecting`` (with the try's number) when it is lost, ``open`` when it is back and
    ``watching`` when the room no longer knows the seat's token; ``on_close`` hears why when it is
    given up (the room is gone)."""

    arriving = "joining"  #: the screen's word until the first frame

    def __init__(self, link: RoomLink, seat: int | None, token: str | None,
                 book: SeatBook | None = None) -> None:
        self.link = link
        self.seat: int | None = seat
        self.token = token
        self.book = book
        self.seeded: bool | None = None  #: whether the deal was chosen: the log entry says it
        self._ws: ClientConnection | None = None
        self._runner: asyncio.Task[None] | None = None
        self._closed = False
        self._wait_at_least = 0.0
        self.on_close: Callable[[str], None] = lambda why: None
        self.on_status: Callable[[str, int], None] = lambda state, attempt: None

    async def start(self, deliver: Callable[[str], None]) -> None:
        """Open the room's socket and hand every frame to ``deliver``, until ``close``."""
        self._runner = asyncio.get_running_loop().create_task(self._run(deliver))

    async def _run(self, deliver: Callable[[str], None]) -> None:
        attempt = 0
        while not self._closed:
            url = self.link.socket_url(self.token)
            try:
                ws = await connect(url, max_size=2**22, open_timeout=JOIN_TIMEOUT_S,
                                   ping_interval=PING_EVERY_S, ping_timeout=PONG_WAIT_S, close_timeout=2)
            except (OSError, websockets.exceptions.WebSocketException, TimeoutError) as e:
                attempt += 1
                self.on_status("connecting", attempt)
                if attempt == 1 and isinstance(e, websockets.exceptions.InvalidStatus) and \
                        e.response.status_code in (403, 404):
                    self.on_close(f"{e}")
                    return
                await self._pause(attempt)
                continue
            self._ws = ws
            if attempt:
                self.on_status("open", 0)
            attempt = 0
            final = await self._read(ws, deliver)
            self._ws = None
            if self._closed:
                return
            if final is not None:
                self.on_close(final)
                return
            attempt = 1
            self.on_status("connecting", attempt)
            await self._pause(attempt)

    async def _pause(self, attempt: int) -> None:
        backoff = min(MAX_BACKOFF_S, 0.5 * 2 ** (attempt - 1)) * (0.75 + random.random() * 0.5)
        wait, self._wait_at_least = max(backoff, self._wait_at_least), 0.0
        await asyncio.sleep(wait)

    async def _read(self, ws: ClientConnection, deliver: Callable[[str], None]) -> str | None:
        """Hand on the socket's frames until it closes; returns why when trying again is no use
        (``!`` and a key of the screen's words), else None."""
        final: str | None = None
        try:
            async for raw in ws:
                text = raw if isinstance(raw, str) else raw.decode("utf-8", "replace")
                frame = _peek(text)
                kind = frame.get("type")
                if kind == "welcome" and frame.get("seat") is None and self.token:
                    # a token the room no longer knows: this socket watches; the book forgets it
                    self.token, self.seat = None, None
                    if self.book is not None:
                        self.book.forget(self.link)
                    self.on_status("watching", 0)
                if kind == "error" and frame.get("code") == "unknown_room":
                    log_id = (frame.get("params") or {}).get("log_id")
                    final = "!room_gone" if log_id is None else f"!room_over {int(log_id)}"
                elif kind == "error" and frame.get("code") == "rate_limited":
                    self._wait_at_least = float((frame.get("params") or {}).get("retry_after") or 0)
                elif kind == "pong":
                    continue
                deliver(text)
        except websockets.exceptions.ConnectionClosed as e:
            if e.rcvd is not None and e.rcvd.code in FINAL_CODES:
                final = final or (e.rcvd.reason or f"code {e.rcvd.code}")
        except OSError:
            pass
        return final

    def message(self, text: str) -> None:
        """Send one message (JSON text) to the room; while the socket is away a move is dropped
        (the table will have changed by the time it is back), as the page drops it."""
        ws = self._ws
        if ws is None:
            return
        task = asyncio.get_running_loop().create_task(self._send(ws, text))
        task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)

    @staticmethod
    async def _send(ws: ClientConnection, text: str) -> None:
        with contextlib.suppress(websockets.exceptions.ConnectionClosed):
            await ws.send(text)

    async def entry(self, log_id: int) -> dict[str, Any] | None:
        """The game's entry in the server's BDT Log (whether it is ranked, and why not)."""
        def read() -> dict[str, Any] | None:
            try:
                with urllib.request.urlopen(f"{self.link.base}/api/log/{int(log_id)}",
                                            timeout=JOIN_TIMEOUT_S) as resp:
                    data = json.loads(resp.read().decode("utf-8"))
                return data if isinstance(data, dict) else None
            except (OSError, ValueError):
                return None

        return await asyncio.to_thread(read)

    async def close(self) -> None:
        """Close the socket and stop trying."""
        self._closed = True
        ws = self._ws
        if ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 2)
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._runner


def _peek(text: str) -> dict[str, Any]:
    try:
        frame = json.loads(text)
    except ValueError:
        return {}
    return frame if isinstance(frame, dict) else {}
