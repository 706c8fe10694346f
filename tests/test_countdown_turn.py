"""Countdown's five-step turn and its end (RULES.md A.9.2, A.10, B.3.2-B.5, C.2, C.2.2, C.2.3, E.2,
E.3, G-24, G-27, G-28, G-38, G-43, H-17.3/6/8/9/10/15).

Setups come from ``new_game`` (tables, dealing) or are built by hand from the small test deck
(``tests/data/countdown_test_cards.toml``), with every roll chosen through ``apply_chance``.
"""

from __future__ import annotations

from typing import Any

import pytest

from conftest import TESTS, act, die, kinds, put, roll, turn_start
from fusegame.cards import load_catalogue
from fusegame.rules import (
    ConfigError,
    Difficulty,
    Event,
    GameConfig,
    GameState,
    NotYourDecision,
    Phase,
    Termination,
    new_game,
)
from fusegame.rules.config import COUNTDOWN_DECK_SIZE
from fusegame.rules.state import HandCard, _deal_hand

CARDS = load_catalogue(TESTS / "data" / "countdown_test_cards.toml")
SPARKS = [s.id for s in CARDS.sparks]
DIFFICULTIES = ["training", "standard", "expert", "elite", "heroic"]


# ----------------------------------------------------------------------------- helpers
def game(hands: list[list[str]], *, leader: int = 0, row: list[str] | None = None,
         deck: list[str] | None = None, difficulty: str = "standard", **kw: Any) -> GameState:
    """A Countdown game at the start of a turn (before the draw), set up by hand."""
    config = GameConfig(players=len(hands), game="countdown", difficulty=difficulty,
                        cards=CARDS, **kw)
    return turn_start(config, hands, ["T20", "T21", "T22", "T23", "T25"] if row is None else row,
                      ["T26", "T27", "T28"] if deck is None else deck, seed=11,
                      spark_deck=list(reversed(SPARKS)), leader=leader)  # TS01 on top


def place(g: GameState, seat: int, label: str, card: str, slot: int, at: int | None = None) -> list[Event]:
    return act(g, f"p{seat} place d{die(g, label)} {card} s{slot}" + (f" @{at}" if at is not None else ""))


def done(g: GameState, *seats: int) -> list[Event]:
    ev: list[Event] = []
    for s in seats:
        ev += act(g, f"p{s} done")
    return ev


def drawn_sparks(events: list[Event]) -> list[int]:
    return [e.data["seat"] for e in events if e.kind == "spark_drawn"]


def cards_of(g: GameState, seat: int) -> list[str]:
    return [hc.card for hc in g.hands[seat]]


# ----------------------------------------------------------------------------- setup
@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_hands_are_dealt_from_a_deck_of_the_table_size(players: int, difficulty: str) -> None:
    # A.9.2 counts the hands: deck + row + hands = the table's number (B.4, H-17.3)
    config = GameConfig(players=players, game="countdown", difficulty=difficulty)
    g = new_game(config, seed=players * 10 + DIFFICULTIES.index(difficulty), chance=False)
    bombs_in_deck = [c for c in g.deck if not c.startswith("CZ")]
    hands = [hc.card for hand in g.hands for hc in hand]
    expect = COUNTDOWN_DECK_SIZE[players][DIFFICULTIES.index(difficulty)]
    assert len(bombs_in_deck) + len(g.row) + len(hands) == expect == config.deck_size
    assert len(g.row) == 5 and all(len(hand) == (4 if players == 1 else 2) for hand in g.hands)
    assert len(set(bombs_in_deck + g.row + hands)) == expect
    fuses = [c for c in g.deck if c.startswith("CZ")]
    assert len(fuses) == (0 if difficulty in ("training", "standard") else 6)
    assert not set(fuses) & set(g.row)  # fuse cards go in after the row is out (B.4 step 5)
    assert len(g.spark_deck) == 30 and not g.spark_discard
    assert g.config.difficulty is (Difficulty.HEROIC if difficulty == "heroic" else Difficulty(difficulty))


