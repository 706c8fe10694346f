"""The process's memos of cards, counted and forgotten as one.

Two kinds of memo remember work on card states for the whole process: each compiled card's
(legal slots, feasibility, open slots: ``fusegame.constraints.CompiledCard``) and each card model
of the planner (expected dice from a state: ``fusegame.bots.value.CardModel``). Each memo is
bounded on its own, but a process that plays for long meets more cards and states than it can keep
(Countdown's loose cards alone reach hundreds of thousands of states), so a long-lived owner
watches the total and forgets all at once past a budget. Every answer is a pure function of the
card and the state, so forgetting costs only the time to find answers again: games, plans and
results stay the same, bit for bit.
"""

from __future__ import annotations

import gc
from typing import Final

from fusegame.bots import value
from fusegame.rules import state as state_module

#: The most states a simulation worker's card memos hold between two games before they are
#: forgotten: about 150 MB of memos. A worker's memory then stays flat however many games it
#: plays, and it forgets them about once every thousand Countdown games, a second's work.
SIM_ENTRIES: Final = 600_000


def card_memo_entries() -> int:
    """The states held now by the memos of every compiled card and card model of the process."""
    return state_module.compiled_entries() + value.model_entries()


def forget_card_memos() -> None:
    """Empty the process's memos of cards: the card models (the planner's) and the compiled cards'
    memos of states (the engine's). Only time is lost."""
    value.forget_models()
    state_module.forget_compiled()


def bound_card_memos(budget: int = SIM_ENTRIES) -> bool:
    """Forget the card memos if they hold more than ``budget`` states; say whether they were."""
    if card_memo_entries() <= budget:
        return False
    forget_card_memos()
    return True


def freeze_survivors() -> None:
    """Between games (and in the server's planner process, once a planner is prepared): collect the
    young cyclic garbage, then move everything still alive (the card tables and the planner's memos,
    which live as long as the process or the planner) out of the collector's sight.
    Its full passes then walk one game's objects instead of every memo entry since the start (a
    pass over a warm team planner's memos took about 144 ms, a pause in the middle of a roll).

    The young generations only: a full collection also stops tracking every memo dictionary that
    holds nothing but numbers and tuples of numbers, and the next entry added to it tracks it again
    as a young object, so that every game's collection walked every memo that had grown (0.4 ms
    after a 2 ms random game, and a seventh of a team planner's Countdown game). Left tracked, a
    frozen memo stays frozen. Cycles that reached the oldest generation during the game would be
    frozen with the survivors and never freed, so the engine and its bots make none (a test plays
    every policy with the collector off and finds nothing for it to collect). Frozen objects are
    still freed when their last reference goes."""
    gc.collect(1)
    gc.freeze()
