"""Step 4: the sparks drawn for dice not taken (docs/rules.md C.2 Step 4, F.2, F.3, G-27, G-28, G-37,
H-17.6, H-17.10), in every game with spark cards: Countdown, the integrated and epic games and FUSE
with the Spark module.

With 3 players or more a player draws one spark per die short of the quota (one). With 1-2 players
the sparks drawn in all never exceed the rolled dice left untaken (less a Logistics leader's free
return): each player's share of the roll is their quota (0 without cards), the leader's share filled
first, and the untaken dice go one per die of shortfall, the leader's first, so a die the bag could
not give, or a die another player took, draws no spark. Players with no cards left draw none.
"""

from __future__ import annotations

from collections import Counter

import pytest

from conftest import kinds, of_kind, removals
from fusegame.constraints import EMPTY
from fusegame.rules import (
    Done,
    Event,
    GameState,
    GiveUp,
    Phase,
    Place,
    TakeCard,
    Termination,
    Tick,
    dice_per_turn,
)
from fusegame.rules.games import GameSpec
from game_variants import ALL, Variant, all_but, has_roles, load, uses_sparks, variants

#: a card no die completes (a bomb card of five free slots)
OPEN = "? ? ? ? ?"
COLOURS = ["R", "B", "G", "Y", "K"]


def rolled(n: int) -> list[str]:
    """``n`` dice of the main colours (R1, B1, ..., R2, ...)."""
    return [f"{COLOURS[i % 5]}{i // 5 + 1}" for i in range(n)]


def take(g: GameState, seat: int, n: int) -> list[Event]:
    """Seat ``seat`` places ``n`` of the dice in the middle on its first card."""
    ev: list[Event] = []
    for _ in range(n):
        hc = g.hands[seat][0]
        ev += g.apply(Place(seat, None, g.free[0], hc.card, hc.dice.index(EMPTY)), chance=False)
    return ev


def finish(g: GameState) -> list[Event]:
    """Everyone still distributing says done (the game stops at the next roll)."""
    ev: list[Event] = []
    while g.phase is Phase.DISTRIBUTE and not g.is_over:
        seat = min(s for s, d in g.to_act().items() if d.kind == "distribute")
        ev += g.apply(Done(seat, None), chance=False)
    return ev


def drawn(events: list[Event]) -> Counter[int]:
    return Counter(e.data["seat"] for e in of_kind(events, "spark_drawn"))


def sparks_of(g: GameState, seat: int) -> list[str]:
    return [hc.card for hc in g.hands[seat] if g.is_spark(hc.card)]


# ----------------------------------------------------------------------------- a full roll
#: players, dice taken by each seat (the leader is seat 0), the seats that draw a spark
FULL_ROLLS = [
    (1, (1,), [0, 0]),  # 1-2 players: one spark per die not taken
    (1, (3,), []),
    (2, (2, 0), [1, 1]),
    (2, (1, 1), [0, 1]),
    (2, (1, 0), [0, 1, 1]),
    (3, (0, 0, 1), [0, 1]),  # 3 players and more: one spark for a player who took no die
    (3, (1, 0, 0), [1, 2]),
    (4, (1, 1, 1, 0), [3]),
    (5, (1, 1, 0, 1, 0), [2, 4]),
    (6, (1, 0, 1, 0, 1, 0), [1, 3, 5]),
]


@pytest.mark.parametrize(("variant", "players", "taken", "sparks"), [
    pytest.param(v, p, t, s, id=f"{v}-{p}p-{''.join(map(str, t))}")
    for v in ALL if uses_sparks(v.spec) for p, t, s in FULL_ROLLS if v.seats(p)])
def test_sparks_are_drawn_for_dice_not_taken(variant: Variant, players: int, taken: tuple[int, ...],
                                             sparks: list[int]) -> None:
    # C.2 Step 4, F.2, F.3, H-17.6
    g = load(variant, players, {"players": [[OPEN]] * players, "row": ["? ?"],
                                "rolled": rolled(dice_per_turn(players))})
    for seat, n in enumerate(taken):
        take(g, seat, n)
    ev = finish(g)
    assert sorted(drawn(ev).elements()) == sparks
    for seat in range(players):  # each spark drawn lies in front of the player who drew it
        assert sparks_of(g, seat) == [e.data["card"] for e in of_kind(ev, "spark_drawn")
                                      if e.data["seat"] == seat]
    assert "penalty_rolled" not in kinds(ev) and g.phase is Phase.ROLL and g.turn == 2
    assert len(g.bag) == len(g.dice) - sum(taken)  # the untaken dice are back in the bag, unrolled


