"""The planner behind the bots and the hints thinks off the event loop, in the server's planner
process: a room whose bot is thinking holds up no other room, an answer for a table that has moved
on is not played (the planner is asked again), a room's table and planner leave the planner's
process with its game (or with the room), and once no game is in play that process ends, so the
memory the games used goes back to the system.

The slow position is made by hand: the planner's process is held until the test lets it go (a file
it waits for), so these tests assert what happens in which order, never how long anything takes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from fusegame import GameConfig
from fusegame.bots import value
from fusegame.bots.team import TeamPlanner
from fusegame.memos import forget_card_memos
from fusegame.rules.state import GameState
from fusegame.server import lobby as lobby_module
from fusegame.server import planners as planners_module
from fusegame.server import room as room_module
from fusegame.server.actionlog import ActionLog
from fusegame.server.app import create_app
from fusegame.server.options import parse_options
from fusegame.server.planners import PlannerProcess, Question
from fusegame.server.room import Room
from fuseproc import FuseServer
from liveserver import Server, served
from roomclock import Clock, bots_play_it_out

pytestmark = pytest.mark.timeout(180)

Frame = dict[str, Any]
#: How long a test waits for a frame before it fails (never reached when the server works).
WAIT_S = 60.0
#: The folder through which a test holds the planner's process (``held_answer``).
GATE = "FUSE_TEST_PLANNER_GATE"


@contextmanager
def server() -> Iterator[Server]:
    with served(create_app("sqlite://", rate_limits=None)) as s:
        yield s


async def seated(http: httpx.AsyncClient, ws_base: str, options: dict[str, Any], name: str,
                 *, fill_bots: bool = False) -> tuple[str, ClientConnection, Frame]:
    """A room of ``options`` with ``name`` in seat 0, started; its code, socket and first state."""
    code = (await http.post("/api/rooms", json=options)).json()["code"]
    token = (await http.post(f"/api/rooms/{code}/join", json={"name": name})).json()["token"]
    ws = await connect(f"{ws_base}/ws/{code}?token={token}", max_size=None)
    if fill_bots:
        await ws.send(json.dumps({"type": "fill_bots"}))
    await ws.send(json.dumps({"type": "ready", "ready": True}))
    return code, ws, await until(ws, lambda f: f["type"] == "state")


async def until(ws: ClientConnection, pred: Callable[[Frame], bool]) -> Frame:
    async with asyncio.timeout(WAIT_S):
        while True:
            frame: Frame = json.loads(await ws.recv())
            if pred(frame):
                return frame


def placed_by(seat: int) -> Callable[[Frame], bool]:
    return lambda f: f["type"] == "state" and any(e.get("seat") == seat for e in f["events"])


def a_placement(frame: Frame) -> str:
    text: str = frame["moves"]["place"][0]["actions"][0]
    return text


def held_answer(key: str, config: dict[str, Any], seed: int, initial: dict[str, Any] | None,
                start: int, actions: list[str], words: bool = True) -> Any:
    """In the planner's process: write down the question (its process and the table's length),
    wait until the test makes the file ``go``, then answer as the planner does."""
    gate = Path(os.environ[GATE])
    with (gate / "asked").open("a") as f:
        f.write(f"{os.getpid()} {start + len(actions)}\n")
    deadline = time.monotonic() + 2 * WAIT_S
    while not (gate / "go").exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    return planners_module.answer(key, config, seed, initial, start, actions, words)


def asked(gate: Path) -> list[tuple[int, int]]:
    path = gate / "asked"
    lines = path.read_text().split() if path.exists() else []
    return [(int(lines[i]), int(lines[i + 1])) for i in range(0, len(lines), 2)]


async def waited(check: Callable[[], bool]) -> None:
    async with asyncio.timeout(WAIT_S):
        while not check():
            await asyncio.sleep(0.02)


def test_a_room_whose_bot_is_thinking_holds_up_no_other_room(monkeypatch: pytest.MonkeyPatch,
                                                              tmp_path: Path) -> None:
    monkeypatch.setenv(GATE, str(tmp_path))  # (the planner's process starts with it)
    held = PlannerProcess(lobby_module.PLANNER_MEMO_STATES, answer=held_answer)
    monkeypatch.setattr(lobby_module, "PLANNERS", held)

    async def play(s: Server) -> None:
        ws_base = s.base.replace("http", "ws", 1)
        async with httpx.AsyncClient(base_url=s.base) as http:
            # Ana plays beside a bot, whose first decision the planner now works on
            _, ana, first = await seated(http, ws_base, {"players": 2, "difficulty": "training",
                                                         "bot_delay_ms": 0, "seed": 5}, "Ana",
                                         fill_bots=True)
            await waited(lambda: len(asked(tmp_path)) == 1)
            # another room's claim is answered while the planner is still thinking
            _, bo, state = await seated(http, ws_base, {"players": 1, "difficulty": "training",
                                                        "seed": 6}, "Bo")
            await bo.send(json.dumps({"type": "act", "action": a_placement(state)}))
            await until(bo, placed_by(0))
            assert len(asked(tmp_path)) == 1
            # Ana places a die too, at her own table, while the bot still thinks about the table
            # as it was: the answer that comes back is for a table gone by
            await ana.send(json.dumps({"type": "act", "action": a_placement(first)}))
            await until(ana, placed_by(0))
            (tmp_path / "go").touch()
            await until(ana, placed_by(1))  # the bot acts, on the table as it is now
            questions = asked(tmp_path)
            assert len(questions) >= 2
            assert all(pid != os.getpid() for pid, _ in questions)  # another process thought
            assert questions[1][1] == questions[0][1] + 1  # with Ana's die placed
            await ana.close()
            await bo.close()

    try:
        with server() as s:
            asyncio.run(play(s))
    finally:
        (tmp_path / "go").touch()
        held.recycle()


def tables(s: Server) -> list[str]:
    """The tables the server's planner process holds (none when it has ended)."""
    future = s.call(lambda: lobby_module.PLANNERS.held())
    return [] if future is None else future.result(WAIT_S)


