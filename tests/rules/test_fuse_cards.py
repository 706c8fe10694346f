"""Fuse cards (docs/rules.md A.5, C.2.1, C.3, G-33, G-36, G-37, G-46, G-48, I-10, I-18): Countdown's three
text cards and the symbol cards that show a colour and a number.

Rules shared by the games (safe dice, split dice, "roll a 6") are checked in every game that has
them, from scenario documents; the rest in Countdown, set up by hand from the small test deck
(``tests/data/countdown_test_cards.toml``). A fuse card is turned over the way a row refill turns it
over (top of the deck, then ``settle``), or through a real Step 3 defusal.
"""

from __future__ import annotations

from typing import Any

import pytest

from conftest import TESTS, act, die, kinds, of_kind, put, removals, roll, six_seats, turn_start
from fusegame.cards import load_catalogue
from fusegame.cards.model import Ability, FuseEffect
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
from fusegame.rules.decisions import push
from fusegame.rules.defusal import Refill
from fusegame.rules.table import HandCard, Pick
from game_variants import Variant, countdown_fuses, load, split_dice, variants

CARDS = load_catalogue(TESTS / "data" / "countdown_test_cards.toml")
#: the turn's roll in the positions in every game (an epic game's six players roll six dice)
ROLLED = ["R1", "B2", "G3", "Y4", "K5", "R6"]
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
    push(g, Refill(1))
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
    assert "spark_defused" in kinds(ev) and g.sparks.discard == ["TS01"] and g.sparks.defused == ["TS01"]
    assert not g.picks and g.hand_card(0, "TS01") is None  # no replacement for a spark
    assert g.phase is Phase.ROLL and g.turn == 2


def test_the_spark_discards_are_turned_over_oldest_on_top_when_the_deck_runs_out() -> None:
    # A.6, G-36, I-18: "flip over the discard pile" (no shuffle): the oldest discard is drawn first
    g = game([["T01"], ["T02"], ["T03"]])
    g.sparks.deck = ["TS09"]  # one spark left
    g.sparks.discard = ["TS03", "TS05", "TS07"]  # oldest first
    ev = fire(g, "TZ8")
    assert "sparks_turned_over" in kinds(ev)
    assert [cards_of(g, s)[-1] for s in range(3)] == ["TS09", "TS03", "TS05"]
    assert g.sparks.deck == ["TS07"] and g.sparks.discard == []


def test_the_spark_discards_are_shuffled_with_the_shuffle_option() -> None:
    orders = set()
    for seed in range(12):
        g = game([["T01"], ["T02"], ["T03"]], shuffle_sparks=True)
        g.rng = Rng(seed)
        g.sparks.deck = []
        g.sparks.discard = ["TS03", "TS05", "TS07"]
        fire(g, "TZ8")
        drawn = tuple(cards_of(g, s)[-1] for s in range(3))
        assert sorted(drawn) == ["TS03", "TS05", "TS07"]
        orders.add(drawn)
    assert len(orders) > 1  # not always the turned-over order


def test_with_every_spark_in_play_a_player_gives_up_a_die_of_their_choice_instead() -> None:
    # F.3 epic fallback, used in every mode (G-37); safe dice stay safe (C.3 [REC])
    g = game([["T24"], ["T09"], ["T14"]])
    g.sparks.deck, g.sparks.discard = [], []
    a, b = put(g, 0, "T24", 0, "R1"), put(g, 0, "T24", 1, "B2")  # two unsafe dice: a choice
    low = put(g, 1, "T09", 0, "G1")
    top = put(g, 1, "T09", 1, "G3")  # stack: only the top die can go
    put(g, 2, "T14", 0, "B4")  # must-be-first slot: safe
    ev = fire(g, "TZ8")
    assert kinds(ev).count("no_spark_left") == 3
    assert top in g.bag and low not in g.bag  # seat 1's only choice was taken at once
    assert set(removals(g)[0]) == {a, b}
    assert 2 not in removals(g)
    with pytest.raises(NotYourDecision):
        act(g, "p1 done")  # everything waits for seat 0's choice
    with pytest.raises(NotYourDecision, match="cannot be given up"):
        act(g, f"p0 give d{low}")
    act(g, f"p0 give d{b}")
    assert b in g.bag and a not in g.bag and not removals(g)


