"""The state frame benchmark, run at its smallest: every table shape it names is played, every
position timed, and the frame's figures are those of its parts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "frame_time.py"


def test_every_shape_is_timed_position_by_position() -> None:
    out = subprocess.run([sys.executable, str(BENCH), "--games", "1", "--json"],
                         capture_output=True, text=True, timeout=300, check=True)
    result = json.loads(out.stdout)
    assert set(result) == {"FUSE 4 players", "FUSE 5 players", "FUSE 4, roles and sparks",
                           "Countdown 4 players"}
    for shape, r in result.items():
        assert r["positions"] > 1, shape
        parts = sum(r[k]["mean"] for k in ("view_us", "moves_us", "encode_us"))
        assert abs(r["frame_us"]["mean"] - parts) < 1e-6 * max(1.0, parts), shape
        assert all(r[k]["mean"] > 0 for k in ("view_us", "moves_us", "encode_us")), shape
        # a four- or five-seat table's view: a few kilobytes, as a state frame carries it
        assert 1_000 < r["frame_bytes"] < 50_000, shape


def test_a_games_count_below_one_is_refused_with_a_message() -> None:
    out = subprocess.run([sys.executable, str(BENCH), "--games", "0"], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 2
    assert "--games must be at least 1" in out.stderr and "Traceback" not in out.stderr
