"""A person at the table through one socket, for the tests that play across several server
processes (``tests/server/test_cluster*.py``): makes the first move offered to their seat."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any, Protocol

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

Frame = dict[str, Any]


class Player:
    """A person at the table through one socket: makes the first move offered to their seat."""

    def __init__(self, name: str, token: str, think: float = 0.0) -> None:
        self.name = name
        self.token = token
        self.think = think
        self.seqs: list[int] = []
        self.welcomes: list[Frame] = []
        #: the process whose socket the page has open now (``seated``), for a test's failure to say
        self.connected_to: str | None = None

    def saw(self, frame: Frame) -> None:
        """Every frame the page reads, as it reads it (a test may keep them)."""

    async def play(self, ws: ClientConnection, stop_after: int | None = None) -> Frame | None:
        """Play until the game is over (its ``over`` frame) or ``stop_after`` state frames. On each
        new state the page sends the first move offered; a move refused (a die a teammate took
        first) is followed by the next one offered, as a person would try another die, and once
        every move offered is refused the page waits for the table to change."""
        offered: list[str] = []
        tried = 0
        seen = 0
        while True:
            m: Frame = json.loads(await ws.recv())
            self.saw(m)
            if m["type"] == "welcome":
                self.welcomes.append(m)
            if m["type"] == "over":
                return m
            if m["type"] == "state":
                self.seqs.append(m["seq"])
                seen += 1
                if stop_after is not None and seen >= stop_after:
                    return None
                moves = m["moves"]
                offered = ([p["actions"][0] for p in moves["place"]]
                           + [a["action"] for a in moves["actions"]])
                tried = 0
            elif m["type"] == "error":
                if m["code"] == "unavailable":  # a process that cannot reach Redis: try elsewhere
                    return None
                if m["code"] == "unknown_room" and m.get("reason") == "finished":
                    return {"type": "over", "log_id": m["params"]["log_id"]}  # the page shows the log
                assert m["code"] == "illegal" or m.get("reason") == "over", m  # a die taken first
                tried += 1
            else:
                continue
            if tried < len(offered):
                if self.think:
                    await asyncio.sleep(self.think)
                await ws.send(json.dumps({"type": "act", "action": offered[tried]}))


class Server(Protocol):
    ws_base: str


async def seated(player: Player, servers: Sequence[Server], code: str, first: int = 0,
                 headers: dict[str, str] | None = None) -> Frame:
    """A page that plays its seat to the end of the game, opening its socket on ``servers[first]``
    and again on the next process (as a load balancer would send it) whenever the socket closes."""
    for attempt in range(3000):
        server = servers[(first + attempt) % len(servers)]
        try:
            async with connect(f"{server.ws_base}/ws/{code}?token={player.token}", open_timeout=5,
                               additional_headers=headers) as ws:
                player.connected_to = server.ws_base
                over = await player.play(ws)
                if over is not None:
                    return over
        except (ConnectionClosed, InvalidStatus, OSError, TimeoutError):
            pass
        await asyncio.sleep(0.1)
    raise AssertionError(f"{player.name} never saw the end of the game in room {code}")
