"""What every step of a turn shares (docs/rules.md C.1, C.2): the checks of an action that do not
depend on the step (a roll for a 6 nobody owes, the leader's role, a replacement card owed), the
table from verb to the rule that carries a checked action out, and
the moves from one step to the next.

Each step owns its ``check`` and ``perform`` (``turn``: the roll and the distribution; ``penalty``;
``step3``; ``sparks``) and calls these. The tables are filled from above: ``turn`` the verbs,
``state`` the steps; so no step imports back up into another at run time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from fusegame.rules import roles
from fusegame.rules.actions import Action, Name, RevealFuse, RollSix, TakeCard
from fusegame.rules.decisions import Step
from fusegame.rules.errors import NotYourDecision
from fusegame.rules.events import Event
from fusegame.rules.games import Phase

if TYPE_CHECKING:
    from fusegame.rules.state import GameState

#: verb -> the rule that carries a checked action out (``rules.turn`` fills it; the queue's items
#: carry out their own actions).
VERBS: dict[str, Callable[[GameState, Action, list[Event]], None]] = {}
#: The turn's own steps, by phase: the bottom of the queue of pending decisions (``rules.state``
#: fills it).
STEPS: dict[Phase, Step] = {}


def perform(g: GameState, a: Action, ev: list[Event]) -> None:
    """Carry out a checked action of the turn."""
    VERBS[a.verb](g, a, ev)


def next_step(g: GameState, ev: list[Event]) -> None:
    """Go on to the turn's next step (the table of games lists them)."""
    steps = g.steps
    g.phase = steps[steps.index(g.phase) + 1]
    STEPS[g.phase].begin(g, ev)


def end_turn(g: GameState, ev: list[Event]) -> None:
    """Step 5: the leader passes the bag to the left."""
    if g.listening:
        ev.append(Event("turn_ended", {"turn": g.turn, "leader": g.leader}))
    g.turn += 1
    g.leader = (g.leader + 1) % g.players
    g.rolled = []
    g.hook("on_turn_end")
    g.phase = Phase.ROLL


def check_common(g: GameState, a: Action) -> bool:
    """The checks every step of the turn makes first: a roll for a 6 that nobody owes, and the
    leader's role (named before the roll, used during the distribution). Raise ``IllegalAction``
    with the reason, or return True for a role action allowed now (nothing more to check)."""
    if isinstance(a, RollSix):
        raise NotYourDecision("no_roll_six")
    if a.verb in roles.VERBS:
        if isinstance(a, Name) != (g.phase is Phase.ROLL) or (
                not isinstance(a, Name) and g.phase is not Phase.DISTRIBUTE):
            raise NotYourDecision("role_not_now" if g.phase is not Phase.DISTRIBUTE else "nothing_to_name")
        code, facts = roles.why_not(g, a)
        if code:
            raise NotYourDecision(code, facts)
        return True
    return False


def options(g: GameState) -> list[str]:
    """The cards a player replacing a defused bomb may take: the row, or the stacks' tops."""
    if g.stacks is not None:
        return g.stacks.tops()
    return list(g.row)


def owes_pick(g: GameState, seat: int) -> bool:
    """Does ``seat`` owe a replacement for a defused card?"""
    return any(p.seat == seat for p in g.picks)


def check_reveal(g: GameState, a: Action) -> str:
    """'' when ``a`` (a ``RevealFuse``) is allowed now, else the refusal's code (``no_reveal``)."""
    if g.stacks is None or not g.stacks.fuses or any(p.revealed for p in g.picks if p.seat == a.seat):
        return "no_reveal"
    return ""


def check_pick(g: GameState, a: Action) -> None:
    """A replacement taken (or, in the stacks setup, a fuse card revealed before it)."""
    if not owes_pick(g, a.seat):
        raise NotYourDecision("nothing_to_replace")
    if isinstance(a, TakeCard) and a.card not in options(g):
        raise NotYourDecision("card_not_in_middle", {"card": a.card})
    if isinstance(a, RevealFuse):
        why = check_reveal(g, a)
        if why:
            raise NotYourDecision(why)


def is_pick(a: Action) -> bool:
    """A replacement card taken, or a fuse card revealed before it (the stacks setup)."""
    return isinstance(a, (TakeCard, RevealFuse))


def check_after_distribution(g: GameState, a: Action) -> None:
    """The check of the steps after the distribution that take no actions of their own (Step 3,
    Step 4): only a replacement owed for a defused card may still be taken."""
    if check_common(g, a):
        return
    if not is_pick(a):
        raise NotYourDecision("waiting_for_cards")
    check_pick(g, a)


__all__ = ["STEPS", "VERBS", "check_after_distribution", "check_common", "check_pick", "check_reveal",
           "end_turn", "is_pick", "next_step", "options", "owes_pick", "perform"]
