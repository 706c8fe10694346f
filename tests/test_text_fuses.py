"""Countdown's fuse cards (RULES.md A.5, C.2.1, C.3, G-33, G-36, G-37, G-46, G-48, I-10, I-18):
the three text cards and the symbol cards that show a colour and a number.

Positions are set up by hand from the small test deck (``tests/data/countdown_test_cards.toml``);
a fuse card is turned over the way a row refill turns it over (top of the deck, then ``settle``),
or through a real Step 3 defusal.
"""

from __future__ import annotations

from typing import Any

import pytest

from conftest import TESTS, act, die, kinds, put, roll, turn_start
from fusegame.cards import load_catalogue
from fusegame.cards.model import Ability
from fusegame.constraints import EMPTY
from fusegame.rng import Rng
from fusegame.rules import (
    Action,
    Event,
    GameConfig,
    GameState,
    NotYourDecision,
    Phase,
    Termination,
)
from fusegame.rules.state import HandCard

CARDS = load_catalogue(TESTS / "data" / "countdown_test_cards.toml")
ROLE = {r.ability: r.id for r in CARDS.roles}
SPARKS = [s.id for s in CARDS.sparks]


# ----------------------------------------------------------------------------- helpers
def game(hands: list[list[str]], roles: list[Ability | None] | None = None, *, leader: int = 0,
         row: list[str] | None = None, deck: list[str] | None = None, **kw: Any) -> GameState:
    """A Countdown game at the start of a turn (before the draw)."""
    config = GameConfig(players=len(hands), game="countdown", difficulty="expert", cards=CARDS, **kw)
    return turn_start(config, hands, ["T20", "T21", "T22", "T23", "T24"] if row is None else row,
                      ["T25", "T26", "T27"] if deck is None else deck, seed=3,
                      spark_deck=list(reversed(SPARKS)),  # TS01 on top
                      roles=None if roles is None else [ROLE[r] if r else "" for r in roles], leader=leader)


def give(g: GameState, seat: int, card: str) -> None:
    """Put card ``card`` (a bomb or a spark) in front of ``seat``."""
    g.hands[seat].append(HandCard(card, g.bomb(card).shape.size))
    g.refresh_types()


def fire(g: GameState, fuse: str, *after: str) -> list[Event]:
    """A row refill turns fuse card ``fuse`` over (``after``: the cards below it in the deck)."""
    g.deck = [*after, fuse]
    g.refills += 1
    return g.settle()


def cards_of(g: GameState, seat: int) -> list[str]:
    return [hc.card for hc in g.hands[seat]]


# ----------------------------------------------------------------------------- draw a spark
def test_draw_a_spark_gives_every_player_one_spark() -> None:
    g = game([["T01"], ["T02"], ["T03"]])
    ev = fire(g, "TZ8", "T30")
    assert kinds(ev)[:4] == ["fuse_activated", "spark_drawn", "spark_drawn", "spark_drawn"]
    assert ev[0].data["effect"] == "spark"
    assert [cards_of(g, s) for s in range(3)] == [["T01", "TS01"], ["T02", "TS02"], ["T03", "TS03"]]
    assert g.sparks_in_play() == 3 and g.fuses_activated == ["TZ8"]
    assert g.row[-1] == "T30"  # the refill goes on after the fuse card


def test_a_spark_drawn_is_played_like_a_small_bomb_card_and_scores_two() -> None:
    g = game([["T01"], ["T02"], ["T03"]])
    fire(g, "TZ8")
    roll(g, "G5", "B1", "R2")  # TS01 "G5" in front of seat 0
    act(g, f"p0 place d{die(g, 'G5')} TS01 s1")
    act(g, "p1 done")
    ev = act(g, "p2 done")
    assert "spark_defused" in kinds(ev) and g.spark_discard == ["TS01"] and g.sparks_defused == ["TS01"]
    assert not g.picks and g.hand_card(0, "TS01") is None  # no replacement for a spark
    assert g.phase is Phase.ROLL and g.turn == 2


def test_the_spark_discards_are_turned_over_oldest_on_top_when_the_deck_runs_out() -> None:
    # A.6, G-36, I-18: "flip over the discard pile" (no shuffle): the oldest discard is drawn first
    g = game([["T01"], ["T02"], ["T03"]])
    g.spark_deck = ["TS09"]  # one spark left
    g.spark_discard = ["TS03", "TS05", "TS07"]  # oldest first
    ev = fire(g, "TZ8")
    assert "sparks_turned_over" in kinds(ev)
    assert [cards_of(g, s)[-1] for s in range(3)] == ["TS09", "TS03", "TS05"]
    assert g.spark_deck == ["TS07"] and g.spark_discard == []


