"""docs/rules.md's worked examples (H-01 .. H-11) and the FUSE parts of H-17, as tests.

Each position is written as a scenario document (``fusegame.scenario``) and driven through the public
API only: ``legal_actions``, ``apply``, ``to_act``, ``chance_outcomes`` / ``apply_chance``. Slots are
0-based in actions (docs/rules.md writes S1/L1 for slot 0). Unless a test says otherwise the game is solo
(quota 3, docs/rules.md H: "use a 1-2 player game") with feasibility on.
"""

from __future__ import annotations

import random
from collections import Counter
from textwrap import dedent

import pytest

from conftest import die, kinds, of_kind, on_card, place, refused, removals, slots
from fusegame import (
    Decision,
    Difficulty,
    Done,
    Event,
    GameConfig,
    GameState,
    GiveUp,
    IllegalPlacement,
    NotYourDecision,
    Phase,
    Place,
    RerollUnused,
    Setup,
    TakeCard,
    Termination,
    Tick,
    builtin_catalogue,
    new_game,
)
from fusegame.constraints import EMPTY
from fusegame.dice import BLACK, BLUE, GREEN, RED, YELLOW, die_type
from fusegame.rules.setup import _deal_hand
from fusegame.scenario import scenario_from_text

ROW = "row: [F01, F02, F03, F04, F05]\ndeck: [F06, F07, F08]\n"


# --------------------------------------------------------------------------------- positions
def load(doc: str) -> GameState:
    """Build a position from YAML; a document without a ``row`` gets the standard middle (ROW)."""
    text = dedent(doc)
    if "row:" not in text:
        text += "\n" + ROW
    return scenario_from_text(text)


def run_penalties(g: GameState, face: int) -> tuple[int, list[Event]]:
    """Resolve the unused-dice penalty, every reroll showing ``face``; returns (rolls, events)."""
    rolls, events = 0, []
    while g.phase is Phase.PENALTY and not g.is_over:
        if g.is_chance:
            ev = g.apply_chance((face,))
            rolls += 1
        elif removals(g):
            seat, options = next(iter(removals(g).items()))
            ev = g.apply(GiveUp(seat, g.time_ms, options[0]), chance=False)
        else:
            decision = g.to_act()[g.leader]
            assert decision.kind == "reroll"
            ev = g.apply(RerollUnused(g.leader, g.time_ms, decision.options[0]), chance=False)
        events += ev
    return rolls, events


# ---------------------------------------------------------------------------------------- H-01
H01 = """
config: {players: 1}
players:
  - cards: [{id: C1, notation: "? =c|n ? =c|n ?"}]
rolled: [Y5, Y2, B5, R5, B3, R1, G5, Y5, Y3, B2]
"""


def test_h01_chain_card_colour_or_number() -> None:
    g = load(H01)
    assert slots(g, "Y5", "C1") == {0, 1, 2}
    place(g, "Y5", "C1", 0)
    assert 1 in slots(g, "Y2", "C1")  # same colour
    assert 1 in slots(g, "B5", "C1")  # same number
    assert 1 in slots(g, "R5", "C1")
    assert 1 not in slots(g, "B3", "C1") and refused(g, "B3", "C1", 1)
    place(g, "R5", "C1", 1)
    assert slots(g, "R1", "C1") == {2}
    assert slots(g, "G5", "C1") == {2}
    assert slots(g, "Y5", "C1") == {2}
    assert slots(g, "Y3", "C1") == set() and refused(g, "Y3", "C1", 2)  # S1 does not touch S3
    assert slots(g, "B2", "C1") == set()
    ev = place(g, "R1", "C1", 2)
    assert kinds(ev)[-1] == "card_completed"
    assert g.to_act() == {0: Decision("take", ("F01", "F02", "F03", "F04", "F05"))}


def test_h01_defusal_takes_a_row_card_and_refills_the_row() -> None:
    g = load(H01)
    for label, slot in (("Y5", 0), ("R5", 1), ("R1", 2)):
        place(g, label, "C1", slot)
    used = [on_card(g, 0, "C1", s) for s in range(3)]
    ev = g.apply(TakeCard(0, g.time_ms, "F03"), chance=False)
    assert kinds(ev)[:3] == ["bomb_defused", "card_taken", "card_revealed"]
    assert of_kind(ev, "bomb_defused")[0].data == {"seat": 0, "card": "C1", "points": 1}
    assert g.score_pile == ["C1"]
    assert [hc.card for hc in g.hands[0]] == ["F03"]
    assert g.row == ["F01", "F02", "F04", "F05", "F06"]  # refilled from the top of the deck
    assert all(d in g.bag for d in used)


