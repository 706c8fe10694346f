"""docs/rules.md's Countdown worked examples (H-12 .. H-16) and the Countdown parts of H-17, as tests.

Each position is a scenario document (``fusegame.scenario``: inline YAML here, or a file under
``tests/scenarios/countdown_*.yaml``) driven through the public API only: ``legal_actions``,
``apply``, ``to_act``, ``chance_outcomes`` / ``apply_chance``. Slots are 0-based in actions (docs/rules.md
writes S1/L1 for slot 0). Cards, sparks and fuse cards are ad hoc notations, so the tests do not
depend on the reconstructed Countdown catalogue. Unless a test says otherwise the game is a solo
Countdown game (quota 3; a complete card may be defused at once, C.2 Step 3) with feasibility on.

To turn over a fuse card in the middle of a solo or two-player turn, a test gives the player a
one-slot card TRIGGER: completing it, defusing it early and taking a row card refills the row from
the deck, whose top card is the fuse card (``flip``).
"""

from __future__ import annotations

from collections import Counter
from textwrap import dedent

import pytest

from conftest import TESTS, die, kinds, of_kind, on_card, place, refused, six_seats, slots
from fusegame import (
    Decision,
    Done,
    Event,
    GameConfig,
    GameOverError,
    GameState,
    IllegalPlacement,
    NotYourDecision,
    Phase,
    Place,
    TakeCard,
    Termination,
    Tick,
    new_game,
)
from fusegame.constraints import EMPTY
from fusegame.dice import BLACK, BLUE, GREEN, RED, YELLOW, die_type, parse_colours
from fusegame.rules.actions import Defuse, Name, Recolour, RollSix
from fusegame.rules.config import Game
from fusegame.rules.setup import _deal_hand
from fusegame.rules.table import Pick
from fusegame.scenario import dump_scenario, load_scenario, scenario_from_data, scenario_from_text

SCENARIOS = TESTS / "scenarios"
#: a middle of ad hoc cards (ids ROW1.. and DECK1..), for documents that do not give one
ROW = """
row: [{id: ROW1, notation: "? ?"}, {id: ROW2, notation: "? ? ?"}, {id: ROW3, notation: "# #"},
      {id: ROW4, notation: "% %"}, {id: ROW5, notation: "?"}]
"""
DECK = """
deck: [{id: DECK1, notation: "? ?"}, {id: DECK2, notation: "? ? ?"}]
"""
SOLO = "config: {game: countdown, players: 1}"
#: split dice for H-15: R/B, B/G, G/K, K/Y and Y/R (every colour on two of them)
SPLIT_DICE = "4R 4B 4G 4Y 4K 1R/B 1B/G 1G/K 1K/Y 1Y/R"


# ---------------------------------------------------------------------------------------- helpers
def load(doc: str) -> GameState:
    """Build a position from YAML; a document without a ``row`` (``deck``) gets ROW (DECK)."""
    text = dedent(doc)
    if "\nrow:" not in text:
        text += ROW
    if "\ndeck:" not in text:
        text += DECK
    g = scenario_from_text(text)
    assert scenario_from_data(dump_scenario(g)) == g  # every position here round-trips
    return g


def returned(events: list[Event]) -> list[tuple[int, int]]:
    """(seat, die id) of every die a penalty or fuse card sent back to the bag."""
    return [(e.data["seat"], e.data["die"]["id"]) for e in of_kind(events, "die_returned")]


def flip(g: GameState, label: str, seat: int = 0) -> list[Event]:
    """Complete TRIGGER with ``label``, defuse it at once (1-2 players) and take the first row card:
    the row is refilled from the deck, turning over its top card."""
    ev = place(g, label, "TRIGGER", 0, seat)
    assert "card_completed" in kinds(ev)
    if not any(p.card == "TRIGGER" for p in g.picks):  # with no die left to place Step 3 has begun
        ev += g.apply(Defuse(seat, g.time_ms, "TRIGGER"), chance=False)
    ev += g.apply(TakeCard(seat, g.time_ms, g.row[0]), chance=False)
    return ev


def roll(g: GameState, *dice: tuple[int, int]) -> list[Event]:
    """Resolve the turn's roll: the dice drawn, as (colour set, face) pairs."""
    return g.apply_chance(tuple(sorted(die_type(c, f) for c, f in dice)))


def spark_draws(events: list[Event]) -> Counter[int]:
    return Counter(e.data["seat"] for e in of_kind(events, "spark_drawn"))


# ---------------------------------------------------------------------------------------- H-12
H12 = '{id: H12, notation: "stack: # < # # < #"'


def test_h12_three_five_one_two_completes() -> None:
    g = load(f"""
        {SOLO}
        players: [[{H12}}}]]
        rolled: [R3, B5, G1]
        """)
    place(g, "R3", "H12", 0)
    place(g, "B5", "H12", 1)
    place(g, "G1", "H12", 2)
    g2 = load(f"""
        {SOLO}
        players: [[{H12}, dice: [R3, B5, G1]}}]]
        rolled: [Y2]
        """)
    assert slots(g2, "Y2", "H12") == {3}
    assert kinds(place(g2, "Y2", "H12", 3))[-1] == "card_completed"


def test_h12_second_level_must_be_greater() -> None:
    g = load(f"""
        {SOLO}
        players: [[{H12}, dice: [R3]}}]]
        rolled: [B3, B2, B4]
        """)
    assert slots(g, "B3", "H12") == set() and refused(g, "B3", "H12", 1)
    assert slots(g, "B2", "H12") == set() and refused(g, "B2", "H12", 1)
    assert slots(g, "B4", "H12") == {1}
    assert refused(g, "B4", "H12", 2)  # L3 cannot go in before L2


def test_h12_a_six_at_the_bottom_is_dead() -> None:
    g = load(f"""
        {SOLO}
        players: [[{H12}}}]]
        rolled: [R6, R5]
        """)
    assert slots(g, "R6", "H12") == set() and refused(g, "R6", "H12", 0)  # FAQ feasibility
    assert slots(g, "R5", "H12") == {0}


