"""The table of games (``rules.games``): each row's facts, what follows from its parts of the rules,
the modules, and ``GameConfig`` reading the row (docs/rules.md A.9, B.5, B.6, C.1, C.2, F)."""

from __future__ import annotations

from itertools import combinations

import pytest

from conftest import make_countdown_config
from fusegame.rules import (
    GAMES,
    MODULES,
    ConfigError,
    Difficulty,
    Game,
    GameConfig,
    Module,
    Phase,
    Setup,
    game_spec,
    new_game,
)
from fusegame.rules.games import PARTS

ROWS = list(GAMES)
#: every subset of the modules, the empty one included
MODULE_SUBSETS = [m for k in range(len(MODULES) + 1) for m in combinations(MODULES, k)]
COUNTDOWN_STEPS = (Phase.ROLL, Phase.DISTRIBUTE, Phase.DEFUSE, Phase.SPARKS)
#: every row as it is, and FUSE with every non-empty subset of the modules
EVERY_GAME = [(g, ()) for g in ROWS] + [(Game.FUSE, m) for m in MODULE_SUBSETS[1:]]
EVERY_GAME_IDS = [g.value + "".join(f"+{m.value}" for m in mods) for g, mods in EVERY_GAME]


def ids(mods: tuple[Module, ...]) -> str:
    return "+".join(m.value for m in mods) or "none"


# ------------------------------------------------------------------------------------ the rows
@pytest.mark.parametrize("game", ROWS, ids=lambda g: g.value)
def test_the_deck_size_table_covers_the_player_range(game: Game) -> None:
    spec = GAMES[game]
    lo, hi = spec.players
    assert 1 <= lo <= hi
    assert set(spec.deck_sizes) == set(range(lo, hi + 1))
    for players in range(lo, hi + 1):
        sizes = spec.deck_sizes[players]
        assert len(sizes) == len(spec.difficulties()) == 5  # one column per difficulty
        assert list(sizes) == sorted(sizes)  # a harder game has more bomb cards
        for difficulty in spec.difficulties():
            assert GameConfig(game=game, players=players, difficulty=difficulty).deck_size == sizes[
                difficulty.column]


@pytest.mark.parametrize("game", ROWS, ids=lambda g: g.value)
def test_the_top_difficulty_goes_by_the_games_name(game: Game) -> None:
    spec = GAMES[game]
    assert spec.top is (Difficulty.INSANE if game is Game.FUSE else Difficulty.HEROIC)
    assert spec.difficulties()[-1] is spec.top and len(set(spec.difficulties())) == 5
    # Insane and Heroic are one column of the tables: either name asks for this game's top level
    for top in (Difficulty.INSANE, Difficulty.HEROIC):
        config = make_countdown_config(game=game, players=spec.players[0], difficulty=top)
        assert config.difficulty is spec.top


def test_the_rows_of_the_table() -> None:
    assert GAMES[Game.FUSE].players == (1, 5) and GAMES[Game.EPIC].players == (6, 9)
    assert GAMES[Game.COUNTDOWN].players == GAMES[Game.INTEGRATED].players == (1, 4)
    assert GAMES[Game.FUSE].setups == tuple(Setup)
    assert all(GAMES[g].setups == (Setup.STANDARD,) for g in ROWS if g is not Game.FUSE)
    # B.3: a two-card hand needs a low card (FUSE: worth 1-2, Countdown's frame: 1-3)
    assert {g: GAMES[g].hand_limit for g in ROWS} == {
        Game.FUSE: 2, Game.COUNTDOWN: 3, Game.INTEGRATED: 3, Game.EPIC: 3}
    # G-04: Countdown's frame deals the hands from the built deck
    assert [g for g in ROWS if GAMES[g].hands_in_deck] == [Game.COUNTDOWN, Game.INTEGRATED, Game.EPIC]
    # F.3: epic games have no roles and no cards needing a split die
    assert not GAMES[Game.EPIC].roles and not GAMES[Game.EPIC].split_cards


@pytest.mark.parametrize("players", range(6, 10))
def test_epic_games_add_fuse_dice_for_each_player_over_four(players: int) -> None:
    dice = GameConfig(game=Game.EPIC, players=players).dice_set
    assert len(dice) == 25 + 5 * (players - 4)  # G-45: players - 4 of each colour
    assert sum(1 for c in dice.colours if bin(c).count("1") == 2) == 5  # Countdown's split dice