def test_h01_defusal_dice_go_to_the_bag_not_back_to_the_middle() -> None:
    """C.1.3 step 1: a defused card's dice go back in the bag; they are not in the middle any more.

    The live state gets this right; a state rebuilt from its data (``GameState.from_dict``, and so
    any saved game or scenario) does not: ``GameState.refresh_types`` derives the dice left in the
    middle as ``rolled`` minus the dice on cards, forgetting the dice that went back to the bag, so
    R1 (rolled this turn, placed, defused) is offered again although it is in the bag.
    """
    g = load("""
        config: {players: 2}
        players:
          - cards: [{id: C1, notation: "? =c|n ? =c|n ?", dice: [Y5, R5]}]
          - [F10]
        rolled: [R1, G6, K6, B6]
        """)
    ev = place(g, "R1", "C1", 2)
    assert kinds(ev)[-1] == "card_completed"
    r1 = on_card(g, 0, "C1", 2)
    g.apply(TakeCard(0, g.time_ms, "F01"), chance=False)
    assert r1 in g.bag
    assert g.phase is Phase.DISTRIBUTE

    def conserved(state: GameState) -> None:  # every die in exactly one place
        on_cards = [d for hand in state.hands for hc in hand for d in hc.dice if d != EMPTY]
        assert sorted(state.bag + on_cards + state.unplaced()) == list(range(25))
        assert r1 not in {a.die for a in state.legal_actions(0) if isinstance(a, Place)}

    conserved(g)
    conserved(GameState.from_dict(g.to_dict()))


def test_h01_order_is_free() -> None:
    g = load("""
        config: {players: 1}
        players:
          - cards: [{id: C1, notation: "? =c|n ? =c|n ?"}]
        rolled: [G4, G2, B4, Y2]
        """)
    place(g, "G4", "C1", 2)  # S3 first
    assert 1 in slots(g, "G2", "C1")
    assert 1 in slots(g, "B4", "C1")
    assert 1 not in slots(g, "Y2", "C1")


# ---------------------------------------------------------------------------------------- H-02
H02_CARD = '{id: C2, notation: "stack: Y R B G"'


def test_h02_stack_order_and_colours() -> None:
    g = load(f"""
        config: {{players: 1}}
        players:
          - cards: [{H02_CARD}}}]
        rolled: [R3, Y4, B2, R6, B1]
        """)
    assert slots(g, "R3", "C2") == set() and refused(g, "R3", "C2", 0)
    assert slots(g, "Y4", "C2") == {0}
    place(g, "Y4", "C2", 0)
    assert slots(g, "B2", "C2") == set() and refused(g, "B2", "C2", 2)  # no skipping L2
    assert slots(g, "R6", "C2") == {1}
    place(g, "R6", "C2", 1)
    assert slots(g, "B1", "C2") == {2}
    place(g, "B1", "C2", 2)
    g2 = load(f"""
        config: {{players: 1}}
        players:
          - cards: [{H02_CARD}, dice: [Y4, R6, B1]}}]
        rolled: [G5]
        """)
    assert slots(g2, "G5", "C2") == {3}
    assert kinds(place(g2, "G5", "C2", 3))[-1] == "card_completed"


def test_h02_die_under_another_is_safe_from_the_penalty() -> None:
    g = load(f"""
        config: {{players: 1}}
        players:
          - cards: [{H02_CARD}, dice: [Y4, R6]}}]
        unused: [Y1]
        """)
    y4, r6 = on_card(g, 0, "C2", 0), on_card(g, 0, "C2", 1)
    assert g.is_chance and g.phase is Phase.PENALTY
    assert list(g.eligible_dice(0, lambda c, n: bool(c & YELLOW) or n == 2)) == []
    ev = g.apply_chance((2,))  # yellow 2
    assert of_kind(ev, "penalty_rolled") and not of_kind(ev, "die_returned")
    assert g.hands[0][0].dice == [y4, r6, EMPTY, EMPTY]


def test_h02_top_die_is_returned_and_its_level_opens_again() -> None:
    g = load(f"""
        config: {{players: 1}}
        players:
          - cards: [{H02_CARD}, dice: [Y4, R6]}}]
        unused: [R3]
        """)
    r6 = on_card(g, 0, "C2", 1)
    ev = g.apply_chance((1,))  # red 1: R6 matches by colour
    returned = of_kind(ev, "die_returned")
    assert [(e.data["die"]["id"], e.data["slot"]) for e in returned] == [(r6, 1)]
    assert r6 in g.bag
    assert g.phase is Phase.ROLL  # the turn is over; roll the next one
    g.apply_chance(tuple(sorted((die_type(RED, 5), die_type(GREEN, 1), die_type(BLACK, 1)))))
    assert slots(g, "R5", "C2") == {1}
    assert slots(g, "G1", "C2") == set()


# ---------------------------------------------------------------------------------------- H-03
H03 = """
config: {players: 1}
players:
  - cards: [{id: C3, notation: "pyramid: G 3 / K"}]
rolled: [K4, G6, K2, R3, G3]
"""


def test_h03_pyramid_needs_two_dice_under_the_top() -> None:
    g = load(H03)
    assert slots(g, "K4", "C3") == set() and refused(g, "K4", "C3", 2)
    assert slots(g, "G3", "C3") == {0, 1}  # the player picks
    assert slots(g, "G6", "C3") == {0}
    place(g, "G6", "C3", 0)
    assert slots(g, "K2", "C3") == set() and refused(g, "K2", "C3", 2)
    assert slots(g, "R3", "C3") == {1}
    place(g, "R3", "C3", 1)
    assert slots(g, "K2", "C3") == {2}
    assert kinds(place(g, "K2", "C3", 2))[-1] == "card_completed"


