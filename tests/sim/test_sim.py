"""Simulation: the pace model, random play, determinism of games and batches."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import make_countdown_config
from fusegame.bots.team import PLAY_WEIGHTS, TeamPlanner, Weights
from fusegame.cards import load_catalogue
from fusegame.constraints import EMPTY
from fusegame.record import replay
from fusegame.rng import Rng
from fusegame.rules import GameConfig, Termination
from fusegame.rules.actions import Action, Tick
from fusegame.rules.events import Event
from fusegame.rules.state import GameState
from fusegame.sim import BatchStats, Pace, game_seed, get_policy, play_game, random_policy, run_batch

DATA = Path(__file__).resolve().parents[1] / "data"
MINI = load_catalogue(DATA / "mini_cards.toml")


def config(**kw: object) -> GameConfig:
    kw.setdefault("cards", MINI)
    return GameConfig(**kw)  # type: ignore[arg-type]


def test_same_seed_same_game() -> None:
    cfg = config(players=3)
    a = play_game(cfg, 17, random_policy, record=True)
    b = play_game(cfg, 17, random_policy, record=True)
    assert a == b
    assert a.record is not None and b.record is not None
    assert a.record.actions == b.record.actions
    c = play_game(cfg, 18, random_policy, record=True)
    assert c.record is not None and c.record.actions != a.record.actions


class Seen:
    """Everything a watcher of ``play_game`` is told."""

    def __init__(self) -> None:
        self.turns: list[int] = []
        self.actions: list[Action] = []
        self.placed = 0
        self.last: GameState | None = None

    def turn(self, state: GameState) -> None:
        self.turns.append(state.turn)

    def acted(self, state: GameState, action: Action, events: list[Event]) -> None:
        self.actions.append(action)
        self.placed += sum(1 for e in events if e.kind == "die_placed")

    def over(self, state: GameState) -> None:
        self.last = state


@pytest.mark.parametrize("policy", ["random", "play"])
def test_a_watched_game_is_the_same_game_and_the_watcher_sees_all_of_it(policy: str) -> None:
    # the benches that count what happens in a game read it through a watcher: the events it
    # turns on must not change the game, and it must see every turn, action and placement
    cfg = config(players=3)
    seen = Seen()
    watched = play_game(cfg, 11, get_policy(policy), record=True, watch=seen)
    plain = play_game(cfg, 11, get_policy(policy), record=True)
    assert watched == plain
    assert watched.record is not None
    assert seen.actions == [a for a in watched.record.actions if not isinstance(a, Tick)]
    assert seen.turns == list(range(1, watched.turns + 1))
    assert seen.last is not None and seen.last.outcome == watched.outcome
    on_cards = sum(1 for h in seen.last.hands for hc in h for d in hc.dice if d != EMPTY)
    assert seen.placed >= on_cards > 0


def test_pace_model_times_every_turn() -> None:
    cfg = config(players=4)
    pace = Pace(turn_seconds=12, die_seconds=1)
    result = play_game(cfg, 5, random_policy, pace, record=True)
    assert result.record is not None
    by_turn: dict[int, set[int | None]] = defaultdict(set)
    turn, expected = 1, [pace.turn_ms(4)]
    for action, _, state in replay(result.record):
        by_turn[turn].add(action.at)
        if state.turn != turn and not state.is_over:
            turn = state.turn
            expected.append(expected[-1] + pace.turn_ms(len(state.rolled)))
    for t, times in by_turn.items():
        assert times == {expected[t - 1]}, f"turn {t}"  # all actions of a turn carry its end time
    assert pace.turn_ms(4) == 16_000


def test_games_end_by_time() -> None:
    cfg = config(players=4)
    result = play_game(cfg, 2, random_policy, Pace(turn_seconds=100, die_seconds=0))
    assert result.outcome is not None and not result.won
    assert result.outcome.reason is Termination.TIME_UP
    assert result.turns == 6  # turns end at 100, 200, ..., the 6th would end at 600 s = the limit
    assert result.time_ms == 600_000


def test_easy_cards_can_be_won_and_score_the_time_left() -> None:
    cfg = config(players=2)
    wins = [r for r in (play_game(cfg, s, random_policy) for s in range(12)) if r.won]
    assert wins
    for r in wins:
        assert r.outcome is not None and r.outcome.reason is Termination.BOMBS_DEFUSED
        assert r.outcome.time_left_ms == 600_000 - r.time_ms
        assert r.outcome.score.time_bonus == (600_000 - r.time_ms) // 10_000
        assert r.score == r.outcome.score.total


def test_untimed_games_run_to_the_end_or_stop_at_max_turns() -> None:
    cfg = config(players=3, time_limit=None)
    cut = play_game(cfg, 1, random_policy, max_turns=5)
    assert cut.outcome is None and cut.turns == 5 and not cut.won
    assert cut.time_ms == 5 * Pace().turn_ms(3)
    full = play_game(cfg, 1, random_policy)
    assert full.outcome is not None and full.outcome.reason is not Termination.TIME_UP
    assert full.outcome.time_left_ms is None and not full.outcome.official
    assert full.turns > 5 and full.time_ms > 600_000  # untimed: no loss on time


def test_random_policy_is_uniform_over_all_seats() -> None:
    from fusegame.rules import new_game

    state = new_game(config(players=3), 4)
    legal = state.legal_actions()
    rng = Rng(9)
    seen: set[Action] = {random_policy(state, rng) for _ in range(3000)}
    assert seen == set(legal)  # every legal action of every seat gets picked
    assert {a.seat for a in seen} == {0, 1, 2}


def test_batch_is_deterministic() -> None:
    cfg = config(players=2)
    calls: list[tuple[int, int]] = []
    a = run_batch(cfg, 12, 7, random_policy, progress=lambda d, t: calls.append((d, t)))
    b = run_batch(cfg, 12, 7, random_policy)
    c = run_batch(cfg, 12, 8, random_policy)

    def strip(s: BatchStats) -> dict[str, object]:
        return {k: v for k, v in s.to_dict().items() if k != "games_per_second"}

    assert strip(a) == strip(b)
    assert strip(a) != strip(c)
    assert calls == [(i, 12) for i in range(1, 13)]
    assert a.games == 12 and a.wins + a.losses == 12 and a.games_per_second > 0
    assert set(a.to_dict()) == {"games", "wins", "losses", "mean_score", "mean_turns", "games_per_second"}


def test_batch_matches_its_games() -> None:
    cfg = config(players=3)
    stats = run_batch(cfg, 5, 123, random_policy)
    games = [play_game(cfg, game_seed(123, i), random_policy) for i in range(5)]
    assert stats.wins == sum(g.won for g in games)
    assert stats.mean_score == pytest.approx(sum(g.score for g in games) / 5, abs=1e-4)
    assert stats.mean_turns == pytest.approx(sum(g.turns for g in games) / 5, abs=1e-4)
    assert len({game_seed(123, i) for i in range(1000)}) == 1000
    assert game_seed(123, 0) != game_seed(124, 0)


def test_a_policy_name_may_change_the_planners_weights() -> None:
    play = get_policy("play:dud_gain=1,branch=4")
    assert isinstance(play, TeamPlanner)
    # the rest of the planner in play's weights stay as they are
    assert play.w == replace(PLAY_WEIGHTS, dud_gain=1.0, branch=4) and isinstance(play.w.branch, int)
    team = get_policy("team:take_size=10")
    assert isinstance(team, TeamPlanner) and team.w == Weights(take_size=10.0)
    cfg = GameConfig(players=3, difficulty="expert")
    names = ("play", "team:take_size=10,dud_gain=0.25,penalty_after_plan=1,exact_states=3000,exact_tail=3,"
             "look_rolls=32,look_weight=0.5,take_look=10,take_look_size=4,win_bonus=100,take_points=0",
             "play:dud_gain=1")
    records = [play_game(cfg, 4, get_policy(p), record=True).record for p in names]
    same, spelt, every_card = ([str(a) for a in r.actions] for r in records if r is not None)
    assert same == spelt  # the same weights, however named: the same game
    assert same != every_card  # late in the game, the cards that can still win come first


def test_bad_inputs() -> None:
    with pytest.raises(ValueError, match="unknown policy"):
        get_policy("genius")
    with pytest.raises(ValueError):
        run_batch(config(players=2), 0, 1, random_policy)
    with pytest.raises(ValueError):
        Pace(turn_seconds=-1)
    assert BatchStats.of([], 1.0).games == 0


# ====================================================================== Countdown games
@pytest.mark.parametrize("kw", [
    {"game": "countdown", "players": 4},
    {"game": "countdown", "players": 2, "difficulty": "expert"},
    {"game": "integrated", "players": 3, "difficulty": "heroic"},
    {"game": "epic", "players": 8},
    {"game": "fuse", "modules": "roles sparks split-dice", "players": 5},
], ids=lambda kw: "-".join(str(v).replace(" ", "+") for v in kw.values()))
def test_countdown_style_games_play_out_and_replay(kw: dict[str, object]) -> None:
    cfg = make_countdown_config(**kw)
    a = play_game(cfg, 21, random_policy, record=True)
    b = play_game(cfg, 21, random_policy, record=True)
    assert a == b and a.outcome is not None
    assert a.record is not None and a.record.outcome == a.outcome
    *_, (_, _, last) = replay(a.record)
    assert last.outcome == a.outcome and last.is_over
    assert a.score == a.outcome.score.total >= 2 * len(last.sparks.defused)
    assert a.outcome.score.spark_points == 2 * len(last.sparks.defused)
    checked = play_game(cfg, 21, random_policy, checked=True)  # every action validated
    assert checked.outcome == a.outcome and checked.actions == a.actions


def test_an_unfinished_countdown_game_scores_its_sparks() -> None:
    cfg = make_countdown_config(game="countdown", players=2, time_limit=None)
    for seed in range(10):
        cut = play_game(cfg, seed, random_policy, max_turns=12, record=True)
        assert cut.record is not None
        if cut.outcome is not None:
            continue
        *_, (_, _, last) = replay(cut.record)
        if not last.sparks.defused:
            continue
        points = sum(last.bomb(c).points for c in last.score_pile)
        assert cut.score == points + 2 * len(last.fuses_activated) + 2 * len(last.sparks.defused)
        return
    raise AssertionError("no unfinished game with a defused spark in 10 seeds")


def test_countdown_batches_are_deterministic() -> None:
    cfg = make_countdown_config(game="epic", players=6)
    a = run_batch(cfg, 4, 2, random_policy)
    b = run_batch(cfg, 4, 2, random_policy)
    assert {k: v for k, v in a.to_dict().items() if k != "games_per_second"} == {
        k: v for k, v in b.to_dict().items() if k != "games_per_second"}
    assert a.games == 4 and a.mean_turns > 0


@pytest.mark.parametrize("policy", ["random", "greedy", "team"])
@pytest.mark.parametrize("kw", [
    {"players": 1}, {"players": 4}, {"game": "countdown", "players": 2, "difficulty": "expert"},
    {"game": "countdown", "players": 4}, {"game": "integrated", "players": 4},
], ids=["fuse-1", "fuse-4", "countdown-2", "countdown-4", "integrated-4"])
def test_games_leave_no_reference_cycles(policy: str, kw: dict[str, object]) -> None:
    # simulations freeze what survives a game without a full collection (memos.freeze_survivors),
    # so a cycle made during a game could outlive it for good: the engine and its bots make none
    import gc
    config = GameConfig(**kw)  # type: ignore[arg-type]
    p = get_policy(policy)
    gc.collect()
    gc.disable()
    try:
        for i in range(3):
            play_game(config, game_seed(5, i), p, Pace())
        found = gc.collect()
    finally:
        gc.enable()
    assert found == 0
