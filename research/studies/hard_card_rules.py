"""The search's lesson tried as a simple rule: take the hardest card from the row (A), or keep one
hard card a seat (B), against the team planner on the same deals.

    python research/studies/hard_card_rules.py expert 300           # LEVEL GAMES [PLAYERS] (FUSE)
"""

from __future__ import annotations

import sys
import time

from fusegame.bots.team import TeamPlanner
from fusegame.rules import defusal
from fusegame.rules.config import GameConfig
from fusegame.rules.state import GameState
from fusegame.sim import Pace, game_seed, play_game


class Park(TeamPlanner):
    def __init__(self, mode: str) -> None:
        super().__init__()
        self.mode = mode

    def choose_card(self, state: GameState, seat: int) -> str:
        options = defusal.options(state)
        if len(options) == 1 or state.config.difficulty.top:
            return super().choose_card(state, seat)
        e = lambda c: self.model(state, c).draws(state.card_rules(c).empty)
        hardest = max(options, key=lambda c: (e(c), c))
        if self.mode == "A":
            return hardest
        # B: park one hard card per seat: take the hardest unless the seat already holds a card
        # at least as hard as it; then the planner's easy pick
        held = [self.model(state, hc.card).draws(hc.key) for hc in state.hands[seat] if not hc.complete]
        if not held or max(held) < e(hardest):
            return hardest
        return super().choose_card(state, seat)


lv, n = sys.argv[1], int(sys.argv[2])
p = int(sys.argv[3]) if len(sys.argv) > 3 else 3
cfg = GameConfig(players=p, difficulty=lv)
res = {}
for name, pol in (("team", TeamPlanner()), ("A", Park("A")), ("B", Park("B"))):
    t = time.perf_counter()
    res[name] = [play_game(cfg, game_seed(2026, i), pol, Pace()).won for i in range(n)]
    print(name, sum(res[name]), n, f"{time.perf_counter() - t:.0f}s", flush=True)
