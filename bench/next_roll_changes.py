"""How often looking at the next roll changes the planner in play's plan for a roll, and how.

    python bench/next_roll_changes.py                  # FUSE 3 players Expert, deals 3,000-3,009
    python bench/next_roll_changes.py --level elite --games 20 --start 1000

Plays the planner in play (``--policy play``) and, at the start of every roll where each seat
takes one die, asks it and the same planner without the look at the next roll
(``play:look_rolls=0``) for their plans of the roll. Prints the rolls compared, the rolls whose
plans differ, and those by the difference in dice placed and in cards completed (0, 0: the same
number of each, a different assignment). Game ``i`` uses ``game_seed(2026, i)``.
"""

from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import replace

from fusegame.bots.team import PLAY_WEIGHTS, TeamPlanner
from fusegame.rules.actions import Tick
from fusegame.rules.config import GameConfig
from fusegame.rules.state import new_game
from fusegame.sim import Pace, game_seed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--level", default="expert")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--start", type=int, default=3000)
    a = ap.parse_args()
    cfg = GameConfig(players=a.players, difficulty=a.level, game="fuse")  # type: ignore[arg-type]
    look, alone = TeamPlanner(PLAY_WEIGHTS), TeamPlanner(replace(PLAY_WEIGHTS, look_rolls=0))
    pace = Pace()
    rolls = changed = 0
    kinds: Counter[tuple[int, int]] = Counter()
    for i in range(a.start, a.start + a.games):
        s = new_game(cfg, game_seed(2026, i))
        turn, at = -1, 0
        while not s.is_over:
            if s.turn != turn:
                turn = s.turn
                at += pace.turn_of(s)
                s.apply_unchecked(Tick(-1, at))
                if s.is_over:
                    break
                if s.rolled and s.quota == 1 and not any(s.taken):
                    p, q = look.plan(s), alone.plan(s)
                    rolls += 1
                    if sorted(str(m.action) for m in p.moves) != sorted(str(m.action) for m in q.moves):
                        changed += 1
                        kinds[(len(p.moves) - len(q.moves),
                               sum(m.completes for m in p.moves) - sum(m.completes for m in q.moves))] += 1
            s.apply_unchecked(look(s))
    print(f"{a.players} players {a.level}, deals {a.start}-{a.start + a.games - 1}: {rolls} rolls, "
          f"{changed} plans changed by the next roll")
    for (placed, completed), n in sorted(kinds.items(), key=lambda kv: -kv[1]):
        print(f"  {n:4d}  dice placed {placed:+d}, cards completed {completed:+d}")


if __name__ == "__main__":
    main()