def test_the_spark_discards_are_shuffled_with_the_shuffle_option() -> None:
    orders = set()
    for seed in range(12):
        g = game([["T01"], ["T02"], ["T03"]], shuffle_sparks=True)
        g.rng = Rng(seed)
        g.spark_deck = []
        g.spark_discard = ["TS03", "TS05", "TS07"]
        fire(g, "TZ8")
        drawn = tuple(cards_of(g, s)[-1] for s in range(3))
        assert sorted(drawn) == ["TS03", "TS05", "TS07"]
        orders.add(drawn)
    assert len(orders) > 1  # not always the turned-over order


def test_with_every_spark_in_play_a_player_gives_up_a_die_of_their_choice_instead() -> None:
    # F.3 epic fallback, used in every mode (G-37); safe dice stay safe (C.3 [REC])
    g = game([["T24"], ["T09"], ["T14"]])
    g.spark_deck, g.spark_discard = [], []
    a, b = put(g, 0, "T24", 0, "R1"), put(g, 0, "T24", 1, "B2")  # two unsafe dice: a choice
    low = put(g, 1, "T09", 0, "G1")
    top = put(g, 1, "T09", 1, "G3")  # stack: only the top die can go
    put(g, 2, "T14", 0, "B4")  # must-be-first slot: safe
    ev = fire(g, "TZ8")
    assert kinds(ev).count("no_spark_left") == 3
    assert top in g.bag and low not in g.bag  # seat 1's only choice was taken at once
    assert set(g.removals[0]) == {a, b}
    assert 2 not in g.removals
    with pytest.raises(NotYourDecision):
        act(g, "p1 done")  # everything waits for seat 0's choice
    with pytest.raises(NotYourDecision, match="cannot be given up"):
        act(g, f"p0 give d{low}")
    act(g, f"p0 give d{b}")
    assert b in g.bag and a not in g.bag and not g.removals


# ----------------------------------------------------------------------------- lose role ability
def test_lose_role_ability_turns_every_role_face_down_and_the_next_leader_cannot_use_it() -> None:
    g = game([["T01", "T24"], ["T02", "T24"], ["T03", "T24"]],
             [Ability.CUTTER, Ability.TECHNOLOGIST, Ability.DISPOSAL_EXPERT])
    ev = fire(g, "TZ9")
    assert ev[0].data["effect"] == "lose-roles"
    assert g.roles_up == [False, False, False]
    assert g.is_chance  # the Cutter leads but has nothing to name: the draw comes at once
    roll(g, "R1", "B1", "G1")
    with pytest.raises(NotYourDecision, match="no role ability"):
        act(g, f"p0 recolour d{die(g, 'R1')} B")
    g.leader = 1
    with pytest.raises(NotYourDecision, match="no role ability"):
        act(g, f"p1 recolour d{die(g, 'R1')} B")


def test_a_defused_spark_does_not_bring_the_role_back_but_a_defused_bomb_does_at_once() -> None:
    g = game([["T01", "T24"], ["T07", "T24"], ["T03", "T24"]],
             [Ability.TECHNOLOGIST, Ability.DISPOSAL_EXPERT, Ability.CUTTER])
    fire(g, "TZ9")
    give(g, 0, "TS10")  # "?": a spark one die completes
    put(g, 1, "T07", 1, "Y4")  # T07 "1|2 ?": one die from complete
    roll(g, "R1", "B5", "G6")
    act(g, f"p0 place d{die(g, 'G6')} TS10 s1")
    act(g, f"p1 place d{die(g, 'R1')} T07 s1")
    ev = act(g, "p2 done")  # Step 3: seat 0's spark and seat 1's bomb are defused
    assert "spark_defused" in kinds(ev)
    assert kinds(ev).count("role_restored") == 1 and ev[kinds(ev).index("role_restored")].data["seat"] == 1
    assert g.roles_up == [False, True, False]
    act(g, "p1 take T20")
    assert g.roles_up == [False, True, False]


def test_a_defusal_still_waiting_for_its_pick_when_roles_are_lost_brings_the_role_back() -> None:
    # Step 3 defusals go one after the other: the leader's refill turns "lose role ability" over
    # before seat 1 has taken its replacement, so seat 1's defusal ends after the card and counts
    g = game([["T01", "T24"], ["T07", "T24"], ["T03", "T24"]],
             [Ability.TECHNOLOGIST, Ability.DISPOSAL_EXPERT, Ability.CUTTER], deck=["T30", "TZ9"])
    put(g, 0, "T01", 0, "K6")
    put(g, 1, "T07", 1, "Y4")
    roll(g, "R1", "B5", "G6")
    act(g, f"p0 place d{die(g, 'G6')} T01 s2")
    act(g, f"p1 place d{die(g, 'R1')} T07 s1")
    act(g, "p2 done")
    assert [p[0] for p in g.picks] == [0, 1]
    ev = act(g, "p0 take T20")
    assert "fuse_activated" in kinds(ev) and g.roles_up == [False, False, False]
    ev = act(g, "p1 take T21")
    assert "role_restored" in kinds(ev) and g.roles_up == [False, True, False]