def test_h12_third_level_is_not_tied_to_the_second() -> None:
    g = load(f"""
        {SOLO}
        players: [[{H12}, dice: [R3, B5]}}]]
        rolled: [G6, G1]
        """)
    assert slots(g, "G6", "H12") == set() and refused(g, "G6", "H12", 2)  # nothing above 6 for L4
    assert slots(g, "G1", "H12") == {2}


@pytest.mark.parametrize(("stack", "lost"), [("[R3, B5]", None), ("[R3]", "R3")])
def test_h12_a_three_under_the_five_is_safe_from_a_three_fuse(stack: str, lost: str | None) -> None:
    g = load(f"""
        config: {{game: countdown, players: 1, difficulty: expert}}
        players: [[{H12}, dice: {stack}}}, {{id: TRIGGER, notation: "?"}}]]
        deck: ["fuse:3", {{id: DECK1, notation: "? ?"}}]
        rolled: [G4]
        """)
    before = g.hand_card(0, "H12").dice[:]  # type: ignore[union-attr]
    ev = flip(g, "G4")
    assert of_kind(ev, "fuse_activated")[0].data["shows"] == ["3"]
    if lost is None:
        assert returned(ev) == [] and g.hand_card(0, "H12").dice == before  # type: ignore[union-attr]
    else:
        assert returned(ev) == [(0, before[0])]  # the 3 alone on the card is not safe
    assert g.fuses_activated and g.row[-1] == "DECK1"


# ---------------------------------------------------------------------------------------- H-13
H13 = '{id: H13, notation: "wall: Y K B / R . G"'  # W1 W2 W3 = slots 0 1 2; U1 = 3 (on W1), U3 = 4 (on W3)


def test_h13_wall_order() -> None:
    g = load(f"""
        {SOLO}
        players: [[{H13}}}]]
        rolled: [K4, R2, B3, G6]
        """)
    assert slots(g, "K4", "H13") == {1}
    place(g, "K4", "H13", 1)
    assert slots(g, "R2", "H13") == set() and refused(g, "R2", "H13", 3)  # W1 is empty
    place(g, "B3", "H13", 2)
    assert slots(g, "G6", "H13") == {4}  # U3 rests on W3 only, W1 still empty
    place(g, "G6", "H13", 4)
    g2 = load(f"""
        {SOLO}
        players: [[{H13}, dice: [null, K4, B3, null, G6]}}]]
        rolled: [Y5, R1]
        """)
    assert slots(g2, "R1", "H13") == set()
    place(g2, "Y5", "H13", 0)
    assert slots(g2, "R1", "H13") == {3}
    assert kinds(place(g2, "R1", "H13", 3))[-1] == "card_completed"
    assert len([d for d in g2.hand_card(0, "H13").dice if d != EMPTY]) == 5  # type: ignore[union-attr]


@pytest.mark.parametrize(("fuse", "lost"), [("B", None), ("K", 1), ("G", 4)])
def test_h13_lower_die_under_an_upper_one_is_safe(fuse: str, lost: int | None) -> None:
    g = load(f"""
        config: {{game: countdown, players: 1, difficulty: expert}}
        players: [[{H13}, dice: [null, K4, B3, null, G6]}}, {{id: TRIGGER, notation: "?"}}]]
        deck: ["fuse:{fuse}", {{id: DECK1, notation: "? ?"}}]
        rolled: [R1]
        """)
    k4, b3, g6 = (on_card(g, 0, "H13", s) for s in (1, 2, 4))
    assert set(g.eligible_dice(0, lambda c, n: True)) == {k4, g6}  # B3 is under G6
    ev = flip(g, "R1")
    assert returned(ev) == ([] if lost is None else [(0, {1: k4, 4: g6}[lost])])
    assert b3 in g.hand_card(0, "H13").dice  # type: ignore[union-attr]


# ---------------------------------------------------------------------------------------- H-14
H14 = '{id: H14, notation: "ziggurat: B 5 6 Y / R"'  # Z1..Z4 = slots 0..3, top = 4


def test_h14_top_goes_last() -> None:
    g = load(f"""
        {SOLO}
        players: [[{H14}}}]]
        rolled: [R4, R5, R6]
        """)
    assert refused(g, "R4", "H14", 4)
    assert 4 not in slots(g, "R5", "H14") and slots(g, "R5", "H14") == {1}  # a base die on Z2
    assert slots(g, "R6", "H14") == {2}
    g3 = load(f"""
        {SOLO}
        players: [[{H14}, dice: [B1, K5, G6]}}]]
        rolled: [R4, Y2]
        """)
    assert slots(g3, "R4", "H14") == set() and refused(g3, "R4", "H14", 4)  # three base dice only


def test_h14_base_in_any_order_then_the_top() -> None:
    g = load(f"""
        {SOLO}
        players: [[{H14}}}]]
        rolled: [Y2, G6, B1]
        """)
    place(g, "Y2", "H14", 3)
    place(g, "G6", "H14", 2)
    place(g, "B1", "H14", 0)
    g2 = load(f"""
        {SOLO}
        players: [[{H14}, dice: [B1, null, G6, Y2]}}]]
        rolled: [K5, R4]
        """)
    assert slots(g2, "R4", "H14") == set()
    place(g2, "K5", "H14", 1)
    assert slots(g2, "R4", "H14") == {4}
    assert kinds(place(g2, "R4", "H14", 4))[-1] == "card_completed"


def test_h14_the_player_picks_the_base_slot() -> None:
    g = load(f"""
        {SOLO}
        players: [[{H14}}}]]
        rolled: [Y5, B6]
        """)
    assert slots(g, "Y5", "H14") == {1, 3}
    assert slots(g, "B6", "H14") == {0, 2}
    place(g, "Y5", "H14", 3)
    assert slots(g, "B6", "H14") == {0, 2}  # either choice leaves the card completable


# ---------------------------------------------------------------------------------------- H-15
H15 = '{id: H15, notation: "% !=c % !=c % !=c %"'


