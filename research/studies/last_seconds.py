"""The last seconds played out: the planner in play, with its decisions in the game's last seconds
chosen by roll-outs to the end of the game, against the planner in play on the same deals.

    python research/studies/last_seconds.py --games 1000 --start 30000 --window 90 --samples 16 --plans 4
    python research/studies/last_seconds.py --games 1000 --start 30000 --margin 125 --json out.json

FUSE 3 players Standard (``--players``, ``--difficulty``), 12 s a turn + 1 s a die, game ``i`` on
``game_seed(2026, i)`` as in research/studies/search_paired.py. Most of the 3-player Standard games the
planner in play loses end one bomb short, so the last turns look like the place where looking
further pays: once at most ``--window`` seconds are left on the clock, each roll's plan is chosen
among the planner's own and its ``--plans`` best others (by the roll's value alone), and each
card to take among the row's cards, by ``--samples`` sampled futures played to the end of the game
by the planner in play (the face-down cards shuffled and the game's generator reseeded, the same
futures for every candidate). A future won scores 1,000, one lost -1,000 less the work then left
(``rollout.SearchPolicy.work_left``), so that futures lost nearer a win count for more. The
planner's own choice is kept unless another beats it by more than ``--margin`` (125 is one more
future won in 16).

Before the window the variant plays the planner's very moves, so only the deals the planner loses,
or wins inside the window, can end otherwise: the variant is played on those alone, and every other
deal counts as won by both. Prints the deals turned from loss to win and from win to loss, the
paired difference over all the deals with its 95% interval, and the time of a decision in the
window.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from rollout import SearchBudget, SearchPolicy

from fusegame.bots.team import PLAY_WEIGHTS
from fusegame.rng import Rng
from fusegame.rules.actions import Action, Done, TakeCard, with_time
from fusegame.rules.config import GameConfig
from fusegame.rules.state import GameState
from fusegame.sim import Pace, game_seed, get_policy, play_game
from fusegame.sim.stats import paired_difference

#: a sampled future the team wins
WON = 1000.0


class LastSeconds(SearchPolicy):
    """The planner in play; in the game's last ``window_s`` seconds its plans and cards chosen by
    roll-outs to the end (see the module's text)."""

    def __init__(self, samples: int, plans: int, window_s: float, margin: float = 0.0) -> None:
        # a horizon past any game's end: every roll-out is played until the game is over
        super().__init__(SearchBudget(samples=samples, horizon=1000, plans=plans), PLAY_WEIGHTS)
        self.window_ms = window_s * 1000
        self.margin = margin
        #: the time of each decision the roll-outs made, in ms
        self.decisions: list[float] = []

    def in_window(self, state: GameState) -> bool:
        limit = state.config.time_limit
        return limit is not None and limit * 1000 - state.time_ms <= self.window_ms

    def __call__(self, state: GameState, rng: Rng) -> Action:
        if not self.in_window(state):
            return self.base.act(state)
        return super().__call__(state, rng)

    def choose_plan(self, state: GameState, rng: Rng) -> list[Action] | None:
        seats = self.plan_seats(state)
        if seats is None:
            return None
        plan = self.base.plan(state)
        own: list[Action] = [m.action for m in sorted(
            plan.moves, key=lambda m: (not m.completes, -m.gain, str(m.action)))]
        own += [Done(s, state.time_ms) for s in plan.done]

        def same(steps: list[Action]) -> list[str]:
            return sorted(str(with_time(a, 0)) for a in steps)

        cands = [own] + [c for c in self.top_plans(state, seats, self.budget.plans) if same(c) != same(own)]
        if len(cands) < 2:
            return None
        return cands[self._best(state, cands, rng)]

    def choose_card(self, state: GameState, seat: int, options: list[str], rng: Rng) -> str:
        own = self.base.choose_card(state, seat)
        cards = [own] + sorted(c for c in options if c != own)
        return cards[self._best(state, [TakeCard(seat, state.time_ms, c) for c in cards], rng)]

    def _best(self, state: GameState, cands: list[list[Action]] | list[TakeCard], rng: Rng) -> int:
        """The candidate whose futures score best; the first, the planner's own, unless another
        beats it by more than the margin."""
        t0 = time.perf_counter()
        seeds = [rng.next64() for _ in range(self.budget.samples)]
        best = (0.0, 0)
        for i, first in enumerate(cands):
            mean = sum(self.rollout(state, first, s) for s in seeds) / len(seeds)
            if i == 0:
                best = (mean + self.margin, 0)
            elif mean > best[0] + 1e-9:
                best = (mean, i)
        self.decisions.append((time.perf_counter() - t0) * 1000)
        return best[1]

    def value(self, g: GameState) -> float:
        if g.outcome is not None and g.outcome.won:
            return WON
        return -WON - self.work_left(g)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--difficulty", default="standard")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--start", type=int, default=30000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--window", type=float, default=90.0, help="seconds left on the clock")
    ap.add_argument("--samples", type=int, default=16)
    ap.add_argument("--plans", type=int, default=4)
    ap.add_argument("--margin", type=float, default=0.0)
    ap.add_argument("--json", type=Path, default=None)
    a = ap.parse_args()
    config = GameConfig(players=a.players, difficulty=a.difficulty)
    limit_ms = (config.time_limit or 0) * 1000
    turned = lost = played = 0
    decisions: list[float] = []
    deals: dict[int, tuple[int, int]] = {}
    for i in range(a.start, a.start + a.games):
        seed = game_seed(a.seed, i)
        before = play_game(config, seed, get_policy("play"), Pace())
        if before.won and before.time_ms <= limit_ms - a.window * 1000:
            deals[i] = (1, 1)  # won before the window opened: the very same game
            continue
        variant = LastSeconds(a.samples, a.plans, a.window, a.margin)
        after = play_game(config, seed, variant, Pace())
        decisions += variant.decisions
        played += 1
        turned += after.won and not before.won
        lost += before.won and not after.won
        deals[i] = (int(before.won), int(after.won))
        print(f"deal {i}: play {'won' if before.won else 'lost'}, last seconds "
              f"{'won' if after.won else 'lost'}", flush=True)
    n = a.games
    d, lo, hi = paired_difference(turned, lost, n)
    won_a = sum(x for x, _ in deals.values())
    won_b = sum(y for _, y in deals.values())
    decisions.sort()

    def p(q: float) -> float:
        return decisions[min(len(decisions) - 1, int(q * len(decisions)))] if decisions else 0.0

    print(f"\n{a.players} players {a.difficulty}, deals {a.start}-{a.start + n - 1}, window {a.window:g} s, "
          f"{a.samples} futures, {a.plans} plans, margin {a.margin:g}")
    print(f"play won {won_a}, last seconds {won_b}; {played} deals reached the window; "
          f"losses turned to wins {turned}, wins turned to losses {lost}; "
          f"paired difference {100 * d:+.2f} points [{100 * lo:+.2f}, {100 * hi:+.2f}]")
    print(f"a decision in the window: p50 {p(.5):.0f} ms, p99 {p(.99):.0f} ms ({len(decisions)} decisions)")
    if a.json is not None:
        a.json.write_text(json.dumps({"start": a.start, "games": n, "window_s": a.window,
                                      "samples": a.samples, "plans": a.plans, "margin": a.margin,
                                      "play_won": won_a,
                                      "last_seconds_won": won_b, "turned": turned, "lost": lost,
                                      "deals": {str(k): v for k, v in deals.items()}}, indent=1))


if __name__ == "__main__":
    main()
