"""Benchmark: placement legality (feasibility included) on catalogue cards in random partial states.

Builds random partial states for every catalogue card by legal random placements, then asks
"may a die of type t go on slot s?" for random (state, slot, type) triples. Reports checks per
second on one core, cold (fresh tables, nothing memoised) and warm (the same questions again, as a
game that revisits card states sees them), with the garbage collector kept out of the timings (the cold
tables grow by many small containers: how much memory they take, and what the cold run costs with the
collector on, are printed on lines of their own). The feasibility half of every question (can the card
still be completed after this die?) is also answered by a general-purpose constraint solver
(python-constraint) and the answers are compared, so this run is a cross-check as well as a race.

Two runs: FUSE's bomb cards with FUSE's dice, and Countdown's bomb and spark cards with
Countdown's dice (split dice included: 60 die types instead of 30).

    python bench/legality.py [--queries 20000] [--seed 1] [--cards FILE] [--set fuse|countdown|both]
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from constraint import Problem  # python-constraint

from fusegame.cards.catalogue import builtin_catalogue, load_catalogue
from fusegame.cards.model import BombCard
from fusegame.constraints import EMPTY, CompiledCard, compile_clause, random_partial_state
from fusegame.dice import N_TYPES, DiceSet, type_colours, type_face
from fusegame.rng import Rng
from fusegame.rules.config import COUNTDOWN_DICE


def solver_feasible(card: CompiledCard, state: tuple[int, ...], in_play: list[int]) -> bool:
    """The same question for python-constraint: can the empty slots be filled?"""
    shape = card.shape
    empties = [i for i in range(card.n) if state[i] == EMPTY]
    if not empties:
        return True
    p = Problem()
    for e in empties:
        dom = [t for t in in_play if card.pred[e] >> t & 1]
        if not dom:
            return False
        p.addVariable(e, dom)

    def val(i: int, assigned: dict[int, int]) -> int:
        return state[i] if state[i] != EMPTY else assigned[i]

    for r in shape.relations:
        if state[r.a] != EMPTY and state[r.b] != EMPTY:
            continue
        rel = r.rel
        if state[r.a] == EMPTY and state[r.b] == EMPTY:
            p.addConstraint(lambda x, y, rel=rel: rel.holds(type_colours(x), type_face(x),
                                                           type_colours(y), type_face(y)), (r.a, r.b))
        elif state[r.a] == EMPTY:
            tb = state[r.b]
            p.addConstraint(lambda x, rel=rel, tb=tb: rel.holds(type_colours(x), type_face(x),
                                                               type_colours(tb), type_face(tb)), (r.a,))
        else:
            ta = state[r.a]
            p.addConstraint(lambda y, rel=rel, ta=ta: rel.holds(type_colours(ta), type_face(ta),
                                                               type_colours(y), type_face(y)), (r.b,))
    for c in shape.clauses:
        free = [s for s in c.slots if state[s] == EMPTY]
        if not free:
            continue

        clause_test = compile_clause(c)

        def check(*vals: int, test: Any = clause_test, free: list[int] = free) -> bool:
            full = list(state)
            for s, v in zip(free, vals):
                full[s] = v
            return bool(test(full))

        p.addConstraint(check, free)
    return p.getSolution() is not None


def rss_mb() -> float:
    """This process's resident memory now, in MB (Linux; 0 elsewhere)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6
    except OSError:
        return 0.0


