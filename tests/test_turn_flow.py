"""Turn flow that the rulebook examples do not cover one by one: placing on a card just taken
(G-22), the stacks setup's optional fuse reveal and its win, chained fuse cards on a refill, the
leader's penalty order, and decisions that block everything else until they are made."""

from __future__ import annotations

from textwrap import dedent

import pytest

from fusegame import (
    GameState,
    GiveUp,
    NotYourDecision,
    Place,
    RerollUnused,
    RevealFuse,
    TakeCard,
    Termination,
)
from fusegame.scenario import scenario_from_text


def load(doc: str) -> GameState:
    return scenario_from_text(dedent(doc))


def die(g: GameState, label: str) -> int:
    return next(d for d in g.unplaced() if g.die_label(d) == label)


def kinds(events: list) -> list[str]:  # type: ignore[type-arg]
    return [e.kind for e in events]


def test_two_players_may_put_their_second_die_on_the_card_they_just_took() -> None:
    # G-22: defusal is immediate in FUSE, so the new card can take this turn's remaining dice.
    g = load("""
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
    g = load(STACKS)
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
    assert g.stacks == {1: ["F01"], 2: []} and g.outcome is None  # nothing refills in this setup


def test_stacks_setup_is_won_when_the_last_stack_card_is_taken() -> None:
    g = load(STACKS)
    g.apply(Place(0, None, die(g, "G2"), "ONE", 1))
    g.apply(TakeCard(0, None, "F15"))
    g.apply(Place(1, None, die(g, "Y3"), "TWO", 1))
    ev = g.apply(TakeCard(1, None, "F01"))
    assert kinds(ev)[-1] == "game_won"
    assert g.outcome is not None and g.outcome.reason is Termination.BOMBS_DEFUSED
    assert g.fuses_activated == []  # the face-down fuse cards were never revealed


def test_two_fuse_cards_in_a_row_both_go_off_before_the_row_is_refilled() -> None:
    g = load("""
        config: {players: 3}
        players:
          - [{id: ONE, notation: "? ?", dice: [R1]}, {id: F10}]
          - [{id: TWO, notation: "? ? ?", dice: [B2, Y2]}, {id: F11}]
          - [{id: F12}, {id: F13}]
        row: [F01, F02, F03, F04, F05]
        deck: ["fuse:B", "fuse:Y", F06]
        rolled: [G6, K5, R4]
        """)
    g.apply(Place(0, None, die(g, "G6"), "ONE", 1))
    ev = g.apply(TakeCard(0, None, "F01"))
    assert kinds(ev) == ["bomb_defused", "card_taken", "fuse_activated", "die_returned",
                         "fuse_activated", "die_returned", "card_revealed"]
    assert [e.data["card"] for e in ev if e.kind == "fuse_activated"] == ["FZB", "FZY"]
    assert g.hand_card(1, "TWO").dice == [-1, -1, -1]  # type: ignore[union-attr]
    assert g.row == ["F02", "F03", "F04", "F05", "F06"]


def test_the_leader_chooses_the_penalty_order_and_nobody_else_may() -> None:
    g = load("""
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
    assert g.is_chance and g.penalty_die == blue


def test_a_pending_give_up_blocks_every_other_action_until_it_is_made() -> None:
    g = load("""
        config: {players: 3}
        players:
          - [{id: ONE, notation: "? ?", dice: [R1]}, {id: F10}]
          - [{id: TWO, notation: "? ? ?", dice: [B2, B5]}, {id: F11}]
          - [{id: F12}, {id: F13}]
        row: [F01, F02, F03, F04, F05]
        deck: ["fuse:B", F06]
        rolled: [G6, K5, R4]
        """)
    g.apply(Place(0, None, die(g, "G6"), "ONE", 1))
    g.apply(TakeCard(0, None, "F01"))
    assert {s: d.kind for s, d in g.to_act().items()} == {1: "give_up"}
    with pytest.raises(NotYourDecision, match="P2 must choose a die to give up"):
        g.apply(Place(2, None, die(g, "K5"), "F12", 0))
    b5 = g.hand_card(1, "TWO").dice[1]  # type: ignore[union-attr]
    ev = g.apply(GiveUp(1, None, b5))
    assert kinds(ev) == ["die_returned", "card_revealed"]
    assert g.hand_card(1, "TWO").dice[1] == -1 and g.row[-1] == "F06"  # type: ignore[union-attr]