def test_a_leader_whose_bomb_is_defused_early_uses_the_role_at_once() -> None:
    # 1-2 players: a bomb defused mid-turn brings the role back while this turn's dice are still
    # in the middle (G-46)
    g = game([["T01", "T24"], ["T02", "T24"]], [Ability.TECHNOLOGIST, Ability.CUTTER])
    fire(g, "TZ9")
    put(g, 0, "T01", 0, "K6")
    roll(g, "R1", "B5", "G6", "Y2")
    with pytest.raises(NotYourDecision, match="no role ability"):
        act(g, f"p0 recolour d{die(g, 'B5')} R")
    act(g, f"p0 place d{die(g, 'R1')} T01 s2")
    ev = act(g, "p0 defuse T01")
    assert kinds(ev) == ["role_restored"] and g.roles_up == [True, False]
    b5 = die(g, "B5")
    act(g, f"p0 recolour d{b5} R")
    assert g.die_label(b5) == "B5 as R"


# ----------------------------------------------------------------------------- roll a 6
def _six_game() -> GameState:
    g = game([["T01", "T24"], ["T02", "T24"], ["T03", "T24"]])
    roll(g, "R1", "B2", "G3")
    return g


def test_roll_a_six_makes_every_player_roll_until_a_six_and_blocks_everything_else() -> None:
    g = _six_game()
    bag = g.bag[:]
    ev = fire(g, "TZ10", "T30")
    assert ev[0].data["effect"] == "roll-six" and g.six == [0, 1, 2]
    assert g.row == ["T20", "T21", "T22", "T23", "T24"]  # the refill waits for the sixes
    assert {s: d.kind for s, d in g.to_act().items()} == {0: "roll_six", 1: "roll_six", 2: "roll_six"}
    assert [a.verb for a in g.legal_actions()] == ["roll", "roll", "roll"]
    with pytest.raises(NotYourDecision, match="roll a 6"):
        act(g, f"p0 place d{die(g, 'R1')} T24 s1")
    with pytest.raises(NotYourDecision, match="roll a 6"):
        act(g, "p1 done")
    act(g, "p1 roll @1000")
    assert g.is_chance and g.chance_outcomes() == [((f,), 1 / 6) for f in range(1, 7)]
    ev = g.apply_chance((4,))
    assert kinds(ev) == ["not_six"] and 1 in g.six
    act(g, "p1 roll @2000")
    assert kinds(g.apply_chance((6,))) == ["six_rolled"] and g.six == [0, 2]
    with pytest.raises(NotYourDecision, match="nobody|waits"):
        act(g, "p1 roll @2500")
    act(g, "p0 roll @3000")
    g.apply_chance((6,))
    act(g, "p2 roll @4000")
    ev = g.apply_chance((6,))
    assert g.six == [] and g.time_ms == 4000
    assert "card_revealed" in kinds(ev) and g.row[-1] == "T30"  # play resumes
    assert g.bag == bag  # the bag was never touched (virtual dice: I-10, G-48)
    act(g, f"p0 place d{die(g, 'R1')} T24 s1")
    with pytest.raises(NotYourDecision, match="nobody has to roll"):
        act(g, "p0 roll")


def test_roll_a_six_with_the_games_own_dice_and_the_clock_running() -> None:
    g = _six_game()
    fire(g, "TZ10")
    at = 0
    while g.six:
        at += 700
        seat = g.six[0]
        g.apply(Action.parse(f"p{seat} roll @{at}"))
    assert g.time_ms == at and not g.is_over


def test_time_runs_out_while_rolling_for_a_six() -> None:
    g = _six_game()
    fire(g, "TZ10")
    ev = act(g, "p0 roll @600000")
    assert g.is_over and g.outcome is not None and g.outcome.reason is Termination.TIME_UP
    assert kinds(ev) == ["game_lost"]


def test_roll_a_six_is_not_a_role_roll() -> None:
    # G-35: abilities act on the main roll only; the Explosives Instructor cannot reroll for a 6
    g = game([["T01", "T24"], ["T02", "T24"], ["T03", "T24"]], [Ability.EXPLOSIVES_INSTRUCTOR, None, None])
    roll(g, "R1", "B2", "G3")
    fire(g, "TZ10")
    with pytest.raises(NotYourDecision, match="roll a 6"):
        act(g, f"p0 rethrow d{die(g, 'R1')}")


