"""``GameState.problems()`` (``fusegame.rules.validity``): impossible positions built by hand are
reported with their codes, and no position a game reaches has a problem (every game of the table
and FUSE with the modules: ``tests/game_variants.py``)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from fusegame.constraints import EMPTY
from fusegame.rng import Rng
from fusegame.rules import GameConfig, GameState, Phase, new_game
from fusegame.rules.games import Game
from fusegame.rules.outcome import Outcome, Score, Termination
from fusegame.rules.validity import CODES, Problem
from fusegame.scenario import ScenarioError, scenario_from_data
from game_variants import ALL, Variant, variants


def codes(g: GameState) -> list[str]:
    return [p.code for p in g.problems()]


def fuse_game(seed: int = 3) -> GameState:
    return new_game(GameConfig(players=2), seed)


def countdown_game(seed: int = 3) -> GameState:
    return new_game(GameConfig(game=Game.COUNTDOWN, players=2), seed)


def test_a_new_game_has_no_problems() -> None:
    assert fuse_game().problems() == []
    assert countdown_game().problems() == []


def test_a_die_in_two_places() -> None:
    g = fuse_game()
    die = g.bag[0]
    g.hands[0][0].dice[0] = die
    found = g.problems()
    assert [p.code for p in found] == ["die_twice"]
    p = found[0]
    assert p.facts["die"] == die and p.facts["places"] == ["bag", "players[0].cards[0]"]
    assert p.where == "players[0].cards[0]"
    assert str(p) == f"die {die} is in 2 places (bag, players[0].cards[0]): a die can only be in one place"


def test_a_missing_die() -> None:
    g = fuse_game()
    gone = g.bag.pop()
    found = g.problems()
    assert [p.code for p in found] == ["dice_missing"]
    assert found[0].facts == {"dice": [gone], "total": 25} and found[0].where == "bag"
    assert str(found[0]).startswith("1 dice are nowhere (1 ")


def test_a_die_that_does_not_exist() -> None:
    g = fuse_game()
    g.bag.append(len(g.dice))
    assert codes(g) == ["die_unknown"]


def test_dice_in_the_middle_at_the_wrong_step() -> None:
    g = fuse_game()
    assert g.phase is Phase.DISTRIBUTE and g.free
    g.unused = g.free
    g.free = []
    assert codes(g) == ["dice_out_of_step"]  # unused dice during the distribution


def test_a_card_twice() -> None:
    g = fuse_game()
    card = g.hands[0][0].card
    g.row.append(card)
    found = g.problems()
    assert [p.code for p in found] == ["card_twice"]
    assert found[0].facts["card"] == card and found[0].where == f"row[{len(g.row) - 1}]"


def test_a_card_of_the_wrong_kind() -> None:
    g = fuse_game()
    fuse = next(c for c in g.deck if g.is_fuse(c))
    g.deck.remove(fuse)
    g.row.append(fuse)
    assert codes(g) == ["card_unknown"]
    g.row[-1] = "NO-SUCH-CARD"
    assert codes(g) == ["card_unknown"]


def test_too_many_fuse_cards() -> None:
    g = fuse_game()
    extra = next(f.id for f in g.config.playable.fuses if f.id not in g.deck)
    g.fuses_activated.append(extra)
    assert codes(g) == ["too_many_fuses"]


def test_a_spark_missing() -> None:
    g = countdown_game()
    gone = g.sparks.deck.pop()
    found = g.problems()
    assert [p.code for p in found] == ["sparks_missing"]
    assert found[0].facts["cards"] == [gone] and found[0].where == "spark_deck"
    g.sparks.discard.append(gone)  # face up in the discards: accounted for again
    assert g.problems() == []


def test_a_spark_twice() -> None:
    g = countdown_game()
    g.sparks.discard.append(g.sparks.deck[0])
    assert codes(g) == ["card_twice"]


def test_a_won_position_still_in_play() -> None:
    g = fuse_game()
    g.score_pile += g.row + [c for c in g.deck if g.is_bomb(c)]
    g.row = []
    g.deck = [c for c in g.deck if g.is_fuse(c)]
    found = g.problems()
    assert [p.code for p in found] == ["won_not_over"]
    assert found[0].where == "row" and "would already be won" in str(found[0])


def test_over_with_the_wrong_outcome() -> None:
    g = fuse_game()
    g.outcome = Outcome(True, Termination.BOMBS_DEFUSED, Score(10, 0, 0, 0), 0, False)
    g.phase = Phase.OVER
    assert codes(g) == ["wrong_outcome"]  # won with bombs in the middle
    g.outcome = Outcome(False, Termination.BOMBS_DEFUSED, Score(0, 0, 0, 0), 0, False)
    assert codes(g) == ["wrong_outcome"]  # lost, yet "bombs defused"
    g.outcome = Outcome(False, Termination.BAG_EMPTY, Score(0, 0, 0, 0), 0, False)
    assert codes(g) == ["wrong_outcome"]  # the bag is not empty
    g.outcome = Outcome(False, Termination.TIME_UP, Score(0, 0, 0, 0), 0, False)
    assert g.problems() == []
    g.phase = Phase.DISTRIBUTE
    assert codes(g) == ["phase"]  # an outcome, but not at the over step


def test_a_step_the_game_does_not_have() -> None:
    g = fuse_game()
    g.unused, g.free = g.free, []
    g.phase = Phase.DEFUSE  # FUSE has no Step 3
    assert codes(g) == ["phase"]
    g.phase = Phase.OVER  # over without an outcome
    assert codes(g) == ["phase"]


def test_counts_out_of_range() -> None:
    g = fuse_game()
    g.leader = 2
    assert codes(g) == ["count"] and g.problems()[0].where == "leader"
    g.leader = 0
    g.quota = 5
    assert codes(g) == ["count"]
    g.quota = 2
    g.taken[1] = 3
    assert codes(g) == ["count"] and g.problems()[0].where == "players[1].taken"


def test_a_pick_that_is_owed_nothing() -> None:
    g = fuse_game()
    from fusegame.rules.table import Pick

    g.picks.append(Pick(0, g.hands[0][0].card))  # not complete
    assert codes(g) == ["pick"]


def test_problems_are_data() -> None:
    g = fuse_game()
    g.bag.pop()
    p = g.problems()[0]
    assert isinstance(p, Problem) and p.code in CODES
    data = json.loads(json.dumps(p.to_dict()))
    assert data["code"] == "dice_missing" and data["where"] == "bag" and data["text"] == str(p)


def test_the_scenario_reader_refuses_a_position_with_a_problem() -> None:
    doc = {"config": {"players": 2}, "players": [["? ?"], ["? ?"]], "row": ["? ?"], "rolled": ["R1"],
           "bag": ["R"] * 4}
    with pytest.raises(ScenarioError, match=r"^bag: 20 dice are nowhere .* \(write bag: rest\)$"):
        scenario_from_data(doc)
    with pytest.raises(ScenarioError, match=r"^row: the middle \(row and deck\) has no bomb cards: this game "
                                            r"would already be won \(add row cards\)$"):
        scenario_from_data({**doc, "row": [], "bag": "rest"})
    g = scenario_from_data({**doc, "bag": "rest"})
    assert g.problems() == []


def test_a_spark_used_twice_in_a_scenario() -> None:
    doc = {"config": {"game": "countdown", "players": 1}, "players": [["S02"]], "row": ["? ?"],
           "spark_discard": ["S02"]}
    with pytest.raises(ScenarioError, match=r"^spark_discard\[0\]: card 'S02' is already used"):
        scenario_from_data(doc)


def play(g: GameState, seed: int, steps: int = 400) -> int:
    """Random legal actions (and now and then a moment of time) until the end or ``steps``;
    ``problems()`` after each; returns the positions checked."""
    rng = Rng(seed)
    seen = 0
    for _ in range(steps):
        assert g.problems() == [], (g, [str(p) for p in g.problems()])
        seen += 1
        if g.is_over:
            break
        acts = g.legal_actions()
        assert acts, g
        a = acts[rng.below(len(acts))]
        g.apply(replace(a, at=g.time_ms + rng.below(4000)))
    return seen


@pytest.mark.parametrize("v", variants())
def test_every_position_of_random_games_is_possible(v: Variant) -> None:
    for players in sorted({v.fewest(1), v.fewest(3), v.spec.players[1]}):
        if not v.seats(players):
            continue
        config = GameConfig(game=v.game, modules=v.modules, players=players)
        for seed in (1, 2):
            g = new_game(config, seed)
            play(g, seed)
            # the JSON copy of the last position is as possible
            assert GameState.from_dict(json.loads(json.dumps(g.to_dict()))).problems() == []


def test_the_variants_cover_every_kind_of_game() -> None:
    assert {v.game for v in ALL} == set(Game) and any(v.modules for v in ALL)


def test_every_code_is_documented() -> None:
    g = fuse_game()
    g.hands[0][0].dice[0] = g.bag[0]
    g.bag.pop()
    g.leader = 5
    g.row.append(g.row[0])
    found = g.problems()
    assert {"die_twice", "dice_missing", "count", "card_twice"} <= {p.code for p in found}
    assert all(p.code in CODES for p in found) and EMPTY not in g.bag
