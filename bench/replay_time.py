"""How long the server takes to replay a logged game the first time its replay or its pace is asked
for (``GET /api/log/{id}/replay`` and ``/pace``, which the end screen asks for once a game is over).

    python bench/replay_time.py                  # FUSE 3 and 5 players, Countdown 4, 20 games each
    python bench/replay_time.py --games 50

Games are played by the planner in play and recorded; each record is then replayed as the server
does (``server.replays.Replay``: every step with its events, a copy of the table every
``CHECKPOINT`` steps, and the bombs taken from the middle for the pace picture), timed. The server
keeps the last replays opened, so a game is replayed once whoever asks. Prints, per table, the
actions a record holds and the replay's p50 and maximum in milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import time

from fusegame import engine_kind
from fusegame.rules.config import GameConfig
from fusegame.server.replays import Replay
from fusegame.sim import Pace, game_seed, get_policy, play_game

TABLES = (("fuse", 3, "standard"), ("fuse", 5, "elite"), ("countdown", 4, "expert"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20, help="recorded games a table")
    ap.add_argument("--seed", type=int, default=2026)
    a = ap.parse_args()
    if a.games < 1:
        ap.error("--games must be at least 1")
    print(f"replays of recorded games, {a.games} a table, {engine_kind()} engine")
    for game, players, level in TABLES:
        config = GameConfig(players=players, difficulty=level, game=game)
        times: list[float] = []
        actions: list[int] = []
        for i in range(a.games):
            record = play_game(config, game_seed(a.seed, i), get_policy("play"), Pace(), record=True).record
            assert record is not None
            t0 = time.perf_counter()
            Replay(record).pace_summary()
            times.append(1000 * (time.perf_counter() - t0))
            actions.append(len(record.actions))
        print(f"- {game} {players} players {level}: {min(actions)}-{max(actions)} actions a record; "
              f"replay p50 {statistics.median(times):.1f} ms, max {max(times):.1f} ms")


if __name__ == "__main__":
    main()
