"""The PettingZoo Parallel environment: every seat chooses an action at every step.

Each step every seat sends one action index; the seats that may not act now (and any seat that
prefers to let others go first) send ``wait``. The actions are then carried out one by one in seat
order starting with the leader, as a server serialises simultaneous claims: an action that an
earlier one in the same step has made illegal (two seats claiming the same die: the first valid
claim wins), or that was never legal (masked out), is dropped (``infos[agent]["dropped"]``), and
so is every action still waiting when the step starts a new turn. Any sequence of engine actions
is reachable (one seat acts per step, the others wait), so nothing a team could do is lost.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv  # type: ignore[import-untyped]

from fusegame.env.actions import WAIT
from fusegame.env.aec import RENDER_MODES, team_setup
from fusegame.env.encode import VERSION
from fusegame.env.match import DEFAULT_PACE, Mask, Match, PaceOption
from fusegame.rules.config import GameConfig
from fusegame.rules.errors import IllegalAction

PerAgent = dict[str, dict[str, Any]]


class FuseParallelEnv(ParallelEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """FUSE (every game of the engine) as a PettingZoo Parallel environment; the options are those
    of ``FuseAECEnv``."""

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

    metadata = {"render_modes": list(RENDER_MODES), "name": f"fuse_parallel_v{VERSION}"}

    def __init__(self, render_mode: str | None = None, pace: PaceOption = DEFAULT_PACE,
                 max_steps: int = 20_000, structured: bool = False, **options: Any) -> None:
        team_setup(self, render_mode, pace, max_steps, structured, options)
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def action_mask(self, agent: str) -> Mask:
        """The legal actions of ``agent`` now; ``wait`` is always allowed."""
        seat = self._seat[agent]
        if self.match.over:
            mask = np.zeros(self.match.table.size, dtype=np.int8)
        else:
            mask = self.match.legal_mask(seat)
        mask[WAIT] = 1
        return mask

    def _observations(self) -> dict[str, dict[str, Any]]:
        actors = set(self.match.actors())
        return {a: {"observation": self.match.observe(self._seat[a], self._seat[a] in actors),
                    "action_mask": self.action_mask(a)} for a in self.agents}

    def _infos(self, dropped: set[str] | None = None) -> dict[str, dict[str, Any]]:
        g = self.match.state
        out: dict[str, dict[str, Any]] = {}
        for a in self.agents:
            info: dict[str, Any] = {"seat": self._seat[a], "score": self.match.score, "turn": g.turn,
                                    "time_ms": g.time_ms}
            if g.outcome is not None:
                info["won"] = g.outcome.won
                info["reason"] = g.outcome.reason.value
            if dropped and a in dropped:
                info["dropped"] = True
            if self.structured:
                info["view"] = self.match.structured(self._seat[a])
            out[a] = info
        return out

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
        self.match.reset(seed)
        self.agents = self.possible_agents[:]
        return self._observations(), self._infos()

    def state(self) -> Any:
        """The whole public table (``state_space``): every seat may act at once, so no seat holds
        the initiative (its bits say "none")."""
        return self.match.encoder.state(self.match.state, None)

    def structured_observation(self, agent: str) -> dict[str, Any]:
        """The engine's own JSON-ready view for ``agent``'s seat (``fusegame.observe.observation``)."""
        return self.match.structured(self._seat[agent])

    def step(self, actions: dict[str, int]) -> tuple[PerAgent, dict[str, float], dict[str, bool],
                                                     dict[str, bool], PerAgent]:
        match = self.match
        match.steps += 1
        g = match.state
        n = g.players
        turn = g.turn
        reward = 0
        dropped: set[str] = set()
        # an action outside its seat's mask when the step starts (not one a claim before it in the
        # same step made illegal: that is a lost race, dropped) ends the episode under illegal="end"
        if self.illegal == "end" and not match.over:
            for agent, index in actions.items():
                if agent in self._seat and not self._in_mask(agent, int(index)):
                    match.forfeit = self._seat[agent]
                    break
        penalty = 0.0
        if match.forfeit is not None:
            actions = {}
            penalty = self.illegal_reward
        for k in range(n):
            seat = (g.leader + k) % n
            agent = self.possible_agents[seat]
            if agent not in actions:
                continue
            index = int(actions[agent])
            if index == WAIT:
                continue
            if match.over or match.state.turn != turn or not 0 <= index < match.table.size:
                dropped.add(agent)
                continue
            action = match.decode(seat, index)
            if action is None:
                dropped.add(agent)
                continue
            try:
                match.state.apply(action)
            except IllegalAction:
                dropped.add(agent)
                continue
            reward += match.settled()
        over, cut = match.over, match.truncated
        observations = self._observations()
        rewards = {a: float(reward) + (penalty if self._seat[a] == match.forfeit else 0.0)
                   for a in self.agents}
        terminations = {a: over for a in self.agents}
        truncations = {a: cut for a in self.agents}
        infos = self._infos(dropped)
        if over or cut:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def _in_mask(self, agent: str, index: int) -> bool:
        mask = self.action_mask(agent)
        return 0 <= index < mask.size and bool(mask[index])

    def render(self) -> Any:
        return self.match.show(self.render_mode)

    def close(self) -> None:
        pass


__all__ = ["FuseParallelEnv"]
