"""research/studies/gamefiles.py: a file of games reads back as written, file after file."""

from __future__ import annotations

from pathlib import Path

import pytest
from gamefiles import read_games


def test_games_read_back_in_order_across_files(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text('{"deal": 1, "won": true}\n\n{"deal": 2, "won": false}\n')
    b.write_text('{"deal": 3, "won": true}\n')
    assert [g["deal"] for g in read_games(str(a), str(b))] == [1, 2, 3]


def test_a_file_that_is_not_games_says_so(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    with pytest.raises(ValueError):
        list(read_games(str(bad)))
    with pytest.raises(OSError):
        list(read_games(str(tmp_path / "missing.jsonl")))
