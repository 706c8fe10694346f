"""The turn (docs/rules.md A.10, C.1, C.3, E.1): the roll, the distribution and the decisions that block
everything else until they are made, in every game of the table; and FUSE's own turn flow that the
rulebook examples do not cover one by one: placing on a card just taken (G-22), the stacks setup's
optional fuse reveal and its win, the leader's penalty order."""

from __future__ import annotations

from textwrap import dedent

import pytest

from conftest import die, kinds, removals
from fusegame import (
    Decision,
    Done,
    GameState,
    GiveUp,
    NotYourDecision,
    Place,
    RerollUnused,
    RevealFuse,
    TakeCard,
    Termination,
)
from fusegame.rules import Game, Phase, dice_per_turn
from fusegame.rules.decisions import push
from fusegame.rules.defusal import Refill
from fusegame.scenario import scenario_from_text
from game_variants import ALL, Variant, all_but, load, variants


def fuse_game(doc: str) -> GameState:
    """A FUSE position from a scenario document."""
    return scenario_from_text(dedent(doc))


# ----------------------------------------------------------------------------- FUSE's turn
def test_two_players_may_put_their_second_die_on_the_card_they_just_took() -> None:
    # G-22: defusal is immediate in FUSE, so the new card can take this turn's remaining dice.
    g = fuse_game("""
        config: {players: 2}
        players:
          - [{id: ONE, notation: "? ?", dice: [R1]}, {id: FULL, notation: "R R R", dice: [R2, R3, null]}]
          - [{id: F10}, {id: F11}]
        cards: [{id: NEW, notation: "6 ?"}]
        row: [NEW, F02, F03, F04, F05]
        deck: [F06, F07]
        rolled: [B2, G6, Y4, K1]
        """)
    g.apply(Place(0, None, die(g, "B2"), "ONE", 1))
    assert g.to_act()[0].kind == "take"
    g.apply(TakeCard(0, None, "NEW"))
    assert [hc.card for hc in g.hands[0]] == ["FULL", "NEW"]
    assert g.row[-1] == "F06"  # the row was refilled from the deck
    assert any(isinstance(a, Place) and a.card == "NEW" for a in g.legal_actions(0))
    g.apply(Place(0, None, die(g, "G6"), "NEW", 0))
    assert g.hand_card(0, "NEW") is not None and g.hand_card(0, "NEW").dice[0] >= 0  # type: ignore[union-attr]
    assert g.taken[0] == 2  # the quota of two is used up
    with pytest.raises(NotYourDecision, match="at most 2"):
        g.apply(Place(0, None, die(g, "Y4"), "NEW", 1))


STACKS = """
    config: {players: 2, setup: stacks}
    players:
      - [{id: ONE, notation: "? ?", dice: [B1]}, {id: F10}]
      - [{id: TWO, notation: "? ?", dice: [R5]}, {id: F11}]
    stacks: {1: [F01], 2: [F15]}
    fuse_deck: ["fuse:5", "fuse:G"]
    rolled: [G2, Y3, K4, R6]
    time_left: 100
    """


def test_stacks_setup_optional_fuse_reveal_then_a_card_from_any_stack() -> None:
    g = fuse_game(STACKS)
    g.apply(Place(0, None, die(g, "G2"), "ONE", 1))
    options = {str(a) for a in g.legal_actions(0) if not isinstance(a, Place)}
    assert options >= {"p0 take F01 @500000", "p0 take F15 @500000", "p0 reveal @500000"}
    ev = g.apply(RevealFuse(0, None))
    # the top fuse card shows 5: seat 1's R5 is its only matching die, so it goes at once
    assert kinds(ev) == ["fuse_activated", "die_returned"]
    assert g.fuses_activated and g.hand_card(1, "TWO").dice == [-1, -1]  # type: ignore[union-attr]
    with pytest.raises(NotYourDecision, match="no fuse card can be revealed"):
        g.apply(RevealFuse(0, None))  # one reveal per defusal
    g.apply(TakeCard(0, None, "F15"))
    assert g.stacks.piles == {1: ["F01"], 2: []} and g.outcome is None  # nothing refills in this setup


def test_stacks_setup_is_won_when_the_last_stack_card_is_taken() -> None:
    g = fuse_game(STACKS)
    g.apply(Place(0, None, die(g, "G2"), "ONE", 1))
    g.apply(TakeCard(0, None, "F15"))
    g.apply(Place(1, None, die(g, "Y3"), "TWO", 1))
    ev = g.apply(TakeCard(1, None, "F01"))
    assert kinds(ev)[-1] == "game_won"
    assert g.outcome is not None and g.outcome.reason is Termination.BOMBS_DEFUSED
    assert g.fuses_activated == []  # the face-down fuse cards were never revealed


def test_the_leader_chooses_the_penalty_order_and_nobody_else_may() -> None:
    g = fuse_game("""
        config: {players: 3}
        leader: 1
        players: [[{id: F10}, {id: F11}], [{id: F12}, {id: F13}], [{id: F14}, {id: F15}]]
        row: [F01, F02, F03, F04, F05]
        deck: [F06]
        phase: penalty
        unused: [R3, B4]
        """)
    assert g.to_act() == {1: g.to_act()[1]} and g.to_act()[1].kind == "reroll"
    blue = next(d for d in g.unused if g.colours_of(d) == "B")
    with pytest.raises(NotYourDecision, match="P2 chooses"):
        g.apply(RerollUnused(0, None, blue))
    g.apply(RerollUnused(1, None, blue), chance=False)
    assert g.is_chance and g.penalty.die == blue


