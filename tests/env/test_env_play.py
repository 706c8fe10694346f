"""What the environments promise a learner: the order of play, the clock, the rewards, hidden
information, determinism, the single-agent view and vectorised use."""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv

import fusegame.env as fenv
from fusegame.bots.team import TeamPlanner
from fusegame.env.actions import WAIT
from fusegame.observe import observation
from fusegame.rng import Rng
from fusegame.rules import Phase
from fusegame.sim.game import Pace


def random_masked(mask: np.ndarray, rng: random.Random) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def play_aec(options: dict[str, Any], seed: int, moves: int = 10_000) -> list[tuple[str, float, bytes]]:
    """A game of random masked actions; the (agent, reward, observation bytes) of every step."""
    env = fenv.env(**options)
    env.reset(seed=seed)
    rng = random.Random(seed)
    trace = []
    for agent in env.agent_iter(max_iter=moves):
        obs, reward, term, trunc, _ = env.last()
        trace.append((agent, reward, obs["observation"].tobytes()))
        env.step(None if term or trunc else random_masked(obs["action_mask"], rng))
    return trace


def test_options_are_those_of_game_config() -> None:
    env = fenv.raw_env(game="countdown", players=2, difficulty="expert")
    assert env.config.game.value == "countdown" and env.config.players == 2
    assert env.possible_agents == ["player_0", "player_1"]
    assert fenv.raw_env().config.players == 4  # GameConfig's default table
    with pytest.raises(TypeError, match="unknown option"):
        fenv.raw_env(player=2)
    with pytest.raises(ValueError):
        fenv.raw_env(render_mode="svg")
    with pytest.raises(ValueError, match="illegal must be one of"):
        fenv.raw_env(illegal="punish")


def test_same_seed_same_game_and_other_seeds_other_games() -> None:
    options = {"game": "countdown", "players": 2, "difficulty": "expert"}
    assert play_aec(options, 7) == play_aec(options, 7)
    assert play_aec(options, 7, 200) != play_aec(options, 8, 200)


def test_rewards_add_up_to_the_final_score() -> None:
    env = fenv.env(players=4)
    env.reset(seed=3)
    rng = random.Random(3)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        env.step(None if term or trunc else random_masked(obs["action_mask"], rng))
    outcome = env.unwrapped.match.state.outcome
    assert outcome is not None
    assert set(total.values()) == {float(outcome.score.total)}  # one team, one score


def test_a_win_pays_its_bonus_on_the_last_step() -> None:
    """The team planner's moves, through the action table, win a solo Training game."""
    env = gymnasium.make(fenv.GYM_ID, difficulty="training").unwrapped
    planner = TeamPlanner()
    obs, info = env.reset(seed=1)
    rewards = []
    done = False
    while not done:
        index = env.match.table.index(env.match.state, planner(env.match.state))
        assert obs["action_mask"][index] == 1
        obs, reward, done, truncated, info = env.step(index)
        rewards.append(reward)
        assert not truncated
    outcome = env.match.state.outcome
    assert outcome.won and info["won"]
    assert sum(rewards) == outcome.score.total
    assert rewards[-1] >= 10 + outcome.score.time_bonus  # the win and the time left come at the end


def test_the_clock_follows_the_pace_model() -> None:
    env = fenv.raw_env(players=1, pace=Pace(12, 1))
    env.reset(seed=5)
    g = env.match.state
    assert g.time_ms == 15_000  # turn 1: 12 s + 3 dice
    # a slow table: 100 s a turn, so turn 6 starts at 10:00 and the game is lost on time
    env = fenv.raw_env(players=1, pace="100+0")
    env.reset(seed=5)
    rng = random.Random(5)
    while not env.terminations["player_0"]:
        env.step(random_masked(env.observe("player_0")["action_mask"], rng))
        assert env.match.state.time_ms == 100_000 * min(env.match.state.turn, 6)
    outcome = env.match.state.outcome
    assert outcome.reason.value == "time-up" and env.match.state.time_ms == 600_000


