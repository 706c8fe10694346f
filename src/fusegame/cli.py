"""The ``fuse`` command: cards, simulation, hints, records.

    fuse cards [--set fuse] [--json] [--cards FILE]
    fuse cards validate FILE
    fuse cards render F12 [--out card.svg]      /  fuse cards page [--set fuse] [--out cards.html]
    fuse cards analyze [--set countdown] [--json] [--plot cards.png] [--check]
    fuse sim --players 4 --difficulty standard --games 200 --seed 1 --policy team [--json]
    fuse hint position.yaml [--json]
    fuse new --players 4 --seed 1 --out game.json [--play]
    fuse replay game.json [--board]
    fuse review LOG_ID|game.json [--json] [--lang es]
    fuse play [--game countdown] [--players 3] [--difficulty training] [--join URL]
    fuse serve [--host 127.0.0.1] [--port 8000] [--db URL] [--allow-origin URL] [--no-rate-limits]

Every expected problem (a bad option, an unreadable file) is reported as one line on stderr with
exit code 2; no traceback.
"""

from __future__ import annotations

import json
import os
import platform
import socket
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn, TypeVar

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text
from typer.core import TyperGroup

from fusegame import __version__, engine_kind
from fusegame.bots.analysis import AnalysisReport, analyse, cards_to_analyse, plot, set_dice
from fusegame.bots.hints import hint, nobody_acts
from fusegame.cards.catalogue import SETS, CardDataError, Catalogue, builtin_catalogue, load_catalogue
from fusegame.observe import clock, game_title, render_text
from fusegame.record import GameRecord, RecordError, replay
from fusegame.rules.actions import Action, ActionParseError, RerollUnused, Tick
from fusegame.rules.config import ConfigError, Game, GameConfig
from fusegame.rules.games import GAMES, MODULES, players_text
from fusegame.rules.state import GameState, IllegalAction
from fusegame.sim import Pace, get_policy, play_game
from fusegame.sim.grid import CellResult, format_pace, grid, parse_difficulties, parse_paces, parse_players
from fusegame.sim.parallel import BatchRunner, default_workers
from fusegame.sim.policies import POLICY_FACTORIES

#: Problems that mean "the user asked for something that cannot be done": one line, exit 2.
USER_ERRORS: tuple[type[Exception], ...] = (ConfigError, CardDataError, RecordError, ActionParseError,
                                            IllegalAction, ValueError, OSError)

# Typer vendors click in recent versions and uses click itself in older ones: find its
# ClickException class through a public Typer exception instead of importing either.
_CLICK_EXCEPTION: type[Exception] = next(
    k for k in typer.BadParameter.__mro__ if k.__name__ == "ClickException")


def _fail(message: str, code: int = 2) -> NoReturn:
    """Print one line on stderr and exit."""
    line = " ".join(str(message).split())
    typer.echo(f"fuse: error: {line}", err=True)
    raise typer.Exit(code)


class _OneLineErrors(TyperGroup):
    """Usage errors (unknown option, bad value) as one line on stderr with exit code 2."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             windows_expand_args: bool = True, **extra: Any) -> Any:
        try:
            rv = super().main(args=args, prog_name=prog_name, complete_var=complete_var,
                              standalone_mode=False, windows_expand_args=windows_expand_args, **extra)
        except _CLICK_EXCEPTION as e:
            if type(e).__name__ == "NoArgsIsHelpError":  # `fuse` alone: show the help
                e.show()  # type: ignore[attr-defined]
                code = 0
            else:
                msg = e.format_message()  # type: ignore[attr-defined]
                typer.echo(f"fuse: error: {' '.join(str(msg).split())}", err=True)
                code = int(getattr(e, "exit_code", 2))
            if not standalone_mode:
                raise
            sys.exit(code)
        except (typer.Abort, KeyboardInterrupt):
            if not standalone_mode:
                raise
            typer.echo("fuse: aborted", err=True)
            sys.exit(1)
        if not standalone_mode:
            return rv
        sys.exit(rv if isinstance(rv, int) else 0)


app = typer.Typer(cls=_OneLineErrors, add_completion=False, no_args_is_help=True,
                  pretty_exceptions_enable=False,
                  help="FUSE, the real-time cooperative dice game: play it in the browser (fuse serve) "
                       "or the terminal (fuse play), cards, simulations with bots, hints, game records.")
cards_app = typer.Typer(add_completion=False, pretty_exceptions_enable=False,
                        help="List the card catalogue, validate a catalogue file, draw cards as "
                             "SVG, or measure how hard each card is.")
app.add_typer(cards_app, name="cards")


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"fuse {__version__} ({engine_kind()} engine, Python {platform.python_version()})")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[bool, typer.Option("--version", callback=_show_version, is_eager=True,
                                          help="Show the version and which engine runs (compiled or "
                                               "python), then exit.")] = False,
) -> None:
    del version  # handled by its callback

CardsOpt = Annotated[Path | None, typer.Option("--cards", help="Card catalogue file (TOML) to use "
                                                                "instead of the built-in cards.")]


def _catalogue(path: Path | None) -> Catalogue:
    return load_catalogue(path) if path is not None else builtin_catalogue()


def _guard(fn: Callable[[], None]) -> None:
    """Run ``fn``; expected errors become one line on stderr and exit code 2."""
    try:
        fn()
    except typer.Exit:
        raise
    except BrokenPipeError:  # e.g. `fuse replay game.json | head`: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        raise typer.Exit(0) from None
    except USER_ERRORS as e:
        _fail(str(e))


# ====================================================================== cards
def card_rows(catalogue: Catalogue, card_set: str | None) -> list[dict[str, Any]]:
    """The catalogue as plain rows: bombs, sparks, fuse cards, then roles.

    Every row has the same keys. ``kind`` is ``bomb``, ``spark``, ``fuse`` or ``role``; ``points`` is
    null for everything but bombs (sparks have no points); a role's ``notation`` is its ability and
    its ``text`` the paraphrased rule; a fuse card's ``notation`` is its symbols (or its text).
    """
    rows: list[dict[str, Any]] = []
    for b in (*catalogue.bombs, *catalogue.sparks):
        if card_set is None or b.set == card_set:
            rows.append({"id": b.id, "set": b.set, "kind": b.kind,
                         "points": b.points if b.kind == "bomb" else None,
                         "notation": b.notation, "slots": b.shape.size, "layout": b.shape.layout.value,
                         "name": b.name, "source": b.source, "text": None})
    for f in catalogue.fuses:
        if card_set is None or f.set == card_set:
            rows.append({"id": f.id, "set": f.set, "kind": "fuse", "points": None, "notation": f.symbol,
                         "slots": None, "layout": None, "name": f.text, "source": None,
                         "text": f.text or None})
    for r in catalogue.roles:
        if card_set is None or r.set == card_set:
            rows.append({"id": r.id, "set": r.set, "kind": "role", "points": None,
                         "notation": r.ability.value, "slots": None, "layout": None, "name": r.name,
                         "source": None, "text": r.text or None})
    return rows


def _counts(counts: Sequence[tuple[int, str]], always: int = 2) -> list[str]:
    """``"N kind"`` phrases: the first ``always`` every time, the rest only when nonzero."""
    return [f"{n} {kind}" for i, (n, kind) in enumerate(counts) if i < always or n]


@cards_app.callback(invoke_without_command=True)
def cards(
    ctx: typer.Context,
    card_set: Annotated[str, typer.Option("--set", help=f"Card set: {', '.join(SETS)} or all.")] = "fuse",
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list instead of a table.")] = False,
    cards_file: CardsOpt = None,
) -> None:
    """List the cards of a set: bomb and fuse cards, and Countdown's spark and role cards."""
    if ctx.invoked_subcommand is not None:
        return

    def run() -> None:
        if card_set not in (*SETS, "all"):
            raise ValueError(f"unknown card set {card_set!r} (choose from {', '.join(SETS)}, all)")
        rows = card_rows(_catalogue(cards_file), None if card_set == "all" else card_set)
        if as_json:
            typer.echo(json.dumps(rows, indent=1))
            return
        kinds = [(sum(r["kind"] == k for r in rows), k) for k in ("bomb", "fuse", "spark", "role")]
        table = Table(title=f"{card_set} cards ({', '.join(_counts(kinds))})")
        for col in ("id", "set", "kind", "points", "notation", "name"):
            table.add_column(col, justify="right" if col == "points" else "left")
        for r in rows:
            name = r["name"] if r["name"] != r["notation"] else ""  # a text fuse card: say it once
            cells = (r["id"], r["set"], r["kind"], "" if r["points"] is None else str(r["points"]),
                     r["notation"], name or "")
            table.add_row(*(Text(c) for c in cells))  # plain text: "[5]" is not Rich markup
        Console().print(table)

    _guard(run)


