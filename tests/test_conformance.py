"""One conformance test, run on every configuration (OpenSpiel's ``games_sim_test`` idea).

The configurations: FUSE (players 1-5 x the five difficulties x the three setups x six-point cards
on/off x the feasibility rule on/off); FUSE: Countdown (players 1-4 x Training..Heroic x the
feasibility rule on/off); the integrated sets (players 1-4 x the five difficulties); FUSE with
every one of the 32 subsets of the five Countdown modules (spread over players 1-5 and the
difficulties, so each subset runs once); and epic games (players 6-9 x the five difficulties).
A seeded random policy plays whole games (and a few more, with a policy that prefers placing dice,
win: the endings with the clock stopped and cards turned face down). At EVERY step it checks

* conservation of dice: bag + dice on cards + rolled dice still in the middle (DISTRIBUTE) + untaken
  dice not yet back in the bag (PENALTY, DEFUSE, SPARKS) == ``len(g.dice)`` (25; 35-50 in epic
  games), and no die is in two places at once;
* conservation of cards: the bomb cards of the game (hands, face-down duds, row, deck, stacks,
  score pile) and its fuse cards (deck, stacks setup's fuse pile, gone off) never change; every
  playable spark (the split-die sparks are left out without split dice) is in play, in the spark
  deck or in the discard pile, exactly once; no card needing a split die in an epic game;
* roles: one role and one face-up flag per seat when roles are in play, none otherwise; the
  leader's active ability agrees with them;
* role colour changes: no die is both temporarily coloured and placed (temporary colours belong to
  rolled dice still in the middle); no seat took more dice than its quota;
* ``Action.parse(str(a)) == a`` for every legal action;
* ``to_act()`` names exactly the seats that have legal actions; events print and are JSON data;
* the chosen action passes validated ``apply``;

and at every second step (FULL_EVERY; the copies cost most of the time):

* ``clone() == state``, and the clone evolves identically under the same action;
* the JSON round trip (``from_dict(json(to_dict()))``) is equal and also evolves identically;
* validated ``apply`` accepts every legal action (each tried on a fresh clone; placements and
  ability uses, which can run to hundreds, on a random sample of MAX_TRIED);
* ``apply_unchecked`` on a fresh clone gives the same state and events as ``apply``;

and at the end: termination within a step bound, no legal action and ``GameOverError`` after the
end, score bounds (spark points included: 2 per defused spark), the win conditions (middle clear,
no spark in play, Insane/Heroic: no bomb in hand), and replay equality (``new_game(config, seed)`` +
the recorded actions).

Problems are collected rather than raised at the first one, so a single failing run reports every
kind of problem it met (the first occurrence of each, with the step and the action).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations
from typing import Any

import pytest

from conftest import conformance_catalogue, make_config, make_countdown_config
from fusegame.rng import Rng
from fusegame.rules import (
    Action,
    Difficulty,
    GameConfig,
    GameOverError,
    GameState,
    IllegalAction,
    Phase,
    Place,
    Setup,
    Tick,
    new_game,
)
from fusegame.rules.actions import Defuse, Flip, Recolour, Renumber, Rethrow
from fusegame.rules.config import Game, Module, dice_per_turn, quota
from fusegame.rules.outcome import Termination

STEP_BOUND = 6000  # a 600 s game at ~15 s a turn is ~40 turns of at most ~15 actions
SEEDS = (11,)
#: validated apply is tried on every legal decision, and on a random sample of this many of the
#: placements and ability uses (the chosen action is always applied validated): keeps the whole
#: file (some 450 games) within a minute and a half on two cores
MAX_TRIED = 4
#: the checks that copy the state (clone, JSON round trip, ``apply_unchecked`` twin, validated apply
#: of the other legal actions) run at every FULL_EVERY-th step; the state invariants, the action
#: texts and ``to_act`` are checked at every step
FULL_EVERY = 2
#: the actions of which a position can offer very many
MANY_KINDS = (Place, Recolour, Renumber, Flip, Rethrow)

CONFIGS = [
    (players, difficulty, setup, six, feasibility)
    for players in range(1, 6)
    for difficulty in Difficulty if difficulty is not Difficulty.HEROIC
    for setup in Setup
    for six in (False, True)
    for feasibility in (True, False)
]
#: the five columns of the difficulty tables, by Countdown's names (FUSE configs turn Heroic into Insane)
LEVELS = (Difficulty.TRAINING, Difficulty.STANDARD, Difficulty.EXPERT, Difficulty.ELITE, Difficulty.HEROIC)


def _config_id(c: tuple[int, Difficulty, Setup, bool, bool]) -> str:
    players, difficulty, setup, six, feasibility = c
    return (f"{players}p-{difficulty.value}-{setup.value}-{'six' if six else 'nosix'}-"
            f"{'feas' if feasibility else 'strict'}")


#: Countdown-style and module configurations: (test id, GameConfig keyword arguments)
COUNTDOWN_CONFIGS: list[tuple[str, dict[str, Any]]] = [
    (f"countdown-{p}p-{d.value}-{'feas' if feas else 'strict'}",
     {"game": Game.COUNTDOWN, "players": p, "difficulty": d, "feasibility": feas})
    for p in range(1, 5) for d in LEVELS for feas in (True, False)
] + [
    (f"integrated-{p}p-{d.value}", {"game": Game.INTEGRATED, "players": p, "difficulty": d})
    for p in range(1, 5) for d in LEVELS
] + [
    (f"epic-{p}p-{d.value}", {"game": Game.EPIC, "players": p, "difficulty": d})
    for p in range(6, 10) for d in LEVELS
]
#: the 32 subsets of the five modules, each once, spread over the player counts and difficulties
MODULE_SUBSETS = [m for k in range(len(Module) + 1) for m in combinations(Module, k)]
FUSE_LEVELS = LEVELS[:4] + (Difficulty.INSANE,)
MODULE_CONFIGS: list[tuple[str, dict[str, Any]]] = [
    (f"fuse+{'+'.join(m.value for m in mods) or 'none'}-{1 + i % 5}p-{FUSE_LEVELS[(i + i // 5) % 5].value}",
     {"game": Game.FUSE, "modules": mods, "players": 1 + i % 5, "difficulty": FUSE_LEVELS[(i + i // 5) % 5]})
    for i, mods in enumerate(MODULE_SUBSETS)
]


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
    """(the count that must be ``len(g.dice)``, the dice found in more than one place)."""
    places: list[int] = list(g.bag)
    places += [d for hand in g.hands for hc in hand for d in hc.dice if d >= 0]
    places += g.unplaced()  # DISTRIBUTE: rolled dice still in the middle
    places += g.unused  # PENALTY / DEFUSE / SPARKS: untaken dice not yet back in the bag
    dup = sorted(d for d, n in Counter(places).items() if n > 1)
    return len(places), dup


def card_census(g: GameState) -> tuple[Counter[str], Counter[str], Counter[str]]:
    """Where the game's cards are: (bomb cards, fuse cards, spark cards), each id with its count."""
    fuse_ids = {f.id for f in g.catalogue.fuses}
    in_hands = [hc.card for hand in g.hands for hc in hand]
    bombs = Counter(c for c in in_hands if not g.is_spark(c))
    bombs.update(c for duds in g.duds for c in duds)
    bombs.update(g.row)
    bombs.update(c for c in g.deck if c not in fuse_ids)
    bombs.update(c for cards in g.stacks.values() for c in cards)
    bombs.update(g.score_pile)
    fuses = Counter(c for c in g.deck if c in fuse_ids)
    fuses.update(g.fuse_deck)
    fuses.update(g.fuses_activated)
    sparks = Counter(c for c in in_hands if g.is_spark(c))
    sparks.update(g.spark_deck)
    sparks.update(g.spark_discard)
    return bombs, fuses, sparks


