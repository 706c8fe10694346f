"""Policies for simulated games: a policy picks the next action given the state and a generator.

A policy only uses the engine's public API (``to_act``, ``legal_actions``) and must draw any
randomness from the ``Rng`` it is given, so that simulated games are reproducible.
"""

from __future__ import annotations

from collections.abc import Callable

from fusegame.rng import Rng
from fusegame.rules.actions import Action
from fusegame.rules.state import GameState

#: ``policy(state, rng) -> action``: any legal action of any seat that may act now. The time the
#: action carries is ignored; the simulator stamps it from its pace model.
Policy = Callable[[GameState, Rng], Action]


def random_policy(state: GameState, rng: Rng) -> Action:
    """A uniformly random legal action among all seats that may act now."""
    actions = state.legal_actions()
    if not actions:
        raise RuntimeError(f"no legal action in a game that is not over: {state!r}")
    return actions[rng.below(len(actions))]


def _greedy() -> Policy:
    from fusegame.bots.greedy import greedy_policy
    return greedy_policy


def _team() -> Policy:
    from fusegame.bots.team import TeamPlanner
    return TeamPlanner()


#: Policy factories by name. A factory gives a fresh policy (the team planner keeps caches that
#: make it faster, never different), so each worker process builds its own.
POLICY_FACTORIES: dict[str, Callable[[], Policy]] = {
    "random": lambda: random_policy,
    "greedy": _greedy,
    "team": _team,
}

POLICIES: dict[str, Policy] = {"random": random_policy}


def get_policy(name: str) -> Policy:
    """A policy by name (``random``, ``greedy`` or ``team``); ``ValueError`` naming the choices
    otherwise."""
    try:
        factory = POLICY_FACTORIES[name]
    except KeyError:
        raise ValueError(
            f"unknown policy {name!r} (choose from {', '.join(sorted(POLICY_FACTORIES))})") from None
    return factory()
