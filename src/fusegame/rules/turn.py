"""The turn (docs/rules.md C.1, C.2): the leader draws and rolls, the players claim and place dice, then
the steps that follow the distribution in this game (``GameConfig.turn_steps``: FUSE's penalty
rolls, or Countdown's Step 3 and Step 4), and the bag passes to the next leader.

This module holds the two steps every game has (the roll, the distribution), what a player may
do during a turn and in which order the checks are made (``check``), and the one table from verb
to the rule that carries an action out (``VERBS``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations_with_replacement
from math import comb, factorial, prod
from typing import TYPE_CHECKING, Any

from fusegame.constraints import EMPTY
from fusegame.dice import N_TYPES, colours_text, die_type, type_colours, type_face
from fusegame.rules import defusal, ending, moves, penalty, roles, stacks, step3
from fusegame.rules.actions import Action, Defuse, Done, Name, Place, TakeCard
from fusegame.rules.config import dice_per_turn
from fusegame.rules.decisions import Decision, Legal, LegalActions, Step
from fusegame.rules.errors import IllegalAction, IllegalPlacement, NotYourDecision
from fusegame.rules.events import Event
from fusegame.rules.games import Phase
from fusegame.rules.views import die_view

if TYPE_CHECKING:
    from fusegame.rules.state import GameState


# ====================================================================== the roll
def dice_to_draw(g: GameState) -> int:
    """A.10: the dice the leader draws (one more for a Logistics Specialist), as the bag allows."""
    extra = g.roles.extra_dice(g) if g.roles is not None else 0
    return min(dice_per_turn(g.players) + extra, len(g.bag))


def needs_name(g: GameState) -> bool:
    return g.roles is not None and g.roles.needs_name(g)


def roll(g: GameState, drawn: list[int], faces: Sequence[int], ev: list[Event]) -> None:
    """The turn's dice land in the middle: the distribution starts."""
    for d, f in zip(drawn, faces):
        g.set_face(d, f)
    g.rolled = drawn
    g.free = drawn[:]
    g.taken = [0] * g.players
    g.done = [False] * g.players
    g.phase = Phase.DISTRIBUTE
    g.hook("after_roll", drawn)
    if g.listening:
        ev.append(Event("dice_rolled", {"leader": g.leader, "dice": [die_view(g, d) for d in drawn]}))


def _face_multisets(groups: list[tuple[int, int]]) -> Iterator[list[tuple[int, ...]]]:
    if not groups:
        yield []
        return
    (_, m), rest = groups[0], groups[1:]
    for fs in combinations_with_replacement(range(1, 7), m):
        for tail in _face_multisets(rest):
            yield [fs, *tail]


class TurnStep(Step):
    """A step of the turn itself (no pending decision interrupts it): each checks its own actions,
    after the checks every step shares (``moves.check_common``), and carries them out by the rule
    the verb names (``VERBS``)."""

    def perform(self, g: GameState, a: Action, ev: list[Event]) -> None:
        moves.perform(g, a, ev)


class RollStep(TurnStep):
    """Step 1: a Cutter or Operations Engineer leader first names a colour or number; then the
    leader draws and rolls (a chance node). An empty bag when dice must be drawn loses the game."""

    def chance(self, g: GameState) -> bool:
        return not needs_name(g)

    def decisions(self, g: GameState) -> dict[int, Decision]:
        if needs_name(g):
            assert g.roles is not None
            return {g.leader: Decision("name", g.roles.name_options(g))}
        return {}

    def legal(self, g: GameState, seats: Sequence[int], at: int) -> Legal:
        if g.leader in seats and needs_name(g):
            assert g.roles is not None
            return [Name(g.leader, at, v) for v in g.roles.name_options(g)]
        return []

    def check(self, g: GameState, a: Action) -> None:
        if not moves.check_common(g, a):
            raise NotYourDecision("waiting_for_name")

    def run(self, g: GameState, ev: list[Event], chance: bool) -> bool:
        if ending.bag_is_empty(g, ev):
            return True
        if not chance or needs_name(g):
            return False
        k = dice_to_draw(g)
        drawn = [g.bag.pop(g.rng.below(len(g.bag))) for _ in range(k)]
        roll(g, drawn, [g.rng.below(6) + 1 for _ in drawn], ev)
        return True

    def outcomes(self, g: GameState) -> list[tuple[tuple[int, ...], float]]:
        """An outcome is a sorted tuple of die types (the dice drawn and the faces they show;
        dice of one colour set are interchangeable)."""
        k = dice_to_draw(g)
        by_set = Counter(g.dice.colours[d] for d in g.bag)
        sets = sorted(by_set)
        total = comb(len(g.bag), k)
        out: list[tuple[tuple[int, ...], float]] = []
        for pick in combinations_with_replacement(sets, k):
            cnt = Counter(pick)
            p_col = prod(comb(by_set[s], m) for s, m in cnt.items()) / total
            if p_col == 0:
                continue
            groups = [(s, m) for s, m in sorted(cnt.items())]
            for faces in _face_multisets(groups):
                p_face = 1.0
                types: list[int] = []
                for (s, m), fs in zip(groups, faces):
                    p_face *= factorial(m) / prod(factorial(c) for c in Counter(fs).values()) / 6 ** m
                    types += [die_type(s, f) for f in fs]
                out.append((tuple(sorted(types)), p_col * p_face))
        return out

    def settle_chance(self, g: GameState, outcome: Any, ev: list[Event]) -> None:
        k = dice_to_draw(g)
        if len(outcome) != k or any(not 0 <= t < N_TYPES for t in outcome):
            raise IllegalAction("bad_outcome", {"n": k})
        drawn: list[int] = []
        for t in outcome:
            cs = type_colours(t)
            d = next((d for d in g.bag if g.dice.colours[d] == cs and d not in drawn), EMPTY)
            if d == EMPTY:
                raise IllegalAction("bag_short", {"colours": colours_text(cs), "outcome": repr(outcome)})
            drawn.append(d)
        for d in drawn:
            g.bag.remove(d)
        roll(g, drawn, [type_face(t) for t in outcome], ev)


