"""One declaration per piece of state: a part's fields are declared once, and cloning, the JSON round
trip, scenario documents and the observation all follow from that declaration.

The proof is a part made up here: ``Tally`` counts the turns that ended and remembers the dice of the
last roll. Added to FUSE's row of the table of games, it is set up with every game, copied with every
clone, saved and restored with the state, written to and read from scenario documents, and shown in
every player's view, although no module outside this file mentions it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, replace

import pytest

from fusegame.observe import observation
from fusegame.rules import GameConfig, GameState, new_game
from fusegame.rules.decisions import ORDER
from fusegame.rules.games import GAMES, Game, game_spec
from fusegame.rules.schema import Count, Dice, Part, ScenarioError, declared
from fusegame.scenario import dump_scenario, scenario_from_data, scenario_from_text


@dataclass
class Tally(Part):
    """Turns that ended, and the dice rolled last (a part made up for this test)."""

    turns: int = declared(Count(), default=0, doc="tally_turns", view="tally_turns")
    last_roll: list[int] = declared(Dice(lambda g: g.rolled), default_factory=list, doc="tally_roll",
                                    view="tally_roll")

    def after_roll(self, g: GameState, drawn: list[int]) -> None:
        self.last_roll = list(drawn)

    def on_turn_end(self, g: GameState) -> None:
        self.turns += 1


Part.register(Tally, "tally")


@pytest.fixture
def tally_in_fuse(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """FUSE's row of the table of games with the tally part added."""
    row = GAMES[Game.FUSE]
    monkeypatch.setitem(GAMES, Game.FUSE, replace(row, parts=row.parts + ("tally",)))
    game_spec.cache_clear()
    yield
    game_spec.cache_clear()


def play_turns(g: GameState, turns: int) -> None:
    """Everyone says done until ``turns`` turns have ended (dice left untaken go to the penalty)."""
    while g.turn <= turns and not g.is_over:
        g.apply(g.legal_actions()[-1])


@pytest.mark.usefixtures("tally_in_fuse")
def test_a_part_named_in_the_table_is_set_up_and_hooked_into_the_turn() -> None:
    g = new_game(GameConfig(players=3, first_leader=0), seed=5)
    tally = g.parts["tally"]
    assert isinstance(tally, Tally)
    assert tally.last_roll == g.rolled and len(tally.last_roll) == 3  # its after_roll hook ran
    play_turns(g, 2)
    assert tally.turns == 2 and tally.last_roll == g.rolled


@pytest.mark.usefixtures("tally_in_fuse")
def test_a_clone_copies_the_part_and_shares_nothing_with_it() -> None:
    g = new_game(GameConfig(players=3), seed=5)
    copy = g.clone()
    copy.parts["tally"].last_roll.append(99)  # type: ignore[attr-defined]
    copy.parts["tally"].turns = 7  # type: ignore[attr-defined]
    tally = g.parts["tally"]
    assert isinstance(tally, Tally) and 99 not in tally.last_roll and tally.turns == 0
    play_turns(copy, 1)  # the copy's hooks are the copy's part's
    assert copy.parts["tally"].turns == 8 and tally.turns == 0  # type: ignore[attr-defined]


@pytest.mark.usefixtures("tally_in_fuse")
def test_the_json_round_trip_keeps_the_part() -> None:
    g = new_game(GameConfig(players=2), seed=9)
    play_turns(g, 1)
    data = json.loads(json.dumps(g.to_dict()))
    assert data["parts"]["tally"] == {"turns": 1, "last_roll": g.rolled}
    back = GameState.from_dict(data)
    assert back == g and back.parts["tally"].turns == 1  # type: ignore[attr-defined]


@pytest.mark.usefixtures("tally_in_fuse")
def test_scenario_documents_write_and_read_the_part() -> None:
    g = new_game(GameConfig(players=2), seed=9)
    play_turns(g, 1)
    doc = dump_scenario(g)
    assert doc["tally_turns"] == 1
    assert doc["tally_roll"] == [f"{g.die_label(d)}@{d}" for d in g.rolled]
    assert scenario_from_data(doc) == g
    written = scenario_from_text("players: [[F10], [F11]]\nrow: [F01]\nrolled: [R5, B2]\n"
                                 "tally_turns: 4\ntally_roll: [B2]\n")
    tally = written.parts["tally"]
    assert isinstance(tally, Tally) and tally.turns == 4
    assert [written.die_label(d) for d in tally.last_roll] == ["B2"]
    with pytest.raises(ScenarioError, match=r"^tally_turns: -1 must be at least 0"):
        scenario_from_text("players: [[F10]]\nrow: [F01]\ntally_turns: -1\n")
    with pytest.raises(ScenarioError, match=r"^tally_roll\[0\]: no G6 die there"):
        scenario_from_text("players: [[F10]]\nrow: [F01]\nrolled: [R5]\ntally_roll: [G6]\n")


@pytest.mark.usefixtures("tally_in_fuse")
def test_every_view_shows_the_part() -> None:
    g = new_game(GameConfig(players=2), seed=9)
    for seat in (0, 1):
        view = observation(g, seat)
        assert view["tally_turns"] == 0 and view["tally_roll"] == g.rolled
        assert "tally" in view["parts"]


def test_games_without_the_part_neither_have_it_nor_accept_its_fields() -> None:
    g = new_game(GameConfig(players=2, game="countdown"), seed=9)
    assert "tally" not in g.parts and "tally_turns" not in observation(g, 0)
    with pytest.raises(ScenarioError, match=r"^tally_turns: this game has no tally"):
        scenario_from_text("config: {game: countdown}\nplayers: [[C10], [C11]]\nrow: [C01]\n"
                           "tally_turns: 2\n")


def test_the_queue_order_is_declared_once_and_covers_every_kind_of_pending_decision() -> None:
    from fusegame.rules.decisions import Pending

    kinds = {name for name, cls in Part.registry.items() if issubclass(cls, Pending)}
    assert kinds == set(ORDER)
