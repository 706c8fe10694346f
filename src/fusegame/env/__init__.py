"""FUSE as reinforcement-learning environments (the ``rl`` extra: PettingZoo and Gymnasium).

- ``env(**options)``: a PettingZoo AEC environment (``FuseAECEnv``), wrapped in PettingZoo's
  ``OrderEnforcingWrapper`` (``aec.OrderEnforcing``: the same checks, cheaper reads);
- ``parallel_env(**options)``: a PettingZoo Parallel environment (``FuseParallelEnv``);
- ``gymnasium.make("fusegame/Fuse-v1", **options)``: one seat as a Gymnasium environment
  (``FuseGymEnv``; solo by default, the team planner playing any other seats; the id works after
  ``import fusegame``, or as ``"fusegame.env:fusegame/Fuse-v1"``).

The version (``-v1``, ``fuse_v1``) is the observation's (``encode.VERSION``): it changes whenever
the observation or the action table changes meaning, and the older version is then removed
(docs/rl.md keeps the changelog). ``PRESETS`` names the benchmark's games.

The options are ``GameConfig``'s fields (``players=3``, ``game="countdown"``,
``difficulty="expert"``, ``modules=("roles", "sparks")``, ...) plus ``pace``, ``max_steps``,
``structured``, ``render_mode`` and ``illegal``. The engine never imports this package.
"""

from __future__ import annotations

from typing import Any

try:
    import gymnasium
    import pettingzoo  # type: ignore[import-untyped]  # noqa: F401
except ImportError as e:  # the extra is optional: say how to get it rather than which module is missing
    raise ImportError(f"fusegame.env needs the rl extra: pip install 'fusegame[rl]' ({e})") from e

from fusegame.env.actions import ActionTable
from fusegame.env.aec import FuseAECEnv, OrderEnforcing
from fusegame.env.encode import Encoder, ObservationLayout
from fusegame.env.match import Match
from fusegame.env.parallel import FuseParallelEnv
from fusegame.env.single import FuseGymEnv
from fusegame.gym_ids import GYM_ID, register


def env(**options: Any) -> Any:
    """The AEC environment, with PettingZoo's order-enforcing wrapper (``raw_env`` without)."""
    return OrderEnforcing(FuseAECEnv(**options))


def raw_env(**options: Any) -> FuseAECEnv:
    """The AEC environment without wrappers."""
    return FuseAECEnv(**options)


def parallel_env(**options: Any) -> FuseParallelEnv:
    """The Parallel environment."""
    return FuseParallelEnv(**options)


register(gymnasium)

__all__ = ["ActionTable", "Encoder", "FuseAECEnv", "FuseGymEnv", "FuseParallelEnv", "GYM_ID", "Match",
           "ObservationLayout", "env", "parallel_env", "raw_env"]
