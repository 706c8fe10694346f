"""research/studies/position_value.py: the positions it reads agree with the game, its features count the
least work the bombs left need, and its fit recovers a known model."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

from conftest import load_study
from fusegame.rules.config import GameConfig
from fusegame.rules.state import GameState
from fusegame.sim import Pace, game_seed, get_policy, play_game


@pytest.fixture(scope="module")
def study() -> ModuleType:
    return load_study("position_value")


def test_positions_follow_the_game(study: ModuleType) -> None:
    # deal 1 of 3 players Training is won by the planner in play
    config = GameConfig(players=3, difficulty="training")
    seen = study.Positions()
    result = play_game(config, game_seed(2026, 1), get_policy("play"), Pace(), watch=seen)
    assert seen.won == result.won
    rows = seen.rows
    # one position for each turn begun before the end, the clock running down and the middle
    # emptying as the game goes
    assert [r["turn"] for r in rows] == list(range(1, len(rows) + 1))
    assert len(rows) in (result.turns, result.turns - 1)
    assert all(a["left_s"] > b["left_s"] for a, b in zip(rows, rows[1:]))
    assert all(a["bombs"] >= b["bombs"] for a, b in zip(rows, rows[1:]))
    assert rows[0]["left_s"] == 600 - 15  # the first turn's 12 s and three dice have passed
    # at the start each seat holds two fresh cards, and no card is ever worth no work
    assert [len(h) for h in rows[0]["hands"]] == [2, 2, 2]
    assert all(w > 0 for r in rows for h in r["hands"] for w in h)


def test_features_count_the_least_work_the_bombs_left_need(study: ModuleType) -> None:
    p = {"turn": 20, "left_s": 120.0, "bombs": 2, "hands": [[9.0, 3.0], [6.0]], "row": [4.0, 12.0],
         "deck": [1.0, 20.0], "bag": 10}
    f = dict(zip(study.NAMES, study.features(p)))
    # two bombs left: the two smallest of the cards in hand and in the row (3 and 4)...
    assert f["work_needed"] == pytest.approx(0.7)
    assert f["work_per_min"] == pytest.approx(0.35)
    assert f["bombs_per_min"] == pytest.approx(1.0)
    # ...of the cards in hand alone (3 and 6), all in hand, and the row's least
    assert f["race_work"] == pytest.approx(0.9)
    assert f["hand_work"] == pytest.approx(1.8)
    assert f["row_least"] == pytest.approx(0.4)
    # the deck's easy card counts only where the deck is seen: the deal's luck
    assert f["luck"] == pytest.approx(0.4)
    without = dict(zip(study.NAMES, study.features({**p, "deck": []})))
    assert without["luck"] == without["work_needed"]


def test_fit_recovers_a_known_model(study: ModuleType) -> None:
    rng = np.random.default_rng(7)
    x = np.column_stack([np.ones(20000), rng.normal(size=20000), rng.normal(size=20000)])
    beta = np.array([0.5, -1.5, 0.8])
    y = (rng.random(20000) < 1 / (1 + np.exp(-(x @ beta)))).astype(float)
    fitted = study.fit_logistic(x, y)
    assert fitted == pytest.approx(beta, abs=0.08)
    # and it predicts better than the base rate alone
    base = np.array([np.log(y.mean() / (1 - y.mean())), 0.0, 0.0])
    assert study.scores(fitted, x, y)[0] < study.scores(base, x, y)[0]


def test_the_card_taken_is_the_one_the_model_values_most(study: ModuleType) -> None:
    # a model that weighs only the work in the hands takes the card of least work on offer
    beta = [0.0] * len(study.NAMES)
    beta[study.NAMES.index("hand_work")] = -1.0
    met: list[tuple[float, float]] = []

    class Checked(study.ValuedCards):  # type: ignore[name-defined,misc]
        def choose(self, state: GameState, seat: int, options: list[str]) -> str:
            card = super().choose(state, seat, options)
            work = {c: study.TP.model(state, c).draws(state.card_rules(c).empty) for c in options}
            met.append((work[card], min(work.values())))
            return card

    policy = Checked(beta)
    play_game(GameConfig(players=3, difficulty="standard"), game_seed(2026, 5), policy, Pace())
    assert len(met) == policy.choices > 0
    assert all(taken == least for taken, least in met)
    # the planner in play, which weighs size and the next roll too, takes another card at times
    assert 0 < policy.changed < policy.choices
