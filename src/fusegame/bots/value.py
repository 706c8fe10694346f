"""How far a card is from complete: the expected number of dice it must be offered.

The bots' whole sense of value rests on one number per card state, ``draws``: imagine dice drawn
one at a time from the game's dice (every colour in the proportion the inventory holds, every
face equally likely), each offered to this card alone, and placed on the best legal slot or
declined. ``draws(state)`` is the expected number of dice offered until the card is complete
under the best placing rule. It is the solution of a small Markov decision problem::

    E(s) = 1 + sum_t w_t * min(E(s), min_{legal j} E(s + t@j))

where ``w_t`` is the chance of drawing a die of type class ``t``. Declining a die (the ``E(s)``
term) is allowed, so a placement that spoils the card shows up as a *rise* in ``E``. States are
keyed by the card's class representatives (``CompiledCard.canon``), so dice the card cannot tell
apart are one class. Most cards have a few hundred reachable states and are solved exactly. A
card with more than ``EXACT_BUDGET`` (the loose five- and six-slot cards, many Countdown cards)
is "big": its states with two or more empty slots are estimated by roll-outs that put each die
on a random legal slot, all drawn from one stream per card so that neighbouring states are
compared on the same luck. Roll-outs never decline a die, so on big cards the model is a little
pessimistic. Every answer is memoised for the process, and every number is a pure function of
the card, the dice and the state, so bots stay deterministic.

A model may also be asked with ``offer`` dice shown at a time, of which the best one counts (a
seat at the table sees the whole roll, not one die): then ``w_t`` above becomes the chance that
the best of ``offer`` dice is of class ``t``, and ``draws`` counts offers rather than dice. The
planner uses one die a time; more was measured no better (research/past_the_roll.md, "Two dice
shown at a time").

A model may also count the penalty (``penalty``, FUSE's unused-dice penalty; the planner in play
counts it at Standard, ``Weights.standard_penalty_rate``): after each die offered, a penalty die
comes with that chance and takes the card's matching die whose loss costs least, among those it
may take. A die can then go back, so the states form cycles; they are solved by value iteration
from the values without the penalty. Big cards are left without it (their roll-outs would only
add noise).

On a big card, the states with at most ``tail`` empty slots (1 by default) are solved exactly,
and with a longer tail a roll-out stops where the tail begins and adds the tail's exact value. The
tail is shortened, card by card, until solving one of its states from where it begins could visit
no more states than ``exact_budget`` (see ``tail_length``): three slots on a FUSE card (30 classes
of dice), two on most Countdown cards (60), under the planner's budget of 3,000. The tail's exact
values are kept in a memo of their own, bounded like the card's legality memo.
"""

from __future__ import annotations

import zlib
from bisect import bisect_right
from collections.abc import Sequence
from math import comb
from typing import Final

from fusegame.constraints import EMPTY, CompiledCard, State, memo_limit
from fusegame.dice import DiceSet, die_type, type_colours, type_face
from fusegame.rng import Rng

#: ``draws`` of a state no die can ever complete (possible only without the feasibility rule).
HOPELESS: Final = 500.0
#: A card whose states reachable from empty outnumber this is "big": its states with more than
#: one empty slot are estimated by roll-outs, the rest solved exactly.
EXACT_BUDGET: Final = 400
#: Roll-outs that estimate a state of a card too large to solve exactly.
ROLLOUTS: Final = 10


class _Budget(Exception):
    pass


def type_weights(dice: DiceSet) -> list[float]:
    """The chance that a die drawn from the whole inventory shows each die type."""
    w = [0.0] * 90
    share = 1.0 / (6 * len(dice.colours))
    for c in dice.colours:
        for face in range(1, 7):
            w[die_type(c, face)] += share
    return w


