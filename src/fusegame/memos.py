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