# ------------------------------------------------------------------------- the steps of a turn
def test_turn_steps_of_the_named_games() -> None:
    assert GAMES[Game.FUSE].turn_steps == (Phase.ROLL, Phase.DISTRIBUTE, Phase.PENALTY)
    for game in (Game.COUNTDOWN, Game.INTEGRATED, Game.EPIC):
        assert GAMES[game].turn_steps == COUNTDOWN_STEPS
    # the Spark module: sparks instead of the unused-dice reroll, in FUSE's three-step turn
    assert game_spec(Game.FUSE, (Module.SPARKS,)).turn_steps == (Phase.ROLL, Phase.DISTRIBUTE, Phase.SPARKS)


@pytest.mark.parametrize(("game", "mods"), EVERY_GAME, ids=EVERY_GAME_IDS)
def test_turn_steps_follow_from_the_parts(game: Game, mods: tuple[Module, ...]) -> None:
    spec = game_spec(game, mods)
    steps = spec.turn_steps
    assert steps[:2] == (Phase.ROLL, Phase.DISTRIBUTE)
    # the untaken dice are dealt with by exactly one part: rerolled (penalty) or paid for in sparks
    assert ("penalty" in spec.parts) != ("sparks" in spec.parts)
    assert (Phase.PENALTY in steps) == ("penalty" in spec.parts) == (steps[-1] is Phase.PENALTY)
    assert (Phase.SPARKS in steps) == ("sparks" in spec.parts) == (steps[-1] is Phase.SPARKS)
    assert (Phase.DEFUSE in steps) == ("step3" in spec.parts)
    assert len(steps) == 3 + ("step3" in spec.parts)
    config = make_countdown_config(game=game, modules=mods, players=spec.players[0])
    assert config.turn_steps == steps
    assert new_game(config, 1).steps == steps


# ------------------------------------------------------------------------------------ modules
def test_only_fuse_takes_modules() -> None:
    assert [g for g in ROWS if GAMES[g].modules] == [Game.FUSE]


@pytest.mark.parametrize("game", [g for g in ROWS if not GAMES[g].modules], ids=lambda g: g.value)
@pytest.mark.parametrize("module", list(MODULES), ids=lambda m: m.value)
def test_modules_are_refused_outside_fuse(game: Game, module: Module) -> None:
    players = GAMES[game].players[0]
    with pytest.raises(ConfigError, match="modules add Countdown parts to FUSE"):
        GameConfig(game=game, players=players, modules=(module,))


def test_what_each_module_changes() -> None:
    fuse = GAMES[Game.FUSE]
    changed = {m: game_spec(Game.FUSE, (m,)) for m in MODULES}
    assert changed[Module.ROLES].parts == ("penalty", "roles")
    assert changed[Module.BOMBS].bomb_sets == ("countdown",) and changed[Module.BOMBS].parts == fuse.parts
    assert changed[Module.FUSES].fuse_sets == ("countdown",) and changed[Module.FUSES].bomb_sets == ("fuse",)
    assert changed[Module.SPARKS].parts == ("sparks",)
    assert changed[Module.SPLIT_DICE].dice == GAMES[Game.COUNTDOWN].dice != fuse.dice
    # a module changes nothing else: the players, the deck table, the setups stay FUSE's
    for spec in changed.values():
        assert (spec.players, spec.deck_sizes, spec.setups, spec.top) == (
            fuse.players, fuse.deck_sizes, fuse.setups, fuse.top)


@pytest.mark.parametrize("mods", MODULE_SUBSETS, ids=ids)
def test_modules_combine(mods: tuple[Module, ...]) -> None:
    spec = game_spec(Game.FUSE, mods)
    want = {"penalty"} - ({"penalty"} if Module.SPARKS in mods else set())
    want |= {"roles"} if Module.ROLES in mods else set()
    want |= {"sparks"} if Module.SPARKS in mods else set()
    assert set(spec.parts) == want
    assert list(spec.parts) == [p for p in PARTS if p in spec.parts]  # the parts keep one order
    assert spec.bomb_sets == (("countdown",) if Module.BOMBS in mods else ("fuse",))
    assert spec.fuse_sets == (("countdown",) if Module.FUSES in mods else ("fuse",))
    # the order in which the modules are given does not matter
    config = make_countdown_config(modules=tuple(reversed(mods)))
    assert config.modules == mods and config.spec == spec


# ------------------------------------------------------------------- GameConfig reads the row
@pytest.mark.parametrize("game", ROWS, ids=lambda g: g.value)
def test_players_out_of_range_are_refused_with_the_rows_message(game: Game) -> None:
    spec = GAMES[game]
    lo, hi = spec.players
    for players in (lo - 1, hi + 1):
        message = spec.players_problem(players)
        assert f"for {lo} to {hi} players" in message
        with pytest.raises(ConfigError) as info:
            GameConfig(game=game, players=players)
        assert str(info.value) == message
    for players in range(lo, hi + 1):
        assert spec.players_problem(players) == ""
        assert make_countdown_config(game=game, players=players).players == players


