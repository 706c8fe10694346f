"""Combining the sets (docs/rules.md F): the five Countdown modules for FUSE alone and together,
integrated sets, epic games, and the configuration errors that guard them.

Uses the built-in catalogue (FUSE cards F01-F54 / FZ*, Countdown cards C01-C52, sparks S01-S30,
fuse cards CZ1-CZ10, roles CR1-CR7); positions are set up by hand where a rule needs a chosen roll.
A rule a module brings that its Countdown original shares (sparks, roles, fuse cards, split dice)
is checked in every game that has it, in the test module of that part of the rules.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from conftest import act, die, kinds, put, removals, roll, turn_start
from fusegame.cards import builtin_catalogue
from fusegame.cards.model import Ability, FuseEffect
from fusegame.constraints import EMPTY
from fusegame.dice import BLACK, COLOURS, YELLOW
from fusegame.rng import Rng
from fusegame.rules import (
    ConfigError,
    Event,
    GameConfig,
    GameState,
    NotYourDecision,
    Phase,
    new_game,
)
from fusegame.rules.config import EPIC_DECK_SIZE
from fusegame.rules.table import Pick
from fusegame.scenario import dump_scenario, scenario_from_data, scenario_from_text
from game_variants import ALL

CAT = builtin_catalogue()
ROLE = {r.ability: r.id for r in CAT.roles}
SPLIT_BOMBS = {b.id for b in CAT.bombs if b.shape.requires_split_die}
SPLIT_SPARKS = {s.id for s in CAT.sparks if s.shape.requires_split_die}
FUSE_BOMBS = {b.id for b in CAT.bombs if b.set == "fuse"}
COUNTDOWN_BOMBS = {b.id for b in CAT.bombs if b.set == "countdown"}
LOSE_ROLES = next(f.id for f in CAT.fuses if f.effect is FuseEffect.LOSE_ROLES)
DRAW_SPARK = next(f.id for f in CAT.fuses if f.effect is FuseEffect.SPARK)
ROLL_SIX = next(f.id for f in CAT.fuses if f.effect is FuseEffect.ROLL_SIX)


# ----------------------------------------------------------------------------- helpers
def game(hands: list[list[str]], *, modules: str = "", roles: list[Ability | None] | None = None,
         leader: int = 0, row: list[str] | None = None, deck: list[str] | None = None,
         game: str = "fuse", **kw: Any) -> GameState:
    """A game at the start of a turn (before the draw), set up by hand."""
    config = GameConfig(players=len(hands), game=game, modules=modules, **kw)
    return turn_start(config, hands, ["F40", "F41", "F42", "F43", "F44"] if row is None else row,
                      ["F45", "F46", "F47"] if deck is None else deck, seed=5,
                      spark_deck=sorted((s.id for s in config.playable.sparks), reverse=True)  # S01 on top
                      if "sparks" in config.parts else None,
                      roles=None if roles is None else [ROLE[r] if r else "" for r in roles], leader=leader)


def done_all(g: GameState) -> list[Event]:
    ev: list[Event] = []
    for seat in range(g.players):
        if seat in g.to_act() and g.to_act()[seat].kind == "distribute":
            ev += act(g, f"p{seat} done")
    return ev


def round_trip(g: GameState) -> GameState:
    return scenario_from_data(dump_scenario(g))


def bombs_in_deck(g: GameState) -> list[str]:
    return [c for c in g.deck if c in FUSE_BOMBS | COUNTDOWN_BOMBS]


def fuses_in_deck(g: GameState) -> list[str]:
    return [c for c in g.deck if c not in FUSE_BOMBS | COUNTDOWN_BOMBS]


# ----------------------------------------------------------------------------- roles module
def test_roles_module_abilities_act_on_the_main_roll_not_on_penalty_rerolls() -> None:
    # F.2, G-35: a Disposal Expert cannot turn an unused die's penalty roll
    g = game([["F33"], ["F32"], ["F16"]], modules="roles", roles=[Ability.DISPOSAL_EXPERT, None, None])
    roll(g, "R1", "B2", "G3")
    r1 = die(g, "R1")
    act(g, f"p0 flip d{r1}")  # the main roll: R1 becomes R6
    assert g.die_label(r1) == "R6"
    done_all(g)
    assert g.phase is Phase.PENALTY and len(g.unused) == 3
    b2 = next(d for d in g.unused if g.die_label(d) == "B2")
    with pytest.raises(NotYourDecision, match="around the turn's roll"):
        act(g, f"p0 flip d{b2}")
    act(g, f"p0 reroll d{b2}")
    assert g.is_chance
    with pytest.raises(NotYourDecision):
        act(g, f"p0 flip d{b2}")
    ev = g.apply_chance((5,))
    assert "penalty_rolled" in kinds(ev)
    assert not [a for a in g.legal_actions(0) if a.verb in ("flip", "recolour", "renumber", "rethrow")]


def test_roles_module_keeps_fuse_defusal_at_once() -> None:
    # FUSE rules frame: a complete card is defused at once (no Step 3)
    g = game([["F18", "F33"], ["F32", "F33"], ["F16", "F33"]], modules="roles",
             roles=[Ability.EQUIPMENT_TECHNICIAN, None, None])
    put(g, 0, "F18", 0, "R3")  # F18 "3 1"
    roll(g, "B4", "G5", "Y6")
    b4 = die(g, "B4")
    act(g, f"p0 renumber d{b4} 1")
    ev = act(g, f"p0 place d{b4} F18 s2")
    assert kinds(ev) == ["die_placed", "card_completed"] and g.picks == [Pick(0, "F18")]
    assert g.phase is Phase.DISTRIBUTE  # the pick happens now, in the distribution


# ----------------------------------------------------------------------------- bombs module
@pytest.mark.parametrize("difficulty", ["training", "standard", "insane"])
def test_bombs_module_uses_countdown_bombs_with_fuse_table_and_hand_rule(difficulty: str) -> None:
    config = GameConfig(players=3, modules="bombs", difficulty=difficulty)
    expect = {"training": 18, "standard": 21, "insane": 27}[difficulty]  # A.9.1, hands not counted
    assert config.deck_size == expect and config.hand_limit == 2
    for seed in range(15):
        g = new_game(config, seed=seed, chance=False)
        cards = bombs_in_deck(g) + g.row
        hands = [hc.card for hand in g.hands for hc in hand]
        assert len(cards) == expect and len(hands) == 6
        assert set(cards + hands) <= COUNTDOWN_BOMBS
        assert not set(cards + hands) & SPLIT_BOMBS  # FUSE's dice have no split dice
        for hand in g.hands:  # B.3.4: FUSE setup, so some card worth 1-2
            assert min(g.bomb(hc.card).points for hc in hand) <= 2
        assert len(fuses_in_deck(g)) == 6 and all(f.startswith("FZ") for f in fuses_in_deck(g))


def test_bombs_module_keeps_split_die_cards_with_the_split_dice_module() -> None:
    assert not SPLIT_BOMBS & {b.id for b in GameConfig(players=3, modules="bombs").playable.bombs}
    with_split = {b.id for b in GameConfig(players=3, modules="bombs split-dice").playable.bombs}
    assert SPLIT_BOMBS <= with_split and len(with_split) == 52


@pytest.mark.parametrize("setup", ["stacks", "single-deck"])
def test_bombs_module_advanced_setups_have_a_level_for_every_point_value(setup: str) -> None:
    # B.6, F.2: the levels are the point values of the bomb cards in play: Countdown's are worth
    # 1 to 6, so level 5 is used too (FUSE's own cards: 1-4, 6 with the 6-point cards)
    config = GameConfig(players=3, modules="bombs", setup=setup)
    assert config.levels == (1, 2, 3, 4, 5, 6) and GameConfig(players=3, setup=setup).levels == (1, 2, 3, 4)
    counts = config.counts_per_level()
    assert counts == {1: 3, 2: 3, 3: 3, 4: 4, 5: 4, 6: 4} and sum(counts.values()) == config.deck_size
    for seed in range(5):
        g = new_game(config, seed=seed, chance=False)
        if g.stacks is not None:
            assert {lv: sorted(g.bomb(c).points for c in pile) for lv, pile in g.stacks.piles.items()} == {
                lv: [lv] * n for lv, n in counts.items()}
            assert len(g.stacks.fuses) == 6 and not g.row and not g.deck
        else:
            middle = bombs_in_deck(g) + g.row
            assert Counter(g.bomb(c).points for c in middle) == Counter(counts)
    # a level count for level 5 is accepted with Countdown's bombs, refused with FUSE's
    five = {1: 3, 2: 3, 3: 3, 4: 4, 5: 4, 6: 4}
    assert GameConfig(players=3, modules="bombs", setup=setup, level_counts=five).counts_per_level() == five
    with pytest.raises(ConfigError, match=r"no level \[5\]"):
        GameConfig(players=3, setup=setup, level_counts={1: 5, 2: 5, 3: 5, 5: 6})


@pytest.mark.parametrize("setup", ["stacks", "single-deck"])
@pytest.mark.parametrize(("options", "counts", "message"), [
    # FUSE's cards with the 6-point cards: five of level 6
    ({"six_point_cards": True}, {6: 7, 4: 7, 3: 7}, "level 6 has 5 cards, not 7 (the levels: 1 (12 cards), "
                                                   "2 (13 cards), 3 (12 cards), 4 (12 cards), 6 (5 cards))"),
    ({}, {1: 0, 2: 0, 3: 7, 4: 14}, "level 4 has 12 cards, not 14 (the levels: 1 (12 cards), 2 (13 cards), "
                                    "3 (12 cards), 4 (12 cards))"),
    # Countdown's bomb cards: levels 1 to 6
    ({"modules": "bombs"}, {5: 8, 6: 6, 4: 7}, "level 5 has 7 cards, not 8 (the levels: 1 (9 cards), "
                                              "2 (9 cards), 3 (9 cards), 4 (9 cards), 5 (7 cards), "
                                              "6 (6 cards))"),
], ids=["six-point", "fuse", "bombs-module"])
def test_a_level_count_larger_than_the_level_is_refused(setup: str, options: dict[str, Any],
                                                        counts: dict[int, int], message: str) -> None:
    # B.6: given chosen level counts that add up to the total, when one asks for more cards than
    # its level holds, then the configuration is refused, naming the level, its cards and the
    # levels that exist (before, the missing cards were taken from other levels, even from levels
    # chosen to have none)
    with pytest.raises(ConfigError) as refused:
        GameConfig(players=3, setup=setup, level_counts=counts, **options)
    assert str(refused.value) == f"level_counts: {message}" and "\n" not in str(refused.value)


@pytest.mark.parametrize("seed", range(8))
def test_a_level_chosen_to_have_no_cards_never_gets_any(seed: int) -> None:
    # B.6: given every level-4 card chosen (and none of levels 1 and 2), when the starting hands
    # hold level-4 cards, then the shortfall comes from level 3, never from levels chosen as 0
    counts = {1: 0, 2: 0, 3: 9, 4: 12}
    config = GameConfig(players=3, setup="stacks", level_counts=counts)  # type: ignore[arg-type]
    g = new_game(config, seed, chance=False)
    assert g.stacks is not None and sorted(g.stacks.piles) in ([3, 4], [3])
    held = sum(1 for hand in g.hands for hc in hand if g.bomb(hc.card).points == 4)
    assert len(g.stacks.piles[4]) == 12 - held and len(g.stacks.piles[3]) == 9 + held
    assert all(g.bomb(c).points == lv for lv, pile in g.stacks.piles.items() for c in pile)


def test_bombs_module_stacks_in_a_scenario_may_hold_level_five() -> None:
    g = scenario_from_text("config: {players: 2, modules: [bombs], setup: stacks}\nplayers: [[C01], [C02]]\n"
                           "stacks: {5: [C39, C40], 6: [C47]}\nfuse_deck: ['fuse:5']\n")
    assert g.stacks is not None and g.stacks.piles == {5: ["C40", "C39"], 6: ["C47"]}
    assert g.middle_has_bombs() and round_trip(g) == g


# ----------------------------------------------------------------------------- fuses module
def _fuses_seen(modules: str) -> set[str]:
    seen: set[str] = set()
    for seed in range(40):
        g = new_game(GameConfig(players=3, modules=modules), seed=seed, chance=False)
        fuses = fuses_in_deck(g)
        assert len(fuses) == 6 and all(f.startswith("CZ") for f in fuses)
        seen |= set(fuses)
    return seen


def test_fuses_module_shuffles_six_countdown_fuse_cards_roll_six_stays() -> None:
    # F.2: "lose role ability" needs roles, "draw a spark" needs sparks; "roll a 6" always stays
    seen = _fuses_seen("fuses")
    assert LOSE_ROLES not in seen and DRAW_SPARK not in seen and ROLL_SIX in seen
    assert len(GameConfig(players=3, modules="fuses").playable.fuses) == 8


def test_fuses_module_with_roles_and_sparks_keeps_their_cards() -> None:
    seen = _fuses_seen("fuses roles sparks")
    assert LOSE_ROLES in seen and DRAW_SPARK in seen and ROLL_SIX in seen
    assert LOSE_ROLES not in _fuses_seen("fuses sparks") and DRAW_SPARK not in _fuses_seen("fuses roles")


# ----------------------------------------------------------------------------- sparks module
def test_sparks_module_sparks_defuse_at_once_and_must_be_cleared_to_win() -> None:
    # F.2: E.2's win rule, the post-bomb spark phase included
    g = game([["F18", "F33"], ["F32", "S14"], ["F16", "F33"]], modules="sparks", row=["F40"], deck=[])
    put(g, 0, "F18", 0, "R3")
    roll(g, "B1", "G5", "R6")
    act(g, f"p0 place d{die(g, 'B1')} F18 s2")
    ev = act(g, "p0 take F40")
    assert not g.is_over and g.sparks_in_play() == 1  # the middle is empty, a spark is not
    assert kinds(ev).count("card_turned_down") == 5  # the hand bombs need not be defused
    assert [hc.card for hc in g.hands[1]] == ["S14"] and g.phase is Phase.DISTRIBUTE
    # seat 1 clears the spark "R" with this turn's R6: the ship is saved at once (FUSE frame)
    ev = act(g, f"p1 place d{die(g, 'R6')} S14 s1")
    assert kinds(ev)[-2:] == ["spark_defused", "game_won"]
    assert g.outcome is not None and g.outcome.won and g.outcome.score.spark_points == 2
    assert g.outcome.score.bomb_points == g.bomb("F18").points


def test_fuse_without_sparks_is_won_when_the_last_bomb_is_taken() -> None:
    g = game([["F18", "F33"], ["F32", "F33"], ["F16", "F33"]], row=["F40"], deck=[])
    put(g, 0, "F18", 0, "R3")
    roll(g, "B1", "G5", "Y6")
    act(g, f"p0 place d{die(g, 'B1')} F18 s2")
    act(g, "p0 take F40")
    assert g.is_over and g.outcome is not None and g.outcome.won


# ----------------------------------------------------------------------------- split-dice module
def test_split_dice_module_uses_countdown_dice() -> None:
    config = GameConfig(players=3, modules="split-dice")
    assert config.split_dice and len(config.dice_set) == 25
    assert sum(1 for c in config.dice_set.colours if bin(c).count("1") == 2) == 5
    assert not GameConfig(players=3).split_dice


def test_split_dice_module_an_unused_split_die_matches_either_colour() -> None:
    # F.2: a rolled K/Y unused die takes a black or yellow or same-number die
    g = game([["F33"], ["F32"], ["F34"], ["F16"]], modules="split-dice")
    black = put(g, 0, "F33", 4, "K5")
    yellow = put(g, 1, "F32", 3, "Y4")
    three = put(g, 2, "F34", 0, "R3")
    other = put(g, 3, "F16", 0, "G1")
    roll(g, "Y/K2", "B2", "G2", "R2")
    yk = die(g, "Y/K2")
    act(g, f"p0 place d{die(g, 'B2')} F33 s2")
    act(g, f"p1 place d{die(g, 'G2')} F32 s2")
    act(g, f"p2 place d{die(g, 'R2')} F34 s2")
    done_all(g)  # seat 3 leaves the K/Y die
    assert g.phase is Phase.PENALTY and g.unused == [yk] and g.penalty.die == yk and g.is_chance
    ev = g.apply_chance((3,))
    assert kinds(ev).count("die_returned") == 3 and not removals(g)
    assert black in g.bag and yellow in g.bag and three in g.bag and other not in g.bag
    assert yk in g.bag and g.turn == 2


# ----------------------------------------------------------------------------- combinations
def test_all_five_modules_together() -> None:
    config = GameConfig(players=4, modules="roles bombs fuses sparks split-dice", difficulty="elite")
    assert config.uses_roles and config.uses_sparks and config.split_dice and not config.countdown_rules
    assert config.bomb_sets == ("countdown",) and config.fuse_sets == ("countdown",)
    assert len(config.playable.fuses) == 10 and len(config.playable.sparks) == 30
    assert len(config.playable.bombs) == 52 and config.deck_size == 26  # A.9.1
    g = new_game(config, seed=3, chance=False)
    assert len(g.roles.cards) == 4 and len(g.sparks.deck) == 30
    assert len(bombs_in_deck(g)) + len(g.row) == 26 and len(fuses_in_deck(g)) == 6
    assert config.describe() == "fuse+roles+bombs+fuses+sparks+split-dice, 4 players, elite, 6 fuse cards"


@pytest.mark.parametrize("kw", [
    pytest.param({"game": "countdown", "players": 3, "difficulty": "expert"}, id="countdown-3p-expert"),
    pytest.param({"game": "integrated", "players": 2, "difficulty": "heroic"}, id="integrated-2p-heroic"),
    pytest.param({"game": "epic", "players": 7, "difficulty": "expert"}, id="epic-7p-expert"),
    pytest.param({"game": "fuse", "players": 5, "modules": "roles bombs fuses sparks split-dice"},
                 id="fuse+all-5p"),
    pytest.param({"game": "fuse", "players": 2, "modules": "sparks fuses", "difficulty": "insane"},
                 id="fuse+sparks+fuses-2p-insane"),
    pytest.param({"game": "fuse", "players": 1, "modules": "roles split-dice"},
                 id="fuse+roles+split-dice-1p"),
    # and every game of the table, and FUSE with each module
    *(pytest.param({"game": v.game, "modules": v.modules, "players": v.fewest(3)}, id=f"{v}-{v.fewest(3)}p")
      for v in ALL),
])
def test_random_play_keeps_every_die_and_card_accounted_for(kw: dict[str, Any]) -> None:
    config = GameConfig(**kw)
    for seed in range(3):
        g = new_game(config, seed=seed)
        rng, clock, turn = Rng(seed), 0, g.turn
        sparks = sorted(s.id for s in config.playable.sparks)
        for _ in range(400):
            if g.is_over:
                break
            acts = list(g.legal_actions())
            assert acts, (g.phase, g.to_act())
            if g.turn != turn:
                turn, clock = g.turn, clock + 5000
            g.apply(replace(acts[rng.below(len(acts))], at=max(clock, g.time_ms)))
            on_cards = [d for hand in g.hands for hc in hand for d in hc.dice if d != EMPTY]
            assert sorted(g.bag + on_cards + g.free + g.unused) == list(range(len(g.dice)))
            in_hands = [hc.card for hand in g.hands for hc in hand if g.is_spark(hc.card)]
            piles = [] if g.sparks is None else g.sparks.deck + g.sparks.discard
            assert sorted(piles + in_hands) == sparks
        if g.outcome is not None and g.outcome.won:
            assert not g.sparks_in_play() and not g.middle_has_bombs()


# ----------------------------------------------------------------------------- integrated sets
def test_integrated_sets_pool_both_decks_and_both_fuse_sets() -> None:
    config = GameConfig(players=3, game="integrated", difficulty="expert")
    assert len(config.catalogue.bombs) == 106 and len(config.playable.bombs) == 101  # no FUSE 6s
    assert len(replace(config, six_point_cards=True).playable.bombs) == 106
    assert len(config.playable.fuses) == 21 and len(config.playable.roles) == 7
    assert len(config.playable.sparks) == 30 and config.split_dice and len(config.dice_set) == 25
    assert config.countdown_rules and config.hands_in_deck and config.hand_limit == 3
    assert config.deck_size == 29  # A.9.2
    assert GameConfig(players=3, game="integrated", difficulty="expert", fuse_cards=21).fuse_count == 21
    with pytest.raises(ConfigError, match="1 to 21 fuse cards"):
        GameConfig(players=3, game="integrated", difficulty="expert", fuse_cards=22)
    assert GameConfig(players=3, game="integrated").fuse_count == 0


def test_integrated_games_deal_from_both_sets_under_countdown_rules() -> None:
    seen: set[str] = set()
    for seed in range(10):
        g = new_game(GameConfig(players=4, game="integrated", difficulty="elite"), seed=seed, chance=False)
        cards = bombs_in_deck(g) + g.row + [hc.card for hand in g.hands for hc in hand]
        assert len(cards) == 35 and len(g.roles.cards) == 4
        seen |= set(cards)
        for hand in g.hands:
            assert min(g.bomb(hc.card).points for hc in hand) <= 3
    assert seen & FUSE_BOMBS and seen & COUNTDOWN_BOMBS


@pytest.mark.parametrize("players", [1, 4])
def test_integrated_games_are_for_one_to_four_players(players: int) -> None:
    assert GameConfig(players=players, game="integrated").players == players
    with pytest.raises(ConfigError, match="1 to 4 players"):
        GameConfig(players=5, game="integrated")


# ----------------------------------------------------------------------------- epic games
@pytest.mark.parametrize(("players", "dice", "each"), [(6, 35, 2), (7, 40, 3), (8, 45, 4), (9, 50, 5)])
def test_epic_dice_add_the_fuse_dice_evenly(players: int, dice: int, each: int) -> None:
    # F.3, G-45: Countdown's 25 plus 10/15/20/25 FUSE dice, an equal share of each colour
    ds = GameConfig(players=players, game="epic").dice_set
    assert len(ds) == dice
    for c in COLOURS:
        assert ds.colours.count(c) == 4 + each
    assert sum(1 for c in ds.colours if bin(c).count("1") == 2) == 5
    assert ds.colours.count(BLACK | YELLOW) == 1


@pytest.mark.parametrize("players", [6, 7, 8, 9])
@pytest.mark.parametrize("difficulty", ["training", "standard", "expert", "elite", "heroic"])
def test_epic_deck_follows_table_a93_hands_included(players: int, difficulty: str) -> None:
    config = GameConfig(players=players, game="epic", difficulty=difficulty)
    g = new_game(config, seed=players, chance=False)
    col = ["training", "standard", "expert", "elite", "heroic"].index(difficulty)
    hands = [hc.card for hand in g.hands for hc in hand]
    assert len(bombs_in_deck(g)) + len(g.row) + len(hands) == EPIC_DECK_SIZE[players][col]
    assert all(len(hand) == 2 for hand in g.hands)
    assert not set(bombs_in_deck(g) + g.row + hands) & SPLIT_BOMBS
    fuses = fuses_in_deck(g)
    assert len(fuses) == (0 if col < 2 else 6) and LOSE_ROLES not in fuses
    assert g.roles is None and not SPLIT_SPARKS & set(g.sparks.deck) and len(g.sparks.deck) == 27


def test_epic_fuse_pool_has_no_role_card() -> None:
    config = GameConfig(players=6, game="epic", difficulty="expert")
    assert len(config.playable.fuses) == 20 and LOSE_ROLES not in {f.id for f in config.playable.fuses}
    with pytest.raises(ConfigError, match="1 to 20 fuse cards"):
        GameConfig(players=6, game="epic", difficulty="expert", fuse_cards=21)


# ----------------------------------------------------------------------------- configuration errors
@pytest.mark.parametrize(("kw", "words"), [
    ({"game": "countdown", "players": 5}, "countdown games are for 1 to 4 players"),
    ({"game": "countdown", "players": 3, "modules": "roles"}, "modules add Countdown parts to FUSE"),
    ({"game": "integrated", "players": 3, "modules": ("sparks",)}, "use them with the fuse game"),
    ({"game": "countdown", "players": 3, "setup": "stacks"}, "advanced setups"),
    ({"game": "epic", "players": 7, "setup": "single-deck"}, "are FUSE setups"),
    ({"game": "countdown", "players": 3, "difficulty": "standard", "fuse_cards": 4}, "uses no fuse cards"),
    ({"game": "countdown", "players": 3, "difficulty": "training", "fuse_cards": 1}, "training uses no"),
    ({"game": "epic", "players": 5}, "epic games are for 6 to 9 players"),
    ({"game": "epic", "players": 10}, "6 to 9"),
    ({"game": "fuse", "players": 6}, "epic game"),
    ({"game": "fuse", "players": 3, "modules": "dice"}, "unknown module 'dice'"),
    ({"game": "countdown", "players": 3, "difficulty": "expert", "fuse_cards": 0}, "1 to 10"),
])
def test_config_errors_say_what_is_wrong(kw: dict[str, Any], words: str) -> None:
    with pytest.raises(ConfigError) as info:
        GameConfig(**kw)
    assert words in str(info.value)


def test_insane_and_heroic_name_the_same_column() -> None:
    assert GameConfig(players=3, game="countdown", difficulty="insane").difficulty.value == "heroic"
    assert GameConfig(players=3, difficulty="heroic").difficulty.value == "insane"
    assert GameConfig(players=3, game="countdown", difficulty="heroic").deck_size == 33
