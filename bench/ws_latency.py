"""Benchmark: the browser game server under load, many matches of scripted players over loopback WebSockets.

    python bench/ws_latency.py                              # 500 players, 4 to a match, 60 s
    python bench/ws_latency.py --players 100 --duration 30
    python bench/ws_latency.py --players 8 --duration 5 --json
    python bench/ws_latency.py --url http://127.0.0.1:8000 --pid 4242   # a server already running
    python bench/ws_latency.py --players 2000 --processes 2   # two processes sharing a redis-server
    python bench/ws_latency.py --players 500 --bot-rooms 100  # and 100 rooms of bots playing beside them
    python bench/ws_latency.py --players 500 --reviews 30     # and reviews of logged games made all along

Starts ``fuse serve`` (``python -m fusegame.cli serve``) on a free port with a throwaway SQLite BDT
Log and without rate limits (every player comes from this one address), waits for
``GET /api/health``, and stops it at the end; ``--url`` targets a running server instead (started
with ``--no-rate-limits`` too; ``--pid`` gives its process id, for its CPU time). ``--with-limits``
keeps the server's rate limits on and sends each match from a loopback address of its own
(127.1.x.y), as tables at home would come, so that the limits' cost is measured too. Every match is a
room of ``--per-match`` seats, all of them scripted players (no bots): each one joins over HTTP,
opens its WebSocket and says it is ready. Players connect at ``--ramp`` per second; the measurement
window of ``--duration`` seconds starts once every player is connected, so the ramp is not measured.

A scripted player, on every ``state`` frame that lets it do something, thinks for a random time
in ``--think`` (seconds), then sends one action and waits for its answer before the next one: a
random legal placement when it has any, else ``done`` when that is listed, else a random listed
action (take, give, reroll, roll...). It picks its die when it starts thinking; if another player
places that die meanwhile it still sends its claim with probability ``--race`` (it committed
before noticing: the real-time race of the game, answered by an ``illegal`` error, counted as a
lost race) and otherwise picks again from the table as it is now. A match that ends before the
window does is replaced at once by a new room for the same players, so the load stays constant
(at the default pace a match lasts two or three minutes, so a one-minute window sees few end).
``--bot-rooms N`` adds N rooms of bots playing beside the players, all the time: each is made as a
person makes one (a seat taken, the others filled with bots, ready, then the seat handed to the
bot) and watched by its socket to its end, then replaced by a new one. They take turns at the
shapes in ``BOT_GAMES`` (FUSE 5 players and 4 players with roles and sparks, Countdown 4 players,
FUSE 3 players: the planner's slow rolls are at 4 and 5 players) at the server's bot pace, or
``--bot-delay-ms``. Their moves are the server's bots' and hints' work (the team planner), which
the claims of the players must not wait for. The window then also waits (up to ``BOTS_START_S``) for
every room of bots to have made its first move: the server's planner process starts with the first
question, a few seconds that are not measured either.
``--reviews N`` logs N finished games (4 greedy bots at a person's pace) before the server starts and
asks for their reviews one after another all along (``GET /api/log/{id}/review``, again every half
second until each is ready), so that the server's review worker is always busy beside the players.
The players offer permessage-deflate as browsers do; ``fuse serve`` declines it (compressing each
socket's copy of a frame cost 40% of the server's time), so ``--no-deflate`` only matters against a
server that accepts it.

Measured, for claims (placements) sent in the window:

* claim latency: from sending the claim to its sender receiving the ``state`` frame whose events
  hold the resulting ``die_placed`` (or the ``error`` frame refusing it);
* fan-out latency: from sending the claim until every player of the match has that state frame;
* claims/s, frames/s received, illegal claims (and how many were lost races), matches finished;
* CPU from /proc: the server process's CPU seconds per second of wall time (cores used), CPU ms
  per match per second, CPU µs per claim; the load generator's own CPU, and the rest of the
  machine's. The generator runs in this one process on the same machine, so it competes with the
  server for the cores, and its own event-loop delays are part of the latencies it measures: the
  lag of its event loop is reported too. Other work on the machine shows as "everything else";
  when it takes a core's worth, the tail latencies say more about it than about the server.

Exit status 0, or 1 when the server could not be started or reached.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import os
import random
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed, WebSocketException

try:
    from websockets.asyncio.client import connect as ws_connect
except ImportError:  # websockets before 13 has only the legacy client
    from websockets import connect as ws_connect  # type: ignore[no-redef,attr-defined]

TARGET_P99_MS = 50.0
CLK_TCK = os.sysconf("SC_CLK_TCK")
#: A non-placement action whose answer cannot be told apart is given up on after this long.
ANSWER_TIMEOUT_S = 5.0
#: The window waits at most this long (seconds) after the ramp for every room of bots to move.
BOTS_START_S = 60.0
#: The rooms of bots of --bot-rooms take turns at these shapes.
BOT_GAMES: list[dict[str, Any]] = [
    {"players": 5, "difficulty": "standard"},
    {"players": 4, "difficulty": "expert", "modules": ["roles", "sparks"]},
    {"players": 4, "game": "countdown", "difficulty": "standard"},
    {"players": 3, "difficulty": "standard"},
]
#: Events that end the leader's penalty choice without naming a seat.
_TURN_EVENTS = ("penalty_rolled", "turn_ended", "dice_rolled", "dice_rerolled")


# ====================================================================== CPU from /proc
def proc_cpu(pid: int | None) -> float | None:
    """CPU seconds (user + system) used so far by process ``pid``, or None when unreadable."""
    if pid is None:
        return None
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # the command name may hold spaces: the fields after it start at the state letter (field 3)
    fields = text.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def machine_cpu() -> float | None:
    """Busy CPU seconds of the whole machine, all cores together, or None when unreadable."""
    try:
        first = Path("/proc/stat").read_text().split("\n", 1)[0].split()
    except OSError:
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in first[1:9])
    return (user + nice + system + irq + softirq + steal) / CLK_TCK


def percentiles(xs: list[float]) -> dict[str, float | int | None]:
    """n, p50, p90, p99 and max of ``xs`` (nearest rank), in the units given."""
    if not xs:
        return {"n": 0, "p50": None, "p90": None, "p99": None, "max": None}
    s = sorted(xs)

    def at(q: float) -> float:
        return round(s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))], 3)

    return {"n": len(s), "p50": at(0.50), "p90": at(0.90), "p99": at(0.99), "max": round(s[-1], 3)}


# ====================================================================== the load
@dataclass
class Stats:
    """Counters of the whole run; the ``w_`` ones only count inside the measurement window."""

    measuring: bool = False
    claim_ms: list[float] = field(default_factory=list)
    fanout_ms: list[float] = field(default_factory=list)
    lag_ms: list[float] = field(default_factory=list)  #: how late this process's event loop runs
    claims: int = 0  #: placements sent, whole run (for the progress line)
    w_claims: int = 0
    w_acts: int = 0  #: every action sent: placements, done, take, ...
    w_frames: int = 0
    w_bytes: int = 0
    w_illegal: int = 0
    w_lost_races: int = 0
    w_other_errors: int = 0
    w_finished: int = 0
    w_started: int = 0
    connected: int = 0
    dropped: int = 0  #: sockets the server closed during a match
    w_bot_frames: int = 0  #: state frames the rooms of bots sent their watchers (one a move)
    w_bot_games: int = 0  #: games of bots that ended in the window
    bot_rooms: int = 0  #: rooms of bots being played now
    bot_failures: int = 0
    w_reviews: int = 0  #: reviews of logged games that came ready in the window
    failures: int = 0  #: matches that could not be set up or went wrong (HTTP errors, odd frames)
    last_failure: str = ""


@dataclass
class Pending:
    """An action sent and not answered yet."""

    kind: str
    die: int | None
    t_send: float
    measured: bool


class Match:
    """One room being played: who has received which state frame, for the fan-out latency."""

    def __init__(self, stats: Stats, size: int) -> None:
        self.stats = stats
        self.size = size
        self.received: dict[int, list[float]] = {}  # seq -> [players that have it, time of the last]
        self.waiting: dict[int, list[float]] = {}  # seq -> send times of claims it answered
        self.over = asyncio.Event()  #: the match is over for this script (played out or given up)
        self.played_out = False  #: the server sent ``over``

    def delivered(self, seq: int, t: float) -> None:
        entry = self.received.get(seq)
        if entry is None:
            entry = self.received[seq] = [0, t]
            if len(self.received) > 256:  # a frame not everyone got by now never will be
                for old in [k for k in self.received if k < seq - 128]:
                    del self.received[old]
                    self.waiting.pop(old, None)
        entry[0] += 1
        entry[1] = t
        if entry[0] == self.size:
            for t_send in self.waiting.pop(seq, ()):
                self.stats.fanout_ms.append((t - t_send) * 1000)

    def claim_answered(self, seq: int, t_send: float) -> None:
        entry = self.received.get(seq)
        if entry is not None and entry[0] >= self.size:
            self.stats.fanout_ms.append((entry[1] - t_send) * 1000)
        else:
            self.waiting.setdefault(seq, []).append(t_send)


class Player:
    """One scripted player: a socket, what it may do now, and at most one action in flight."""

    def __init__(self, bench: Bench, name: str, rng: random.Random) -> None:
        self.bench = bench
        self.name = name
        self.rng = rng
        self.seat = 0
        self.match: Match | None = None
        self.ws: Any = None
        self.moves: dict[str, Any] = {"place": [], "actions": []}
        self.pending: Pending | None = None
        self.taken: set[int] = set()  # dice other players placed since this player chose its own
        self.wake = asyncio.Event()

    # ---------------------------------------------------------------- receiving
    async def listen(self) -> None:
        st = self.bench.stats
        async for raw in self.ws:
            t = time.perf_counter()
            if st.measuring:
                st.w_frames += 1
                st.w_bytes += len(raw)
            self.on_frame(json.loads(raw), t)

    def on_frame(self, msg: dict[str, Any], t: float) -> None:
        st = self.bench.stats
        kind = msg.get("type")
        m = self.match
        assert m is not None
        if kind == "state":
            seq = msg["seq"]
            m.delivered(seq, t)
            self.moves = msg["moves"]
            p = self.pending
            for ev in msg["events"]:
                ek = ev["kind"]
                if ek == "die_placed":
                    if ev["seat"] != self.seat:
                        self.taken.add(ev["die"]["id"])
                    elif p is not None and p.kind == "place" and p.die == ev["die"]["id"]:
                        if p.measured:
                            st.claim_ms.append((t - p.t_send) * 1000)
                            m.claim_answered(seq, p.t_send)
                        self.pending = p = None
                elif p is not None and p.kind != "place" and (ev.get("seat") == self.seat
                                                              or ek in _TURN_EVENTS):
                    self.pending = p = None
            if self.pending is None and (self.moves["place"] or self.moves["actions"]):
                self.wake.set()
        elif kind == "error":
            p, self.pending = self.pending, None
            if p is not None and p.measured:
                if msg.get("code") == "illegal":
                    st.w_illegal += 1
                    if p.kind == "place" and p.die in self.taken:
                        st.w_lost_races += 1
                else:
                    st.w_other_errors += 1
                if p.kind == "place":
                    st.claim_ms.append((t - p.t_send) * 1000)
            self.wake.set()
        elif kind == "over":
            m.played_out = True
            m.over.set()

    # ---------------------------------------------------------------- acting
    def choose(self) -> tuple[str, str, int | None, str | None] | None:
        """(kind, action text, die, card) for what this player does now, or None for nothing."""
        mv = self.moves
        if mv["place"]:
            p = self.rng.choice(mv["place"])
            slot = self.rng.choice(p["slots"])
            return "place", f"place d{p['die']} {p['card']} s{slot + 1}", p["die"], p["card"]
        acts = mv["actions"]
        if not acts:
            return None
        done = [a for a in acts if a["kind"] == "done"]
        a = done[0] if done else self.rng.choice(acts)
        return a["kind"], a["action"], None, None

    def still_free(self, die: int | None, card: str | None) -> bool:
        return any(p["die"] == die and p["card"] == card for p in self.moves["place"])

    async def act(self, match: Match) -> None:
        """Think and act whenever a frame leaves this player something to do, until the match ends."""
        b = self.bench
        lo, hi = b.think
        while not match.over.is_set() and not b.stop.is_set():
            try:
                # not wait_for: on Python 3.11 it can swallow the cancellation that ends this loop
                async with asyncio.timeout(ANSWER_TIMEOUT_S):
                    await self.wake.wait()
            except TimeoutError:
                if self.pending is not None and time.perf_counter() - self.pending.t_send > ANSWER_TIMEOUT_S:
                    self.pending = None  # an answer this script could not recognise: go on
                    self.wake.set()
                continue
            self.wake.clear()
            if self.pending is not None:
                continue
            plan = self.choose()
            if plan is None:
                continue
            self.taken.clear()
            await asyncio.sleep(self.rng.uniform(lo, hi))
            if self.pending is not None or match.over.is_set():
                continue
            kind, _text, die, card = plan
            if kind != "place" or not self.still_free(die, card) and not (
                    die in self.taken and self.rng.random() < b.race):
                plan = self.choose()  # look at the table again (a lost die, or a new turn)
                if plan is None:
                    continue
            kind, text, die, _card = plan
            st = b.stats
            t = time.perf_counter()
            self.pending = Pending(kind, die, t, st.measuring)
            if kind == "place":
                st.claims += 1
            if st.measuring:
                st.w_acts += 1
                st.w_claims += kind == "place"
            with contextlib.suppress(ConnectionClosed):  # the listening task reports a closed socket
                await self.ws.send(json.dumps({"type": "act", "action": text}))


async def _close(ws: Any) -> None:
    with contextlib.suppress(Exception):
        async with asyncio.timeout(5):
            await ws.close()


async def _one_after_another(b: Bench, start_delay: float, play_one: Callable[[], Awaitable[None]],
                             failed: Callable[[Exception], None]) -> None:
    """A team's or a bot room's games, one after another until the bench stops; a game that fails
    (the server refused or dropped it) is counted and the next one starts a second later."""
    await asyncio.sleep(start_delay)
    while not b.stop.is_set():
        try:
            await play_one()
        except (OSError, httpx.HTTPError, WebSocketException, KeyError, ValueError, TimeoutError) as e:
            if b.stop.is_set():
                return
            failed(e)
            await asyncio.sleep(1.0)


class Team:
    """``per_match`` players who play one match after another until the run stops."""

    def __init__(self, bench: Bench, index: int) -> None:
        self.bench = bench
        self.index = index
        self.players = [Player(bench, f"p{index}-{k}", random.Random(f"{bench.seed}:{index}:{k}"))
                        for k in range(bench.per_match)]
        self.rooms = 0
        self.first_connected = False
        #: where this team's connections come from: one loopback address per team with --with-limits
        self.address = f"127.1.{index // 250}.{index % 250 + 1}" if bench.spread else None
        self.http = bench.http if self.address is None else httpx.AsyncClient(
            base_url=bench.url, timeout=30, transport=httpx.AsyncHTTPTransport(local_address=self.address))
        #: one client per server: the bench's own, or with --with-limits bound to this team's address
        #: (room creations counted on Redis for one address would all be refused)
        self.https = bench.https if self.address is None else [self.http] + [
            httpx.AsyncClient(base_url=u, timeout=30,
                              transport=httpx.AsyncHTTPTransport(local_address=self.address))
            for u in bench.urls[1:]]

    async def run(self, start_delay: float) -> None:
        def failed(e: Exception) -> None:
            self.bench.stats.failures += 1
            self.bench.stats.last_failure = f"{type(e).__name__}: {e}"

        await _one_after_another(self.bench, start_delay, self.play_one, failed)

    async def play_one(self) -> None:
        b = self.bench
        st = b.stats
        seed = (b.seed * 1_000_003 + self.index * 1009 + self.rooms) % (1 << 48)
        self.rooms += 1
        # with several processes the room is created on one and its players spread over all of
        # them, as a load balancer without sticky sessions would send them
        n = len(b.urls)
        create = self.http if n == 1 else self.https[self.index % n]
        r = await create.post("/api/rooms", json={"players": b.per_match, "difficulty": "standard",
                                                  "bot_delay_ms": 0, "seed": seed})
        r.raise_for_status()
        code = r.json()["code"]
        match = Match(st, b.per_match)
        tokens = []
        for k, p in enumerate(self.players):
            http = self.http if n == 1 else self.https[(self.index + k) % n]
            r = await http.post(f"/api/rooms/{code}/join", json={"name": p.name, "seat": k})
            r.raise_for_status()
            tokens.append(r.json()["token"])
        tasks: list[asyncio.Task[None]] = []
        opened = []
        try:
            for k, (p, token) in enumerate(zip(self.players, tokens)):
                where = {} if self.address is None else {"local_addr": (self.address, 0)}
                ws_base = b.ws_bases[(self.index + k) % n]
                p.ws = await ws_connect(f"{ws_base}/ws/{code}?token={token}", max_size=1 << 22,
                                        ping_interval=None, open_timeout=30,
                                        compression="deflate" if b.deflate else None, **where)
                opened.append(p)
                st.connected += 1
                p.seat, p.match, p.pending = k, match, None
                p.moves = {"place": [], "actions": []}
                p.wake.clear()
                tasks.append(asyncio.create_task(self._listen(p, match)))
                tasks.append(asyncio.create_task(p.act(match)))
            if not self.first_connected:
                self.first_connected = True
                b.team_connected()
            for p in self.players:
                await p.ws.send('{"type":"ready","ready":true}')
            if st.measuring:
                st.w_started += 1
            stop = asyncio.create_task(b.stop.wait())
            over = asyncio.create_task(match.over.wait())
            await asyncio.wait([stop, over], return_when=asyncio.FIRST_COMPLETED)
            stop.cancel()
            over.cancel()
            if match.played_out and st.measuring:
                st.w_finished += 1
        finally:
            match.over.set()
            for t in tasks:
                t.cancel()
            st.connected -= len(opened)
            await asyncio.gather(*(_close(p.ws) for p in opened))
            if tasks:
                await asyncio.wait(tasks, timeout=5)

    async def _listen(self, p: Player, match: Match) -> None:
        st = self.bench.stats
        try:
            await p.listen()
        except (OSError, ConnectionClosed) as e:
            st.last_failure = f"{type(e).__name__}: {e}"
        except Exception as e:  # a frame this script does not understand: give the match up, say why
            st.failures += 1
            st.last_failure = f"{type(e).__name__}: {e}"
        if not self.bench.stop.is_set() and not match.over.is_set():
            st.dropped += 1
            match.over.set()  # replace the match rather than play it short-handed


class BotRoom:
    """One room of bots after another (``--bot-rooms``), each watched by its socket to its end."""

    def __init__(self, bench: Bench, index: int) -> None:
        self.bench = bench
        self.index = index
        self.games = 0
        self.moved = False  # whether its bots have made a move yet

    async def run(self, start_delay: float) -> None:
        def failed(e: Exception) -> None:
            self.bench.stats.bot_failures += 1
            self.bench.stats.last_failure = f"bot room: {type(e).__name__}: {e}"

        await _one_after_another(self.bench, start_delay, self.play_one, failed)

    async def play_one(self) -> None:
        b = self.bench
        st = b.stats
        options: dict[str, Any] = {**BOT_GAMES[(self.index + self.games) % len(BOT_GAMES)], "hints": False,
                                   "seed": (b.seed * 7_000_003 + self.index * 1013 + self.games) % (1 << 48)}
        self.games += 1
        if b.bot_delay_ms is not None:
            options["bot_delay_ms"] = b.bot_delay_ms
        r = await b.http.post("/api/rooms", json=options)
        r.raise_for_status()
        code = r.json()["code"]
        r = await b.http.post(f"/api/rooms/{code}/join", json={"name": f"b{self.index}"})
        r.raise_for_status()
        ws = await ws_connect(f"{b.ws_bases[0]}/ws/{code}?token={r.json()['token']}", max_size=1 << 22,
                              ping_interval=None, open_timeout=30, compression=None)
        st.bot_rooms += 1
        try:
            await ws.send('{"type":"fill_bots"}')
            await ws.send('{"type":"ready","ready":true}')
            handed = False
            states = 0
            stop = asyncio.create_task(b.stop.wait())
            try:
                while True:
                    recv = asyncio.create_task(ws.recv())
                    await asyncio.wait([recv, stop], timeout=120, return_when=asyncio.FIRST_COMPLETED)
                    if not recv.done():
                        recv.cancel()
                        if stop.done():
                            return
                        raise TimeoutError("a room of bots sent nothing for 120 s")
                    text = recv.result()
                    # only the kind of frame is read: this process must not parse what it only counts
                    if text.startswith('{"type":"state"'):
                        if st.measuring:
                            st.w_bot_frames += 1
                        states += 1
                        if states == 2 and not self.moved:  # the deal's frame, then a bot's move
                            self.moved = True
                            b.bot_room_moving()
                        if not handed:
                            handed = True
                            await ws.send('{"type":"bot","seat":0,"on":true}')
                    elif text.startswith('{"type":"over"'):
                        if st.measuring:
                            st.w_bot_games += 1
                        return
            finally:
                stop.cancel()
        finally:
            st.bot_rooms -= 1
            await _close(ws)


class Bench:
    """The whole run: the teams, the measurement window, the figures."""

    def __init__(self, args: argparse.Namespace, urls: list[str], pids: list[int | None],
                 redis_pid: int | None = None) -> None:
        #: the server processes (one unless --processes), and the Redis they share
        self.urls = [u.rstrip("/") for u in urls]
        self.url = self.urls[0]
        self.ws_bases = ["ws" + u.removeprefix("http") for u in self.urls]
        self.pids = pids
        self.redis_pid = redis_pid
        self.per_match = args.per_match
        self.teams = max(1, args.players // args.per_match)
        self.players = self.teams * self.per_match
        self.duration = args.duration
        self.ramp = args.ramp
        self.think = args.think
        self.race = args.race
        self.deflate = not args.no_deflate
        self.spread = args.with_limits
        self.seed = args.seed
        self.progress = args.progress
        self.bot_room_count = args.bot_rooms
        self.bot_delay_ms: int | None = args.bot_delay_ms
        self.review_ids: list[int] = list(args.review_ids)
        self.stats = Stats()
        self.stop = asyncio.Event()
        self.all_connected = asyncio.Event()
        self._teams_connected = 0
        #: set once every room of bots has seen its bots' first move: until then the server's planner
        #: process is starting (a second or more), which the window does not measure, as the ramp
        self.bots_moving = asyncio.Event()
        self._bot_rooms_moving = 0
        self.http = httpx.AsyncClient(base_url=self.url, timeout=30,
                                      limits=httpx.Limits(max_connections=32))
        self.https = [self.http] + [httpx.AsyncClient(base_url=u, timeout=30,
                                                      limits=httpx.Limits(max_connections=32))
                                    for u in self.urls[1:]]

    def server_cpu(self) -> float | None:
        """CPU seconds used so far by every server process together."""
        times = [proc_cpu(p) for p in self.pids]
        return None if any(t is None for t in times) else sum(t for t in times if t is not None)

    def team_connected(self) -> None:
        self._teams_connected += 1
        if self._teams_connected == self.teams:
            self.all_connected.set()

    def bot_room_moving(self) -> None:
        self._bot_rooms_moving += 1
        if self._bot_rooms_moving == self.bot_room_count:
            self.bots_moving.set()

    async def run(self) -> dict[str, Any]:
        st = self.stats
        teams = [Team(self, i) for i in range(self.teams)]
        t0 = time.perf_counter()
        runs = [asyncio.create_task(t.run(i * self.per_match / self.ramp)) for i, t in enumerate(teams)]
        # the rooms of bots start beside the first players, a few a second, and play all along
        runs += [asyncio.create_task(BotRoom(self, i).run(i * 0.1)) for i in range(self.bot_room_count)]
        if self.review_ids:
            runs.append(asyncio.create_task(self._reviews()))
        progress = asyncio.create_task(self._progress(t0)) if self.progress else None
        lag = asyncio.create_task(self._lag())
        # a generous limit for the ramp: a server too slow to let everyone in is itself a result
        ramp_limit = self.players / self.ramp + 30 + 0.1 * self.players
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.all_connected.wait(), ramp_limit)
        ramp_s = time.perf_counter() - t0
        if self.bot_room_count:
            # and no room of bots is still waiting for the planner's process to start
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.bots_moving.wait(), BOTS_START_S)
        bots_s = time.perf_counter() - t0
        await asyncio.sleep(1.0)  # let the last rooms deal their first roll
        # what exists now lives to the end: keep it out of the collector, so that this process's
        # full collections (pauses every latency would share) stay short
        gc.collect()
        gc.freeze()

        cpu0, gen0, mach0 = self.server_cpu(), time.process_time(), machine_cpu()
        redis0 = proc_cpu(self.redis_pid)
        w0 = time.perf_counter()
        st.measuring = True
        self.window_start = w0
        await asyncio.sleep(self.duration)
        st.measuring = False
        wall = time.perf_counter() - w0
        cpu1, gen1, mach1 = self.server_cpu(), time.process_time(), machine_cpu()
        redis1 = proc_cpu(self.redis_pid)
        connected = st.connected

        self.stop.set()
        lag.cancel()
        if progress is not None:
            progress.cancel()
            sys.stderr.write("\r\033[K")
        _done, stuck = await asyncio.wait(runs, timeout=30)
        for t in stuck:
            t.cancel()
        for h in self.https:
            await h.aclose()
        for t in teams:
            for h in t.https if t.https is not self.https else []:
                await h.aclose()
            if t.http is not self.http and t.http not in t.https:
                await t.http.aclose()

        server = None if cpu0 is None or cpu1 is None else cpu1 - cpu0
        gen = gen1 - gen0
        redis = None if redis0 is None or redis1 is None else redis1 - redis0
        other = None if mach0 is None or mach1 is None or server is None else (
            (mach1 - mach0) - server - gen - (redis or 0.0))
        claim = percentiles(st.claim_ms)
        fanout = percentiles(st.fanout_ms)
        p99 = claim["p99"]
        return {
            "url": self.url, "processes": len(self.urls), "players": self.players,
            "per_match": self.per_match, "matches": self.teams,
            "connected": connected, "ramp_s": round(ramp_s, 1), "bots_start_s": round(bots_s, 1),
            "duration_s": round(wall, 2),
            "think_s": list(self.think), "race": self.race, "seed": self.seed, "deflate": self.deflate,
            "rate_limits": self.spread,
            "claims": st.w_claims, "claims_per_s": round(st.w_claims / wall, 1),
            "actions": st.w_acts, "frames": st.w_frames, "frames_per_s": round(st.w_frames / wall, 1),
            "kib_per_s": round(st.w_bytes / 1024 / wall, 1),
            "illegal": st.w_illegal, "lost_races": st.w_lost_races, "other_errors": st.w_other_errors,
            "matches_started": st.w_started, "matches_finished": st.w_finished,
            "dropped_sockets": st.dropped, "failed_matches": st.failures,
            "bot_rooms": self.bot_room_count, "bot_delay_ms": self.bot_delay_ms,
            "bot_moves_per_s": round(st.w_bot_frames / wall, 1), "bot_games_finished": st.w_bot_games,
            "bot_rooms_at_end": st.bot_rooms, "bot_failures": st.bot_failures,
            "last_failure": st.last_failure or None,
            "reviews_logged": len(self.review_ids), "reviews_made": st.w_reviews,
            "claim_ms": claim, "fanout_ms": fanout, "generator_lag_ms": percentiles(st.lag_ms),
            "server_cpu": None if server is None else {
                "seconds": round(server, 2), "cores": round(server / wall, 3),
                "ms_per_match_per_s": round(server / wall / self.teams * 1000, 3),
                "us_per_claim": round(server / st.w_claims * 1e6, 1) if st.w_claims else None,
            },
            "redis_cpu": None if redis is None else {
                "cores": round(redis / wall, 3),
                "us_per_claim": round(redis / st.w_claims * 1e6, 1) if st.w_claims else None},
            "generator_cpu": {"seconds": round(gen, 2), "cores": round(gen / wall, 3)},
            "other_cpu_cores": None if other is None else round(max(0.0, other) / wall, 3),
            "cpus": os.cpu_count(),
            "target_p99_ms": TARGET_P99_MS,
            "p99_ok": None if p99 is None else p99 < TARGET_P99_MS and connected == self.players,
        }

    async def _reviews(self) -> None:
        """Ask for the logged games' reviews one after another, each until it is ready."""
        for log_id in self.review_ids:
            while not self.stop.is_set():
                r = await self.http.get(f"/api/log/{log_id}/review")
                if r.status_code != 202:
                    if r.status_code == 200 and self.stats.measuring:
                        self.stats.w_reviews += 1
                    break
                await asyncio.sleep(0.5)

    async def _lag(self) -> None:
        # a late wake-up here is a delay every frame this process received at that moment shares
        st = self.stats
        while True:
            t = time.perf_counter()
            await asyncio.sleep(0.01)
            if st.measuring:
                st.lag_ms.append((time.perf_counter() - t - 0.01) * 1000)

    async def _progress(self, t0: float) -> None:
        st = self.stats
        while True:
            await asyncio.sleep(1.0)
            if st.measuring:
                phase = f"measuring {time.perf_counter() - self.window_start:4.0f}/{self.duration:g} s"
            else:
                phase = f"ramp {time.perf_counter() - t0:4.0f} s"
            p99 = percentiles(st.claim_ms)["p99"]
            bots = f"  bot rooms {st.bot_rooms}" if self.bot_room_count else ""
            sys.stderr.write(f"\r\033[K{phase}  players {st.connected}/{self.players}{bots}"
                             f"  claims {st.claims}  illegal {st.w_illegal}"
                             + (f"  p99 {p99:.1f} ms" if p99 is not None else ""))
            sys.stderr.flush()


