"""Measure how hard each bomb (and spark) card is, and whether points rise with difficulty.

Usage (from the repository root)::

    PYTHONPATH=src python research/studies/card_difficulty.py [--set fuse|countdown] [--trials 200] [--seed 1]
                                                   [--within 12] [--planner] [FILE]

For every card it simulates a solo player filling that card alone with a greedy single-card policy
(``fusegame.cards.difficulty``; not the team bot) and prints the mean rolls needed, the chance of
finishing within ``--within`` rolls, a summary per point level and Spearman's rank correlation
between points and mean rolls.

``--set fuse`` (the default) measures the FUSE bomb cards of ``fuse.toml`` with FUSE's dice (five
single colours, uniform). ``--set countdown`` measures the bomb and spark cards of
``countdown.toml`` with the Countdown dice (4 of each colour plus the split dice R/B, B/G, G/Y,
Y/K, K/R, drawn in proportion to the inventory); sparks have no points and are reported as their
own level, "spark". A FILE given on the command line replaces the set's default file: all its bomb
(and, for countdown, spark) cards are measured with the chosen set's dice, whatever their ``set``
field says. Runs in well under two minutes on one core with the defaults (about 35 s for
countdown).

``--planner`` adds the team planner's measure of each card (``fusegame.bots.analysis``, the same
numbers as ``fuse cards analyze`` with the same seed and trials: expected dice, and mean rolls with
three dice per roll) and Spearman's correlation between the two measures; it about doubles the
run time.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from rich.console import Console, JustifyMethod
from rich.table import Table

from fusegame.bots.analysis import CardAnalysis, analyse
from fusegame.cards.catalogue import load_catalogue
from fusegame.cards.difficulty import (
    COUNTDOWN_DICE,
    CardDifficulty,
    mean_by_points,
    measure,
    points_correlation,
    spearman,
)
from fusegame.dice import DiceSet

DATA = Path(__file__).resolve().parents[2] / "src" / "fusegame" / "cards" / "data"
DEFAULT_FILE = DATA / "fuse.toml"
DEFAULT_FILES = {"fuse": DEFAULT_FILE, "countdown": DATA / "countdown.toml"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", default=None, help="catalogue TOML file (default: the set's own)")
    ap.add_argument("--set", dest="card_set", choices=sorted(DEFAULT_FILES), default="fuse",
                    help="which game's cards and dice (default: fuse)")
    ap.add_argument("--trials", type=int, default=200, help="simulated fillings per card")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--within", type=int, default=12, help="roll budget for the 'P(done)' column")
    ap.add_argument("--planner", action="store_true",
                    help="also measure each card with the team planner's card model and compare")
    args = ap.parse_args(argv)

    # a wide table even when the output is not a terminal (rich would fall back to 80 columns)
    console = Console(width=None if sys.stdout.isatty() else 150)
    cat = load_catalogue(args.file) if args.file else load_catalogue(DEFAULT_FILES[args.card_set]).of_set(
        args.card_set)
    countdown = args.card_set == "countdown"
    dice: DiceSet | None = COUNTDOWN_DICE if countdown else None
    cards = list(cat.bombs) + (list(cat.sparks) if countdown else [])
    if not cat.bombs:
        console.print(f"No bomb cards to measure in {cat.origin}")
        return 1
    t0 = time.perf_counter()
    results: list[CardDifficulty] = [measure(c, args.trials, args.seed, args.within, dice) for c in cards]
    planner: dict[str, CardAnalysis] = {}
    if args.planner:
        report = analyse(cards, args.card_set, args.trials, args.seed)
        planner = {c.card.id: c for c in report.cards}
    elapsed = time.perf_counter() - t0

    by_id = {c.id: c for c in cards}
    dice_text = "Countdown dice " + COUNTDOWN_DICE.text() if countdown else "FUSE dice"
    title = (f"Card difficulty ({args.card_set}): greedy solo filler, {dice_text}, {args.trials} trials "
             f"per card, seed {args.seed}")
    table = Table(title=title)
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("id", "left"), ("pts", "right"), ("source", "left"), ("name", "left"), ("notation", "left"),
        ("mean rolls", "right"), ("sd", "right"), ("median", "right"),
        (f"P(done <= {args.within})", "right"), ("discards", "right"))
    if planner:
        columns += (("planner dice", "right"), ("planner rolls", "right"))
    for col, just in columns:
        table.add_column(col, justify=just)
    for r in results:
        c = by_id[r.card_id]
        extra = ((f"{planner[r.card_id].expected_dice:.1f}", f"{planner[r.card_id].mean_rolls:.2f}")
                 if planner else ())
        table.add_row(r.card_id, "spark" if r.kind == "spark" else str(r.points), c.source, c.name,
                      c.notation, f"{r.mean_rolls:.1f}", f"{r.stdev_rolls:.1f}", f"{r.median_rolls:.1f}",
                      f"{r.p_within:.2f}", f"{r.mean_discards:.1f}", *extra)
    console.print(table)

    bombs = [r for r in results if r.kind == "bomb"]
    sparks = [r for r in results if r.kind == "spark"]
    levels = Table(title="Per point level")
    for col in ("points", "cards", "mean rolls", "min", "max", f"mean P(done <= {args.within})"):
        levels.add_column(col, justify="right")

    def level_row(label: str, group: list[CardDifficulty]) -> None:
        levels.add_row(label, str(len(group)), f"{sum(r.mean_rolls for r in group) / len(group):.2f}",
                       f"{min(r.mean_rolls for r in group):.1f}", f"{max(r.mean_rolls for r in group):.1f}",
                       f"{sum(r.p_within for r in group) / len(group):.2f}")

    if sparks:
        level_row("spark", sparks)
    means = mean_by_points(bombs)
    for p in means:
        level_row(str(p), [r for r in bombs if r.points == p])
    console.print(levels)

    values = list(means.values())
    rising = all(a < b for a, b in zip(values, values[1:]))
    rho = points_correlation(bombs)
    console.print(f"Mean rolls per level strictly increasing: {'yes' if rising else 'NO'}")
    ok = rising
    if sparks:
        spark_mean = sum(r.mean_rolls for r in sparks) / len(sparks)
        easier = spark_mean < values[0]
        ok = ok and easier
        console.print(f"Sparks easier than {min(means)}-point bombs on average: "
                      f"{'yes' if easier else 'NO'} ({spark_mean:.2f} < {values[0]:.2f} mean rolls)")
    console.print(f"Spearman rank correlation (points vs mean rolls, bombs): {rho:.3f}  (n = {len(bombs)})")
    if sparks:
        with_sparks = spearman([float(r.points) for r in results], [r.mean_rolls for r in results])
        console.print(f"Spearman with sparks as level 0: {with_sparks:.3f}  (n = {len(results)})")
    if planner:
        greedy = [r.mean_rolls for r in results]
        for label, values in (("planner expected dice", [planner[r.card_id].expected_dice for r in results]),
                              ("planner mean rolls", [planner[r.card_id].mean_rolls for r in results])):
            console.print(f"Spearman (greedy mean rolls vs {label}, all cards): "
                          f"{spearman(greedy, values):.3f}  (n = {len(results)})")
    console.print(f"Simulation time: {elapsed:.1f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