@pytest.fixture
def released_memory(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Once no game is left in play (a second later, here), whether the planner's process had
    ended when ``release_memory`` was done."""
    ran: list[bool] = []
    real = lobby_module.release_memory

    def release() -> None:
        real()
        ran.append(not lobby_module.PLANNERS.running)

    monkeypatch.setattr(lobby_module, "release_memory", release)
    monkeypatch.setattr(lobby_module, "RELEASE_AFTER_S", 1.0)
    return ran


def test_a_room_lets_its_planner_go_when_its_game_ends(released_memory: list[bool]) -> None:
    async def play(s: Server) -> None:
        ws_base = s.base.replace("http", "ws", 1)
        async with httpx.AsyncClient(base_url=s.base) as http:
            code, ws, _ = await seated(http, ws_base, {"players": 1, "difficulty": "training",
                                                       "bot_delay_ms": 0, "hints": True, "seed": 3}, "Ana")
            await ws.send(json.dumps({"type": "bot", "seat": 0, "on": True}))
            key = s.call(lambda: s.app.state.lobby.rooms[code].match.key)
            await until(ws, lambda f: f["type"] == "state" and f["hints"])
            assert key in await asyncio.to_thread(tables, s)  # the planner's copy of the table
            await until(ws, lambda f: f["type"] == "over")
            # the page is still open, so the room is still held: its table has gone all the same
            assert s.call(lambda: code in s.app.state.lobby.rooms)
            assert key not in await asyncio.to_thread(tables, s)
            # and with no game left in play, the planner's process ends: the memory it used
            # goes back to the system
            await waited(lambda: bool(released_memory))
            assert released_memory == [True]
            await ws.close()

    with server() as s:
        asyncio.run(play(s))


def test_a_room_that_leaves_the_server_in_play_lets_its_planner_go() -> None:
    async def play(s: Server) -> None:
        ws_base = s.base.replace("http", "ws", 1)
        async with httpx.AsyncClient(base_url=s.base) as http:
            code, ws, _ = await seated(http, ws_base, {"players": 2, "difficulty": "training",
                                                       "bot_delay_ms": 0, "seed": 4}, "Ana", fill_bots=True)
            await until(ws, placed_by(1))  # the bot has played: its table is in the planner's process
            lobby = s.app.state.lobby
            key = s.call(lambda: lobby.rooms[code].match.key)
            assert key in await asyncio.to_thread(tables, s)
            s.call(lambda: lobby.lost(lobby.rooms[code]))  # another process holds it now
            assert code not in lobby.rooms
            assert key not in await asyncio.to_thread(tables, s)
            await ws.close()

    with server() as s:
        asyncio.run(play(s))


def bot_game(record: list[str]) -> int:
    """A one-player game the bot plays from the start, on a clock the test moves (the planner
    answers at once); its actions go to ``record``; returns the planners it made."""
    made = 0
    real = room_module.prepared_planner

    def make(state: GameState) -> TeamPlanner:
        nonlocal made
        made += 1
        return real(state)

    room_module.prepared_planner = make
    try:
        clock = Clock()
        room = Room("AAAAA", parse_options({"players": 2, "difficulty": "standard", "bot_delay_ms": 0,
                                            "hints": True, "seed": 8}), clock)
        page = bots_play_it_out(room, clock)
        assert room.match is not None and room.match.planner is None
        record.extend(room.match.log.texts())
        # every state frame of a room with hints carries them at once on such a clock
        assert all(f["hints"] is not None for f in page.frames if f["type"] == "state"
                   and f["view"]["outcome"] is None)
    finally:
        room_module.prepared_planner = real
    return made


def test_forgetting_the_card_memos_changes_no_move_of_the_bots() -> None:
    before: list[str] = []
    bot_game(before)
    assert value._MODELS  # the models the game built, kept for the next game...
    forget_card_memos()  # ...until no game is in play on the server
    assert not value._MODELS
    again: list[str] = []
    bot_game(again)
    assert again == before


def test_a_planner_that_outgrows_its_bound_is_started_afresh_and_plays_the_same_moves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    kept: list[str] = []
    assert bot_game(kept) == 1
    monkeypatch.setattr(planners_module, "PLANNER_ENTRIES", 0)  # a new planner after every decision
    fresh: list[str] = []
    made = bot_game(fresh)
    assert made > 10
    assert fresh == kept  # memos only save time: the game is move for move the same


def children(pid: int) -> list[int]:
    """The processes ``pid`` has started."""
    kids: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            kids += [int(k) for k in (task / "children").read_text().split()]
    return kids


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")
def test_the_planners_process_ends_with_a_server_killed_outright(tmp_path: Path) -> None:
    with FuseServer(f"sqlite:///{tmp_path / 'fuse.db'}", tmp_path, args=("--no-rate-limits",)) as server:
        server.start()

        async def bots_playing() -> None:
            async with httpx.AsyncClient(base_url=server.base) as http:
                _, ws, _ = await seated(http, server.ws_base, {"players": 2, "difficulty": "training",
                                                              "bot_delay_ms": 0, "seed": 4}, "Ana",
                                        fill_bots=True)
                await until(ws, placed_by(1))  # the bot has played: the planner's process is up
                await ws.close()

        asyncio.run(bots_playing())
        workers = [k for k in children(server.pid) if "spawn_main" in Path(f"/proc/{k}/cmdline").read_text()]
        assert workers, "no planner's process"
        server.kill()  # the server cannot tell its workers
        deadline = time.monotonic() + WAIT_S
        while any(alive(k) for k in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(alive(k) for k in workers)


def spawned() -> set[int]:
    """This process's worker processes (spawned by multiprocessing)."""
    return {k for k in children(os.getpid()) if alive(k)
            and b"spawn_main" in Path(f"/proc/{k}/cmdline").read_bytes()}


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")
def test_when_the_planners_process_dies_the_bots_play_on_and_a_new_one_starts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(planners_module, "RESTART_AFTER_S", 0.5)
    lobby_module.PLANNERS.recycle()  # the next game starts a process of its own
    before = spawned()

    async def play(s: Server) -> None:
        ws_base = s.base.replace("http", "ws", 1)
        async with httpx.AsyncClient(base_url=s.base) as http:
            _, ws, _ = await seated(http, ws_base, {"players": 2, "difficulty": "standard",
                                                    "bot_delay_ms": 0, "seed": 9}, "Ana", fill_bots=True)
            await ws.send(json.dumps({"type": "bot", "seat": 0, "on": True}))
            await until(ws, placed_by(1))
            first = spawned() - before
            assert first, "no planner's process"
            for pid in first:
                os.kill(pid, signal.SIGKILL)
            # the bots go on, with any legal move while no planner answers
            placed = 0
            while placed < 3:
                frame = await until(ws, lambda f: f["type"] in ("state", "over"))
                if frame["type"] == "over":
                    break
                placed += sum(1 for e in frame["events"] if "slot" in e and "die" in e)
            await ws.close()
            # a moment later, a new process answers the next game's questions
            await asyncio.sleep(planners_module.RESTART_AFTER_S + 0.1)
            _, again, _ = await seated(http, ws_base, {"players": 2, "difficulty": "training",
                                                       "hints": True, "seed": 3}, "Bo", fill_bots=True)
            await until(again, lambda f: f["type"] == "state" and bool(f["hints"]))
            assert spawned() - before - first
            await again.close()

    with server() as s:
        asyncio.run(play(s))


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")
def test_the_planners_process_thinks_at_a_lower_priority_than_the_server() -> None:
    # on a busy machine the players' claims are served first, the bots wait (planners.PLANNER_NICE)
    planners = PlannerProcess(1000)
    before = spawned()
    ours = os.getpriority(os.PRIO_PROCESS, 0)

    async def ask() -> Any:
        got = asyncio.get_running_loop().create_future()
        question = Question("t", GameConfig(players=2, difficulty="training"), 3, None, ActionLog(), 0)
        planners.ask(question, got.set_result)
        return await asyncio.wait_for(got, WAIT_S)

    try:
        answer = asyncio.run(ask())
        assert isinstance(answer, list) and answer  # it thought, and answered
        (worker,) = spawned() - before
        assert os.getpriority(os.PRIO_PROCESS, worker) >= min(19, ours + planners_module.PLANNER_NICE)
        assert os.getpriority(os.PRIO_PROCESS, 0) == ours  # and the process that asked keeps its own
    finally:
        planners.recycle()


#: A program that asks a fresh process's planner for the hints of a new game, with ``sys.stderr``
#: replaced as the terminal game's Textual app replaces it (a capture whose descriptor is -1).
UNDER_TEXTUAL = """
import asyncio, sys
from fusegame.rules.config import GameConfig
from fusegame.server.actionlog import ActionLog
from fusegame.server.planners import PlannerProcess, Question

class Capture:  # as textual.app's capture of prints
    def write(self, text): return len(text)
    def flush(self): pass
    def fileno(self): return -1

async def main():
    planners = PlannerProcess(1000)
    got = asyncio.get_running_loop().create_future()
    question = Question("t", GameConfig(players=2, difficulty="training"), 3, None, ActionLog(), 0)
    planners.ask(question, got.set_result)
    answer = await asyncio.wait_for(got, 120)
    planners.recycle()
    return answer

if __name__ == "__main__":
    sys.stderr = Capture()
    answer = asyncio.run(main())
    print(type(answer).__name__, len(answer) if isinstance(answer, list) else answer)
"""


def test_the_planners_process_starts_under_the_terminal_games_print_capture(tmp_path: Path) -> None:
    # multiprocessing starts its resource tracker once a process, with the first pool: a fresh
    # interpreter, so that no earlier test has started it already
    script = tmp_path / "under_textual.py"
    script.write_text(UNDER_TEXTUAL)
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=150)
    assert run.returncode == 0, run.stderr
    kind, count = run.stdout.split()
    assert kind == "list" and int(count) > 0, run.stdout


def test_a_room_without_hints_is_answered_the_same_moves_without_their_words() -> None:
    config = GameConfig(players=3).to_dict()
    try:
        spoken = planners_module.answer("spoken", config, 7, None, 0, [])
        silent = planners_module.answer("silent", config, 7, None, 0, [], words=False)
    finally:
        planners_module.forget("spoken")
        planners_module.forget("silent")
    assert spoken and [h[:3] for h in silent] == [h[:3] for h in spoken]
    assert all(h[3].get("kind") for h in spoken) and all(h[3] == {} for h in silent)