def test_the_table_example_two_players_expert() -> None:
    # H-17.3: Countdown 2p Expert -> 25 (21 after the hands)
    config = GameConfig(players=2, game="countdown", difficulty="expert")
    g = new_game(config, seed=5, chance=False)
    assert config.deck_size == 25
    assert len([c for c in g.deck if not c.startswith("CZ")]) + len(g.row) == 21


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_dealt_two_card_hand_holds_a_card_worth_three_or_less(players: int) -> None:
    # B.3.2: a first card worth 4-6 needs a second worth 1-3
    for seed in range(30):
        g = new_game(GameConfig(players=players, game="countdown"), seed=seed, chance=False)
        for hand in g.hands:
            assert min(g.bomb(hc.card).points for hc in hand) <= 3


def test_a_solo_hand_shows_three_different_values() -> None:
    for seed in range(30):
        g = new_game(GameConfig(players=1, game="countdown"), seed=seed, chance=False)
        assert len({g.bomb(hc.card).points for hc in g.hands[0]}) >= 3


@pytest.mark.parametrize(("hand", "legal"), [((5, 4), False), ((6, 3), True), ((2, 6), True), ((4, 4), False),
                                             ((4, 5), False), ((3, 3), True)])
def test_legal_two_card_hands(hand: tuple[int, int], legal: bool) -> None:
    # H-17.2 Countdown: (5,4) no, (6,3) yes, (2,6) yes, (4,4) no; a rejected second card is set
    # aside (and shuffled back into the bomb deck)
    g = GameState(GameConfig(players=2, game="countdown", cards=CARDS))
    by_points = {b.points: b.id for b in CARDS.bombs[:6]}
    first, second = by_points[hand[0]], by_points[hand[1]]
    pool, rejects = ["T01", second, first], []  # dealt from the end; T01 (1 point) is the spare
    dealt = _deal_hand(g, pool, rejects, 2)
    assert (dealt == [first, second]) is legal
    if not legal:
        assert dealt == [first, "T01"] and rejects == [second]


def test_training_and_standard_use_no_fuse_cards_expert_and_up_one_to_ten() -> None:
    # B.5, G-40
    for d in ("training", "standard"):
        assert GameConfig(players=3, game="countdown", difficulty=d).fuse_count == 0
        with pytest.raises(ConfigError, match="uses no fuse cards"):
            GameConfig(players=3, game="countdown", difficulty=d, fuse_cards=1)
    for d in ("expert", "elite", "heroic"):
        assert GameConfig(players=3, game="countdown", difficulty=d).fuse_count == 6
        for n in (1, 10):
            config = GameConfig(players=3, game="countdown", difficulty=d, fuse_cards=n)
            g = new_game(config, seed=n, chance=False)
            assert len([c for c in g.deck if c.startswith("CZ")]) == n
        for n in (0, 11):
            with pytest.raises(ConfigError, match="1 to 10 fuse cards"):
                GameConfig(players=3, game="countdown", difficulty=d, fuse_cards=n)


# ----------------------------------------------------------------------------- steps 1-3
@pytest.mark.parametrize(("players", "dice"), [(1, 3), (2, 4), (3, 3), (4, 4)])
def test_the_leader_draws_one_die_per_player_solo_three_two_players_four(players: int, dice: int) -> None:
    g = game([["T24", "T01"]] * players)
    assert g.is_chance and {len(o) for o, _ in g.chance_outcomes()} == {dice}
    bag = len(g.bag)
    g.sample_chance()
    assert len(g.free) == dice and len(g.bag) == bag - dice and g.phase is Phase.DISTRIBUTE