def choose(g: GameState, rng: Rng, clock: list[int], eager: bool = False,
           acts: Sequence[Action] | None = None) -> Action:
    """The conformance policy: a uniformly random legal action of any seat; time moves ~15 s a turn
    (a little within a turn), and now and then a bare Tick. ``eager``: nine times in ten a random
    placement (or early defusal) when there is one, which wins games often enough to reach the
    endings (the clock stopped mid-turn, cards turned face down, the win itself)."""
    if acts is None:
        acts = g.legal_actions()
    if rng.below(40) == 0 or not acts:
        clock[0] += rng.below(3000)
        return Tick(-1, max(clock[0], g.time_ms))
    placing = [a for a in acts if isinstance(a, (Place, Defuse))] if eager and rng.below(10) else []
    a = placing[rng.below(len(placing))] if placing else acts[rng.below(len(acts))]
    clock[0] += rng.below(300)
    return replace(a, at=max(clock[0], g.time_ms))


def snapshot(g: GameState) -> str:
    return f"turn {g.turn} phase {g.phase.value} leader P{g.leader + 1} t={g.time_ms}"


class Expected:
    """What stays fixed through a game: its bomb and fuse cards (as dealt), its sparks (every
    playable one), its dice."""

    def __init__(self, g: GameState, p: Problems) -> None:
        config = g.config
        self.bombs, self.fuses, sparks = card_census(g)
        self.sparks = Counter(s.id for s in config.playable.sparks) if config.uses_sparks else Counter()
        self.n_dice = len(g.dice)
        # F.3: Countdown's 25 dice plus 5 FUSE dice per player over 4 in epic games (35-50)
        want_dice = 25 + (5 * (config.players - 4) if config.game is Game.EPIC else 0)
        p.check(self.n_dice == len(config.dice_set) == want_dice, "dice in the game",
                lambda: f"{g.dice.text()} (want {want_dice})")
        p.check(sparks == self.sparks, "sparks at the start",
                lambda: f"{sorted(sparks.elements())} vs playable {sorted(self.sparks.elements())}")
        p.check(sum(self.fuses.values()) == config.fuse_count and max(self.fuses.values(), default=1) == 1,
                "fuse cards at the start", lambda: f"{dict(self.fuses)} (want {config.fuse_count})")
        p.check(max(self.bombs.values(), default=1) == 1, "a bomb card dealt twice",
                lambda: str([c for c, n in self.bombs.items() if n > 1]))
        if config.game is Game.EPIC or not config.split_dice:
            split = sorted(c for c in [*self.bombs, *self.sparks] if g.bomb(c).shape.requires_split_die)
            p.check(not split, "a card needing a split die without split dice (or in an epic game)", split)
        # F.2, F.3: no fuse card that needs a part not in play (the role card without roles: always
        # in epic games; the spark card without sparks); B.5: Countdown-style games use none at
        # Training and Standard
        needs = {"roles": config.uses_roles, "sparks": config.uses_sparks, "": True}
        unusable = sorted(f for f in self.fuses if not needs[g.fuse(f).needs])
        p.check(not unusable, "a fuse card that needs a part not in play", unusable)
        if config.countdown_rules and config.difficulty in (Difficulty.TRAINING, Difficulty.STANDARD):
            p.check(not self.fuses, "fuse cards at Training/Standard in a Countdown-style game",
                    lambda: str(sorted(self.fuses)))
        hand_bombs = sum(1 for hand in g.hands for hc in hand if not g.is_spark(hc.card))
        in_middle = sum(self.bombs.values()) - hand_bombs
        if config.setup is Setup.STANDARD:  # A.9: row + deck (+ the hands, in Countdown's tables)
            want = config.deck_size - (hand_bombs if config.hands_in_deck else 0)
            p.check(in_middle == want, "bomb cards in the middle at the start",
                    lambda: f"{in_middle} (want {want}: deck size {config.deck_size}, hands {hand_bombs})")