def test_h03_g3_on_p2_leaves_p1_needing_green() -> None:
    g = load(H03)
    place(g, "G3", "C3", 1)
    assert slots(g, "G6", "C3") == {0}
    assert slots(g, "R3", "C3") == set()


def test_h03_base_dice_without_a_top_are_not_safe() -> None:
    g = load("""
        config: {players: 1}
        players:
          - cards: [{id: C3, notation: "pyramid: G 3 / K", dice: [G6, R3]}]
        rolled: [B1]
        """)
    base = {on_card(g, 0, "C3", 0), on_card(g, 0, "C3", 1)}
    assert set(g.eligible_dice(0, lambda c, n: True)) == base


# ---------------------------------------------------------------------------------------- H-04
H04 = '{id: C4, notation: "# = # = B#"}'


def test_h04_same_number_and_blue_last() -> None:
    g = load(f"""
        config: {{players: 1}}
        players: [[{H04}]]
        rolled: [R4, K4, K5, B4, Y4, B5]
        """)
    assert 0 in slots(g, "R4", "C4")
    place(g, "R4", "C4", 0)
    assert 1 in slots(g, "K4", "C4")
    assert 1 not in slots(g, "K5", "C4") and refused(g, "K5", "C4", 1)
    assert 2 in slots(g, "B4", "C4")
    assert 2 not in slots(g, "Y4", "C4") and refused(g, "Y4", "C4", 2)  # not blue
    assert 2 not in slots(g, "B5", "C4") and refused(g, "B5", "C4", 2)  # not a 4


def test_h04_blue_first_fixes_the_number() -> None:
    g = load(f"""
        config: {{players: 1}}
        players: [[{H04}]]
        rolled: [B2, R2, R3]
        """)
    assert 2 in slots(g, "B2", "C4")
    place(g, "B2", "C4", 2)
    assert slots(g, "R2", "C4") == {0, 1}
    assert slots(g, "R3", "C4") == set()


# ---------------------------------------------------------------------------------------- H-05
H05 = '{id: C5, notation: "% !=c % !=c %"'


def test_h05_neighbours_in_different_colours() -> None:
    g = load(f"""
        config: {{players: 1}}
        players: [[{H05}}}]]
        rolled: [R1, R5, B5, B2, B6, R3]
        """)
    place(g, "R1", "C5", 0)
    assert 1 not in slots(g, "R5", "C5") and refused(g, "R5", "C5", 1)
    assert 1 in slots(g, "B5", "C5")
    place(g, "B2", "C5", 1)
    assert 2 not in slots(g, "B6", "C5") and refused(g, "B6", "C5", 2)
    assert 2 in slots(g, "R3", "C5")  # only S2 is adjacent
    assert kinds(place(g, "R3", "C5", 2))[-1] == "card_completed"


def test_h05_numbers_never_matter() -> None:
    g = load(f"""
        config: {{players: 1}}
        players: [[{H05}, dice: [R1, B1]}}]]
        rolled: [R1]
        """)
    assert kinds(place(g, "R1", "C5", 2))[-1] == "card_completed"


def test_h05_split_die_shares_a_colour() -> None:
    g = load(f"""
        config: {{players: 1}}
        dice: "4R 4B 4G 4Y 4K 1R/B 1B/G 1G/Y 1Y/K 1K/R"
        players: [[{H05}, dice: [null, B2]}}]]
        rolled: [B/G3, R4]
        """)
    assert 2 not in slots(g, "B/G3", "C5") and refused(g, "B/G3", "C5", 2)
    assert 2 in slots(g, "R4", "C5")


# ---------------------------------------------------------------------------------------- H-06
H06 = '{id: C6, notation: "stack: 3 ? Y|1"'


def test_h06_stack_starts_with_a_three() -> None:
    g = load(f"""
        config: {{players: 1}}
        players: [[{H06}}}]]
        rolled: [Y1, K3, Y4]
        """)
    assert slots(g, "Y1", "C6") == set() and refused(g, "Y1", "C6", 2) and refused(g, "Y1", "C6", 0)
    assert slots(g, "Y4", "C6") == set()
    assert slots(g, "K3", "C6") == {0}


def test_h06_top_is_yellow_or_one() -> None:
    g = load(f"""
        config: {{players: 1}}
        players: [[{H06}, dice: [K3, B5]}}]]
        rolled: [Y6, G1, Y1, G6]
        """)
    assert slots(g, "Y6", "C6") == {2}
    assert slots(g, "G1", "C6") == {2}
    assert slots(g, "Y1", "C6") == {2}
    assert slots(g, "G6", "C6") == set() and refused(g, "G6", "C6", 2)


# ---------------------------------------------------------------------------------------- H-07
H07 = '{id: C7, notation: "stack: # < # < # < #"'


