"""A loose card's model finds a state's value by its likeness (``CompiledCard.alike``): states that
differ only in the dice on slots no relation or clause names are worth the same, whether estimated
by roll-outs or solved exactly near the end, so one estimate serves them all and the values are the
ones a model with no such memo finds."""

from __future__ import annotations

import random

import pytest

from fusegame.bots.team import PLAY_WEIGHTS
from fusegame.bots.value import CardModel, type_weights
from fusegame.constraints import EMPTY, CompiledCard, State
from fusegame.rules import GameConfig
from fusegame.rules.state import new_game


def _walk(rules: CompiledCard, model: CardModel, rng: random.Random) -> State | None:
    """A state reached by legal placements, with at least one die on a slot nothing names and two
    or more empty slots."""
    s = rules.empty
    for _ in range(rng.randint(1, len(s) - 2)):
        reps = [rep for rep, _ in model.classes if rules.legal_slots(s, rep)]
        if not reps:
            return None
        rep = rng.choice(reps)
        j = rng.choice(rules.legal_slots(s, rep))
        s = s[:j] + (rep,) + s[j + 1:]
    return s


def _partner(rules: CompiledCard, model: CardModel, s: State, rng: random.Random) -> State | None:
    """``s`` with other dice on the slots whose die the card's rules do not see (None: none such)."""
    out = list(s)
    for i, t in enumerate(s):
        if t == EMPTY:
            continue
        other = rng.choice([rep for rep, _ in model.classes if rules.pred[i] >> rep & 1 and rep != t] or [t])
        trial = out[:i] + [other] + out[i + 1:]
        if rules.alike(tuple(trial)) == rules.alike(s):
            out = trial
    return tuple(out) if tuple(out) != s else None


@pytest.mark.parametrize("config", [GameConfig(game="countdown", players=4), GameConfig(players=5)],
                         ids=["countdown", "fuse"])
def test_states_alike_are_worth_the_same_and_are_estimated_once(config: GameConfig) -> None:
    g = new_game(config, 1)
    weights = tuple(type_weights(g.dice))
    rng = random.Random(5)
    compared = 0
    for card in config.playable.bombs:
        rules = g.card_rules(card.id)
        model = CardModel(card.id, rules, weights, PLAY_WEIGHTS.exact_states, tail=2)
        if not model.big:
            continue
        for _ in range(12):
            s = _walk(rules, model, rng)
            if s is None:
                continue
            other = _partner(rules, model, s, rng)
            if other is None:
                continue
            alone = CardModel(card.id, rules, weights, PLAY_WEIGHTS.exact_states, tail=2)
            assert model.draws(s) == alone.draws(other), (card.id, s, other)
            held = model.states
            assert model.draws(other) == model.draws(s)
            assert model.states <= held + 1, "the partner was estimated again"
            compared += 1
    assert compared >= 20