# ----------------------------------------------------------------------------- a short roll
@pytest.mark.parametrize("variant", variants(uses_sparks, players=1))
@pytest.mark.parametrize(("bag", "placed", "sparks"), [
    (["R", "B"], 2, 0),  # both dice the bag held were taken: nothing is owed for the third
    (["R", "B"], 1, 1),
    (["R", "B", "G"], 2, 1),
    (["R", "B", "G"], 3, 0),
], ids=["2-rolled-2-taken", "2-rolled-1-taken", "3-rolled-2-taken", "3-rolled-3-taken"])
def test_solo_draws_a_spark_only_for_dice_rolled_and_not_taken(variant: Variant, bag: list[str], placed: int,
                                                               sparks: int) -> None:
    g = load(variant, 1, {"players": [[OPEN, all_but(variant, 1, bag)]], "row": ["? ?"], "bag": bag,
                          "phase": "roll"})
    assert {len(o) for o, _ in g.chance_outcomes()} == {len(bag)}
    g.sample_chance()
    ev = take(g, 0, placed) + finish(g)
    assert drawn(ev) == Counter({0: sparks}) and len(sparks_of(g, 0)) == sparks
    if placed == len(bag):  # the bag is empty: the next turn cannot be rolled
        assert g.outcome is not None and g.outcome.reason is Termination.BAG_EMPTY
        assert kinds(ev)[-1] == "game_lost"
    else:
        assert g.outcome is None and g.turn == 2 and len(g.bag) == len(bag) - placed


def assert_sparks_after(g: GameState, taken: tuple[int, int], sparks: dict[int, int]) -> None:
    """Two players take ``taken`` dice of the roll and the turn ends: each draws ``sparks[seat]``."""
    ev: list[Event] = []
    for seat, n in enumerate(taken):
        ev += take(g, seat, n)
    ev += finish(g)
    assert drawn(ev) == Counter(sparks)
    assert [len(sparks_of(g, s)) for s in range(2)] == [sparks.get(s, 0) for s in range(2)]


@pytest.mark.parametrize("variant", variants(uses_sparks, players=2))
@pytest.mark.parametrize(("bag", "leader", "taken", "sparks"), [
    (["R", "B", "G"], 0, (2, 1), {}),  # shares: the leader 2, the other 1
    (["R", "B", "G"], 0, (1, 0), {0: 1, 1: 1}),
    (["R", "B", "G"], 0, (0, 1), {0: 2}),
    (["R", "B", "G"], 0, (2, 0), {1: 1}),
    (["R", "B", "G"], 0, (0, 0), {0: 2, 1: 1}),
    (["R", "B", "G"], 1, (1, 0), {1: 2}),  # seat 1 leads: its share is filled first
    (["R", "B", "G"], 0, (1, 2), {}),  # G-28's example: every rolled die was taken, nobody draws
    (["R", "B", "G"], 0, (0, 2), {0: 1}),  # one die left: the leader draws one, not two
    (["R", "B", "G"], 1, (0, 0), {1: 2, 0: 1}),
    (["R"], 0, (0, 1), {}),  # one die, the leader's share, but the other took it: nothing is left
    (["R"], 0, (0, 0), {0: 1}),
], ids=["2-1", "1-0", "0-1", "2-0", "0-0", "leader-1", "1-2", "0-2", "leader-1-0-0",
        "one-die-taken-by-the-other", "one-die-left"])
def test_two_players_share_a_short_roll_the_leaders_share_first(variant: Variant, bag: list[str], leader: int,
                                                                taken: tuple[int, int],
                                                                sparks: dict[int, int]) -> None:
    g = load(variant, 2, {"players": [[OPEN, all_but(variant, 2, bag)], [OPEN]], "row": ["? ?"], "bag": bag,
                          "leader": leader, "phase": "roll"})
    assert {len(o) for o, _ in g.chance_outcomes()} == {len(bag)}
    g.sample_chance()
    assert_sparks_after(g, taken, sparks)


