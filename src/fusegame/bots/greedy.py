"""The ``greedy`` policy: every seat for itself, one placement at a time.

A seat that may place takes the placement that brings one of its cards closest to complete
(completing one beats everything; then the card with the fewest empty slots left; then the
card's lower slot), with no thought for the other seats, the dice still to come or what a die
leaves open. It says done when nothing fits. It takes the replacement card with the fewest
points (the rulebook's tip, taken literally), gives up the die on its emptiest card, rerolls
penalty dice in the order they lie, names the first colour or number offered and never uses a
role. It is the baseline the team planner is measured against, and a fast, readable bot.
"""

from __future__ import annotations

from collections.abc import Callable

from fusegame.constraints import EMPTY
from fusegame.rng import Rng
from fusegame.rules.actions import Action, Defuse, Done, GiveUp, Name, Place, RerollUnused, RollSix, TakeCard
from fusegame.rules.decision_kinds import answer_declared, complete
from fusegame.rules.decisions import Decision
from fusegame.rules.state import GameState


def greedy_policy(state: GameState, rng: Rng | None = None) -> Action:
    """The greedy team's next action (deterministic: ``rng`` is not used)."""
    decisions = state.to_act()
    at = state.time_ms
    for seat, dec in decisions.items():
        if dec.kind not in _AT_ONCE:  # a kind the rules declare where they give it
            declared = answer_declared(state, seat, dec.kind)
            if declared is not None:
                return declared
            continue
        answer = _AT_ONCE[dec.kind]
        if answer is not None:
            return answer(state, seat, dec)
    for seat, dec in decisions.items():
        if dec.kind != "distribute":
            continue
        best: tuple[tuple[int, int, int], Action] | None = None
        for a in state.legal_actions(seat):
            if isinstance(a, Defuse):
                return a
            if isinstance(a, Place):
                hc = state.hand_card(seat, a.card)
                assert hc is not None
                left = hc.dice.count(EMPTY) - 1
                rank = (left, a.slot, a.die)
                if best is None or rank < best[0]:
                    best = (rank, a)
        return best[1] if best is not None else Done(seat, at)
    # only the leader's role decision is open: this policy never uses a role
    return Done(next(iter(decisions)), at)


def _take(state: GameState, seat: int, dec: Decision) -> Action:
    return TakeCard(seat, state.time_ms, min(dec.options, key=lambda c: (
        state.bomb(c).points, state.bomb(c).shape.size, c)))


def _penalty(state: GameState, seat: int, dec: Decision) -> Action:
    return RerollUnused(seat, state.time_ms, dec.options[0])


#: decision kind -> the answer made at once, in seat order (None: placing dice and the role wait
#: for the loop over the roll)
_AT_ONCE: dict[str, Callable[[GameState, int, Decision], Action] | None] = complete({
    "distribute": None,
    "take": _take,
    "give_up": lambda state, seat, dec: GiveUp(seat, state.time_ms, _emptiest(state, seat, dec.options)),
    "reroll": _penalty,
    "name": lambda state, seat, dec: Name(seat, state.time_ms, dec.options[0]),
    "roll_six": lambda state, seat, dec: RollSix(seat, state.time_ms),
    "role": None,
    "return": _penalty,
}, "bots.greedy")


def _emptiest(state: GameState, seat: int, options: tuple[int, ...]) -> int:
    def empties(d: int) -> tuple[int, int]:
        for hc in state.hands[seat]:
            if d in hc.dice:
                return (-hc.dice.count(EMPTY), d)
        return (0, d)
    return min(options, key=empties)
