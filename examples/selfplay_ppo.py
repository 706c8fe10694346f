"""Self-play: one masked PPO policy plays every seat of FUSE, CleanRL style, on the Parallel env.

    pip install -e '.[train]'     # torch (a CPU build is enough), then:
    python examples/selfplay_ppo.py --minutes 10 --out selfplay.png
    python examples/selfplay_ppo.py --preset fuse-3-standard --envs 8 --minutes 30

Every seat of ``--envs`` Parallel environments (``fusegame.env.parallel_env``) is played by the same
network (shared weights: the seats are one team and get one reward, the change in the team's
score, less ``--step-cost`` a step so that stalling costs), so each environment step gives one
sample per seat. The network sees a seat's observation
and picks among its legal actions only (the mask sets every other logit to -1e8); ``wait`` is one of
them, so a seat can let a teammate claim first. The update is the single-file PPO of CleanRL
(clipped objective, generalised advantage estimation, value loss, entropy bonus, minibatch epochs),
written out here rather than hidden in a library so that it can be read and changed.

Every ``--eval-every`` steps the policy (its most likely legal action) plays the benchmark's
protocol (``fusegame.env.benchmark``: seeds 1,000,000 on, every seat) for ``--eval-games`` games;
the plot shows its win rate and mean score beside the baselines' on the same seeds.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

try:
    import torch
    from torch import nn
except ImportError as e:  # the train extra is optional
    raise SystemExit(f"this example needs torch: pip install -e '.[train]' ({e})") from e

import fusegame.env as fenv
from fusegame.env.benchmark import FIRST_SEED, PRESETS, Preset, evaluate_policy

#: steps before an episode is cut (a policy whose seats all wait would never end one)
STEP_LIMIT = 1_000

#: the example's default: two seats that must share the roll, at the gentlest level
TWO_TRAINING = Preset("fuse-2-training", {"players": 2, "difficulty": "training"},
                      "FUSE, two players, Training")


class Agent(nn.Module):
    """One policy for every seat: a shared MLP body, a policy head over the action table and a
    value head."""

    def __init__(self, obs_size: int, actions: int, hidden: int = 256) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_size, hidden), nn.Tanh(),
                                  nn.Linear(hidden, hidden), nn.Tanh())
        self.policy = nn.Linear(hidden, actions)
        self.value = nn.Linear(hidden, 1)

    def logits(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.policy(self.body(obs)).masked_fill(mask == 0, -1e8)

    def act(self, obs: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None
            ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        h = self.body(obs)
        dist = torch.distributions.Categorical(logits=self.policy(h).masked_fill(mask == 0, -1e8))
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.value(h).squeeze(-1)


class Team:
    """``n`` Parallel environments, every seat of each one row of the batch."""

    def __init__(self, n: int, options: dict[str, object], seed: int) -> None:
        # every seat may wait at every step, and a step where all of them wait changes nothing: an
        # episode that stalls so is cut (a game takes a few hundred steps)
        self.envs = [fenv.parallel_env(**options, max_steps=STEP_LIMIT) for _ in range(n)]
        self.agents = self.envs[0].possible_agents
        self.rng = np.random.default_rng(seed)
        self.obs = [e.reset(seed=int(self.rng.integers(0, 2**31)))[0] for e in self.envs]
        self.episode_scores: list[float] = []
        self.wins: list[bool] = []

    def batch(self) -> tuple[np.ndarray, np.ndarray]:
        obs = np.stack([o[a]["observation"] for o in self.obs for a in self.agents])
        masks = np.stack([o[a]["action_mask"] for o in self.obs for a in self.agents])
        return obs, masks

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        seats = len(self.agents)
        rewards = np.zeros(len(self.envs) * seats, dtype=np.float32)
        dones = np.zeros(len(self.envs) * seats, dtype=np.float32)
        for i, env in enumerate(self.envs):
            chosen = {a: int(actions[i * seats + k]) for k, a in enumerate(self.agents)}
            obs, rew, term, trunc, infos = env.step(chosen)
            rewards[i * seats:(i + 1) * seats] = rew[self.agents[0]]
            if any(term.values()) or any(trunc.values()):
                dones[i * seats:(i + 1) * seats] = 1.0
                info = infos[self.agents[0]]
                self.episode_scores.append(float(info["score"]))
                self.wins.append(bool(info.get("won")))
                obs, _ = env.reset(seed=int(self.rng.integers(0, 2**31)))
            self.obs[i] = obs
        return rewards, dones


def evaluate(agent: Agent, options: dict[str, object], games: int) -> tuple[float, float]:
    """Win rate and mean score of the policy's most likely legal action at every seat, on the
    protocol's seeds."""
    env = fenv.parallel_env(**options, max_steps=STEP_LIMIT)
    wins, scores = 0, []
    for i in range(games):
        obs, _ = env.reset(seed=FIRST_SEED + i)
        while True:
            with torch.no_grad():
                x = torch.as_tensor(np.stack([obs[a]["observation"] for a in env.possible_agents]))
                m = torch.as_tensor(np.stack([obs[a]["action_mask"] for a in env.possible_agents]))
                best = agent.logits(x, m).argmax(-1).numpy()
            obs, _, term, trunc, infos = env.step(dict(zip(env.possible_agents, best.tolist())))
            if any(term.values()) or any(trunc.values()):
                info = infos[env.possible_agents[0]]
                wins += int(bool(info.get("won")))
                scores.append(float(info["score"]))
                break
    return wins / games, float(np.mean(scores))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--preset", default="fuse-2-training", help=f"fuse-2-training or {', '.join(PRESETS)}")
    ap.add_argument("--envs", type=int, default=8)
    ap.add_argument("--rollout", type=int, default=128, help="steps per environment between updates")
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--lr", type=float, default=2.5e-4)
    ap.add_argument("--gamma", type=float, default=0.995)
    ap.add_argument("--lam", type=float, default=0.95)
    ap.add_argument("--clip", type=float, default=0.2)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--minibatches", type=int, default=4)
    ap.add_argument("--ent-coef", type=float, default=0.01)
    ap.add_argument("--step-cost", type=float, default=0.01, help="reward taken from every step")
    ap.add_argument("--eval-every", type=int, default=20_000, help="environment steps between evaluations")
    ap.add_argument("--eval-games", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=Path("selfplay.png"))
    a = ap.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(a.seed)
    presets = {**PRESETS, TWO_TRAINING.name: TWO_TRAINING}
    if a.preset not in presets:
        raise SystemExit(f"--preset must be one of {', '.join(presets)}")
    preset = presets[a.preset]
    options: dict[str, object] = dict(preset.options)
    team = Team(a.envs, options, a.seed)
    seats = len(team.agents)
    rows = a.envs * seats
    probe = team.envs[0]
    agent = Agent(probe.observation_space(team.agents[0])["observation"].shape[0],
                  probe.action_space(team.agents[0]).n)
    optimiser = torch.optim.Adam(agent.parameters(), lr=a.lr, eps=1e-5)
    print(f"self-play on {options}: {a.envs} environments x {seats} seats, {a.minutes} min")
    baselines = {}
    for name in ("random", "first", "greedy", "play"):
        r = evaluate_policy(preset, name, a.eval_games)
        baselines[name] = (r.win_rate, r.mean_score)
        print(f"  {name:>8}: won {100 * r.win_rate:5.1f}%  score {r.mean_score:5.1f}")
    curve: list[tuple[int, float, float]] = []
    steps, next_eval = 0, 0
    start = time.perf_counter()
    T = a.rollout
    while time.perf_counter() - start < a.minutes * 60:
        if steps >= next_eval:
            win, score = evaluate(agent, options, a.eval_games)
            curve.append((steps, win, score))
            print(f"  {steps:>8} steps: won {100 * win:5.1f}%  score {score:5.1f}  "
                  f"({time.perf_counter() - start:.0f} s)", flush=True)
            next_eval += a.eval_every
        obs_b = torch.zeros((T, rows, probe.match.encoder.size))
        mask_b = torch.zeros((T, rows, probe.match.table.size), dtype=torch.int8)
        act_b = torch.zeros((T, rows), dtype=torch.long)
        logp_b, rew_b, done_b, val_b = (torch.zeros((T, rows)) for _ in range(4))
        for t in range(T):
            obs, masks = team.batch()
            obs_b[t], mask_b[t] = torch.as_tensor(obs), torch.as_tensor(masks)
            with torch.no_grad():
                action, logp, _, value = agent.act(obs_b[t], mask_b[t])
            act_b[t], logp_b[t], val_b[t] = action, logp, value
            rewards, dones = team.step(action.numpy())
            # the score's change, scaled, less a little for every step: every seat may wait at
            # every step and time passes only with the turns, so without it a team that stalls
            # loses nothing until the episode is cut
            rew_b[t] = torch.as_tensor(rewards) / 10.0 - a.step_cost
            done_b[t] = torch.as_tensor(dones)
            steps += a.envs
        with torch.no_grad():
            obs, masks = team.batch()
            last = agent.act(torch.as_tensor(obs), torch.as_tensor(masks))[3]
            adv = torch.zeros((T, rows))
            gae = torch.zeros(rows)
            for t in reversed(range(T)):
                nxt = last if t == T - 1 else val_b[t + 1]
                alive = 1.0 - done_b[t]
                delta = rew_b[t] + a.gamma * nxt * alive - val_b[t]
                gae = delta + a.gamma * a.lam * alive * gae
                adv[t] = gae
            ret = adv + val_b
        flat = T * rows
        b_obs, b_mask = obs_b.reshape(flat, -1), mask_b.reshape(flat, -1)
        b_act, b_logp, b_adv, b_ret = act_b.reshape(-1), logp_b.reshape(-1), adv.reshape(-1), ret.reshape(-1)
        size = flat // a.minibatches
        for _ in range(a.epochs):
            order = torch.randperm(flat)
            for k in range(a.minibatches):
                idx = order[k * size:(k + 1) * size]
                _, logp, entropy, value = agent.act(b_obs[idx], b_mask[idx], b_act[idx])
                ratio = (logp - b_logp[idx]).exp()
                mb_adv = (b_adv[idx] - b_adv[idx].mean()) / (b_adv[idx].std() + 1e-8)
                pg = torch.max(-mb_adv * ratio, -mb_adv * ratio.clamp(1 - a.clip, 1 + a.clip)).mean()
                loss = pg + 0.5 * ((value - b_ret[idx]) ** 2).mean() - a.ent_coef * entropy.mean()
                optimiser.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optimiser.step()
    win, score = evaluate(agent, options, a.eval_games)
    curve.append((steps, win, score))
    print(f"  {steps:>8} steps: won {100 * win:5.1f}%  score {score:5.1f}  (end)")
    plot(curve, baselines, a.out, str(options))


def plot(curve: list[tuple[int, float, float]], baselines: dict[str, tuple[float, float]], out: Path,
         title: str) -> None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot (pip install -e '.[plot]')")
        return
    steps = [c[0] for c in curve]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    left.plot(steps, [100 * c[1] for c in curve], marker="o", label="self-play PPO")
    right.plot(steps, [c[2] for c in curve], marker="o", label="self-play PPO")
    for name, (win, score) in baselines.items():
        left.axhline(100 * win, linestyle="--", linewidth=1, label=name, color=f"C{len(left.lines)}")
        right.axhline(score, linestyle="--", linewidth=1, label=name, color=f"C{len(right.lines)}")
    left.set(xlabel="environment steps", ylabel="games won (%)", ylim=(-2, 102))
    right.set(xlabel="environment steps", ylabel="mean score")
    left.legend(fontsize=8)
    fig.suptitle(f"self-play, shared policy: {title}", fontsize=9)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
