"""How long a game's review takes (``fusegame.review``, what ``GET /api/log/{id}/review`` and
``fuse review`` make), on one core.

    python bench/review_time.py                  # 10-minute games: FUSE 4 players, Countdown 4, epic 9
    python bench/review_time.py --games 5

Games are played by the greedy bots (a team that makes the mistakes a review is for) at a
person's pace (``Pace``: 12 s a turn and 1 s a die rolled, so a game runs to its ten minutes or
near them) and recorded; each record is reviewed by a fresh reviewer, as a server's worker makes
its first review, and timed. Prints, per table, the actions and rolls a record holds and the
review's p50 and maximum in seconds. The aim: under 10 s for a 4-player game on the compiled
engine (under 30 s plain), under 60 s for an epic 9-player game.
"""

from __future__ import annotations

import argparse
import statistics
import time

from fusegame import engine_kind
from fusegame.review import Reviewer
from fusegame.rules.config import GameConfig
from fusegame.sim import Pace, game_seed, get_policy, play_game

TABLES = (("fuse", 4, "standard"), ("countdown", 4, "standard"), ("epic", 9, "standard"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=3, help="recorded games a table")
    ap.add_argument("--seed", type=int, default=2026)
    a = ap.parse_args()
    if a.games < 1:
        ap.error("--games must be at least 1")
    print(f"reviews of recorded games, {a.games} a table, {engine_kind()} engine")
    for game, players, level in TABLES:
        config = GameConfig(players=players, difficulty=level, game=game)
        times: list[float] = []
        actions: list[int] = []
        rolls: list[int] = []
        minutes: list[float] = []
        for i in range(a.games):
            result = play_game(config, game_seed(a.seed, i), get_policy("greedy"), Pace(), record=True)
            assert result.record is not None
            t0 = time.perf_counter()
            review = Reviewer().review(result.record)
            times.append(time.perf_counter() - t0)
            actions.append(len(result.record.actions))
            rolls.append(review.rolls)
            minutes.append(review.end_ms / 60_000)
        p50 = statistics.median(times)
        print(f"  {config.describe():50} {statistics.mean(minutes):4.1f} min, "
              f"{statistics.mean(actions):5.0f} actions, {statistics.mean(rolls):4.0f} rolls  "
              f"p50 {p50:6.2f} s  max {max(times):6.2f} s", flush=True)


if __name__ == "__main__":
    main()
