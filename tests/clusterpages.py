"""A person at the table through one socket, for the tests that play across several server
processes (``tests/server/test_cluster*.py``): makes the first move offered to their seat."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from websockets.asyncio.client import ClientConnection

Frame = dict[str, Any]


class Player:
    """A person at the table through one socket: makes the first move offered to their seat."""

    def __init__(self, name: str, token: str, think: float = 0.0) -> None:
        self.name = name
        self.token = token
        self.think = think
        self.seqs: list[int] = []
        self.welcomes: list[Frame] = []

    async def play(self, ws: ClientConnection, stop_after: int | None = None) -> Frame | None:
        """Play until the game is over (its ``over`` frame) or ``stop_after`` state frames."""
        acted_on = -1
        latest: Frame | None = None
        seen = 0
        while True:
            m: Frame = json.loads(await ws.recv())
            if m["type"] == "welcome":
                self.welcomes.append(m)
            if m["type"] == "over":
                return m
            if m["type"] == "state":
                latest = m
                self.seqs.append(m["seq"])
                seen += 1
                if stop_after is not None and seen >= stop_after:
                    return None
            elif m["type"] == "error":
                if m["code"] == "unavailable":  # a process that cannot reach Redis: try elsewhere
                    return None
                if m["code"] == "unknown_room" and m.get("reason") == "finished":
                    return {"type": "over", "log_id": m["params"]["log_id"]}  # the page shows the log
                assert m["code"] == "illegal" or m.get("reason") == "over", m  # a die taken first
                acted_on = -1
            if latest is None or latest["seq"] <= acted_on:
                continue
            moves = latest["moves"]
            action = (moves["place"][0]["actions"][0] if moves["place"]
                      else moves["actions"][0]["action"] if moves["actions"] else None)
            if action is not None:
                if self.think:
                    await asyncio.sleep(self.think)
                await ws.send(json.dumps({"type": "act", "action": action}))
                acted_on = latest["seq"]