def test_h07_rising_stack_first_die() -> None:
    g = load(f"""
        config: {{players: 1}}
        players: [[{H07}}}]]
        rolled: [R2, R3, R4, R5, R6]
        """)
    for label in ("R4", "R5", "R6"):  # nothing could complete four strictly rising dice
        assert slots(g, label, "C7") == set()
    assert refused(g, "R4", "C7", 0)
    assert slots(g, "R3", "C7") == {0}
    assert slots(g, "R2", "C7") == {0}


def test_h07_rising_stack_second_die() -> None:
    g = load(f"""
        config: {{players: 1}}
        players: [[{H07}, dice: [R2]}}]]
        rolled: [B2, B1, B4, B5]
        """)
    assert slots(g, "B2", "C7") == set()  # strict
    assert slots(g, "B1", "C7") == set()
    assert slots(g, "B4", "C7") == {1}
    assert slots(g, "B5", "C7") == set()  # 5 < x < y has no room
    assert refused(g, "B5", "C7", 1)


def test_h07_two_four_five_six_completes() -> None:
    g = load(f"""
        config: {{players: 1}}
        players: [[{H07}, dice: [R2]}}]]
        rolled: [B4, B5, B6]
        """)
    place(g, "B4", "C7", 1)
    place(g, "B5", "C7", 2)
    assert kinds(place(g, "B6", "C7", 3))[-1] == "card_completed"


def test_h07_strict_fuse_option_allows_a_dead_die() -> None:
    g = load(f"""
        config: {{players: 1, feasibility: false}}
        players: [[{H07}}}]]
        rolled: [R4, R5, R6]
        """)
    assert slots(g, "R4", "C7") == {0}
    place(g, "R4", "C7", 0)
    place(g, "R5", "C7", 1)
    place(g, "R6", "C7", 2)
    hc = g.hand_card(0, "C7")
    assert hc is not None and not hc.complete  # stuck: nothing above 6


# ---------------------------------------------------------------------------------------- H-08
H08 = '{id: C8, notation: "stack: ? ? Y1 ? ?"'


def test_h08_y1_first_fills_the_bottom_level() -> None:
    g = load(f"""
        config: {{players: 1}}
        players: [[{H08}}}]]
        rolled: [Y1]
        """)
    y1 = die(g, "Y1")
    assert slots(g, "Y1", "C8") == {0}
    assert refused(g, "Y1", "C8", 2)
    place(g, "Y1", "C8", 0)
    assert on_card(g, 0, "C8", 0) == y1


def test_h08_third_level_is_yellow_one() -> None:
    g = load(f"""
        config: {{players: 1}}
        players: [[{H08}, dice: [R6, B2]}}]]
        rolled: [R1, Y2, Y1]
        """)
    assert slots(g, "R1", "C8") == set()
    assert slots(g, "Y2", "C8") == set()
    assert slots(g, "Y1", "C8") == {2}
    assert refused(g, "Y1", "C8", 3)  # L4 before L3


# ---------------------------------------------------------------------------------------- H-09
@pytest.mark.parametrize("notation", ["3 1", "# # ; a - b = 2"])
def test_h09_one_in_the_second_space_then_a_three(notation: str) -> None:
    g = load(f"""
        config: {{players: 1}}
        players: [[{{id: C9, notation: "{notation}"}}]]
        rolled: [G1, R3, K3, R4]
        """)
    assert 1 in slots(g, "G1", "C9")
    place(g, "G1", "C9", 1)
    assert slots(g, "R3", "C9") == {0}
    assert slots(g, "K3", "C9") == {0}
    assert slots(g, "R4", "C9") == set() and refused(g, "R4", "C9", 0)
    assert kinds(place(g, "R3", "C9", 0))[-1] == "card_completed"


def test_h09_difference_card_on_an_empty_card() -> None:
    g = load("""
        config: {players: 1}
        players: [[{id: C9, notation: "# # ; a - b = 2"}]]
        rolled: [B5, B1, B2]
        """)
    assert 1 not in slots(g, "B5", "C9") and refused(g, "B5", "C9", 1)  # would need a 7
    assert 0 not in slots(g, "B1", "C9")
    assert 0 not in slots(g, "B2", "C9")


# ---------------------------------------------------------------------------------------- H-10
def h10(carter: str = "[B5]", carrie: str = "[R4, G2]", unused: str = "[R1]") -> GameState:
    return load(f"""
        config: {{players: 3}}
        players:
          - [{{id: CARTER, notation: "? ? ?", dice: {carter}}}]
          - [{{id: KALLEN, notation: "? ? ?", dice: [R2]}}]
          - [{{id: CARRIE, notation: "stack: ? ? ?", dice: {carrie}}}]
        phase: penalty
        unused: {unused}
        """)


def red_or_five(c: int, n: int) -> bool:
    return bool(c & RED) or n == 5