def roles_and_sparks(spec: GameSpec) -> bool:
    return has_roles(spec) and uses_sparks(spec)


@pytest.mark.parametrize("variant", variants(roles_and_sparks, players=2))
@pytest.mark.parametrize(("bag", "taken", "sparks"), [
    (["R", "B", "G"], (3, 0), {}),  # the leader took every die: the other draws none for them
    (["R", "B", "G"], (2, 0), {}),  # no extra die taken: the one die left is the free return
    (["R", "B", "G"], (1, 1), {}),
    (["R", "B", "G", "Y"], (2, 1), {}),
    (["R", "B", "G", "Y"], (1, 1), {0: 1}),  # two left, one free: the leader's shortfall first
    (["R", "B", "G", "Y"], (3, 0), {1: 1}),  # the extra die taken: no free return
    (["R", "B", "G", "Y", "K"], (2, 2), {}),  # a full roll: max(0, quota - taken), as before
    (["R", "B", "G", "Y", "K"], (3, 1), {1: 1}),
    (["R", "B", "G", "Y", "K"], (1, 1), {0: 1, 1: 1}),
], ids=["3-rolled-3-0", "3-rolled-2-0", "3-rolled-1-1", "4-rolled-2-1", "4-rolled-1-1", "4-rolled-3-0",
        "5-rolled-2-2", "5-rolled-3-1", "5-rolled-1-1"])
def test_two_players_short_roll_with_a_logistics_leader(
        variant: Variant, bag: list[str], taken: tuple[int, int], sparks: dict[int, int]) -> None:
    # C.2 Step 4, G-27, G-28: given a Logistics Specialist leading with only ``bag`` left to
    # draw, when the players take ``taken`` dice, then the sparks never exceed the untaken dice
    # less the free return (the leader took no extra die), and a die the leader took charges nobody
    g = load(variant, 2, {"players": [[OPEN, all_but(variant, 2, bag)], [OPEN]], "row": ["? ?"], "bag": bag,
                          "roles": ["logistics-specialist", None], "phase": "roll"})
    g.sample_chance()
    assert len(g.rolled) == len(bag) and g.seat_quota(0) == 3
    assert_sparks_after(g, taken, sparks)


@pytest.mark.parametrize("variant", variants(uses_sparks, players=2))
@pytest.mark.parametrize(("rolls", "placed", "sparks"), [
    (3, 1, 2 - 1),  # the other's share is the quota, 2: one die short
    (2, 0, 2),  # a short roll: both dice are the other's share
    (2, 1, 1),
    (1, 0, 1),
    (4, 2, 0),  # a share is never more than the quota: the two dice left charge nobody
], ids=["3-rolled-1-placed", "2-rolled-0-placed", "2-rolled-1-placed", "1-rolled-0-placed",
        "4-rolled-2-placed"])
def test_in_the_spark_clean_up_a_leader_without_cards_has_no_share(variant: Variant, rolls: int, placed: int,
                                                                   sparks: int) -> None:
    # C.2.2, G-28: given the middle empty and a leader with no cards left (not required to take
    # dice), when the other player, who still has a spark, takes ``placed`` of the rolled dice,
    # then the leader's share is 0, the other's is the roll up to the quota, and the other draws
    # one spark per die of it not taken
    g = load(variant, 2, {"players": [[], [{"id": "SPK", "spark": "? ? ? ?"}]], "row": [], "deck": [],
                          "rolled": rolled(rolls)})
    assert g.leader == 0 and set(g.to_act()) == {1}
    ev = take(g, 1, placed) + finish(g)
    assert drawn(ev) == Counter({1: sparks} if sparks else {})
    assert g.hands[0] == [] and len(sparks_of(g, 1)) == 1 + sparks


@pytest.mark.parametrize("variant", variants(uses_sparks, players=2))
@pytest.mark.parametrize("bag", [["R", "B", "G"], ["R", "B", "G", "Y", "K"]], ids=["short", "full"])
def test_a_player_with_no_cards_draws_no_spark(variant: Variant, bag: list[str]) -> None:
    g = load(variant, 2, {"players": [[OPEN, all_but(variant, 2, bag)], []], "row": ["? ?"], "bag": bag,
                          "phase": "roll"})
    g.sample_chance()
    ev = take(g, 0, 1) + finish(g)
    assert drawn(ev) == Counter({0: 1}) and g.hands[1] == []


