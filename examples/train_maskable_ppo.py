"""Train sb3-contrib's MaskablePPO on solo FUSE at Training difficulty and plot how it does.

    pip install -e '.[rl]' sb3-contrib          # and a torch build for your machine
    python examples/train_maskable_ppo.py [--minutes 5] [--eval-games 50] [--out ppo_fuse.png]
                                          [--lr 1e-4] [--ent-coef 0.001] [--seed 0]

The agent plays ``gymnasium.make("fusegame/Fuse-v1", difficulty="training")`` (one player, the
simulator's pace: 12 s a turn + 1 s a die, so a game lasts at most 40 turns) with the observation
vector as input and the action mask from ``action_masks()``. Every ``--eval-every`` steps it plays
``--eval-games`` games on fixed seeds (its most likely legal action each time), and the plot shows
its win rate and mean score against the random, greedy and team-planner policies on the same
seeds. Training stops after ``--minutes`` of wall-clock time; torch uses one thread.
``--mask-input`` also feeds the mask to the network (the observation dict of the PettingZoo
environments), so that it sees which placements are legal, not only the card icons.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import gymnasium
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402
from matplotlib.ticker import FuncFormatter  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.wrappers import ActionMasker  # noqa: E402
from stable_baselines3.common.callbacks import BaseCallback  # noqa: E402

import fusegame.env as fenv  # noqa: E402
from fusegame.rules import GameConfig  # noqa: E402
from fusegame.sim.game import play_game  # noqa: E402
from fusegame.sim.policies import get_policy  # noqa: E402

OPTIONS: dict[str, Any] = {"players": 1, "difficulty": "training", "mask_in_obs": False}
EVAL_SEED = 1_000_000  #: evaluation games use seeds EVAL_SEED, EVAL_SEED + 1, ... (never trained on)


def make_env() -> gymnasium.Env[Any, Any]:
    env = gymnasium.make(fenv.GYM_ID, **OPTIONS)
    # scores run to ~90: a tenth keeps the value targets near 1
    env = gymnasium.wrappers.TransformReward(env, lambda r: r / 10)
    return ActionMasker(env, lambda e: e.unwrapped.action_masks())


def evaluate(model: MaskablePPO, games: int) -> tuple[float, float]:
    """Win rate and mean score of the model's most likely legal action, on the evaluation seeds."""
    env = gymnasium.make(fenv.GYM_ID, **OPTIONS).unwrapped
    wins, scores = 0, []
    for i in range(games):
        obs, info = env.reset(seed=EVAL_SEED + i)
        done = truncated = False
        while not (done or truncated):
            action, _ = model.predict(obs, deterministic=True, action_masks=env.action_masks())
            obs, _, done, truncated, info = env.step(int(action))
        wins += bool(info.get("won"))
        scores.append(info["score"])
    return wins / games, float(np.mean(scores))


def baselines(games: int) -> dict[str, tuple[float, float]]:
    """Win rate and mean score of the simulator's policies on the same seeds and pace."""
    config = GameConfig(players=1, difficulty="training")
    out = {}
    for name in ("random", "greedy", "team"):
        policy = get_policy(name)
        results = [play_game(config, EVAL_SEED + i, policy) for i in range(games)]
        out[name] = (sum(r.won for r in results) / games, float(np.mean([r.score for r in results])))
    return out


class Progress(BaseCallback):  # type: ignore[misc]
    """Evaluates every ``every`` steps and stops training when the time is up."""

    def __init__(self, every: int, games: int, seconds: float) -> None:
        super().__init__()
        self.every, self.games, self.deadline = every, games, time.monotonic() + seconds
        self.points: list[tuple[int, float, float]] = []
        self.next_eval = 0

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_eval:
            self.record()
            self.next_eval += self.every
        return time.monotonic() < self.deadline

    def record(self) -> None:
        win, score = evaluate(self.model, self.games)
        self.points.append((self.num_timesteps, win, score))
        print(f"{self.num_timesteps:>8} steps: win rate {win:6.1%}, mean score {score:5.1f}", flush=True)


def plot(points: list[tuple[int, float, float]], base: dict[str, tuple[float, float]], out: Path,
         minutes: float) -> None:
    steps = [p[0] for p in points]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    ax1.plot(steps, [100 * p[1] for p in points], "o-", label="MaskablePPO")
    ax2.plot(steps, [p[2] for p in points], "o-", label="MaskablePPO")
    for (name, (win, score)), style in zip(base.items(), (":", "--", "-.")):
        ax1.axhline(100 * win, linestyle=style, color="grey", label=name)
        ax2.axhline(score, linestyle=style, color="grey", label=name)
    ax1.set(xlabel="environment steps", ylabel="win rate (%)", ylim=(-3, 103))
    ax2.set(xlabel="environment steps", ylabel="mean score")
    for ax in (ax1, ax2):
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x / 1000:.0f}k"))
        ax.legend(fontsize=8)
        ax.grid(alpha=0.3)
    fig.suptitle(f"Solo FUSE, Training difficulty: MaskablePPO after {minutes:.0f} min of one CPU core")
    fig.tight_layout()
    fig.savefig(out, dpi=100)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=5.0, help="training time (default 5)")
    ap.add_argument("--eval-every", type=int, default=20_000, help="steps between evaluations")
    ap.add_argument("--eval-games", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--lr", type=float, default=1e-4, help="learning rate (default 1e-4)")
    ap.add_argument("--ent-coef", type=float, default=0.001, help="entropy bonus (default 0.001)")
    ap.add_argument("--out", type=Path, default=Path("ppo_fuse.png"))
    ap.add_argument("--mask-input", action="store_true",
                    help="give the network the action mask as input too (a dict observation)")
    args = ap.parse_args()
    OPTIONS["mask_in_obs"] = args.mask_input
    torch.set_num_threads(1)
    base = baselines(args.eval_games)
    for name, (win, score) in base.items():
        print(f"{name:>8}: win rate {win:6.1%}, mean score {score:5.1f}")
    policy = "MultiInputPolicy" if args.mask_input else "MlpPolicy"
    model = MaskablePPO(policy, make_env(), n_steps=2048, batch_size=256, learning_rate=args.lr,
                        ent_coef=args.ent_coef, gamma=0.995, policy_kwargs={"net_arch": [256, 256]},
                        seed=args.seed, verbose=0, device="cpu")
    progress = Progress(args.eval_every, args.eval_games, args.minutes * 60)
    start = time.monotonic()
    model.learn(total_timesteps=10**9, callback=progress)
    progress.record()
    print(f"trained {model.num_timesteps} steps in {(time.monotonic() - start) / 60:.1f} min")
    plot(progress.points, base, args.out, args.minutes)
    print(f"plot: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