# ----------------------------------------------------------------------------- in every game
#: the turn's roll in the positions below (an epic game's six players roll six dice)
ROLLED = ["G6", "K5", "R4", "G1", "K1", "R2"]


@pytest.mark.parametrize(("variant", "players"), [
    pytest.param(v, p, id=f"{v}-{p}p") for v in ALL for p in (1, 2, 3, 4, 5, 6, 9) if v.seats(p)])
def test_the_leader_draws_one_die_per_player_solo_three_two_players_four(variant: Variant,
                                                                          players: int) -> None:
    # A.10: the quota is 3 solo, 2 for two players, else 1
    g = load(variant, players, {"players": [["? ?"]] * players, "row": ["? ?"], "phase": "roll"})
    dice = dice_per_turn(players)
    assert dice == {1: 3, 2: 4}.get(players, players) and g.is_chance
    if dice <= 3 or variant.game is Game.COUNTDOWN:  # (listing a larger roll's outcomes takes long)
        assert {len(o) for o, _ in g.chance_outcomes()} == {dice}
    bag = len(g.bag)
    g.sample_chance()
    assert len(g.rolled) == len(g.free) == dice and len(g.bag) == bag - dice and g.phase is Phase.DISTRIBUTE
    assert [g.seat_quota(s) for s in range(players)] == [{1: 3, 2: 2}.get(players, 1)] * players


@pytest.mark.parametrize("variant", variants())
def test_an_empty_bag_at_the_start_of_a_turn_loses(variant: Variant) -> None:
    # E.1: the last die in the bag is rolled and placed; the next turn finds the bag empty
    players = variant.fewest(3)
    hands = [["? ?", all_but(variant, players, ["R"])]] + [["? ?"]] * (players - 1)
    g = load(variant, players, {"players": hands, "row": ["? ?"], "bag": ["R"], "phase": "roll"})
    g.sample_chance()
    ev = g.apply(Place(0, None, g.free[0], g.hands[0][0].card, 0), chance=False)
    assert g.outcome is not None and not g.outcome.won and g.outcome.reason is Termination.BAG_EMPTY
    assert kinds(ev)[-2:] == ["turn_ended", "game_lost"] and g.turn == 2 and g.bag == []


@pytest.mark.parametrize("variant", variants())
def test_two_fuse_cards_in_a_row_both_go_off_before_the_row_is_refilled(variant: Variant) -> None:
    players = variant.fewest(3)
    g = load(variant, players, {
        "players": [[{"id": "ONE", "notation": "? ?", "dice": ["R1"]}],
                    [{"id": "TWO", "notation": "? ? ?", "dice": ["B2", "Y2"]}]] + [["? ?"]] * (players - 2),
        "row": ["? ?"] * 5, "deck": ["fuse:B", "fuse:Y", "? ?"], "rolled": ROLLED[:players],
    }, difficulty="expert")
    row, (bottom, yellow, blue) = g.row[:], g.deck
    b2, y2 = g.hands[1][0].dice[:2]
    ev = g.apply(Place(0, None, die(g, "G6"), "ONE", 1), chance=False)
    assert "card_completed" in kinds(ev)
    if g.step3 is not None:  # three players and more: the card is defused in Step 3
        for seat in range(1, players):
            g.apply(Done(seat, None), chance=False)
    assert g.to_act()[0].kind == "take"
    ev = g.apply(TakeCard(0, None, row[0]), chance=False)
    assert kinds(ev)[:7] == ["bomb_defused", "card_taken", "fuse_activated", "die_returned",
                             "fuse_activated", "die_returned", "card_revealed"]
    assert g.step3 is not None or len(ev) == 7  # (after Step 3 the turn goes on to Step 4)
    assert [e.data["card"] for e in ev if e.kind == "fuse_activated"] == [blue, yellow]
    assert [e.data["die"]["id"] for e in ev if e.kind == "die_returned"] == [b2, y2]
    assert g.hand_card(1, "TWO").dice == [-1, -1, -1]  # type: ignore[union-attr]
    assert g.row == row[1:] + [bottom] and g.fuses_activated == [blue, yellow]


@pytest.mark.parametrize("variant", variants())
def test_a_pending_give_up_blocks_every_other_action_until_it_is_made(variant: Variant) -> None:
    # C.3: each player returns a single matching die and chooses which; everyone waits meanwhile
    players = variant.fewest(3)
    g = load(variant, players, {
        "players": [["? ?"], [{"id": "TWO", "notation": "? ? ?", "dice": ["B2", "B5"]}]]
        + [["? ?"]] * (players - 2),
        "row": ["? ?"] * 4, "deck": ["fuse:B", "? ?"], "rolled": ROLLED[:players],
    }, difficulty="expert")
    bottom = g.deck[0]
    b2, b5 = g.hands[1][0].dice[:2]
    push(g, Refill(1))
    g.settle()
    assert g.to_act() == {1: Decision("give_up", (b2, b5))}
    with pytest.raises(NotYourDecision, match="P2 must choose a die to give up"):
        g.apply(Place(2, None, die(g, "K5"), g.hands[2][0].card, 0))
    with pytest.raises(NotYourDecision, match="P2 must choose a die to give up"):
        g.apply(Done(1, None))
    with pytest.raises(NotYourDecision, match="cannot be given up"):
        g.apply(GiveUp(1, None, die(g, "K5")))
    ev = g.apply(GiveUp(1, None, b5))
    assert kinds(ev) == ["die_returned", "card_revealed"]
    assert g.hand_card(1, "TWO").dice == [b2, -1, -1] and b5 in g.bag  # type: ignore[union-attr]
    assert g.row[-1] == bottom and not removals(g)