# ----------------------------------------------------------------------------- symbol cards
def test_a_colour_and_number_card_takes_a_die_matching_either() -> None:
    # A.5: "B 3" takes a blue die or a 3; a die matching neither stays
    g = game([["T24"], ["T24"], ["T24"]])
    blue = put(g, 0, "T24", 0, "B5")
    three = put(g, 1, "T24", 0, "R3")
    other = put(g, 2, "T24", 0, "G4")
    ev = fire(g, "TZ2")
    assert ev[0].data["shows"] == "B 3"
    assert blue in g.bag and three in g.bag and other not in g.bag
    assert kinds(ev).count("die_returned") == 2


def test_split_dice_match_a_fuse_card_on_either_colour() -> None:
    g = game([["T24"], ["T24"], ["T24"]])
    bg = put(g, 0, "T24", 0, "B/G5")  # green half: the green card takes it
    gy = put(g, 1, "T24", 0, "G/Y4")
    rb = put(g, 2, "T24", 0, "R/B4")  # red and blue: not green
    fire(g, "TZ3")
    assert bg in g.bag and gy in g.bag and rb not in g.bag


def test_each_player_returns_a_single_die_and_chooses_which() -> None:
    g = game([["T24"], ["T24"], ["T24"]])
    b1, b2 = put(g, 0, "T24", 0, "B1"), put(g, 0, "T24", 1, "K3")
    fire(g, "TZ2")
    assert set(g.removals[0]) == {b1, b2}
    with pytest.raises(NotYourDecision, match="P1 must choose"):
        act(g, "p1 done")
    act(g, f"p0 give d{b2}")
    assert b2 in g.bag and b1 not in g.bag and g.hand_card(0, "T24").dice[0] == b1  # type: ignore[union-attr]


def test_dice_on_spark_cards_can_be_taken() -> None:
    # G-33
    g = game([["T24"], ["T24"], ["T24"]])
    give(g, 1, "TS02")
    on_spark = put(g, 1, "TS02", 0, "K2")
    fire(g, "TZ6")  # black
    assert on_spark in g.bag and g.hand_card(1, "TS02").dice[0] == EMPTY  # type: ignore[union-attr]


def test_safe_dice_and_must_be_first_dice_are_not_taken() -> None:
    # C.2.1: dice beneath other dice and dice in "must be placed first" slots are safe
    g = game([["T09"], ["T14"], ["T10"]])
    low = put(g, 0, "T09", 0, "B1")  # stack "# < # #": under another die
    top = put(g, 0, "T09", 1, "G3")
    first = put(g, 1, "T14", 0, "B4")  # "first:B ? ?"
    other = put(g, 1, "T14", 1, "B6")
    w3 = put(g, 2, "T10", 2, "B3")  # wall: B3 with G6 on it (H-13)
    put(g, 2, "T10", 4, "G6")
    fire(g, "TZ2")  # blue and 3
    assert top in g.bag and low not in g.bag  # G3 (a 3) goes; the blue B1 under it is safe
    assert other in g.bag and first not in g.bag
    assert w3 not in g.bag and 2 not in g.removals


def test_dice_on_a_complete_card_are_not_taken() -> None:
    # FAQ / H-17.7: a card completed in Step 2 but not yet cleared keeps its dice in Step 3
    g = game([["T01", "T24"], ["T24"], ["T24"]])
    put(g, 0, "T01", 0, "R4")
    roll(g, "R5", "B1", "G1")
    act(g, f"p0 place d{die(g, 'R5')} T01 s2")
    for seat in (1, 2):
        act(g, f"p{seat} done")
    assert g.phase is Phase.DEFUSE and g.picks == [[0, "T01", False]]
    g.deck = ["T30", "TZ1"]  # the refill after seat 0's pick turns a red fuse card over
    ev = act(g, "p0 take T20")
    assert "fuse_activated" in kinds(ev) and "die_returned" not in kinds(ev)
    assert g.score_pile == ["T01"]


def test_several_fuse_cards_in_a_row_all_fire() -> None:
    g = game([["T24"], ["T24"], ["T24"]])
    r = put(g, 0, "T24", 0, "R2")
    k = put(g, 0, "T24", 1, "K2")
    ev = fire(g, "TZ1", "T30", "TZ6")  # red on top, black below it, then a bomb card
    assert [e.data["card"] for e in ev if e.kind == "fuse_activated"] == ["TZ1", "TZ6"]
    assert r in g.bag and k in g.bag  # each card took its die
    assert g.row[-1] == "T30" and g.fuses_activated == ["TZ1", "TZ6"]

