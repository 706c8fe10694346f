"""Explicit chance: ``chance_outcomes`` / ``apply_chance`` / ``sample_chance`` (OpenSpiel style).

* the outcomes of the turn's roll and of a penalty reroll are distinct, have positive probabilities
  that sum to 1, and every one applies cleanly with ``apply_chance``;
* the probability of a simple event computed from ``chance_outcomes`` matches the exact value, and
  the frequency seen when sampling with fixed seeds matches it too (bounded, so never flaky).
"""

from __future__ import annotations

from collections import Counter
from math import comb, isclose

import pytest

from conftest import make_config
from fusegame.dice import COLOURS, RED, type_colours, type_face
from fusegame.rng import Rng
from fusegame.rules import (
    Done,
    GameState,
    IllegalAction,
    Phase,
    RerollUnused,
    dice_per_turn,
    new_game,
)

N_DICE = 25


def census(g: GameState) -> int:
    extra = g.unplaced() if g.phase is Phase.DISTRIBUTE else g.unused if g.phase is Phase.PENALTY else []
    return len(g.bag) + g.dice_on_cards() + len(extra)


def check_outcomes(g: GameState, apply_all: bool = True) -> list[tuple[tuple[int, ...], float]]:
    assert g.is_chance
    outs = g.chance_outcomes()
    assert outs, "a chance node with no outcomes"
    assert len({o for o, _ in outs}) == len(outs), "an outcome is listed twice"
    assert all(p > 0 for _, p in outs)
    assert isclose(sum(p for _, p in outs), 1.0, abs_tol=1e-9)
    if apply_all:
        for outcome, _ in outs:
            child = g.clone()
            events = child.apply_chance(outcome)
            assert events, outcome
            assert census(child) == N_DICE, outcome
            assert child.to_dict()["rng"] == g.to_dict()["rng"], "apply_chance must not use the generator"
    return outs


def penalty_node(players: int, seed: int) -> GameState:
    """A game stopped at a penalty reroll: everyone says done, the leader picks an unused die."""
    g = new_game(make_config(players=players), seed, chance=False)
    g.sample_chance()
    for seat in list(g.to_act()):
        g.apply(Done(seat, 1000), chance=False)
    if not g.is_chance:
        assert g.phase is Phase.PENALTY
        die = g.to_act()[g.leader].options[0]
        g.apply(RerollUnused(g.leader, 1000, die), chance=False)
    assert g.is_chance and g.phase is Phase.PENALTY
    return g


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5], ids=lambda p: f"{p}p")
def test_roll_outcomes_sum_to_one(players: int) -> None:
    g = new_game(make_config(players=players), 5, chance=False)
    assert g.phase is Phase.ROLL and g.is_chance and not g.to_act() and not g.legal_actions()
    outs = check_outcomes(g, apply_all=players in (1, 3))  # 4960 outcomes each; 2 and 4 players: 40920
    k = dice_per_turn(players)
    assert all(len(o) == k and list(o) == sorted(o) for o, _ in outs)
    # all k dice red and showing 6: C(5,k)/C(25,k) x (1/6)^k
    all_red_six = tuple([5] * k)  # type of a red 6
    want = comb(5, k) / comb(N_DICE, k) / 6 ** k
    assert isclose(dict(outs)[all_red_six], want, rel_tol=1e-9)


def test_every_roll_outcome_gives_the_dice_it_names() -> None:
    g = new_game(make_config(players=3), 8, chance=False)
    for outcome, _ in g.chance_outcomes()[::97]:
        child = g.clone()
        child.apply_chance(outcome)
        assert child.phase is Phase.DISTRIBUTE
        got = sorted(child.die_type(d) for d in child.rolled)
        assert tuple(got) == outcome
        assert not set(child.rolled) & set(child.bag)


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5], ids=lambda p: f"{p}p")
def test_penalty_reroll_outcomes(players: int) -> None:
    g = penalty_node(players, 21)
    outs = check_outcomes(g)
    assert sorted(o for o, _ in outs) == [(f,) for f in range(1, 7)]
    assert all(isclose(p, 1 / 6) for _, p in outs)
    assert g.penalty is not None
    die = g.penalty.die
    for (face,), _ in outs:
        child = g.clone()
        events = child.apply_chance((face,))
        assert events[0].kind == "penalty_rolled"
        assert events[0].data["die"]["id"] == die and events[0].data["die"]["face"] == face
        assert child.faces[die] == face and die in child.bag


def test_roll_outcomes_with_a_short_bag() -> None:
    """Late in a game the bag may hold fewer dice than a turn draws (C.1.1: draw what is there)."""
    rng = Rng(99)
    for seed in range(40):
        g = new_game(make_config(players=5), seed, chance=False)
        steps = 0
        while not g.is_over and steps < 400:
            if g.is_chance:
                if g.phase is Phase.ROLL and len(g.bag) < dice_per_turn(5):
                    outs = check_outcomes(g, apply_all=False)
                    assert all(len(o) == len(g.bag) for o, _ in outs)
                    return
                g.sample_chance()
            else:
                acts = [a for a in g.legal_actions() if not isinstance(a, Done)] or g.legal_actions()
                g.apply(acts[rng.below(len(acts))], chance=False)
            steps += 1
    pytest.skip("no short-bag roll reached with these seeds")


def test_not_a_chance_node() -> None:
    g = new_game(make_config(players=3), 1)
    assert not g.is_chance and g.chance_outcomes() == []
    with pytest.raises(IllegalAction):
        g.apply_chance((0, 1, 2))


