"""The game review judges a team's play with the planner's own measure: a game the planner played
has no costly moment, and mistakes planted in a game are found where they were made.

Games are recorded as a table plays them (``Recorder``), with times one second apart where the
test needs the clock; the planted mistakes are real legal moves, made by the test in place of the
planner's at one position, after which the planner plays on."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from fusegame.bots.team import PLAY_WEIGHTS, TeamPlanner
from fusegame.record import GameRecord, Recorder
from fusegame.review import COSTLY_DICE, Review, Reviewer
from fusegame.rules.actions import Action, Place, TakeCard, with_time
from fusegame.rules.config import GameConfig
from fusegame.rules.games import Game, Module
from fusegame.rules.state import GameState
from fusegame.sim import Pace, get_policy, play_game
from game_variants import ALL, Variant

Chooser = Callable[[GameState, Action], Action]


def record_game(config: GameConfig, seed: int, choose: Chooser | None = None, step_ms: int = 0,
                pause: tuple[int, int] = (0, 0)) -> GameRecord:
    """A game the planner plays, ``choose(state, planned)`` may answer in its place; each action
    ``step_ms`` after the last, and ``pause = (turn, ms)`` more before the first action of that
    roll."""
    planner = TeamPlanner(PLAY_WEIGHTS)
    rec = Recorder(config, seed=seed)
    state = rec.state
    at = 0
    paused = False
    while not state.is_over:
        planned = planner(state)
        action = choose(state, planned) if choose is not None else planned
        at += step_ms
        if pause[1] and state.turn == pause[0] and not paused:
            at += pause[1]
            paused = True
        rec.apply(with_time(action, at) if step_ms else action)
    return rec.record


def costly(r: Review) -> list[tuple[str, int, float]]:
    return [(m.kind, m.step, m.cost) for m in r.costly if m.unit == "dice" and m.cost >= COSTLY_DICE]


PLANNER_GAMES = [
    (GameConfig(players=3), 1), (GameConfig(players=3), 2), (GameConfig(players=5), 3),
    (GameConfig(players=2), 4), (GameConfig(players=1), 5),
    (GameConfig(players=4, game=Game.COUNTDOWN), 6), (GameConfig(players=2, game=Game.COUNTDOWN), 7),
    (GameConfig(players=3, game=Game.FUSE, modules=(Module.ROLES, Module.SPARKS)), 8),
]


#: The planner keeps to a roll's plan while the dice and cards it planned for stand, and plans afresh
#: from the review's positions: after a fuse card revealed mid-roll changed another card, it may
#: keep a plan a fresh look would change. Such moments must stay rare: at most one per this many
#: rolls judged.
ROLLS_PER_STRAY_MOMENT = 50


def test_games_the_planner_played_have_almost_no_costly_moment() -> None:
    judged = 0
    found: list[tuple[str, tuple[str, int, float]]] = []
    for config, seed in PLANNER_GAMES:
        record = record_game(config, seed)
        r = Reviewer().review(record, bots=range(config.players))
        assert r.judged >= r.rolls * 2 // 3, f"{config.describe()}: only {r.judged} of {r.rolls} rolls judged"
        judged += r.judged
        found += [(config.describe(), m) for m in costly(r)]
        assert all(s.bot for s in r.seats)
        # the facts add up to the game
        assert sum(t.placed for t in r.turns) == sum(s.placed for s in r.seats) == sum(
            1 for a in record.actions if isinstance(a, Place))
        assert sum(s.taken for s in r.seats) == sum(1 for a in record.actions if isinstance(a, TakeCard))
    assert judged > 150
    assert len(found) <= judged // ROLLS_PER_STRAY_MOMENT, found


def _worst_place(planner: TeamPlanner, state: GameState, planned: Action) -> Action | None:
    """A legal placement that costs at least 1.5 dice of work by the planner's measure, even with
    the rest of the roll planned afresh after it."""
    if not isinstance(planner, TeamPlanner) or not isinstance(planned, Place):
        return None
    plan = planner.plan(state)
    best = planner.judge(state, [m.action for m in [*plan.moves, *plan.rest] if isinstance(m.action, Place)],
                         False)
    worst: tuple[float, Action] | None = None
    for a in state.legal_actions(planned.seat):
        if isinstance(a, Place):
            after = state.clone()
            after.apply(a)
            rest = planner.plan(after)
            then = [m.action for m in [*rest.moves, *rest.rest] if isinstance(m.action, Place)]
            loss = best - planner.judge(state, [a, *then], False)
            if loss >= 1.5 and (worst is None or loss > worst[0]):
                worst = (loss, a)
    return None if worst is None else worst[1]


@pytest.mark.parametrize(("players", "seed"), [(3, 11), (4, 12), (2, 13)])
def test_a_die_placed_on_the_wrong_card_is_a_key_moment(players: int, seed: int) -> None:
    judge = TeamPlanner(PLAY_WEIGHTS)
    planted: list[tuple[int, Action]] = []

    def choose(state: GameState, planned: Action) -> Action:
        if not planted and state.turn >= 4:
            bad = _worst_place(judge, state, planned)
            if bad is not None:
                planted.append((len(record_steps), bad))
                record_steps.append(bad)
                return bad
        record_steps.append(planned)
        return planned

    record_steps: list[Action] = []
    record = record_game(GameConfig(players=players), seed, choose)
    assert planted, "no position offered a placement bad enough to plant"
    step, bad = planted[0]
    assert isinstance(bad, Place)
    r = Reviewer().review(record)
    found = [m for m in r.costly if m.kind == "roll" and m.step <= step and m.cost >= COSTLY_DICE]
    assert found, f"the die planted at step {step} was not found: {costly(r)}"
    moment = max(found, key=lambda m: m.step)
    assert any(p["die"]["id"] == bad.die and p["card"] == bad.card for p in moment.did["places"])
    assert moment.better["places"], "the review does not say what was better"
    # and it is among the game's key moments, which are few
    assert moment in r.moments and len(r.moments) <= 3


def test_a_much_bigger_card_taken_is_a_key_moment() -> None:
    judge = TeamPlanner(PLAY_WEIGHTS)
    planted: list[tuple[int, str, str]] = []
    steps = [0]

    def choose(state: GameState, planned: Action) -> Action:
        steps[0] += 1
        if planted or not isinstance(planned, TakeCard) or judge.takes_hardest(state):
            return planned
        options = [a for a in state.legal_actions(planned.seat) if isinstance(a, TakeCard)]

        def work(a: TakeCard) -> float:
            return judge.model(state, a.card).draws(state.card_rules(a.card).empty)

        biggest = max(options, key=work)
        mine = next(a for a in options if a.card == planned.card)
        if work(biggest) - work(mine) >= 3.0:
            planted.append((steps[0] - 1, biggest.card, planned.card))
            return biggest
        return planned

    record = record_game(GameConfig(players=3), 21, choose)
    assert planted, "no take offered a much bigger card"
    step, taken, better = planted[0]
    r = Reviewer().review(record)
    takes = [m for m in r.costly if m.kind == "take"]
    assert [(m.step, m.did["card"], m.better["card"]) for m in takes][:1] == [(step, taken, better)]
    assert takes[0].cost >= 3.0


def test_a_slow_roll_is_a_key_moment_and_the_time_is_accounted_for() -> None:
    record = record_game(GameConfig(players=3), 31, step_ms=1000, pause=(6, 45_000))
    r = Reviewer().review(record)
    slow = [m for m in r.costly if m.kind == "slow"]
    assert [m.turn for m in slow] == [6]
    assert slow[0].unit == "s" and slow[0].cost >= 40
    turn = next(t for t in r.turns if t.turn == 6)
    assert slow[0].step == turn.step
    assert slow[0] in r.moments
    # every millisecond of the game is in one of the activities
    assert sum(r.time_ms.values()) == r.end_ms == record.actions[-1].at
    assert r.time_ms["sharing"] > r.time_ms.get("taking", 0) > 0
    assert all(s.claim_ms is not None and s.claim_ms >= 1000 for s in r.seats)


def test_the_review_is_the_same_for_the_same_record() -> None:
    record = record_game(GameConfig(players=4, game=Game.COUNTDOWN), 41, step_ms=700)
    first = Reviewer().review(record).to_dict()
    again = Reviewer().review(record).to_dict()
    assert first == again
    assert first["version"] == 1 and first["rolls"] == len(first["turns"])


@pytest.mark.parametrize("variant", ALL, ids=str)
def test_every_game_of_the_table_is_reviewed(variant: Variant) -> None:
    """FUSE, Countdown, the integrated and epic games and FUSE with each Countdown module: a game
    of greedy bots (a team that makes mistakes) is reviewed roll by roll, the facts adding up."""
    players = variant.fewest(3)
    config = GameConfig(players=players, game=variant.game, modules=variant.modules)
    record = play_game(config, 3, get_policy("greedy"), Pace(), record=True).record
    assert record is not None
    r = Reviewer().review(record)
    state = record.initial_state()
    rolls = 1
    for action in record.actions:
        rolls += sum(1 for e in state.apply(action) if e.kind == "dice_rolled")
    assert r.rolls == rolls and r.judged >= rolls // 2
    assert sum(t.placed for t in r.turns) == sum(s.placed for s in r.seats) == sum(
        1 for a in record.actions if isinstance(a, Place))
    assert sum(r.lost.values()) == sum(t.lost for t in r.turns)
    assert sum(r.time_ms.values()) == r.end_ms
    assert all(m.cost >= COSTLY_DICE for m in r.costly if m.unit == "dice")