def test_h10_unused_red_five() -> None:
    g = h10()
    b5, r2 = on_card(g, 0, "CARTER", 0), on_card(g, 1, "KALLEN", 0)
    red = g.unused[0]
    assert list(g.eligible_dice(0, red_or_five)) == [b5]
    assert list(g.eligible_dice(1, red_or_five)) == [r2]
    assert list(g.eligible_dice(2, red_or_five)) == []  # R4 is under G2
    assert g.is_chance
    ev = g.apply_chance((5,))
    assert of_kind(ev, "penalty_rolled")[0].data["die"]["die"] == "R5"
    returned = of_kind(ev, "die_returned")
    assert [(e.data["seat"], e.data["die"]["id"]) for e in returned] == [(0, b5), (1, r2)]
    assert [e.data["cause"]["kind"] for e in returned] == ["penalty", "penalty"]
    assert {e.data["cause"]["die"]["die"] for e in returned} == {"R5"}  # the rerolled die, as it landed
    assert {b5, r2, red} <= set(g.bag)  # the red die goes back too
    assert g.hand_card(0, "CARTER").dice[0] == EMPTY  # type: ignore[union-attr]
    assert g.hand_card(1, "KALLEN").dice[0] == EMPTY  # type: ignore[union-attr]
    assert g.hand_card(2, "CARRIE").dice[:2] != [EMPTY, EMPTY]  # type: ignore[union-attr]
    assert g.phase is Phase.ROLL and g.leader == 1


def test_h10_two_eligible_dice_the_player_chooses_one() -> None:
    g = h10(carter="[B5, K5]")
    b5, k5 = on_card(g, 0, "CARTER", 0), on_card(g, 0, "CARTER", 1)
    ev = g.apply_chance((5,))
    assert [e.data["seat"] for e in of_kind(ev, "die_returned")] == [1]  # Kallen's only choice is automatic
    assert g.to_act() == {0: Decision("give_up", (b5, k5))}
    with pytest.raises(NotYourDecision):
        g.apply(GiveUp(2, g.time_ms, b5))
    ev = g.apply(GiveUp(0, g.time_ms, k5), chance=False)
    assert [e.data["die"]["id"] for e in of_kind(ev, "die_returned")] == [k5]
    assert g.hand_card(0, "CARTER").dice[:2] == [b5, EMPTY]  # type: ignore[union-attr]
    assert g.phase is Phase.ROLL


def test_h10_carries_top_g5_must_go() -> None:
    g = h10(carrie="[R4, G5]")
    g5 = on_card(g, 2, "CARRIE", 1)
    ev = g.apply_chance((5,))
    assert (2, g5) in [(e.data["seat"], e.data["die"]["id"]) for e in of_kind(ev, "die_returned")]


def test_h10_two_unused_dice_are_resolved_one_at_a_time() -> None:
    g = h10(unused="[R1, R3]")
    ev1 = g.apply_chance((5,))
    assert len(of_kind(ev1, "die_returned")) == 2
    assert g.is_chance and len(g.unused) == 1  # the second die is rolled only now
    ev2 = g.apply_chance((3,))  # red 3: Kallen's R2 is already gone, so nobody loses anything
    assert not of_kind(ev2, "die_returned")
    assert g.phase is Phase.ROLL


# ---------------------------------------------------------------------------------------- H-11
def h11(deck: str) -> GameState:
    return load(f"""
        config: {{players: 3}}
        players:
          - cards:                                          # Ava
              - {{id: A1, notation: "? ? ?", dice: [R1, B3, Y2]}}
              - {{id: A2, notation: "? ? ?", dice: [B6, G2]}}
            taken: 1
          - [{{id: BOB1, notation: "stack: ? ? ?", dice: [B1, Y3]}}]   # Bob
          - [{{id: J1, notation: "? ?", dice: [K1]}}, {{id: J2, notation: "? ? ?", dice: [B4]}}]  # Jenny
        row: [F01, F02, F03, F04, F05]
        deck: {deck}
        rolled: [G4]
        time_left: 200
        """)


def test_h11_fuse_card_turned_up_by_jennys_refill() -> None:
    g = h11("[fuse:B, F10, F11]")
    b3, b6 = on_card(g, 0, "A1", 1), on_card(g, 0, "A2", 0)
    b4 = on_card(g, 2, "J2", 0)
    assert g.to_act()[0].kind == "take"  # A1 is complete and waits for its replacement
    place(g, "G4", "J1", 1, seat=2)
    ev = g.apply(TakeCard(2, g.time_ms, "F02"), chance=False)
    assert kinds(ev) == ["bomb_defused", "card_taken", "fuse_activated", "die_returned", "die_returned",
                         "card_revealed"]
    assert of_kind(ev, "fuse_activated")[0].data == {"card": "FZB", "effect": "symbol", "shows": ["B"]}
    returned = {(e.data["seat"], e.data["die"]["id"]) for e in of_kind(ev, "die_returned")}
    assert returned == {(0, b6), (2, b4)}  # A1's B3 is complete; Bob's B1 is under Y3
    fuse_b = {"kind": "fuse", "card": "FZB", "shows": ["B"]}
    assert [e.data["cause"] for e in of_kind(ev, "die_returned")] == [fuse_b, fuse_b]
    assert on_card(g, 0, "A1", 1) == b3
    assert g.fuses_activated == ["FZB"]
    assert g.row == ["F01", "F03", "F04", "F05", "F10"]
    g.apply(Tick(-1, 600_000))
    assert g.outcome is not None and not g.outcome.won
    assert g.outcome.score.fuse_points == 2
    assert g.outcome.score.bomb_points == 1 + 1  # J1, and A1: complete (defused) though not yet replaced


