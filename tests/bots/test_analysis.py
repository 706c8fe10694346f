"""Card analysis (``fusegame.bots.analysis``, ``fuse cards analyze``) on small catalogues."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fusegame.bots.analysis import ROW_KEYS, analyse, cards_to_analyse
from fusegame.cli import app

runner = CliRunner()

#: Four cards, each harder than the last: any die, a red die and any, a red die and a pair, one
#: exact die.
SMALL = """
[[bomb]]
id = "A1"
points = 1
notation = "?"

[[bomb]]
id = "A2"
points = 2
notation = "R ?"

[[bomb]]
id = "A3"
points = 3
notation = "R # = #"

[[bomb]]
id = "A4"
points = 4
notation = "G5"
"""

#: The 1-point card needs two exact dice, the 4-point card any die: points fall with difficulty.
MISPOINTED = """
[[bomb]]
id = "X1"
points = 1
notation = "G5 R1"

[[bomb]]
id = "X4"
points = 4
notation = "?"
"""

#: Two hard 2-point cards and an easy one (``?``) that measures like the 1-point cards.
BANDS = """
[[bomb]]
id = "B1"
points = 1
notation = "?"

[[bomb]]
id = "B2"
points = 1
notation = "? ?"

[[bomb]]
id = "B3"
points = 2
notation = "R # = #"

[[bomb]]
id = "B4"
points = 2
notation = "G # = #"

[[bomb]]
id = "B5"
points = 2
notation = "? ?"
"""


def _catalogue(tmp_path: Path, text: str, name: str = "cards.toml") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_small_catalogue_sensible_numbers(tmp_path: Path) -> None:
    cards, _ = cards_to_analyse("fuse", _catalogue(tmp_path, SMALL))
    report = analyse(cards, "fuse", trials=60, seed=3)
    by_id = {c.card.id: c for c in report.cards}
    one = by_id["A1"]
    assert one.expected_dice == pytest.approx(1.0) and one.mean_rolls == 1.0
    assert dict(one.p_within) == {4: 1.0, 8: 1.0}
    assert 2.0 < by_id["A2"].expected_dice < 10.0 and 1.0 < by_id["A2"].mean_rolls < 3.0
    # one exact die of 30 types: 30 dice offered; a roll of 3 dice holds it about 1 time in 10
    exact = by_id["A4"]
    assert exact.expected_dice == pytest.approx(30.0)
    assert 6.0 < exact.mean_rolls < 16.0 and dict(exact.p_within)[8] < 0.8
    assert by_id["A1"].mean_rolls < by_id["A2"].mean_rolls < by_id["A3"].mean_rolls < exact.mean_rolls
    assert [c.card.id for c in report.sorted_cards()] == ["A1", "A2", "A3", "A4"]
    assert report.rising() and report.correlation() == pytest.approx(1.0)


def test_same_seed_same_numbers(tmp_path: Path) -> None:
    cards, _ = cards_to_analyse("fuse", _catalogue(tmp_path, SMALL))
    a = analyse(cards, "fuse", trials=40, seed=7).rows()
    b = analyse(cards, "fuse", trials=40, seed=7).rows()
    c = analyse(cards, "fuse", trials=40, seed=8).rows()
    assert a == b
    assert [r["mean_rolls"] for r in a] != [r["mean_rolls"] for r in c]


def test_json_rows_and_plot(tmp_path: Path) -> None:
    png = tmp_path / "difficulty.png"
    res = runner.invoke(app, ["cards", "analyze", "--cards", _catalogue(tmp_path, SMALL), "--trials", "30",
                              "--within", "2", "--within", "5", "--json", "--plot", str(png)])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)
    assert [r["id"] for r in rows] == ["A1", "A2", "A3", "A4"]
    for r in rows:
        assert set(r) == {*ROW_KEYS, "p_within_2", "p_within_5"}
        assert r["kind"] == "bomb" and r["trials"] == 30 and r["slots"] >= 1
    assert rows[0]["expected_dice"] == 1.0 and rows[0]["p_within_2"] == 1.0
    data = png.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 5_000


def test_sparks_are_their_own_group(tmp_path: Path) -> None:
    text = SMALL + '\n[[spark]]\nid = "S1"\nnotation = "S"\n'  # needs a split die: Countdown dice
    res = runner.invoke(app, ["cards", "analyze", "--set", "countdown", "--trials", "20", "--json",
                              "--cards", _catalogue(tmp_path, text)])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)
    assert rows[0]["id"] == "S1" and rows[0]["kind"] == "spark" and rows[0]["points"] is None
    assert rows[0]["measures_like"] is None


def test_check_detects_mispointed_catalogue(tmp_path: Path) -> None:
    args = ["cards", "analyze", "--cards", _catalogue(tmp_path, MISPOINTED), "--trials", "40"]
    res = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output  # a report: the failed check alone does not fail
    assert 'Check "points rise with difficulty": FAIL' in res.stdout
    assert " >= 4: 1.00)" in res.stdout
    res = runner.invoke(app, [*args, "--check"])
    assert res.exit_code == 1, res.output
    good = runner.invoke(app, ["cards", "analyze", "--cards", _catalogue(tmp_path, SMALL, "good.toml"),
                               "--trials", "20", "--check"])
    assert good.exit_code == 0, good.output
    assert 'Check "points rise with difficulty": PASS' in good.stdout


def test_out_of_band(tmp_path: Path) -> None:
    path = _catalogue(tmp_path, BANDS)
    cards, _ = cards_to_analyse("fuse", path)
    report = analyse(cards, "fuse", trials=40, seed=1)
    band = report.out_of_band()
    assert [(o.card.card.id, o.like) for o in band] == [("B5", 1)]
    assert band[0].own_mean == report.means()[2] and band[0].like_mean == report.means()[1]
    assert {r["id"]: r["measures_like"] for r in report.rows()} == {
        "B1": None, "B2": None, "B3": None, "B4": None, "B5": 1}
    res = runner.invoke(app, ["cards", "analyze", "--cards", path, "--trials", "40", "--seed", "1"],
                        env={"COLUMNS": "200"})
    assert "Out of band (1 of 5 bombs)" in res.stdout
    assert "B5 (designed) 2 pt, 1.00 rolls" in res.stdout and "measures like 1 pt" in res.stdout


@pytest.mark.parametrize("extra, needle", [
    (["--set", "epic"], "unknown card set"),
    (["--trials", "0"], "--trials"),
    (["--dice-per-roll", "0"], "--dice-per-roll"),
    (["--within", "0"], "--within"),
    (["--cards", "no/such/file.toml"], "cannot read file"),
    (["--plot", "no/such/dir/plot.png"], "cannot write the plot"),
    (["--trials", "many"], "--trials"),
])
def test_bad_input_one_line_exit_2(tmp_path: Path, extra: list[str], needle: str) -> None:
    args = ["cards", "analyze", "--cards", _catalogue(tmp_path, SMALL), "--trials", "5", *extra]
    res = runner.invoke(app, args)
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("fuse: error: ") and needle in lines[0], lines[0]
    assert "Traceback" not in res.output and res.stdout == ""


def test_split_die_card_with_fuse_dice_is_refused(tmp_path: Path) -> None:
    path = _catalogue(tmp_path, '[[bomb]]\nid = "Z1"\npoints = 1\nnotation = "S ?"\n')
    res = runner.invoke(app, ["cards", "analyze", "--cards", path, "--trials", "5"])
    assert res.exit_code == 2 and "--set countdown" in res.stderr and res.stderr.count("\n") == 1
