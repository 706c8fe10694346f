"""An action the engine gains later (a new role's, say) gets its templates in the RL action table
from the action registry alone, after every existing index, so that a game's indices never move.

(Not an engine test: the made-up action below is interpreted Python, which the compiled engine's
action classes do not take as subclasses; a real new action is written in ``rules/actions.py``.)"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from fusegame.env import actions as env_actions
from fusegame.env.actions import ActionTable
from fusegame.rules import GameConfig, new_game
from fusegame.rules.actions import ACTIONS, DIE, FACE, VERB_OF, Action, Renumber, arg


@dataclass(frozen=True)
class Nudge(Action):
    """A made-up ability: turn a rolled die to a face (a second die field's worth of positions)."""

    die: int = arg(DIE, -1)
    face: int = arg(FACE, 0)


#: every template of a 3-dice, 4-card, 6-slot, 5-choice table before ``nudge`` is registered
BEFORE = [ActionTable(3, 4, 6, 5).describe(i) for i in range(ActionTable(3, 4, 6, 5).size)]


@pytest.fixture
def nudge() -> Iterator[None]:
    Action.register(Nudge, "nudge")
    env_actions._layout.cache_clear()
    env_actions._by_verb.cache_clear()
    try:
        yield
    finally:
        del ACTIONS["nudge"], VERB_OF[Nudge]
        env_actions._layout.cache_clear()
        env_actions._by_verb.cache_clear()


def test_a_new_verb_goes_after_every_existing_index(nudge: None) -> None:
    table = ActionTable(3, 4, 6, 5)
    assert table.start("nudge") == table.rethrow0 + (1 << 3) - 1, "after the last rethrow mask"
    assert table.size == table.start("nudge") + 3 * 6
    assert table.describe(table.start("nudge")) == "nudge r0 1"
    assert table.describe(table.size - 1) == "nudge r2 6"
    assert [table.describe(i) for i in range(table.start("nudge"))] == BEFORE


def test_a_new_verb_maps_both_ways_in_a_real_position(nudge: None) -> None:
    g = new_game(GameConfig(players=2), 5)
    table = ActionTable.for_config(g.config)
    die = g.rolled[1]
    a = Nudge(g.leader, g.time_ms, die, 4)
    i = table.index(g, a)
    assert table.describe(i) == "nudge r1 4"
    assert table.action(g, g.leader, i) == a
    # an existing verb keeps its index beside it
    r = Renumber(g.leader, g.time_ms, die, 4)
    assert table.describe(table.index(g, r)) == "renumber r1 4"


def test_the_table_without_the_new_verb_is_as_before() -> None:
    assert [sp.verb for sp in ActionTable(3, 4, 6, 5).spans][-2:] == ["flip", "rethrow"]
