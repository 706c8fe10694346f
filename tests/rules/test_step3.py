"""Countdown's five-step turn and its end (docs/rules.md A.9.2, B.3.2-B.5, C.2, C.2.3, E.2, E.3, G-24,
G-38, G-43, H-17.3/8/15): the deal, Step 3 (complete cards wait for it; 1-2 players may defuse
early), the clock that stops when a small team saves the ship mid-turn, and the score.

The roll and Step 4's sparks, shared with the other games, are checked in every game in
``test_turn.py`` and ``test_sparks.py``. Setups come from ``new_game`` (tables, dealing) or are built
by hand from the small test deck (``tests/data/countdown_test_cards.toml``), with every roll chosen
through ``apply_chance``.
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
from fusegame.rules.setup import _deal_hand
from fusegame.rules.table import HandCard, Pick

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
    assert len(g.sparks.deck) == 30 and not g.sparks.discard
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
    assert g.phase is Phase.DEFUSE and g.picks == [Pick(0, "T01")]
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
    assert sorted(g.picks, key=lambda p: (p.seat, p.card)) == [Pick(0, "T01"), Pick(0, "T07"), Pick(1, "T02")]
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
    assert g.picks == [Pick(0, "T01")] and g.to_act()[0].kind == "take"
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
    assert g.phase is Phase.DEFUSE and g.picks == [Pick(0, "T01")]


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
    assert drawn_sparks(ev) == [1] and cards_of(g, 1) == ["T02", "TS01"] and g.sparks.duds == [[], [], []]
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
    assert not g.is_over and g.sparks.duds == [[], [], []] and cards_of(g, 0) == ["T24", "T21"]
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
    assert "clock_stopped" in kinds(ev) and g.step3.clock_stop == 32_000 and not g.is_over
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
    g.sparks.defused = ["TS01", "TS02", "TS03"]
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
    assert not g.is_over and g.step3.clock_stop is None  # seat 1's card is still to go
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
    assert kinds(ev) == ["spark_defused"] and g.sparks.defused == ["TS10"] and not g.is_over
    place(g, 1, "B2", "TS02", 1, at=30_000)
    ev = place(g, 1, "G3", "TS02", 2, at=40_000)
    assert "clock_stopped" not in kinds(ev) and g.is_over and g.outcome is not None and g.outcome.won
    assert g.outcome.score.spark_points == 4 and g.outcome.time_left_ms == 560_000