def test_h15_split_die_rules_out_both_its_colours_next_to_it() -> None:
    g = load(f"""
        config: {{game: countdown, players: 1, dice: "{SPLIT_DICE}"}}
        players: [[{H15}, dice: [null, K/Y2]}}]]
        rolled: [Y3, K1, R6, R/B5, G/K4]
        """)
    assert g.dice.colours[on_card(g, 0, "H15", 1)] == parse_colours("K/Y")
    for s in (0, 2):  # S1 and S3 are both neighbours of S2
        assert s not in slots(g, "Y3", "H15") and refused(g, "Y3", "H15", s)
        assert s not in slots(g, "K1", "H15") and refused(g, "K1", "H15", s)
        assert s in slots(g, "R6", "H15")
        assert s in slots(g, "R/B5", "H15")
        assert s not in slots(g, "G/K4", "H15") and refused(g, "G/K4", "H15", s)
    assert slots(g, "Y3", "H15") == {3}  # S4 only borders S3, still empty


def test_h15_split_die_next_to_a_yellow_die() -> None:
    g = load(f"""
        config: {{game: countdown, players: 1, dice: "{SPLIT_DICE}"}}
        players: [[{H15}, dice: [Y4]}}]]
        rolled: [K/Y3, R2]
        """)
    assert 1 not in slots(g, "Y/K3", "H15") and refused(g, "Y/K3", "H15", 1)
    assert 1 in slots(g, "R2", "H15")


def test_h15_a_yellow_fuse_card_takes_the_split_die() -> None:
    g = load(f"""
        config: {{game: countdown, players: 1, difficulty: expert, dice: "{SPLIT_DICE}"}}
        players: [[{H15}, dice: [R1, K/Y2]}}, {{id: TRIGGER, notation: "?"}}]]
        deck: ["fuse:Y", {{id: DECK1, notation: "? ?"}}]
        rolled: [B3]
        """)
    ky = on_card(g, 0, "H15", 1)
    ev = flip(g, "B3")
    assert returned(ev) == [(0, ky)] and ky in g.bag


def test_h15_a_cutter_naming_black_may_change_the_split_die() -> None:
    g = load(f"""
        config: {{game: countdown, players: 1, dice: "{SPLIT_DICE}"}}
        players: [[{H15}}}]]
        roles: [cutter]
        phase: roll
        """)
    assert g.to_act() == {0: Decision("name", ("R", "B", "G", "Y", "K"))}
    g.apply(Name(0, g.time_ms, "K"), chance=False)
    roll(g, (BLACK | YELLOW, 2), (RED, 5), (GREEN | BLACK, 6))
    ky, r5, gk = die(g, "Y/K2"), die(g, "R5"), die(g, "G/K6")
    changeable = {a.die for a in g.legal_actions(0) if isinstance(a, Recolour)}
    assert changeable == {ky, gk}  # both halves count: a split die with black qualifies
    g.apply(Recolour(0, g.time_ms, ky, "R"), chance=False)
    assert g.die_label(ky) == "Y/K2 as R"
    with pytest.raises(NotYourDecision):
        g.apply(Recolour(0, g.time_ms, r5, "B"))


# ---------------------------------------------------------------------------------------- H-16
H16 = '{id: H16, notation: "# # # ; a - b = c"'


def test_h16_equation_on_an_empty_card() -> None:
    g = load(f"""
        {SOLO}
        players: [[{H16}}}]]
        rolled: [R6, B1, G5]
        """)
    assert 1 not in slots(g, "R6", "H16") and refused(g, "R6", "H16", 1)  # FAQ: S2 = 6 needs S1 >= 7
    assert 0 not in slots(g, "B1", "H16") and refused(g, "B1", "H16", 0)  # S1 = 1 leaves nothing for S2 + S3
    assert 2 not in slots(g, "R6", "H16") and refused(g, "R6", "H16", 2)  # S3 = 6 needs S1 >= 7
    assert 0 in slots(g, "R6", "H16")
    assert 1 in slots(g, "G5", "H16")  # 6 - 5 = 1


def test_h16_equation_from_four() -> None:
    g = load(f"""
        {SOLO}
        players: [[{H16}, dice: [R4]}}]]
        rolled: [B4, B3, G2, K1]
        """)
    assert 1 not in slots(g, "B4", "H16") and refused(g, "B4", "H16", 1)  # would need S3 = 0
    assert 1 in slots(g, "B3", "H16")
    place(g, "B3", "H16", 1)
    assert 2 not in slots(g, "G2", "H16") and refused(g, "G2", "H16", 2)
    assert slots(g, "K1", "H16") == {2}
    assert kinds(place(g, "K1", "H16", 2))[-1] == "card_completed"


def test_h16_a_dead_card_exists_only_in_trust_mode() -> None:
    """H-16 "found later": S1 = 4 and S2 = 6 cannot be reached by legal placements, so a scenario
    needs ``check_cards: false`` (trust mode) to set it up; nothing can then complete the card.
    (The penalty for noticing it, D.8, belongs to an optional trust mode the engine does not have.)"""
    doc = f"""
        {SOLO}
        players: [[{H16}, dice: [R4, B6]}}]]
        rolled: [G1, G2, G3]
        """
    with pytest.raises(ValueError, match=r"^players\[0\]\.cards\[0\]\.dice: these dice cannot all be"):
        load(doc)
    g = load(doc + "check_cards: false\n")
    assert not [a for a in g.legal_actions(0) if isinstance(a, Place) and a.card == "H16"]


# ---------------------------------------------------------------------------------------- H-17.2
POINTS = """
cards: [{id: P1, notation: "?", points: 1}, {id: P2, notation: "?", points: 2},
        {id: P3, notation: "?", points: 3}, {id: P4, notation: "?", points: 4},
        {id: P5, notation: "?", points: 5}, {id: P6, notation: "?", points: 6},
        {id: Q1, notation: "?", points: 1}, {id: Q2, notation: "?", points: 2},
        {id: Q3, notation: "?", points: 3}, {id: Q4, notation: "?", points: 4},
        {id: Q6, notation: "?", points: 6}]
"""


