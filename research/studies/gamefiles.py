"""Files of simulated games, one JSON object a line, as the studies of many games write them
(``pace_line.py``, ``position_value.py``) and read them back. (It was ``fusegame.sim.gamefiles``
until the studies moved to research/.)

A file is written in the order of its jobs whatever the number of processes, so the same jobs
write the same file; a game is a dict that ``json`` can write, with a ``won`` field.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

Job = TypeVar("Job")


def write_games(play: Callable[[Job], dict[str, Any]], jobs: Sequence[Job], out: str, workers: int,
                chunksize: int = 8) -> int:
    """Play every job with ``play`` on ``workers`` processes and write each game as a line of
    ``out``, with a progress bar on stderr; returns the number of games won. ``play`` must be a
    module-level function (it is sent to the processes by name)."""
    won = 0
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with open(out, "w", encoding="utf-8") as f, ProcessPoolExecutor(workers) as pool, \
            Progress(*columns, console=Console(stderr=True)) as bar:
        task = bar.add_task("games, 0 won", total=len(jobs))
        for g in pool.map(play, jobs, chunksize=chunksize):
            won += bool(g["won"])
            f.write(json.dumps(g) + "\n")
            bar.update(task, advance=1, description=f"games, {won} won")
    return won


def read_games(*paths: str) -> Iterator[dict[str, Any]]:
    """The games of each file in turn (blank lines skipped); ``OSError`` for a file that is not
    there, ``ValueError`` for a line that is not JSON."""
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    yield json.loads(line)
