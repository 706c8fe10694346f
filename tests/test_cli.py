"""The ``fuse`` command, through Typer's CliRunner and as a real subprocess."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import countdown_cards
from fusegame import engine_kind
from fusegame.cli import app
from fusegame.record import GameRecord, final_state, replay
from fusegame.rules import GameConfig
from fusegame.sim import get_policy, play_game

DATA = Path(__file__).resolve().parent / "data"
MINI = str(DATA / "mini_cards.toml")
runner = CliRunner()

CARD_KEYS = {"id", "set", "kind", "points", "notation"}
SIM_KEYS = {"games", "wins", "losses", "mean_score", "mean_turns", "games_per_second",
            # the spread, and what was simulated
            "win_rate", "win_rate_ci", "mean_score_ci", "score_sd", "losses_by_reason",
            "game", "players", "difficulty", "pace", "policy", "seed", "workers", "backend", "engine"}


def test_cards_json_keys() -> None:
    res = runner.invoke(app, ["cards", "--json", "--cards", MINI])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)
    assert len(rows) == 65
    assert all(CARD_KEYS <= set(r) for r in rows)
    bombs = [r for r in rows if r["kind"] == "bomb"]
    fuses = [r for r in rows if r["kind"] == "fuse"]
    assert len(bombs) == 54 and len(fuses) == 11
    assert all(isinstance(r["points"], int) for r in bombs)
    assert all(r["points"] is None for r in fuses)
    assert sorted(r["notation"] for r in fuses) == sorted("1 2 3 4 5 6 R B G Y K".split())
    assert {r["set"] for r in rows} == {"fuse"}


def test_cards_json_builtin() -> None:
    res = runner.invoke(app, ["cards", "--json", "--set", "fuse"])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)
    assert all(CARD_KEYS <= set(r) for r in rows)
    assert all((r["points"] is None) == (r["kind"] == "fuse") for r in rows)


def test_cards_table() -> None:
    res = runner.invoke(app, ["cards", "--cards", MINI], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    assert "M01" in res.stdout and "MZ11" in res.stdout and "54 bomb" in res.stdout


def test_cards_validate_ok() -> None:
    res = runner.invoke(app, ["cards", "validate", MINI])
    assert res.exit_code == 0
    assert res.stdout.strip() == "OK: 54 bomb cards, 11 fuse cards"


def test_cards_validate_error(tmp_path: Path) -> None:
    text = (DATA / "mini_cards.toml").read_text().replace('notation = "# < #"', 'notation = "# < < #"', 1)
    bad = tmp_path / "bad_cards.toml"
    bad.write_text(text)
    res = runner.invoke(app, ["cards", "validate", str(bad)])
    assert res.exit_code == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and res.stdout == ""
    assert str(bad) in lines[0] and "card M14" in lines[0] and "character 5" in lines[0]
    assert "Traceback" not in res.output


def _sim(*extra: str) -> dict[str, float]:
    res = runner.invoke(app, ["sim", "--players", "2", "--games", "6", "--seed", "3", "--json",
                              "--cards", MINI, *extra])
    assert res.exit_code == 0, res.output
    data: dict[str, float] = json.loads(res.stdout)
    assert set(data) == SIM_KEYS
    return data


def test_sim_json_is_deterministic() -> None:
    a, b = _sim(), _sim()
    assert a["games"] == 6 and a["wins"] + a["losses"] == 6 and a["games_per_second"] > 0
    a.pop("games_per_second")
    b.pop("games_per_second")
    assert a == b
    c = _sim("--difficulty", "training")
    c.pop("games_per_second")
    assert c != a


@pytest.mark.parametrize("extra", [
    ["--setup", "stacks"], ["--setup", "single-deck"], ["--six-point-cards"], ["--strict-fuse"],
    ["--untimed"], ["--difficulty", "insane"],
])
def test_sim_options(extra: list[str]) -> None:
    data = _sim(*extra)
    assert data["games"] == 6


def test_sim_text_output() -> None:
    res = runner.invoke(app, ["sim", "--players", "3", "--games", "3", "--seed", "1", "--cards", MINI])
    assert res.exit_code == 0, res.output
    for word in ("games:", "wins:", "losses:", "mean score:", "mean turns:", "games per second:"):
        assert word in res.stdout


@pytest.mark.parametrize("args, needle", [
    (["sim", "--players", "7"], "1 to 5 players"),
    (["sim", "--difficulty", "hard"], "unknown difficulty 'hard'"),
    (["sim", "--setup", "pyramid"], "unknown setup"),
    (["sim", "--policy", "genius"], "unknown policy"),
    (["sim", "--policy", "play:courage=2"], "planner weight 'courage=2': write NAME=VALUE"),
    (["sim", "--policy", "team:dud_gain=lots"], "planner weight dud_gain: 'lots' is not a number"),
    (["sim", "--policy", "search:6x4"], "the roll-out search is now rollout:6x4"),
    (["sim", "--games", "0"], "at least 1"),
    (["sim", "--cards", "/no/such/file.toml"], "cannot read file"),
    (["sim", "--players", "many"], "--players"),
    (["sim", "--frobnicate"], "No such option"),
    (["cards", "--set", "chess"], "unknown card set"),
    (["cards", "validate", "/no/such/cards.toml"], "cannot read file"),
    (["replay", "/no/such/game.json"], "cannot read file"),
    (["new", "--players", "0", "--out", "x.json"], "1 to 5 players"),
    (["new", "--play", "--policy", "nope", "--out", "x.json"], "unknown policy 'nope'"),
    (["new", "--policy", "play", "--out", "x.json"], "add --play"),
])
def test_bad_options_give_one_line_and_exit_2(args: list[str], needle: str) -> None:
    res = runner.invoke(app, args)
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("fuse: error: ") and needle in lines[0]
    assert "Traceback" not in res.output and res.stdout == ""


def test_new_and_replay(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    res = runner.invoke(app, ["new", "--players", "2", "--seed", "5", "--out", str(out), "--play",
                              "--cards", MINI])
    assert res.exit_code == 0, res.output
    record = GameRecord.load(out)
    assert record.outcome is not None and len(record.actions) > 10
    res = runner.invoke(app, ["replay", str(out)])
    assert res.exit_code == 0, res.output
    text = res.stdout
    assert "── Turn 1 · P" in text and "── Turn 2 · P" in text
    assert " places " in text
    sc = record.outcome.score
    for part, value in (("win bonus", sc.win_bonus), ("time bonus", sc.time_bonus),
                        ("bomb cards", sc.bomb_points), ("fuse cards", sc.fuse_points), ("total", sc.total)):
        assert re.search(rf"^  {part} +{value}\b", text, re.M), part
    assert ("WON" if record.outcome.won else "LOST") in text
    res = runner.invoke(app, ["replay", str(out), "--board"])
    assert res.exit_code == 0 and "Bag:" in res.stdout


def test_new_plays_the_game_with_the_policy_asked_for(tmp_path: Path) -> None:
    """A recorded bot game is the game the simulator plays with that policy, and it replays."""
    config = GameConfig(players=3)
    for policy in ("random", "play"):
        out = tmp_path / f"{policy}.json"
        res = runner.invoke(app, ["new", "--players", "3", "--seed", "4", "--out", str(out), "--play",
                                  "--policy", policy])
        assert res.exit_code == 0, res.output
        record = GameRecord.load(out)
        assert record.config == config
        expected = play_game(config, 4, get_policy(policy), record=True)
        assert expected.record is not None and record.actions == expected.record.actions
        assert record.outcome == expected.outcome
        assert final_state(record).outcome == expected.outcome  # replays to the same end


def test_new_without_play_and_replay_of_an_unfinished_record(tmp_path: Path) -> None:
    out = tmp_path / "fresh.json"
    res = runner.invoke(app, ["new", "--players", "3", "--seed", "2", "--out", str(out), "--cards", MINI])
    assert res.exit_code == 0, res.output
    assert GameRecord.load(out).actions == []
    res = runner.invoke(app, ["replay", str(out)])
    assert res.exit_code == 0 and "── Turn 1" in res.stdout and "before the game is over" in res.stdout


def test_replay_of_a_bad_record(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "fusegame-record", "version": 1, "config": {}, "seed": 1, '
                   '"actions": ["p0 fly"]}')
    res = runner.invoke(app, ["replay", str(bad)])
    assert res.exit_code == 2
    assert res.stderr.count("\n") == 1 and "action 1" in res.stderr and str(bad) in res.stderr


def _fuse() -> list[str]:
    exe = shutil.which("fuse")
    assert exe is not None, "the `fuse` console script is not installed (pip install -e .)"
    return [exe]


def test_real_fuse_command() -> None:
    res = subprocess.run([*_fuse(), "cards", "--json", "--cards", MINI], capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stderr
    rows = json.loads(res.stdout)
    assert len(rows) == 65 and all(CARD_KEYS <= set(r) for r in rows)
    res = subprocess.run([*_fuse(), "sim", "--players", "2", "--games", "3", "--seed", "1", "--json",
                          "--cards", MINI], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert set(json.loads(res.stdout)) == SIM_KEYS
    assert res.stderr == ""  # no progress bar when stderr is not a terminal


def test_version_says_which_engine_runs() -> None:
    res = subprocess.run([*_fuse(), "--version"], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert re.fullmatch(r"fuse \d+\.\d+\.\d+ \((compiled|python) engine, Python 3\.\d+\.\d+\)\n", res.stdout)
    assert f"({engine_kind()} engine" in res.stdout
    res = runner.invoke(app, ["sim", "--players", "2", "--games", "2", "--json", "--cards", MINI])
    assert json.loads(res.stdout)["engine"] == engine_kind()


def test_real_fuse_command_bad_option() -> None:
    res = subprocess.run([*_fuse(), "sim", "--players", "7"], capture_output=True, text=True, timeout=120)
    assert res.returncode == 2
    assert res.stdout == ""
    assert res.stderr == "fuse: error: FUSE is for 1 to 5 players (6 to 9: an epic game, --game epic)\n"


def test_main_as_module() -> None:
    res = subprocess.run([sys.executable, "-c", "from fusegame.cli import main; main(['cards', 'validate', "
                          f"{MINI!r}])"], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0 and res.stdout.startswith("OK: 54 bomb cards")


# ====================================================================== Countdown games
def _countdown_cards() -> list[str]:
    """No --cards once the built-in catalogue has Countdown's cards; the test deck until then
    (enough for Countdown games, not for integrated or epic ones)."""
    return [] if countdown_cards() is None else ["--cards", str(DATA / "countdown_test_cards.toml")]


@pytest.mark.parametrize("extra", [
    ["--game", "countdown"],
    ["--game", "countdown", "--players", "2", "--difficulty", "heroic", "--fuse-cards", "3"],
    ["--game", "countdown", "--difficulty", "insane"],  # FUSE's name for the top level is accepted
    ["--game", "integrated", "--players", "3", "--difficulty", "expert"],
    ["--game", "epic"],
    ["--game", "epic", "--players", "9", "--difficulty", "elite"],
    ["--modules", "roles,sparks"],
    ["--modules", "roles", "--modules", "split-dice", "-m", "bombs,fuses", "--players", "5"],
    ["--game", "fuse", "--fuse-cards", "0"],
])
def test_sim_countdown_games_and_modules(extra: list[str]) -> None:
    cards = _countdown_cards() if extra[:2] == ["--game", "countdown"] else []
    res = runner.invoke(app, ["sim", "--games", "2", "--seed", "4", "--json", *cards, *extra])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert set(data) == SIM_KEYS and data["games"] == 2
    assert data["mean_score"] >= 0


def test_sim_countdown_is_deterministic_and_differs_from_fuse() -> None:
    def run(*extra: str) -> dict[str, float]:
        res = runner.invoke(app, ["sim", "--games", "3", "--seed", "9", "--json", *extra])
        assert res.exit_code == 0, res.output
        data: dict[str, float] = json.loads(res.stdout)
        data.pop("games_per_second")
        return data

    a = run("--game", "countdown", *_countdown_cards())
    assert a == run("--game", "countdown", *_countdown_cards())
    assert a != run("--game", "fuse")


@pytest.mark.parametrize("args, needle", [
    (["sim", "--game", "countdown", "--modules", "roles"], "modules add Countdown parts to FUSE"),
    (["sim", "--game", "epic", "--modules", "sparks"], "use them with the fuse game"),
    (["sim", "--game", "epic", "--players", "5"], "epic games are for 6 to 9 players"),
    (["sim", "--game", "countdown", "--players", "5"], "countdown games are for 1 to 4 players"),
    (["sim", "--game", "integrated", "--players", "6"], "integrated games are for 1 to 4 players"),
    (["sim", "--players", "6"], "6 to 9: an epic game, --game epic"),
    (["sim", "--game", "countdown", "--fuse-cards", "2"], "standard uses no fuse cards in countdown games"),
    (["sim", "--game", "countdown", "--difficulty", "expert", "--fuse-cards", "0"], "uses 1 to"),
    (["sim", "--fuse-cards", "40"], "fuse cards must be 0 to"),
    (["sim", "--game", "countdown", "--setup", "stacks"], "advanced setups"),
    (["sim", "--game", "chess"], "unknown game 'chess'"),
    (["sim", "--modules", "roles,wings"], "unknown module 'wings'"),
    (["sim", "--fuse-cards", "many"], "--fuse-cards"),
    (["new", "--game", "epic", "--players", "4", "--out", "x.json"], "epic games are for 6 to 9 players"),
    (["new", "--game", "countdown", "--modules", "sparks", "--out", "x.json"], "use them with the fuse game"),
])
def test_bad_countdown_combinations_give_one_line_and_exit_2(args: list[str], needle: str) -> None:
    res = runner.invoke(app, args)
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("fuse: error: ") and needle in lines[0], lines[0]
    assert "Traceback" not in res.output and res.stdout == ""


#: the fallback of Event.__str__ (``kind {data}``): no event of a replay may print that way
RAW_EVENT = re.compile(r"^  \[\d+:\d\d\] [a-z_]+ \{")


@pytest.mark.parametrize("extra", [
    ["--game", "countdown", "--players", "2", "--difficulty", "expert", "--fuse-cards", "10"],
    ["--game", "countdown", "--players", "1", "--untimed"],
    ["--game", "epic", "--players", "7"],
    ["--modules", "roles,sparks,fuses", "--players", "3"],
])
def test_new_and_replay_of_countdown_records(tmp_path: Path, extra: list[str]) -> None:
    out = tmp_path / "game.json"
    cards = _countdown_cards() if extra[:2] == ["--game", "countdown"] else []
    res = runner.invoke(app, ["new", "--seed", "5", "--out", str(out), "--play", *cards, *extra])
    assert res.exit_code == 0, res.output
    record = GameRecord.load(out)
    assert record.outcome is not None and len(record.actions) > 10
    assert res.stdout.startswith(f"wrote {out}: {record.config.describe()}, seed 5, ")
    res = runner.invoke(app, ["replay", str(out)])
    assert res.exit_code == 0, res.output
    text = res.stdout
    title = {"countdown": "FUSE: Countdown", "epic": "FUSE + FUSE: Countdown (epic)"}.get(
        record.config.game.value, "FUSE + roles, fuses, sparks")
    assert text.startswith(f"{title} · {record.config.players} players")
    assert "── Turn 1 · P" in text and "── Turn 2 · P" in text
    assert " draws spark " in text
    raw = [line for line in text.splitlines() if RAW_EVENT.match(line)]
    assert not raw, raw[:5]
    sc = record.outcome.score
    for part, value in (("bomb cards", sc.bomb_points), ("spark cards", sc.spark_points),
                        ("total", sc.total)):
        assert re.search(rf"^  {part} +{value}\b", text, re.M), part
    res = runner.invoke(app, ["replay", str(out), "--board"])
    assert res.exit_code == 0 and "Sparks: deck " in res.stdout


def test_every_countdown_event_prints_in_words() -> None:
    """Event.__str__ covers the events of Countdown's parts (a plain ``kind {data}`` fallback
    would mean one was forgotten)."""
    from fusegame.rules import GameConfig
    from fusegame.sim import play_game, random_policy

    kinds: dict[str, str] = {}
    for game, players, difficulty in (("countdown", 2, "expert"), ("countdown", 1, "heroic"),
                                      ("integrated", 3, "elite"), ("epic", 6, "expert")):
        config = GameConfig(game=game, players=players, difficulty=difficulty,  # type: ignore[arg-type]
                            fuse_cards=None if difficulty == "heroic" else 10, time_limit=None,
                            cards=countdown_cards())
        for seed in range(3):
            result = play_game(config, seed, random_policy, record=True, max_turns=60)
            assert result.record is not None
            for _, events, _ in replay(result.record):
                for ev in events:
                    kinds.setdefault(ev.kind, str(ev))
    raw = {k: v for k, v in kinds.items() if v.startswith(f"{k} {{")}
    assert not raw
    for kind in ("spark_drawn", "spark_defused", "role_used", "turn_ended"):
        assert kind in kinds, sorted(kinds)


@pytest.mark.parametrize("args", [["sim", "--games", "2", "--plot"],
                                  ["cards", "analyze", "--trials", "1", "--plot"]])
def test_plot_without_matplotlib_says_how_to_install_it(tmp_path: Path, args: list[str]) -> None:
    # the base install leaves matplotlib out: --plot fails at once, in one line, with the command
    blocked = ("import sys; sys.modules['matplotlib'] = None; from fusegame.cli import main; "
               f"sys.argv = ['fuse', *{args + [str(tmp_path / 'chart.png')]!r}]; main()")
    proc = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    said = (proc.stdout + proc.stderr).strip()
    assert "pip install 'fusegame[plot]'" in said and "Traceback" not in said and len(said.splitlines()) == 1
    assert not (tmp_path / "chart.png").exists()
