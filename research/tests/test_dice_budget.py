"""The dice budget: a lower bound on the dice a win places and an upper bound on the dice the clock
lets a table roll. They are what say that a deal cannot be won at a pace, so both are checked
against games actually played."""

from __future__ import annotations

import pytest
from budget import dice_needed, dice_rollable, logistics_seat, slowest_pace

from fusegame.record import replay
from fusegame.rng import Rng
from fusegame.rules import GameConfig, Tick, new_game
from fusegame.rules.config import dice_per_turn
from fusegame.sim import Pace, game_seed, get_policy, play_game

TABLES = [
    ("fuse", 1, "standard"), ("fuse", 3, "standard"), ("fuse", 4, "insane"),
    ("countdown", 1, "standard"), ("countdown", 3, "expert"), ("countdown", 2, "heroic"),
]


@pytest.mark.parametrize(("game", "players", "level"), TABLES)
def test_no_game_rolls_more_dice_than_the_clock_allows_and_no_win_places_fewer_than_needed(
        game: str, players: int, level: str) -> None:
    config = GameConfig(game=game, players=players, difficulty=level)
    limit_ms = (config.time_limit or 600) * 1000
    wins = 0
    for i in range(4):
        seed = game_seed(7, i)
        start = new_game(config, seed)
        need, bonus = dice_needed(start), logistics_seat(start)
        for policy in ("team", "random"):
            result = play_game(config, seed, get_policy(policy), Pace(), record=True)
            assert result.record is not None
            # a turn's dice are rolled as the turn before it ends, and the turn is played only if
            # its clock tick comes before the limit: count the dice of the turns played
            rolls: dict[int, int] = {}
            played: set[int] = set()
            placed = 0
            for action, events, state in replay(result.record):
                if isinstance(action, Tick) and action.at is not None and action.at < limit_ms:
                    played.add(state.turn)
                for e in events:
                    if e.kind == "dice_rolled":
                        rolls[state.turn] = rolls.get(state.turn, 0) + len(e.data["dice"])
                    elif e.kind == "die_placed":
                        placed += 1
            rolled = sum(n for turn, n in rolls.items() if turn in played)
            assert rolled <= dice_rollable(players, limit_ms, Pace(), bonus)
            if result.won:
                wins += 1
                assert placed >= need
    if level == "standard":
        assert wins > 0  # the lower bound was checked against real wins


def _clock_dice(players: int, schedule: list[int], pace: Pace, limit_ms: int = 600_000) -> int:
    """The dice rolled when the turns roll ``schedule``'s dice, charged as the simulator does."""
    at = rolled = 0
    for n in schedule:
        at += pace.turn_ms(n)
        if at >= limit_ms:
            break
        rolled += n
    return rolled


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_no_schedule_of_short_and_full_turns_beats_the_bound(players: int) -> None:
    # a short turn (the bag running low) is charged less and can let one more turn in
    pace, rng = Pace(), Rng(players)
    bound = dice_rollable(players, 600_000, pace)
    full = dice_per_turn(players)
    best = _clock_dice(players, [full] * 100, pace)
    for _ in range(400):
        schedule = [full if rng.below(4) else rng.below(full + 1) for _ in range(100)]
        got = _clock_dice(players, schedule, pace)
        assert got <= bound
        best = max(best, got)
    # and the bound is reached: full turns, then the last ones trimmed to fit one more in
    for cut in range(1, full * 3 + 1):
        turns = (600_000 - 1) // pace.turn_ms(full) + 1
        schedule = [full] * turns
        for k in range(cut):
            schedule[-1 - k % 3] -= 1 if schedule[-1 - k % 3] > 0 else 0
        best = max(best, _clock_dice(players, schedule, pace))
    assert best == bound


def test_a_logistics_specialist_adds_a_die_on_the_turns_it_leads() -> None:
    pace = Pace()
    plain = dice_rollable(3, 600_000, pace)
    with_bonus = dice_rollable(3, 600_000, pace, bonus_seat=0)
    assert plain < with_bonus < plain + plain // 3 + 1


@pytest.mark.parametrize("need", [60, 117, 140])
def test_the_slowest_pace_is_the_last_one_that_still_rolls_the_dice_needed(need: int) -> None:
    seconds = slowest_pace(3, 600_000, need)
    assert dice_rollable(3, 600_000, Pace(turn_seconds=seconds, die_seconds=1.0)) >= need
    assert dice_rollable(3, 600_000, Pace(turn_seconds=seconds + 0.05, die_seconds=1.0)) < need


def test_a_need_no_pace_meets_has_no_slowest_pace() -> None:
    # even at no seconds a turn, a die still takes its second: 600 s roll at most 600 dice
    assert slowest_pace(3, 600_000, 10_000) == 0.0


@pytest.mark.parametrize(("game", "players"), [("fuse", 3), ("countdown", 3), ("countdown", 1),
                                               ("integrated", 4)])
def test_every_turn_is_charged_for_the_dice_it_rolls(game: str, players: int) -> None:
    # a Countdown turn begins with the leader's decisions and rolls after them: it is charged for
    # its dice all the same (12 s + 1 s a die), not for the dice out when it began
    config = GameConfig(game=game, players=players, difficulty="expert")
    pace = Pace()
    result = play_game(config, game_seed(3, 0), get_policy("team"), pace, record=True)
    assert result.record is not None
    charged: dict[int, int] = {}
    rolls: dict[int, int] = {}
    last = 0
    for action, events, state in replay(result.record):
        if isinstance(action, Tick) and action.at is not None:
            charged[state.turn], last = action.at - last, action.at
        for e in events:
            if e.kind == "dice_rolled":
                rolls[state.turn] = rolls.get(state.turn, 0) + len(e.data["dice"])
    played = [t for t in charged if t in rolls]
    assert len(played) >= 20
    for turn in played:
        assert charged[turn] == pace.turn_ms(rolls[turn]), turn


def test_a_pace_that_takes_no_time_is_refused_rather_than_counted_for_ever() -> None:
    with pytest.raises(ValueError):
        dice_rollable(3, 600_000, Pace(turn_seconds=0.0, die_seconds=0.0))
    with pytest.raises(ValueError):
        slowest_pace(3, 600_000, 100, die_seconds=0.0)
    assert dice_rollable(3, 600_000, Pace(turn_seconds=12.0, die_seconds=0.0)) == 3 * 49