def test_sampling_matches_new_game() -> None:
    """``new_game(chance=False)`` + ``sample_chance()`` is the same game as ``new_game(chance=True)``."""
    for seed in range(5):
        config = make_config(players=3)
        g = new_game(config, seed, chance=False)
        events = g.sample_chance()
        assert [e.kind for e in events] == ["dice_rolled"]
        assert g == new_game(config, seed)


def test_sampled_frequencies_match_the_outcome_probabilities() -> None:
    """Event: at least one red die in the first roll of a 3-player game (3 dice from 25, 5 red).

    Exact: 1 - C(20,3)/C(25,3) = 0.5043...; chance_outcomes must agree to 1e-9, and 3000 seeded
    first rolls must land within 0.05 (about 5.5 standard deviations; the seeds are fixed)."""
    exact = 1 - comb(20, 3) / comb(25, 3)
    config = make_config(players=3)
    outs = new_game(config, 0, chance=False).chance_outcomes()
    from_outcomes = sum(p for o, p in outs if any(type_colours(t) == RED for t in o))
    assert isclose(from_outcomes, exact, abs_tol=1e-9)
    n = 3000
    hits = 0
    faces: Counter[int] = Counter()
    colours: Counter[int] = Counter()
    for seed in range(n):
        g = new_game(config, seed)
        types = [g.die_type(d) for d in g.rolled]
        hits += any(type_colours(t) == RED for t in types)
        faces.update(type_face(t) for t in types)
        colours.update(type_colours(t) for t in types)
    assert abs(hits / n - exact) < 0.05, hits / n
    for f in range(1, 7):  # each face ~1/6 of 9000 dice
        assert abs(faces[f] / (3 * n) - 1 / 6) < 0.03, faces
    for c in COLOURS:  # each colour ~1/5
        assert abs(colours[c] / (3 * n) - 1 / 5) < 0.03, colours


# ----------------------------------------------------------------------------- chance that scales
def test_chance_count_is_the_number_of_outcomes_listed() -> None:
    # given the first roll of small games (single and split dice), when counted and listed,
    # then chance_count() equals the number of outcomes without listing them
    for config in (make_config(players=1), make_config(players=2),
                   make_config(players=1, modules=("split-dice",))):
        g = new_game(config, 5, chance=False)
        assert g.chance_count() == len(g.chance_outcomes())
    assert new_game(make_config(players=3), 5, chance=True).chance_count() == 0  # nothing pending


def test_an_epic_roll_is_counted_described_and_sampled_but_not_listed() -> None:
    # I-02: given a 9-player epic game at its first roll (nine dice of ten colour sets), when a
    # solver asks, then chance_outcomes() refuses with the count and the limit, and chance_count(),
    # chance_dice() and sample_chance_outcome() answer at once, in little memory
    import time
    import tracemalloc

    from fusegame.rules.chance import CHANCE_OUTCOME_LIMIT, TooManyOutcomes

    g = new_game(make_config(players=9, game="epic"), 5, chance=False)
    assert g.is_chance
    tracemalloc.start()
    start = time.perf_counter()
    try:
        n = g.chance_count()
        with pytest.raises(TooManyOutcomes) as refused:
            g.chance_outcomes()
        dice = g.chance_dice()
        outcome = g.sample_chance_outcome(Rng(7))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert time.perf_counter() - start < 5 and peak < 1 << 20
    assert n > CHANCE_OUTCOME_LIMIT and isinstance(refused.value, ValueError)
    assert refused.value.count == n and refused.value.limit == CHANCE_OUTCOME_LIMIT
    assert f"{n:,}" in str(refused.value) and f"{CHANCE_OUTCOME_LIMIT:,}" in str(refused.value)
    assert "sample_chance_outcome" in str(refused.value)
    assert dice is not None and dice.kind == "roll" and dice.dice == 9
    assert sum(dice.bag.values()) == len(g.bag)
    assert isclose(sum(p for _, p in dice.die_distribution()), 1.0)
    # the sampled outcome is a legal one: nine die types, sorted, and it applies
    assert len(outcome) == 9 and list(outcome) == sorted(outcome)
    child = g.clone()
    child.apply_chance(outcome)
    assert len(child.rolled) == 9 and child.to_dict()["rng"] == g.to_dict()["rng"]


def test_sampled_outcomes_follow_the_listed_probabilities() -> None:
    # given a solo roll, when outcomes are sampled from a caller's generator, then every sample
    # is a listed outcome and an event's frequency matches its probability (bounded, never flaky)
    g = new_game(make_config(players=1), 5, chance=False)
    probs = dict(g.chance_outcomes())
    rng = Rng(11)
    samples = [g.sample_chance_outcome(rng) for _ in range(4000)]
    assert all(s in probs for s in samples)
    p_red = sum(p for o, p in probs.items() if any(type_colours(t) == RED for t in o))
    seen = sum(1 for s in samples if any(type_colours(t) == RED for t in s)) / len(samples)
    assert abs(seen - p_red) < 0.05


def test_a_reroll_is_faces_and_a_limit_can_be_lifted() -> None:
    # a penalty reroll: one die, six faces; limit=None lists any event
    g = penalty_node(3, 5)
    dice = g.chance_dice()
    assert dice is not None and dice.kind == "faces" and g.chance_count() == 6
    assert len(g.chance_outcomes(limit=None)) == 6 and len(g.sample_chance_outcome(Rng(1))) == 1
    from fusegame.rules.chance import TooManyOutcomes

    with pytest.raises(TooManyOutcomes, match="6 outcomes"):
        g.chance_outcomes(limit=5)
