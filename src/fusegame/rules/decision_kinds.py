"""The declared table of decision kinds: what ``GameState.to_act()`` may ask of a seat.

Every ``Decision`` the engine gives has a ``kind`` named here, and every client that treats kinds
differently reads this table instead of repeating their names: the server's choice timers (rule
I-11: ``timed``, ``alone`` and ``default``), the observation vector (``env.encode``: a kind is
one-hot at its index in ``KINDS``), the bots' and the hints' dispatch (a handler per kind, checked
``complete`` at import), the terminal game and the page (``words``, and the table itself through
``GET /api/options``). ``tests/rules/test_decision_kinds.py`` fails when a client misses a kind,
or when the engine gives a kind this table lacks.

The order is the observation's: append a new kind, never insert one (``env.encode`` one-hots a
kind by its index here). A kind the engine has always had is a row here, with a handler in
``bots/greedy.py``, ``bots/team.py`` and ``bots/hints.py``. A rule added later declares its own kind
where it gives it (``rules.decisions.DecisionSpec`` on a fuse effect's ``EffectRule``): it joins
this table after the rows (``declared``), the bots and hints answer it by its ``default`` verbs
(``answer_declared``) until they are given a handler of their own, and its words are the catalogue's
(``fusegame/words/{en,es}.json``: ``term.your.<words>`` in the terminal, ``yourTurn.<words>`` and
``decide.<words>`` on the page).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, TypeVar

from fusegame.rules.decisions import DecisionSpec
from fusegame.rules.fuse_cards import EFFECTS
from fusegame.rules.roles import VERBS as ROLE_VERBS

if TYPE_CHECKING:
    from fusegame.rules.actions import Action
    from fusegame.rules.state import GameState

T = TypeVar("T")


class Who(Enum):
    """Who is asked a kind of decision."""

    NAMED = "named"  #: the seats a rule names (a fuse card's or a penalty die's removals, a roll for a 6)
    LEADER = "leader"  #: the turn's leader (who holds the bag, and the role card in front of it)
    EACH = "each"  #: every seat to which it applies (each seat that may still place, or owes a pick)


@dataclass(frozen=True)
class DecisionKind:
    """One kind of decision and what the clients need to know of it."""

    name: str  #: the ``Decision.kind`` the engine gives
    who: Who
    #: the verbs (``rules.actions.ACTIONS``) of the actions that answer it; the leader's role
    #: actions come with its ``distribute`` too, and a seat owing a pick may still place
    verbs: tuple[str, ...]
    #: I-11: a person's choice left open for the room's choice timeout is made for them
    timed: bool = False
    #: the verbs of the legal actions one of which is drawn at random when the time runs out
    default: tuple[str, ...] = ()
    #: with one option there is nothing to choose: it is made at once (I-11)
    alone: bool = False
    #: the key of its words (``your.<words>`` in the terminal, ``yourTurn.<words>`` and
    #: ``decide.<words>`` on the page); the words themselves stay with each client
    words: str = ""
    #: declared by the rule that gives it (``decisions.DecisionSpec``): the clients answer it with
    #: their handler for such kinds (an action of its ``default`` verbs) unless they have one of its own
    declared: bool = False

    def to_data(self) -> dict[str, Any]:
        return {"who": self.who.value, "verbs": list(self.verbs), "timed": self.timed,
                "default": list(self.default), "alone": self.alone, "words": self.words}


def _kind(name: str, who: Who, verbs: tuple[str, ...], **kw: Any) -> DecisionKind:
    return DecisionKind(name, who, verbs, words=name, **kw)


#: name -> kind, in the observation's order (``env.encode``).
KINDS: dict[str, DecisionKind] = {k.name: k for k in (
    _kind("distribute", Who.EACH, ("place", "done", "defuse")),  # B.2 (and 1-2 player early defusal)
    _kind("take", Who.EACH, ("take", "reveal")),  # a replacement card after a defusal (I-12)
    _kind("give_up", Who.NAMED, ("give",), timed=True, default=("give",), alone=True),  # C.3
    _kind("reroll", Who.LEADER, ("reroll",), timed=True, default=("reroll",)),  # C.1.7
    _kind("name", Who.LEADER, ("name",)),  # Cutter, Operations Engineer: before the roll
    _kind("roll_six", Who.NAMED, ("roll",)),  # A.5: "all players must roll a 6"
    # the leader's role, alone: the verbs of the role abilities' actions (naming comes before the draw)
    _kind("role", Who.LEADER, tuple(v for v in ROLE_VERBS if v != "name")),
    # Logistics Specialist (FUSE penalties): a die back free, or a reroll; time out: a reroll
    _kind("return", Who.LEADER, ("return", "reroll"), timed=True, default=("reroll",)),
)}


def _declared(spec: DecisionSpec) -> DecisionKind:
    return DecisionKind(spec.kind, Who(spec.who), spec.verbs, timed=spec.timed,
                        default=spec.default, words=spec.kind, declared=True)


# the kinds the rules declare where they give them (a fuse effect's own decision), after the table's
KINDS.update({r.decision.kind: _declared(r.decision) for r in EFFECTS.values()
              if r.decision is not None and r.decision.kind not in KINDS})


def kind_of(name: str) -> DecisionKind:
    """The kind named ``name``; ``KeyError`` (with the known ones) for a kind the table lacks."""
    k = KINDS.get(name)
    if k is None:
        raise KeyError(f"unknown decision kind {name!r} (rules/decision_kinds.py knows {', '.join(KINDS)})")
    return k


def complete(handlers: dict[str, T], client: str) -> dict[str, T]:
    """``handlers``, after checking that it has exactly one entry per kind of the table (a
    client's dispatch, checked when its module is imported). A kind the rules declare where they
    give it (``declared``) may go without one: the client answers it with ``answer_declared``."""
    missing = {k for k, kind in KINDS.items() if not kind.declared} - set(handlers)
    extra = set(handlers) - set(KINDS)
    if missing or extra:
        raise TypeError(f"{client}: no handler for decision kinds {sorted(missing)}"
                        + (f", handlers for unknown kinds {sorted(extra)}" if extra else ""))
    return handlers


def answer_declared(state: GameState, seat: int, kind: str) -> Action | None:
    """The answer to a declared kind (``DecisionKind.declared``) for a client with no handler of its
    own: the first of ``seat``'s legal actions of the kind's ``default`` verbs (else of its verbs),
    the engine's order being deterministic; None when the seat has none."""
    k = KINDS[kind]
    legal: list[Action] = [a for a in state.legal_actions(seat) if a.verb in k.verbs]
    preferred = [a for a in legal if a.verb in k.default]
    pick = preferred or legal
    return pick[0] if pick else None


def table_data() -> dict[str, dict[str, Any]]:
    """The table as JSON data (``GET /api/options``: the page reads it)."""
    return {name: k.to_data() for name, k in KINDS.items()}


__all__ = ["DecisionKind", "KINDS", "Who", "answer_declared", "complete", "kind_of", "table_data"]
