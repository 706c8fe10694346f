"""Simulation at scale: interval statistics, grids of batches, worker processes, Ray, charts."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from fusegame.cards import load_catalogue
from fusegame.cli import app
from fusegame.rules import GameConfig
from fusegame.sim.batch import BatchStats, game_seed, run_batch
from fusegame.sim.game import Pace, play_game
from fusegame.sim.grid import format_pace, parse_difficulties, parse_pace, parse_paces, parse_players
from fusegame.sim.parallel import BatchRunner, chunk_count, default_workers, run_parallel, split
from fusegame.sim.policies import get_policy
from fusegame.sim.stats import Z95, mean_interval, paired_difference, sample_sd, wilson_interval

DATA = Path(__file__).resolve().parents[1] / "data"
MINI = str(DATA / "mini_cards.toml")
runner = CliRunner()

#: What depends on the machine (and on how the batch was run), not on the games.
MACHINE_KEYS = ("games_per_second", "workers", "backend")


def _games_only(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in MACHINE_KEYS}


def _sim(*args: str) -> Any:
    res = runner.invoke(app, ["sim", "--json", *args])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


# ====================================================================== statistics
def test_wilson_interval_by_hand() -> None:
    # p = 3/4, n = 4, z = 1.96: z² = 3.8416, 1 + z²/n = 1.9604,
    # centre = (0.75 + 0.4802) / 1.9604 = 0.627525,
    # half = 1.96 * sqrt(0.75 * 0.25 / 4 + 3.8416 / 64) / 1.9604 = 1.96 * 0.326956 / 1.9604 = 0.326889
    lo, hi = wilson_interval(3, 4, z=1.96)
    assert lo == pytest.approx(0.300636, abs=1e-6) and hi == pytest.approx(0.954414, abs=1e-6)
    # 5 of 10 is symmetric around 0.5; none or all of 10 touch 0 or 1 exactly
    assert wilson_interval(5, 10, z=1.96) == pytest.approx((0.236590, 0.763410), abs=1e-6)
    assert wilson_interval(0, 10, z=1.96) == pytest.approx((0.0, 0.277540), abs=1e-6)
    assert wilson_interval(10, 10, z=1.96) == pytest.approx((0.722460, 1.0), abs=1e-6)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert Z95 == pytest.approx(1.959964, abs=1e-6)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_paired_difference_by_hand() -> None:
    # 48 deals only b won, 32 only a, of 1,000: d = 0.016; var = (80 - 16²/1000) / 1000² =
    # 79.744e-6, so half = 1.96 * 0.0089300 = 0.0175028
    d, lo, hi = paired_difference(48, 32, 1000, z=1.96)
    assert d == pytest.approx(0.016) and (lo, hi) == pytest.approx((-0.0015028, 0.0335028), abs=1e-6)
    # as many each way: no difference, an interval around it; none either way: none at all
    d, lo, hi = paired_difference(20, 20, 500)
    assert d == 0 and lo == pytest.approx(-hi) and hi > 0
    assert paired_difference(0, 0, 300) == (0.0, 0.0, 0.0)
    with pytest.raises(ValueError):
        paired_difference(600, 500, 1000)


def test_mean_interval_and_sample_sd_by_hand() -> None:
    values = [2, 4, 4, 4, 5, 5, 7, 9]  # mean 5, squared deviations sum to 32
    assert sample_sd(values) == pytest.approx(math.sqrt(32 / 7))  # 2.138090
    half = 1.96 * math.sqrt(32 / 7) / math.sqrt(8)  # 1.481621
    assert mean_interval(values, z=1.96) == pytest.approx((5 - half, 5 + half))
    assert mean_interval(values, z=1.96) == pytest.approx((3.518379, 6.481621), abs=1e-6)
    assert sample_sd([7]) == 0.0 and mean_interval([7]) == (7.0, 7.0)
    assert mean_interval([]) == (0.0, 0.0)


def test_batch_stats_details_match_the_games() -> None:
    cfg = GameConfig(players=2, cards=load_catalogue(MINI))
    stats = run_batch(cfg, 10, 4, get_policy("random"))
    games = [play_game(cfg, game_seed(4, i), get_policy("random")) for i in range(10)]
    scores = [g.score for g in games]
    assert stats.scores == tuple(scores)
    assert stats.score_sd == pytest.approx(sample_sd(scores), abs=1e-4)
    assert stats.mean_score_ci == pytest.approx(mean_interval(scores), abs=1e-4)
    assert stats.win_rate_ci == pytest.approx(wilson_interval(stats.wins, 10), abs=1e-4)
    assert sum(stats.losses_by_reason.values()) == stats.losses
    details = stats.details()
    assert set(details) == {"win_rate", "win_rate_ci", "mean_score_ci", "score_sd", "losses_by_reason"}
    assert set(stats.to_dict()) == {"games", "wins", "losses", "mean_score", "mean_turns",
                                    "games_per_second"}  # the old shape is kept
    assert BatchStats.of([], 1.0).win_rate_ci == (0.0, 1.0)


# ====================================================================== grids
def test_grid_specs() -> None:
    assert parse_players("1-3") == [1, 2, 3]
    assert parse_players(["2,4", "4", "1"]) == [2, 4, 1]
    assert parse_players("all") == [1, 2, 3, 4, 5]
    assert parse_players("all", "epic") == [6, 7, 8, 9]
    assert parse_players("all", "countdown") == [1, 2, 3, 4]
    assert parse_difficulties("all") == ["training", "standard", "expert", "elite", "insane"]
    assert parse_difficulties("standard-elite,training") == ["standard", "expert", "elite", "training"]
    assert parse_difficulties("heroic") == ["insane"]
    assert parse_pace("12+1") == Pace(12, 1) and parse_pace("20") == Pace(20, 0)
    assert parse_paces(["12+1,8+0.5", "12+1"]) == [Pace(12, 1), Pace(8, 0.5)]
    assert [format_pace(p) for p in (Pace(12, 1), Pace(8, 0.5))] == ["12+1", "8+0.5"]
    for bad in ("x", "12+", "+1", "-3", "12+-1", "nan", "12+1+1"):
        with pytest.raises(ValueError, match="TURN"):
            parse_pace(bad)
    for fn, bad in ((parse_players, "5-2"), (parse_players, "many"), (parse_players, ""),
                    (parse_difficulties, "hard"), (parse_difficulties, "elite-training")):
        with pytest.raises(ValueError):
            fn(bad)  # type: ignore[operator]


def test_cli_grid_runs_one_batch_per_cell() -> None:
    rows = _sim("--cards", MINI, "-p", "2,3", "-d", "training-standard", "--pace", "12+1,20", "-g", "3")
    assert [(r["players"], r["difficulty"], r["pace"]) for r in rows] == [
        (p, d, pace) for p in (2, 3) for d in ("training", "standard") for pace in ("12+1", "20+0")]
    assert all(r["games"] == 3 and r["policy"] == "random" for r in rows)
    one = _sim("--cards", MINI, "-p", "3", "-d", "standard", "--pace", "20", "-g", "3")
    assert isinstance(one, dict)
    assert _games_only(one) == _games_only(rows[-1])  # a cell is the batch of its own options
    # the older pace options are the same thing
    assert _games_only(_sim("--cards", MINI, "-p", "3", "--turn-seconds", "20", "--die-seconds", "0",
                            "-g", "3")) == _games_only(one)
    res = runner.invoke(app, ["sim", "--cards", MINI, "-p", "2-3", "-d", "all", "-g", "2"])
    assert res.exit_code == 0, res.output
    for word in ("players", "difficulty", "win %", "95% CI", "insane", "turns"):
        assert word in res.stdout
    assert len([line for line in res.stdout.splitlines() if "12+1" in line]) == 10


def test_cli_help_lists_the_policies_and_options() -> None:
    res = runner.invoke(app, ["sim", "--help"], env={"COLUMNS": "200"})
    assert res.exit_code == 0
    for word in ("random", "greedy", "team", "--pace", "--workers", "--ray", "--plot", "fusegame[cluster]"):
        assert word in res.stdout


@pytest.mark.parametrize("args, needle", [
    (["--pace", "12+x"], "--pace: bad pace '12+x'"),
    (["--pace", "12", "--turn-seconds", "3"], "not both"),
    (["--players", "5-2"], "--players: the range '5-2' runs backwards"),
    (["--players", "2,7"], "1 to 5 players"),
    (["--difficulty", "elite-training"], "--difficulty: the range"),
    (["--workers", "0"], "--workers must be at least 1"),
    (["--plot", "/no/such/folder/x.png"], "no folder"),
    (["--plot", "chart.txt"], "should end in one of"),
])
def test_bad_grid_options_give_one_line(args: list[str], needle: str) -> None:
    res = runner.invoke(app, ["sim", "-g", "1", *args])
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fuse: error: ") and needle in lines[0], res.stderr
    assert res.stdout == ""


# ====================================================================== workers
def test_split_into_consecutive_chunks() -> None:
    for games in (1, 2, 7, 60):
        for parts in (1, 2, 3, 8, 100):
            ranges = split(games, parts)
            assert ranges[0][0] == 0 and ranges[-1][1] == games
            assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))
            sizes = [b - a for a, b in ranges]
            assert min(sizes) >= 1 and max(sizes) - min(sizes) <= 1
    assert chunk_count(60, 2) == 8 and chunk_count(6, 2) == 3 and chunk_count(1, 4) == 1
    assert default_workers("random", 5) == 1 and default_workers("team", 10_000) >= 1


def test_workers_give_the_statistics_of_one_process() -> None:
    cfg = GameConfig(players=3, cards=load_catalogue(MINI))  # custom cards travel as data
    one = run_batch(cfg, 9, 11, get_policy("greedy"), pace=Pace(10, 1))
    calls: list[tuple[int, int]] = []
    two = run_parallel(cfg, 9, 11, "greedy", Pace(10, 1), workers=2,
                       progress=lambda d, t: calls.append((d, t)))
    assert _games_only(one.to_dict()) == _games_only(two.to_dict())
    assert one.details() == two.details() and one.scores == two.scores
    assert calls[-1] == (9, 9) and [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_team_planner_on_two_workers_matches_one() -> None:
    cfg = GameConfig(players=4)
    with BatchRunner("team", workers=2) as two:
        assert two.backend == "processes"
        parallel = two.run(cfg, 4, 3)
    serial = run_batch(cfg, 4, 3, get_policy("team"))
    assert parallel.scores == serial.scores and parallel.details() == serial.details()


def test_cli_workers_do_not_change_the_json() -> None:
    args = ("--cards", MINI, "-p", "2", "-g", "6", "--seed", "5", "--policy", "greedy")
    one, two = _sim(*args, "--workers", "1"), _sim(*args, "--workers", "2")
    assert one["workers"] == 1 and one["backend"] == "inline"
    assert two["workers"] == 2 and two["backend"] == "processes"
    assert _games_only(one) == _games_only(two)
    assert one["policy"] == "greedy" and one["pace"] == "12+1" and one["seed"] == 5


# ====================================================================== charts
def test_plot_is_a_png(tmp_path: Path) -> None:
    out = tmp_path / "winrate.png"
    res = runner.invoke(app, ["sim", "--cards", MINI, "-p", "1,2", "-d", "training,standard", "-g", "4",
                              "--plot", str(out)])
    assert res.exit_code == 0, res.output
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000


# ====================================================================== Ray
def test_ray_missing_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError
    res = runner.invoke(app, ["sim", "-g", "2", "--ray", "local"])
    assert res.exit_code == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "pip install fusegame[cluster]" in lines[0]


def test_ray_tasks_give_the_statistics_of_one_process() -> None:
    ray = pytest.importorskip("ray")
    args = ("--cards", MINI, "-p", "2", "-g", "6", "--seed", "8", "--policy", "greedy")
    one = _sim(*args, "--workers", "1")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = _sim(*args, "--ray", "local", "--workers", "2")  # uses the instance started here
    finally:
        ray.shutdown()
    assert on_ray["backend"] == "ray"
    assert _games_only(on_ray) == _games_only(one)