@cards_app.command("validate")
def cards_validate(file: Annotated[Path, typer.Argument(help="Catalogue file (TOML) to check.")]) -> None:
    """Check a catalogue file: prints what it holds, or the error.

    "OK: N bomb cards, M fuse cards" (plus spark and role cards when there are any), or the error
    with exit code 2."""
    def run() -> None:
        cat = load_catalogue(file)
        kinds = [(len(cat.bombs), "bomb cards"), (len(cat.fuses), "fuse cards"),
                 (len(cat.sparks), "spark cards"), (len(cat.roles), "role cards")]
        typer.echo(f"OK: {', '.join(_counts(kinds))}")

    _guard(run)


@cards_app.command("render")
def cards_render(
    card_id: Annotated[str | None, typer.Argument(help="Card id (F12, S03, FZ1, CR2...).")] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Write the SVG to this file (with --all: "
                                                           "a directory, one ID.svg per card).")] = None,
    all_cards: Annotated[bool, typer.Option("--all", help="Draw every card into --out DIR.")] = False,
    cards_file: CardsOpt = None,
) -> None:
    """Draw a card as SVG (stdout, or --out FILE), or every card with --all --out DIR."""
    from fusegame.web.svg import any_card_svg

    def run() -> None:
        cat = _catalogue(cards_file)
        if all_cards:
            if card_id is not None or out is None:
                raise ValueError("--all draws every card into --out DIR (give no card id)")
            out.mkdir(parents=True, exist_ok=True)
            ids = [c.id for c in cat.bombs + cat.sparks] + [c.id for c in cat.fuses] + [
                c.id for c in cat.roles]
            for cid in ids:
                (out / f"{cid}.svg").write_text(any_card_svg(cat, cid) + "\n", encoding="utf-8")
            typer.echo(f"{len(ids)} cards drawn in {out}")
            return
        if card_id is None:
            raise ValueError("which card? give a card id (e.g. F12), or --all --out DIR")
        _emit(any_card_svg(cat, card_id) + "\n", out)

    _guard(run)


def _emit(text: str, out: Path | None) -> None:
    """Write ``text`` to ``out``, or to stdout when no file is given."""
    if out is None:
        typer.echo(text, nl=False)
    else:
        out.write_text(text, encoding="utf-8")


@cards_app.command("page")
def cards_page(
    card_set: Annotated[str, typer.Option("--set", help=f"Card set: {', '.join(SETS)} or all.")] = "all",
    out: Annotated[Path | None, typer.Option("--out", help="Write the page to this file.")] = None,
    cards_file: CardsOpt = None,
) -> None:
    """Write the printable catalogue page (HTML, every card drawn) to stdout or --out FILE."""
    from fusegame.web.svg import catalogue_page

    def run() -> None:
        _emit(catalogue_page(_catalogue(cards_file), None if card_set == "all" else card_set), out)

    _guard(run)


