"""The PettingZoo AEC environment: one seat acts at a time, in a well-defined order.

FUSE is played in real time: during a distribution every player may claim a die at any moment.
The AEC environment turns that into turns of *initiative*: the seat that holds it either takes one
engine action (place a die, say done, give up a die, take a card, use a role...) or ``wait``\\ s,
passing the initiative to the next seat (in seat order, cyclically) that may act. After an engine
action the initiative passes to the seat after the actor; a new step of the turn starts with the
leader (or the first seat after the leader that may act).

Nothing a team could do is lost: any sequence of engine actions by any seats is reachable, since
the seat whose action comes next can always be reached by the seats before it waiting. ``wait`` is
masked out only for the last seat of a full round of waits (when every other seat that may act has
waited since the last action), so every round makes progress; a seat that is the only one able to
act cannot wait. Chance (the roll, penalty rerolls, role rerolls, "roll a 6") is resolved by the
engine's own seeded generator between actions.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils.wrappers import OrderEnforcingWrapper  # type: ignore[import-untyped]

from fusegame.env.actions import WAIT
from fusegame.env.encode import VERSION
from fusegame.env.match import (
    DEFAULT_PACE,
    ILLEGAL_REWARD,
    RENDER_MODES,
    Mask,
    Match,
    PaceOption,
    check_illegal,
    check_render_mode,
    make_pace,
    split_options,
)
from fusegame.rules.config import GameConfig


def agent_name(seat: int) -> str:
    return f"player_{seat}"


def observation_space(match: Match) -> spaces.Dict:
    """``{"observation": Box(0, 1, (size,), float32), "action_mask": Box(0, 1, (actions,), int8)}``."""
    return spaces.Dict({
        "observation": spaces.Box(0.0, 1.0, (match.encoder.size,), dtype=np.float32),
        "action_mask": spaces.Box(0, 1, (match.table.size,), dtype=np.int8),
    })


def team_setup(env: Any, render_mode: str | None, pace: PaceOption, max_steps: int, structured: bool,
               options: dict[str, Any]) -> None:
    """What the AEC and Parallel environments set up alike: the options checked, the match, the
    agents and their spaces (the same for every seat), the global state's space."""
    illegal = check_illegal(options.pop("illegal", "end"))
    illegal_reward = float(options.pop("illegal_reward", ILLEGAL_REWARD))
    config, rest = split_options(options)
    if rest:
        raise TypeError(f"unknown option(s): {', '.join(sorted(rest))}")
    env.render_mode = check_render_mode(render_mode)
    env.structured = structured
    env.illegal = illegal
    env.illegal_reward = illegal_reward
    env.match = Match(config, make_pace(pace), max_steps)
    env.config = config
    env.possible_agents = [agent_name(s) for s in range(config.players)]
    env._seat = {a: s for s, a in enumerate(env.possible_agents)}
    obs_space = observation_space(env.match)
    env.observation_spaces = {a: obs_space for a in env.possible_agents}
    env.action_spaces = {a: spaces.Discrete(env.match.table.size) for a in env.possible_agents}
    env.state_space = spaces.Box(0.0, 1.0, (env.match.encoder.state_size,), dtype=np.float32)


