"""The roll-out search (research/studies/rollout.py, the research policy ``rollout``): legal,
reproducible, blind to the hidden future, within its budget, and nameable only where registered."""

from __future__ import annotations

import pytest
from rollout import SearchBudget, SearchPolicy, determinise, rollout_policy

from fusegame.rng import Rng
from fusegame.rules import GameConfig, GameState, defusal, new_game
from fusegame.rules.actions import Action
from fusegame.rules.config import Difficulty
from fusegame.sim import Pace, game_seed, get_policy, play_game, register_policy
from fusegame.sim.game import POLICY_SALT
from fusegame.sim.policies import EXTRA_POLICIES, POLICY_FACTORIES

#: the smallest budget that still searches every kind of decision
SMALL = SearchBudget(samples=2, horizon=1, plans=2)


@pytest.mark.parametrize("kw", [
    {"players": 3, "difficulty": "expert"},
    {"players": 2, "difficulty": "standard"},
    {"players": 3, "game": "countdown", "difficulty": "elite"},
])
def test_search_plays_whole_games_with_legal_actions_only(kw: dict[str, object]) -> None:
    config = GameConfig(**kw)  # type: ignore[arg-type]
    result = play_game(config, 3, SearchPolicy(SMALL), checked=True)  # apply() validates each action
    assert result.outcome is not None


def test_search_plays_the_same_game_from_the_same_seed() -> None:
    config = GameConfig(players=3, difficulty=Difficulty.EXPERT)
    first = play_game(config, 8, SearchPolicy(SMALL), record=True)
    used = SearchPolicy(SMALL)
    play_game(config, 9, used)  # what the policy played before changes nothing
    again = play_game(config, 8, used, record=True)
    assert first.record is not None and again.record is not None
    assert [str(a) for a in first.record.actions] == [str(a) for a in again.record.actions]


def _first_choice_of_card(config: GameConfig, seed: int) -> GameState:
    """A real position, played by the planner, where a seat picks between several row cards."""
    state = new_game(config, seed)
    planner = get_policy("team")
    rng = Rng(seed).fork(POLICY_SALT)
    while not state.is_over:
        for dec in state.to_act().values():
            if dec.kind == "take" and len(defusal.options(state)) > 1:
                return state
        state.apply_unchecked(planner(state, rng))
    raise AssertionError("no choice of card in the whole game")


def _other_future(state: GameState) -> GameState:
    """The same position as the players see it, with another deck order and game generator."""
    other = state.clone()
    other.deck.reverse()
    other.rng = Rng(987654321)
    assert other.deck != state.deck or len(state.deck) < 2
    return other


def test_the_decision_does_not_depend_on_the_hidden_deck_order_or_generator() -> None:
    state = _first_choice_of_card(GameConfig(players=3, difficulty=Difficulty.EXPERT), 4)
    other = _other_future(state)
    assert determinise(state, 5).deck == determinise(other, 5).deck
    a: Action = SearchPolicy(SMALL)(state, Rng(77))
    b: Action = SearchPolicy(SMALL)(other, Rng(77))
    assert a == b


def test_a_plan_chosen_for_a_roll_does_not_depend_on_the_hidden_future() -> None:
    config = GameConfig(players=3, difficulty=Difficulty.STANDARD)
    state = new_game(config, 21)
    while not state.unplaced():  # the first roll lands once the game starts
        state.apply_unchecked(get_policy("team")(state, Rng(0)))
    other = _other_future(state)
    a = SearchPolicy(SMALL).choose_plan(state, Rng(3))
    b = SearchPolicy(SMALL).choose_plan(other, Rng(3))
    assert a == b


class Counting(SearchPolicy):
    """Counts roll-outs and the furthest turn any of them reached."""

    def __init__(self, budget: SearchBudget) -> None:
        super().__init__(budget)
        self.rollouts = 0
        self.furthest = 0

    def value(self, g: GameState) -> float:
        self.rollouts += 1
        self.furthest = max(self.furthest, g.turn)
        return super().value(g)


@pytest.mark.parametrize("samples,horizon", [(1, 1), (3, 2)])
def test_the_search_spends_exactly_its_budget(samples: int, horizon: int) -> None:
    state = _first_choice_of_card(GameConfig(players=3, difficulty=Difficulty.EXPERT), 4)
    policy = Counting(SearchBudget(samples=samples, horizon=horizon))
    seat = next(s for s, d in state.to_act().items() if d.kind == "take")
    options = defusal.options(state)
    policy.choose_card(state, seat, options, Rng(1))
    assert policy.rollouts == samples * len(options)
    assert policy.furthest <= state.turn + horizon


def test_the_budget_is_named_with_the_policy() -> None:
    # importing the study's module registered the name; ``fuse sim`` does not offer it
    assert "rollout" in EXTRA_POLICIES and "rollout" not in POLICY_FACTORIES
    policy = get_policy("rollout:3x2")
    assert isinstance(policy, SearchPolicy)
    assert (policy.budget.samples, policy.budget.horizon) == (3, 2)
    assert isinstance(get_policy("rollout"), SearchPolicy)
    with pytest.raises(ValueError, match="rollout:6x4p3"):
        get_policy("rollout:lots")
    with pytest.raises(ValueError):
        SearchBudget(samples=0)


def test_a_product_policy_name_cannot_be_taken() -> None:
    for name in ("play", "team", "search", "rollout:6x4", ""):
        with pytest.raises(ValueError, match="cannot register"):
            register_policy(name, rollout_policy)


@pytest.mark.parametrize("kw", [
    {"players": 1}, {"players": 4}, {"game": "countdown", "players": 2, "difficulty": "expert"},
    {"game": "countdown", "players": 4}, {"game": "integrated", "players": 4},
], ids=["fuse-1", "fuse-4", "countdown-2", "countdown-4", "integrated-4"])
def test_a_game_leaves_no_reference_cycles(kw: dict[str, object]) -> None:
    # as the product's policies (tests/sim/test_sim.py): simulations freeze what survives a game
    # without a full collection, so a cycle made during a game could outlive it for good
    import gc
    config = GameConfig(**kw)  # type: ignore[arg-type]
    policy = get_policy("rollout:2x1p2")
    gc.collect()
    gc.disable()
    try:
        play_game(config, game_seed(5, 0), policy, Pace())
        found = gc.collect()
    finally:
        gc.enable()
    assert found == 0


def test_the_old_name_of_the_roll_out_search_says_its_new_one() -> None:
    # ``search:SxT`` named the roll-out search before ``search`` became the planner in play given
    # the analysis budget: a command line written then must fail with the spelling that works
    with pytest.raises(ValueError, match=r"now rollout:6x4p2\b"):
        get_policy("search:6x4p2")


def test_the_roll_outs_charge_the_pace_of_the_game_played() -> None:
    # a pace study at 8 s a turn must not judge its roll-outs at the default 12 s
    config = GameConfig(players=3, difficulty=Difficulty.STANDARD)
    search = SearchPolicy(SearchBudget(samples=1, horizon=1))
    play_game(config, 2, search, Pace(8, 0.5))
    assert (search.budget.turn_seconds, search.budget.die_seconds) == (8, 0.5)
    assert (search.budget.samples, search.budget.horizon) == (1, 1)
