"""The ``rollout`` policy: the team planner, with look-ahead where one choice shapes many rolls.

A research policy: importing this module registers it with ``fusegame.sim.register_policy``, so a
study names it as ``rollout`` (6 futures of 4 turns), ``rollout:SxT`` or ``rollout:SxTpN`` wherever
it names the product's policies (``get_policy``). It was ``fusegame.bots.search`` and ``fuse sim
--policy rollout`` until it moved here: the planner in play wins more often than it at a fraction
of its cost (research/past_the_roll.md, "The roll-out search").

The team planner (``fusegame.bots.team``) judges each roll on its own: it knows what a die is worth
on a card now, but not which cards will fit the dice of the next few rolls. This policy keeps the
planner for every decision and second-guesses it where the choice shapes the rolls to come: which
card a seat takes from the row after a defusal (and, with ``SearchBudget.plans``, which of the
planner's best few plans a roll uses; measured no better, so off by default). Each candidate is
scored by *determinised roll-outs*: the position is cloned, its hidden future (the face-down
deck's order, the spark deck, the game's generator, hence every bag draw and roll) is replaced by
a sample drawn from the policy's own generator, the candidate is played, and the base planner
plays ``horizon`` more turns under the simulator's pace model. All candidates meet the same
samples (common random numbers), so their difference is measured on the same luck. A position is
scored by the work still to do (``fusegame.bots.value``: expected dice to complete every card in
the hands, the row and the deck), less the ``2 x players`` hardest cards (the ones the team leaves
face down at the end need no finishing below Insane/Heroic), with a large bonus for a win and
malus for a loss inside the horizon.

The policy never reads the real future: before sampling it puts the hidden cards in a canonical
order and reseeds the generator, so two positions that look the same to the players get the same
decision. It is deterministic given its generator (the simulator derives it from the game seed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from fusegame.bots.team import TeamPlanner, Weights
from fusegame.rng import Rng
from fusegame.rules import defusal
from fusegame.rules.actions import Action, Done, Place, TakeCard, Tick, with_time
from fusegame.rules.state import GameState
from fusegame.sim import Pace, register_policy

#: Score of a position won (lost) inside the horizon: far beyond any difference in work.
WIN_BONUS = 1000.0


@dataclass(frozen=True)
class SearchBudget:
    """How much look-ahead one decision may buy.

    ``samples`` determinised futures per candidate, each played ``horizon`` turns past the
    decision's turn. Decision time grows as candidates x samples x horizon.
    """

    samples: int = 6
    horizon: int = 4
    #: the planner's best few plans for a roll that are played out against each other (0: the
    #: roll is left to the planner; only rolls where every seat takes at most one die)
    plans: int = 0
    #: the pace the roll-outs charge to the clock (the simulator's default)
    turn_seconds: float = 12.0
    die_seconds: float = 1.0

    def __post_init__(self) -> None:
        if self.samples < 1 or self.horizon < 1:
            raise ValueError("a search budget needs at least one sample and one turn")


class SearchPolicy:
    """``policy(state, rng)``: the team planner plus roll-out search over replacement cards."""

    def __init__(self, budget: SearchBudget | None = None, weights: Weights | None = None) -> None:
        self.budget = budget or SearchBudget()
        #: decides the real game (its queued plan is kept between calls)
        self.base = TeamPlanner(weights)
        #: plays the roll-outs; a second planner so the roll-outs never disturb the real queue
        self.sim = TeamPlanner(weights)
        self._queue: tuple[GameState, int, list[Action]] | None = None

    def at_pace(self, pace: Pace) -> SearchPolicy:
        """This policy, its roll-outs charging ``pace`` to the clock (``play_game`` calls it with
        the pace of the game it plays)."""
        if (self.budget.turn_seconds, self.budget.die_seconds) != (pace.turn_seconds, pace.die_seconds):
            self.budget = replace(self.budget, turn_seconds=pace.turn_seconds, die_seconds=pace.die_seconds)
        return self

    def __call__(self, state: GameState, rng: Rng) -> Action:
        decisions = state.to_act()
        for seat, dec in decisions.items():
            if dec.kind == "take":
                options = defusal.options(state)
                if len(options) > 1:
                    return TakeCard(seat, state.time_ms, self.choose_card(state, seat, options, rng))
        if any(d.kind != "distribute" for d in decisions.values()):
            return self.base.act(state)
        queued = self._next_queued(state)
        if queued is not None:
            return queued
        if self.budget.plans > 1 and state.unplaced():
            steps = self.choose_plan(state, rng)
            if steps is not None:
                self._queue = (state, state.turn, steps)
                queued = self._next_queued(state)
                if queued is not None:
                    return queued
        return self.base.act(state)

    def _next_queued(self, state: GameState) -> Action | None:
        """The next action of a plan the search chose for this roll, while it is still legal."""
        if self._queue is None:
            return None
        game, turn, steps = self._queue
        if game is not state or turn != state.turn or not steps:
            self._queue = None
            return None
        a = with_time(steps.pop(0), state.time_ms)
        if a not in state.legal_actions(a.seat):
            self._queue = None  # the roll went otherwise: the planner takes over
            return None
        return a

    # ------------------------------------------------------------------ the search
    def choose_card(self, state: GameState, seat: int, options: list[str], rng: Rng) -> str:
        """The row card ``seat`` should take: the one whose roll-outs leave the least work."""
        seeds = [rng.next64() for _ in range(self.budget.samples)]
        best: tuple[float, str] | None = None
        # candidates in a fixed order, so ties go the same way whatever the row's order
        for card in sorted(options):
            total = 0.0
            for s in seeds:
                total += self.rollout(state, TakeCard(seat, state.time_ms, card), s)
            mean = total / len(seeds)
            if best is None or mean > best[0] + 1e-9:
                best = (mean, card)
        assert best is not None
        return best[1]

    def choose_plan(self, state: GameState, rng: Rng) -> list[Action] | None:
        """The roll's placements (and seats that pass) among the planner's best few plans by
        its own reckoning, chosen by roll-outs; None where the planner should decide alone."""
        seats = self.plan_seats(state)
        if seats is None:
            return None
        cands = self.top_plans(state, seats, self.budget.plans)
        if len(cands) < 2:
            return None
        seeds = [rng.next64() for _ in range(self.budget.samples)]
        best: tuple[float, int] | None = None
        for i, steps in enumerate(cands):
            mean = sum(self.rollout(state, steps, s) for s in seeds) / len(seeds)
            if best is None or mean > best[0] + 1e-9:
                best = (mean, i)
        assert best is not None
        return list(cands[best[1]])

    def plan_seats(self, state: GameState) -> list[int] | None:
        """The seats sharing out the roll, where a plan of it may be searched: each takes exactly one
        die more, and no role the planner would use is open; None where the planner decides alone."""
        if state.active_ability() is not None and self.base.choose_role(state) is not None:
            return None
        seats = [s for s, d in state.to_act().items() if d.kind == "distribute"]
        if not seats or any(state.seat_quota(s) - state.taken[s] != 1 for s in seats):
            return None
        return seats

    def top_plans(self, state: GameState, seats: list[int], n: int) -> list[list[Action]]:
        """The ``n`` best assignments of the roll's dice (at most one per seat) by the planner's
        static value: work saved, less the expected penalty for the dice left over. Each is a
        list of actions: completing placements first, then the rest, then the seats that pass."""
        free = state.unplaced()
        base = self.base
        pen = {d: base.penalty_cost(state, d) for d in free} if not state.config.uses_sparks else {}
        per_seat: list[list[tuple[float, int, Action, bool]]] = []
        for s in seats:
            opts: list[tuple[float, int, Action, bool]] = [
                (o.gain - base._shortfall_cost(state, s, state.taken[s] + 1), o.die,
                 Place(s, state.time_ms, o.die, o.card, o.slot), o.completes)
                for o in base._options(state, s, {}, free)]
            opts.sort(key=lambda x: (-x[0], str(x[2])))
            per_seat.append(opts[:6])  # the best few per seat: the rest never make a top plan
        plans = _PlanSearch(base, state, seats, free, pen, per_seat)
        plans.go(0, frozenset(), 0.0, [])
        found = plans.found
        found.sort(key=lambda x: (-x[0], [str(a) for _, a in x[1]]))
        out: list[list[Action]] = []
        for _, chosen in found[:n]:
            places = [a for c, a in chosen if c] + [a for c, a in chosen if not c and isinstance(a, Place)]
            out.append(places + [a for _, a in chosen if isinstance(a, Done)])
        return out

    def rollout(self, state: GameState, first: Action | list[Action], seed: int) -> float:
        """Play ``first`` (an action, or a roll's plan) then the base planner up to ``horizon``
        turns past the decision's, in one sampled future."""
        g = determinise(state, seed)
        if isinstance(first, list):
            self._play_steps(g, first)
        else:
            g.apply_unchecked(first)
        stop = state.turn + self.budget.horizon
        turn = g.turn
        at = g.time_ms
        pace = Pace(self.budget.turn_seconds, self.budget.die_seconds)
        while not g.is_over and g.turn < stop:
            if g.turn != turn:
                turn = g.turn
                at += pace.turn_of(g)
                g.apply_unchecked(Tick(-1, at))
                if g.is_over:
                    break
            g.apply_unchecked(self.sim.act(g))
        return self.value(g)

    def _play_steps(self, g: GameState, steps: list[Action]) -> None:
        """Play a roll's planned actions, letting the planner settle anything that comes between
        (a replacement card after a completion), and stopping where a step is no longer legal."""
        turn = g.turn
        for a in steps:
            while not g.is_over and g.turn == turn and any(
                    d.kind != "distribute" for d in g.to_act().values()):
                g.apply_unchecked(self.sim.act(g))
            if g.is_over or g.turn != turn:
                return
            a = with_time(a, g.time_ms)
            if a not in g.legal_actions(a.seat):
                return
            g.apply_unchecked(a)

    def value(self, g: GameState) -> float:
        """Minus the work left (hands, row and deck), or the win/loss bonus."""
        if g.outcome is not None:
            return WIN_BONUS if g.outcome.won else -WIN_BONUS
        return -self.work_left(g)

    def work_left(self, g: GameState) -> float:
        """The expected dice still needed on every bomb in the hands, the row and the deck, less
        the ``2 x players`` hardest below Insane and Heroic."""
        works: list[float] = []
        for hand in g.hands:
            for hc in hand:
                if not hc.complete:
                    works.append(self.sim.model(g, hc.card).draws(hc.key))
        # every bomb still to come counts, not only the row's: a card completed inside the
        # horizon brings a deck card into the row, and that must not look like lost ground
        waiting = list(g.row) + list(g.deck)
        if g.stacks is not None:
            waiting += [c for pile in g.stacks.piles.values() for c in pile]
        for c in waiting:
            if g.is_bomb(c):
                works.append(self.sim.model(g, c).draws(g.card_rules(c).empty))
        # the last two cards in front of each player need not be finished (below Insane/Heroic):
        # the team leaves its hardest ones for that, so they are no work
        if not g.config.difficulty.top:
            works.sort()
            del works[len(works) - min(len(works), 2 * g.players):]
        return sum(works)


class _PlanSearch:
    """The enumeration of ``SearchPolicy.top_plans``: for every seat in order, pass or one of its
    best few placements of a die not yet used. (A class, not a nested function: a nested function
    that calls itself is a reference cycle, which only the collector frees.)"""

    def __init__(self, base: TeamPlanner, state: GameState, seats: list[int], free: list[int],
                 pen: dict[int, float], per_seat: list[list[tuple[float, int, Action, bool]]]) -> None:
        self.base = base
        self.state = state
        self.seats = seats
        self.free = free
        self.pen = pen
        self.per_seat = per_seat
        self.found: list[tuple[float, list[tuple[bool, Action]]]] = []

    def go(self, i: int, used: frozenset[int], v: float, chosen: list[tuple[bool, Action]]) -> None:
        state, seats = self.state, self.seats
        if i == len(seats):
            total = v - sum(self.pen.get(d, 0.0) for d in self.free if d not in used)
            self.found.append((total, list(chosen)))
            return
        s = seats[i]
        chosen.append((False, Done(s, state.time_ms)))
        self.go(i + 1, used, v - self.base._shortfall_cost(state, s, state.taken[s]), chosen)
        chosen.pop()
        for gain, d, a, completes in self.per_seat[i]:
            if d not in used:
                chosen.append((completes, a))
                self.go(i + 1, used | {d}, v + gain, chosen)
                chosen.pop()


def determinise(state: GameState, seed: int) -> GameState:
    """A copy of ``state`` whose hidden future is a fresh sample: the face-down cards (deck, spark
    deck, the stacks below their tops) in an order drawn from ``seed``, and a new game generator.

    The hidden cards are sorted before shuffling, so the copy depends only on what the players see
    and on ``seed``, never on the real order."""
    g = state.clone()
    rng = Rng(seed)
    g.rng = Rng(rng.next64())
    deck = sorted(g.deck)
    rng.shuffle(deck)
    g.deck[:] = deck
    if g.sparks is not None:
        pile = sorted(g.sparks.deck)
        rng.shuffle(pile)
        g.sparks.deck[:] = pile
    if g.stacks is not None:
        for k in sorted(g.stacks.piles):
            p = g.stacks.piles[k]
            if len(p) > 2:
                below = sorted(p[:-1])
                rng.shuffle(below)
                p[:-1] = below
    return g


#: a roll-out budget by name, ``SAMPLESxTURNS[pPLANS]``
BUDGET = re.compile(r"(\d+)x(\d+)(?:p(\d+))?")


def rollout_policy(arg: str = "") -> SearchPolicy:
    """The policy ``get_policy`` builds for ``rollout`` (``arg`` empty: 6 futures of 4 turns) and
    ``rollout:SxT[pN]`` (``arg`` the budget: ``S`` sampled futures for each candidate, each played
    ``T`` turns ahead; ``pN`` also plays out the planner's ``N`` best plans of each roll)."""
    if not arg:
        return SearchPolicy()
    m = BUDGET.fullmatch(arg)
    if m is None:
        raise ValueError(f"roll-out budget {arg!r}: write SAMPLESxTURNS[pPLANS], e.g. rollout:6x4p3")
    return SearchPolicy(SearchBudget(samples=int(m[1]), horizon=int(m[2]), plans=int(m[3] or 0)))


register_policy("rollout", rollout_policy)