@cards_app.command("analyze")
def cards_analyze(
    card_set: Annotated[str, typer.Option("--set", help="Whose cards and dice: fuse or countdown.")] = "fuse",
    cards_file: Annotated[Path | None, typer.Option(
        "--cards", help="Catalogue file (TOML): analyse all its bomb and spark cards with the --set "
                        "dice instead of the built-in cards of the set.")] = None,
    trials: Annotated[int, typer.Option("--trials", help="Simulated fillings per card.")] = 200,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed (same seed, same numbers).")] = 0,
    dice_per_roll: Annotated[int, typer.Option("--dice-per-roll", help="Dice drawn from the bag per "
                                                                       "roll (solo: 3).")] = 3,
    within: Annotated[list[int] | None, typer.Option(
        "--within", help="Report the chance of completing a card within N rolls, i.e. by the end of "
                         "the N-th roll offered to it (repeatable; default 4 and 8).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the rows as a JSON list.")] = False,
    plot_file: Annotated[Path | None, typer.Option("--plot", help="Write a PNG of mean rolls by "
                                                                   "points. Needs pip install "
                                                                   "fusegame\\[plot].")] = None,
    check: Annotated[bool, typer.Option("--check", help="Exit 1 when the means per points value do "
                                                        "not strictly rise with points.")] = False,
) -> None:
    """Measure how hard each bomb (and spark) card is, with the team planner's card model.

    Expected dice, the rolls a solo player needs to complete it alone, and whether points rise
    with difficulty."""
    def run() -> None:
        budgets = tuple(within) if within else (4, 8)
        dice = set_dice(card_set)
        if trials < 1:
            raise ValueError("--trials must be at least 1")
        if not 1 <= dice_per_roll <= len(dice):
            raise ValueError(f"--dice-per-roll must be from 1 to {len(dice)} (the dice in the bag)")
        if any(n < 1 for n in budgets):
            raise ValueError("--within must be at least 1 roll")
        if plot_file is not None:
            from fusegame.sim.plot import require_matplotlib
            require_matplotlib()
        if plot_file is not None and not plot_file.absolute().parent.is_dir():
            raise ValueError(f"cannot write the plot {plot_file}: no directory {plot_file.parent}")
        cards, origin = cards_to_analyse(card_set, None if cards_file is None else str(cards_file))
        err = Console(stderr=True)
        if err.is_terminal:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
            with Progress(TextColumn("analysing cards"), BarColumn(), MofNCompleteColumn(),
                          TimeRemainingColumn(), console=err, transient=True) as bar:
                task = bar.add_task("analyze", total=len(cards))
                report = analyse(cards, card_set, trials, seed, dice_per_roll, budgets,
                                 progress=lambda done, total: bar.update(task, completed=done))
        else:
            report = analyse(cards, card_set, trials, seed, dice_per_roll, budgets)
        if plot_file is not None:
            plot(report, str(plot_file))
        if as_json:
            typer.echo(json.dumps(report.rows(), indent=1))
        else:
            # a wide table even when the output is not a terminal (rich would fall back to 80 columns)
            out = Console(width=None if sys.stdout.isatty() else 160, highlight=False)
            for part in analysis_text(report, origin, plot_file):
                out.print(part)
        if check and not report.rising():
            raise typer.Exit(1)

    _guard(run)


def analysis_text(report: AnalysisReport, origin: str, plot_file: Path | None = None) -> list[Any]:
    """The ``cards analyze`` output: the card table, the table per points value and the summary."""
    rows = report.rows()
    budgets = report.within
    table = Table(title=f"Card analysis: {report.card_set} dice, {len(rows)} cards from {origin}; "
                        f"{report.dice_per_roll} dice per roll, {report.trials} trials per card, "
                        f"seed {report.seed}")
    for col in ("id", "pts", "source", "name", "notation", "slots", "layout", "exp. dice", "mean rolls",
                "sd", *(f"P(<={n})" for n in budgets), "like"):
        table.add_column(col, justify="left" if col in ("id", "source", "name", "notation", "layout")
                         else "right")
    for r in rows:
        dice = f"{'~' if r['estimated'] else ''}{r['expected_dice']:.1f}"
        cells = (r["id"], "spark" if r["points"] is None else str(r["points"]), r["source"], r["name"],
                 r["notation"], str(r["slots"]), r["layout"], dice, f"{r['mean_rolls']:.2f}",
                 f"{r['sd_rolls']:.2f}", *(f"{r[f'p_within_{n}']:.2f}" for n in budgets),
                 "" if r["measures_like"] is None else str(r["measures_like"]))
        table.add_row(*(Text(c) for c in cells))
    levels = Table(title="Mean rolls per points value")
    for col in ("points", "cards", "mean rolls", "min", "max", "mean exp. dice"):
        levels.add_column(col, justify="right")
    for lv in report.levels():
        levels.add_row(lv.label, str(lv.cards), f"{lv.mean_rolls:.2f}", f"{lv.min_rolls:.2f}",
                       f"{lv.max_rolls:.2f}", f"{lv.mean_dice:.2f}")
    out: list[Any] = [table, "~: expected dice estimated by roll-outs (the card is too large to solve "
                             "exactly)", levels]
    rho, rho_dice = report.correlation(), report.correlation("expected_dice")
    n = len(report.bombs)
    out.append("Spearman (points vs mean rolls, bombs): "
               + ("n/a (fewer than 2 bombs)" if rho is None else f"{rho:.3f}  (n = {n})"))
    if rho_dice is not None:
        out.append(f"Spearman (points vs expected dice, bombs): {rho_dice:.3f}  (n = {n})")
    means = list(report.means().items())
    chain = f"{means[0][0]}: {means[0][1]:.2f}" if means else "no bombs"
    for (_, a), (p, b) in zip(means, means[1:]):
        chain += f" {'<' if a < b else '>='} {p}: {b:.2f}"
    out.append(f'Check "points rise with difficulty": {"PASS" if report.rising() else "FAIL"}  ({chain})')
    band = report.out_of_band()
    out.append(f"Out of band ({len(band)} of {n} bombs): nearer another points value's mean than their own"
               + (":" if band else ""))
    for o in band:
        c = o.card
        out.append(Text(f"  {c.card.id} ({c.card.source}) {c.card.points} pt, {c.mean_rolls:.2f} rolls "
                        f"(mean {o.own_mean:.2f}) measures like {o.like} pt (mean {o.like_mean:.2f}): "
                        f"{c.card.notation}"))
    if plot_file is not None:
        out.append(f"Plot written to {plot_file}")
    return out


