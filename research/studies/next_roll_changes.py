"""How often looking at the next roll changes the planner in play's plan for a roll, and how.

    python research/studies/next_roll_changes.py                  # FUSE 3 players Expert, deals 3,000-3,009
    python research/studies/next_roll_changes.py --level elite --games 20 --start 1000

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
from fusegame.rng import Rng
from fusegame.rules.actions import Action
from fusegame.rules.config import GameConfig
from fusegame.rules.state import GameState
from fusegame.sim import game_seed, play_game


class Compared:
    """The planner in play as a policy (``play_game`` drives it), comparing its plan with the
    roll alone's at the first decision of every roll where each seat takes one die."""

    def __init__(self) -> None:
        self.look = TeamPlanner(PLAY_WEIGHTS)
        self.alone = TeamPlanner(replace(PLAY_WEIGHTS, look_rolls=0))
        self.rolls = self.changed = 0
        self.kinds: Counter[tuple[int, int]] = Counter()
        self._seen: tuple[int, int] | None = None

    def __call__(self, s: GameState, rng: Rng) -> Action:
        if (id(s), s.turn) != self._seen and s.rolled and s.quota == 1 and not any(s.taken):
            self._seen = (id(s), s.turn)
            p, q = self.look.plan(s), self.alone.plan(s)
            self.rolls += 1
            if sorted(str(m.action) for m in p.moves) != sorted(str(m.action) for m in q.moves):
                self.changed += 1
                self.kinds[(len(p.moves) - len(q.moves),
                            sum(m.completes for m in p.moves) - sum(m.completes for m in q.moves))] += 1
        return self.look(s, rng)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--level", default="expert")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--start", type=int, default=3000)
    a = ap.parse_args()
    cfg = GameConfig(players=a.players, difficulty=a.level, game="fuse")  # type: ignore[arg-type]
    policy = Compared()
    for i in range(a.start, a.start + a.games):
        play_game(cfg, game_seed(2026, i), policy)
    rolls, changed, kinds = policy.rolls, policy.changed, policy.kinds
    print(f"{a.players} players {a.level}, deals {a.start}-{a.start + a.games - 1}: {rolls} rolls, "
          f"{changed} plans changed by the next roll")
    for (placed, completed), n in sorted(kinds.items(), key=lambda kv: -kv[1]):
        print(f"  {n:4d}  dice placed {placed:+d}, cards completed {completed:+d}")


if __name__ == "__main__":
    main()