class FuseAECEnv(AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """FUSE (every game of the engine) as a PettingZoo AEC environment.

    Keyword options: every ``GameConfig`` field (``players``, ``difficulty``, ``game``, ``modules``,
    ``setup``, ``fuse_cards``, ``time_limit``, ...; or ``config=GameConfig(...)``), ``pace`` (the
    clock's pace: ``Pace``, ``(turn_seconds, die_seconds)`` or ``"12+1"``; default the simulator's
    12 s a turn + 1 s a die; None stops the clock), ``max_steps`` (environment steps before the
    game is truncated, default 20,000), ``structured`` (put the engine's own per-seat view in
    ``infos[agent]["view"]``; default False, see ``structured_observation``), ``render_mode``
    (``"ansi"``, ``"human"`` or ``"rgb_array"``), ``illegal`` (``"end"``, the default: an action
    outside the mask ends the episode and pays its seat ``illegal_reward``, -1; or ``"ignore"``).
    ``state()`` is the whole public table (``state_space``), for centralised critics.
    """

    render_mode: str | None
    structured: bool
    illegal: str
    illegal_reward: float
    match: Match
    config: GameConfig
    possible_agents: list[str]
    _seat: dict[str, int]
    observation_spaces: dict[str, spaces.Space[Any]]
    action_spaces: dict[str, spaces.Space[Any]]
    state_space: spaces.Box

    metadata = {"render_modes": list(RENDER_MODES), "name": f"fuse_v{VERSION}", "is_parallelizable": False}

    def __init__(self, render_mode: str | None = None, pace: PaceOption = DEFAULT_PACE,
                 max_steps: int = 20_000, structured: bool = False, **options: Any) -> None:
        super().__init__()
        team_setup(self, render_mode, pace, max_steps, structured, options)
        self._waits = 0
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the order of play -----------------------------------------------------------------------
    def _next_seat(self, after: int) -> int:
        """The first seat after ``after`` (cyclically, ``after`` itself last) that may act."""
        actors = self.match.actors()
        n = self.config.players
        for k in range(1, n + 1):
            s = (after + k) % n
            if s in actors:
                return s
        return (after + 1) % n  # nobody may act: the game is over

    def _may_wait(self) -> bool:
        # the last seat of a full round of waits must act, so that every round makes progress
        return self._waits < len(self.match.actors()) - 1

    def action_mask(self, agent: str) -> Mask:
        """The legal actions of ``agent`` now (all zeros unless it holds the initiative)."""
        seat = self._seat[agent]
        m = self.match
        if agent != self.agent_selection or m.over or seat not in m.to_act():
            return np.zeros(m.table.size, dtype=np.int8)
        mask = m.legal_mask(seat)
        if self._waits < len(m.actors()) - 1:  # _may_wait
            mask[WAIT] = 1
        return mask

    # -- the API ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.match.reset(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._waits = 0
        g = self.match.state
        self.agent_selection = self.possible_agents[self._next_seat((g.leader - 1) % g.players)]
        self._fill_infos()

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat[agent]
        return {"observation": self.match.observe(seat, agent == self.agent_selection),
                "action_mask": self.action_mask(agent)}

    def state(self) -> Any:
        """The whole public table, with the seat that holds the initiative (``state_space``)."""
        holder = None
        if self.agents and not self.match.over:
            holder = self._seat[self.agent_selection]
        return self.match.encoder.state(self.match.state, holder)

    def structured_observation(self, agent: str) -> dict[str, Any]:
        """What ``agent``'s seat may see, as the engine's own JSON-ready view
        (``fusegame.observe.observation``), for building one's own features."""
        return self.match.structured(self._seat[agent])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        self._cumulative_rewards[agent] = 0.0
        reward = 0
        index = -1 if action is None else int(action)
        # the mask's test, without building the mask again
        m = self.match
        if m.over or seat not in m.to_act():
            illegal = True
        else:
            illegal = not self._may_wait() if index == WAIT else not m.allows(seat, index)
        m.steps += 1
        penalty = 0.0
        if illegal:
            if self.illegal == "end":
                m.forfeit = seat  # the episode ends here, the seat paying for it
                penalty = self.illegal_reward
            # else ignored: the same seat keeps the initiative (the mask said what it may do)
        elif index == WAIT:
            self._waits += 1
            self.agent_selection = self.possible_agents[self._next_seat(seat)]
        else:
            turn = m.state.turn
            reward = m.play(seat, index)
            self._waits = 0
            g = m.state
            # a new turn starts with its leader, as at the table; otherwise the seat after the actor
            self.agent_selection = self.possible_agents[
                self._next_seat((g.leader - 1) % g.players if g.turn != turn else seat)]
        self.rewards = dict.fromkeys(self.agents, float(reward))
        if penalty:
            self.rewards[agent] += penalty
        over = m.over
        cut = not over and m.steps >= m.max_steps
        for a in self.agents:
            self.terminations[a] = over
            self.truncations[a] = cut
        self._fill_infos(illegal_agent=agent if illegal else None)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _fill_infos(self, illegal_agent: str | None = None) -> None:
        g = self.match.state
        shared: dict[str, Any] = {"score": self.match.score, "turn": g.turn, "time_ms": g.time_ms}
        if g.outcome is not None:
            shared["won"] = g.outcome.won
            shared["reason"] = g.outcome.reason.value
        for a in self.agents:
            seat = self._seat[a]
            info: dict[str, Any] = {"seat": seat, **shared}
            if a == illegal_agent:
                info["illegal_action"] = True
            if self.structured:
                info["view"] = self.match.structured(seat)
            self.infos[a] = info

    def render(self) -> Any:
        return self.match.show(self.render_mode)

    def close(self) -> None:
        pass


def _read_through(name: str, before_reset: bool) -> property:
    """The environment's attribute ``name``, refused as PettingZoo's wrapper refuses it before
    ``reset`` unless ``before_reset``."""

    def read(self: Any) -> Any:
        if not (before_reset or self._has_reset):
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(read, doc=f"The environment's ``{name}``.")


class OrderEnforcing(OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper`` (the same checks and errors) that reads what an agent
    loop reads at every step, ``agent_selection``, ``agents``, ``rewards``, ``terminations``,
    ``truncations``, ``infos`` and ``_cumulative_rewards``, straight from the environment: the
    stock wrapper finds each through two ``__getattr__`` calls, eight lookups a step (``last()``,
    ``agent_iter``, ``step``), which cost a solo FUSE step about a sixth of its time."""

    agent_selection = _read_through("agent_selection", False)
    agents = _read_through("agents", False)
    rewards = _read_through("rewards", False)
    terminations = _read_through("terminations", False)
    truncations = _read_through("truncations", False)
    infos = _read_through("infos", False)
    _cumulative_rewards = _read_through("_cumulative_rewards", True)

    def __str__(self) -> str:
        return str(self.env)  # as the stock wrapper prints itself: the environment's name


__all__ = ["FuseAECEnv", "OrderEnforcing", "RENDER_MODES", "agent_name", "observation_space", "team_setup"]