def test_h11_two_fuse_cards_in_a_row() -> None:
    g = h11("[fuse:B, fuse:3, F10]")
    y3 = on_card(g, 1, "BOB1", 1)
    place(g, "G4", "J1", 1, seat=2)
    ev = g.apply(TakeCard(2, g.time_ms, "F02"), chance=False)
    assert [e.data["card"] for e in of_kind(ev, "fuse_activated")] == ["FZB", "FZ3"]
    assert (1, y3) in {(e.data["seat"], e.data["die"]["id"]) for e in of_kind(ev, "die_returned")}
    assert on_card(g, 0, "A1", 1) != EMPTY  # B3 on the complete card survives the 3 as well
    assert g.row[-1] == "F10" and len(g.row) == 5


# ---------------------------------------------------------------------------------------- H-17
def bombs_in_middle(g: GameState) -> list[str]:
    fuse_ids = {f.id for f in g.catalogue.fuses}
    return [c for c in g.row + g.deck if c not in fuse_ids]


@pytest.mark.parametrize("seed", range(20))
def test_h17_1_advanced_single_deck_setup(seed: int) -> None:
    config = GameConfig(players=3, setup=Setup.SINGLE_DECK, level_counts={4: 7, 3: 7, 2: 4, 1: 3})  # type: ignore[arg-type]
    g = new_game(config, seed=seed, chance=False)
    middle = bombs_in_middle(g)
    assert len(middle) == 21
    assert Counter(g.bomb(c).points for c in middle) == {4: 7, 3: 7, 2: 4, 1: 3}
    assert len(g.row) == 5 and all(c in middle for c in g.row)  # face-up cards are bombs only
    assert len(g.deck) == 16 + 6
    assert sum(len(h) for h in g.hands) == 6


def points_of(values: list[int]) -> list[str]:
    """Distinct built-in FUSE card ids with these point values (in order)."""
    fuse = builtin_catalogue().of_set("fuse").bombs
    pool = {v: [b.id for b in fuse if b.points == v] for v in set(values)}
    return [pool[v].pop() for v in values]


@pytest.mark.parametrize(("hand", "legal"), [
    ((4, 3), False), ((4, 1), True), ((1, 6), True), ((6, 2), True), ((3, 3), False), ((2, 2), True)])
def test_h17_2_legal_two_card_hands(hand: tuple[int, int], legal: bool) -> None:
    g = GameState(GameConfig(players=2))
    first, second, spare = points_of([*hand, 1])
    pool, rejects = [spare, second, first], []  # dealt from the end
    dealt = _deal_hand(g, pool, rejects, 2)
    if legal:
        assert dealt == [first, second] and rejects == []
    else:
        assert dealt == [first, spare] and rejects == [second]


@pytest.mark.parametrize(("hand", "legal"), [
    ((1, 1, 2, 3), True), ((2, 2, 3, 3), False), ((3, 4, 6, 6), True), ((1, 2, 3, 4), True)])
def test_h17_2_legal_solo_hands(hand: tuple[int, ...], legal: bool) -> None:
    g = GameState(GameConfig(players=1))
    ids = points_of([*hand, 4, 1])
    pool, rejects = ids[::-1], []
    dealt = _deal_hand(g, pool, rejects, 4)
    assert len({g.bomb(c).points for c in dealt}) >= 3
    if legal:
        assert dealt == ids[:4] and rejects == []
    else:
        assert rejects and set(rejects) <= set(ids[:4])


@pytest.mark.parametrize("six", [False, True])
def test_h17_2_dealt_hands_are_always_legal(six: bool) -> None:
    for seed in range(60):
        for players in range(1, 6):
            g = new_game(GameConfig(players=players, six_point_cards=six), seed=seed, chance=False)
            for hand in g.hands:
                values = [g.bomb(hc.card).points for hc in hand]
                if players == 1:
                    assert len(values) == 4 and len(set(values)) >= 3, values
                else:
                    assert len(values) == 2 and min(values) <= 2, values
                if not six:
                    assert 6 not in values


@pytest.mark.parametrize("seed", range(10))
def test_h17_3_four_players_elite(seed: int) -> None:
    g = new_game(GameConfig(players=4, difficulty=Difficulty.ELITE), seed=seed, chance=False)
    assert len(bombs_in_middle(g)) == 26
    assert sum(len(h) for h in g.hands) == 8
    assert len(g.row) == 5 and len(g.deck) - (26 - 5) == 6


