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


def first_legal_policy(state: GameState, rng: Rng) -> Action:
    """The first legal action in the engine's order, ``done`` only when nothing else is legal: the
    one-line baseline of the reinforcement-learning benchmark (``fusegame.env.benchmark``)."""
    actions = state.legal_actions()
    if not actions:
        raise RuntimeError(f"no legal action in a game that is not over: {state!r}")
    for a in actions:
        if a.verb != "done":
            return a
    return actions[0]


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


#: Policy factories by name: the product's policies, the choices of ``fuse sim --policy``. A factory
#: gives a fresh policy (the team planner keeps caches that make it faster, never different), so
#: each worker process builds its own.
POLICY_FACTORIES: dict[str, Callable[[], Policy]] = {
    "random": lambda: random_policy,
    "first": lambda: first_legal_policy,
    "greedy": _greedy,
    "team": _team,
    "play": _play,
    "search": _search,
}

POLICIES: dict[str, Policy] = {"random": random_policy}

#: ``factory(arg)``: a fresh policy, ``arg`` the text after ``NAME:`` in the name asked for (``""``
#: for the name alone); a ``ValueError`` for an ``arg`` it cannot read.
PolicyFactory = Callable[[str], Policy]

#: Policies that code outside the product registered (``register_policy``): the research studies'
#: variants. ``get_policy`` builds them in the process that registered them; ``fuse sim`` never
#: lists them among its choices.
EXTRA_POLICIES: dict[str, PolicyFactory] = {}

#: ``SAMPLESxTURNS[pPLANS]``, a roll-out budget: what ``search:`` was given before ``search`` named
#: the planner in play with the analysis budget
_ROLLOUT_BUDGET = re.compile(r"(\d+)x(\d+)(?:p(\d+))?")


def register_policy(name: str, factory: PolicyFactory) -> None:
    """Let ``get_policy`` build ``name`` and ``name:ARG`` as ``factory(ARG)`` (``factory("")`` for
    ``name`` alone) in this process, so that research code (``research/``) names its own variants
    as it names the product's. A product policy's name (``POLICY_FACTORIES``) cannot be taken;
    registering a name again replaces its factory. The worker processes ``fusegame.sim.parallel``
    spawns start without the registrations: play such a policy in the process that registered it
    (or in processes forked from it).

    >>> register_policy("first", lambda arg: lambda state, rng: state.legal_actions()[0])
    >>> callable(get_policy("first"))
    True
    >>> del EXTRA_POLICIES["first"]
    """
    if not name or ":" in name or name in POLICY_FACTORIES:
        raise ValueError(f"cannot register a policy named {name!r}: give a new name without ':'")
    EXTRA_POLICIES[name] = factory


def get_policy(name: str) -> Policy:
    """A policy by name (``random``, ``first``, ``greedy``, ``team``, ``play`` or ``search``, or one
    that ``register_policy`` added); ``ValueError`` naming the choices otherwise. ``play`` is the team
    planner as the bots and hints in play use it (``bots.team.PLAY_WEIGHTS``: the smallest card
    first); ``search`` is the same planner given the analysis budget (``bots.team.SEARCH_WEIGHTS``:
    more next rolls and plans looked at, bigger cards solved exactly; up to about a second a roll).
    ``team:NAME=VALUE,...``, ``play:NAME=VALUE,...`` and ``search:NAME=VALUE,...`` change some of
    the planner's weights (``bots.team.Weights``), for analysis: ``play:dud_gain=1`` is the planner
    in play with every card counting alike."""
    base, colon, arg = name.partition(":")
    extra = EXTRA_POLICIES.get(base)
    if extra is not None:
        return extra(arg)
    if base == "search" and _ROLLOUT_BUDGET.fullmatch(arg):
        # before ``search`` named the analysis budget, ``search:SxT`` named the roll-out search
        raise ValueError(f"{name!r}: the roll-out search is now rollout:{arg}, a research policy "
                         "(research/studies/rollout.py); search is the planner in play given the "
                         "analysis budget, and takes search:NAME=VALUE,...")
    if colon and base in ("team", "play", "search"):
        return _planner(base, arg)
    try:
        factory = POLICY_FACTORIES[name]
    except KeyError:
        choices = sorted(POLICY_FACTORIES) + sorted(EXTRA_POLICIES)
        raise ValueError(f"unknown policy {name!r} (choose from {', '.join(choices)})") from None
    return factory()