@pytest.mark.parametrize("variant", variants(uses_sparks))
def test_with_three_players_or_more_a_short_roll_still_charges_every_player_without_a_die(
        variant: Variant) -> None:
    # H-17.10, G-28: two dice for four players (three for an epic game's six): the players left
    # without a die draw a spark each, then the empty bag loses the game
    players = variant.fewest(4)
    bag = ["R", "B"] if players == 4 else ["R", "B", "G"]
    hands = [[OPEN, all_but(variant, players, bag)]] + [[OPEN]] * (players - 1)
    g = load(variant, players, {"players": hands, "row": ["? ?"], "bag": bag, "phase": "roll"})
    assert {len(o) for o, _ in g.chance_outcomes()} == {len(bag)}
    g.sample_chance()
    ev: list[Event] = []
    for seat in range(len(bag)):
        ev += take(g, seat, 1)
    assert drawn(ev) == Counter({s: 1 for s in range(len(bag), players)})
    assert g.outcome is not None and g.outcome.reason is Termination.BAG_EMPTY
    assert kinds(ev)[-1] == "game_lost"


# ----------------------------------------------------------------------------- no spark left
@pytest.mark.parametrize("variant", variants(uses_sparks, players=2))
def test_with_no_spark_left_every_short_player_gives_up_dice_at_the_same_time(variant: Variant) -> None:
    # G-37 fallback in Step 4 (2 players: one per die not taken): both players are asked at once;
    # a player's second die is asked for after their first choice. Without the catalogue's cards
    # the game has no spark card, so none is left to draw (a document sets none aside)
    g = load(variant, 2, {
        "players": [[{"notation": "? ? ?", "dice": ["R1", "R2"]}, "? ?"],
                    [{"notation": "? ? ?", "dice": ["B1", "B2"]}, {"notation": "? ?", "dice": ["B3"]}]],
        "row": ["? ?"], "builtin_cards": False, "spark_deck": [], "rolled": ["G1", "G2", "G3", "G4"]})
    (a0, b0), (a1, b1), c1 = g.hands[0][0].dice[:2], g.hands[1][0].dice[:2], g.hands[1][1].dice[0]
    ev = finish(g)
    assert kinds(ev).count("no_spark_left") == 2 and set(removals(g)) == {0, 1}
    assert set(removals(g)[0]) == {a0, b0} and set(removals(g)[1]) == {a1, b1, c1}
    g.apply(GiveUp(1, None, c1), chance=False)
    assert set(removals(g)) == {0, 1} and set(removals(g)[1]) == {a1, b1}  # seat 1's second die
    g.apply(GiveUp(0, None, a0), chance=False)
    assert b0 in g.bag and 0 not in removals(g)  # seat 0's second die: the only one left
    g.apply(GiveUp(1, None, a1), chance=False)
    assert not removals(g) and g.turn == 2 and g.dice_on_cards() == 1  # only B2 is left


@pytest.mark.parametrize("variant", variants(uses_sparks))
def test_with_no_spark_left_a_player_with_one_die_to_give_gives_it_at_once(variant: Variant) -> None:
    # F.3: "if all of them are in play, return one die of your choice from one of your cards";
    # nobody takes a die, so every player owes a spark and none is left (without the catalogue's
    # cards the game has no spark card)
    players = variant.fewest(3)
    hands = [["? ? ?"], [{"notation": "? ? ?", "dice": ["B1"]}]] + [["? ? ?"]] * (players - 2)
    g = load(variant, players, {"players": hands, "row": ["? ?"], "builtin_cards": False, "spark_deck": [],
                                "rolled": rolled(players)})
    b1 = g.hands[1][0].dice[0]
    ev = finish(g)
    assert kinds(ev).count("no_spark_left") == players
    assert [(e.data["seat"], e.data["die"]["id"], e.data["cause"]) for e in of_kind(ev, "die_returned")] == [
        (1, b1, {"kind": "no_spark"})]
    assert b1 in g.bag and not removals(g) and g.turn == 2