class CardModel:
    """Expected dice to complete one card, for one dice inventory (see the module docstring)."""

    def __init__(self, card_id: str, rules: CompiledCard, weights: Sequence[float],
                 exact_budget: int = EXACT_BUDGET, offer: int = 1, penalty: float = 0.0,
                 tail: int = 1) -> None:
        self.card_id = card_id
        self.offer = offer
        self.penalty = penalty
        self.rules = rules
        by_rep: dict[int, float] = {}
        for t, w in enumerate(weights):
            if w > 0:
                rep = rules.canon[t]
                by_rep[rep] = by_rep.get(rep, 0.0) + w
        #: (class representative, chance of drawing that class), most likely first
        self.classes: tuple[tuple[int, float], ...] = tuple(
            sorted(by_rep.items(), key=lambda kv: (-kv[1], kv[0])))
        self._reps: tuple[int, ...] = tuple(rep for rep, _ in self.classes)
        self._cum: list[float] = []
        acc = 0.0
        for _, w in self.classes:
            acc += w
            self._cum.append(acc)
        self._memo: dict[State, float] = {}
        #: a big card's exact values near its end (the tail), bounded apart from its estimates
        self._tail: dict[State, float] = {}
        #: the value of a state with one slot left, by the classes of dice that complete it
        self._last: dict[int, float] = {}
        self._seed = zlib.crc32(card_id.encode())
        # Decide once, from the empty card, whether the card is solved exactly, so that every
        # answer is a pure function of card, dice and state (never of what was asked before)
        self._budget = exact_budget
        self.big = False
        try:
            self._exact(rules.empty)
        except _Budget:
            self._memo.clear()  # estimates and exact values are not mixed for one card
            self.big = True
        self._budget = -1
        #: the most empty slots of a state solved exactly on a big card
        self.tail = tail_length(tail, len(self.classes), exact_budget) if self.big else tail
        if penalty > 0 and not self.big:
            self._with_penalty(weights)

    # -------------------------------------------------------------------- public
    @property
    def states(self) -> int:
        """The card states whose work the model holds now (exact values and estimates)."""
        return len(self._memo) + len(self._tail)

    def draws(self, state: State) -> float:
        """Expected dice offered until the card is complete from ``state`` (a canonical key)."""
        hit = self._memo.get(state)
        if hit is not None:
            return hit
        if self.big and len(self._memo) >= 10 * memo_limit():
            # a loose card's estimates are kept bounded like its legality memo; each is a tenth of
            # the size and costs roll-outs to make again, so ten times as many are kept
            self._memo.clear()
        if self.big:
            # states alike in all the card's rules see have the same value, estimated or exact (a
            # roll-out from either makes the same moves on the same draws): found by their
            # likeness, a loose card's many states with different dice on its free slots are
            # estimated once
            key = self.rules.alike(state)
            hit = self._memo.get(key)
            if hit is None:
                hit = self._rollouts(state) if state.count(EMPTY) > self.tail else self._tail_value(state)
                self._memo[key] = hit
            self._memo[state] = hit
            return hit
        return self._exact(state)

    def after(self, state: State, slot: int, t: int) -> State:
        """The canonical key of ``state`` with a die of (real) type ``t`` on ``slot``."""
        return state[:slot] + (self.rules.canon[t],) + state[slot + 1:]

    def without(self, state: State, slot: int) -> State:
        """``state`` with ``slot`` emptied (a die given up)."""
        return state[:slot] + (EMPTY,) + state[slot + 1:]

    def fit(self, state: State) -> float:
        """The chance that the next die drawn can go somewhere on the card now."""
        rules = self.rules
        return sum(w for rep, w in self.classes if rules.legal_slots(state, rep))

    # -------------------------------------------------------------------- solving
    def _tail_value(self, state: State) -> float:
        """The exact value of a state near the end of a big card."""
        if len(self._tail) >= memo_limit():  # the values stay the same, only the time is spent
            self._tail.clear()
        return self._exact(state)

    def _exact(self, state: State) -> float:
        if EMPTY not in state:
            return 0.0
        memo = self._tail if self.big else self._memo
        hit = memo.get(state)
        if hit is not None:
            return hit
        key = state
        if self.big:  # by likeness, as ``draws``
            key = self.rules.alike(state)
            hit = memo.get(key)
            if hit is not None:
                memo[state] = hit
                return hit
        if self._budget >= 0:  # only while deciding whether the card is small enough
            self._budget -= 1
            if self._budget < 0:
                raise _Budget
        rules = self.rules
        empty = state.count(EMPTY)
        if empty == 1:
            # every die that fits completes the card: the value is that of the dice that fit,
            # which many states share; a big card keeps only its longer states (far fewer)
            value = self._fits_value(rules.completing_types(state))
            if not self.big:
                memo[state] = value
            return value
        options: list[tuple[float, float]] = []
        if empty == 2 and self.big:
            # the tail's most common state: each placement's value is that of the dice that would
            # complete the card after it, found in one pass (``two_left``), the same as below
            best: dict[int, float] = {}
            for fits, places in rules.two_left(state, self._reps):
                v = self._fits_value(fits)
                for i in places:
                    if v < best.get(i, HOPELESS + 1.0):
                        best[i] = v
            options = [(v, self.classes[i][1]) for i, v in best.items()]
        else:
            # with three slots left on a big card, a placement the feasibility rule forbids leaves
            # a state no die pair completes, worth ``HOPELESS``: ``_solve`` declines it as if it
            # were not offered, so the search for a completion is left out (the same values)
            three = empty == 3 and self.big and rules.feasibility
            for rep, w in self.classes:
                slots = rules.placements(state, rep) if three else rules.legal_slots(state, rep)
                if slots:
                    options.append((min(self._exact(state[:j] + (rep,) + state[j + 1:])
                                        for j in slots), w))
        value = _solve(options, self.offer)
        memo[state] = value
        memo[key] = value
        return value

    def _fits_value(self, fits: int) -> float:
        """The value of a state with one slot left that the classes in mask ``fits`` complete."""
        value = self._last.get(fits)
        if value is None:
            if len(self._last) >= memo_limit():
                self._last.clear()
            value = self._last[fits] = _solve(
                [(0.0, w) for rep, w in self.classes if fits >> rep & 1], self.offer)
        return value

    def _with_penalty(self, weights: Sequence[float]) -> None:
        """Solve the card again where, after each die offered, a penalty die comes with chance
        ``penalty`` and takes the card's cheapest matching die that it may take (same colour or
        number); a die goes back, so the states form cycles, solved by value iteration from the
        values without the penalty (a lower bound)."""
        rules = self.rules
        q = self.penalty
        kinds = [(t, w) for t, w in enumerate(weights) if w > 0]
        total = sum(w for _, w in kinds)
        # the chance that a die of a class matches a penalty die of each kind: a class may hold
        # dice of several colours or faces, each in the proportion the dice hold them
        match: dict[int, list[float]] = {}
        members: dict[int, list[tuple[int, float]]] = {}
        for t, w in kinds:
            members.setdefault(rules.canon[t], []).append((t, w))
        for rep, ms in members.items():
            mass = sum(w for _, w in ms)
            match[rep] = [sum(w for t, w in ms if type_colours(t) & type_colours(u) or
                              type_face(t) == type_face(u)) / mass for u, _ in kinds]
        shares = [w / total for _, w in kinds]
        memo = self._memo
        grown = True
        while grown:  # a die given up may leave a state not met on the way up
            grown = False
            for st in [st for st in memo if EMPTY in st]:
                for k in rules.removable(st):
                    back = self.without(st, k)
                    if back not in memo:
                        self._exact(back)
                        grown = True
        states = [st for st in memo if EMPTY in st]
        # the sweeps below run on the states' places in ``states`` rather than on the states
        # themselves, so that no tuple is hashed in them
        index = {st: i for i, st in enumerate(states)}
        value = [memo[st] for st in states]
        # each class of die a state may take: its weight, whether some placement completes the
        # card (worth nothing more: the best), else the unfinished states its placements reach
        moves: list[list[tuple[float, bool, list[int]]]] = []
        takes: list[list[tuple[int, list[float]]]] = []
        for st in states:
            mine: list[tuple[float, bool, list[int]]] = []
            for rep, w in self.classes:
                nexts = [st[:j] + (rep,) + st[j + 1:] for j in rules.legal_slots(st, rep)]
                if nexts:
                    done = any(EMPTY not in x or x not in memo for x in nexts)
                    mine.append((w, done, [] if done else [index[x] for x in nexts]))
            moves.append(mine)
            takes.append([(index[self.without(st, k)], match[st[k]]) for k in rules.removable(st)])
        n_kinds = len(kinds)
        n = len(states)
        # the chance that the penalty takes each die a state may lose depends only on the order
        # of their costs, which seldom changes from one sweep to the next: it is worked out again
        # only when the order changes (the sweeps are most of the time a card's first meeting takes)
        taken: list[tuple[list[int], list[float], float] | None] = [None] * n
        settled = [0.0] * n
        hit = [0.0] * n
        lost = [0.0] * n
        for _ in range(200):
            # each state's value once the penalty that may follow a die has come: with chance
            # ``q * hit`` it takes a die, the owner's cheapest match, worth ``lost`` in all
            for s_i in range(n):
                options = takes[s_i]
                worth = 0.0
                chance = 0.0
                if options:
                    order = sorted(range(len(options)), key=lambda k: value[options[k][0]])
                    last = taken[s_i]
                    if last is None or last[0] != order:
                        odds = [0.0] * len(order)
                        for i in range(n_kinds):
                            left = shares[i]  # the chance that no cheaper die matched this kind
                            for pos, k in enumerate(order):
                                p = left * options[k][1][i]
                                if p > 0:
                                    odds[pos] += p
                                    left -= p
                        last = taken[s_i] = (order, odds, sum(odds))
                    odds = last[1]
                    chance = last[2]
                    for pos, k in enumerate(order):
                        worth += odds[pos] * value[options[k][0]]
                hit[s_i] = chance
                lost[s_i] = q * worth
                settled[s_i] = (1.0 - q * chance) * value[s_i] + q * worth
            change = 0.0
            for s_i in range(n):
                opts: list[tuple[float, float]] = []
                for w, done, reach in moves[s_i]:
                    if done:
                        opts.append((0.0, w))
                    else:
                        best = settled[reach[0]]
                        for x_i in reach:
                            v = settled[x_i]
                            if v < best:
                                best = v
                        opts.append((best, w))
                opts.sort()
                # as ``_solve``, a declined die leaves the card to the penalty where it stands
                stay = 1.0 - q * hit[s_i]
                gone = lost[s_i]
                e = HOPELESS
                placed = 0.0
                w_sum = 0.0
                for b, w in opts:
                    if b >= stay * e + gone:
                        break
                    placed += w * b
                    w_sum += w
                    den = 1.0 - (1.0 - w_sum) * stay
                    if den > 0:
                        e = min(HOPELESS, (1.0 + placed + (1.0 - w_sum) * gone) / den)
                change = max(change, abs(e - value[s_i]))
                value[s_i] = e
            if change < 1e-9:
                break
        for s_i, st in enumerate(states):
            memo[st] = value[s_i]

    def _rollouts(self, state: State) -> float:
        """Mean dice offered to a filler that puts each die on a random legal slot (seeded by
        card and state). Used only on loose cards, where most slots take most dice."""
        # the same stream for every state of the card (common random numbers): estimates of a
        # state and of the state one die later differ by the die, not by the luck of the draws
        rng = Rng(self._seed)
        rules = self.rules
        total = 0.0
        # with a longer exact tail, a roll-out stops where the tail begins and adds its value; the
        # default tail of one slot is rolled to the end, as it always was
        stop = self.tail if self.tail > 1 else 0
        for _ in range(ROLLOUTS):
            s = state
            n = 0
            while s.count(EMPTY) > stop and n < HOPELESS:
                n += 1
                slots: tuple[int, ...] = ()
                for _ in range(self.offer):
                    rep = self._draw(rng)
                    slots = rules.legal_slots(s, rep)
                    if slots:
                        break
                if not slots:
                    continue
                j = slots[0] if len(slots) == 1 else slots[rng.below(len(slots))]
                s = s[:j] + (rep,) + s[j + 1:]
            # a roll-out cut short at HOPELESS has more slots left than the tail: nothing is added
            left = s.count(EMPTY)
            total += n + self._tail_value(s) if 0 < left <= stop else n
        return total / ROLLOUTS

    def _draw(self, rng: Rng) -> int:
        x = rng.next64() / 18446744073709551616.0 * self._cum[-1]
        i = bisect_right(self._cum, x)
        return self.classes[min(i, len(self.classes) - 1)][0]