def cards_worth(values: tuple[int, ...]) -> list[str]:
    """Distinct ad hoc card ids (from POINTS) with these point values, in order."""
    pool = {v: [f"P{v}", f"Q{v}"] for v in range(1, 7)}
    return [pool[v].pop(0) for v in values]


@pytest.mark.parametrize(("hand", "legal"), [
    ((5, 4), False), ((6, 3), True), ((2, 6), True), ((4, 4), False)])
def test_h17_2_countdown_two_card_hands(hand: tuple[int, int], legal: bool) -> None:
    g = load("config: {game: countdown, players: 2}\nplayers: [[], []]\n" + POINTS)
    first, second, spare = cards_worth((*hand, 1))
    pool: list[str] = [spare, second, first]  # dealt from the end
    rejects: list[str] = []
    dealt = _deal_hand(g, pool, rejects, 2)
    if legal:
        assert dealt == [first, second] and rejects == []
    else:  # a first card worth 4-6 needs a second worth 1-3
        assert dealt == [first, spare] and rejects == [second]


@pytest.mark.parametrize(("hand", "legal"), [
    ((1, 1, 2, 3), True), ((2, 2, 3, 3), False), ((3, 4, 6, 6), True), ((1, 2, 3, 4), True)])
def test_h17_2_countdown_solo_hands(hand: tuple[int, ...], legal: bool) -> None:
    g = load("config: {game: countdown, players: 1}\nplayers: [[]]\n" + POINTS)
    ids = cards_worth((*hand, 4, 5))
    pool, rejects = ids[::-1], []
    dealt = _deal_hand(g, pool, rejects, 4)
    assert len({g.bomb(c).points for c in dealt}) >= 3
    if legal:
        assert dealt == ids[:4] and rejects == []
    else:
        assert rejects and set(rejects) <= set(ids[:4])


@pytest.mark.parametrize("game", ["countdown", "integrated"])
def test_h17_2_dealt_countdown_hands_are_always_legal(game: str) -> None:
    for seed in range(40):
        for players in range(1, 5):
            g = new_game(GameConfig(players=players, game=Game(game)), seed=seed, chance=False)
            for hand in g.hands:
                values = [g.bomb(hc.card).points for hc in hand]
                if players == 1:
                    assert len(values) == 4 and len(set(values)) >= 3, values
                else:
                    assert len(values) == 2 and min(values) <= 3, values


# ---------------------------------------------------------------------------------------- H-17.3
def bombs_in_play(g: GameState) -> tuple[int, int]:
    """(bomb cards in the hands, bomb cards in the row and deck)."""
    fuse_ids = {f.id for f in g.catalogue.fuses}
    return sum(len(h) for h in g.hands), len([c for c in g.row + g.deck if c not in fuse_ids])


@pytest.mark.parametrize("seed", range(5))
def test_h17_3_countdown_two_players_expert(seed: int) -> None:
    g = scenario_from_text("config: {game: countdown, players: 2, difficulty: expert}\nplayers: [[], []]\n"
                           "row: ['? ?']\n")
    assert g.config.deck_size == 25 and len(g.dice) == 25
    dealt = new_game(GameConfig(players=2, game=Game.COUNTDOWN, difficulty="expert"), seed=seed,  # type: ignore[arg-type]
                     chance=False)
    hands, middle = bombs_in_play(dealt)
    assert hands + middle == 25 and middle == 21 and hands == 4


@pytest.mark.parametrize("seed", range(3))
def test_h17_3_epic_eight_players_heroic(seed: int) -> None:
    g = scenario_from_text("config: {game: epic, players: 8, difficulty: heroic}\nrow: ['? ?']\n")
    assert g.config.deck_size == 68
    assert len(g.dice) == 25 + 20 == 45  # Countdown's 25 and 20 FUSE dice
    dealt = new_game(GameConfig(players=8, game=Game.EPIC, difficulty="heroic"), seed=seed,  # type: ignore[arg-type]
                     chance=False)
    hands, middle = bombs_in_play(dealt)
    assert hands + middle == 68 and hands == 16
    assert len(dealt.dice) == 45 and dealt.roles is None  # no role cards in epic games


# ---------------------------------------------------------------------------------------- H-17.4
@pytest.mark.parametrize(("leader", "dice"), [(0, 4), (1, 3)])
def test_h17_4_three_players_with_the_logistics_specialist_roll_four(leader: int, dice: int) -> None:
    g = load(f"""
        config: {{game: countdown, players: 3}}
        players: [["? ? ?"], ["? ? ?"], ["? ? ?"]]
        roles: [logistics-specialist, technologist, disposal-expert]
        leader: {leader}
        phase: roll
        """)
    assert g.is_chance
    assert {len(t) for t, _ in g.chance_outcomes()} == {dice}
    ev = g.sample_chance()
    assert len(of_kind(ev, "dice_rolled")[0].data["dice"]) == dice == len(g.rolled)
    assert g.seat_quota(leader) == (2 if dice == 4 else 1)  # the leader may take one more


# ---------------------------------------------------------------------------------------- H-17.6
SPARK_DECK = """
spark_deck: [{id: SP1, spark: "?"}, {id: SP2, spark: "? ?"}, {id: SP3, spark: "# #"}, {id: SP4, spark: "%"}]
spark_discard: rest
"""


def finish(g: GameState, takes: dict[int, list[str]]) -> list[Event]:
    """Each seat places its dice (labels) on its first card, then everybody left says done."""
    ev: list[Event] = []
    for seat, labels in takes.items():
        card = g.hands[seat][0].card
        for label in labels:
            hc = g.hand_card(seat, card)
            assert hc is not None
            ev += place(g, label, card, hc.dice.index(EMPTY), seat)
    while g.phase is Phase.DISTRIBUTE and not g.is_over:
        seat = min(s for s, dec in g.to_act().items() if dec.kind == "distribute")
        ev += g.apply(Done(seat, g.time_ms), chance=False)
    return ev