# ====================================================================== games
def make_config(players: int, difficulty: str, setup: str, six_point_cards: bool, strict_fuse: bool,
                untimed: bool, cards_file: Path | None, game: str = "fuse",
                modules: Sequence[str] = (), fuse_cards: int | None = None) -> GameConfig:
    """The ``GameConfig`` of the ``sim`` and ``new`` options (a bad combination raises the
    ``ConfigError`` that names it)."""
    cards = load_catalogue(cards_file) if cards_file is not None else None
    mods = tuple(m for arg in modules for m in arg.replace(",", " ").split())
    return GameConfig(players=players, difficulty=difficulty,  # type: ignore[arg-type]
                      setup=setup,  # type: ignore[arg-type]
                      six_point_cards=six_point_cards, feasibility=not strict_fuse,
                      time_limit=None if untimed else 600, cards=cards,
                      game=game, modules=mods, fuse_cards=fuse_cards)  # type: ignore[arg-type]


Players = Annotated[int | None, typer.Option(
    "--players", "-p", help=f"Number of players ({players_text()}); default 4 (epic 6).")]
DifficultyOpt = Annotated[str, typer.Option("--difficulty", "-d",
                                            help="training, standard, expert, elite or insane "
                                                 "(heroic: the same level in Countdown games).")]
GameOpt = Annotated[str, typer.Option("--game", help=" | ".join(
    f"{g.value}: {spec.title}, {spec.players[0]}-{spec.players[1]} players" for g, spec in GAMES.items()))]
ModulesOpt = Annotated[list[str] | None, typer.Option(
    "--modules", "-m", help="Countdown modules for a FUSE game, comma-separated or repeated: " + ", ".join(
        f"{m.value} ({spec.title})" for m, spec in MODULES.items()) + ".")]
FuseCardsOpt = Annotated[int | None, typer.Option(
    "--fuse-cards", help="Fuse cards shuffled into the deck (default: FUSE 6; Countdown-style games "
                         "none at training and standard, 6 from expert up).")]
SetupOpt = Annotated[str, typer.Option("--setup", help="standard, single-deck or stacks.")]
SixOpt = Annotated[bool, typer.Option("--six-point-cards", help="Put the 6-point cards in the deck.")]
StrictOpt = Annotated[bool, typer.Option("--strict-fuse", help="Allow placements that leave a card "
                                                               "impossible (no feasibility rule).")]
UntimedOpt = Annotated[bool, typer.Option("--untimed", help="No time limit (unofficial score).")]
PolicyOpt = Annotated[str, typer.Option(
    "--policy", help=f"Policy: {', '.join(POLICY_FACTORIES)}: team is the team planner; play the "
                     "planner as the bots and hints play (the smallest card first, the cards "
                     "that can still win finished first, the next roll looked at); "
                     "search the same planner given the analysis budget (more next rolls and "
                     "plans looked at, bigger cards solved exactly; up to about a second a "
                     "roll); team:NAME=VALUE,..., play:NAME=VALUE,... or search:NAME=VALUE,... "
                     "change the planner's weights.")]


def _players(players: int | None, game: str) -> int:
    """The --players value, or the game's default (4; 6 for an epic game)."""
    if players is not None:
        return players
    try:
        return GAMES[Game(game)].default_players
    except ValueError:
        return 4  # an unknown game: GameConfig names the problem


_T = TypeVar("_T")

SimPlayers = Annotated[list[str] | None, typer.Option(
    "--players", "-p", help="Players: a number, a list (2,4), a range (1-5) or all, comma-separated or "
                            f"repeated; one batch each. {players_text()}; default 4 (epic 6).")]
SimDifficulty = Annotated[list[str] | None, typer.Option(
    "--difficulty", "-d", help="training, standard, expert, elite or insane (heroic: the same level in "
                               "Countdown games); a list, a range (training-elite) or all for one batch "
                               "each. Default standard.")]


def _sim_grid_option(what: str, parse: Callable[[], list[_T]]) -> list[_T]:
    """Parse a grid option; its errors name the option."""
    try:
        return parse()
    except ValueError as e:
        raise ValueError(f"{what}: {e}") from None


def _sim_paces(specs: list[str] | None, turn_seconds: float | None, die_seconds: float | None) -> list[Pace]:
    """The paces of --pace, or of the older --turn-seconds/--die-seconds pair (default 12+1)."""
    if turn_seconds is None and die_seconds is None:
        return _sim_grid_option("--pace", lambda: parse_paces(specs or ["12+1"]))
    if specs:
        raise ValueError("use either --pace or --turn-seconds/--die-seconds, not both")
    default = Pace()
    return [Pace(default.turn_seconds if turn_seconds is None else turn_seconds,
                 default.die_seconds if die_seconds is None else die_seconds)]


def _ci(lo_hi: Sequence[float], scale: float = 1.0, digits: int = 1) -> str:
    lo, hi = lo_hi
    return f"{scale * lo:.{digits}f}-{scale * hi:.{digits}f}"


def sim_cell_lines(result: CellResult, policy: str, workers: int) -> list[str]:
    """The text report of a one-cell batch."""
    s = result.stats
    reasons = ", ".join(f"{k} {v}" for k, v in s.losses_by_reason.items())
    return [
        f"policy:           {policy}, pace {format_pace(result.cell.pace)}, "
        f"{workers} worker{'s' if workers > 1 else ''}",
        f"games:            {s.games}",
        f"wins:             {s.wins} ({100 * s.win_rate:.1f}%; 95% CI {_ci(s.win_rate_ci, 100)}%)",
        f"losses:           {s.losses}" + (f" ({reasons})" if reasons else ""),
        f"mean score:       {s.mean_score:.2f} (95% CI {_ci(s.mean_score_ci, digits=2)}; "
        f"sd {s.score_sd:.2f})",
        f"mean turns:       {s.mean_turns:.2f}",
        f"games per second: {s.games_per_second:.1f} ({engine_kind()} engine)",
    ]


def sim_table(results: Sequence[CellResult], title: str) -> Table:
    """The text report of a grid: one row per cell."""
    from rich import box

    # compact, so that a grid fits 80 columns (the width of a pipe)
    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    for col in ("players", "difficulty", "pace", "games", "win %", "95% CI", "score", "95% CI", "turns"):
        table.add_column(col, justify="left" if col in ("difficulty", "pace") else "right", no_wrap=True)
    for r in results:
        s = r.stats
        table.add_row(str(r.cell.players), r.cell.difficulty, format_pace(r.cell.pace), str(s.games),
                      f"{100 * s.win_rate:.1f}", _ci(s.win_rate_ci, 100),
                      f"{s.mean_score:.1f}", _ci(s.mean_score_ci), f"{s.mean_turns:.1f}")
    return table