# ====================================================================== the distribution
def may_place(g: GameState, seat: int) -> bool:
    """Does ``seat`` still have something to decide in this distribution?"""
    if g.done[seat]:
        return False
    roles = g.roles  # ``seat_quota``, written out: this is asked for every seat at every step
    if g.taken[seat] >= g.quota + (1 if roles is not None and roles.bonus_die and seat == g.leader else 0):
        return False
    for hc in g.hands[seat]:
        if EMPTY in hc.types:
            return True
    # 1-2 player Countdown: a complete card may be defused before Step 3. That is a decision
    # to wait for while it brings a new card to place on (the middle has bombs) or clears a
    # spark ("sparks may also be cleared early"); a complete bomb with the middle empty brings
    # nothing, so it holds nobody up (``apply`` still accepts its early defusal)
    return step3.early(g) and any(EMPTY not in hc.types for hc in g.hands[seat]) and (
        g.middle_has_bombs() or any(g.is_spark(hc.card) for hc in g.hands[seat]))


def place(g: GameState, a: Action, ev: list[Event]) -> None:
    assert isinstance(a, Place)
    hc = g.hand_card(a.seat, a.card)
    assert hc is not None
    # as it was claimed (a temporary colour reverts once placed)
    die = die_view(g, a.die) if g.listening else None
    for fn in g.hooks["on_placed"]:
        fn(g, a.die)
    hc.set_slot(a.slot, a.die, g.types[a.die], g.compiled[a.card].canon)
    g.taken[a.seat] += 1
    g.free.remove(a.die)
    if g.listening:
        ev.append(Event("die_placed", {"seat": a.seat, "die": die, "card": a.card, "slot": a.slot}))
    if hc.complete:
        if g.listening:
            ev.append(Event("card_completed", {"seat": a.seat, "card": a.card}))
        if g.step3 is None:  # FUSE defuses at once; Countdown waits for Step 3 (C.2)
            defusal.complete(g, a.seat, hc, ev)


def done(g: GameState, a: Action, ev: list[Event]) -> None:
    g.done[a.seat] = True
    if g.listening:
        ev.append(Event("seat_done", {"seat": a.seat}))


