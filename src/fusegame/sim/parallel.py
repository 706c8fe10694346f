"""Batches on several processes, or as Ray tasks, with exactly the results of one process.

A batch is cut into chunks of consecutive games; each chunk is described by plain data (the
configuration as a dict, the policy's *name*, the pace, the batch seed and a game range), so it
can be pickled to a fresh interpreter (``spawn``: no state inherited from the parent) or shipped
to a Ray worker. Game ``i`` always uses ``game_seed(seed, i)`` and its own policy generator, and
the results are put back in game order before the statistics are computed, so every statistic
except ``games_per_second`` is the same for any number of workers.

Each worker process builds its policy once and keeps it for all the chunks it plays: the team
planner's caches (card models) make later games faster, never different, so chunks of several
consecutive games pay for the warm-up once per process rather than once per game.

Spawned workers import the main module of the program that started them, so a script that uses
worker processes must start its work under ``if __name__ == "__main__":``.
"""

from __future__ import annotations

import importlib
import json
import logging
import multiprocessing
import os
import signal
import socket
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from fusegame.pickling import register as register_pickling
from fusegame.rules.config import GameConfig
from fusegame.sim.batch import BatchStats, play_games, run_batch
from fusegame.sim.game import GameResult, Pace
from fusegame.sim.policies import POLICY_FACTORIES, Policy, get_policy

# results come back from workers through pickle, which the compiled engine's frozen values need help with
register_pickling()

#: Games a process should have to play before starting it pays off: a spawned interpreter takes
#: about half a second to start and import the engine, and the team planner then spends about a
#: second warming its caches (the time of some 20-40 warm games).
MIN_GAMES_PER_PROCESS: dict[str, int] = {"random": 200, "greedy": 200, "team": 40, "play": 40}

#: Chunks per worker: more than one so that a slow chunk does not leave the others idle and the
#: progress bar moves, few enough that each chunk still has several consecutive games.
CHUNKS_PER_WORKER = 4

#: What to install for ``--ray``.
RAY_HINT = "pip install fusegame[cluster]"


class ParallelError(ValueError):
    """A batch cannot be run the way it was asked (Ray missing or unreachable, bad worker count)."""


@dataclass(frozen=True)
class Chunk:
    """Games ``start`` to ``stop - 1`` of a batch, as plain picklable data."""

    config: dict[str, Any]
    policy: str
    turn_seconds: float
    die_seconds: float
    seed: int
    start: int
    stop: int


# per-process state of a worker: one policy per name, one config per distinct dict
_POLICIES: dict[str, Policy] = {}
_CONFIGS: dict[str, GameConfig] = {}


def cached_policy(name: str) -> Policy:
    """This process's policy called ``name`` (built on first use, then kept with its caches)."""
    if name not in _POLICIES:
        _POLICIES[name] = get_policy(name)
    return _POLICIES[name]


def _config(data: dict[str, Any]) -> GameConfig:
    key = json.dumps(data, sort_keys=True)
    if key not in _CONFIGS:
        _CONFIGS[key] = GameConfig.from_dict(data)
    return _CONFIGS[key]


def play_chunk(chunk: Chunk) -> list[GameResult]:
    """Play one chunk (the entry point of worker processes and Ray tasks)."""
    return play_games(_config(chunk.config), chunk.seed, cached_policy(chunk.policy),
                      Pace(chunk.turn_seconds, chunk.die_seconds), chunk.start, chunk.stop)


def split(games: int, parts: int) -> list[tuple[int, int]]:
    """``games`` cut into ``parts`` ranges ``(start, stop)`` of consecutive games, sizes differing
    by at most one, in order.

    >>> split(10, 3)
    [(0, 4), (4, 7), (7, 10)]
    """
    parts = max(1, min(parts, games))
    size, extra = divmod(games, parts)
    out: list[tuple[int, int]] = []
    start = 0
    for i in range(parts):
        stop = start + size + (1 if i < extra else 0)
        out.append((start, stop))
        start = stop
    return out