# ----------------------------------------------------------------------------- lose role ability
def test_lose_role_ability_turns_every_role_face_down_and_the_next_leader_cannot_use_it() -> None:
    g = game([["T01", "T24"], ["T02", "T24"], ["T03", "T24"]],
             [Ability.CUTTER, Ability.TECHNOLOGIST, Ability.DISPOSAL_EXPERT])
    ev = fire(g, "TZ9")
    assert ev[0].data["effect"] == "lose-roles"
    assert g.roles.up == [False, False, False]
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
    assert g.roles.up == [False, True, False]
    act(g, "p1 take T20")
    assert g.roles.up == [False, True, False]


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
    assert [p.seat for p in g.picks] == [0, 1]
    ev = act(g, "p0 take T20")
    assert "fuse_activated" in kinds(ev) and g.roles.up == [False, False, False]
    ev = act(g, "p1 take T21")
    assert "role_restored" in kinds(ev) and g.roles.up == [False, True, False]


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
    assert kinds(ev) == ["role_restored"] and g.roles.up == [True, False]
    b5 = die(g, "B5")
    act(g, f"p0 recolour d{b5} R")
    assert g.die_label(b5) == "B5 as R"


# ----------------------------------------------------------------------------- roll a 6
def _six_game() -> GameState:
    g = game([["T01", "T24"], ["T02", "T24"], ["T03", "T24"]])
    roll(g, "R1", "B2", "G3")
    return g


@pytest.mark.parametrize("variant", variants(countdown_fuses))
def test_roll_a_six_makes_every_player_roll_until_a_six_and_blocks_everything_else(variant: Variant) -> None:
    players = variant.fewest(3)
    g = load(variant, players, {"players": [["? ?", "? ? ?"]] * players, "row": ["? ?"] * 4,
                                "deck": ["fuse:roll-six", "? ?"], "rolled": ROLLED[:players]},
             difficulty="expert")
    bottom, six = g.deck
    row, bag = g.row[:], g.bag[:]
    everyone = list(range(players))
    push(g, Refill(1))
    ev = g.settle()
    assert ev[0].data["effect"] == "roll-six" and six_seats(g) == everyone
    assert g.fuses_activated == [six] and g.fuse(six).effect is FuseEffect.ROLL_SIX
    assert g.row == row  # the refill waits for the sixes
    assert {s: d.kind for s, d in g.to_act().items()} == {s: "roll_six" for s in everyone}
    assert [a.verb for a in g.legal_actions()] == ["roll"] * players
    card = g.hands[0][1].card
    with pytest.raises(NotYourDecision, match="roll a 6"):
        act(g, f"p0 place d{die(g, 'R1')} {card} s1")
    with pytest.raises(NotYourDecision, match="roll a 6"):
        act(g, "p1 done")
    act(g, "p1 roll @1000")
    assert g.is_chance and g.chance_outcomes() == [((f,), 1 / 6) for f in range(1, 7)]
    ev = g.apply_chance((4,))
    assert kinds(ev) == ["not_six"] and 1 in six_seats(g)
    act(g, "p1 roll @2000")
    assert kinds(g.apply_chance((6,))) == ["six_rolled"] and six_seats(g) == [0, *everyone[2:]]
    with pytest.raises(NotYourDecision, match="nobody|waits"):
        act(g, "p1 roll @2500")
    for seat in [0, *everyone[2:]]:
        act(g, f"p{seat} roll @{3000 + 1000 * seat}")
        ev = g.apply_chance((6,))
    assert six_seats(g) == [] and g.time_ms == 3000 + 1000 * everyone[-1]
    assert "card_revealed" in kinds(ev) and g.row == [*row, bottom]  # play resumes
    assert g.bag == bag  # the bag was never touched (virtual dice: I-10, G-48)
    act(g, f"p0 place d{die(g, 'R1')} {card} s1")
    with pytest.raises(NotYourDecision, match="nobody has to roll"):
        act(g, "p0 roll")


def test_roll_a_six_with_the_games_own_dice_and_the_clock_running() -> None:
    g = _six_game()
    fire(g, "TZ10")
    at = 0
    while six_seats(g):
        at += 700
        seat = six_seats(g)[0]
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
    assert ev[0].data["shows"] == ["B", "3"]
    assert blue in g.bag and three in g.bag and other not in g.bag
    assert kinds(ev).count("die_returned") == 2


