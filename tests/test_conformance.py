"""One conformance test, run on every FUSE configuration (OpenSpiel's ``games_sim_test`` idea).

For players 1-5 x the five difficulties x the three setups x six-point cards on/off x the
feasibility rule on/off, a seeded random policy plays whole games. At EVERY step it checks

* conservation of dice: bag + dice on cards + rolled dice still in the middle (DISTRIBUTE) or unused
  dice not yet rerolled (PENALTY) == 25, and no die is in two places at once;
* ``clone() == state``, and the clone evolves identically under the same action;
* the JSON round trip (``from_dict(json(to_dict()))``) is equal and also evolves identically;
* ``Action.parse(str(a)) == a`` for every legal action;
* validated ``apply`` accepts every legal action (each tried on a fresh clone);
* ``apply_unchecked`` on a fresh clone gives the same state and events as ``apply``;
* ``to_act()`` names exactly the seats that have legal actions; events print and are JSON data;

and at the end: termination within a step bound, no legal action and ``GameOverError`` after the
end, score bounds, and replay equality (``new_game(config, seed)`` + the recorded actions).

Problems are collected rather than raised at the first one, so a single failing run reports every
kind of problem it met (the first occurrence of each, with the step and the action).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from conftest import conformance_catalogue, make_config
from fusegame.rng import Rng
from fusegame.rules import (
    Action,
    Difficulty,
    GameConfig,
    GameOverError,
    GameState,
    IllegalAction,
    Phase,
    Setup,
    Tick,
    new_game,
)
from fusegame.rules.outcome import Termination

N_DICE = 25
STEP_BOUND = 6000  # a 600 s game at ~15 s a turn is ~40 turns of at most ~15 actions
SEEDS = (11,)
#: validated apply is tried on every legal action when there are at most this many, otherwise on a
#: fixed random sample of this many (the chosen action is always applied validated): keeps the
#: whole file under a minute
MAX_TRIED = 6

CONFIGS = [
    (players, difficulty, setup, six, feasibility)
    for players in range(1, 6)
    for difficulty in Difficulty if difficulty is not Difficulty.HEROIC
    for setup in Setup
    for six in (False, True)
    for feasibility in (True, False)
]


def _config_id(c: tuple[int, Difficulty, Setup, bool, bool]) -> str:
    players, difficulty, setup, six, feasibility = c
    return (f"{players}p-{difficulty.value}-{setup.value}-{'six' if six else 'nosix'}-"
            f"{'feas' if feasibility else 'strict'}")


class Problems:
    """The first occurrence of each kind of problem, with a count."""

    def __init__(self) -> None:
        self.first: dict[str, str] = {}
        self.count: dict[str, int] = {}

    def add(self, kind: str, detail: str) -> None:
        self.count[kind] = self.count.get(kind, 0) + 1
        self.first.setdefault(kind, detail)

    def check(self, ok: bool, kind: str, detail: Any) -> None:
        if not ok:
            self.add(kind, detail() if callable(detail) else str(detail))

    def report(self) -> str:
        return "\n".join(f"- {k} (x{self.count[k]}): {v}" for k, v in self.first.items())


def dice_census(g: GameState) -> tuple[int, list[int]]:
    """(the count that must be 25, the dice found in more than one place)."""
    places: list[int] = list(g.bag)
    places += [d for hand in g.hands for hc in hand for d in hc.dice if d >= 0]
    if g.phase is Phase.DISTRIBUTE:
        places += g.unplaced()
    elif g.phase is Phase.PENALTY:
        places += g.unused
    dup = sorted(d for d, n in Counter(places).items() if n > 1)
    return len(places), dup


def choose(g: GameState, rng: Rng, clock: list[int]) -> Action:
    """The conformance policy: a uniformly random legal action of any seat; time moves ~15 s a turn
    (a little within a turn), and now and then a bare Tick."""
    acts = g.legal_actions()
    if rng.below(40) == 0 or not acts:
        clock[0] += rng.below(3000)
        return Tick(-1, max(clock[0], g.time_ms))
    a = acts[rng.below(len(acts))]
    clock[0] += rng.below(300)
    return replace(a, at=max(clock[0], g.time_ms))


def snapshot(g: GameState) -> str:
    return f"turn {g.turn} phase {g.phase.value} leader P{g.leader + 1} t={g.time_ms}"


def step_checks(g: GameState, p: Problems, where: str) -> dict[str, GameState]:
    """The per-step checks; returns the twins of ``g`` (a clone and the JSON copy) to evolve next."""
    total, dup = dice_census(g)
    p.check(total == N_DICE and not dup, "dice conservation",
            lambda: f"{where}: counted {total} dice (want {N_DICE}), in two places: {dup}; bag={g.bag} "
                    f"unplaced={g.unplaced()} unused={g.unused} rolled={g.rolled} ({snapshot(g)})")
    p.check(not g.is_chance, "pending chance node in a sampled game", where)
    data = g.to_dict()
    twins = {"clone": g.clone()}
    p.check(twins["clone"].to_dict() == data, "clone equality", where)
    try:
        twins["JSON copy"] = GameState.from_dict(json.loads(json.dumps(data)))
        p.check(twins["JSON copy"].to_dict() == data, "JSON round trip", where)
    except Exception as e:  # noqa: BLE001 - reported, not hidden
        p.add("JSON round trip raises", f"{where}: {type(e).__name__}: {e}")
    acts = g.legal_actions()
    seats_acting = {a.seat for a in acts}
    p.check(seats_acting == set(g.to_act()), "to_act vs legal_actions",
            lambda: f"{where}: to_act {sorted(g.to_act())} but seats with legal actions "
                    f"{sorted(seats_acting)}")
    for a in acts:
        try:
            back = Action.parse(str(a))
        except Exception as e:  # noqa: BLE001
            p.add("action text round trip raises", f"{where}: {a!r} -> {str(a)!r}: {e}")
            continue
        p.check(back == a, "action text round trip",
                lambda a=a, back=back: f"{where}: {a!r} -> {str(a)!r} -> {back!r}")
    return twins


def try_all_legal(g: GameState, rng: Rng, p: Problems, where: str) -> None:
    acts = g.legal_actions()
    if len(acts) > MAX_TRIED:  # a fixed random sample keeps big solo turns cheap
        picks = sorted({rng.below(len(acts)) for _ in range(MAX_TRIED)})
        acts = [acts[i] for i in picks]
    for a in acts:
        try:
            g.clone().apply(a)
        except IllegalAction as e:
            p.add("validated apply rejects a legal action", f"{where}: {a}: {type(e).__name__}: {e}")
        except Exception as e:  # noqa: BLE001
            p.add("apply crashes on a legal action", f"{where}: {a}: {type(e).__name__}: {e}")


def apply_everywhere(g: GameState, a: Action, twins: dict[str, GameState], p: Problems,
                     where: str) -> list[Any]:
    """Apply ``a`` to ``g`` (validated), to its ``twins`` (validated) and to a fresh clone with
    ``apply_unchecked``; all must end equal, with equal events."""
    twins = {**twins, "unchecked clone": g.clone()}
    try:
        events = g.apply(a)
    except IllegalAction as e:
        p.add("validated apply rejects the chosen action", f"{where}: {a}: {type(e).__name__}: {e}")
        events = g.apply_unchecked(a)
    data = g.to_dict()
    ev_data = [x.to_dict() for x in events]
    for name, twin in twins.items():
        try:
            ev = twin.apply_unchecked(a) if name == "unchecked clone" else twin.apply(a)
        except Exception as e:  # noqa: BLE001
            p.add(f"{name} cannot apply the action", f"{where}: {a}: {type(e).__name__}: {e}")
            continue
        p.check(twin.to_dict() == data, f"{name} evolves differently", where)
        p.check([x.to_dict() for x in ev] == ev_data, f"{name} gives different events",
                lambda ev=ev: f"{where}: {[str(x) for x in events]} vs {[str(x) for x in ev]}")
    for e in events:
        try:
            str(e)
            json.dumps(e.to_dict())
        except Exception as ex:  # noqa: BLE001
            p.add("event does not print or is not JSON data", f"{where}: {e!r}: {ex}")
    return events


def end_checks(g: GameState, config: GameConfig, seed: int, record: list[Action], p: Problems) -> None:
    o = g.outcome
    assert o is not None
    p.check(g.legal_actions() == [], "legal actions after the end", lambda: str(g.legal_actions()[:5]))
    p.check(g.to_act() == {}, "to_act after the end", lambda: str(g.to_act()))
    p.check(g.phase is Phase.OVER, "phase after the end", g.phase)
    for a in (Tick(-1, g.time_ms + 1000), record[-1] if record else Tick(-1, None)):
        try:
            g.clone().apply(a)
            p.add("apply accepted an action after the end", str(a))
        except GameOverError:
            pass
        except Exception as e:  # noqa: BLE001
            p.add("apply after the end raises the wrong error", f"{a}: {type(e).__name__}: {e}")
    s = o.score
    limit_ms = None if config.time_limit is None else config.time_limit * 1000
    p.check(s.total >= 0 and min(s.win_bonus, s.time_bonus, s.bomb_points, s.fuse_points) >= 0,
            "negative score", s)
    p.check(s.win_bonus == (10 if o.won else 0), "win bonus", f"won={o.won} {s}")
    p.check(0 <= s.time_bonus <= 60 and (o.won or s.time_bonus == 0), "time bonus", f"won={o.won} {s}")
    p.check(s.fuse_points == 2 * len(g.fuses_activated) <= 2 * config.fuse_count, "fuse points",
            f"{s} activated={g.fuses_activated}")
    p.check(len(set(g.fuses_activated)) == len(g.fuses_activated), "a fuse card activated twice",
            g.fuses_activated)
    pile = sum(g.bomb(c).points for c in g.score_pile)
    pending = sum(g.bomb(c).points for _, c, _ in g.picks) if o.won else 0
    p.check(s.bomb_points == pile + pending, "bomb points", f"{s} pile={pile} pending={pending}")
    p.check(o.time_left_ms == (None if limit_ms is None else limit_ms - g.time_ms), "time left",
            f"{o.time_left_ms} vs t={g.time_ms}")
    p.check(o.official == (config.time_limit == 600), "official flag", o)
    if o.reason is Termination.TIME_UP:
        p.check(not o.won and g.time_ms == limit_ms, "time-up ending", f"{o} t={g.time_ms}")
    if o.reason is Termination.BAG_EMPTY:
        p.check(not o.won and not g.bag, "bag-empty ending", f"{o} bag={g.bag}")
    if o.won:
        p.check(o.reason is Termination.BOMBS_DEFUSED and not g.middle_has_bombs(), "won with bombs left",
                f"{o} row={g.row} stacks={g.stacks}")
        if config.difficulty is Difficulty.INSANE:
            p.check(not any(g.hands), "Insane won with hand cards left",
                    [[h.card for h in hs] for hs in g.hands])
    replay = new_game(config, seed)
    try:
        for a in record:
            replay.apply(a)
        p.check(replay == g, "replay differs", f"{snapshot(replay)} vs {snapshot(g)}")
    except Exception as e:  # noqa: BLE001
        p.add("replay raises", f"{type(e).__name__}: {e}")


def play_and_check(config: GameConfig, seed: int) -> tuple[GameState, Problems, int]:
    p = Problems()
    g = new_game(config, seed)
    p.check(g == new_game(config, seed), "new_game is not deterministic", seed)
    rng = Rng(seed * 1_000_003 + 17)
    clock = [0]
    turn = g.turn
    record: list[Action] = []
    steps = 0
    while not g.is_over and steps < STEP_BOUND:
        where = f"step {steps} ({snapshot(g)})"
        twins = step_checks(g, p, where)
        try_all_legal(g, rng, p, where)
        if not g.legal_actions():
            p.add("stuck: no legal action, not over, not chance", f"{where} to_act={g.to_act()}")
            break
        if g.turn != turn:
            turn = g.turn
            clock[0] += 14_000 + rng.below(4000)
        a = choose(g, rng, clock)
        record.append(a)
        apply_everywhere(g, a, twins, p, f"{where}: {a}")
        steps += 1
    p.check(g.is_over, "did not terminate", f"{steps} steps ({snapshot(g)})")
    if g.is_over:
        end_checks(g, config, seed, record, p)
    return g, p, steps


@pytest.mark.parametrize("seed", SEEDS, ids=lambda s: f"seed{s}")
@pytest.mark.parametrize("cfg", CONFIGS, ids=_config_id)
def test_conformance(cfg: tuple[int, Difficulty, Setup, bool, bool], seed: int) -> None:
    players, difficulty, setup, six, feasibility = cfg
    config = make_config(players=players, difficulty=difficulty, setup=setup, six_point_cards=six,
                         feasibility=feasibility)
    g, problems, steps = play_and_check(config, seed)
    assert not problems.first, (
        f"{_config_id(cfg)} seed {seed}: {len(problems.first)} kind(s) of problem in {steps} steps:\n"
        + problems.report())


TEST_DECK_CONFIGS = [
    (1, Difficulty.TRAINING, Setup.SINGLE_DECK, False, True),
    (3, Difficulty.EXPERT, Setup.STANDARD, True, False),
    (5, Difficulty.INSANE, Setup.STACKS, True, True),
]


@pytest.mark.parametrize("cfg", TEST_DECK_CONFIGS, ids=_config_id)
def test_conformance_with_the_test_deck(cfg: tuple[int, Difficulty, Setup, bool, bool]) -> None:
    """The same checks with tests/data/conformance_cards.toml, whose cards use every layout (walls,
    ziggurats), first:/last: slots and clauses; its catalogue also travels inside the JSON state."""
    players, difficulty, setup, six, feasibility = cfg
    config = GameConfig(players=players, difficulty=difficulty, setup=setup, six_point_cards=six,
                        feasibility=feasibility, cards=conformance_catalogue())
    _, problems, steps = play_and_check(config, 5)
    assert not problems.first, f"{steps} steps:\n" + problems.report()


@pytest.mark.parametrize("seed", (3, 4), ids=lambda s: f"seed{s}")
def test_conformance_untimed_game_ends_without_the_clock(seed: int) -> None:
    """An untimed game must still end (bag or bombs), and stays unofficial."""
    config = make_config(players=2, difficulty=Difficulty.TRAINING, time_limit=None)
    g, problems, steps = play_and_check(config, seed)
    assert not problems.first, problems.report()
    assert g.outcome is not None and not g.outcome.official and g.outcome.time_left_ms is None
    assert g.outcome.reason is not Termination.TIME_UP
