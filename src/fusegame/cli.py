"""The ``fuse`` command: cards, simulation, records.

    fuse cards [--set fuse] [--json] [--cards FILE]
    fuse cards validate FILE
    fuse sim --players 4 --difficulty standard --games 200 --seed 1 --policy random [--json]
    fuse new --players 4 --seed 1 --out game.json [--play]
    fuse replay game.json [--board]

Every expected problem (a bad option, an unreadable file) is reported as one line on stderr with
exit code 2; no traceback.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text
from typer.core import TyperGroup

from fusegame.cards.catalogue import SETS, CardDataError, Catalogue, builtin_catalogue, load_catalogue
from fusegame.observe import clock, game_title, render_text
from fusegame.record import GameRecord, RecordError, replay
from fusegame.rules.actions import Action, ActionParseError, RerollUnused, Tick
from fusegame.rules.config import ConfigError, Game, GameConfig
from fusegame.rules.state import GameState, IllegalAction
from fusegame.sim import POLICIES, Pace, get_policy, play_game, run_batch

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
                  help="FUSE, the real-time cooperative dice game: cards, simulations, game records.")
cards_app = typer.Typer(add_completion=False, pretty_exceptions_enable=False,
                        help="List the card catalogue, or validate a catalogue file.")
app.add_typer(cards_app, name="cards")

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
    """Check a catalogue file: prints "OK: N bomb cards, M fuse cards" (plus spark and role cards
    when there are any) or the error (exit code 2)."""
    def run() -> None:
        cat = load_catalogue(file)
        kinds = [(len(cat.bombs), "bomb cards"), (len(cat.fuses), "fuse cards"),
                 (len(cat.sparks), "spark cards"), (len(cat.roles), "role cards")]
        typer.echo(f"OK: {', '.join(_counts(kinds))}")

    _guard(run)


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
    "--players", "-p", help="Number of players: 1-5 (Countdown and integrated 1-4, epic 6-9); "
                            "default 4 (epic 6).")]
DifficultyOpt = Annotated[str, typer.Option("--difficulty", "-d",
                                            help="training, standard, expert, elite or insane "
                                                 "(heroic: the same level in Countdown games).")]
GameOpt = Annotated[str, typer.Option("--game", help="fuse, countdown, integrated (both sets, 1-4 "
                                                     "players) or epic (both sets, 6-9 players).")]
ModulesOpt = Annotated[list[str] | None, typer.Option(
    "--modules", "-m", help="Countdown modules for a FUSE game, comma-separated or repeated: roles, "
                            "bombs, fuses, sparks, split-dice.")]
FuseCardsOpt = Annotated[int | None, typer.Option(
    "--fuse-cards", help="Fuse cards shuffled into the deck (default: FUSE 6; Countdown-style games "
                         "none at training and standard, 6 from expert up).")]
SetupOpt = Annotated[str, typer.Option("--setup", help="standard, single-deck or stacks.")]
SixOpt = Annotated[bool, typer.Option("--six-point-cards", help="Put the 6-point cards in the deck.")]
StrictOpt = Annotated[bool, typer.Option("--strict-fuse", help="Allow placements that leave a card "
                                                               "impossible (no feasibility rule).")]
UntimedOpt = Annotated[bool, typer.Option("--untimed", help="No time limit (unofficial score).")]


def _players(players: int | None, game: str) -> int:
    """The --players value, or its default: 4 (6 for an epic game)."""
    if players is not None:
        return players
    return 6 if game == "epic" else 4


@app.command()
def sim(
    players: Players = None,
    difficulty: DifficultyOpt = "standard",
    games: Annotated[int, typer.Option("--games", "-g", help="Number of games.")] = 100,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Batch seed (same seed, same results).")] = 0,
    policy: Annotated[str, typer.Option("--policy", help=f"Policy: {', '.join(POLICIES)}.")] = "random",
    as_json: Annotated[bool, typer.Option("--json", help="Print the statistics as JSON.")] = False,
    cards_file: CardsOpt = None,
    setup: SetupOpt = "standard",
    six_point_cards: SixOpt = False,
    strict_fuse: StrictOpt = False,
    untimed: UntimedOpt = False,
    turn_seconds: Annotated[float, typer.Option(help="Pace model: seconds per turn.")] = 12.0,
    die_seconds: Annotated[float, typer.Option(help="Pace model: extra seconds per die rolled.")] = 1.0,
    game: GameOpt = "fuse",
    modules: ModulesOpt = None,
    fuse_cards: FuseCardsOpt = None,
) -> None:
    """Simulate games and print games, wins, losses, mean score, mean turns and games per second."""
    def run() -> None:
        config = make_config(_players(players, game), difficulty, setup, six_point_cards, strict_fuse,
                             untimed, cards_file, game, modules or (), fuse_cards)
        pol = get_policy(policy)
        pace = Pace(turn_seconds, die_seconds)
        if games < 1:
            raise ValueError("--games must be at least 1")
        err = Console(stderr=True)
        if err.is_terminal and games >= 20:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
            with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                          console=err, transient=True) as bar:
                task = bar.add_task("sim", total=games)
                stats = run_batch(config, games, seed, pol, pace=pace,
                                  progress=lambda done, total: bar.update(task, completed=done))
        else:
            stats = run_batch(config, games, seed, pol, pace=pace)
        if as_json:
            typer.echo(json.dumps(stats.to_dict()))
            return
        typer.echo(f"games:            {stats.games}")
        typer.echo(f"wins:             {stats.wins} ({100 * stats.win_rate:.1f}%)")
        typer.echo(f"losses:           {stats.losses}")
        typer.echo(f"mean score:       {stats.mean_score:.2f}")
        typer.echo(f"mean turns:       {stats.mean_turns:.2f}")
        typer.echo(f"games per second: {stats.games_per_second:.1f}")

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
    play: Annotated[bool, typer.Option("--play", help="Play the game out with the random policy "
                                                      "(simulated pace) and record every action.")] = False,
    game: GameOpt = "fuse",
    modules: ModulesOpt = None,
    fuse_cards: FuseCardsOpt = None,
) -> None:
    """Start a game and write its record (config + seed; with --play, a whole simulated game)."""
    def run() -> None:
        config = make_config(_players(players, game), difficulty, setup, six_point_cards, strict_fuse,
                             untimed, cards_file, game, modules or (), fuse_cards)
        if play:
            record = play_game(config, seed, get_policy("random"), record=True).record
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
    setup = f" · setup {cfg.setup.value}" if cfg.game is Game.FUSE else ""
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
        sparks = f", {len(state.sparks_defused)} sparks defused" if state.config.uses_sparks else ""
        return ["", f"The record ends in turn {state.turn} before the game is over "
                    f"(score so far {sum(state.bomb(c).points for c in state.score_pile)} bomb points"
                    f"{sparks})."]
    s = o.score
    left = "untimed" if o.time_left_ms is None else f"{clock(o.time_left_ms)} left"
    sparks_line = ([f"  spark cards   {s.spark_points:>4}  ({len(state.sparks_defused)} defused)"]
                   if state.config.uses_sparks else [])
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

    _guard(run)


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``fuse`` command."""
    app(args=list(argv) if argv is not None else None, prog_name="fuse")


if __name__ == "__main__":  # pragma: no cover
    main()
