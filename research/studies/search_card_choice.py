"""Where the search policy's card choice differs from the team planner's, and how the cards compare.

    python research/studies/search_card_choice.py expert 40         # LEVEL GAMES (FUSE, 3 players)

For every card the search takes from the row, the planner's pick in the same position beside it:
how often they differ, and the two cards' expected dice, points, fit of a random die and slots,
early (more than 6 bombs in the middle) and late. Game ``i`` uses ``game_seed(2026, i)``.
"""

from __future__ import annotations

import statistics as st
import sys

from rollout import SearchPolicy

from fusegame.rules.config import GameConfig
from fusegame.sim import Pace, game_seed, play_game

lv, n = sys.argv[1], int(sys.argv[2])
cfg = GameConfig(players=3, difficulty=lv)
rows = []


class Spy(SearchPolicy):
    def choose_card(self, state, seat, options, rng):  # type: ignore[no-untyped-def]
        got = super().choose_card(state, seat, options, rng)
        mine = self.base.choose_card(state, seat)

        def feat(c):  # type: ignore[no-untyped-def]
            m = self.base.model(state, c)
            e = state.card_rules(c).empty
            return (m.draws(e), state.bomb(c).points, m.fit(e), len(e))

        fuses = {f.id for f in state.config.catalogue.fuses}
        left = len(state.row) + sum(1 for c in state.deck if c not in fuses)
        rows.append((got != mine, feat(got), feat(mine), left, state.time_ms / 1000))
        return got


pol = Spy()
for i in range(n):
    play_game(cfg, game_seed(2026, i), pol, Pace())
diff = [r for r in rows if r[0]]
share = 100 * len(diff) / len(rows)
print(f"{len(rows)} choices of card, search differs from planner in {len(diff)} ({share:.0f}%)")
for k, name in enumerate(["expected dice (empty)", "points", "fit of a random die", "slots"]):
    print(
        f"  {name:24s} search {st.mean(r[1][k] for r in diff):6.2f}  "
        f"planner {st.mean(r[2][k] for r in diff):6.2f}"
    )
print(
    "  bombs left in middle at differing choices: mean",
    st.mean(r[3] for r in diff),
    "vs all",
    st.mean(r[3] for r in rows),
)
print("  harder card chosen by search:", sum(r[1][0] > r[2][0] for r in diff), "of", len(diff))
early = [r for r in diff if r[3] > 6]
late = [r for r in diff if r[3] <= 6]
for lab, g in (("early (>6 bombs left)", early), ("late (<=6)", late)):
    if g:
        print(
            f"  {lab}: n={len(g)}, search dice {st.mean(r[1][0] for r in g):.2f} "
            f"vs planner {st.mean(r[2][0] for r in g):.2f}; "
            f"fit {st.mean(r[1][2] for r in g):.3f} vs {st.mean(r[2][2] for r in g):.3f}; "
            f"slots {st.mean(r[1][3] for r in g):.2f} vs {st.mean(r[2][3] for r in g):.2f}"
        )
