"""The action table covers the engine exactly: every legal engine action of every seat has an
index, distinct actions have distinct indices, an index names back the same action, and so every
index the mask lets through is a legal action. Checked along random games of every kind."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from env_configs import ALL_GAMES
from hypothesis import given, settings
from hypothesis import strategies as st

from fusegame.env.actions import WAIT, ActionTable, NotInTable
from fusegame.env.match import Match
from fusegame.rng import Rng
from fusegame.rules import ACTIONS, GameConfig

_MATCHES: dict[int, Match] = {}


def _match(k: int) -> Match:
    if k not in _MATCHES:
        _MATCHES[k] = Match(GameConfig(**ALL_GAMES[k]))
    return _MATCHES[k]


def check_position(m: Match) -> list[tuple[int, int]]:
    """Assert the table's promises at ``m``'s position; return every seat's legal (seat, index)."""
    g = m.state
    out = []
    for seat in m.actors():
        legal = list(g.legal_actions(seat))
        assert legal, f"seat {seat} is asked to act but has no legal action"
        indices = [m.table.index(g, a) for a in legal]
        assert len(set(indices)) == len(indices), f"two legal actions share an index: {legal}"
        for a, i in zip(legal, indices):
            assert m.decode(seat, i) == a, f"index {i} ({m.table.describe(i)}) does not name {a}"
        mask = m.legal_mask(seat)
        assert mask[WAIT] == 0
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(indices)
        out += [(seat, i) for i in indices]
    return out


@settings(max_examples=40, deadline=None)
@given(k=st.integers(0, len(ALL_GAMES) - 1), seed=st.integers(0, 2**32), steps=st.integers(1, 400))
def test_every_legal_action_has_one_index_and_back(k: int, seed: int, steps: int) -> None:
    m = _match(k)
    m.reset(seed)
    rng = Rng(seed)
    for _ in range(steps):
        if m.over:
            break
        choices = check_position(m)
        assert choices, "a game that is not over has nobody to act"
        seat, index = choices[rng.below(len(choices))]
        action = m.decode(seat, index)
        assert action is not None
        m.state.apply(action)  # validated: a masked-in index is a legal action
        m.settled()


@pytest.mark.parametrize("options", ALL_GAMES, ids=lambda o: "-".join(str(v) for v in o.values()))
def test_whole_games_stay_inside_the_table(options: dict[str, Any]) -> None:
    """Late-game positions too (sparks piling up in front of a player, empty rows, last turns)."""
    m = Match(GameConfig(**options))
    for seed in range(3):
        m.reset(seed)
        rng = Rng(seed + 100)
        while not m.over:
            choices = check_position(m)
            seat, index = choices[rng.below(len(choices))]
            m.play(seat, index)
        assert m.score == m.state.outcome.score.total  # type: ignore[union-attr]


def test_every_kind_of_action_goes_through_the_table() -> None:
    """Penalty choices, card picks, stacks, every role, "roll a 6": each kind of engine action
    turns up in random games and survives the round trip through the table."""
    extra = [({"players": 3, "modules": ("roles",)}, 5),  # a Logistics leader returns a die free
             ({"game": "countdown", "players": 2, "difficulty": "expert", "fuse_cards": 10}, 3)]  # roll a 6
    seen: set[str] = set()
    for options, seed in [(o, 0) for o in ALL_GAMES] + extra:
        m = Match(GameConfig(**options))
        m.reset(seed)
        rng = Rng(seed + 100)
        while not m.over:
            choices = check_position(m)
            seen |= {m.decode(s, i).verb for s, i in choices}  # type: ignore[union-attr]
            seat, index = choices[rng.below(len(choices))]
            m.play(seat, index)
    assert seen == set(ACTIONS) - {"tick"}


def test_table_layout_is_documented_and_contiguous() -> None:
    table = ActionTable.for_config(GameConfig(players=1))
    assert (table.dice, table.hand, table.slots, table.choices) == (3, 4, 6, 5)
    words = [table.describe(i) for i in range(table.size)]
    assert words[:4] == ["wait", "done", "roll", "reveal"]
    assert words[4] == "place r0 h0 s0" and words[table.defuse0 - 1] == "place r2 h3 s5"
    assert words[table.defuse0] == "defuse h0" and words[table.take0] == "take t0"
    assert words[table.give0] == "give h0 s0" and words[table.reroll0 - 1] == "give h3 s5"
    assert words[table.reroll0] == "reroll u0" and words[table.return0] == "return u0"
    assert words[table.name0] == "name R" and words[table.recolour0 - 1] == "name 6"
    assert words[table.recolour0] == "recolour r0 R" and words[table.renumber0] == "renumber r0 1"
    assert words[table.flip0] == "flip r0" and words[table.rethrow0] == "rethrow [0]"
    assert words[-1] == "rethrow [0, 1, 2]"
    assert len(set(words)) == table.size


@pytest.mark.parametrize("options", [ALL_GAMES[0], ALL_GAMES[3], ALL_GAMES[6]],
                         ids=["fuse-1", "fuse-5", "countdown-2"])
def test_a_whole_mask_at_once_gives_what_each_action_gives(options: dict[str, Any]) -> None:
    """``indices`` (the mask's one pass) agrees with ``index`` action by action, refusals too: with
    a table too small for the game, an action past its bounds has no index either way."""
    m = Match(GameConfig(**options))
    small = ActionTable(1, 1, m.table.slots, 1)
    for seed in range(2):
        m.reset(seed)
        rng = Rng(seed)
        refused = 0
        while not m.over:
            g = m.state
            for seat in m.actors():
                legal = list(g.legal_actions(seat))
                assert m.table.indices(g, seat, legal) == [m.table.index(g, a) for a in legal]
                for a in legal:
                    try:
                        expected = small.index(g, a)
                    except NotInTable:
                        refused += 1
                        with pytest.raises(NotInTable):
                            small.indices(g, seat, [a])
                    else:
                        assert small.indices(g, seat, [a]) == [expected]
            choices = check_position(m)
            seat, index = choices[rng.below(len(choices))]
            m.play(seat, index)
        assert refused