def state_checks(g: GameState, p: Problems, where: str, expect: Expected) -> None:
    """The rules' invariants that hold between any two actions (the dice only while the game runs:
    the end leaves the roll where it was)."""
    if not g.is_over:
        total, dup = dice_census(g)
        p.check(total == expect.n_dice and not dup, "dice conservation",
                lambda: f"{where}: counted {total} dice (want {expect.n_dice}), in two places: {dup}; "
                        f"bag={g.bag} unplaced={g.unplaced()} unused={g.unused} rolled={g.rolled} "
                        f"({snapshot(g)})")
    config = g.config
    bombs, fuses, sparks = card_census(g)
    p.check(bombs == expect.bombs, "bomb card conservation",
            lambda: f"{where}: lost {sorted((expect.bombs - bombs).elements())}, "
                    f"extra {sorted((bombs - expect.bombs).elements())}")
    p.check(fuses == expect.fuses, "fuse card conservation",
            lambda: f"{where}: lost {sorted((expect.fuses - fuses).elements())}, "
                    f"extra {sorted((fuses - expect.fuses).elements())}")
    p.check(sparks == expect.sparks, "spark conservation",
            lambda: f"{where}: lost {sorted((expect.sparks - sparks).elements())}, "
                    f"extra {sorted((sparks - expect.sparks).elements())} (in play {g.sparks_in_play()}, "
                    f"deck {len(g.spark_deck)}, discard {len(g.spark_discard)})")
    p.check(all(c in expect.sparks for c in g.sparks_defused), "a defused spark that is not in the game",
            lambda: f"{where}: {g.sparks_defused}")
    n_roles = config.players if config.uses_roles else 0
    p.check(len(g.roles) == len(g.roles_up) == n_roles, "roles per seat",
            lambda: f"{where}: roles={g.roles} roles_up={g.roles_up} (want {n_roles})")
    p.check(len(set(g.roles)) == len(g.roles), "a role dealt twice", lambda: f"{where}: {g.roles}")
    if config.uses_roles and len(g.roles) == config.players:
        up = g.roles_up[g.leader]
        want = g.role(g.roles[g.leader]).ability if up else None
        p.check(g.active_ability() == want, "active ability",
                lambda: f"{where}: {g.active_ability()} (leader's role {g.roles[g.leader]}, up={up})")
    else:
        p.check(g.active_ability() is None, "an ability without roles",
                lambda: f"{where}: {g.active_ability()}")
    placed = {d for hand in g.hands for hc in hand for d in hc.dice if d >= 0}
    temp_placed = sorted(set(g.temp) & placed)
    p.check(not temp_placed, "a die both temporarily coloured and placed",
            lambda: f"{where}: {temp_placed} temp={g.temp}")
    stray = sorted(set(g.temp) - set(g.unplaced())) if not g.is_over else []  # (the end freezes the roll)
    p.check(not stray, "a temporary colour on a die not in the middle",
            lambda: f"{where}: {stray} temp={g.temp}")
    # A.10 (the counts of the last turn stay until the next roll; the leader's bonus goes with the turn)
    p.check(g.quota == quota(config.players), "quota", lambda: f"{where}: {g.quota}")
    if g.phase not in (Phase.ROLL, Phase.OVER):
        over = [s for s in range(config.players) if g.taken[s] > g.seat_quota(s)]
        p.check(not over, "a seat took more dice than its quota",
                lambda: f"{where}: seats {over} took {g.taken} (quota {g.quota}, bonus {g.bonus_die})")
        most = dice_per_turn(config.players) + (1 if g.bonus_die else 0)
        p.check(len(g.rolled) <= most, "more dice rolled than A.10 allows",
                lambda: f"{where}: rolled {g.rolled} (at most {most})")
    if config.uses_sparks:
        p.check(g.phase is not Phase.PENALTY, "a reroll penalty in a game with sparks", where)
    else:
        p.check(g.phase not in (Phase.SPARKS, Phase.DEFUSE) and not g.sparks_in_play(),
                "sparks in a game without them", lambda: f"{where}: {g.phase.value}")
    if not config.countdown_rules:
        p.check(g.phase is not Phase.DEFUSE and g.clock_stop is None, "Countdown's Step 3 in FUSE",
                lambda: f"{where}: {g.phase.value} clock_stop={g.clock_stop}")
    p.check(not any(g.duds) or (config.uses_sparks and not config.difficulty.top),
            "cards turned face down without sparks or at Insane/Heroic (C.2.2)", lambda: f"{where}: {g.duds}")
    p.check(set(g.six) <= set(range(config.players)) and len(set(g.six)) == len(g.six), "roll-a-6 seats",
            lambda: f"{where}: {g.six}")