@pytest.mark.parametrize(("players", "dice"), [(5, 5), (4, 4), (3, 3), (2, 4), (1, 3)])
def test_h17_4_dice_drawn_per_turn(players: int, dice: int) -> None:
    hands = "\n".join(f"  - [F{10 + p}]" for p in range(players))
    for seed in range(5):
        g = load(f"config: {{players: {players}}}\nseed: {seed}\nplayers:\n{hands}\nphase: roll\n")
        assert g.is_chance and g.phase is Phase.ROLL
        ev = g.sample_chance()
        assert len(of_kind(ev, "dice_rolled")[0].data["dice"]) == dice
        assert len(g.rolled) == dice and len(g.bag) == 25 - dice
    if players == 1:
        outcomes = load("config: {players: 1}\nplayers: [[F10]]\n").chance_outcomes()
        assert {len(t) for t, _ in outcomes} == {3}
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)


def test_h17_5_four_players_three_taken_one_penalty_roll() -> None:
    g = load("""
        config: {players: 4}
        players: [[X1], [X2], [X3], [X4]]
        cards: [{id: X1, notation: "? ? ?"}, {id: X2, notation: "? ? ?"},
                {id: X3, notation: "? ? ?"}, {id: X4, notation: "? ? ?"}]
        rolled: [R1, B1, G1, Y1]
        """)
    place(g, "R1", "X1", 0, seat=0)
    place(g, "B1", "X2", 0, seat=1)
    place(g, "G1", "X3", 0, seat=2)
    g.apply(Done(3, g.time_ms), chance=False)
    assert g.phase is Phase.PENALTY and len(g.unused) == 1
    rolls, ev = run_penalties(g, 6)
    assert rolls == 1 and not of_kind(ev, "die_returned")
    assert g.phase is Phase.ROLL


def test_h17_5_two_players_two_and_one_taken_one_penalty_roll() -> None:
    g = load("""
        config: {players: 2}
        players: [[X1], [X2]]
        cards: [{id: X1, notation: "? ? ?"}, {id: X2, notation: "? ? ?"}]
        rolled: [R1, B1, G1, Y1]
        """)
    place(g, "R1", "X1", 0, seat=0)
    place(g, "B1", "X1", 1, seat=0)
    place(g, "G1", "X2", 0, seat=1)
    assert g.phase is Phase.DISTRIBUTE and set(g.to_act()) == {1}
    g.apply(Done(1, g.time_ms), chance=False)
    rolls, _ = run_penalties(g, 6)
    assert rolls == 1


def test_h17_5_solo_one_taken_two_penalty_rolls_one_after_the_other() -> None:
    g = load("""
        config: {players: 1}
        players: [[{id: X1, notation: "? ? ?"}]]
        rolled: [R1, B1, G1]
        """)
    place(g, "R1", "X1", 0)
    g.apply(Done(0, g.time_ms), chance=False)
    assert len(g.unused) == 2
    assert g.to_act()[0].kind == "reroll"  # different colours: the team picks the order
    g.apply(RerollUnused(0, g.time_ms, g.unused[1]), chance=False)
    g.apply_chance((6,))
    assert len(g.unused) == 1 and g.phase is Phase.PENALTY  # the second is still to come
    rolls, _ = run_penalties(g, 6)
    assert rolls == 1 and g.phase is Phase.ROLL


EMPTY_BAG = """
config: {players: 4}
players:
  - [{id: X1, notation: "? ? ? ? ? ? ? ?", dice: [R1, R2, R3, R4, B1, B2]}]
  - [{id: X2, notation: "? ? ? ? ? ? ? ?", dice: [B3, B4, G1, G2, G3, G4]}]
  - [{id: X3, notation: "? ? ? ? ? ? ? ?", dice: [G5, Y1, Y2, Y3, Y4, Y5]}]
  - [{id: X4, notation: "? ? ? ? ? ? ? ?", dice: [K1, K2, K3, K4, K5]}]
bag: [R, B]
phase: roll
"""


def test_h17_10_short_bag_rolls_what_is_left_and_empty_bag_loses() -> None:
    g = load(EMPTY_BAG)
    assert len(g.bag) == 2
    outcomes = g.chance_outcomes()
    assert {len(t) for t, _ in outcomes} == {2}
    g.apply_chance(tuple(sorted((die_type(RED, 3), die_type(BLUE, 4)))))
    assert len(g.rolled) == 2
    ev = place(g, "R3", "X1", 6, seat=0)
    ev += g.apply(Place(1, g.time_ms, die(g, "B4"), "X2", 6))
    # players 2 and 3 got no die: no penalty; the next turn finds the bag empty
    assert not of_kind(ev, "penalty_rolled") and not of_kind(ev, "die_returned")
    assert g.outcome is not None and not g.outcome.won
    assert g.outcome.reason is Termination.BAG_EMPTY
    assert kinds(ev)[-1] == "game_lost"


def test_h17_10_empty_bag_at_turn_start_is_a_loss() -> None:
    g = load(EMPTY_BAG.replace("bag: [R, B]", "bag: []").replace("[K1, K2, K3, K4, K5]",
                                                                   "[K1, K2, K3, K4, K5, R5, B5]"))
    assert g.bag == []
    assert g.outcome is not None and g.outcome.reason is Termination.BAG_EMPTY


