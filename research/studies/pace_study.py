"""How the win rate depends on the table's pace: seconds per turn, by player count and difficulty.

    python research/studies/pace_study.py --out pace.png
    python research/studies/pace_study.py --policy team --turns 6,8,10,12,14,16 --players 1-5 \\
        --difficulty standard,expert --games 150 --out pace.png --json pace.json

Each cell plays ``--games`` games of FUSE (or ``--game countdown``) at a pace of ``T`` seconds a
turn plus ``--die`` seconds a die rolled (the simulator's pace model), for every ``T`` in
``--turns``. Every cell plays the same seeds (``game_seed(seed, i)``), so the curves differ by
pace, not by deal. Prints a Markdown table (win % and its 95% Wilson interval) and draws win rate
against seconds per turn, one line per player count, one panel per difficulty. Runs in one
process.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import rollout  # noqa: F401 (registers the research policy rollout, which --policy may name)

from fusegame.rules.config import Difficulty, Game, GameConfig
from fusegame.sim import Pace, get_policy
from fusegame.sim.batch import run_batch
from fusegame.sim.grid import Cell, CellResult, parse_difficulties, parse_players
from fusegame.sim.plot import check_plot_path


def plot_pace(results: Sequence[CellResult], path: str | Path, title: str = "") -> None:
    """Win rate (with its 95% interval) against seconds per turn: a panel per difficulty, a line
    per player count."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    levels = list(dict.fromkeys(r.cell.difficulty for r in results))
    fig = Figure(figsize=(6 * len(levels), 4.6), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, len(levels), squeeze=False)[0]
    for ax, level in zip(axes, levels):
        by_players: dict[int, list[CellResult]] = {}
        for r in results:
            if r.cell.difficulty == level:
                by_players.setdefault(r.cell.players, []).append(r)
        for k, (players, rows) in enumerate(sorted(by_players.items())):
            rows.sort(key=lambda r: r.cell.pace.turn_seconds)
            dodge = (k - (len(by_players) - 1) / 2) * 0.08  # keep the error bars apart
            xs = [r.cell.pace.turn_seconds + dodge for r in rows]
            ys = [100 * r.stats.win_rate for r in rows]
            lo = [y - 100 * r.stats.win_rate_ci[0] for y, r in zip(ys, rows)]
            hi = [100 * r.stats.win_rate_ci[1] - y for y, r in zip(ys, rows)]
            ax.errorbar(xs, ys, yerr=[lo, hi], marker="o", capsize=3,
                        label=f"{players} player{'s' if players > 1 else ''}")
        ax.set_title(level)
        ax.set_xlabel("seconds per turn (plus the seconds per die)")
        ax.set_ylabel("win rate (%), 95% interval")
        ax.set_ylim(-2, 102)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small")
    if title:
        fig.suptitle(title)
    fig.savefig(path, dpi=100)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--policy", default="team")
    ap.add_argument("--game", default="fuse")
    ap.add_argument("--players", default="1-5")
    ap.add_argument("--difficulty", default="standard,expert")
    ap.add_argument("--turns", default="6,8,10,12,14,16", help="seconds per turn, comma-separated")
    ap.add_argument("--die", type=float, default=1.0, help="seconds per die rolled")
    ap.add_argument("--games", type=int, default=150)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", type=Path, required=True, help="the chart (.png, .svg, .pdf)")
    ap.add_argument("--json", type=Path, default=None)
    a = ap.parse_args()
    check_plot_path(a.out)
    players = parse_players(a.players, a.game)
    levels = parse_difficulties(a.difficulty)
    turns = [float(t) for t in a.turns.split(",")]
    cells = [Cell(GameConfig(players=p, difficulty=Difficulty(lv), game=Game(a.game)), Pace(t, a.die))
             for lv in levels for p in players for t in turns]
    results: list[CellResult] = []
    t0 = time.perf_counter()
    for i, cell in enumerate(cells):
        # a fresh policy per cell: its caches only make it faster, never different
        stats = run_batch(cell.config, a.games, a.seed, get_policy(a.policy), pace=cell.pace)
        results.append(CellResult(cell, stats))
        print(f"\r{i + 1}/{len(cells)} cells, {time.perf_counter() - t0:.0f} s", end="",
              file=sys.stderr, flush=True)
    print(file=sys.stderr)
    title = f"{a.policy} policy, {a.game}, {a.games} games a cell, T s a turn + {a.die:g} s a die"
    plot_pace(results, a.out, title)
    print(f"{title}: win % [95% interval]\n")
    for level in levels:
        print(f"{level}\n\n| players | " + " | ".join(f"{t:g} s" for t in turns) + " |")
        print("|---|" + "---|" * len(turns))
        for p in players:
            row = [r for r in results if r.cell.difficulty == level and r.cell.players == p]
            row.sort(key=lambda r: r.cell.pace.turn_seconds)
            print(f"| {p} | " + " | ".join(
                f"{100 * r.stats.win_rate:.0f} [{100 * r.stats.win_rate_ci[0]:.0f}, "
                f"{100 * r.stats.win_rate_ci[1]:.0f}]" for r in row) + " |")
        print()
    if a.json is not None:
        a.json.write_text(json.dumps([r.to_dict() for r in results], indent=1))


if __name__ == "__main__":
    main()