def tail_length(wanted: int, classes: int, budget: int) -> int:
    """The longest tail, up to ``wanted`` empty slots, whose exact solve from one of its states
    could visit no more than ``budget`` states: with ``k`` slots empty and ``c`` classes of dice,
    the states with ``j`` of them still empty number at most ``comb(k, j) * c ** (k - j)``."""
    k = max(1, wanted)
    while k > 1 and sum(comb(k, j) * classes ** (k - j) for j in range(1, k)) > budget:
        k -= 1
    return k


def _solve(options: list[tuple[float, float]], offer: int = 1) -> float:
    """``E = 1 + sum w * min(E, b)`` over (b, w) options; the rest of the draws are declined.

    With ``offer`` dice shown at a time, the best of them counts: an option's chance becomes the
    chance that none of the dice is better and not all are worse."""
    if not options:
        return HOPELESS
    options.sort()
    e = HOPELESS
    p = 0.0
    s = 0.0
    cum = 0.0
    for b, w in options:
        if b >= e:
            break
        if offer > 1:
            q = (1.0 - cum) ** offer - max(0.0, 1.0 - cum - w) ** offer
            cum += w
            w = q
        p += w
        s += w * b
        e = min(HOPELESS, (1.0 + s) / p)
    return e


_MODELS: dict[tuple[int, tuple[float, ...], int, int, float, int], CardModel] = {}