@app.command()
def sim(
    players: SimPlayers = None,
    difficulty: SimDifficulty = None,
    games: Annotated[int, typer.Option("--games", "-g", help="Number of games (per cell of a grid).")] = 100,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Batch seed (same seed, same results; every "
                                                           "cell of a grid plays the same deals).")] = 0,
    policy: PolicyOpt = "random",
    as_json: Annotated[bool, typer.Option("--json", help="Print the statistics as JSON: an object, or a "
                                                         "list of them for a grid.")] = False,
    cards_file: CardsOpt = None,
    setup: SetupOpt = "standard",
    six_point_cards: SixOpt = False,
    strict_fuse: StrictOpt = False,
    untimed: UntimedOpt = False,
    pace: Annotated[list[str] | None, typer.Option(
        "--pace", metavar="SPEC", help="Pace model TURN[+PERDIE]: a turn takes TURN seconds plus PERDIE "
                                       "per die rolled (default 12+1; 20 means 20+0). Several, "
                                       "comma-separated or repeated: one batch each.")] = None,
    turn_seconds: Annotated[float | None, typer.Option(
        help="Pace model: seconds per turn (the TURN of --pace).")] = None,
    die_seconds: Annotated[float | None, typer.Option(
        help="Pace model: extra seconds per die rolled (the PERDIE of --pace).")] = None,
    game: GameOpt = "fuse",
    modules: ModulesOpt = None,
    fuse_cards: FuseCardsOpt = None,
    workers: Annotated[int | None, typer.Option(
        "--workers", "-w", help="Processes to play on (default: one per CPU, fewer for small batches). "
                                "The results do not depend on it.")] = None,
    ray: Annotated[str | None, typer.Option(
        "--ray", metavar="ADDRESS", help="Play the games as Ray tasks: 'local' starts a local Ray instance, "
                                         "anything else is a cluster address. Needs "
                                         "pip install fusegame\\[cluster].")] = None,
    plot_file: Annotated[Path | None, typer.Option(
        "--plot", metavar="FILE.png", help="Also draw the win rate by difficulty and the score "
                                           "distributions to FILE. Needs pip install "
                                           "fusegame\\[plot].")] = None,
) -> None:
    """Simulate batches of games with bots, for one configuration or a grid of them.

    Prints games, wins and losses, the win rate and mean score (95% intervals), turns, games a second."""
    def run() -> None:
        if games < 1:
            raise ValueError("--games must be at least 1")
        if workers is not None and workers < 1:
            raise ValueError("--workers must be at least 1")
        counts = _sim_grid_option("--players", lambda: parse_players(
            players or [str(_players(None, game))], game))
        levels = _sim_grid_option("--difficulty", lambda: parse_difficulties(difficulty or ["standard"]))
        paces = _sim_paces(pace, turn_seconds, die_seconds)
        get_policy(policy)  # an unknown name fails before any work
        if plot_file is not None:
            from fusegame.sim.plot import check_plot_path
            check_plot_path(plot_file)
        first = make_config(counts[0], levels[0], setup, six_point_cards, strict_fuse, untimed, cards_file,
                            game, modules or (), fuse_cards)
        configs = [first.with_(players=p, difficulty=d) for p in counts for d in levels]
        cells = grid(configs, paces)
        total = games * len(cells)
        n_workers = workers if workers is not None or ray is not None else default_workers(policy, total)
        results: list[CellResult] = []
        err = Console(stderr=True)
        with BatchRunner(policy, n_workers, ray) as runner:
            if err.is_terminal and total >= 20:
                from rich import progress as rp
                with rp.Progress(rp.TextColumn("{task.description}"), rp.BarColumn(),
                                 rp.MofNCompleteColumn(), rp.TimeRemainingColumn(), console=err,
                                 transient=True) as bar:
                    task = bar.add_task("simulating", total=total)
                    for i, cell in enumerate(cells):
                        if len(cells) > 1:
                            bar.update(task, description=f"simulating {cell.label()}")

                        def advance(done: int, _: int, base: int = i * games) -> None:
                            bar.update(task, completed=base + done)

                        results.append(CellResult(cell, runner.run(cell.config, games, seed, cell.pace,
                                                                   advance)))
            else:
                results = [CellResult(c, runner.run(c.config, games, seed, c.pace)) for c in cells]
            used = 1 if runner.backend == "inline" else min(runner.workers, games)
            backend = runner.backend
        if plot_file is not None:
            from fusegame.sim.plot import describe, plot_grid
            plot_grid(results, plot_file, describe(policy, games, first.game.value))
        if as_json:
            rows = [{**r.to_dict(), "policy": policy, "seed": seed, "workers": used, "backend": backend,
                     "engine": engine_kind()} for r in results]
            typer.echo(json.dumps(rows[0] if len(rows) == 1 else rows))
        elif len(results) == 1:
            for line in sim_cell_lines(results[0], policy, used):
                typer.echo(line)
        else:
            title = (f"{policy} policy, {first.game.value}, {games} games per cell, "
                     f"{used} worker{'s' if used > 1 else ''}")
            Console().print(sim_table(results, title))

    _guard(run)