def test_h17_11_placed_dice_never_move() -> None:
    g = load("""
        config: {players: 2}
        players:
          - [{id: X1, notation: "? ? ?", dice: [R1]}, {id: X2, notation: "? ? ?"}]
          - [{id: X3, notation: "? ? ?", dice: [B1]}]
        rolled: [G2, Y3]
        """)
    r1, b1 = on_card(g, 0, "X1", 0), on_card(g, 1, "X3", 0)
    offered = {a.die for a in g.legal_actions() if isinstance(a, Place)}
    assert offered == set(g.unplaced()) and r1 not in offered and b1 not in offered
    for bad in (Place(0, None, r1, "X1", 1), Place(0, None, r1, "X2", 0), Place(0, None, b1, "X2", 0)):
        with pytest.raises(IllegalPlacement):
            g.apply(bad)
    with pytest.raises(IllegalPlacement):  # onto a filled slot
        g.apply(Place(0, None, die(g, "G2"), "X1", 0))
    assert on_card(g, 0, "X1", 0) == r1


@pytest.mark.parametrize("seed", range(12))
def test_h17_11_no_action_moves_a_placed_die(seed: int) -> None:
    g = new_game(GameConfig(players=seed % 5 + 1), seed=seed)
    rnd = random.Random(seed)
    for _ in range(300):
        if g.is_over:
            break
        where = {d: (p, hc.card, s) for p, hand in enumerate(g.hands) for hc in hand
                 for s, d in enumerate(hc.dice) if d != EMPTY}
        ev = g.sample_chance() if g.is_chance else g.apply(rnd.choice(g.legal_actions()))
        returned = {e.data["die"]["id"] for e in of_kind(ev, "die_returned")}
        defused = {e.data["card"] for e in of_kind(ev, "bomb_defused")}
        for d, (p, card, s) in where.items():
            if d in returned or card in defused:
                continue
            assert on_card(g, p, card, s) == d


def test_h17_16_insane_endgame() -> None:
    g = load("""
        config: {players: 2, difficulty: insane}
        players:
          - [{id: P1, notation: "? ?", points: 2, dice: [R1]}]
          - [{id: P2, notation: "? ?", points: 3, dice: [B1]}]
        row: []
        score_pile: [F01, F02]
        rolled: [G2, G3]
        time_left: 100
        """)
    ev = place(g, "G2", "P1", 1, seat=0)
    assert kinds(ev) == ["die_placed", "card_completed", "bomb_defused"]  # no replacement
    assert g.hands[0] == [] and g.outcome is None
    ev = place(g, "G3", "P2", 1, seat=1)
    assert kinds(ev)[-1] == "game_won"
    assert g.outcome is not None and g.outcome.won and g.outcome.reason is Termination.BOMBS_DEFUSED
    assert g.outcome.score.to_dict() == {"win_bonus": 10, "time_bonus": 10, "bomb_points": 1 + 1 + 2 + 3,
                                         "fuse_points": 0, "total": 27}


@pytest.mark.parametrize(("left", "bonus"), [(9, 0), (10, 1), (599, 59)])
def test_h17_17_time_bonus(left: int, bonus: int) -> None:
    g = load(f"""
        config: {{players: 1}}
        players: [[{{id: L, notation: "? ?", points: 2, dice: [R1]}}]]
        row: [F01]
        deck: ["fuse:R"]
        rolled: [B2]
        time_left: {left}
        """)
    place(g, "B2", "L", 1)
    ev = g.apply(TakeCard(0, g.time_ms, "F01"))
    assert kinds(ev)[-1] == "game_won"
    assert g.outcome is not None and g.outcome.won
    assert g.outcome.score.time_bonus == bonus
    assert g.fuses_activated == [] and g.outcome.score.fuse_points == 0  # G-23
    assert g.outcome.score.total == 10 + bonus + 2


def test_a_completed_card_scores_when_time_runs_out_before_its_replacement_is_taken() -> None:
    # C.1.3: a card is defused the moment its last die goes on; the pick is only the follow-up.
    g = load("""
        config: {players: 2}
        players:
          - [{id: DONE, notation: "? ?", points: 3, dice: [R1]}, {id: F10}]
          - [{id: F11}, {id: F12}]
        score_pile: [F13]
        rolled: [B2, G3, Y4, K5]
        time_left: 30
        """)
    place(g, "B2", "DONE", 1, seat=0)
    assert [p.seat for p in g.picks] == [0]  # waiting for seat 0 to take a replacement
    ev = g.apply(Tick(-1, g.time_ms + 30_000))
    assert kinds(ev) == ["game_lost"]
    assert g.outcome is not None and not g.outcome.won and g.outcome.reason is Termination.TIME_UP
    points = builtin_catalogue().bomb("F13").points + 3
    assert g.outcome.score.to_dict() == {"win_bonus": 0, "time_bonus": 0, "bomb_points": points,
                                         "fuse_points": 0, "total": points}