def chunk_count(games: int, workers: int) -> int:
    """How many chunks a batch of ``games`` gets on ``workers`` workers: up to
    ``CHUNKS_PER_WORKER`` each, at least two games a chunk where there are enough games."""
    return max(1, min(games, max(workers, min(workers * CHUNKS_PER_WORKER, games // 2))))


def default_workers(policy: str, games: int) -> int:
    """One process per CPU, but no more than the batch can keep busy (``MIN_GAMES_PER_PROCESS``)."""
    per = MIN_GAMES_PER_PROCESS.get(policy.split(":", 1)[0], min(MIN_GAMES_PER_PROCESS.values()))
    return max(1, min(os.cpu_count() or 1, games // per))


def _ignore_interrupts() -> None:
    # Ctrl-C reaches the whole process group: the parent alone handles it, and stops the workers
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _ray_module() -> Any:
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise ParallelError(f"Ray is not installed ({RAY_HINT})") from None


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast on a ``host:port`` (or ``ray://host:port``) nobody answers at: ``ray.init``
    itself keeps retrying for minutes. Other forms (``auto``) are left to Ray."""
    hostport = address.removeprefix("ray://")
    host, sep, port = hostport.rpartition(":")
    if not sep or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]") or "localhost", int(port)), timeout=timeout).close()
    except OSError as e:
        raise ParallelError(f"cannot reach Ray at {address!r}: {e.strerror or e}") from None


class BatchRunner:
    """Plays batches with one policy on ``workers`` local processes, or as Ray tasks.

    ``workers=1`` (without Ray) plays in this process. With ``ray_address`` (``"local"`` starts a
    local Ray instance, anything else is passed to ``ray.init(address=...)``; an already
    initialised Ray is used as it is) the chunks are Ray tasks and ``workers`` defaults to the
    cluster's CPUs. Use it as a context manager: worker processes (and a Ray instance it started)
    live until it closes, so several batches share them and their warm caches.
    """

    def __init__(self, policy: str, workers: int | None = None, ray_address: str | None = None) -> None:
        if policy not in POLICY_FACTORIES:
            get_policy(policy)  # raises the ValueError that names the choices
        if workers is not None and workers < 1:
            raise ParallelError("the number of workers must be at least 1")
        self.policy = policy
        self.ray_address = ray_address
        self._pool: ProcessPoolExecutor | None = None
        self._ray: Any = None
        self._ray_started = False
        self._remote: Any = None
        if ray_address is not None:
            ray = self._connect_ray(ray_address, workers)
            if workers is None:
                workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.workers: int = workers if workers is not None else os.cpu_count() or 1

    @property
    def backend(self) -> str:
        """``ray``, ``processes`` or ``inline`` (this process)."""
        if self.ray_address is not None:
            return "ray"
        return "processes" if self.workers > 1 else "inline"

    def _connect_ray(self, address: str, workers: int | None) -> Any:
        ray = _ray_module()
        self._ray = ray
        if ray.is_initialized():
            return ray
        quiet: dict[str, Any] = {"logging_level": logging.WARNING, "log_to_driver": False}
        if address != "local":
            _check_reachable(address)
        try:
            if address == "local":
                ray.init(num_cpus=workers, include_dashboard=False, **quiet)
            else:
                ray.init(address=address, **quiet)
        except Exception as e:  # Ray raises many kinds (ConnectionError, RuntimeError, ...)
            raise ParallelError(f"cannot start Ray at {address!r}: {' '.join(str(e).split())}") from None
        self._ray_started = True
        return ray

    def __enter__(self) -> BatchRunner:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close(abort=kind is not None)

    def close(self, abort: bool = False) -> None:
        """Stop the worker processes (and the Ray instance this runner started). ``abort`` (an
        error or Ctrl-C) stops them at once instead of letting running chunks finish."""
        if self._pool is not None:
            # the executor has no public way to stop running work; its process table is stable
            procs = list((getattr(self._pool, "_processes", None) or {}).values()) if abort else []
            self._pool.shutdown(wait=not abort, cancel_futures=True)
            for proc in procs:
                proc.terminate()
            self._pool = None
        if self._ray_started:
            self._ray.shutdown()
            self._ray_started = False

    def run(self, config: GameConfig, games: int, seed: int, pace: Pace | None = None,
            progress: Callable[[int, int], None] | None = None) -> BatchStats:
        """Play the batch ``run_batch(config, games, seed, policy, pace=pace)`` would play.

        ``progress(done, total)`` is called as games finish (after each game in this process,
        after each chunk elsewhere).
        """
        if self.backend == "inline":
            return run_batch(config, games, seed, cached_policy(self.policy), progress, pace)
        if games < 1:
            raise ValueError("the number of games must be at least 1")
        pace = pace or Pace()
        start = time.perf_counter()
        data = config.to_dict()
        chunks = [Chunk(data, self.policy, pace.turn_seconds, pace.die_seconds, seed, a, b)
                  for a, b in split(games, chunk_count(games, self.workers))]
        run = self._run_ray if self.backend == "ray" else self._run_processes
        parts = run(chunks, games, progress)
        results = [r for part in parts for r in part]
        return BatchStats.of(results, time.perf_counter() - start)

    def _run_processes(self, chunks: list[Chunk], games: int,
                       progress: Callable[[int, int], None] | None) -> list[list[GameResult]]:
        if self._pool is None:
            # spawn: a clean interpreter on every platform (no fork of a parent with threads)
            self._pool = ProcessPoolExecutor(max_workers=self.workers, initializer=_ignore_interrupts,
                                             mp_context=multiprocessing.get_context("spawn"))
        futures: dict[Future[list[GameResult]], int] = {
            self._pool.submit(play_chunk, c): i for i, c in enumerate(chunks)}
        parts: list[list[GameResult]] = [[] for _ in chunks]
        done = 0
        for fut in as_completed(futures):
            i = futures[fut]
            parts[i] = fut.result()
            done += len(parts[i])
            if progress is not None:
                progress(done, games)
        return parts

    def _run_ray(self, chunks: list[Chunk], games: int,
                 progress: Callable[[int, int], None] | None) -> list[list[GameResult]]:
        ray = self._ray
        if self._remote is None:
            self._remote = ray.remote(play_chunk)
        refs = [self._remote.remote(c) for c in chunks]
        index = {ref: i for i, ref in enumerate(refs)}
        parts: list[list[GameResult]] = [[] for _ in chunks]
        pending = list(refs)
        done = 0
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                i = index[ref]
                parts[i] = ray.get(ref)
                done += len(parts[i])
                if progress is not None:
                    progress(done, games)
        return parts


def run_parallel(config: GameConfig, games: int, seed: int, policy: str, pace: Pace | None = None,
                 workers: int | None = None, ray_address: str | None = None,
                 progress: Callable[[int, int], None] | None = None) -> BatchStats:
    """One batch on ``workers`` processes (default: one per CPU) or as Ray tasks: the statistics
    of ``run_batch(config, games, seed, get_policy(policy), pace=pace)``."""
    with BatchRunner(policy, workers, ray_address) as runner:
        return runner.run(config, games, seed, pace, progress)
