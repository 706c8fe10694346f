"""The WebSocket load benchmark, run at a tiny size: it plays real matches against a server it
starts itself, reports sane figures, and stops that server when it is done."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "ws_latency.py"


@pytest.fixture(scope="module")
def result() -> dict:
    out = subprocess.run(
        [sys.executable, str(BENCH), "--players", "8", "--per-match", "4", "--duration", "4",
         "--think", "0.05-0.3", "--ramp", "200", "--seed", "3", "--bot-rooms", "1", "--bot-delay-ms", "50",
         "--json"],
        capture_output=True, text=True, timeout=120, check=True)
    return json.loads(out.stdout)


def test_every_player_is_seated_and_connected(result: dict) -> None:
    assert (result["players"], result["matches"], result["per_match"]) == (8, 2, 4)
    assert result["connected"] == 8
    assert result["dropped_sockets"] == 0 and result["failed_matches"] == 0


def test_claims_are_answered_and_timed(result: dict) -> None:
    assert result["claims"] > 0 and result["actions"] >= result["claims"]
    claim, fanout = result["claim_ms"], result["fanout_ms"]
    # every answered claim is timed; only the legal ones reach the other players
    assert 0 < claim["n"] <= result["claims"]
    assert 0 < fanout["n"] <= claim["n"]
    for lat in (claim, fanout):
        if lat["n"]:
            assert 0 < lat["p50"] <= lat["p90"] <= lat["p99"] <= lat["max"] < 10_000
    assert 0 <= result["lost_races"] <= result["illegal"]
    assert result["frames_per_s"] > result["claims_per_s"] > 0


def test_a_room_of_bots_plays_beside_the_players(result: dict) -> None:
    assert (result["bot_rooms"], result["bot_delay_ms"], result["bot_failures"]) == (1, 50, 0)
    # the window opened once its bots were moving (the planner's process starts with them)
    assert result["bots_start_s"] >= result["ramp_s"]
    assert result["bot_moves_per_s"] > 0


def test_cpu_is_reported_per_match_and_per_claim(result: dict) -> None:
    cpu = result["server_cpu"]
    assert cpu is not None and cpu["seconds"] >= 0
    assert cpu["ms_per_match_per_s"] == pytest.approx(cpu["cores"] / 2 * 1000, rel=0.05, abs=0.01)
    assert result["generator_cpu"]["cores"] >= 0


def test_the_server_it_started_is_stopped(result: dict) -> None:
    with pytest.raises(httpx.TransportError):
        httpx.get(f"{result['url']}/api/health", timeout=2)
