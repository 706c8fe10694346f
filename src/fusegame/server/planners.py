"""The server's planner process: every bot's and hint's decision of a server process is worked out
in one process of its own, never on the event loop and never in its interpreter.

The planner takes up to a tenth of a second on some rolls. On a thread of the server's process it
would hold the interpreter that the event loop needs for the players' claims (the compiled engine
keeps it for the whole of a decision), and its memos would stay in the server's memory after the
games. In a process of its own, at a lower priority (``PLANNER_NICE``), it costs the loop only the
few actions it is sent, the system gives the players' claims the processor first, and its memory
is handed back whole by ending the process once no game is in play (``PlannerProcess.recycle``).

The planner's process keeps a copy of each table it is asked about (``_Table``, by the match's
``key``), built as the record builds it (``new_game`` of the config and seed, or the scenario the
match began from) and fed the actions since the last question: a question carries only the new
actions. A process that does not hold the table as the question expects (it was started again, or
never saw the start) answers ``None`` and is asked again with every action. A room's planner and
its table are let go when its game ends or it leaves the server (``PlannerProcess.forget``).

Answers come back as plain data (``HintData``) and are made hints again on the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from fusegame.bots.hints import Hint, hint
from fusegame.bots.team import PLAY_WEIGHTS, TeamPlanner
from fusegame.constraints import set_memo_limit
from fusegame.memos import freeze_survivors
from fusegame.rules.actions import Action
from fusegame.rules.config import GameConfig
from fusegame.rules.setup import new_game
from fusegame.rules.state import GameState
from fusegame.scenario import scenario_from_data
from fusegame.server.actionlog import ActionLog

log = logging.getLogger("fusegame.server")

#: How much lower than the server's the planner's priority is (``os.nice``): on a busy machine the
#: players' claims are served first and the bots wait a little longer.
PLANNER_NICE = 10
#: After each decision the planner's process rests this many times as long as the decision took
#: before it starts the next one: a planner that always has work (rooms of bots at full speed) takes
#: at most 1 / (1 + PLANNER_REST) of a core, and the rooms' frames, which the bots' moves make on
#: the event loop, come at most as fast. Bots wait longer on a busy server.
PLANNER_REST = 1.0
#: A table's planner is let go and a new one started once its memos hold more entries than this (a
#: game at a person's pace leaves 1,000 to 6,000): its memos only save time, never change a move,
#: and a game of bots that goes on for thousands of moves keeps the process's memory bounded.
PLANNER_ENTRIES = 20_000

#: After the planner's process has died, a new one is started no sooner than this (seconds), so
#: that a process that cannot start is not started again for every question.
RESTART_AFTER_S = 5.0

#: One hint as plain data: seat, the decision's kind, the action (``Action.to_data``) or None, and
#: the advice.
HintData = tuple[int, str, dict[str, Any] | None, dict[str, Any]]
#: An answer: the hints for every seat.
Answer = list[HintData]


class PlannerUnavailable(RuntimeError):
    """No planner's process can answer now (it died; a new one starts shortly). The rooms' bots
    play any legal move meanwhile; the process's death is logged once, here."""


@dataclass(frozen=True)
class Question:
    """What a room asks the planner: the hints for match ``key``'s table after the first ``length``
    of ``actions`` (the match's log, which only grows). The table began as ``new_game(config,
    seed)``, or as the scenario ``initial`` when the match was started from a position. ``words``:
    whether the hints' advice is wanted (the room shows hints); without it, each hint's advice is
    ``{}`` and only its action comes back."""

    key: str
    config: GameConfig
    seed: int
    initial: dict[str, Any] | None
    actions: ActionLog
    length: int
    words: bool = True


# ======================================================================== the planner's process
@dataclass
class _Table:
    state: GameState
    length: int  #: the actions applied since the start
    planner: TeamPlanner | None = None


_TABLES: dict[str, _Table] = {}
_rest_until = 0.0  # when the next decision may start


#: How often a worker process looks whether the server that started it is still there.
PARENT_CHECK_S = 1.0