# ====================================================================== the server
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_redis(workdir: Path) -> tuple[subprocess.Popen[bytes], str]:
    """Debian's ``redis-server`` on a free port, without persistence; raises RuntimeError."""
    exe = shutil.which("redis-server")
    if exe is None:
        raise RuntimeError("--processes needs redis-server (apt-get install redis-server)")
    port = free_port()
    proc = subprocess.Popen([exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", str(workdir)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1) as c:
            c.sendall(b"PING\r\n")
            if c.recv(16).startswith(b"+PONG"):
                return proc, f"redis://127.0.0.1:{port}/0"
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError("redis-server did not come up")


def start_server(db: str, log: Path, limits: bool = False,
                 redis: str | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """``fuse serve`` on a free port, once it answers ``GET /api/health``; raises RuntimeError."""
    port = free_port()
    cmd = [sys.executable, "-m", "fusegame.cli", "serve", "--port", str(port), "--db", db]
    if redis is not None:
        cmd += ["--redis", redis]
    if not limits:  # every player comes from this one address: the per-address limits would refuse them
        cmd.append("--no-rate-limits")
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited ({proc.returncode}): {log.read_text()[-2000:]}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/api/health", timeout=2).status_code == 200:
                return proc, url
        time.sleep(0.2)
    stop_server(proc)
    raise RuntimeError(f"the server did not answer /api/health within 60 s: {log.read_text()[-2000:]}")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()  # uvicorn shuts down gracefully on SIGTERM
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


# ====================================================================== output
def _ms(d: dict[str, Any], k: str) -> str:
    v = d.get(k)
    return "-" if v is None else f"{v:.1f}"


def table(r: dict[str, Any]) -> str:
    """The result as a few readable lines."""
    c, f = r["claim_ms"], r["fanout_ms"]
    s = r["server_cpu"]
    g = r["generator_cpu"]
    lines = [
        f"{r['players']} players in {r['matches']} matches of {r['per_match']} at {r['url']}"
        + (f" and {r['processes'] - 1} more process(es) sharing Redis" if r["processes"] > 1 else "") +
        f" (think {r['think_s'][0]:g}-{r['think_s'][1]:g} s, race {r['race']:g}, seed {r['seed']}"
        f"{'' if r['deflate'] else ', no compression'}"
        f"{', rate limits on, a loopback address per match' if r['rate_limits'] else ''})",
        f"window {r['duration_s']:.1f} s after a {r['ramp_s']:.1f} s ramp"
        + (f" (the bots moving after {r['bots_start_s']:.1f} s)" if r["bot_rooms"] else "") + ";"
        f" {r['connected']} connected at its end",
        "",
        f"{'latency, ms':<24}{'n':>8}{'p50':>8}{'p90':>8}{'p99':>8}{'max':>8}",
        f"{'claim to own frame':<24}{c['n']:>8}{_ms(c, 'p50'):>8}{_ms(c, 'p90'):>8}{_ms(c, 'p99'):>8}"
        f"{_ms(c, 'max'):>8}",
        f"{'claim to all players':<24}{f['n']:>8}{_ms(f, 'p50'):>8}{_ms(f, 'p90'):>8}{_ms(f, 'p99'):>8}"
        f"{_ms(f, 'max'):>8}",
        "",
        f"claims {r['claims']} ({r['claims_per_s']:.1f}/s), all actions {r['actions']}, "
        f"frames received {r['frames']} ({r['frames_per_s']:.0f}/s, {r['kib_per_s']:.0f} KiB/s)",
        f"illegal claims {r['illegal']} (lost races {r['lost_races']}), other errors {r['other_errors']}, "
        f"matches started {r['matches_started']}, finished {r['matches_finished']}",
    ]
    if r["reviews_logged"]:
        lines.append(f"reviews of logged games beside them: {r['reviews_made']} made in the window"
                     f" (of {r['reviews_logged']} logged games asked in turn)")
    if r["bot_rooms"]:
        pace = "the server's bot pace" if r["bot_delay_ms"] is None else f"bot delay {r['bot_delay_ms']} ms"
        lines.append(f"rooms of bots beside them {r['bot_rooms']} ({pace}; {r['bot_rooms_at_end']} in play at"
                     f" the end): {r['bot_moves_per_s']:.1f} moves/s, {r['bot_games_finished']} games"
                     f" finished, {r['bot_failures']} failed")
    if r["dropped_sockets"] or r["failed_matches"]:
        lines.append(f"dropped sockets {r['dropped_sockets']}, failed matches {r['failed_matches']}"
                     f" (last: {r['last_failure']})")
    lines.append("")
    if s is None:
        lines.append("server CPU: unknown (give --pid for a server started elsewhere)")
    else:
        per_claim = "-" if s["us_per_claim"] is None else f"{s['us_per_claim']:.0f}"
        lines.append(f"server CPU {s['cores']:.2f} cores: {s['ms_per_match_per_s']:.2f} ms per match per"
                     f" second, {per_claim} µs per claim")
    if r["redis_cpu"] is not None:
        rc = r["redis_cpu"]
        lines.append(f"redis-server CPU {rc['cores']:.2f} cores, {rc['us_per_claim'] or 0:.0f} µs per claim")
    other = r["other_cpu_cores"]
    lag = r["generator_lag_ms"]
    lines.append(f"load generator CPU {g['cores']:.2f} cores (it shares the machine's {r['cpus']} cores"
                 f" with the server)" + ("" if other is None else f"; everything else {other:.2f} cores"))
    lines.append(f"load generator event-loop lag p50 {_ms(lag, 'p50')}, p99 {_ms(lag, 'p99')},"
                 f" max {_ms(lag, 'max')} ms (part of every latency above)")
    if r["p99_ok"] is not None:
        verdict = "under" if r["p99_ok"] else "NOT under"
        lines.append(f"claim p99 {_ms(c, 'p99')} ms: {verdict} the {r['target_p99_ms']:g} ms target")
    return "\n".join(lines)


def _think(text: str) -> tuple[float, float]:
    lo, _, hi = text.partition("-")
    a, b = float(lo), float(hi or lo)
    if not 0 <= a <= b:
        raise argparse.ArgumentTypeError(f"--think wants LOW-HIGH seconds, e.g. 0.3-1.5, not {text!r}")
    return a, b


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=500,
                    help="players connected at once, rounded down to whole matches (default 500)")
    ap.add_argument("--per-match", type=int, default=4, help="players in one match, 1 to 5 (default 4)")
    ap.add_argument("--duration", type=float, default=60.0, help="measurement window, seconds (default 60)")
    ap.add_argument("--think", type=_think, default=(0.3, 1.5),
                    help="seconds between seeing something to do and doing it, LOW-HIGH (default 0.3-1.5)")
    ap.add_argument("--race", type=float, default=0.5,
                    help="probability of claiming a die anyway after someone else placed it (default 0.5)")
    ap.add_argument("--ramp", type=float, default=50.0, help="players connected per second (default 50)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--with-limits", action="store_true",
                    help="keep the server's rate limits on; each match comes from its own loopback address")
    ap.add_argument("--no-deflate", action="store_true",
                    help="do not offer permessage-deflate (browsers do, so it is on by default)")
    ap.add_argument("--processes", type=int, default=1,
                    help="server processes sharing a redis-server started for the run; each match's "
                         "players are spread over them (default 1: one process, no Redis)")
    ap.add_argument("--url", default=None, help="a server already running, e.g. http://127.0.0.1:8000")
    ap.add_argument("--pid", type=int, default=None, help="that server's process id, for its CPU time")
    ap.add_argument("--bot-rooms", type=int, default=0,
                    help="rooms of bots playing beside the players all along (default 0)")
    ap.add_argument("--bot-delay-ms", type=int, default=None,
                    help="the bot rooms' bot delay (default: the server's, as a room made on the page)")
    ap.add_argument("--reviews", type=int, default=0,
                    help="log this many finished games first and ask for their reviews all along")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    args = ap.parse_args(argv)
    if not 1 <= args.processes <= 16 or (args.processes > 1 and args.url is not None):
        ap.error("--processes is 1 to 16, and starts its own servers (not with --url)")
    if not 1 <= args.per_match <= 5 or args.players < args.per_match or args.duration <= 0 or args.ramp <= 0:
        ap.error("--per-match is 1 to 5, --players at least --per-match, --duration and --ramp above 0")
    args.progress = sys.stderr.isatty()

    # two sockets per player (ours and the server's) plus the database and HTTP connections
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, max(soft, 4 * (args.players + args.bot_rooms) + 256))
    if want > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))

    with tempfile.TemporaryDirectory(prefix="fuse-bench-") as tmp:
        procs: list[subprocess.Popen[bytes]] = []
        redis_proc = None
        if args.url is None:
            try:
                redis = None
                if args.processes > 1:
                    redis_proc, redis = start_redis(Path(tmp))
                urls = []
                args.review_ids = log_games(f"sqlite:///{tmp}/bench.db", args.reviews)
                for i in range(args.processes):
                    proc, url = start_server(f"sqlite:///{tmp}/bench.db", Path(tmp) / f"server{i}.log",
                                             limits=args.with_limits, redis=redis)
                    procs.append(proc)
                    urls.append(url)
            except RuntimeError as e:
                print(f"ws_latency: {e}", file=sys.stderr)
                for proc in procs:
                    stop_server(proc)
                if redis_proc is not None:
                    redis_proc.kill()
                return 1
            pids: list[int | None] = [p.pid for p in procs]
        else:
            urls, pids = [args.url], [args.pid]
            args.review_ids = []
            try:
                httpx.get(f"{args.url.rstrip('/')}/api/health", timeout=5).raise_for_status()
            except httpx.HTTPError as e:
                print(f"ws_latency: {args.url} does not answer /api/health: {e}", file=sys.stderr)
                return 1
        try:
            result = _run(lambda: Bench(args, urls, pids, redis_proc.pid if redis_proc else None).run())
        finally:
            for proc in procs:
                stop_server(proc)
            if redis_proc is not None:
                redis_proc.kill()
                redis_proc.wait()
    print(json.dumps(result, indent=2) if args.json else table(result))
    return 0


def log_games(db: str, count: int) -> list[int]:
    """Log ``count`` finished games of 4 greedy bots at a person's pace; their ids."""
    if count <= 0:
        return []
    from fusegame import GameConfig
    from fusegame.record import final_state
    from fusegame.server.storage import Storage, entry_from_state
    from fusegame.sim import Pace, get_policy, play_game

    store = Storage(db)
    try:
        ids = []
        for i in range(count):
            result = play_game(GameConfig(players=4), 900 + i, get_policy("greedy"), Pace(), record=True)
            assert result.record is not None
            ids.append(store.save_game(entry_from_state(final_state(result.record), result.record,
                                                        [f"Bot {k + 1}" for k in range(4)], 4)))
        return ids
    finally:
        store.close()


def _run(make: Callable[[], Any]) -> dict[str, Any]:
    async def go() -> dict[str, Any]:
        result: dict[str, Any] = await make()
        return result

    try:
        import uvloop  # the server runs on it too (uvicorn's default when it is installed)
    except ImportError:
        return asyncio.run(go())
    return uvloop.run(go())


if __name__ == "__main__":
    sys.exit(main())