def step_checks(g: GameState, p: Problems, where: str, expect: Expected, acts: Sequence[Action],
                full: bool = True) -> dict[str, GameState]:
    """The per-step checks; returns the twins of ``g`` (with ``full``: a clone and the JSON copy)
    to evolve next."""
    state_checks(g, p, where, expect)
    p.check(not g.is_chance, "pending chance node in a sampled game", where)
    twins: dict[str, GameState] = {}
    if full:
        data = g.to_dict()
        twins["clone"] = g.clone()
        p.check(twins["clone"].to_dict() == data, "clone equality", where)
        try:
            twins["JSON copy"] = GameState.from_dict(json.loads(json.dumps(data)))
            p.check(twins["JSON copy"].to_dict() == data, "JSON round trip", where)
        except Exception as e:  # noqa: BLE001 - reported, not hidden
            p.add("JSON round trip raises", f"{where}: {type(e).__name__}: {e}")
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


def try_all_legal(g: GameState, acts: Sequence[Action], rng: Rng, p: Problems, where: str) -> None:
    """Validated ``apply`` on a clone for every legal decision (done, take, give, defuse, roll,
    name, ...) and for a random sample of MAX_TRIED placements and ability uses (they can run to
    hundreds: big solo turns, the Explosives Instructor's subsets)."""
    many = [a for a in acts if isinstance(a, MANY_KINDS)]
    tried = [a for a in acts if not isinstance(a, MANY_KINDS)]
    if len(many) > MAX_TRIED:
        picks = sorted({rng.below(len(many)) for _ in range(MAX_TRIED)})
        many = [many[i] for i in picks]
    for a in tried + many:
        try:
            g.clone().apply(a)
        except IllegalAction as e:
            p.add("validated apply rejects a legal action", f"{where}: {a}: {type(e).__name__}: {e}")
        except Exception as e:  # noqa: BLE001
            p.add("apply crashes on a legal action", f"{where}: {a}: {type(e).__name__}: {e}")