@app.command()
def new(
    out: Annotated[Path, typer.Option("--out", "-o", help="Where to write the game record (JSON).")],
    players: Players = None,
    difficulty: DifficultyOpt = "standard",
    seed: Annotated[int, typer.Option("--seed", "-s", help="Game seed.")] = 0,
    cards_file: CardsOpt = None,
    setup: SetupOpt = "standard",
    six_point_cards: SixOpt = False,
    strict_fuse: StrictOpt = False,
    untimed: UntimedOpt = False,
    play: Annotated[bool, typer.Option("--play", help="Play the game out (simulated pace) with "
                                                      "--policy and record every action.")] = False,
    policy: PolicyOpt = "random",
    game: GameOpt = "fuse",
    modules: ModulesOpt = None,
    fuse_cards: FuseCardsOpt = None,
) -> None:
    """Start a game and write its record (config + seed; with --play, a whole simulated game)."""
    def run() -> None:
        chosen = get_policy(policy)  # an unknown name fails before any work
        if policy != "random" and not play:
            raise ValueError("--policy chooses who plays the game out: add --play")
        config = make_config(_players(players, game), difficulty, setup, six_point_cards, strict_fuse,
                             untimed, cards_file, game, modules or (), fuse_cards)
        if play:
            record = play_game(config, seed, chosen, record=True).record
            assert record is not None
        else:
            record = GameRecord(config, seed)
            record.initial_state()  # check that the game can be set up
        record.save(out)
        o = record.outcome
        result = "" if o is None else (f", {'won' if o.won else 'lost'} ({o.reason.value}), "
                                       f"score {o.score.total}")
        typer.echo(f"wrote {out}: {config.describe()}, seed {seed}, {len(record.actions)} actions{result}")

    _guard(run)


# ====================================================================== hint
@app.command("hint")
def hint_cmd(
    scenario: Annotated[Path, typer.Argument(help="Scenario file (YAML or JSON, see docs/scenarios.md).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list of hints.")] = False,
) -> None:
    """Suggest each seat's move in a position, with the reason.

    One line per seat that may act: "p0: place d6 CHAIN s3 — Blue 5 on CHAIN: completes it, +2 points"."""
    def run() -> None:
        # only this command reads scenarios: the YAML loader stays out of the other commands
        from fusegame.scenario import load_scenario

        state = load_scenario(scenario)
        hints = hint(state)
        if not hints:
            raise ValueError(nobody_acts(state))
        if as_json:
            typer.echo(json.dumps([h.to_dict() for h in hints], indent=1))
            return
        for h in hints:
            typer.echo(h.line())

    _guard(run)


# ====================================================================== replay
def _who(action: Action) -> str:
    return "clock" if action.seat < 0 else f"P{action.seat + 1}"


def describe_turn_start(state: GameState, turn: int) -> str:
    if not state.rolled and state.to_act():  # a Cutter or Operations Engineer names before the roll
        return f"── Turn {turn} · P{state.leader + 1} leads and names before rolling"
    dice = " ".join(state.die_label(d) for d in state.rolled) or "no dice"
    return f"── Turn {turn} · P{state.leader + 1} rolls {dice}"


def replay_lines(record: GameRecord, board: bool = False) -> list[str]:
    """The game turn by turn, in words."""
    state = record.initial_state()
    cfg = record.config
    setup = f" · setup {cfg.setup.value}" if len(cfg.spec.setups) > 1 else ""
    lines = [f"{game_title(cfg)} · {cfg.players} players · {cfg.difficulty.value}{setup} · "
             f"seed {record.seed} · {len(record.actions)} actions"]
    if board:
        lines.append(render_text(state))
    lines.append(describe_turn_start(state, 1))
    shown = 1  # the turn whose heading has been printed
    for action, events, after in replay(record, start=state):
        stamp = f"[{clock(after.time_ms)}]"
        out: list[str] = []
        for ev in events:
            if ev.kind == "turn_ended":
                continue
            if ev.kind == "dice_rolled" and after.turn != shown:
                if board:
                    out.append(render_text(after))
                out.append(f"── Turn {after.turn} · {ev}")
                shown = after.turn
            else:
                out.append(f"  {stamp} {ev}")
        if not out:
            if isinstance(action, Tick):
                continue  # time passing is shown by the stamps
            out.append(f"  {stamp} {_who(action)}: {action}")
        elif isinstance(action, RerollUnused):
            # the label after the roll would show the new face: name the die by its colour
            colour = after.colours_of(action.die)
            out.insert(0, f"  {stamp} P{action.seat + 1} chooses to roll the unused {colour} die")
        if after.turn != shown and not after.is_over:  # the new leader names before rolling
            if board:
                out.append(render_text(after))
            out.append(describe_turn_start(after, after.turn))
            shown = after.turn
        lines += out
    lines += final_lines(state)
    return lines


def final_lines(state: GameState) -> list[str]:
    o = state.outcome
    if o is None:
        sparks = f", {len(state.sparks.defused)} sparks defused" if state.sparks is not None else ""
        return ["", f"The record ends in turn {state.turn} before the game is over "
                    f"(score so far {sum(state.bomb(c).points for c in state.score_pile)} bomb points"
                    f"{sparks})."]
    s = o.score
    left = "untimed" if o.time_left_ms is None else f"{clock(o.time_left_ms)} left"
    sparks_line = ([f"  spark cards   {s.spark_points:>4}  ({len(state.sparks.defused)} defused)"]
                   if state.sparks is not None else [])
    return [
        "",
        f"Result: {'WON' if o.won else 'LOST'} ({o.reason.value}), {left}" + ("" if o.official else
                                                                                " (unofficial)"),
        "Score:",
        f"  win bonus     {s.win_bonus:>4}",
        f"  time bonus    {s.time_bonus:>4}",
        f"  bomb cards    {s.bomb_points:>4}  ({len(state.score_pile)} defused)",
        f"  fuse cards    {s.fuse_points:>4}  ({len(state.fuses_activated)} gone off)",
        *sparks_line,
        f"  total         {s.total:>4}",
    ]


@app.command("replay")
def replay_cmd(
    file: Annotated[Path, typer.Argument(help="Game record (JSON) to replay.")],
    board: Annotated[bool, typer.Option("--board", help="Draw the table at every turn.")] = False,
    cards_file: CardsOpt = None,
) -> None:
    """Replay a game record turn by turn, with each action, its events and the final score."""
    def run() -> None:
        record = GameRecord.load(file)
        if cards_file is not None:  # a record made with a card file that is not embedded in it
            record.config = record.config.with_(cards=load_catalogue(cards_file))
        for line in replay_lines(record, board):
            typer.echo(line)
        typer.echo(f"\nReview this game: fuse review {file}")

    _guard(run)


