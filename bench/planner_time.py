"""How long the planner in play takes to decide the whole team's move for one roll.

    python bench/planner_time.py                 # the planner in play, 5 players, Standard FUSE, 40 games
    python bench/planner_time.py --game countdown --players 4 --games 20
    python bench/planner_time.py --prepare       # card models built first, as a server room does
    python bench/planner_time.py --policy team   # the older, lighter planner

Games are played by ``--policy`` (``play``, the default: the planner the bots and the hints use,
``PLAY_WEIGHTS``; ``team``; ``play:dud_gain=1`` and the like change its weights); at the first
decision of every roll the planner's full decision for the roll (``TeamPlanner.plan``, plus the
leader's role choice where roles exist) is timed on a copy of the position by a fresh clock.
Prints p50, p90, p99 and the maximum in milliseconds, over all rolls and over the rolls after the
first game (caches warm). ``--prepare`` builds every card model of the game before the first roll
(``TeamPlanner.prepare``, timed apart), so that no roll pays for a card's first meeting, and then
moves them out of the collector's sight, as the server's planner process does.
"""

from __future__ import annotations

import argparse
import time

from fusegame import engine_kind
from fusegame.bots.team import TeamPlanner
from fusegame.memos import freeze_survivors
from fusegame.rules.config import GameConfig
from fusegame.rules.state import Phase, new_game
from fusegame.sim import Pace, game_seed, get_policy
from fusegame.sim.game import play_game


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="fuse")
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--difficulty", default="standard")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--policy", default="play",
                    help="play (the planner in play, PLAY_WEIGHTS), team or NAME:WEIGHT=VALUE,...")
    ap.add_argument("--prepare", action="store_true",
                    help="build every card model of the game before the first roll (as a server room does)")
    ap.add_argument("--no-freeze", action="store_true",
                    help="leave the memos in the collector's sight (models built, between games)")
    a = ap.parse_args()
    config = GameConfig(players=a.players, difficulty=a.difficulty, game=a.game)
    planner = get_policy(a.policy)
    timer = get_policy(a.policy)  # times its own decisions; shares the process-wide card memo
    if not isinstance(planner, TeamPlanner) or not isinstance(timer, TeamPlanner):
        raise SystemExit(f"--policy {a.policy}: not the team planner")
    times: list[tuple[int, float]] = []
    seen: set[tuple[int, int]] = set()

    def policy(state, rng):  # type: ignore[no-untyped-def]
        key = (game, state.turn)
        if state.phase is Phase.DISTRIBUTE and key not in seen and state.unplaced():
            seen.add(key)
            copy = state.clone()
            t0 = time.perf_counter()
            timer.choose_role(copy)
            timer.plan(copy)
            times.append((game, (time.perf_counter() - t0) * 1000))
        return planner(state, rng)

    prepared = ""
    if a.prepare:
        t0 = time.perf_counter()
        cards = timer.prepare(new_game(config, game_seed(a.seed, 0)))
        if not a.no_freeze:
            freeze_survivors()  # as the server's planner process does once a planner is prepared
        prepared = f"; {cards} card models built first in {time.perf_counter() - t0:.1f} s"
    for game in range(a.games):
        play_game(config, game_seed(a.seed, game), policy, Pace())
        if not a.no_freeze:
            freeze_survivors()  # as every simulation does between games
    every = [ms for _, ms in times]
    warm = [ms for g, ms in times if g > 0]
    print(f"{a.policy}, one roll: {a.game} {a.players} players {a.difficulty}, {a.games} games; "
          f"{engine_kind()} engine{', memos left to the collector' if a.no_freeze else ''}{prepared}")
    for name, xs in (("all rolls", every), ("after the first game", warm)):
        if xs:
            print(f"  {name:21} n={len(xs):5}  p50 {pct(xs, .5):6.2f} ms  p90 {pct(xs, .9):6.2f} ms  "
                  f"p99 {pct(xs, .99):6.2f} ms  max {max(xs):7.2f} ms")


if __name__ == "__main__":
    main()