def exit_with_parent(parent: int) -> None:
    """End this worker process when process ``parent`` (the server) has gone. A server killed
    outright (``kill -9``) cannot tell its workers, and a worker waiting for its next task would
    otherwise wait for ever."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_S)
        os._exit(0)

    threading.Thread(target=watch, name="fuse-parent-watch", daemon=True).start()


def start_worker(memo_states: int, parent: int) -> None:
    """The planner's process begins: a lower priority, the server's memo bound, and an end with
    the server's."""
    exit_with_parent(parent)
    with contextlib.suppress(OSError, AttributeError):  # (no ``nice`` on some systems)
        os.nice(PLANNER_NICE)
    set_memo_limit(memo_states)


def prepared_planner(state: GameState) -> TeamPlanner:
    """A new planner in play that has built the models of every card ``state``'s game can meet, so
    that no later decision of the game pays for meeting a card."""
    planner = TeamPlanner(PLAY_WEIGHTS)
    planner.prepare(state)
    return planner


def advise(state: GameState, planner: TeamPlanner) -> tuple[list[Hint], bool]:
    """The planner's hints for ``state`` (a copy: the planner may not change it), and whether the
    planner has outgrown ``PLANNER_ENTRIES``."""
    return hint(state, planner), planner.entries() > PLANNER_ENTRIES


def answer(key: str, config: dict[str, Any], seed: int, initial: dict[str, Any] | None,
           start: int, actions: list[str], words: bool = True) -> Answer | None:
    """In the planner's process: the hints for table ``key`` once ``actions`` are applied after its
    first ``start`` (without their advice unless ``words``); None when the table is not held as
    that (ask again from the start). Each answer waits first for the rest the last one earned
    (``PLANNER_REST``)."""
    global _rest_until
    wait = _rest_until - time.monotonic()
    if wait > 0:
        time.sleep(wait)
    began = time.monotonic()
    try:
        return _answer(key, config, seed, initial, start, actions, words)
    finally:
        end = time.monotonic()
        _rest_until = end + (end - began) * PLANNER_REST


def _answer(key: str, config: dict[str, Any], seed: int, initial: dict[str, Any] | None,
            start: int, actions: list[str], words: bool) -> Answer | None:
    table = _TABLES.get(key)
    if start == 0:
        state = (new_game(GameConfig.from_dict(config), seed) if initial is None
                 else scenario_from_data(initial))
        table = _TABLES[key] = _Table(state, 0, table.planner if table is not None else None)
    elif table is None or table.length != start:
        return None
    for text in actions:
        table.state.apply(Action.parse(text))
        table.length += 1
    if table.planner is None:
        table.planner = prepared_planner(table.state)
        # the card models just built live as long as the planner: out of the collector's sight,
        # its full passes walk the decisions' objects only, not every model (a pass in the middle
        # of a decision made the first rolls of a game up to a third slower)
        freeze_survivors()
    hints, outgrown = advise(table.state.clone(), table.planner)
    if outgrown:
        table.planner = None  # the next question starts a new one: memory stays bounded
    # the advice is most of an answer's size, and of what the server makes of it on its loop
    return [(h.seat, h.kind, None if h.action is None else h.action.to_data(), h.advice if words else {})
            for h in hints]


def forget(key: str) -> None:
    """In the planner's process: let table ``key`` and its planner go."""
    _TABLES.pop(key, None)


def held() -> list[str]:
    """In the planner's process: the keys of the tables it holds."""
    return sorted(_TABLES)


# ======================================================================== on the event loop
def hints_of(data: list[HintData]) -> list[Hint]:
    """The planner's answer made hints again."""
    return [Hint(seat, kind, None if act is None else Action.from_data(act), advice)
            for seat, kind, act, advice in data]