def apply_everywhere(g: GameState, a: Action, twins: dict[str, GameState], p: Problems,
                     where: str) -> list[Any]:
    """Apply ``a`` to ``g`` (validated), to its ``twins`` (validated) and, when there are twins, to a
    fresh clone with ``apply_unchecked``; all must end equal, with equal events."""
    if twins:
        twins = {**twins, "unchecked clone": g.clone()}
    try:
        events = g.apply(a)
    except IllegalAction as e:
        p.add("validated apply rejects the chosen action", f"{where}: {a}: {type(e).__name__}: {e}")
        events = g.apply_unchecked(a)
    data = g.to_dict() if twins else {}
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
    top_bonus = 60 if limit_ms is None else limit_ms // 10_000
    p.check(0 <= s.time_bonus <= top_bonus and (o.won or s.time_bonus == 0), "time bonus",
            f"won={o.won} {s}")
    p.check(s.fuse_points == 2 * len(g.fuses_activated) <= 2 * config.fuse_count, "fuse points",
            f"{s} activated={g.fuses_activated}")
    p.check(s.spark_points == 2 * len(g.sparks_defused) and (config.uses_sparks or not s.spark_points),
            "spark points", f"{s} sparks defused={g.sparks_defused}")
    p.check(s.total == s.win_bonus + s.time_bonus + s.bomb_points + s.fuse_points + s.spark_points,
            "score total", s)
    p.check(len(set(g.fuses_activated)) == len(g.fuses_activated), "a fuse card activated twice",
            g.fuses_activated)
    pile = sum(g.bomb(c).points for c in g.score_pile)
    # a complete card still waiting for its owner's replacement pick is defused all the same
    # (FUSE C.1.3, G-24; Countdown Step 3 defuses before the pick)
    pending = sum(g.bomb(c).points for _, c, _ in g.picks)
    p.check(s.bomb_points == pile + pending, "bomb points", f"{s} pile={pile} pending={pending}")
    stopped = g.time_ms if g.clock_stop is None else g.clock_stop  # E.2: the clock stopped at the save
    p.check(o.time_left_ms == (None if limit_ms is None else limit_ms - stopped), "time left",
            f"{o.time_left_ms} vs t={g.time_ms} clock_stop={g.clock_stop}")
    p.check(g.clock_stop is None or (config.countdown_rules and o.won), "clock stopped without a save",
            f"{o} clock_stop={g.clock_stop}")
    p.check(o.official == (config.time_limit == 600), "official flag", o)
    if o.reason is Termination.TIME_UP:
        p.check(not o.won and g.time_ms == limit_ms, "time-up ending", f"{o} t={g.time_ms}")
    if o.reason is Termination.BAG_EMPTY:
        p.check(not o.won and not g.bag, "bag-empty ending", f"{o} bag={g.bag}")
    if o.won:
        p.check(o.reason is Termination.BOMBS_DEFUSED and not g.middle_has_bombs(), "won with bombs left",
                f"{o} row={g.row} stacks={g.stacks}")
        p.check(not g.sparks_in_play(), "won with sparks in play (E.2)",
                [[h.card for h in hs if g.is_spark(h.card)] for hs in g.hands])
        if config.difficulty.top:
            left = [[h.card for h in hs if not g.is_spark(h.card)] for hs in g.hands]
            p.check(not any(left), "Insane/Heroic won with hand bombs left", left)
    else:
        p.check(o.reason is not Termination.BOMBS_DEFUSED, "lost with bombs defused", o)
    replay = new_game(config, seed)
    try:
        for a in record:
            replay.apply(a)
        p.check(replay == g, "replay differs", f"{snapshot(replay)} vs {snapshot(g)}")
    except Exception as e:  # noqa: BLE001
        p.add("replay raises", f"{type(e).__name__}: {e}")


