"""Replays of logged games, for the BDT Log's step-by-step viewer.

A record is replayed once when it is first opened: the steps (each action with its events) are
kept, and so is a copy of the table every ``CHECKPOINT`` actions, so that showing any step costs a
clone and at most ``CHECKPOINT - 1`` actions instead of a replay from the deal.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from fusegame.observe import pace_view
from fusegame.record import GameRecord, replay
from fusegame.rules.state import GameState
from fusegame.server.room import event_dict, public_view

CHECKPOINT = 16


class Replay:
    """One logged game, replayed (``RecordError`` if the record does not replay)."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.steps: list[dict[str, Any]] = [{"index": 0, "action": None, "act": None, "time_ms": 0,
                                             "events": []}]
        start = record.initial_state()
        self.checkpoints: list[GameState] = [start.clone()]
        # the pace gauge's facts, and each step at which the bombs taken from the middle changed
        self.pace = pace_view(start)
        taken: list[list[int]] = [[0, self.pace["taken"], 0]] if self.pace else []
        for i, (action, events, state) in enumerate(replay(record, start=start), start=1):
            self.steps.append({"index": i, "action": str(action), "act": action.to_data(),
                               "time_ms": state.time_ms, "events": [event_dict(e) for e in events]})
            if i % CHECKPOINT == 0:
                self.checkpoints.append(state.clone())
            if self.pace and (now := self.pace["needed"] - state.bombs_in_middle()) != taken[-1][1]:
                taken.append([state.time_ms, now, i])
        if self.pace:
            self.pace = {**self.pace, "taken": taken, "clock_ms": (record.config.time_limit or 0) * 1000}

    @property
    def last(self) -> int:
        return len(self.record.actions)

    def summary(self) -> dict[str, Any]:
        """What ``GET /api/log/{id}/replay`` answers. ``pace`` is ``None`` where the game had no pace
        gauge; else the line (``needed`` bombs, ``every_ms``, ``clock_ms``) and ``taken``, the bombs
        taken from the middle as ``[time_ms, taken, step]`` from the deal and at every change."""
        return {"steps": self.steps, "count": len(self.steps), "config": self.record.config.to_dict(),
                "seed": self.record.seed, "pace": self.pace}

    def pace_summary(self) -> dict[str, Any]:
        """What ``GET /api/log/{id}/pace`` answers: ``pace`` as in ``summary`` and ``end_ms``, the
        game's last moment: all an end screen needs to picture the game's pace, without its steps."""
        return {"pace": self.pace, "end_ms": self.steps[-1]["time_ms"]}

    def view(self, step: int) -> dict[str, Any]:
        """The table after ``step`` actions (0: the deal), as a spectator sees it."""
        state = self.checkpoints[step // CHECKPOINT].clone()
        for action in self.record.actions[step // CHECKPOINT * CHECKPOINT:step]:
            state.apply(action)
        return {"step": step, "view": public_view(state)}


#: The replays kept in memory: at most this many, and at most this many steps in all (a step, its
#: events and its share of the checkpoints take about 1.7 kB: some 100 MB).
CACHE_REPLAYS = 32
CACHE_STEPS = 60_000


class ReplayCache:
    """The replays opened most recently (they are read from worker threads), bounded in number and
    in steps, the measure of their memory: the oldest go first."""

    def __init__(self, size: int = CACHE_REPLAYS, steps: int = CACHE_STEPS) -> None:
        self.size = size
        self.steps = steps
        self.items: OrderedDict[int, Replay] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: int, load: Callable[[], Replay]) -> Replay:
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                return self.items[key]
        rep = load()
        with self.lock:
            self.items[key] = rep
            while len(self.items) > 1 and (len(self.items) > self.size or self.held() > self.steps):
                self.items.popitem(last=False)
        return rep

    def held(self) -> int:
        """The steps of every replay kept."""
        return sum(len(r.steps) for r in self.items.values())
