"""Policies for simulated games: a policy picks the next action given the state and a generator.

A policy only uses the engine's public API (``to_act``, ``legal_actions``) and must draw any
randomness from the ``Rng`` it is given, so that simulated games are reproducible.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

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


def _play() -> Policy:
    from fusegame.bots.team import PLAY_WEIGHTS, TeamPlanner
    return TeamPlanner(PLAY_WEIGHTS)


def _planner(name: str, arg: str) -> Policy:
    """``team:K=V,...``, ``play:K=V,...`` or ``search:K=V,...``: the planner with some of its
    weights changed."""
    from dataclasses import fields, replace

    from fusegame.bots.team import PLAY_WEIGHTS, SEARCH_WEIGHTS, TeamPlanner, Weights
    known = {f.name: f.type for f in fields(Weights)}
    changes: dict[str, Any] = {}  # each checked against the field it sets
    for part in arg.split(","):
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or key not in known:
            raise ValueError(f"planner weight {part!r}: write NAME=VALUE, NAME one of {', '.join(known)}")
        try:
            changes[key] = int(value) if known[key] in (int, "int") else float(value)
        except ValueError:
            raise ValueError(f"planner weight {key}: {value!r} is not a number") from None
    base = {"play": PLAY_WEIGHTS, "search": SEARCH_WEIGHTS}.get(name, Weights())
    return TeamPlanner(replace(base, **changes))


def _search() -> Policy:
    from fusegame.bots.team import SEARCH_WEIGHTS, TeamPlanner
    return TeamPlanner(SEARCH_WEIGHTS)


#: a roll-out budget, ``SAMPLESxTURNS[pPLANS]``
_ROLLOUT_BUDGET = re.compile(r"(\d+)x(\d+)(?:p(\d+))?")


def _rollout(arg: str = "") -> Policy:
    from fusegame.bots.search import SearchBudget, SearchPolicy
    if not arg:
        return SearchPolicy()
    m = _ROLLOUT_BUDGET.fullmatch(arg)
    if m is None:
        raise ValueError(f"roll-out budget {arg!r}: write SAMPLESxTURNS[pPLANS], e.g. rollout:6x4p3")
    return SearchPolicy(SearchBudget(samples=int(m[1]), horizon=int(m[2]), plans=int(m[3] or 0)))


#: Policy factories by name. A factory gives a fresh policy (the team planner keeps caches that
#: make it faster, never different), so each worker process builds its own.
POLICY_FACTORIES: dict[str, Callable[[], Policy]] = {
    "random": lambda: random_policy,
    "greedy": _greedy,
    "team": _team,
    "play": _play,
    "search": _search,
    "rollout": _rollout,
}

POLICIES: dict[str, Policy] = {"random": random_policy}


def get_policy(name: str) -> Policy:
    """A policy by name (``random``, ``greedy``, ``team``, ``play``, ``search`` or ``rollout``);
    ``ValueError`` naming the choices otherwise. ``play`` is the team planner as the bots and hints
    in play use it (``bots.team.PLAY_WEIGHTS``: the smallest card first); ``search`` is the same
    planner given the analysis budget (``bots.team.SEARCH_WEIGHTS``: more next rolls and plans
    looked at, bigger cards solved exactly; up to about a second a roll). ``rollout:SxT`` is the
    team planner with its card choices searched by ``S`` sampled futures per candidate, each
    played ``T`` turns ahead (``rollout`` alone: 6x4); ``rollout:SxTpN`` also plays out the
    planner's ``N`` best plans of each roll. ``team:NAME=VALUE,...``, ``play:NAME=VALUE,...``
    and ``search:NAME=VALUE,...`` change some of the planner's weights (``bots.team.Weights``),
    for analysis: ``play:dud_gain=1`` is the planner in play with every card counting alike."""
    if name.startswith("rollout:"):
        return _rollout(name.split(":", 1)[1])
    if name.startswith("search:") and _ROLLOUT_BUDGET.fullmatch(budget := name.split(":", 1)[1]):
        # before this version ``search:SxT`` named the roll-out search
        raise ValueError(f"{name!r}: the roll-out search is now rollout:{budget}; search is the "
                         "planner in play given the analysis budget, and takes "
                         "search:NAME=VALUE,...")
    if name.startswith(("team:", "play:", "search:")):
        base, arg = name.split(":", 1)
        return _planner(base, arg)
    try:
        factory = POLICY_FACTORIES[name]
    except KeyError:
        raise ValueError(
            f"unknown policy {name!r} (choose from {', '.join(sorted(POLICY_FACTORIES))})") from None
    return factory()