def play_and_check(config: GameConfig, seed: int, step_bound: int = STEP_BOUND,
                   seen: Counter[str] | None = None, eager: bool = False) -> tuple[GameState, Problems, int]:
    """Play one game with the conformance policy (``eager``: the placement-loving one), checking
    every step; ``seen`` counts the kinds of events met (what the game exercised)."""
    p = Problems()
    g = new_game(config, seed)
    p.check(g == new_game(config, seed), "new_game is not deterministic", seed)
    expect = Expected(g, p)
    rng = Rng(seed * 1_000_003 + 17)  # the policy's
    sample_rng = Rng(seed * 1_000_003 + 29)  # the checks' own: how often they run does not change the game
    clock = [0]
    turn = g.turn
    record: list[Action] = []
    steps = 0
    while not g.is_over and steps < step_bound:
        where = f"step {steps} ({snapshot(g)})"
        full = steps % FULL_EVERY == 0
        acts = g.legal_actions()
        twins = step_checks(g, p, where, expect, acts, full)
        if full:
            try_all_legal(g, acts, sample_rng, p, where)
        if not acts:
            p.add("stuck: no legal action, not over, not chance", f"{where} to_act={g.to_act()}")
            break
        if g.turn != turn:
            turn = g.turn
            clock[0] += 14_000 + rng.below(4000)
        a = choose(g, rng, clock, eager, acts)
        record.append(a)
        events = apply_everywhere(g, a, twins, p, f"{where}: {a}")
        if seen is not None:
            seen.update(e.kind + (f":{e.data['effect']}" if "effect" in e.data else "") for e in events)
        steps += 1
    if g.is_over:
        state_checks(g, p, f"the end ({snapshot(g)})", expect)
        end_checks(g, config, seed, record, p)
    elif step_bound == STEP_BOUND or config.time_limit is not None:
        p.add("did not terminate", f"{steps} steps ({snapshot(g)})")
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


@pytest.mark.parametrize("cfg", [c for _, c in COUNTDOWN_CONFIGS], ids=[i for i, _ in COUNTDOWN_CONFIGS])
def test_conformance_countdown(cfg: dict[str, Any]) -> None:
    """FUSE: Countdown, the integrated sets and epic games (RULES.md F.1, F.3, F.4)."""
    config = make_countdown_config(**cfg)
    g, problems, steps = play_and_check(config, SEEDS[0])
    assert not problems.first, (
        f"{config.describe()} seed {SEEDS[0]}: {len(problems.first)} kind(s) of problem in {steps} steps:\n"
        + problems.report())


@pytest.mark.parametrize("cfg", [c for _, c in MODULE_CONFIGS], ids=[i for i, _ in MODULE_CONFIGS])
def test_conformance_modules(cfg: dict[str, Any]) -> None:
    """FUSE with each subset of the Countdown modules (RULES.md F.2)."""
    config = make_countdown_config(**cfg)
    g, problems, steps = play_and_check(config, SEEDS[0])
    assert not problems.first, (
        f"{config.describe()} seed {SEEDS[0]}: {len(problems.first)} kind(s) of problem in {steps} steps:\n"
        + problems.report())


