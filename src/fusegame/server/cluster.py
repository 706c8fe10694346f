"""Many ``fuse serve`` processes as one service: room ownership and relays on Redis.

``fuse serve --redis redis://HOST:PORT/N`` joins this process to the others sharing that Redis
and one database. Each room has one **owner**, the process whose lease on it
(``fuse:room:CODE:owner``, a key with a time to live, renewed every ``RENEW_S``) is in Redis; only
the owner runs the room's pipeline, so the first claim of a die still wins exactly. A socket or a
request that lands on another process is **relayed**: that process tells the owner on the owner's
channel (``fuse:proc:ID``) and the owner answers on the relay's, in order (one publishing task a
process). When a lease lapses, because its owner died or stopped, any process that meets the room
(a page reconnecting, or the sweep every ``SWEEP_S``) takes it over from the database, where the
owner wrote every change before showing it.

What it takes from Colyseus is the owner per room with its presence in Redis, and the routing of
each client to that owner; unlike Colyseus the room's state is not in Redis but in the database,
which every change reaches first, so a takeover replays it. What it takes from Socket.IO's Redis
adapter is the relay of frames by publish and subscribe; unlike it, only the owner broadcasts,
and relays are per socket, not per room.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from fusegame.server.sockets import SocketClient, through_the_door
from fusegame.server.storage import StorageError
from fusegame.server.wire import CLOSE_MOVED

if TYPE_CHECKING:
    from fusegame.server.guard import Rates
    from fusegame.server.lobby import Lobby
    from fusegame.server.room import Room

log = logging.getLogger("fusegame.server")

#: How long a lease lasts unless renewed, and how often its owner renews it.
LEASE_MS = 4000
RENEW_S = 1.0
#: How often a process looks for rooms in the database that nobody owns, and how long a room must
#: have been seen unowned before it is taken (a page that reconnects takes it at once): an owner
#: whose lease vanished with a restarted Redis claims it again first, at its next renewal.
SWEEP_S = 1.0
UNOWNED_S = 2.5
#: How long a relayed request waits for the owner's answer, and a relayed socket for the owner's
#: greeting before it closes for its page to reconnect (the word that opened it may have been lost).
CALL_TIMEOUT_S = 5.0

_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


def owner_key(code: str) -> str:
    return f"fuse:room:{code}:owner"


def channel(process: str) -> str:
    return f"fuse:proc:{process}"


def alive_key(process: str) -> str:
    return f"fuse:proc:{process}:alive"


def _text(value: str | bytes | None) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


class Unavailable(Exception):
    """The cluster cannot be reached (Redis is down): a look-up of a room held elsewhere waits."""

    def to_dict(self) -> dict[str, Any]:
        """The body of the 503 that refuses a request (an error frame says ``detail`` as its
        ``message``)."""
        return {"detail": f"the room cannot be reached just now ({self}): try again",
                "reason": "unavailable", "params": {}}


@dataclass(frozen=True)
class Remote:
    """A room held by another process."""

    code: str
    owner: str


class RemoteClient:
    """On the owner: a socket held by another process (a relay), as the room sees a client."""

    def __init__(self, cluster: Cluster, relay: str, conn: str, seat: int | None, address: str,
                 rates: Rates | None) -> None:
        self.cluster = cluster
        self.relay = relay
        self.conn = conn
        self.seat = seat
        self.address = address
        self.rates = rates
        self.closed = False

    def send(self, text: str) -> None:
        if not self.closed:
            # frames are most of the traffic: sent as they are, after the connection's id, not
            # wrapped and escaped in another JSON document
            self.cluster.tell_frame(self.relay, "o", self.conn, text)

    def shut(self, code: int = CLOSE_MOVED) -> None:
        if not self.closed:
            self.closed = True
            self.cluster.tell(self.relay, {"k": "shut", "conn": self.conn, "code": code})

    def close_soon(self, code: int) -> None:
        self.shut(code)


class Cluster:
    """This process's part in the service: its leases, its channel and its relays."""

    def __init__(self, url: str, lobby: Lobby, rates: Rates | None = None) -> None:
        self.url = url
        self.me = secrets.token_hex(8)
        # its connections carry its name, so that Redis's CLIENT LIST says which process is which
        self.redis: aioredis.Redis = aioredis.Redis.from_url(url, decode_responses=True,
                                                              socket_timeout=2, socket_connect_timeout=2,
                                                              client_name=f"fuse:{self.me}")
        self.lobby = lobby
        self.rates = rates
        #: sockets of rooms owned here that are held by other processes, by connection id
        self.remote: dict[str, tuple[Room, RemoteClient]] = {}
        #: sockets held here whose rooms are owned elsewhere: (room code, owner, the socket)
        self.relays: dict[str, tuple[str, str, SocketClient]] = {}
        self._ungreeted: set[str] = set()  # relayed sockets the owner has not written to yet
        self._calls: dict[str, asyncio.Future[tuple[int, Any]]] = {}
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._unowned: dict[str, float] = {}  # rooms seen without an owner, since when
        self._ids = itertools.count()
        self.reachable = True
        self.handlers: dict[str, Callable[[Room, dict[str, Any]], Awaitable[tuple[int, Any]]]] = {}
        lobby.on_drop = self._dropped
        lobby.fenced = True

    # ================================================================== starting and stopping
    async def start(self) -> None:
        """Subscribe to this process's channel, take the rooms nobody owns, and keep going."""
        await self.redis.set(alive_key(self.me), "1", px=LEASE_MS)
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(channel(self.me))
        self._tasks = [asyncio.create_task(self._listen(pubsub)), asyncio.create_task(self._send()),
                       asyncio.create_task(self._renew()), asyncio.create_task(self._sweep())]
        await self.sweep(at_once=True)

    async def close(self) -> None:
        """Give every lease up (the other processes take the rooms over from the database) and
        tell the relays of this process's rooms that their sockets should reconnect."""
        for room, client in list(self.remote.values()):
            client.shut()
            room.disconnect(client)
        self.remote.clear()
        for conn, (_, _, sock) in list(self.relays.items()):
            self.relay_close(conn)  # the owner lets the seat go now, not when our key lapses
            sock.close_soon(CLOSE_MOVED)
        codes = list(self.lobby.rooms)
        with contextlib.suppress(TimeoutError):  # Redis may be away: what is left unsaid is lost
            await asyncio.wait_for(self._outbox.join(), 5)
        with contextlib.suppress(RedisError, OSError):
            await self.redis.delete(alive_key(self.me))
            for code in codes:
                await self.redis.eval(_RELEASE, 1, owner_key(code), self.me)
        for task in self._tasks:
            task.cancel()
        with contextlib.suppress(RedisError, OSError):
            await self.redis.aclose()

    # ================================================================== owning rooms
    async def claim(self, code: str) -> bool:
        """Take the lease on ``code`` if nobody holds it."""
        return bool(await self.redis.set(owner_key(code), self.me, nx=True, px=LEASE_MS))

    async def new_code(self) -> str:
        """A code for a new room, claimed by this process (``Unavailable`` without Redis)."""
        try:
            while True:
                code = self.lobby.new_code()
                if await self.claim(code):
                    return code
        except (RedisError, OSError) as e:
            raise Unavailable(str(e)) from None

    async def find(self, code: str) -> Room | Remote | None:
        """The room ``code``: held here, held elsewhere, or taken over from the database now;
        None when there is no such room. ``Unavailable`` when Redis cannot be reached."""
        room = self.lobby.rooms.get(code)
        if room is not None:
            # a page is never shown a table this process no longer holds (it may have lost the
            # room while paused, or while Redis was away, and not have written since; or lose it
            # while the database is asked)
            if await self.lobby.still_held(room) and self.lobby.rooms.get(code) is room:
                return room
        try:
            owner = _text(await self.redis.get(owner_key(code)))
            if owner is not None and owner != self.me:
                return Remote(code, owner)
            if not await asyncio.to_thread(self.lobby.storage.has_room, code):
                return None
            if owner == self.me or await self.claim(code):
                await self.take([code])
                return self.lobby.rooms.get(code)
            owner = _text(await self.redis.get(owner_key(code)))
        except (RedisError, OSError, StorageError) as e:
            raise Unavailable(str(e)) from None
        return Remote(code, owner) if owner is not None else None

    async def take(self, codes: list[str]) -> None:
        """Bring rooms whose leases this process has just claimed back from the database."""
        n = self.lobby.resume(codes)
        if n:
            log.warning("took over %d room(s) from the database", n)

    def _dropped(self, room: Room) -> None:
        for conn, (r, client) in list(self.remote.items()):
            if r is room:
                client.shut()
                del self.remote[conn]
        self._outbox.put_nowait(("release", room.code))

    async def sweep(self, at_once: bool = False) -> None:
        """Take over the rooms in the database that nobody has owned for ``UNOWNED_S`` (or at
        once, when this process starts)."""
        codes = [c for c in await asyncio.to_thread(self.lobby.storage.room_codes)
                 if c not in self.lobby.rooms]
        if not codes:
            self._unowned = {}
            return
        owners = await self.redis.mget([owner_key(c) for c in codes])
        now = asyncio.get_running_loop().time()
        seen = {c: self._unowned.get(c, now) for c, o in zip(codes, owners, strict=True) if o is None}
        ready = [c for c, since in sorted(seen.items()) if at_once or now - since >= UNOWNED_S]
        self._unowned = {c: since for c, since in seen.items() if c not in ready}
        mine = [c for c in ready if await self.claim(c)]
        if mine:
            await self.take(mine)

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_S)
            try:
                await self.sweep()
            except (RedisError, OSError):
                pass  # said by the renewal, which meets it too
            except Exception:
                log.exception("the sweep for rooms nobody owns failed")

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(RENEW_S)
            try:
                await self.renew()
                if not self.reachable:
                    log.warning("Redis is back at %s: rooms are found across processes again", self.url)
                    self.reachable = True
                    self._reconnect_relayed()
            except (RedisError, OSError) as e:
                if self.reachable:
                    log.error("Redis cannot be reached at %s (%s): the rooms held here play on; "
                              "sockets relayed to other processes reconnect; rooms held elsewhere "
                              "wait until it is back", self.url, e)
                    self.reachable = False
                    self._close_relays()
            except Exception:
                log.exception("renewing the leases failed")

    async def renew(self) -> None:
        """Renew this process's leases; claim again those that vanished (a restarted Redis), and
        give up a room whose lease another process now holds. Sockets relayed by a process that
        has died leave their rooms, as a page that closed its socket would; the process is told
        so all the same, since it may only have stalled, and its pages must reconnect."""
        await self.redis.set(alive_key(self.me), "1", px=LEASE_MS)
        relays = sorted({client.relay for _, client in self.remote.values()})
        if relays:
            alive = await self.redis.mget([alive_key(p) for p in relays])
            dead = {p for p, a in zip(relays, alive, strict=True) if a is None}
            for conn, (room, client) in list(self.remote.items()):
                if client.relay in dead:
                    del self.remote[conn]
                    client.shut()
                    room.disconnect(client)
        codes = list(self.lobby.rooms)
        if codes:
            pipe = self.redis.pipeline(transaction=False)
            for code in codes:
                pipe.eval(_RENEW, 1, owner_key(code), self.me, LEASE_MS)
            renewed = await pipe.execute()
            for code, ok in zip(codes, renewed, strict=True):
                if not ok and not await self.claim(code):
                    lost = self.lobby.rooms.get(code)
                    if lost is not None:
                        self.lobby.lost(lost)
        # a relayed socket whose room's owner has changed reconnects, to be served by the new one
        if self.relays:
            conns = list(self.relays)
            owners = await self.redis.mget([owner_key(self.relays[c][0]) for c in conns])
            for conn, owner in zip(conns, owners, strict=True):
                code, was, sock = self.relays[conn]
                if owner != was:
                    self.relays.pop(conn, None)
                    sock.close_soon(CLOSE_MOVED)

    def _reconnect_relayed(self) -> None:
        """Messages between processes may have been lost (Redis was away, or this process's
        channel was): every socket relayed through another process, both ways, closes, and its
        page reconnects to the room where it is held now. Neither end can tell what the other
        missed, and the other end may have let the socket go already."""
        for room, client in list(self.remote.values()):
            client.shut()
            room.disconnect(client)
        self.remote.clear()
        self._close_relays()

    def _close_relays(self) -> None:
        for conn, (_, _, sock) in list(self.relays.items()):
            self.relays.pop(conn, None)
            sock.close_soon(CLOSE_MOVED)

    # ================================================================== messages between processes
    def tell(self, process: str, message: dict[str, Any]) -> None:
        """Send ``message`` to ``process``, after every message this process sent before it."""
        self._outbox.put_nowait((channel(process), json.dumps(message, separators=(",", ":"))))

    def tell_frame(self, process: str, kind: str, conn: str, text: str) -> None:
        """A socket's frame, to the owner (``i``) or back to its relay (``o``), in order with the rest."""
        self._outbox.put_nowait((channel(process), f"{kind}{conn}\n{text}"))

    async def _send(self) -> None:
        while True:
            target, data = await self._outbox.get()
            try:
                if target == "release":
                    await self.redis.eval(_RELEASE, 1, owner_key(data), self.me)
                else:
                    await self.redis.publish(target, data)
            except (RedisError, OSError) as e:
                log.debug("a message between processes was lost: %s", e)
            except Exception:
                log.exception("a message between processes could not be sent")
            finally:
                self._outbox.task_done()

    async def _listen(self, pubsub: Any) -> None:
        subscribed = True
        while True:
            try:
                if not subscribed:  # Redis went away: subscribe again once it is back
                    await pubsub.subscribe(channel(self.me))
                    subscribed = True
                    # what was sent to this process meanwhile is lost, even where it never saw
                    # Redis away (a process paused all the while, whose relays' owners have let
                    # their sockets go): the relayed sockets reconnect
                    self._reconnect_relayed()
                item = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError):
                subscribed = False
                await asyncio.sleep(0.5)
                continue
            if item is None or item.get("type") != "message":
                continue
            try:
                data: str = item["data"]
                if data[:1] in ("o", "i"):
                    conn, _, text = data[1:].partition("\n")
                    self._on_frame(data[0], conn, text)
                else:
                    self._on_message(json.loads(data))
            except Exception:
                log.exception("a message between processes could not be handled")

    def _on_frame(self, kind: str, conn: str, text: str) -> None:
        if kind == "o":  # a frame from a room's owner, for a socket held here
            self._ungreeted.discard(conn)
            relay = self.relays.get(conn)
            if relay is not None:
                relay[2].send(text)
        else:  # a frame from a socket held by a relay, for a room owned here
            held = self.remote.get(conn)
            if held is not None:
                through_the_door(held[1], held[0], text)

    def _on_message(self, m: dict[str, Any]) -> None:
        kind = m.get("k")
        if kind == "shut":
            relay = self.relays.pop(m["conn"], None)
            if relay is not None:
                relay[2].close_soon(int(m.get("code", CLOSE_MOVED)))
        elif kind == "open":
            room = self.lobby.rooms.get(m["code"])
            if room is None:
                self.tell(m["from"], {"k": "shut", "conn": m["conn"], "code": CLOSE_MOVED})
                return
            client = RemoteClient(self, m["from"], m["conn"], room.seat_of(m.get("token")),
                                  m.get("address", "unknown"), self.rates)
            self.remote[m["conn"]] = (room, client)
            room.connect(client)
        elif kind == "close":
            held = self.remote.pop(m["conn"], None)
            if held is not None:
                held[1].closed = True
                held[0].disconnect(held[1])
        elif kind == "call":
            asyncio.get_running_loop().create_task(self._answer(m))
        elif kind == "reply":
            fut = self._calls.pop(m["id"], None)
            if fut is not None and not fut.done():
                fut.set_result((int(m["status"]), m["body"]))

    # ================================================================== relaying
    def relay_open(self, remote: Remote, sock: SocketClient, token: str | None) -> str:
        """Hold ``sock`` here for a room owned by ``remote.owner``; returns its connection id."""
        conn = f"{self.me}.{next(self._ids)}"
        self.relays[conn] = (remote.code, remote.owner, sock)
        self.tell(remote.owner, {"k": "open", "code": remote.code, "conn": conn, "from": self.me,
                                 "token": token, "address": sock.address})
        self._ungreeted.add(conn)
        asyncio.get_running_loop().call_later(CALL_TIMEOUT_S, self._greeting_due, conn)
        return conn

    def _greeting_due(self, conn: str) -> None:
        """The owner greets every socket it is told of at once (or says it has no such room): a
        socket still waiting was never heard of, its opening lost on the way (the owner's channel
        was away for a moment), and its page reconnects rather than wait on a room that does not
        know it is there."""
        if conn not in self._ungreeted:
            return
        self._ungreeted.discard(conn)
        relay = self.relays.get(conn)
        if relay is not None:
            log.warning("room %s: the process holding it never answered a socket relayed to it; "
                        "the page reconnects", relay[0])
            self.relay_close(conn)  # in case the owner has it after all
            relay[2].close_soon(CLOSE_MOVED)

    def relay_frame(self, conn: str, text: str) -> None:
        relay = self.relays.get(conn)
        if relay is not None:
            self.tell_frame(relay[1], "i", conn, text)

    def relay_close(self, conn: str) -> None:
        relay = self.relays.pop(conn, None)
        if relay is not None:
            self.tell(relay[1], {"k": "close", "conn": conn})

    async def call(self, remote: Remote, op: str, args: dict[str, Any]) -> tuple[int, Any]:
        """Run ``op`` (a handler in ``handlers``) on the room's owner; its status and body."""
        call_id = f"{self.me}.{next(self._ids)}"
        fut: asyncio.Future[tuple[int, Any]] = asyncio.get_running_loop().create_future()
        self._calls[call_id] = fut
        self.tell(remote.owner, {"k": "call", "id": call_id, "from": self.me, "op": op,
                                 "code": remote.code, "args": args})
        try:
            return await asyncio.wait_for(fut, CALL_TIMEOUT_S)
        except TimeoutError:
            raise Unavailable(f"the process holding room {remote.code} did not answer") from None
        finally:
            self._calls.pop(call_id, None)

    async def _answer(self, m: dict[str, Any]) -> None:
        room = self.lobby.rooms.get(m["code"])
        handler = self.handlers.get(m["op"])
        if room is None or handler is None:
            status, body = 503, {"detail": "the room is moving to another process: try again"}
        else:
            try:
                status, body = await handler(room, m["args"])
            except Exception:
                log.exception("a relayed %s failed", m["op"])
                status, body = 500, {"detail": "internal error"}
        self.tell(m["from"], {"k": "reply", "id": m["id"], "status": status, "body": body})
