"""The pace line: how far ahead of a steady pace a table must keep to win, from the bots' games.

    python research/studies/pace_line.py collect fuse 3 standard 1000 --start 20000 --out f3s.jsonl \\
        --workers 2
    python research/studies/pace_line.py collect fuse 4 standard 1000 --turn-seconds 16 --out f4s16.jsonl
    python research/studies/pace_line.py report f3s.jsonl [f3e.jsonl ...]

``collect`` plays games with ``--policy play`` (deals ``game_seed(2026, i)`` for ``i`` from
``--start``, at ``--turn-seconds`` a turn and ``--die-seconds`` a die: by default the bots' pace of
12 + 1, and slower for a table that takes its time) and writes, for each game, the bombs in the
middle at the start, and at the start of every turn the clock and the bombs still in the middle,
with whether the game was won. A line per game, JSON.

``report`` reads such files and prints, for each, what the game screen's pace gauge
(``fusegame.pace``) would have shown after 3, 5 and 7 minutes (the bombs ahead of the line, to the
nearest whole bomb) and the share of those games won; then, for each mark, a table of the games
won by the gauge's colour (green: on the line or ahead; amber: behind; red: three or more behind,
five or more in FUSE at four players or more, ``fusegame.pace.far_behind``): the figures behind
the gauge and research/pace.md, "The pace gauge".
"""

from __future__ import annotations

import argparse

from gamefiles import read_games, write_games

from fusegame.pace import PaceLine, far_behind, gauge_level
from fusegame.rules.actions import Action
from fusegame.rules.config import GameConfig
from fusegame.rules.events import Event
from fusegame.rules.state import GameState
from fusegame.sim import Pace, game_seed, get_policy, play_game
from fusegame.sim.stats import wilson_interval

MARKS_MIN = (3, 5, 7)


class Middle:
    """The bombs in the middle at the start of each turn (``sim.Watcher``)."""

    def __init__(self) -> None:
        self.start = -1
        self.turns: list[tuple[int, int]] = []
        self.won = False
        self.end_ms = 0

    def turn(self, s: GameState) -> None:
        if self.start < 0:
            self.start = s.bombs_in_middle()
        if not s.is_over:
            self.turns.append((s.time_ms, s.bombs_in_middle()))

    def acted(self, s: GameState, action: Action, events: list[Event]) -> None:
        pass

    def over(self, s: GameState) -> None:
        self.won = s.outcome is not None and s.outcome.won
        self.end_ms = s.time_ms


def one_game(args: tuple[str, int, str, float, float, int]) -> dict[str, object]:
    game, players, level, turn_s, die_s, i = args
    cfg = GameConfig(players=players, difficulty=level, game=game)
    w = Middle()
    play_game(cfg, game_seed(2026, i), get_policy("play"), Pace(turn_s, die_s), watch=w)
    return {"deal": i, "game": game, "players": players, "level": level, "pace": [turn_s, die_s],
            "clock_ms": (cfg.time_limit or 600) * 1000, "needed": w.start, "won": w.won,
            "end_ms": w.end_ms, "turns": w.turns}


def collect(game: str, players: int, level: str, games: int, start: int, out: str,
            workers: int, pace: Pace | None = None) -> None:
    GameConfig(players=players, difficulty=level, game=game)  # a bad table fails before the file is written
    pace = pace or Pace()
    jobs = [(game, players, level, pace.turn_seconds, pace.die_seconds, i)
            for i in range(start, start + games)]
    write_games(one_game, jobs, out, workers)


def taken_at(g: dict[str, object], at_ms: int) -> int | None:
    """The bombs taken from the middle by ``at_ms`` of play, ``None`` if the game was over by then
    (the count at the start of the last turn begun by then: what a table sees when it looks; none
    before the first turn is recorded)."""
    if int(g["end_ms"]) <= at_ms:  # type: ignore[call-overload]
        return None
    last = None
    for t, left in g["turns"]:  # type: ignore[attr-defined]
        if t > at_ms:
            break
        last = left
    return 0 if last is None else int(g["needed"]) - last  # type: ignore[call-overload]