def test_a_complete_card_waits_for_step_3_with_three_or_more_players() -> None:
    g = game([["T01", "T24"], ["T02", "T24"], ["T03", "T24"]])
    put(g, 0, "T01", 0, "K6")
    roll(g, "R1", "B2", "G3")
    ev = place(g, 0, "R1", "T01", 2)
    assert kinds(ev) == ["die_placed", "card_completed"]  # not defused yet
    assert "T01" in cards_of(g, 0) and not g.picks
    with pytest.raises(NotYourDecision, match="Step 3"):
        act(g, "p0 defuse T01")
    place(g, 1, "B2", "T24", 1)
    g3 = die(g, "G3")
    done(g, 2)  # the last seat is done: Step 3
    assert g.phase is Phase.DEFUSE and g.picks == [[0, "T01", False]]
    assert g.to_act() == {0: g.to_act()[0]} and g.to_act()[0].kind == "take"
    with pytest.raises(NotYourDecision):
        act(g, f"p2 place d{g3} T24 s1")  # Step 2 is over
    ev = act(g, "p0 take T22")
    assert kinds(ev)[:3] == ["bomb_defused", "card_taken", "card_revealed"]
    assert cards_of(g, 0) == ["T24", "T22"] and g.row[-1] == "T28" and g.score_pile == ["T01"]


def test_step_3_picks_every_defuser_takes_a_card_in_any_order_two_for_two() -> None:
    g = game([["T01", "T07"], ["T02", "T24"], ["T03", "T24"]])
    put(g, 0, "T01", 0, "K6")
    put(g, 0, "T07", 0, "K1")  # T07 "1|2 ?" is complete already (its last die went on earlier)
    put(g, 0, "T07", 1, "K5")
    put(g, 1, "T02", 0, "Y1")
    roll(g, "R1", "B2", "G3")
    place(g, 0, "R1", "T01", 2)
    place(g, 1, "B2", "T02", 2)
    done(g, 2)
    assert sorted(map(tuple, g.picks)) == [(0, "T01", False), (0, "T07", False), (1, "T02", False)]
    assert set(g.to_act()) == {0, 1}
    act(g, "p1 take T25")  # seat 1 before the leader: first come, first served
    act(g, "p0 take T20")
    assert g.phase is Phase.DEFUSE and g.to_act()[0].kind == "take"
    act(g, "p0 take T21")
    assert g.phase is Phase.ROLL and g.turn == 2
    assert sorted(g.score_pile) == ["T01", "T02", "T07"]
    assert sorted(cards_of(g, 0)) == ["T20", "T21"] and cards_of(g, 1) == ["T24", "T25"]


def test_step_3_pick_refused_for_a_card_not_in_the_row() -> None:
    g = game([["T01", "T24"], ["T02", "T24"], ["T03", "T24"]])
    put(g, 0, "T01", 0, "K6")
    roll(g, "R1", "B2", "G3")
    place(g, 0, "R1", "T01", 2)
    done(g, 1, 2)
    with pytest.raises(NotYourDecision, match="cannot be taken"):
        act(g, "p0 take T30")
    with pytest.raises(NotYourDecision, match="no defused card"):
        act(g, "p1 take T20")


def test_solo_early_defusal_lets_the_other_dice_go_on_the_new_card() -> None:
    # H-17.15: the first die completes X; X is defused now; Y is taken; the other two go on Y
    g = game([["T01", "T02", "T03", "T05"]], row=["T24", "T21", "T22", "T23", "T20"])
    put(g, 0, "T01", 0, "K6")
    roll(g, "R1", "B2", "G3")
    place(g, 0, "R1", "T01", 2)
    assert any(a.verb == "defuse" for a in g.legal_actions(0))
    ev = act(g, "p0 defuse T01")
    assert g.picks == [[0, "T01", False]] and g.to_act()[0].kind == "take"
    ev = act(g, "p0 take T24")
    assert "bomb_defused" in kinds(ev) and g.score_pile == ["T01"] and "T24" in cards_of(g, 0)
    place(g, 0, "B2", "T24", 1)
    place(g, 0, "G3", "T24", 2)
    assert g.phase is Phase.ROLL and g.turn == 2 and cards_of(g, 0)[-1] == "T24"  # no sparks
    assert not g.sparks_in_play()


