"""Chaos: a real ``fuse serve`` with a game in progress is killed (SIGKILL) or stopped (SIGTERM) and
started again on the same database; the players' sockets come back to their seats, find the same
table, and finish the game, which is logged whole."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from fusegame.record import GameRecord, replay
from fusegame.server.room import public_view
from fuseproc import FuseServer, rooms_held

pytestmark = pytest.mark.timeout(240)

Frame = dict[str, Any]


class Player:
    """A person at the table, scripted: on every new state that lets them act, they place the
    first die they can, or else take the first other action offered (done, take, give...)."""

    def __init__(self, name: str, seat: int, token: str) -> None:
        self.name, self.seat, self.token = name, seat, token
        self.ws: ClientConnection | None = None
        self.latest: Frame | None = None
        self.acted_on = -1
        self.pending = False
        self.over: Frame | None = None
        self.frames: list[Frame] = []

    async def connect(self, ws_base: str, code: str) -> list[Frame]:
        """Open the socket with the seat's token; returns the frames up to the first state."""
        self.ws = await connect(f"{ws_base}/ws/{code}?token={self.token}")
        self.pending, self.acted_on = False, -1
        first: list[Frame] = []
        while not first or first[-1]["type"] != "state":
            first.append(await self.receive())
        return first

    async def receive(self) -> Frame:
        assert self.ws is not None
        m: Frame = json.loads(await self.ws.recv())
        self.frames.append(m)
        if m["type"] == "state":
            self.latest = m
            self.pending = False  # what it sent may still be on its way: then it is refused, below
        elif m["type"] == "error":
            # a die another player took first, or a move sent as the game ended: nothing else
            assert m["code"] == "illegal" or m.get("reason") == "over", m
            self.pending = False
        elif m["type"] == "over":
            self.over = m
        return m

    async def act(self) -> None:
        """Act on the latest state if it is new and lets this seat do something."""
        f = self.latest
        if self.ws is None or f is None or self.pending or f["seq"] <= self.acted_on or self.over:
            return
        moves = f["moves"]
        if moves["place"]:
            action = moves["place"][0]["actions"][0]
        elif moves["actions"]:
            action = moves["actions"][0]["action"]
        else:
            return
        self.pending, self.acted_on = True, f["seq"]
        await self.ws.send(json.dumps({"type": "act", "action": action}))

    def quiet(self) -> bool:
        """Nothing of this player's in flight, and no timer about to change the table."""
        f = self.latest
        return f is not None and not self.pending and f["view"]["phase"] == "distribute" and not f["choices"]


async def play(players: list[Player], *, until_seq: int | None = None) -> None:
    """Play until the table reaches ``until_seq`` changes and settles (everyone has seen the same
    state, nobody waits for an answer, no timer runs), or, without it, until the game is over."""

    async def run(p: Player) -> None:
        while p.over is None:
            settled = until_seq is not None and all(
                q.latest is not None and q.latest["seq"] >= until_seq and q.quiet() for q in players)
            if not settled:
                await p.act()
            try:
                await asyncio.wait_for(p.receive(), 0.5)
            except TimeoutError:
                if settled:
                    return

    await asyncio.gather(*(run(p) for p in players))
    if until_seq is not None:
        seqs = {p.latest["seq"] for p in players if p.latest}
        assert len(seqs) == 1 and all(p.quiet() for p in players), "the table did not settle"


async def seated(base: str, names: list[str], **options: Any) -> tuple[str, list[Player]]:
    async with httpx.AsyncClient(base_url=base) as http:
        r = await http.post("/api/rooms", json={"players": len(names), "difficulty": "training", **options})
        code = r.json()["code"]
        players = []
        for n in names:
            j = (await http.post(f"/api/rooms/{code}/join", json={"name": n})).json()
            players.append(Player(n, j["seat"], j["token"]))
    return code, players


async def ready(players: list[Player], ws_base: str, code: str) -> None:
    for p in players:
        assert p.ws is None
        p.ws = await connect(f"{ws_base}/ws/{code}?token={p.token}")
        await p.ws.send(json.dumps({"type": "ready", "ready": True}))
    for p in players:
        while p.latest is None:
            await p.receive()