class PlannerProcess:
    """The server's planner process, started at the first question. Used from the
    event loop only: ``ask`` hands the answer to ``then`` on the loop."""

    def __init__(self, memo_states: int, answer: Callable[..., Answer | None] = answer) -> None:
        self.memo_states = memo_states
        self._answer = answer
        self._pool: ProcessPoolExecutor | None = None
        self._fed: dict[str, int] = {}  # by key: how many actions the process has of each table
        self._down_until = 0.0  # (``time.monotonic``) no new process before this, after one died

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            if time.monotonic() < self._down_until:
                raise PlannerUnavailable("the planner's process died; a new one starts in a moment")
            # multiprocessing's resource tracker, started with the first pool, is handed the file
            # descriptor of ``sys.stderr``; in the terminal game that is Textual's capture of
            # prints, whose descriptor is -1, and the start fails: it is handed the process's own
            with contextlib.redirect_stderr(sys.__stderr__):
                self._pool = ProcessPoolExecutor(max_workers=1,
                                                 mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=start_worker,
                                                 initargs=(self.memo_states, os.getpid()))
            self._fed.clear()
        return self._pool

    def ask(self, q: Question, then: Callable[[list[Hint] | Exception], None]) -> None:
        """Ask for the hints of ``q``'s table; ``then(hints)`` runs on the running loop with the
        answer, or ``then(exception)`` if the planner failed or its process died.
        Raises ``PlannerUnavailable`` at once while no process can take the question."""
        self._submit(asyncio.get_running_loop(), q, self._fed.get(q.key, 0), then)

    def _submit(self, loop: asyncio.AbstractEventLoop, q: Question, start: int,
                then: Callable[[list[Hint] | Exception], None]) -> None:
        if start > q.length:
            start = 0
        pool = self._executor()
        texts = q.actions.texts(start, q.length)
        try:
            future = pool.submit(self._answer, q.key, q.config.to_dict(), q.seed, q.initial, start, texts,
                                 q.words)
        except (BrokenProcessPool, RuntimeError) as e:  # (RuntimeError: shut down meanwhile)
            self._broken(pool)
            raise PlannerUnavailable(f"the planner's process cannot take questions: {e}") from None
        self._fed[q.key] = q.length

        def on_loop(f: Future[Answer | None]) -> None:
            try:
                take(f)
            except Exception:  # a bug in one room must not stop the server's loop
                log.exception("a room could not take the planner's answer")

        def take(f: Future[Answer | None]) -> None:
            try:
                got = f.result()
            except BrokenProcessPool:
                self._broken(pool)
                then(PlannerUnavailable("the planner's process died"))
                return
            except Exception as e:
                self._fed.pop(q.key, None)
                then(e)
                return
            except BaseException as e:  # cancelled: the process was let go
                self._fed.pop(q.key, None)
                then(PlannerUnavailable(f"the planner's work was stopped: {e!r}"))
                return
            if got is None:  # the process does not hold the table as expected: from the start
                try:
                    self._submit(loop, q, 0, then)
                except PlannerUnavailable as e:
                    then(e)
                return
            try:
                hints = hints_of(got)
            except Exception as e:
                then(e)
                return
            then(hints)

        def done(f: Future[Answer | None]) -> None:  # (on the executor's own thread)
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits any more
                loop.call_soon_threadsafe(on_loop, f)

        future.add_done_callback(done)

    def _broken(self, pool: ProcessPoolExecutor) -> None:
        """The process ``pool`` ran has died: a new one starts ``RESTART_AFTER_S`` later (until
        then, every question fails at once and the bots play any legal move)."""
        if self._pool is pool:
            log.error("the planner's process died; a new one starts in %g s", RESTART_AFTER_S)
            self._pool = None
            self._fed.clear()
            self._down_until = time.monotonic() + RESTART_AFTER_S
            pool.shutdown(wait=False, cancel_futures=True)

    def forget(self, key: str) -> None:
        """Let table ``key`` go in the planner's process (after the questions already asked)."""
        if self._fed.pop(key, None) is not None and self._pool is not None:
            with contextlib.suppress(RuntimeError, BrokenProcessPool):
                self._pool.submit(forget, key)

    def held(self) -> Future[list[str]] | None:
        """The keys of the tables the process holds (None: no process is running)."""
        return None if self._pool is None else self._pool.submit(held)

    @property
    def running(self) -> bool:
        return self._pool is not None

    def recycle(self) -> None:
        """End the process (after the decision it is on); the next question starts a new one. All
        the memory the games' planners used goes back to the system at once."""
        pool, self._pool = self._pool, None
        self._fed.clear()
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