def test_two_players_may_leave_a_complete_card_for_step_3() -> None:
    g = game([["T01", "T24"], ["T02", "T24"]])
    put(g, 0, "T01", 0, "K6")
    roll(g, "R1", "B2", "G3", "Y4")
    place(g, 0, "R1", "T01", 2)
    with pytest.raises(NotYourDecision, match="not a complete card"):
        act(g, "p0 defuse T24")
    with pytest.raises(NotYourDecision, match="not a complete card"):
        act(g, "p1 defuse T01")
    place(g, 0, "B2", "T24", 1)
    done(g, 1)
    assert g.phase is Phase.DEFUSE and g.picks == [[0, "T01", False]]


# ----------------------------------------------------------------------------- step 4: sparks
@pytest.mark.parametrize(("players", "taken", "sparks"), [
    (4, (1, 1, 1, 0), [3]),  # 3-4 players: one spark for a player who took no die
    (3, (0, 0, 1), [0, 1]),
    (2, (2, 0), [1, 1]),  # 1-2 players: one spark per die not taken
    (2, (1, 1), [0, 1]),
    (1, (1,), [0, 0]),
    (1, (3,), []),
])
def test_sparks_are_drawn_for_dice_not_taken(players: int, taken: tuple[int, ...], sparks: list[int]) -> None:
    # C.2 Step 4, H-17.6
    g = game([["T24", "T01"] + (["T02", "T03"] if players == 1 else [])] * players)
    g.sample_chance()
    spots = [("T24", 1), ("T24", 2), ("T01", 1)]  # no card is completed
    for seat, n in enumerate(taken):
        for card, slot in spots[:n]:
            act(g, f"p{seat} place d{g.free[0]} {card} s{slot}")
    ev: list[Event] = []
    for seat in range(players):
        if seat in g.to_act():
            ev += act(g, f"p{seat} done")
    assert sorted(drawn_sparks(ev)) == sparks
    for seat in range(players):
        assert [c for c in cards_of(g, seat) if c.startswith("TS")] == [
            e.data["card"] for e in ev if e.kind == "spark_drawn" and e.data["seat"] == seat]
    assert len(g.bag) == 25 - sum(taken) and g.turn == 2  # the untaken dice are back in the bag


def test_a_short_bag_still_charges_every_player_without_a_die() -> None:
    # H-17.10, G-28: 2 dice in a 4-player game: the two players without a die draw a spark each
    g = game([["T24", "T01"]] * 4)
    keep = g.bag[:2]
    g.bag = keep
    assert {len(o) for o, _ in g.chance_outcomes()} == {2}
    g.sample_chance()
    act(g, f"p0 place d{g.free[0]} T24 s1")
    ev = act(g, f"p1 place d{g.free[0]} T24 s1")
    assert sorted(drawn_sparks(ev)) == [2, 3]


def test_an_empty_bag_at_the_start_of_a_turn_loses() -> None:
    g = game([["T24", "T01"]] * 3)
    g.bag = []
    ev = g.settle()
    assert g.is_over and g.outcome is not None and not g.outcome.won
    assert g.outcome.reason is Termination.BAG_EMPTY and kinds(ev) == ["game_lost"]


# ----------------------------------------------------------------------------- the end
def test_the_last_bomb_turn_wins_and_counts_every_card_defused_in_it() -> None:
    # H-17.8: A takes the last row card while B defuses a hand card in the same Step 3; no spark
    # in play -> saved; Step 4 is skipped (C took no die and draws nothing); B's card scores
    g = game([["T01", "T24"], ["T02", "T24"], ["T03", "T24"]], row=["T21"], deck=[])
    put(g, 0, "T01", 0, "K6")
    put(g, 1, "T02", 0, "Y1")
    roll(g, "R1", "B2", "G3")
    place(g, 0, "R1", "T01", 2, at=100_000)
    place(g, 1, "B2", "T02", 2, at=101_000)
    done(g, 2)
    assert len(g.picks) == 2
    ev = act(g, "p0 take T21 @125000")
    assert g.is_over and g.outcome is not None and g.outcome.won
    assert g.outcome.reason is Termination.BOMBS_DEFUSED and not drawn_sparks(ev)
    assert sorted(g.score_pile) == ["T01", "T02"]
    s = g.outcome.score
    assert (s.win_bonus, s.time_bonus, s.bomb_points) == (10, 47, 1 + 2)  # 475 s left


