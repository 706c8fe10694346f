"""Honest scores: the BDT Log says who played each seat (a person, a bot, or a person and then a
bot), marks chosen deals and untimed play, and ranks among the best only the games that people
played from start to end, timed and dealt at random, without hints and at a person's pace."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fusegame import GameConfig
from fusegame.record import GameRecord, final_state
from fusegame.server.app import create_app
from fusegame.server.options import RoomOptions
from fusegame.server.storage import PERSON, entry_from_state
from fusegame.sim import get_policy, play_game

pytestmark = pytest.mark.timeout(180)

Frame = dict[str, Any]


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app("sqlite://", rate_limits=None)) as c:
        yield c


def room(c: TestClient, **options: Any) -> str:
    r = c.post("/api/rooms", json={"difficulty": "training", "bot_delay_ms": 0, **options})
    assert r.status_code == 201, r.text
    return str(r.json()["code"])


def join(c: TestClient, code: str, name: str) -> str:
    return str(c.post(f"/api/rooms/{code}/join", json={"name": name}).json()["token"])


def play_to_the_end(ws: Any, seat: int) -> Frame:
    """A person who makes every move of their seat themselves (the first placement, else the first
    thing offered) until the game is over; returns the ``over`` frame."""
    acted_on, retry = -1, False
    latest: Frame | None = None
    while True:
        m: Frame = ws.receive_json()
        if m["type"] == "over":
            return m
        if m["type"] == "state":
            latest = m
        elif m["type"] == "error":
            assert m["code"] == "illegal" or m["reason"] == "over", m  # a die a bot took first
            retry = True
        if latest is None or (latest["seq"] <= acted_on and not retry):
            continue
        moves = latest["moves"]
        action = (moves["place"][0]["actions"][0] if moves["place"]
                  else moves["actions"][0]["action"] if moves["actions"] else None)
        if action is not None:
            ws.send_json({"type": "act", "action": action})
            acted_on, retry = latest["seq"], False


def logged(c: TestClient, log_id: int) -> Frame:
    entry: Frame = c.get(f"/api/log/{log_id}").json()
    return entry


def test_a_chosen_deal_handed_to_the_bot_is_marked_and_never_among_the_best(client: TestClient) -> None:
    # the old trick: choose the deal, make the bots instant, hand your own seat to the bot
    code = room(client, players=1, seed=11)
    token = join(client, code, "Ana")
    with client.websocket_connect(f"/ws/{code}?token={token}") as ws:
        ws.send_json({"type": "ready", "ready": True})
        ws.send_json({"type": "bot", "seat": 0, "on": True})
        over = next(m for m in iter(ws.receive_json, None) if m["type"] == "over")
    entry = logged(client, over["log_id"])
    assert entry["names"] == ["Ana"] and entry["played_by"] == ["person_then_bot"]
    assert entry["bots"] == 1 and entry["seeded"] is True and entry["ranked"] is False
    log = client.get("/api/log").json()
    assert log["total"] == 1 and log["best"] == []
    assert client.get("/api/log?ranked=true").json()["total"] == 0
    assert client.get("/api/log?seeded=true").json()["games"][0]["id"] == entry["id"]


def test_a_game_a_script_plays_at_once_is_not_ranked_whoever_it_claims_to_be(client: TestClient) -> None:
    # every move sent the moment it may be, "as a person": a whole solo game in about a second
    code = room(client, players=1)
    token = join(client, code, "Ana")
    with client.websocket_connect(f"/ws/{code}?token={token}") as ws:
        ws.send_json({"type": "ready", "ready": True})
        over = play_to_the_end(ws, 0)
    entry = logged(client, over["log_id"])
    assert entry["played_by"] == ["person"] and entry["bots"] == 0
    assert entry["seeded"] is False and entry["official"]
    assert entry["ranked"] is False  # no person places a die in less than a second, die after die
    # a bot's game stays out of the best too
    code = room(client, players=1)
    token = join(client, code, "Bo")
    with client.websocket_connect(f"/ws/{code}?token={token}") as ws:
        ws.send_json({"type": "ready", "ready": True})
        ws.send_json({"type": "bot", "seat": 0, "on": True})
        next(m for m in iter(ws.receive_json, None) if m["type"] == "over")
    log = client.get("/api/log").json()
    assert log["total"] == 2 and log["best"] == []
    assert client.get("/api/log?ranked=true").json()["games"] == []
    assert client.get("/api/log?bots=true").json()["games"][0]["names"] == ["Bo"]


def test_ranked_means_people_in_every_seat_at_a_person_s_pace_without_hints() -> None:
    # a solo game recorded at a table's pace (the simulator's: seconds a die)
    result = play_game(GameConfig(players=1), 5, get_policy("greedy"), record=True)
    assert result.record is not None
    state = final_state(result.record)
    person = {"played_by": [PERSON], "seeded": False}
    assert entry_from_state(state, result.record, ["Ann"], 0, {}, **person).ranked  # type: ignore[arg-type]
    # the same game in a room that gave hints: not ranked
    assert not entry_from_state(state, result.record, ["Ann"], 0, {"hints": True},
                                **person).ranked  # type: ignore[arg-type]
    # the very same moves, sent a hundred times faster: a script's pace, not a person's
    rec = result.record.to_dict()
    faster = [re.sub(r"@(\d+)$", lambda m: f"@{int(m.group(1)) // 100}", a) for a in rec["actions"]]
    fast = {**rec, "outcome": None, "actions": faster}
    quick = final_state(GameRecord.from_dict(fast))
    assert quick.outcome is not None and quick.outcome.won and quick.outcome.official
    assert not entry_from_state(quick, fast, ["Ann"], 0, {}, **person).ranked  # type: ignore[arg-type]


def test_a_bot_in_a_seat_from_the_lobby_marks_the_game(client: TestClient) -> None:
    code = room(client, players=2)
    token = join(client, code, "Ana")
    with client.websocket_connect(f"/ws/{code}?token={token}") as ws:
        ws.send_json({"type": "fill_bots"})
        ws.send_json({"type": "ready", "ready": True})
        over = play_to_the_end(ws, 0)
    entry = logged(client, over["log_id"])
    assert entry["played_by"] == ["person", "bot"] and entry["bots"] == 1 and not entry["ranked"]
    assert client.get("/api/log").json()["best"] == []


def test_a_seat_the_bot_took_over_after_its_player_left_is_marked(client: TestClient) -> None:
    lobby = client.app.state.lobby  # type: ignore[attr-defined]

    async def open_room() -> str:
        return str(lobby.open(RoomOptions(GameConfig(players=2, difficulty="training"), bot_delay_ms=0,
                                          leave_grace_s=0.2)).code)

    code = client.portal.call(open_room)  # type: ignore[union-attr]
    ta, tb = join(client, code, "Ana"), join(client, code, "Bo")
    with client.websocket_connect(f"/ws/{code}?token={ta}") as a:
        a.send_json({"type": "ready", "ready": True})
        with client.websocket_connect(f"/ws/{code}?token={tb}") as b:
            b.send_json({"type": "ready", "ready": True})
            next(m for m in iter(b.receive_json, None) if m["type"] == "state")
        over = play_to_the_end(a, 0)  # Bo has gone; a bot plays his seat once the grace period is over
    entry = logged(client, over["log_id"])
    assert entry["played_by"] == ["person", "person_then_bot"] and entry["bots"] == 1
    assert not entry["ranked"]


def test_untimed_practice_is_marked_and_not_ranked(client: TestClient) -> None:
    code = room(client, players=1, timed=False)
    token = join(client, code, "Ana")
    with client.websocket_connect(f"/ws/{code}?token={token}") as ws:
        ws.send_json({"type": "ready", "ready": True})
        over = play_to_the_end(ws, 0)
    entry = logged(client, over["log_id"])
    assert entry["played_by"] == ["person"] and not entry["official"] and not entry["ranked"]
    assert client.get("/api/log?official=false").json()["total"] == 1
    assert client.get("/api/log").json()["best"] == []