@app.command("review")
def review_cmd(
    target: Annotated[str, typer.Argument(
        help="A game in the BDT Log (its number, as the log and the end screen show it) or a game "
             "record file (JSON).", metavar="LOG_ID|RECORD_FILE")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the review as JSON, for tools.")] = False,
    lang: Annotated[str | None, typer.Option("--lang", help="en or es (default: from the environment, "
                                                           "else en).")] = None,
    db: Annotated[str | None, typer.Option(
        help="Database URL of the BDT Log (default: the one `fuse serve` uses).")] = None,
    cards_file: CardsOpt = None,
) -> None:
    """Review a finished game: where its time and dice went, and its key moments.

    The key moments are the planner's judgement: an estimate, in its own measure of work (dice)."""
    def run() -> None:
        from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

        from fusegame.review import Reviewer
        from fusegame.terminal.texts import TEXTS, default_lang
        from fusegame.words.review import review_lines

        language = lang or default_lang()
        if language not in TEXTS:
            _fail(f"--lang must be one of {', '.join(TEXTS)}, not {language!r}")
        names: list[str] = []
        bots: list[int] = []
        if Path(target).is_file():
            record = GameRecord.load(target)
        elif target.isdigit():
            from fusegame.server.reviews import bot_seats
            from fusegame.server.storage import Storage, StorageError, default_url

            try:
                storage = Storage(db or default_url())
            except StorageError as e:
                _fail(str(e))
            try:
                entry = storage.get_game(int(target))
            finally:
                storage.close()
            if entry is None:
                _fail(f"no game {target} in the BDT Log ({db or default_url()})")
            if entry.table or entry.record is None:
                _fail(f"game {target} was played with the box at a real table: it has no moves to review")
            record = GameRecord.from_dict(entry.record, f"game {target}")
            names, bots = list(entry.names), bot_seats(entry)
        else:
            _fail(f"{target}: no such file, and not a game number of the BDT Log")
        if cards_file is not None:
            record.config = record.config.with_(cards=load_catalogue(cards_file))
        console = Console(stderr=True)
        with Progress(TextColumn("{task.description}"), BarColumn(), TimeRemainingColumn(),
                      console=console, transient=True, disable=not console.is_terminal) as bar:
            task = bar.add_task("review", total=max(1, len(record.actions)))
            review = Reviewer().review(record, bots, lambda done, total: bar.update(task, completed=done))
        if as_json:
            typer.echo(json.dumps({**review.to_dict(), "names": names}, indent=1, ensure_ascii=False))
            return
        for line in review_lines(language, review.to_dict(), names):
            typer.echo(line)

    _guard(run)


@app.command("play")
def play_cmd(
    ctx: typer.Context,
    join: Annotated[str | None, typer.Option(
        "--join", metavar="URL", help="Take a seat in a room of a running `fuse serve`: the room link "
                                      "the browser shows (http://HOST:PORT/#/room/CODE). The same link "
                                      "joined again from this machine takes the same seat back.")] = None,
    watch: Annotated[bool, typer.Option(
        "--watch", help="With --join: watch the room's game without a seat.")] = False,
    game: GameOpt = "fuse",
    players: Players = None,
    difficulty: DifficultyOpt = "standard",
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="Game seed (default: a new deal).")] = None,
    modules: ModulesOpt = None,
    fuse_cards: FuseCardsOpt = None,
    setup: SetupOpt = "standard",
    six_point_cards: SixOpt = False,
    strict_fuse: StrictOpt = False,
    untimed: UntimedOpt = False,
    cards_file: CardsOpt = None,
    bot_delay: Annotated[float | None, typer.Option(
        "--bot-delay", help="Seconds each bot takes per action, so how fast your teammates grab dice "
                            "(default 1.5, as in the browser's rooms; 3 in your first game).")] = None,
    no_hints: Annotated[bool, typer.Option(
        "--no-hints", help="Play without the planner's hints (h).")] = False,
    name: Annotated[str | None, typer.Option(
        "--name", help="Your name at the table (default: $USER).")] = None,
    lang: Annotated[str | None, typer.Option("--lang", help="en or es (default: from the environment, "
                                                           "else en).")] = None,
    db: Annotated[str | None, typer.Option(
        help="Database URL of the BDT Log where a finished game is kept (default: the one "
             "`fuse serve` uses).")] = None,
) -> None:
    """Play in the terminal: you hold seat 0, the team planner the others; or --join a room."""
    if sys.stderr.isatty():  # something at once, while the table is laid out
        typer.echo("fuse play: dealing the cards…" if join is None else "fuse play: joining the room…",
                   err=True)

    def run() -> None:
        from fusegame.server.options import MAX_BOT_DELAY_MS, RoomOptions
        from fusegame.server.storage import Storage, StorageError, default_url
        from fusegame.server.wire import join_name
        from fusegame.terminal.texts import TEXTS, default_lang

        language = lang or default_lang()
        if language not in TEXTS:
            _fail(f"--lang must be one of {', '.join(TEXTS)}, not {language!r}")
        who = join_name(name if name is not None else os.environ.get("USER") or "Player")
        if who is None:
            _fail("--name must be 1 to 24 characters")
        if watch and join is None:
            _fail("--watch needs --join URL: the room to watch")
        if join is not None:
            _join_room(ctx, join, who, language, watch)
            return
        delay = bot_delay
        if delay is not None and not 0 <= delay * 1000 <= MAX_BOT_DELAY_MS:
            _fail(f"--bot-delay must be from 0 to {MAX_BOT_DELAY_MS // 1000} seconds, not {delay}")
        if seed is not None and not 0 <= seed <= 2**63 - 1:
            _fail(f"--seed must be from 0 to 2^63-1, not {seed}")
        config = make_config(_players(players, game), difficulty, setup, six_point_cards, strict_fuse,
                             untimed, cards_file, game, modules or (), fuse_cards)
        try:
            storage = Storage(db or default_url())
        except StorageError as e:
            _fail(str(e))
        intro: tuple[str, dict[str, Any]] | None = None
        if delay is None:
            # a first game at this log: the bots give a newcomer time to read the roll
            first = _first_game(storage)
            delay = FIRST_GAME_BOT_DELAY if first else DEFAULT_BOT_DELAY
            if first:
                intro = ("first_game", {"s": f"{FIRST_GAME_BOT_DELAY:g}", "usual": f"{DEFAULT_BOT_DELAY:g}"})
        options = RoomOptions(config=config, hints=not no_hints, bot_delay_ms=round(delay * 1000), seed=seed)
        from fusegame.terminal.local import LocalLink

        try:
            _run_app(LocalLink(options, who, storage), language, intro)
        finally:
            storage.close()

    _guard(run)