class DistributeStep(TurnStep):
    """Step 2: players claim and place the rolled dice; the owners of defused bombs take their
    replacements; the leader may use their role; 1-2 player Countdown may defuse early."""

    def check(self, g: GameState, a: Action) -> None:
        if moves.check_common(g, a):
            return
        if moves.is_pick(a):
            moves.check_pick(g, a)
        elif isinstance(a, Done):
            if not may_place(g, a.seat) or not g.unplaced():
                raise NotYourDecision("nothing_to_decide")
        elif isinstance(a, Defuse):
            step3.check_defuse(g, a)
        elif isinstance(a, Place):
            check_place(g, a)
        else:
            raise NotYourDecision("not_now", {"action": type(a).__name__})

    def decisions(self, g: GameState) -> dict[int, Decision]:
        out: dict[int, Decision] = {}
        free = tuple(g.free)
        for seat in range(g.players):
            if defusal.owes_pick(g, seat):
                out[seat] = Decision("take", tuple(defusal.options(g)))
            elif free and may_place(g, seat):
                out[seat] = Decision("distribute", free)
        if free and g.leader not in out and g.roles is not None and g.roles.actions(g, g.time_ms):
            out[g.leader] = Decision("role", free)
        return out

    def legal(self, g: GameState, seats: Sequence[int], at: int) -> LegalActions:
        acts: Legal = []
        free = g.free
        types = g.types
        roles = g.roles
        temp = roles.temp if roles is not None else {}
        # the seat quota and ``may_place``, written out: this runs for every seat at every step
        bonus_seat = g.leader if roles is not None and roles.bonus_die else -1
        quota = g.quota
        done, taken = g.done, g.taken
        faces = g.faces
        compiled = g.compiled
        early = step3.early(g)
        n = 0
        for s in seats:
            if g.picks and defusal.owes_pick(g, s):
                acts += [TakeCard(s, at, c) for c in defusal.options(g)]
                acts += stacks.reveal_actions(g, s, at)
            if s == g.leader and free and roles is not None:
                acts += roles.actions(g, at)
            if not free or done[s] or taken[s] >= quota + (s == bonus_seat):
                continue
            # Defuse and Done exactly when the seat still has something to decide (``may_place``,
            # which ``check`` asks too), so that the seats with legal actions are the seats
            # ``to_act`` names
            hand = g.hands[s]
            may = any(EMPTY in hc.types for hc in hand) or may_place(g, s)
            for hc in hand:
                st = hc.key
                if EMPTY not in st:
                    if may and early and not any(p.card == hc.card for p in g.picks):
                        acts.append(Defuse(s, at, hc.card))
                    continue
                rules = compiled[hc.card]
                table = rules.slot_table(st)
                canon = rules.canon
                card = hc.card
                for d in free:
                    t = canon[types[d]]
                    slots: tuple[int, ...] | None
                    if temp and d in temp:  # a temporary colour: judged apart from the table
                        slots = rules.legal_slots(st, t, canon[die_type(temp[d], faces[d])])
                    else:
                        slots = table[t]
                        if slots is None:
                            slots = rules.legal_slots(st, t)
                    if slots:
                        acts.append((s, d, card, slots))
                        n += len(slots) - 1
            if may:
                acts.append(s)  # Done, built when looked at (LegalActions)
        return LegalActions(acts, at, len(acts) + n)

    def run(self, g: GameState, ev: list[Event], chance: bool) -> bool:
        if g.picks:
            return False
        if g.free:
            for s in range(g.players):
                if may_place(g, s):
                    return False
        g.unused = g.free
        g.free = []
        g.hook("on_distribution_end")
        moves.next_step(g, ev)
        return True


# ====================================================================== between steps
# ====================================================================== actions
def check_place(g: GameState, a: Place) -> None:
    if g.done[a.seat]:
        raise NotYourDecision("already_done")
    if g.taken[a.seat] >= g.seat_quota(a.seat):
        raise NotYourDecision("quota", {"n": g.seat_quota(a.seat)})
    if a.die not in g.free:
        raise IllegalPlacement("die_not_available", {"die_id": a.die})
    hc = g.hand_card(a.seat, a.card)
    if hc is None:
        raise IllegalPlacement("not_your_card", {"card": a.card})
    if hc.complete:
        raise IllegalPlacement("card_complete", {"card": a.card})
    rules = g.card_rules(a.card)
    canon = rules.canon
    why, first = rules.why_illegal(hc.key, a.slot, canon[g.types[a.die]], canon[g.effective_type(a.die)])
    if why:
        facts: dict[str, Any] = {"die": die_view(g, a.die), "card": a.card, "slot": a.slot}
        if first >= 0:
            facts["first"] = first
        raise IllegalPlacement(why, facts)


def _use_role(g: GameState, a: Action, ev: list[Event]) -> None:
    assert g.roles is not None
    g.roles.use(g, a, ev)


#: verb -> the rule that carries a checked action out (the queue's items carry out their own): the
#: one table, kept in ``moves`` where every step reads it.
VERBS = moves.VERBS
VERBS.update({
    "place": place,
    "done": done,
    "take": defusal.take,
    "reveal": stacks.reveal,
    "defuse": step3.defuse_early,
    "reroll": penalty.choose,
    "return": penalty.return_free,
    **{verb: _use_role for verb in roles.VERBS},
})


ROLL = RollStep()
DISTRIBUTE = DistributeStep()

__all__ = ["DISTRIBUTE", "ROLL", "VERBS", "check_place", "dice_to_draw", "may_place", "place", "roll"]
