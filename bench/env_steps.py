"""Benchmark: reinforcement-learning environment steps per second, with random masked actions.

    python bench/env_steps.py [--steps 20000] [--players 1,4] [--vector 4] [--seed 1]

Measures ``fusegame.env`` as a PettingZoo AEC environment, as a Parallel one, and as Gymnasium
vectors of single-agent environments (``SyncVectorEnv`` and ``AsyncVectorEnv``, one process per
environment), for FUSE at Standard with each player count (a vector's 4-player games have random
partners at the other seats, so that the figure is the environment's, not a bot's). Beside them, the
same AEC loop on PettingZoo's classic environments that install without heavy extras (tictactoe_v3,
connect_four_v3; they need ``pygame``) and OpenSpiel's Hanabi (``open_spiel``; a random legal action
and the acting player's observation tensor a step), or a line saying they were not measured.

Every step is one ``env.step`` call (an AEC step is one seat's action or ``wait``; a Parallel step
is every seat's action at once; a vector step counts one step per environment), timed after a
warm-up, on one core unless stated.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np

import fusegame.env as fenv


def aec_rate(make: Callable[[], Any], steps: int, seed: int) -> float:
    """Steps per second of an AEC environment under random masked actions (resets included)."""
    env = make()
    rng = np.random.default_rng(seed)
    game = 0
    env.reset(seed=seed)
    n = 0
    t0 = time.perf_counter()
    while n < steps:
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            n += 1
            if n >= steps:
                break
        else:
            game += 1
            env.reset(seed=seed + game)
    return n / (time.perf_counter() - t0)


def parallel_rate(make: Callable[[], Any], steps: int, seed: int) -> float:
    env = make()
    rng = np.random.default_rng(seed)
    game = 0
    obs, _ = env.reset(seed=seed)
    t0 = time.perf_counter()
    for _ in range(steps):
        if not env.agents:
            game += 1
            obs, _ = env.reset(seed=seed + game)
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
        obs, _, _, _, _ = env.step(actions)
    return steps / (time.perf_counter() - t0)


def vector_rate(vector: Any, n_envs: int, options: dict[str, Any], steps: int, seed: int) -> float:
    envs = vector([lambda: gymnasium.make(fenv.GYM_ID, **options) for _ in range(n_envs)])
    rng = np.random.default_rng(seed)
    try:
        obs, _ = envs.reset(seed=[seed + i for i in range(n_envs)])
        rounds = max(1, steps // n_envs)
        t0 = time.perf_counter()
        for _ in range(rounds):
            # a finished environment resets on its next step (whatever action it is given)
            actions = np.array([int(rng.choice(np.flatnonzero(m))) for m in obs["action_mask"]])
            obs, _, _, _, _ = envs.step(actions)
        return rounds * n_envs / (time.perf_counter() - t0)
    finally:
        envs.close()


def classic_envs() -> dict[str, Callable[[], Any]]:
    out: dict[str, Callable[[], Any]] = {}
    try:
        from pettingzoo.classic import connect_four_v3, tictactoe_v3
    except ImportError as e:
        print(f"PettingZoo classic environments not measured ({e}; pip install pygame)")
        return out
    out["tictactoe_v3"] = tictactoe_v3.env
    out["connect_four_v3"] = connect_four_v3.env
    return out


def hanabi_rate(steps: int, seed: int) -> float:
    """OpenSpiel's Hanabi (2 players, its full game), random legal actions with the observation
    tensor of the player to act read at every step, as an agent would: steps per second."""
    import pyspiel  # type: ignore[import-not-found]

    game = pyspiel.load_game("hanabi")
    rng = np.random.default_rng(seed)
    n = 0
    t0 = time.perf_counter()
    while n < steps:
        state = game.new_initial_state()
        while not state.is_terminal() and n < steps:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
                continue
            state.observation_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
            n += 1
    return n / (time.perf_counter() - t0)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=20_000, help="steps per measurement (default 20000)")
    ap.add_argument("--players", default="1,4", help="player counts, comma-separated (default 1,4)")
    ap.add_argument("--vector", type=int, default=4, help="environments in a vector (default 4)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    players = [int(p) for p in args.players.split(",")]
    warm = max(200, args.steps // 10)
    rows: list[tuple[str, float]] = []

    def measure(label: str, fn: Callable[[int], float]) -> None:
        fn(warm)  # card tables are memoised per process, as in any long run
        rate = fn(args.steps)
        rows.append((label, rate))
        print(f"{label:<44} {rate:>10,.0f} steps/s", flush=True)

    for p in players:
        options: dict[str, Any] = {"players": p}
        measure(f"fusegame AEC, FUSE {p}p",
                lambda n, o=options: aec_rate(lambda: fenv.env(**o), n, args.seed))
        measure(f"fusegame Parallel, FUSE {p}p",
                lambda n, o=options: parallel_rate(lambda: fenv.parallel_env(**o), n, args.seed))
        single = {"players": p, "partners": "random"} if p > 1 else {"players": p}
        for name, vector in (("SyncVectorEnv", gymnasium.vector.SyncVectorEnv),
                             ("AsyncVectorEnv", gymnasium.vector.AsyncVectorEnv)):
            measure(f"fusegame {name} x{args.vector}, FUSE {p}p",
                    lambda n, o=single, v=vector: vector_rate(v, args.vector, o, n, args.seed))
    for name, make in classic_envs().items():
        measure(f"pettingzoo AEC, {name}", lambda n, m=make: aec_rate(m, n, args.seed))
    try:
        import pyspiel  # type: ignore[import-not-found]  # noqa: F401
    except ImportError as e:
        print(f"OpenSpiel's Hanabi not measured ({e}; pip install open_spiel)")
    else:
        measure("OpenSpiel hanabi (2 players)", lambda n: hanabi_rate(n, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
