"""Who may knock, and how often: request rates per client address, and the origins of sockets.

Rates are counted by the ``limits`` library in memory, over moving windows ("at most N in any T
seconds"), per client address (an IPv6 address by its /64, which one household or host holds).
The limits are far above what a real table does, a team of nine behind one address chatting
fast included, and far below what a script needs to flood a room, fill memory with rooms or
guess room codes:

=========  ======================================  =========================================
kind       what counts                             limit per address
=========  ======================================  =========================================
create     rooms created (``POST /api/rooms``)     20 a minute, 200 an hour
join       seats taken (``POST .../join``)         60 a minute
lookup     ``GET /api/rooms/{code}``, socket opens 240 a minute
miss       look-ups of a code that is no room      30 a minute, 300 an hour
message    every frame a socket sends              500 in any 10 seconds
chat       chat lines and quick signals            60 in any 10 seconds
=========  ======================================  =========================================

Once an address has used up its misses, every look-up from it is refused until the window moves
on, so that a refusal never tells a guesser that a code exists.

On several processes the counts live on Redis. A Redis that is down or frozen must not stop the
games: each call to it has a short deadline (``REDIS_DEADLINE_S``), and once one fails the process
counts in its own memory for ``REDIS_PAUSE_S`` before it asks Redis again (the limits fail to a
local count, never open to a flood, and never hold the event loop for longer than the deadline).
"""

from __future__ import annotations

import ipaddress
import logging
import math
import time
from collections.abc import Callable, Iterable, Mapping
from typing import TypeVar
from urllib.parse import urlsplit

from limits import RateLimitItem, parse_many
from limits.errors import StorageError
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

log = logging.getLogger("fusegame.server")
T = TypeVar("T")

#: How long one call to a shared (Redis) count may take, in seconds, before it counts as failed.
REDIS_DEADLINE_S = 0.25
#: After a failed call, how long the process counts in its own memory before it tries Redis again.
REDIS_PAUSE_S = 5.0

RATE_LIMITS: dict[str, str] = {
    "create": "20/minute;200/hour",
    # a game played with the box, logged by hand: a table's evening is a few games, and one address
    # cannot fill the Log's first page (50 games) with made-up ones in a day
    "table": "6/hour;20/day",
    "join": "60/minute",
    "lookup": "240/minute",
    "miss": "30/minute;300/hour",
    "message": "500/10 seconds",
    "chat": "60/10 seconds",
}


#: Counted in each process's memory even in a cluster: every frame of a socket is counted, a socket
#: lives on one process, and a round trip to Redis for each frame held the event loop (two
#: processes at 1,000 players: claim p99 2,059 ms with the frames counted on Redis). An address's
#: sockets spread over N processes may send N times the limit: it guards against a flood, not a count.
LOCAL_KINDS = frozenset({"message", "chat"})


def client_key(host: str | None) -> str:
    """The address a limit is counted for: IPv4 as it is, IPv6 by its /64 network."""
    if not host:
        return "unknown"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]  # a test client's made-up name
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class Rates:
    """The rate limits of one server. ``Rates(None)`` counts nothing (``fuse serve
    --no-rate-limits``: load tests, which come from one address)."""

    def __init__(self, limits: Mapping[str, str] | None = RATE_LIMITS,
                 storage_uri: str | None = None) -> None:
        """``storage_uri`` (``redis://...``) counts on Redis, shared by the processes of a cluster;
        without it the counts are in this process's memory."""
        self.enabled = limits is not None
        self._items: dict[str, list[RateLimitItem]] = {
            kind: parse_many(text) for kind, text in (limits or {}).items()}
        self._local = MovingWindowRateLimiter(MemoryStorage())
        self._shared: MovingWindowRateLimiter | None = None
        if storage_uri and self.enabled:
            storage = storage_from_string(storage_uri, wrap_exceptions=True, socket_timeout=REDIS_DEADLINE_S,
                                          socket_connect_timeout=REDIS_DEADLINE_S)
            self._shared = MovingWindowRateLimiter(storage)
        self._paused_until = 0.0  # monotonic time until which the shared count is not asked

    @property
    def shared(self) -> bool:
        """Are the counts on Redis now (False while the process counts on its own after a failure)?"""
        return self._shared is not None and time.monotonic() >= self._paused_until

    def _counted(self, run: Callable[[MovingWindowRateLimiter], T], kind: str) -> T:
        """``run`` on the shared count, or on this process's own while Redis is away (and always
        for ``LOCAL_KINDS``)."""
        if self._shared is not None and kind not in LOCAL_KINDS and self.shared:
            try:
                return run(self._shared)
            except (StorageError, OSError) as e:
                self._paused_until = time.monotonic() + REDIS_PAUSE_S
                log.warning("rate limits: Redis did not answer (%s); counting in this process for %.0f s",
                            type(e).__name__, REDIS_PAUSE_S)
        return run(self._local)

    def hit(self, kind: str, key: str) -> float | None:
        """Count one ``kind`` for ``key``: None when allowed, else the seconds to wait."""
        items = self._items.get(kind)
        if not items:
            return None

        def run(limiter: MovingWindowRateLimiter) -> float | None:
            # test every window first, so that a refusal by one does not use up another
            wait = self._wait(limiter, kind, key)
            if wait is not None:
                return wait
            for item in items:
                if not limiter.hit(item, kind, key):
                    return self._wait_for(limiter, item, kind, key)
            return None

        return self._counted(run, kind)

    def wait(self, kind: str, key: str) -> float | None:
        """Without counting: None when one more ``kind`` would be allowed, else the seconds to wait."""
        return self._counted(lambda limiter: self._wait(limiter, kind, key), kind)

    def _wait(self, limiter: MovingWindowRateLimiter, kind: str, key: str) -> float | None:
        for item in self._items.get(kind, ()):
            if not limiter.test(item, kind, key):
                return self._wait_for(limiter, item, kind, key)
        return None

    @staticmethod
    def _wait_for(limiter: MovingWindowRateLimiter, item: RateLimitItem, kind: str, key: str) -> float:
        reset = limiter.get_window_stats(item, kind, key).reset_time
        return max(1.0, float(math.ceil(reset - time.time())))


def _origin(value: str) -> str | None:
    """``scheme://host[:port]`` in lower case without the scheme's default port, or None."""
    try:
        parts = urlsplit(value.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    default = 443 if parts.scheme == "https" else 80
    return f"{parts.scheme}://{host}" + (f":{port}" if port is not None and port != default else "")


class Origins:
    """Which pages may open a socket: the server's own (the ``Origin`` header names the host the
    request was sent to) and those given to ``fuse serve --allow-origin``. A request without an
    ``Origin`` header is not from a browser page (a script, a test, a load generator) and is let
    through: the check keeps other web sites from playing in a visitor's name."""

    def __init__(self, allowed: Iterable[str] = ()) -> None:
        self.any = False
        self.allowed: set[str] = set()
        for value in allowed:
            if value.strip() == "*":
                self.any = True
                continue
            origin = _origin(value)
            if origin is None:
                raise ValueError(f"not an origin: {value!r} (write it as https://host or http://host:port)")
            self.allowed.add(origin)

    def allows(self, origin: str | None, host: str | None) -> bool:
        if origin is None or self.any:
            return True
        mine = _origin(origin)
        if mine is None:
            return False  # "null" (a sandboxed frame or a file) or garbage
        if mine in self.allowed:
            return True
        if not host:
            return False
        scheme = mine.split("://", 1)[0]
        return _origin(f"{scheme}://{host}") == mine