async def closed_by_server(p: Player) -> int | None:
    """Read frames until the server closes the socket; returns the close code."""
    try:
        while True:
            await p.receive()
    except ConnectionClosed as e:
        return e.rcvd.code if e.rcvd is not None else None
    finally:
        p.ws = None


def check_back(p: Player, first: list[Frame], before: Frame) -> Frame:
    """The frames a reconnected page gets: its seat and name, and the very table it last saw."""
    welcome = first[0]
    assert (welcome["type"], welcome["seat"], welcome["name"]) == ("welcome", p.seat, p.name)
    state = first[-1]
    assert state["seq"] == before["seq"] and state["view"] == before["view"]
    assert state["moves"] == before["moves"] and state["events"] == []
    return state


def restart_and_finish(tmp_path: Path, stop: str) -> None:
    db = f"sqlite:///{tmp_path / 'fuse.db'}"
    # the scripted players answer every frame at once, faster than any person: a person's rate
    # limit is not what this test is about
    with FuseServer(db, tmp_path, args=("--no-rate-limits",)) as server:
        server.start()

        async def before_stop() -> tuple[str, list[Player], dict[int, Frame]]:
            code, players = await seated(server.base, ["Ana", "Bo"])
            await ready(players, server.ws_base, code)
            await play(players, until_seq=25)
            seen = {p.seat: p.latest for p in players if p.latest is not None}
            if stop == "term":
                server.proc.send_signal(signal.SIGTERM)  # type: ignore[union-attr]
                codes = await asyncio.gather(*(closed_by_server(p) for p in players))
                for p, close_code in zip(players, codes, strict=True):
                    told = [f for f in p.frames if f["type"] == "restarting"]
                    assert told, f"{p.name}'s page was not told that the server is restarting"
                    assert close_code == 1012  # "service restart": the page comes back by itself
            return code, players, seen

        code, players, seen = asyncio.run(before_stop())
        if stop == "kill":
            server.kill()
        else:
            assert server.proc is not None and server.proc.wait(30) in (0, -signal.SIGTERM)
        down = time.monotonic()
        time.sleep(1.5)  # a while with no server: the clock must not count it
        server.start()

        async def after_restart() -> list[Player]:
            for p in players:
                p.frames.clear()
                p.ws = None
                first = await p.connect(server.ws_base, code)
                state = check_back(p, first, seen[p.seat])
                before, after = seen[p.seat]["clock"], state["clock"]
                assert after["running"]
                # kill: back at the last change's time; stop: at the moment the restart was announced
                lost = before["left_ms"] - after["left_ms"]
                assert -300 <= lost <= (300 if stop == "kill" else 1500), (before, after)
            assert time.monotonic() - down > 1.5  # the server was away longer than the clock lost
            await play(players)
            for p in players:
                assert p.ws is not None
                await p.ws.close()
            return players

        players = asyncio.run(after_restart())
        over = players[0].over
        assert over is not None and over["log_id"] is not None
        entry = httpx.get(f"{server.base}/api/log/{over['log_id']}").json()
        assert entry["names"] == ["Ana", "Bo"] and entry["played_by"] == ["person", "person"]
        assert entry["bots"] == 0 and entry["seeded"] is False and entry["official"]
        assert entry["score"]["total"] == over["outcome"]["score"]["total"]
        # the logged record holds the game whole: replayed, it passes through the table the players
        # saw before the server went away, and ends as the game did
        record = GameRecord.from_dict(entry["record"])
        last_before = seen[0]["seq"] - 1  # seq 1 is the deal, each action one more
        views = [public_view(state) for _, _, state in replay(record, copy=True)]
        assert json.loads(json.dumps(views[last_before - 1])) == seen[0]["view"]
        assert views[-1]["outcome"] == over["outcome"]
        # the finished room has left the server's memory (its game is in the log)
        assert rooms_held(server.base, until=0) == 0



def test_a_game_survives_kill_9_and_is_finished_after_the_restart(tmp_path: Path) -> None:
    restart_and_finish(tmp_path, "kill")


def test_sigterm_tells_the_pages_then_the_game_goes_on_after_the_restart(tmp_path: Path) -> None:
    restart_and_finish(tmp_path, "term")