def test_no_win_while_a_spark_is_in_play_then_the_spark_clean_up() -> None:
    # C.2.2, H-17.9: the last bomb is gone but C has a spark: hand bombs turn face down (their dice
    # go back in the bag); the next turns roll 3 dice and only C must take one; C defuses -> win
    g = game([["T01", "T24"], ["T02", "T24"], ["T03", "TS02"]], row=["T21"], deck=[])
    put(g, 0, "T01", 0, "K6")
    on_dud = put(g, 1, "T24", 0, "Y1")
    roll(g, "R1", "B2", "G3")
    place(g, 0, "R1", "T01", 2)
    place(g, 2, "G3", "TS02", 1)
    done(g, 1)
    ev = act(g, "p0 take T21")
    assert not g.is_over and g.sparks_in_play() == 1
    assert kinds(ev).count("card_turned_down") == 5  # T24, T21 (seat 0), T02, T24, T03
    assert g.duds == [["T24", "T21"], ["T02", "T24"], ["T03"]] and on_dud in g.bag
    assert cards_of(g, 0) == cards_of(g, 1) == [] and cards_of(g, 2) == ["TS02"]
    # Step 4: seat 1 took no die but has no cards: no spark; seat 2 took one
    assert not drawn_sparks(ev) and g.phase is Phase.ROLL
    # the clean-up turn: still one die per player, only seat 2 decides
    assert {len(o) for o, _ in g.chance_outcomes()} == {3}
    roll(g, "R4", "B5", "G6")
    assert set(g.to_act()) == {2}
    ev = place(g, 2, "B5", "TS02", 2, at=200_000)
    assert g.is_over and g.outcome is not None and g.outcome.won
    assert g.sparks_defused == ["TS02"] and g.outcome.score.spark_points == 2
    assert g.outcome.score.bomb_points == 1


def test_the_spark_clean_up_lost_on_time() -> None:
    g = game([["T01", "T24"], ["T02", "T24"], ["T03", "TS02"]], row=["T21"], deck=[])
    put(g, 0, "T01", 0, "K6")
    roll(g, "R1", "B2", "G3")
    place(g, 0, "R1", "T01", 2)
    place(g, 2, "G3", "TS02", 1)
    done(g, 1)
    act(g, "p0 take T21")
    roll(g, "R4", "B5", "G6")
    ev = act(g, "tick @600000")
    assert g.outcome is not None and not g.outcome.won and g.outcome.reason is Termination.TIME_UP
    # E.3: a lost game still scores its bombs and sparks (and fuse cards)
    assert g.outcome.score.total == 1 and kinds(ev) == ["game_lost"]


def test_a_player_without_cards_in_the_clean_up_draws_no_sparks_and_one_with_sparks_does() -> None:
    g = game([["TS10"], ["T24"], ["TS02"]], row=[], deck=[])  # the middle is already empty
    g.duds = [[], [], []]
    g.hands[1] = []
    roll(g, "R4", "B5", "G6")
    assert set(g.to_act()) == {0, 2}
    place(g, 0, "R4", "TS10", 1)
    ev = done(g, 2)
    assert drawn_sparks(ev) == [2] and not g.is_over  # seat 1 has no cards: exempt
    assert g.spark_discard == ["TS10"]


def test_heroic_hands_must_be_defused_without_replacement_once_the_middle_is_empty() -> None:
    # E.2 Heroic, C.2.3: no face-down cards; players without cards are exempt
    g = game([["T01"], ["T02"], []], row=[], deck=[], difficulty="heroic")
    put(g, 0, "T01", 0, "K6")
    put(g, 1, "T02", 0, "Y1")
    roll(g, "R1", "B2", "G3")
    assert set(g.to_act()) == {0, 1}
    place(g, 0, "R1", "T01", 2)
    ev = done(g, 1)  # seat 1 did not finish: no win, seat 1 draws a spark, seat 2 does not
    assert not g.is_over and g.score_pile == ["T01"] and not g.picks
    assert drawn_sparks(ev) == [1] and cards_of(g, 1) == ["T02", "TS01"] and g.duds == [[], [], []]
    assert cards_of(g, 0) == []
    roll(g, "B2", "G5", "Y6")
    assert set(g.to_act()) == {1}
    place(g, 1, "B2", "T02", 2)
    assert not g.is_over  # the spark must go too
    roll(g, "G5", "Y6", "K1")
    ev = place(g, 1, "G5", "TS01", 1)
    assert g.is_over and g.outcome is not None and g.outcome.won
    assert g.outcome.score.bomb_points == 3 and g.outcome.score.spark_points == 2