def model_entries() -> int:
    """The states the card models of the process hold now (``CardModel.states``)."""
    return sum(m.states + len(m._last) for m in _MODELS.values())


def forget_models() -> None:
    """Drop every card model of the process (their memos with them): only time is lost, each is
    built again, the same, when next asked."""
    _MODELS.clear()


def card_model(card_id: str, rules: CompiledCard, weights: tuple[float, ...],
               exact_budget: int = EXACT_BUDGET, offer: int = 1, penalty: float = 0.0,
               tail: int = 1) -> CardModel:
    """The process-wide model of a card (games with the same dice share its memo).

    ``exact_budget`` is the most states a card may have and still be solved exactly. The team
    planner keeps the default (fast to build); the planner in play raises it to 3,000
    (``Weights.exact_states``), and card analysis further, where accuracy matters more than the
    second or so a large card takes to solve. ``penalty``: see the module docstring (one die
    offered at a time).
    """
    key = (id(rules), weights, exact_budget, offer, penalty, tail)
    m = _MODELS.get(key)
    if m is None or m.rules is not rules:
        if len(_MODELS) >= 5_000:  # bounded: weights that follow the dice make many models
            _MODELS.clear()
        m = _MODELS[key] = CardModel(card_id, rules, weights, exact_budget, offer, penalty, tail)
    return m