#: (game, difficulty) -> (the default number of fuse cards, the fewest and most allowed)
FUSE_CARDS: dict[tuple[Game, Difficulty], tuple[int, tuple[int, int]]] = {
    **{(Game.FUSE, d): (6, (0, 11)) for d in GAMES[Game.FUSE].difficulties()},
    **{(g, d): (0, (0, 0)) for g in (Game.COUNTDOWN, Game.INTEGRATED, Game.EPIC)
       for d in (Difficulty.TRAINING, Difficulty.STANDARD)},
    # G-40: from Expert up, 1 to all of the game's usable fuse cards, 6 unless the players say
    **{(Game.COUNTDOWN, d): (6, (1, 10)) for d in (Difficulty.EXPERT, Difficulty.ELITE, Difficulty.HEROIC)},
    **{(Game.INTEGRATED, d): (6, (1, 21)) for d in (Difficulty.EXPERT, Difficulty.ELITE, Difficulty.HEROIC)},
    # F.3: no roles in epic games, so not the fuse card that takes them away
    **{(Game.EPIC, d): (6, (1, 20)) for d in (Difficulty.EXPERT, Difficulty.ELITE, Difficulty.HEROIC)},
}


@pytest.mark.parametrize(("game", "difficulty"), [(g, d) for g in ROWS for d in GAMES[g].difficulties()],
                         ids=lambda x: x.value)
def test_fuse_cards_by_difficulty(game: Game, difficulty: Difficulty) -> None:
    default, (lo, hi) = FUSE_CARDS[game, difficulty]
    spec = GAMES[game]
    config = make_countdown_config(game=game, players=spec.players[0], difficulty=difficulty)
    assert config.fuse_count == default
    assert config.fuse_range() == (lo, hi)
    assert hi <= len(config.playable.fuses)
    for n in {lo, hi}:
        assert config.with_(fuse_cards=n).fuse_count == n
    for n in (lo - 1, hi + 1):
        if n >= 0:
            with pytest.raises(ConfigError, match="fuse card"):
                config.with_(fuse_cards=n)


# ------------------------------------------------------------ the levels of the advanced setups
def test_fuse_levels_are_one_to_four_and_six_with_the_six_point_cards() -> None:
    for setup in (Setup.SINGLE_DECK, Setup.STACKS):
        assert GameConfig(setup=setup).levels == (1, 2, 3, 4)
        assert GameConfig(setup=setup, six_point_cards=True).levels == (1, 2, 3, 4, 6)


def test_with_countdowns_bomb_cards_the_levels_run_one_to_six() -> None:
    config = make_countdown_config(game="fuse", modules=("bombs",), setup="single-deck", difficulty="expert",
                                   players=4)
    assert config.levels == (1, 2, 3, 4, 5, 6)
    counts = config.counts_per_level()
    assert sorted(counts) == [1, 2, 3, 4, 5, 6] and sum(counts.values()) == config.deck_size
    g = new_game(config, 3)
    middle = [c for c in g.row + g.deck if g.is_bomb(c)]
    assert len(middle) == config.deck_size
    assert {g.bomb(c).points for c in middle} == {1, 2, 3, 4, 5, 6}


@pytest.mark.parametrize("seed", range(3))
def test_a_stacks_game_with_countdowns_bomb_cards_deals_level_five(seed: int) -> None:
    config = make_countdown_config(game="fuse", modules=("bombs",), setup="stacks", players=3)
    g = new_game(config, seed)
    assert g.stacks is not None and not g.row and not g.deck
    assert sorted(g.stacks.piles) == [1, 2, 3, 4, 5, 6]
    assert g.stacks.piles[5] and all(g.bomb(c).points == 5 for c in g.stacks.piles[5])
    assert sum(len(cards) for cards in g.stacks.piles.values()) == config.deck_size


def test_the_stacks_setup_is_a_part_of_the_rules() -> None:
    for setup in Setup:
        config = GameConfig(setup=setup)
        g = new_game(config, 1)
        assert ("stacks" in config.parts) == (setup is Setup.STACKS) == (g.stacks is not None)


@pytest.mark.parametrize(("game", "mods"), EVERY_GAME, ids=EVERY_GAME_IDS)
def test_a_game_has_exactly_the_parts_of_its_row(game: Game, mods: tuple[Module, ...]) -> None:
    config = make_countdown_config(game=game, modules=mods, players=GAMES[game].players[0])
    g = new_game(config, 2)
    assert list(g.parts) == list(config.parts) == list(config.spec.parts)
    present = {"sparks": g.sparks, "roles": g.roles, "stacks": g.stacks, "penalty": g.penalty,
               "step3": g.step3}
    assert {name for name, part in present.items() if part is not None} == set(config.parts)
