"""The single-agent Gymnasium view: one seat learns, bots play the others.

``gymnasium.make("fusegame/Fuse-v1", ...)`` (registered once ``fusegame`` and Gymnasium are both
imported, in either order: ``fusegame.gym_ids``) is a solo game by default. With more players the
other seats are played by a partner policy (the team
planner by default, or ``"greedy"``, ``"random"``, or any ``fusegame.sim.policies.Policy``): before
the learning seat is asked, the partners play until the partner policy wants the learning seat's
move (or the learning seat is the only one that may act), so the learning seat never needs to wait
and has no ``wait`` action (index 0 is always masked out).

Options: those of ``fusegame.env.FuseAECEnv`` (``players`` defaults to 1), plus ``seat`` (the
learning seat, default 0), ``partners`` and ``mask_in_obs`` (default True: the observation is
``{"observation", "action_mask"}`` like the PettingZoo environments; False: the observation is the
vector alone, and the mask comes from ``action_masks()`` and ``info["action_mask"]``, as
sb3-contrib's ``MaskablePPO`` expects) and ``illegal`` (``"end"``, the default: an action outside
the mask ends the episode with reward ``illegal_reward``, -1; ``"ignore"``: it changes nothing; either
way ``info["illegal_action"]`` reports it).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

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
from fusegame.rng import Rng
from fusegame.sim.game import POLICY_SALT
from fusegame.sim.policies import Policy, get_policy


class FuseGymEnv(gym.Env[Any, np.int64]):
    """One seat of a FUSE game as a Gymnasium environment (see the module docstring)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(self, render_mode: str | None = None, pace: PaceOption = DEFAULT_PACE,
                 max_steps: int = 20_000, seat: int = 0, partners: str | Policy = "team",
                 mask_in_obs: bool = True, illegal: str = "end", illegal_reward: float = ILLEGAL_REWARD,
                 **options: Any) -> None:
        options.setdefault("players", 1)
        self.illegal = check_illegal(illegal)
        self.illegal_reward = float(illegal_reward)
        config, rest = split_options(options)
        if rest:
            raise TypeError(f"unknown option(s): {', '.join(sorted(rest))}")
        check_render_mode(render_mode)
        if not 0 <= seat < config.players:
            raise ValueError(f"there is no seat {seat} in a {config.players}-player game")
        self.render_mode = render_mode
        self.config = config
        self.seat = seat
        self.match = Match(config, make_pace(pace), max_steps)
        self.partner: Policy | None = (
            None if config.players == 1 else get_policy(partners) if isinstance(partners, str) else partners)
        self.mask_in_obs = mask_in_obs
        vector = spaces.Box(0.0, 1.0, (self.match.encoder.size,), dtype=np.float32)
        self.observation_space: spaces.Space[Any] = (spaces.Dict({
            "observation": vector,
            "action_mask": spaces.Box(0, 1, (self.match.table.size,), dtype=np.int8),
        }) if mask_in_obs else vector)
        self.action_space: spaces.Space[np.int64] = spaces.Discrete(self.match.table.size)
        self._rng = Rng(0)

    def action_masks(self) -> Mask:
        """The learning seat's legal actions now (what ``MaskablePPO`` asks for)."""
        m = self.match
        if m.over or self.seat not in m.state.to_act():
            mask = np.zeros(m.table.size, dtype=np.int8)
            mask[0] = 1  # a finished game still needs one valid index for the checkers
            return mask
        return m.legal_mask(self.seat)

    def _obs(self) -> Any:
        vector = self.match.observe(self.seat, True)
        return {"observation": vector, "action_mask": self.action_masks()} if self.mask_in_obs else vector

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        g = self.match.state
        info: dict[str, Any] = {"score": self.match.score, "turn": g.turn, "time_ms": g.time_ms,
                                "action_mask": self.action_masks()}
        if g.outcome is not None:
            info["won"] = g.outcome.won
            info["reason"] = g.outcome.reason.value
        if illegal:
            info["illegal_action"] = True
        return info

    def _partners_play(self) -> int:
        """The other seats act until the learning seat must; the change in the score."""
        m = self.match
        reward = 0
        while not m.over and not m.truncated:
            actors = m.actors()
            if self.seat in actors and (len(actors) == 1 or self.partner is None):
                break
            if self.partner is None:
                raise RuntimeError("a solo game asks another seat to act")
            proposal = self.partner(m.state, self._rng)
            if proposal.seat == self.seat:
                break
            m.steps += 1
            reward += m.play_action(proposal)
        return reward

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        # a given seed is the engine's seed (the same game as ``new_game(config, seed)``); without
        # one the next game's seed comes from the environment's generator, seeded or not
        self.match.reset(seed if seed is not None else int(self.np_random.integers(0, 2**63 - 1)))
        self._rng = Rng(self.match.seed).fork(POLICY_SALT)
        self._partners_play()
        return self._obs(), self._info()

    def step(self, action: np.int64 | int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        m = self.match
        index = int(action)
        mask = self.action_masks()
        legal = 0 < index < mask.size and bool(mask[index]) and not m.over
        m.steps += 1
        reward = 0.0
        if legal:
            reward = m.play(self.seat, index)
            reward += self._partners_play()
        elif self.illegal == "end" and not m.over:
            m.forfeit = self.seat
            reward = self.illegal_reward
        if self.render_mode == "human":
            self.render()
        return self._obs(), float(reward), m.over, m.truncated, self._info(illegal=not legal)

    def structured_observation(self) -> dict[str, Any]:
        """The engine's own JSON-ready view of the learning seat (``fusegame.observe.observation``)."""
        return self.match.structured(self.seat)

    def render(self) -> Any:
        return self.match.show(self.render_mode)


__all__ = ["FuseGymEnv"]