@pytest.mark.parametrize(("players", "rolled", "takes", "sparks"), [
    (4, "[R1, B1, G1, Y1]", {0: ["R1"], 1: ["B1"], 2: ["G1"]}, {3: 1}),  # D takes nothing
    (2, "[R1, B1, G1, Y1]", {0: ["R1", "B1"]}, {1: 2}),  # A 2, B 0
    (1, "[R1, B1, G1]", {0: ["R1"]}, {0: 2}),  # solo, 1 taken
], ids=["4p", "2p", "solo"])
def test_h17_6_spark_counts(players: int, rolled: str, takes: dict[int, list[str]],
                            sparks: dict[int, int]) -> None:
    hands = "\n".join(f'  - [{{id: H{p}, notation: "? ? ? ? ?"}}]' for p in range(players))
    g = load(f"config: {{game: countdown, players: {players}}}\nplayers:\n{hands}\nrolled: {rolled}\n"
             + SPARK_DECK)
    ev = finish(g, takes)
    assert spark_draws(ev) == Counter(sparks)
    for seat, k in sparks.items():
        assert sum(1 for hc in g.hands[seat] if g.is_spark(hc.card)) == k
    assert g.phase is Phase.ROLL and g.leader == (1 if players > 1 else 0)


@pytest.mark.parametrize(("takes", "sparks"), [
    ({1: ["B1"], 2: ["G1"]}, {0: 1}),  # leader 0, B 1, C 1
    ({0: ["R1"], 1: ["B1"], 2: ["G1"]}, {}),  # everyone 1: the fourth die goes back free
    ({0: ["R1", "Y1"], 1: ["B1"]}, {2: 1}),  # leader 2 (the extra die), B 1, C 0
], ids=["leader-0", "everyone-1", "leader-2"])
def test_h17_6_spark_counts_with_the_logistics_specialist(takes: dict[int, list[str]],
                                                         sparks: dict[int, int]) -> None:
    g = load(dedent("""
        config: {game: countdown, players: 3}
        players: [[{id: H0, notation: "? ? ? ? ?"}], [{id: H1, notation: "? ? ? ? ?"}],
                  [{id: H2, notation: "? ? ? ? ?"}]]
        roles: [logistics-specialist, technologist, equipment-technician]
        rolled: [R1, B1, G1, Y1]
        """) + SPARK_DECK)
    assert g.roles.bonus_die and g.seat_quota(0) == 2 and g.seat_quota(1) == 1
    ev = finish(g, takes)
    assert spark_draws(ev) == Counter(sparks)
    assert g.phase is Phase.ROLL and not g.roles.bonus_die  # the extra die is this turn's only


# ---------------------------------------------------------------------------------------- H-17.7
def test_h17_7_a_complete_card_keeps_its_dice_when_a_fuse_card_flips_in_step_3() -> None:
    g = load_scenario(SCENARIOS / "countdown_complete_card_immunity.yaml")
    r2 = on_card(g, 1, "B1", 0)
    r3 = on_card(g, 2, "C1", 0)
    place(g, "G1", "A1", 1, seat=0)
    assert kinds(place(g, "G2", "B1", 1, seat=1))[-1] == "card_completed"  # complete in Step 2 ...
    ev = place(g, "G3", "C1", 1, seat=2)
    assert g.phase is Phase.DEFUSE  # ... and still waiting in Step 3
    assert g.to_act() == {0: Decision("take", tuple(g.row)), 1: Decision("take", tuple(g.row))}
    ev = g.apply(TakeCard(0, g.time_ms, "ROW1"), chance=False)
    assert kinds(ev)[:4] == ["bomb_defused", "card_taken", "fuse_activated", "die_returned"]
    assert of_kind(ev, "fuse_activated")[0].data["shows"] == ["R"]
    assert returned(ev) == [(2, r3)]  # B's R2 is on a complete card: immune
    assert on_card(g, 1, "B1", 0) == r2
    ev = g.apply(TakeCard(1, g.time_ms, g.row[0]), chance=False)
    assert of_kind(ev, "bomb_defused")[0].data["card"] == "B1" and r2 in g.bag