def test_heroic_hands_stay_when_the_last_bomb_leaves_the_middle() -> None:
    # with a spark in play too: in Heroic nothing is turned face down (C.2.2 is for the other levels)
    g = game([["T01", "T24"], ["T02", "T24"], ["T03", "T24", "TS02"]], row=["T21"], deck=[],
             difficulty="heroic")
    put(g, 0, "T01", 0, "K6")
    roll(g, "R1", "B2", "G3")
    place(g, 0, "R1", "T01", 2)
    done(g, 1, 2)
    ev = act(g, "p0 take T21")
    assert "card_turned_down" not in kinds(ev)
    assert not g.is_over and g.duds == [[], [], []] and cards_of(g, 0) == ["T24", "T21"]
    assert cards_of(g, 1)[:2] == ["T02", "T24"] and cards_of(g, 2)[:3] == ["T03", "T24", "TS02"]


def test_a_two_player_game_saved_mid_turn_stops_the_clock_and_skips_step_4() -> None:
    # E.2 [REC]: the last bomb taken after an early defusal: the clock stops, the rest of the
    # turn's dice may still be placed, no sparks, everything defused that turn scores
    g = game([["T01", "T02"], ["T03", "T24"]], row=["T24"], deck=[])
    g.hands[1][1] = HandCard("T05", 2)
    put(g, 0, "T01", 0, "K6")
    put(g, 1, "T05", 0, "Y3")
    roll(g, "R1", "B3", "G3", "Y4")
    place(g, 0, "R1", "T01", 2, at=30_000)
    act(g, "p0 defuse T01 @31000")
    ev = act(g, "p0 take T24 @32000")
    assert "clock_stopped" in kinds(ev) and g.clock_stop == 32_000 and not g.is_over
    place(g, 1, "B3", "T05", 2, at=700_000)  # past the limit, but the clock has stopped
    ev = done(g, 0)
    ev += done(g, 1) if 1 in g.to_act() else []
    assert g.is_over and g.outcome is not None and g.outcome.won and not drawn_sparks(ev)
    assert sorted(g.score_pile) == ["T01", "T05"]
    assert g.outcome.score.time_bonus == 56 and g.outcome.score.bomb_points == 1 + 5


def test_the_score_counts_sparks_and_fuse_cards_won_or_lost() -> None:
    # E.3: +2 per defused spark and +2 per fuse card, whether the game is won or lost
    g = game([["T01", "T24"], ["T02", "T24"], ["T03", "T24"]], difficulty="expert")
    g.score_pile = ["T05", "T06"]
    g.sparks_defused = ["TS01", "TS02", "TS03"]
    g.fuses_activated = ["TZ1"]
    act(g, "tick @600000")
    assert g.outcome is not None and not g.outcome.won
    s = g.outcome.score
    assert (s.win_bonus, s.time_bonus, s.bomb_points, s.spark_points, s.fuse_points, s.total) == (
        0, 0, 11, 6, 2, 19)


def test_placements_are_refused_outside_step_2() -> None:
    g = game([["T01", "T24"], ["T02", "T24"], ["T03", "T24"]])
    put(g, 0, "T01", 0, "K6")
    roll(g, "R1", "B2", "G3")
    place(g, 0, "R1", "T01", 2)
    done(g, 1)
    free = g.free[:]
    done(g, 2)
    assert g.phase is Phase.DEFUSE
    with pytest.raises(NotYourDecision):
        act(g, f"p1 place d{free[0]} T24 s1")
    with pytest.raises(NotYourDecision):
        act(g, "p2 done")