def test_waiting_passes_the_initiative_round_the_table_and_cannot_stall() -> None:
    env = fenv.raw_env(players=4)
    env.reset(seed=2)
    g = env.match.state
    assert g.phase is Phase.DISTRIBUTE and env.agent_selection == f"player_{g.leader}"
    seen = []
    for _ in range(3):
        seen.append(env.agent_selection)
        assert env.observe(env.agent_selection)["action_mask"][WAIT] == 1
        env.step(WAIT)
    seen.append(env.agent_selection)
    assert seen == [f"player_{(g.leader + k) % 4}" for k in range(4)]
    # the fourth seat of a round of waits must act: every round makes progress
    assert env.observe(env.agent_selection)["action_mask"][WAIT] == 0
    # other seats never have actions while they do not hold the initiative
    assert all(env.observe(a)["action_mask"].sum() == 0 for a in env.agents if a != env.agent_selection)


def test_a_masked_out_action_changes_nothing_when_told_to_ignore_it() -> None:
    env = fenv.raw_env(players=2, illegal="ignore")
    env.reset(seed=4)
    agent = env.agent_selection
    before = env.match.state.to_dict()
    mask = env.observe(agent)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[-1]))
    assert env.match.state.to_dict() == before and env.agent_selection == agent
    assert env.infos[agent]["illegal_action"] and not any(env.terminations.values())


def test_a_masked_out_action_ends_the_episode_with_a_penalty_by_default() -> None:
    # AEC: the seat that sent it is paid -1, the others nothing, and everyone's episode ends
    env = fenv.raw_env(players=3)
    env.reset(seed=4)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[-1]))
    assert all(env.terminations.values()) and env.infos[agent]["illegal_action"]
    assert env.rewards[agent] == -1.0 and all(r == 0.0 for a, r in env.rewards.items() if a != agent)
    # Parallel: the same, while a claim that merely lost a race to an earlier one is only dropped
    par = fenv.parallel_env(players=3, illegal_reward=-5)
    obs, _ = par.reset(seed=4)
    bad = "player_1"
    actions = {a: 0 for a in par.agents}
    actions[bad] = int(np.flatnonzero(obs[bad]["action_mask"] == 0)[-1])
    _, rewards, terms, _, _ = par.step(actions)
    assert all(terms.values()) and rewards[bad] == -5.0 and rewards["player_0"] == 0.0
    # Gymnasium: the episode ends with the penalty
    single = gymnasium.make("fusegame/Fuse-v1", difficulty="training")
    obs, _ = single.reset(seed=2)
    _, reward, terminated, _, info = single.step(0)  # index 0 (wait) is never the learning seat's
    assert terminated and reward == -1.0 and info["illegal_action"]