# ---------------------------------------------------------------------------------------- H-17.8
def test_h17_8_the_last_bomb_wins_in_step_3_and_cards_defused_that_step_score() -> None:
    g = load_scenario(SCENARIOS / "countdown_last_bomb.yaml")
    t0 = g.time_ms
    place(g, "G1", "A1", 1, seat=0)
    place(g, "G2", "B1", 1, seat=1)
    ev = g.apply(Done(2, t0 + 2_000), chance=False)  # C takes no die: Step 4 would give C a spark
    assert g.phase is Phase.DEFUSE and g.picks == [Pick(0, "A1"), Pick(1, "B1")]
    ev = g.apply(TakeCard(0, t0 + 5_000, "LAST"), chance=False)  # A takes the last row card
    assert kinds(ev) == ["bomb_defused", "card_taken", "bomb_defused", "game_won"]
    assert [e.data["card"] for e in of_kind(ev, "bomb_defused")] == ["A1", "B1"]  # B's card too
    assert not of_kind(ev, "spark_drawn")  # Step 4 is skipped
    out = g.outcome
    assert out is not None and out.won and out.reason is Termination.BOMBS_DEFUSED
    assert out.time_left_ms == 600_000 - (t0 + 5_000)  # the clock stopped at the take
    assert out.score.to_dict() == {"win_bonus": 10, "time_bonus": (600_000 - t0 - 5_000) // 10_000,
                                   "bomb_points": 2 + 3 + 4, "fuse_points": 0,
                                   "total": 10 + (600_000 - t0 - 5_000) // 10_000 + 9}
    with pytest.raises(GameOverError):
        g.apply(Tick(-1, t0 + 60_000))


def test_h17_8_two_players_saved_mid_turn_the_clock_stops_and_the_turn_is_finished() -> None:
    """E.2 [REC]: with 1-2 players the ship can be saved mid-turn; the clock stops at once, the
    turn's other dice may still be placed and defused, Step 4 is skipped."""
    g = load("""
        config: {game: countdown, players: 2}
        players:
          - [{id: A1, notation: "? ?", points: 2, dice: [R1]}]
          - [{id: B1, notation: "? ?", points: 3, dice: [B1]}]
        row: [{id: LAST, notation: "? ? ? ?", points: 4}]
        deck: []
        rolled: [G1, G2, G3]
        time_left: 100
        """)
    place(g, "G1", "A1", 1, seat=0)
    g.apply(Defuse(0, g.time_ms, "A1"), chance=False)
    ev = g.apply(TakeCard(0, 510_000, "LAST"), chance=False)
    assert kinds(ev) == ["bomb_defused", "card_taken", "clock_stopped"]
    assert g.step3.clock_stop == 510_000 and g.outcome is None
    g.apply(Tick(-1, 650_000))  # past the limit: the clock has stopped, nothing is lost
    assert g.outcome is None
    place(g, "G2", "B1", 1, seat=1)
    ev = g.apply(Done(0, g.time_ms), chance=False)  # A took 1 of 2 and B 1 of 2: no sparks
    assert kinds(ev)[-2:] == ["bomb_defused", "game_won"]
    assert not of_kind(ev, "spark_drawn")
    out = g.outcome
    assert out is not None and out.won and out.time_left_ms == 90_000
    assert out.score.bomb_points == 2 + 3 and out.score.time_bonus == 9


# ---------------------------------------------------------------------------------------- H-17.9
def spark_cleanup() -> GameState:
    """A takes the last row card while C still has a spark: the hand cards turn face down."""
    g = load_scenario(SCENARIOS / "countdown_spark_cleanup.yaml")
    place(g, "G1", "A1", 1, seat=0)
    place(g, "G2", "B1", 0, seat=1)
    place(g, "G3", "SPK", 0, seat=2)
    ev = g.apply(TakeCard(0, g.time_ms, "LAST"), chance=False)
    down = [(e.data["seat"], e.data["card"]) for e in of_kind(ev, "card_turned_down")]
    assert sorted(down) == [(0, "A2"), (0, "LAST"), (1, "B1"), (2, "C1")]
    assert g.sparks.duds == [["A2", "LAST"], ["B1"], ["C1"]]
    assert [[hc.card for hc in h] for h in g.hands] == [[], [], ["SPK"]]
    assert not of_kind(ev, "game_won") and not of_kind(ev, "spark_drawn")
    assert g.phase is Phase.ROLL and g.leader == 1
    return g


def test_h17_9_spark_clean_up_only_the_spark_holder_takes_a_die_and_wins() -> None:
    g = spark_cleanup()
    roll(g, (RED, 2), (BLUE, 3), (BLACK, 5))
    assert len(g.rolled) == 3  # still dice equal to the number of players
    assert g.to_act() == {2: Decision("distribute", tuple(g.rolled))}  # only C must take a die
    ev = place(g, "B3", "SPK", 1, seat=2)
    assert kinds(ev)[-3:] == ["card_completed", "spark_defused", "game_won"]
    out = g.outcome
    assert out is not None and out.won and g.sparks.defused == ["SPK"]
    assert out.score.spark_points == 2 and out.score.bomb_points == 2  # A1


def test_h17_9_spark_clean_up_time_runs_out() -> None:
    g = spark_cleanup()
    roll(g, (RED, 2), (BLUE, 3), (BLACK, 5))
    ev = g.apply(Tick(-1, 600_000))
    assert kinds(ev) == ["game_lost"]
    out = g.outcome
    assert out is not None and not out.won and out.reason is Termination.TIME_UP


# ---------------------------------------------------------------------------------------- H-17.10
EMPTY_BAG = """
config: {game: countdown, players: 4}
players:
  - [{id: X1, notation: "? ? ? ? ? ? ? ? ?", dice: [R1, R2, R3, B1, B2, B3]}]
  - [{id: X2, notation: "? ? ? ? ? ? ? ? ?", dice: [G1, G2, G3, G4, Y1, Y2]}]
  - [{id: X3, notation: "? ? ? ? ? ? ? ? ?", dice: [Y3, Y4, K1, K2, K3, K4]}]
  - [{id: X4, notation: "? ? ? ? ? ? ? ? ?", dice: [R/B1, B/G1, G/Y1, Y/K1, R/K1]}]
bag: [R, B]
phase: roll
"""


def test_h17_10_short_bag_two_dice_for_four_players_two_sparks() -> None:
    g = load(EMPTY_BAG + SPARK_DECK)
    assert len(g.bag) == 2 and {len(t) for t, _ in g.chance_outcomes()} == {2}
    roll(g, (RED, 3), (BLUE, 4))
    assert len(g.rolled) == 2
    place(g, "R3", "X1", 6, seat=0)
    ev = place(g, "B4", "X2", 6, seat=1)
    # the two players left without a die each draw a spark (G-28), then the bag is empty: lost
    assert spark_draws(ev) == Counter({2: 1, 3: 1})
    assert [hc.card for hc in g.hands[2]] == ["X3", "SP1"] and [hc.card for hc in g.hands[3]] == ["X4", "SP2"]
    assert g.outcome is not None and g.outcome.reason is Termination.BAG_EMPTY
    assert kinds(ev)[-1] == "game_lost"


def test_h17_10_empty_bag_at_turn_start_is_a_loss() -> None:
    g = load(EMPTY_BAG.replace("bag: [R, B]", "bag: []").replace("[R1, R2, R3, B1, B2, B3]",
                                                                   "[R1, R2, R3, R4, B1, B2, B3, B4]"))
    assert g.bag == []
    assert g.outcome is not None and g.outcome.reason is Termination.BAG_EMPTY


# ---------------------------------------------------------------------------------------- H-17.12
@pytest.mark.parametrize(("fuse", "taken"), [("B", False), ("R", True)])
def test_h17_12_cutter_colour_change_reverts_once_placed(fuse: str, taken: bool) -> None:
    g = load(f"""
        config: {{game: countdown, players: 1, difficulty: expert}}
        players: [[{{id: C, notation: "B =c %"}}, {{id: TRIGGER, notation: "?"}}]]
        roles: [cutter]
        deck: ["fuse:{fuse}", {{id: DECK1, notation: "? ?"}}]
        phase: roll
        """)
    g.apply(Name(0, g.time_ms, "R"), chance=False)
    roll(g, (RED, 3), (RED, 5), (BLUE, 2))
    r3 = die(g, "R3")
    assert refused(g, "R3", "C", 0)  # S1 wants blue
    g.apply(Recolour(0, g.time_ms, r3, "B"), chance=False)
    assert g.die_label(r3) == "R3 as B"
    assert 0 in slots(g, "R3 as B", "C")
    place(g, "R3 as B", "C", 0)
    assert g.die_label(r3) == "R3"  # red again for every purpose
    assert slots(g, "B2", "C") == set() and refused(g, "B2", "C", 1)  # S2 must share a colour with red
    assert slots(g, "R5", "C") == {1}
    ev = flip(g, "B2")
    assert of_kind(ev, "fuse_activated")[0].data["shows"] == [fuse]
    assert returned(ev) == ([(0, r3)] if taken else [])


@pytest.mark.parametrize(("fuse", "lost"), [("R", "R2"), ("B", "B4")])
def test_h17_12b_technologist_colour_change_against_a_placed_neighbour(fuse: str, lost: str) -> None:
    g = load(f"""
        config: {{game: countdown, players: 1, difficulty: expert}}
        players: [[{{id: C, notation: "% =c % ?", dice: [R2]}}, {{id: TRIGGER, notation: "?"}}]]
        roles: [technologist]
        deck: ["fuse:{fuse}", {{id: DECK1, notation: "? ?"}}]
        rolled: [B4, G1]
        """)
    r2, b4 = on_card(g, 0, "C", 0), die(g, "B4")
    assert refused(g, "B4", "C", 1)  # blue next to red under "same colour"
    g.apply(Recolour(0, g.time_ms, b4, "R"), chance=False)
    assert 1 in slots(g, "B4 as R", "C")
    place(g, "B4 as R", "C", 1)  # the relation is checked now, red = red
    assert on_card(g, 0, "C", 1) == b4 and g.die_label(b4) == "B4"
    assert slots(g, "G1", "C") == {2}  # D.9: the satisfied relation is not checked again
    ev = flip(g, "G1")
    assert returned(ev) == [(0, r2 if lost == "R2" else b4)]


# ---------------------------------------------------------------------------------------- H-17.13
def test_h17_13_roll_six_fuse_card() -> None:
    g = load_scenario(SCENARIOS / "countdown_roll_six.yaml")
    t = g.time_ms
    ev = g.apply(TakeCard(0, t, g.row[0]), chance=False)
    assert of_kind(ev, "fuse_activated")[0].data["effect"] == "roll-six"
    bag = g.bag[:]
    assert six_seats(g) == [0, 1, 2]
    assert g.to_act() == {s: Decision("roll_six") for s in range(3)}
    with pytest.raises(NotYourDecision):  # nothing else happens meanwhile
        g.apply(TakeCard(1, t, g.row[0]))
    rolls = {0: [2, 6], 1: [6], 2: [1, 5, 6]}
    for seat, faces in rolls.items():
        for face in faces:
            t += 1_000  # the clock keeps running
            g.apply(RollSix(seat, t), chance=False)
            assert g.is_chance and g.time_ms == t
            ev = g.apply_chance((face,))
            assert kinds(ev)[0] == ("six_rolled" if face == 6 else "not_six")
            assert g.bag == bag  # virtual dice: the bag is not touched
    assert six_seats(g) == [] and g.time_ms == t
    assert g.to_act() == {1: Decision("take", tuple(g.row))}  # play resumes
    assert g.row[-1] == "DECK1"  # the refill went on after the fuse card


def test_h17_13_time_runs_out_while_rolling_for_a_six() -> None:
    g = load_scenario(SCENARIOS / "countdown_roll_six.yaml")
    g.apply(TakeCard(0, g.time_ms, g.row[0]), chance=False)
    g.apply(RollSix(0, g.time_ms), chance=False)
    g.apply_chance((3,))
    ev = g.apply(Tick(-1, 600_000))
    assert kinds(ev) == ["game_lost"] and g.outcome is not None
    assert g.outcome.reason is Termination.TIME_UP


# ---------------------------------------------------------------------------------------- H-17.14
def test_h17_14_lose_roles_fuse_card() -> None:
    g = load("""
        config: {game: countdown, players: 2, difficulty: expert}
        players:
          - [{id: TRIGGER, notation: "?"}, {id: A2, notation: "? ? ? ?"}]
          - [{id: SPK, spark: "?"}, {id: B1, notation: "? ?", dice: [K1]}, {id: B2, notation: "? ? ? ?"}]
        roles: [equipment-technician, technologist]
        deck: ["fuse:lose-roles", {id: DECK1, notation: "? ?"}, {id: DECK2, notation: "? ?"}]
        rolled: [R1, B2, G3, Y4]
        """)
    ev = flip(g, "R1")
    assert of_kind(ev, "fuse_activated")[0].data["effect"] == "lose-roles"
    assert g.roles.up == [False, False]
    assert g.active_ability() is None  # the leader's own role is face down at once
    place(g, "B2", "A2", 0, seat=0)
    place(g, "G3", "B2", 0, seat=1)
    ev = place(g, "Y4", "B2", 1, seat=1)
    assert g.phase is Phase.ROLL and g.leader == 1 and not of_kind(ev, "spark_drawn")
    roll(g, (RED, 2), (GREEN, 5), (BLACK, 3), (YELLOW, 6))
    # the Technologist leads, face down: no colour changes
    assert not [a for a in g.legal_actions(1) if isinstance(a, Recolour)]
    with pytest.raises(NotYourDecision):
        g.apply(Recolour(1, g.time_ms, die(g, "R2"), "B"))
    place(g, "R2", "SPK", 0, seat=1)
    ev = g.apply(Defuse(1, g.time_ms, "SPK"), chance=False)
    assert kinds(ev) == ["spark_defused"] and g.roles.up == [False, False]  # a spark does not count
    place(g, "G5", "B1", 1, seat=1)
    ev = g.apply(Defuse(1, g.time_ms, "B1"), chance=False)
    ev += g.apply(TakeCard(1, g.time_ms, g.row[0]), chance=False)
    assert {"bomb_defused", "role_restored"} <= set(kinds(ev))
    assert g.roles.up == [False, True]  # only the player who defused a bomb card
    recolours = {a.die for a in g.legal_actions(1) if isinstance(a, Recolour)}
    assert recolours == set(g.unplaced()) and recolours  # at once, still this turn


# ---------------------------------------------------------------------------------------- H-17.15
def test_h17_15_solo_early_defusal() -> None:
    g = load("""
        config: {game: countdown, players: 1}
        players: [[{id: X, notation: "? ?", points: 2, dice: [R1]}, {id: Z, notation: "? ? ? ? ?"}]]
        row: [{id: Y, notation: "# = #"}, {id: ROW2, notation: "? ? ?"}]
        deck: [{id: DECK1, notation: "? ?"}]
        rolled: [B2, G3, K3]
        """)
    with pytest.raises(IllegalPlacement):  # Y is still in the row
        g.apply(Place(0, g.time_ms, die(g, "G3"), "Y", 0))
    ev = place(g, "B2", "X", 1)
    assert kinds(ev)[-1] == "card_completed"
    assert Defuse(0, g.time_ms, "X") in g.legal_actions(0)
    g.apply(Defuse(0, g.time_ms, "X"), chance=False)
    assert g.to_act() == {0: Decision("take", ("Y", "ROW2"))}
    ev = g.apply(TakeCard(0, g.time_ms, "Y"), chance=False)
    assert kinds(ev) == ["bomb_defused", "card_taken", "card_revealed"]
    assert g.score_pile == ["X"] and [hc.card for hc in g.hands[0]] == ["Z", "Y"]
    place(g, "G3", "Y", 0)
    ev = place(g, "K3", "Y", 1)
    assert kinds(ev)[-1] == "card_completed"


def test_h17_15_three_players_defuse_only_in_step_3() -> None:
    g = load("""
        config: {game: countdown, players: 3}
        players: [[{id: X, notation: "? ?", dice: [R1]}], ["? ?"], ["? ?"]]
        rolled: [B2, G3, K3]
        """)
    ev = place(g, "B2", "X", 1)
    assert kinds(ev)[-1] == "card_completed" and not g.picks
    assert not [a for a in g.legal_actions() if isinstance(a, Defuse)]
    with pytest.raises(NotYourDecision):
        g.apply(Defuse(0, g.time_ms, "X"))


# ---------------------------------------------------------------------------------------- H-17.17
@pytest.mark.parametrize(("left", "bonus"), [(9, 0), (10, 1), (599, 59)])
def test_h17_17_time_bonus(left: int, bonus: int) -> None:
    g = load(f"""
        config: {{game: countdown, players: 3}}
        players: [[{{id: L, notation: "? ?", points: 2, dice: [R1]}}], ["? ?"], ["? ?"]]
        row: [{{id: LAST, notation: "?"}}]
        deck: []
        rolled: [B2, G3, K4]
        time_left: {left}
        """)
    place(g, "B2", "L", 1, seat=0)
    place(g, "G3", g.hands[1][0].card, 0, seat=1)
    place(g, "K4", g.hands[2][0].card, 0, seat=2)
    ev = g.apply(TakeCard(0, g.time_ms, "LAST"))
    assert kinds(ev)[-1] == "game_won"
    out = g.outcome
    assert out is not None and out.won and out.score.time_bonus == bonus
    assert out.score.total == 10 + bonus + 2


def test_e3_countdown_scores() -> None:
    """E.3's worked numbers: won with 2:35 left, 41 bomb points, 4 fuse cards, 3 sparks -> 80; a
    loss with 30 bomb points, 2 sparks and 1 fuse card -> 36."""
    won = load("""
        config: {game: countdown, players: 1, difficulty: expert}
        cards: [{id: P10, notation: "?", points: 6}, {id: P11, notation: "?", points: 6},
                {id: P12, notation: "?", points: 6}, {id: P13, notation: "?", points: 6},
                {id: P14, notation: "?", points: 6}, {id: P15, notation: "?", points: 6},
                {id: P16, notation: "?", points: 3}]
        players: [[{id: L, notation: "? ?", points: 2, dice: [R1]}]]
        row: [{id: LAST, notation: "?"}]
        deck: []
        score_pile: [P10, P11, P12, P13, P14, P15, P16]
        fuses_activated: ["fuse:R", "fuse:B", "fuse:3", "fuse:6"]
        sparks_defused: [{id: SP1, spark: "?"}, {id: SP2, spark: "?"}, {id: SP3, spark: "?"}]
        rolled: [B2]
        time_left: 155
        """)
    place(won, "B2", "L", 1)  # the turn's only die: Step 3 follows
    won.apply(TakeCard(0, won.time_ms, "LAST"), chance=False)
    out = won.outcome
    assert out is not None and out.won
    assert out.score.to_dict() == {"win_bonus": 10, "time_bonus": 15, "bomb_points": 41, "fuse_points": 8,
                                   "spark_points": 6, "total": 80}
    lost = load("""
        config: {game: countdown, players: 1, difficulty: expert}
        cards: [{id: P10, notation: "?", points: 6}, {id: P11, notation: "?", points: 6},
                {id: P12, notation: "?", points: 6}, {id: P13, notation: "?", points: 6},
                {id: P14, notation: "?", points: 6}]
        players: [["? ?"]]
        score_pile: [P10, P11, P12, P13, P14]
        fuses_activated: ["fuse:R"]
        sparks_defused: [{id: SP1, spark: "?"}, {id: SP2, spark: "?"}]
        rolled: [B2]
        time_left: 5
        """)
    lost.apply(Tick(-1, 600_000))
    out = lost.outcome
    assert out is not None and not out.won
    assert out.score.to_dict() == {"win_bonus": 0, "time_bonus": 0, "bomb_points": 30, "fuse_points": 2,
                                   "spark_points": 4, "total": 36}