def test_with_the_middle_empty_a_complete_bomb_leaves_nothing_to_decide_but_may_be_defused() -> None:
    # Heroic, 2 players, middle empty: seat 0's only card is complete. Defusing it early brings no
    # new card, so seat 0 is not held up (no "done" to press; to_act and the legal actions agree),
    # but an early defusal is still accepted (C.2 Step 3, 1-2 players)
    g = game([["T01"], ["T24"]], row=[], deck=[], difficulty="heroic")
    put(g, 0, "T01", 0, "K6")
    put(g, 1, "T24", 0, "K5")
    roll(g, "R1", "B2", "G3", "Y4")
    place(g, 0, "R1", "T01", 2, at=10_000)
    assert set(g.to_act()) == {1} == {a.seat for a in g.legal_actions()}
    with pytest.raises(NotYourDecision, match="nothing left to decide"):
        act(g, "p0 done")
    ev = act(g, "p0 defuse T01 @20000")
    assert kinds(ev) == ["bomb_defused"] and g.score_pile == ["T01"] and g.hands[0] == []
    assert not g.is_over and g.clock_stop is None  # seat 1's card is still to go
    place(g, 1, "B2", "T24", 2, at=30_000)
    place(g, 1, "G3", "T24", 3, at=31_000)
    assert g.is_over and g.outcome is not None and g.outcome.won
    assert sorted(g.score_pile) == ["T01", "T24"] and g.outcome.time_left_ms == 600_000 - 31_000


def test_a_complete_spark_may_be_cleared_early_and_is_a_decision() -> None:
    # "Sparks may also be cleared early": a player whose spark is complete decides when
    g = game([["TS10"], ["TS02"]], row=[], deck=[])
    roll(g, "R1", "B2", "G3", "Y4")
    place(g, 0, "R1", "TS10", 1, at=10_000)
    assert set(g.to_act()) == {0, 1} and {a.verb for a in g.legal_actions(0)} == {"defuse", "done"}
    ev = act(g, "p0 defuse TS10 @20000")
    assert kinds(ev) == ["spark_defused"] and g.sparks_defused == ["TS10"] and not g.is_over
    place(g, 1, "B2", "TS02", 1, at=30_000)
    ev = place(g, 1, "G3", "TS02", 2, at=40_000)
    assert "clock_stopped" not in kinds(ev) and g.is_over and g.outcome is not None and g.outcome.won
    assert g.outcome.score.spark_points == 4 and g.outcome.time_left_ms == 560_000


def test_with_no_spark_left_every_short_player_gives_up_dice_at_the_same_time() -> None:
    # G-37 fallback in Step 4 (2 players: one per die not taken): both players are asked at once;
    # a player's second die is asked for after their first choice
    g = game([["T24", "T01"], ["T24", "T01"]])
    g.spark_deck, g.spark_discard = [], []
    a0, b0 = put(g, 0, "T24", 0, "R1"), put(g, 0, "T24", 1, "R2")
    a1, b1, c1 = put(g, 1, "T24", 0, "B1"), put(g, 1, "T24", 1, "B2"), put(g, 1, "T01", 0, "B3")
    roll(g, "G1", "G2", "G3", "G4")
    ev = done(g, 0, 1)
    assert kinds(ev).count("no_spark_left") == 2 and set(g.removals) == {0, 1}
    assert set(g.removals[0]) == {a0, b0} and set(g.removals[1]) == {a1, b1, c1}
    act(g, f"p1 give d{c1}")
    assert set(g.removals) == {0, 1} and set(g.removals[1]) == {a1, b1}  # seat 1's second die
    ev = act(g, f"p0 give d{a0}")
    assert b0 in g.bag and 0 not in g.removals  # seat 0's second die: the only one left
    act(g, f"p1 give d{a1}")
    assert not g.removals and g.turn == 2 and g.dice_on_cards() == 1  # only B2 is left