#: the gauge's colours, as research/pace.md's table names them
COLOURS = (("green", ("ahead", "line")), ("amber", ("behind",)), ("red", ("far",)))


def report(paths: list[str]) -> None:
    # by mark, by file: games (played, won) under each colour
    colours: dict[int, dict[str, dict[str, list[int]]]] = {m: {} for m in MARKS_MIN}
    for path in paths:
        games = list(read_games(path))
        g0 = games[0]
        won = sum(bool(g["won"]) for g in games)
        line = PaceLine(int(g0["needed"]), int(g0["clock_ms"]))  # type: ignore[call-overload]
        far = far_behind(str(g0["game"]), int(g0["players"]))  # type: ignore[call-overload]
        turn_s, die_s = g0.get("pace", [12, 1])  # type: ignore[misc]
        name = f"{g0['game']} {g0['players']}p {g0['level']}, {turn_s:g}+{die_s:g} s"
        print(f"{path}: {name}, {len(games)} games, "
              f"{won} won; {line.needed} bombs in the middle, the line a bomb every "
              f"{line.every_ms / 1000:.1f} s")
        for minute in MARKS_MIN:
            at = minute * 60_000
            by: dict[int, list[int]] = {}
            over = [0, 0]
            for g in games:
                taken = taken_at(g, at)
                cell = over if taken is None else by.setdefault(line.step(taken, at), [0, 0])
                cell[0] += 1
                cell[1] += bool(g["won"])
            mine = colours[minute].setdefault(name, {c: [0, 0] for c, _ in COLOURS})
            for ahead, (n, w) in by.items():
                colour = next(c for c, levels in COLOURS if gauge_level(ahead, far) in levels)
                mine[colour][0] += n
                mine[colour][1] += w
            cells = []
            for ahead, (n, w) in sorted(by.items()):
                lo, hi = wilson_interval(w, n)
                cells.append(f"{ahead:+d}: {w}/{n} ({100 * w / n:.0f}% [{100 * lo:.0f}, {100 * hi:.0f}])")
            print(f"  after {minute} min (the line at {line.expected(at):.1f} taken), bombs ahead: "
                  + ", ".join(cells) + (f"; over by then: {over[1]}/{over[0]}" if over[0] else ""))
    for minute in MARKS_MIN:
        print(f"\nafter {minute} min, games won / played (%) by the gauge's colour\n")
        print("| table | " + " | ".join(c for c, _ in COLOURS) + " |")
        print("|---|" + "---|" * len(COLOURS))
        for name, by_colour in colours[minute].items():
            cells = [f"{w} / {n} ({100 * w / n:.0f}%)" if n else "—" for n, w in by_colour.values()]
            print(f"| {name} | " + " | ".join(cells) + " |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("game", choices=("fuse", "countdown"))
    c.add_argument("players", type=int)
    c.add_argument("level")
    c.add_argument("games", type=int)
    c.add_argument("--start", type=int, default=20000)
    c.add_argument("--out", required=True)
    c.add_argument("--workers", type=int, default=2)
    c.add_argument("--turn-seconds", type=float, default=12.0)
    c.add_argument("--die-seconds", type=float, default=1.0)
    r = sub.add_parser("report")
    r.add_argument("paths", nargs="+")
    a = ap.parse_args()
    try:
        if a.cmd == "collect":
            collect(a.game, a.players, a.level, a.games, a.start, a.out, a.workers,
                    Pace(a.turn_seconds, a.die_seconds))
        else:
            report(a.paths)
    except (OSError, ValueError) as e:  # a missing file, a bad table
        ap.exit(2, f"pace_line.py: {e}\n")
    except (KeyError, IndexError) as e:
        ap.exit(2, f"pace_line.py: not a file `collect` wrote ({e})\n")


if __name__ == "__main__":
    main()