# ----------------------------------------------------------------------------- the spark clean-up
def clean_up(variant: Variant) -> GameState:
    """C.2.2, H-17.9: A takes the last bomb card of the middle while C still has a spark: every
    unfinished bomb in front of the players is turned face down (its dice go back in the bag).
    Returns the game at the next roll."""
    players = variant.fewest(3)
    g = load(variant, players, {
        "players": [[{"id": "A1", "notation": "? ?", "dice": ["K6"]}, {"id": "A2", "notation": "? ? ?"}],
                    [{"id": "B1", "notation": "? ? ?", "dice": ["Y1"]}],
                    [{"id": "C1", "notation": "? ? ?"}, {"id": "SPK", "spark": "? ?"}]]
        + [["? ?"]] * (players - 3),
        "row": [{"id": "LAST", "notation": "? ? ?"}], "deck": [], "rolled": rolled(players)})
    on_dud = g.hands[1][0].dice[0]
    others = [hand[0].card for hand in g.hands[3:]]
    g.apply(Place(0, None, g.free[0], "A1", 1), chance=False)  # complete
    g.apply(Place(2, None, g.free[0], "SPK", 0), chance=False)
    for seat in [1, *range(3, players)]:
        g.apply(Done(seat, None), chance=False)
    ev = g.apply(TakeCard(0, None, "LAST"), chance=False)
    assert not g.is_over and g.sparks_in_play() == 1
    down = ["A2", "LAST", "B1", "C1", *others]
    assert [e.data["card"] for e in of_kind(ev, "card_turned_down")] == down
    assert g.sparks is not None and on_dud in g.bag
    assert g.sparks.duds == [["A2", "LAST"], ["B1"], ["C1"]] + [[c] for c in others]
    assert [[hc.card for hc in hand] for hand in g.hands] == [[], [], ["SPK"]] + [[]] * (players - 3)
    # Step 4: B took no die but has no cards: no spark; C took one
    assert not drawn(ev) and g.phase is Phase.ROLL and g.turn == 2
    return g


@pytest.mark.parametrize("variant", variants(uses_sparks))
def test_no_win_while_a_spark_is_in_play_then_the_spark_clean_up(variant: Variant) -> None:
    # the next turns roll one die per player as before and only C must take one; C clears -> win
    g = clean_up(variant)
    if g.players <= 4:  # (the outcomes of an epic game's larger roll are too many to list here)
        assert {len(o) for o, _ in g.chance_outcomes()} == {g.players}
    g.sample_chance()
    assert len(g.rolled) == g.players and set(g.to_act()) == {2}
    ev = g.apply(Place(2, 200_000, g.free[0], "SPK", 1), chance=False)
    assert kinds(ev)[-2:] == ["spark_defused", "game_won"]
    assert g.outcome is not None and g.outcome.won and g.outcome.time_left_ms == 400_000
    assert g.sparks is not None and g.sparks.defused == ["SPK"]
    assert g.outcome.score.spark_points == 2 and g.outcome.score.bomb_points == 1


@pytest.mark.parametrize("variant", variants(uses_sparks))
def test_the_spark_clean_up_lost_on_time(variant: Variant) -> None:
    g = clean_up(variant)
    g.sample_chance()
    ev = g.apply(Tick(-1, 600_000))
    assert g.outcome is not None and not g.outcome.won and g.outcome.reason is Termination.TIME_UP
    # E.3: a lost game still scores its bombs and sparks (and fuse cards)
    assert g.outcome.score.total == 1 and kinds(ev) == ["game_lost"]


@pytest.mark.parametrize("variant", variants(uses_sparks))
def test_a_player_without_cards_in_the_clean_up_draws_no_sparks_and_one_with_sparks_does(
        variant: Variant) -> None:
    players = variant.fewest(3)
    g = load(variant, players, {
        "players": [[{"id": "ONE", "spark": "?"}], [], [{"id": "TWO", "spark": "? ?"}]]
        + [[]] * (players - 3),
        "row": [], "deck": [], "rolled": rolled(players)})  # the middle is already empty
    assert set(g.to_act()) == {0, 2}
    ev = g.apply(Place(0, None, g.free[0], "ONE", 0), chance=False)
    ev += g.apply(Done(2, None), chance=False)
    assert drawn(ev) == Counter({2: 1}) and not g.is_over  # seat 1 has no cards: exempt
    assert g.sparks is not None and g.sparks.discard == ["ONE"]