#: The bots' pace in ``fuse play`` (seconds a bot takes per action): the browser rooms' default,
#: and a gentler one for the first game played at a BDT Log.
DEFAULT_BOT_DELAY = 1.5
FIRST_GAME_BOT_DELAY = 3.0
#: The options of ``fuse play`` that make a game: a room's game is the room's (``--join``).
_GAME_OPTIONS = ("game", "players", "difficulty", "seed", "modules", "fuse_cards", "setup", "six_point_cards",
                 "strict_fuse", "untimed", "cards_file", "bot_delay", "no_hints", "db")


def _first_game(storage: Any) -> bool:
    try:
        return int(storage.count_games()) == 0
    except Exception:  # a log that cannot be read says nothing about the player
        return False


def _join_room(ctx: typer.Context, url: str, who: str, language: str, watch: bool) -> None:
    """``fuse play --join URL``: the seat this machine holds in the room (taken back with the
    token kept in the data directory) or a new one, or a spectator's socket (``--watch``)."""
    for param in ctx.command.params:
        source = ctx.get_parameter_source(param.name) if param.name in _GAME_OPTIONS else None
        if source is not None and source.name in ("COMMANDLINE", "ENVIRONMENT"):
            flag = max(param.opts, key=len)
            _fail(f"{flag} makes a game of your own: with --join the room's game is played as the room "
                  f"was made")
    from fusegame.terminal.remote import JoinError, RemoteLink, SeatBook, parse_room_url, take_seat

    try:
        link = parse_room_url(url)
        if watch:
            _run_app(RemoteLink(link, None, None), language)
            return
        book = SeatBook()
        seat, token, _ = take_seat(link, who, book)
    except JoinError as e:
        _fail(str(e), 1)
    _run_app(RemoteLink(link, seat, token, book), language)


def _run_app(link: Any, lang: str, intro: tuple[str, dict[str, Any]] | None = None) -> None:
    from fusegame.terminal.app import FuseApp

    app_ = FuseApp(link, lang, intro=intro)
    app_.run()
    t = app_.table
    if t.outcome is not None:
        from fusegame.terminal.texts import exit_line

        typer.echo(exit_line(t.outcome, t.log_id, lang))
    elif t.error and not t.playing:
        _fail(t.error, 1)


@app.command("serve")
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: every network).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[str | None, typer.Option(
        help="Database URL for the BDT Log: sqlite:///path/fuse.db (the default is a file in "
             "~/.local/share/fusegame, or $FUSE_DATA_DIR) or postgresql://user@host/db.")] = None,
    allow_origin: Annotated[list[str] | None, typer.Option(
        metavar="URL", help="Another web page that may open the game's sockets, e.g. "
             "https://fuse.example.org (repeatable; the server's own pages always may).")] = None,
    no_rate_limits: Annotated[bool, typer.Option(
        "--no-rate-limits", help="Count no request rates (load tests from one address).")] = False,
    redis: Annotated[str | None, typer.Option(
        metavar="URL", help="redis://HOST:PORT/N: run as one of many server processes sharing this "
             "Redis and the database (--db), as one service behind any load balancer.")] = None,
    workers: Annotated[int, typer.Option(
        help="Server processes on this address and port (more than 1 needs --redis).")] = 1,
) -> None:
    """Start the browser game: open http://HOST:PORT/ and create a room."""
    def run() -> None:
        import uvicorn

        from fusegame.server.app import SETTINGS_ENV, UVICORN_OPTIONS, create_app
        from fusegame.server.guard import RATE_LIMITS, Origins
        from fusegame.server.storage import StorageError

        if not 1 <= port <= 65535:
            _fail(f"--port must be from 1 to 65535, not {port}")
        try:
            Origins(allow_origin or ())
        except ValueError as e:
            _fail(f"--allow-origin: {e}")
        if not 1 <= workers <= 64:
            _fail(f"--workers must be from 1 to 64, not {workers}")
        if workers > 1 and redis is None:
            _fail("--workers more than 1 needs --redis redis://HOST:PORT/N: the processes share it")
        if redis is not None:
            _check_redis(redis)
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
            try:
                probe.bind((host, port))
            except OSError as e:  # uvicorn would log a traceback-like error and exit
                _fail(f"cannot listen on {host}:{port}: {e.strerror or e} (try another --port)")
        settings = {"db": db, "rate_limits": not no_rate_limits, "origins": allow_origin or [],
                    "redis": redis}
        try:
            web = create_app(db, rate_limits=None if no_rate_limits else RATE_LIMITS,
                             allowed_origins=allow_origin or (), redis_url=redis)
        except StorageError as e:
            _fail(str(e))
        shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
        many = f", {workers} processes" if workers > 1 else ""
        typer.echo(f"FUSE is being served at http://{shown}:{port}/{many}  (Ctrl+C stops it)")
        if workers > 1:
            # each worker builds its own application from the same settings
            os.environ[SETTINGS_ENV] = json.dumps(settings)
            uvicorn.run("fusegame.server.app:app_from_env", factory=True, workers=workers, host=host,
                        port=port, **UVICORN_OPTIONS)
        else:
            uvicorn.run(web, host=host, port=port, **UVICORN_OPTIONS)

    _guard(run)


def _check_redis(url: str) -> None:
    """Fail with one line unless Redis answers at ``url``."""
    import redis as redis_client
    from redis.exceptions import RedisError

    try:
        with redis_client.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3) as r:
            r.ping()
    except ValueError as e:
        _fail(f"--redis: {e}")
    except (RedisError, OSError) as e:
        _fail(f"cannot reach Redis at {url}: {e}")


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``fuse`` command."""
    app(args=list(argv) if argv is not None else None, prog_name="fuse")


if __name__ == "__main__":  # pragma: no cover
    main()