def test_parallel_claims_are_served_leader_first() -> None:
    """Two seats claim the same die in one step: the first valid claim (leader first) wins."""
    for seed in range(50):
        env = fenv.parallel_env(players=4)
        obs, _ = env.reset(seed=seed)
        m = env.match
        g = m.state
        first, second = g.leader, (g.leader + 1) % 4
        table = m.table
        die_of = {}
        for seat in (first, second):
            for i in np.flatnonzero(obs[f"player_{seat}"]["action_mask"]):
                if table.place0 <= i < table.defuse0:
                    die_of.setdefault(seat, {})[(i - table.place0) // (table.hand * table.slots)] = int(i)
        common = set(die_of.get(first, {})) & set(die_of.get(second, {}))
        if not common:
            continue
        r = min(common)
        actions = {a: WAIT for a in env.agents}
        actions[f"player_{first}"] = die_of[first][r]
        actions[f"player_{second}"] = die_of[second][r]
        _, _, _, _, infos = env.step(actions)
        die = g.rolled[r]
        assert any(die in hc.dice for hc in g.hands[first])
        assert infos[f"player_{second}"].get("dropped") and not infos[f"player_{first}"].get("dropped")
        return
    raise AssertionError("no seed with a die two seats could both place")


def test_observations_hold_no_hidden_information() -> None:
    env = fenv.raw_env(game="countdown", players=3, difficulty="expert")
    env.reset(seed=9)
    g = env.match.state
    vectors = [env.match.observe(s, False) for s in range(3)]
    views = [env.structured_observation(f"player_{s}") for s in range(3)]
    # another deck order, spark deck order, bag faces and generator: nothing a player sees changes
    random.Random(0).shuffle(g.deck)
    random.Random(1).shuffle(g.sparks.deck)  # type: ignore[union-attr]
    for d in g.bag:
        g.set_face(d, 6)
    g.rng = Rng(g.rng.state ^ 0xDEADBEEF)
    for s in range(3):
        assert np.array_equal(env.match.observe(s, False), vectors[s])
        assert env.structured_observation(f"player_{s}") == views[s] == observation(g, s)
    assert all(0 <= v.min() and v.max() <= 1 for v in vectors)


def test_structured_views_in_infos_on_request() -> None:
    env = fenv.parallel_env(players=2, structured=True)
    _, infos = env.reset(seed=1)
    assert infos["player_1"]["view"]["seat"] == 1 and "deck" not in infos["player_1"]["view"]


def test_render_draws_the_table_as_text_and_as_an_image() -> None:
    env = fenv.raw_env(players=1, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "FUSE" in text and "Rolled" in text
    picture = fenv.raw_env(players=1, render_mode="rgb_array")
    picture.reset(seed=1)
    image = picture.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    # one line of text a band of rows: as many bands with ink as the text has lines
    lines = text.splitlines()
    assert image.shape[0] > 10 * len(lines) and image.min() < 100 and image.max() == 255


def test_single_agent_with_the_team_planner_at_the_other_seats() -> None:
    env = gymnasium.make(fenv.GYM_ID, players=3, seat=1, difficulty="training")
    obs, info = env.reset(seed=11)
    inner = env.unwrapped
    rng = random.Random(11)
    done = truncated = False
    while not (done or truncated):
        assert 1 in inner.match.state.to_act()  # asked only when the learning seat may act
        assert obs["action_mask"][WAIT] == 0
        obs, _, done, truncated, info = env.step(random_masked(obs["action_mask"], rng))
    assert done and "won" in info


@pytest.mark.parametrize("vector", [SyncVectorEnv, AsyncVectorEnv])
def test_vectorised_environments(vector: Any) -> None:
    envs = vector([lambda: gymnasium.make(fenv.GYM_ID, mask_in_obs=True) for _ in range(3)])
    obs, _ = envs.reset(seed=[1, 2, 3])
    rng = random.Random(0)
    try:
        for _ in range(60):
            actions = np.array([random_masked(m, rng) for m in obs["action_mask"]])
            obs, rewards, done, truncated, _ = envs.step(actions)
            assert obs["observation"].shape[0] == 3 and rewards.shape == (3,)
    finally:
        envs.close()


def test_gymnasium_same_seed_same_trajectory() -> None:
    def trajectory(env: Any, seed: int | None) -> list[bytes]:
        obs, _ = env.reset(seed=seed)
        rng = random.Random(0)
        out = [obs["observation"].tobytes()]
        for _ in range(150):
            obs, reward, done, truncated, _ = env.step(random_masked(obs["action_mask"], rng))
            out.append(obs["observation"].tobytes() + bytes(str(reward), "ascii"))
            if done or truncated:
                break
        return out

    a = gymnasium.make(fenv.GYM_ID, players=2, partners="greedy")
    b = gymnasium.make(fenv.GYM_ID, players=2, partners="greedy")
    assert trajectory(a, 21) == trajectory(b, 21)
    # unseeded resets after a seeded one continue one reproducible sequence of games
    assert trajectory(a, None) == trajectory(b, None)
    assert trajectory(a, 21) != trajectory(a, 22)


def test_the_id_runs_as_sb3s_make_vec_env_runs_it() -> None:
    """What ``stable_baselines3``'s ``make_vec_env("fusegame/Fuse-v1")`` does, without torch:
    ``gymnasium.make`` of the id (with ``render_mode="rgb_array"`` when asked for video), each
    environment wrapped to count its episodes, stepped side by side in a vector that resets an
    environment whose episode has ended."""
    def make() -> Any:
        return gymnasium.wrappers.RecordEpisodeStatistics(
            gymnasium.make("fusegame/Fuse-v1", difficulty="training", render_mode="rgb_array"))

    vec = gymnasium.vector.SyncVectorEnv([make, make])
    obs, _ = vec.reset(seed=[5, 6])
    rng = np.random.default_rng(5)
    ended = 0
    for _ in range(600):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, rewards, terms, truncs, _ = vec.step(actions)
        assert obs["observation"].shape[0] == 2 and rewards.shape == (2,)
        ended += int(np.sum(terms | truncs))
        if ended >= 2:
            break
    assert ended >= 2  # whole games, and the vector went on past their ends
    frames = vec.call("render")
    assert all(f.dtype == np.uint8 and f.ndim == 3 for f in frames)
    vec.close()