@pytest.mark.parametrize("variant", variants(split_dice))
@pytest.mark.parametrize(("fuse", "dice", "gone"), [
    ("G", ["B/G5", "G/Y4", "R/B4"], [True, True, False]),  # red and blue: not green
    ("K", ["Y/K5", "R/B4", "G/Y4"], [True, False, False]),
])
def test_split_dice_match_a_fuse_card_on_either_colour(variant: Variant, fuse: str, dice: list[str],
                                                       gone: list[bool]) -> None:
    players = variant.fewest(3)
    hands = [[{"notation": "? ? ?", "dice": [d]}] for d in dice] + [["? ?"]] * (players - 3)
    g = load(variant, players, {"players": hands, "row": ["? ?"] * 4, "deck": [f"fuse:{fuse}", "? ?"]},
             difficulty="expert")
    on_cards = [g.hands[s][0].dice[0] for s in range(3)]
    push(g, Refill(1))
    ev = g.settle()
    assert [d in g.bag for d in on_cards] == gone
    assert [e.data["die"]["die"] for e in of_kind(ev, "die_returned")] == [d for d, x in zip(dice, gone) if x]


@pytest.mark.parametrize("variant", variants())
def test_safe_dice_and_must_be_first_dice_are_not_taken(variant: Variant) -> None:
    # C.2.1: dice beneath other dice and dice in "must be placed first" slots are safe; dice that
    # match and lie open go
    players = variant.fewest(4)
    g = load(variant, players, {
        "players": [[{"notation": "stack: # < # #", "dice": ["B1", "G3", None]}],  # B1 under G3
                    [{"notation": "first:B ? ?", "dice": ["B4", "B6", None]}],
                    [{"notation": "wall: Y K B / R . G", "dice": [None, None, "B3", None, "G6"]}],  # H-13
                    [{"notation": "stack: # < # < #", "dice": ["R3", "G5", None]}],  # only R3 matches
                    ] + [["? ?"]] * (players - 4),
        "row": ["? ?"] * 4, "deck": ["fuse:B 3", "? ?"]}, difficulty="expert")
    (low, top), (first, other) = g.hands[0][0].dice[:2], g.hands[1][0].dice[:2]
    w3, (r3, g5) = g.hands[2][0].dice[2], g.hands[3][0].dice[:2]
    push(g, Refill(1))
    ev = g.settle()  # blue and 3
    assert top in g.bag and low not in g.bag  # G3 (a 3) goes; the blue B1 under it is safe
    assert other in g.bag and first not in g.bag
    assert w3 not in g.bag and r3 not in g.bag and g5 not in g.bag  # nothing of theirs is open and matches
    assert [e.data["seat"] for e in of_kind(ev, "die_returned")] == [0, 1] and not removals(g)


def test_dice_on_spark_cards_can_be_taken() -> None:
    # G-33
    g = game([["T24"], ["T24"], ["T24"]])
    give(g, 1, "TS02")
    on_spark = put(g, 1, "TS02", 0, "K2")
    fire(g, "TZ6")  # black
    assert on_spark in g.bag and g.hand_card(1, "TS02").dice[0] == EMPTY  # type: ignore[union-attr]


def test_dice_on_a_complete_card_are_not_taken() -> None:
    # FAQ / H-17.7: a card completed in Step 2 but not yet cleared keeps its dice in Step 3
    g = game([["T01", "T24"], ["T24"], ["T24"]])
    put(g, 0, "T01", 0, "R4")
    roll(g, "R5", "B1", "G1")
    act(g, f"p0 place d{die(g, 'R5')} T01 s2")
    for seat in (1, 2):
        act(g, f"p{seat} done")
    assert g.phase is Phase.DEFUSE and g.picks == [Pick(0, "T01")]
    g.deck = ["T30", "TZ1"]  # the refill after seat 0's pick turns a red fuse card over
    ev = act(g, "p0 take T20")
    assert "fuse_activated" in kinds(ev) and "die_returned" not in kinds(ev)
    assert g.score_pile == ["T01"]




# ----------------------------------------------------------------------------- the table of effects
@pytest.mark.parametrize("fuse", ["TZ1", "TZ8", "TZ9", "TZ10"])
def test_each_fuse_effect_opens_the_decision_its_row_declares(fuse: str) -> None:
    # a new effect is one row of EFFECTS: its handler, and the queue item it opens (A.5)
    from fusegame.rules.decisions import ORDER
    from fusegame.rules.fuse_cards import EFFECTS

    assert set(EFFECTS) == set(FuseEffect)
    g = game([["T24"], ["T09"], ["T14"]], [Ability.CUTTER, None, None])
    put(g, 0, "T24", 0, "R1")
    put(g, 0, "T24", 1, "R2")  # two red dice in front of seat 0: a choice for a red symbol card
    card = g.fuse(fuse)
    rule = EFFECTS[card.effect]
    assert rule.opens == "" or rule.opens in ORDER
    before = [item.name for item in g.queue]
    rule.handler(g, card, [])
    opened = [item.name for item in g.queue if item.name not in before]
    assert opened == ([rule.opens] if rule.opens else [])
