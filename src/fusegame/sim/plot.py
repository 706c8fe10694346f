"""Charts of a grid of batches: win rate by difficulty, and the score distributions.

Matplotlib is imported only when a chart is drawn (it is slow to import), and only its
object-oriented API is used with the Agg canvas, so drawing needs no display and touches no
global pyplot state.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from fusegame.sim.grid import CellResult, format_pace

#: Above this many cells the scores are drawn as box plots rather than overlaid histograms.
MAX_HISTOGRAMS = 6


PLOT_EXTRA = "charts need matplotlib, which the base install leaves out: pip install 'fusegame[plot]'"


def require_matplotlib() -> None:
    """``ValueError`` with the command that installs it when matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise ValueError(PLOT_EXTRA) from None


def check_plot_path(path: str | Path) -> None:
    """Refuse, before any games are played, a chart file that could not be written: matplotlib
    missing, a missing folder or a format matplotlib does not draw (``ValueError``)."""
    require_matplotlib()
    from matplotlib.backend_bases import FigureCanvasBase

    target = Path(path)
    if not target.parent.is_dir():
        raise ValueError(f"cannot write {str(target)!r}: no folder {str(target.parent)!r}")
    formats = FigureCanvasBase.get_supported_filetypes()
    suffix = target.suffix.lstrip(".").lower()
    if suffix not in formats:
        raise ValueError(f"cannot draw {str(target)!r}: the file name should end in one of "
                         f"{', '.join('.' + f for f in sorted(formats))}")


def plot_grid(results: Sequence[CellResult], path: str | Path, title: str = "") -> None:
    """Draw ``results`` to ``path`` (the format follows the extension: ``.png``, ``.svg``, ``.pdf``).

    Left: the win rate (with its Wilson 95% interval) against difficulty, one line per player
    count (and per pace when there are several). Right: a histogram of the scores of each cell
    (a box plot per cell when there are more than ``MAX_HISTOGRAMS``).
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    if not results:
        raise ValueError("nothing to plot")
    several_paces = len({r.cell.pace for r in results}) > 1
    columns = sorted({r.cell.column for r in results})
    names = {r.cell.column: r.cell.difficulty for r in results}
    x_of = {c: i for i, c in enumerate(columns)}

    fig = Figure(figsize=(12, 4.8), layout="constrained")
    FigureCanvasAgg(fig)
    rate_ax, score_ax = fig.subplots(1, 2)

    series: dict[str, list[CellResult]] = {}
    for r in results:
        key = f"{r.cell.players} player{'s' if r.cell.players > 1 else ''}"
        if several_paces:
            key += f", pace {format_pace(r.cell.pace)}"
        series.setdefault(key, []).append(r)
    for k, (key, rows) in enumerate(series.items()):
        rows = sorted(rows, key=lambda r: r.cell.column)
        dodge = (k - (len(series) - 1) / 2) * min(0.06, 0.4 / len(series))  # keep error bars apart
        xs = [x_of[r.cell.column] + dodge for r in rows]
        ys = [100 * r.stats.win_rate for r in rows]
        below = [y - 100 * r.stats.win_rate_ci[0] for y, r in zip(ys, rows)]
        above = [100 * r.stats.win_rate_ci[1] - y for y, r in zip(ys, rows)]
        rate_ax.errorbar(xs, ys, yerr=[below, above], marker="o", capsize=4, label=key)
    rate_ax.set_xticks(range(len(columns)), [names[c] for c in columns])
    rate_ax.set_xlim(-0.5, len(columns) - 0.5)
    rate_ax.set_ylim(-2, 102)
    rate_ax.set_xlabel("difficulty")
    rate_ax.set_ylabel("win rate (%), 95% interval")
    rate_ax.set_title("win rate by difficulty", fontsize="medium")
    rate_ax.grid(True, alpha=0.3)
    rate_ax.legend(fontsize="small")

    scores = [list(r.stats.scores) for r in results]
    labels = [r.cell.label() for r in results]
    if len(results) <= MAX_HISTOGRAMS:
        low = min(min(v, default=0) for v in scores)
        high = max(max(v, default=0) for v in scores)
        width = max(1, -(-(high - low + 1) // 25))  # about 25 bars of whole points
        bins = list(range(low, high + width + 1, width))
        for values, label in zip(scores, labels):
            score_ax.hist(values, bins=bins, histtype="step", linewidth=1.5, label=label)
        score_ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        score_ax.set_xlabel("score")
        score_ax.set_ylabel("games")
        score_ax.legend(fontsize="small")
    else:
        # overlaid histograms of many cells are unreadable: one box (quartiles, 5-95%) per cell
        score_ax.boxplot(scores, whis=(5, 95), showfliers=False)
        score_ax.set_xticks(range(1, len(labels) + 1), labels, rotation=90, fontsize="small")
        score_ax.set_ylabel("score")
    score_ax.set_title("score distribution", fontsize="medium")
    score_ax.grid(True, alpha=0.3)
    if title:
        fig.suptitle(title)
    fig.savefig(path, dpi=100)


def describe(policy: str, games: int, game: str) -> str:
    """A chart title: ``team policy, fuse, 200 games per cell``."""
    return f"{policy} policy, {game}, {games} game{'s' if games != 1 else ''} per cell"