@contextmanager
def quiet_collector() -> Iterator[None]:
    """Time legality, not the garbage collector: the memo tables grow by many small containers that
    each full collection would walk again (what that costs is printed on its own line)."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()


def measure(label: str, cards: list[BombCard], dice: DiceSet, args: argparse.Namespace) -> int:
    """Time the legality questions and the feasibility cross-check on ``cards`` with ``dice``;
    print the figures; return the number of answers that disagree with python-constraint."""
    types_mask = dice.types_in_play
    in_play = [t for t in range(N_TYPES) if types_mask >> t & 1]
    rng = Rng(args.seed)
    # Questions: random card, random partial state, random slot and die type.
    prep = [CompiledCard(b.shape, types_mask) for b in cards]
    queries: list[tuple[int, tuple[int, ...], int, int]] = []
    for _ in range(args.queries):
        i = rng.below(len(cards))
        card = prep[i]
        queries.append((i, random_partial_state(card, rng), rng.below(card.n),
                        in_play[rng.below(len(in_play))]))

    # The engine keeps each hand card's state as class representatives (HandCard.key, updated
    # as dice come and go), so the questions are asked the same way here.
    canonical = [(i, prep[i].key(st), s, prep[i].canon[t]) for i, st, s, t in queries]
    # three cold runs, each on fresh tables: the first also pays for the heap growing (pages from
    # the system), so the median is the figure and the first is printed on its own
    runs: list[float] = []
    grown = 0.0
    for _ in range(3):
        fresh = [CompiledCard(b.shape, types_mask) for b in cards]
        rss0 = rss_mb()
        with quiet_collector():
            t0 = time.perf_counter()
            cold = [fresh[i].is_legal(st, s, t) for i, st, s, t in canonical]
            runs.append(time.perf_counter() - t0)
        grown = grown or rss_mb() - rss0
    cold_s = sorted(runs)[1]
    with quiet_collector():
        t0 = time.perf_counter()
        warm = [fresh[i].is_legal(st, s, t) for i, st, s, t in canonical]
        warm_s = time.perf_counter() - t0
    raw = [CompiledCard(b.shape, types_mask) for b in cards]
    with quiet_collector():
        t0 = time.perf_counter()
        plain = [raw[i].is_legal(st, s, t) for i, st, s, t in queries]
        raw_s = time.perf_counter() - t0
    with quiet_collector():  # the cold run again with the collector on, as a long game would see it
        busy = [CompiledCard(b.shape, types_mask) for b in cards]
        gc.enable()
        t0 = time.perf_counter()
        for i, st, s, t in canonical:
            busy[i].is_legal(st, s, t)
        busy_s = time.perf_counter() - t0
    assert cold == warm == plain, "canonical keys must not change any answer"

    # Feasibility only, engine vs python-constraint, on the questions whose other checks pass.
    feas_q = []
    for i, st, s, t in queries:
        card = prep[i]
        if card.is_open(st, s) and card._pred_ok(s, t, t) and card._relations_ok(st, s, t):
            feas_q.append((i, st[:s] + (t,) + st[s + 1:]))
        if len(feas_q) >= args.solver_queries:
            break
    engine_cards = [CompiledCard(b.shape, types_mask) for b in cards]
    with quiet_collector():
        t0 = time.perf_counter()
        ours = [engine_cards[i].feasible(st) for i, st in feas_q]
        ours_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    theirs = [solver_feasible(prep[i], st, in_play) for i, st in feas_q]
    theirs_s = time.perf_counter() - t0
    disagree = sum(a != b for a, b in zip(ours, theirs))

    n = len(queries)
    split = sum(b.shape.requires_split_die for b in cards)
    print(f"== {label}")
    print(f"cards: {len(cards)} ({split} need a split die), dice: {dice.text()} ({len(in_play)} die types)")
    print(f"questions: {n}, legal: {sum(cold)}")
    print(f"legality checks/s, cold tables : {n / cold_s:>12,.0f}  (median of 3; the first run, "
          f"the heap growing: {n / runs[0]:,.0f})")
    print(f"legality checks/s, warm tables : {n / warm_s:>12,.0f}")
    print(f"legality checks/s, raw die types: {n / raw_s:>11,.0f}  (cold, without class keys)")
    print(f"legality checks/s, cold, with the garbage collector on: {n / busy_s:,.0f}")
    print(f"memory the cold tables grew by : {grown:>9,.1f} MB (resident)")
    print(f"feasibility questions          : {len(feas_q)} ({sum(ours)} feasible)")
    print(f"feasibility/s, engine (cold)   : {len(feas_q) / ours_s:>12,.0f}")
    print(f"feasibility/s, python-constraint: {len(feas_q) / theirs_s:>11,.0f}")
    print(f"engine / python-constraint     : {theirs_s / ours_s:>12.1f}x faster")
    print(f"answers that disagree          : {disagree}")
    return disagree


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--queries", type=int, default=20000)
    ap.add_argument("--solver-queries", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cards", help="a catalogue TOML file instead of the built-in one")
    ap.add_argument("--set", choices=("fuse", "countdown", "both"), default="both",
                    help="which cards to measure (default both)")
    args = ap.parse_args()
    cat = load_catalogue(args.cards) if args.cards else builtin_catalogue()
    disagree = 0
    measured = 0
    if args.set in ("fuse", "both"):
        # FUSE: the cards that need no split die (every FUSE card), with FUSE's 25 dice
        bombs = [b for b in cat.bombs if b.set == "fuse" and not b.shape.requires_split_die]
        if bombs:
            disagree += measure(f"FUSE bomb cards ({cat.origin})", bombs, DiceSet.fuse(), args)
            measured += 1
    if args.set in ("countdown", "both"):
        # Countdown: its bomb and spark cards, with Countdown's dice (five of them split dice)
        cd = [*cat.of_set("countdown").bombs, *cat.of_set("countdown").sparks]
        if cd:
            if measured:
                print()
            disagree += measure(f"Countdown bomb and spark cards ({cat.origin})", cd,
                                DiceSet.parse(COUNTDOWN_DICE), args)
            measured += 1
    if not measured:
        print("no bomb cards of the asked set in the catalogue", file=sys.stderr)
        return 2
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