#: Games the eager policy wins (a longer clock: 3600 s), each with the endings and events it must
#: reach: (test id, GameConfig keyword arguments, event kinds); seeds 1, 2, ... are played (each
#: one fully checked) until every kind has been seen, at most WIN_SEEDS of them
WIN_SEEDS = 10
WINNING_GAMES: list[tuple[str, dict[str, Any], tuple[str, ...]]] = [
    ("countdown-1p-training", {"game": Game.COUNTDOWN, "players": 1, "difficulty": Difficulty.TRAINING},
     ("game_won", "clock_stopped", "card_turned_down")),
    ("countdown-2p-expert", {"game": Game.COUNTDOWN, "players": 2, "difficulty": Difficulty.EXPERT,
                             "fuse_cards": 10},
     ("game_won", "card_turned_down", "fuse_activated:roll-six", "six_rolled",
      "fuse_activated:lose-roles", "role_restored", "fuse_activated:spark", "sparks_turned_over")),
    ("countdown-2p-heroic", {"game": Game.COUNTDOWN, "players": 2, "difficulty": Difficulty.HEROIC},
     ("game_won", "sparks_turned_over")),
    ("countdown-3p-standard", {"game": Game.COUNTDOWN, "players": 3, "difficulty": Difficulty.STANDARD},
     ("game_won", "card_turned_down")),
    ("integrated-2p-elite", {"game": Game.INTEGRATED, "players": 2, "difficulty": Difficulty.ELITE},
     ("game_won", "card_turned_down")),
    ("epic-6p-training", {"game": Game.EPIC, "players": 6, "difficulty": Difficulty.TRAINING},
     ("game_won", "card_turned_down")),
    ("fuse+roles+sparks-3p-training",
     {"game": Game.FUSE, "modules": (Module.ROLES, Module.SPARKS), "players": 3,
      "difficulty": Difficulty.TRAINING},
     ("game_won", "card_turned_down", "sparks_turned_over", "role_used")),
    ("fuse+roles+fuses+sparks-2p-insane",
     {"game": Game.FUSE, "modules": (Module.ROLES, Module.FUSES, Module.SPARKS), "players": 2,
      "difficulty": Difficulty.INSANE},
     ("game_won", "fuse_activated:spark", "fuse_activated:roll-six", "fuse_activated:lose-roles")),
]


@pytest.mark.parametrize("cfg, kinds", [c[1:] for c in WINNING_GAMES], ids=[c[0] for c in WINNING_GAMES])
def test_conformance_winning_games(cfg: dict[str, Any], kinds: tuple[str, ...]) -> None:
    """The same checks on games that reach the endings a random game rarely reaches: the win, the
    clock stopped by a mid-turn save (E.2), hand cards turned face down (C.2.2), the text fuse
    cards, the spark discards turned over."""
    config = make_countdown_config(time_limit=3600, **cfg)
    seen: Counter[str] = Counter()
    for seed in range(1, WIN_SEEDS + 1):
        g, problems, steps = play_and_check(config, seed, seen=seen, eager=True)
        assert not problems.first, f"{config.describe()} seed {seed}: {steps} steps:\n" + problems.report()
        if all(seen[k] for k in kinds):
            return
    missing = [k for k in kinds if not seen[k]]
    raise AssertionError(f"{config.describe()}: seeds 1-{WIN_SEEDS} never reach {missing} "
                         f"(seen: {dict(seen)})")


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


UNTIMED_GAMES = [
    ("countdown-2p-training", {"game": Game.COUNTDOWN, "players": 2, "difficulty": Difficulty.TRAINING}),
    ("epic-9p-expert", {"game": Game.EPIC, "players": 9, "difficulty": Difficulty.EXPERT}),
    ("fuse+sparks-5p-insane", {"game": Game.FUSE, "modules": (Module.SPARKS,), "players": 5,
                               "difficulty": Difficulty.INSANE}),
]


@pytest.mark.parametrize("cfg", [c for _, c in UNTIMED_GAMES], ids=[i for i, _ in UNTIMED_GAMES])
def test_conformance_untimed_countdown_style_games(cfg: dict[str, Any]) -> None:
    """Untimed games with sparks: they end (bag, or bombs and sparks cleared) or reach the step
    bound, and stay unofficial."""
    config = make_countdown_config(time_limit=None, **cfg)
    g, problems, steps = play_and_check(config, 3, step_bound=3000)
    assert not problems.first, f"{config.describe()}: {steps} steps:\n" + problems.report()
    if g.outcome is not None:
        assert not g.outcome.official and g.outcome.time_left_ms is None
        assert g.outcome.reason is not Termination.TIME_UP
