"""The browser game's server over HTTP and WebSockets: lobby, match pipeline, bad input, bots,
reconnects, the BDT Log and its replays (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import websockets
from fastapi.testclient import TestClient

from fusegame import GameConfig, Place, new_game
from fusegame.record import GameRecord, final_state
from fusegame.rules.actions import Action, with_time
from fusegame.scenario import scenario_from_data
from fusegame.server.app import create_app
from fusegame.server.options import RoomOptions, parse_options
from fusegame.server.room import Room, moves_by_seat
from liveserver import live_server
from pgserver import postgres_url  # noqa: F401

pytestmark = pytest.mark.timeout(120)

Frame = dict[str, Any]


@pytest.fixture
def client() -> Iterator[TestClient]:
    # these tests create rooms far faster than people do; the limits have tests of their own
    with TestClient(create_app("sqlite://", rate_limits=None)) as c:
        yield c


def new_room(c: TestClient, **options: Any) -> str:
    r = c.post("/api/rooms", json={"players": 2, "difficulty": "training", "bot_delay_ms": 0, "seed": 11,
                                   **options})
    assert r.status_code == 201, r.text
    return str(r.json()["code"])


def join(c: TestClient, code: str, name: str, seat: int | None = None) -> str:
    r = c.post(f"/api/rooms/{code}/join", json={"name": name, "seat": seat})
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def until(ws: Any, pred: Callable[[Frame], bool], limit: int = 3000) -> Frame:
    """Read frames until one satisfies ``pred`` (a bounded number, so a broken server fails)."""
    for _ in range(limit):
        m: Frame = ws.receive_json()
        if pred(m):
            return m
    raise AssertionError("the awaited frame never came")


def is_type(kind: str) -> Callable[[Frame], bool]:
    return lambda m: m["type"] == kind


def first_state(ws: Any) -> Frame:
    return until(ws, is_type("state"))


# ====================================================================== HTTP lobby
def test_options_offer_every_game_setting(client: TestClient) -> None:
    o = client.get("/api/options").json()
    assert o["games"] == ["fuse", "countdown", "integrated", "epic"]
    assert "insane" in o["difficulties"] and "heroic" in o["difficulties"]
    assert set(o["modules"]) == {"roles", "bombs", "fuses", "sparks", "split-dice"}
    assert o["players"]["epic"] == {"min": 6, "max": 9}
    assert o["defaults"]["timed"] is True and o["defaults"]["hints"] is False
    # the counts of fuse cards each game allows, so that the form offers no impossible one
    assert o["fuse_cards"]["fuse"]["standard"] == {"min": 0, "max": 11}
    assert o["fuse_cards"]["countdown"]["standard"] == {"min": 0, "max": 0}
    assert o["fuse_cards"]["countdown"]["expert"] == {"min": 1, "max": 10}
    for game, levels in o["fuse_cards"].items():
        for level, r in levels.items():
            body = {"game": game, "difficulty": level, "fuse_cards": r["max"],
                    "players": o["players"][game]["min"]}
            assert client.post("/api/rooms", json=body).status_code == 201, body


@pytest.mark.parametrize(("body", "words"), [
    ({"players": 7}, "players"),
    ({"game": "countdown", "players": 5}, "players"),
    ({"difficulty": "impossible"}, "difficulty"),
    ({"modules": ["dragons"]}, "modules"),
    ({"colour": "red"}, "unknown option"),
    ({"game": "countdown", "modules": ["roles"]}, "modules"),
    ({"bot_delay_ms": -5}, "bot_delay_ms"),
    ({"timed": "yes"}, "timed"),
])
def test_bad_room_options_get_one_readable_line(client: TestClient, body: dict[str, Any], words: str) -> None:
    r = client.post("/api/rooms", json=body)
    assert r.status_code == 422
    detail = r.json()["detail"]
    assert isinstance(detail, str) and words in detail and "\n" not in detail


def test_malformed_and_oversized_bodies_are_refused(client: TestClient) -> None:
    r = client.post("/api/rooms", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "JSON" in r.json()["detail"]
    r = client.post("/api/rooms", content=b"[" + b"1," * 40000 + b"1]")
    assert r.status_code == 413
    r = client.get("/api/log?players=many")
    assert r.status_code == 422 and "players" in r.json()["detail"]


def test_room_codes_and_seats(client: TestClient) -> None:
    code = new_room(client, players=2)
    assert len(code) == 12 and code.isalnum()
    room = client.get(f"/api/rooms/{code.lower()}").json()["room"]
    assert [s["kind"] for s in room["seats"]] == ["open", "open"]
    assert room["title"] == "FUSE" and room["status"] == "lobby"
    r = client.post(f"/api/rooms/{code}/join", json={"name": "Ana", "seat": 1})
    assert r.json()["seat"] == 1 and len(r.json()["token"]) >= 16

    def refusal(body: dict[str, Any]) -> tuple[int, str, dict[str, Any]]:
        """A refused join: its status, and the reason and facts a page words it from."""
        r = client.post(f"/api/rooms/{code}/join", json=body)
        return r.status_code, r.json()["reason"], r.json()["params"]

    assert refusal({"name": "Bo", "seat": 1}) == (409, "seat_taken", {"seat": 1})
    assert refusal({"name": "  "}) == (422, "name", {"max": 24})
    assert refusal({"name": "Bo", "seat": 7}) == (422, "no_seat", {"seat": 7})
    assert client.post(f"/api/rooms/{code}/join", json={"name": "Bo"}).json()["seat"] == 0
    full = client.post(f"/api/rooms/{code}/join", json={"name": "Cy"})
    assert full.status_code == 409 and "watch" in full.json()["detail"] and full.json()["reason"] == "full"


def test_unknown_rooms_are_clear_errors(client: TestClient) -> None:
    r = client.get("/api/rooms/ZZZZZ")
    assert r.status_code == 404 and "ZZZZZ" in r.json()["detail"]
    assert client.post("/api/rooms/ZZZZZ/join", json={"name": "A"}).status_code == 404
    with client.websocket_connect("/ws/ZZZZZ") as ws:
        m = ws.receive_json()
        assert m["type"] == "error" and m["code"] == "unknown_room"


# ====================================================================== playing together
def test_two_players_place_dice_together_and_a_spectator_watches(client: TestClient) -> None:
    code = new_room(client)
    ta, tb = join(client, code, "Ana"), join(client, code, "Bo")
    with client.websocket_connect(f"/ws/{code}?token={ta}") as a, \
            client.websocket_connect(f"/ws/{code}?token={tb}") as b, \
            client.websocket_connect(f"/ws/{code}") as watcher:
        assert until(a, is_type("welcome"))["seat"] == 0
        assert until(b, is_type("welcome"))["seat"] == 1
        assert until(watcher, is_type("welcome"))["seat"] is None
        a.send_json({"type": "ready", "ready": True})
        b.send_json({"type": "ready", "ready": True})
        sa, sb, sw = first_state(a), first_state(b), first_state(watcher)
        # the roll appears for everyone at once: the same frame, each with their own moves
        assert sa["seq"] == sb["seq"] == sw["seq"] == 1
        assert sa["view"] == sb["view"] == sw["view"]
        rolled = sa["events"][0]
        assert rolled["kind"] == "dice_rolled" and sa["clock"]["running"]
        # events are facts for the page to word: dice as the table shows them, no English line
        assert rolled["dice"] == [{k: d[k] for k in ("id", "die", "colours", "face", "as")}
                                  for d in sa["view"]["rolled"]]
        assert "text" not in rolled
        assert sw["moves"] == {"place": [], "actions": []}
        assert sa["moves"]["actions"] == [{"verb": "done", "kind": "done", "action": "done", "die": None,
                                           "card": None, "value": None}]
        mine = {c["id"] for c in sa["view"]["hands"][0]["cards"]}
        assert sa["moves"]["place"] and all(p["card"] in mine for p in sa["moves"]["place"])
        p = sa["moves"]["place"][0]
        a.send_json({"type": "act", "action": p["actions"][0]})
        for ws in (a, b, watcher):
            s = first_state(ws)
            assert s["seq"] == 2
            placed = [e for e in s["events"] if e["kind"] == "die_placed"]
            assert placed and placed[0]["seat"] == 0 and placed[0]["card"] == p["card"]
            assert placed[0]["slot"] == p["slots"][0] and placed[0]["die"]["id"] == p["die"]
            card = next(c for c in s["view"]["hands"][0]["cards"] if c["id"] == p["card"])
            assert card["dice"][p["slots"][0]]["id"] == p["die"]
        # chat and quick signals reach everyone, with the sender's name
        b.send_json({"type": "signal", "signal": "need", "die": p["die"]})
        b.send_json({"type": "chat", "text": "  I   need a six  "})
        for ws in (a, watcher):
            sig = until(ws, is_type("signal"))
            assert (sig["name"], sig["signal"], sig["die"]) == ("Bo", "need", p["die"])
            assert until(ws, is_type("chat"))["text"] == "I need a six"


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 10])
def test_moves_list_every_legal_action_as_data_beside_the_text_to_send(seed: int) -> None:
    # Countdown's roles: these deals offer rethrow, flip, recolour, name and renumber at the start
    state = new_game(parse_options({"game": "countdown", "players": 2, "seed": seed}).config, seed)
    verbs = set()
    for seat, moves in moves_by_seat(state).items():
        listed: list[Action] = []
        for p in moves["place"]:
            assert len(p["slots"]) == len(p["actions"])
            for slot, text in zip(p["slots"], p["actions"], strict=True):
                a = Action.parse(f"p{seat} {text}")
                assert a == Place(seat, None, die=p["die"], card=p["card"], slot=slot)
                listed.append(a)
        for entry in moves["actions"]:
            a = Action.parse(f"p{seat} {entry['action']}")
            assert entry["verb"] == entry["kind"] == a.verb
            # the fields say the same action as the text the page sends back
            assert Action.from_data({**entry, "seat": seat, "at": None}) == a
            assert {k: v for k, v in a.to_data().items() if k not in ("seat", "at")}.items() <= entry.items()
            listed.append(a)
            verbs.add(a.verb)
        legal = [with_time(a, None) for a in state.legal_actions(seat)]
        assert sorted(map(str, listed)) == sorted(map(str, legal))
    assert verbs & {"rethrow", "flip", "recolour", "name", "renumber"}


def test_bad_messages_get_an_error_and_the_match_goes_on(client: TestClient) -> None:
    code = new_room(client)
    ta = join(client, code, "Ana")
    with client.websocket_connect(f"/ws/{code}?token={ta}") as a, \
            client.websocket_connect(f"/ws/{code}") as watcher:
        a.send_json({"type": "act", "action": "done"})
        early = until(a, is_type("error"))
        assert (early["code"], early["reason"]) == ("not_now", "not_playing")  # the game has not started
        a.send_json({"type": "bot", "seat": 1, "on": True})
        a.send_json({"type": "ready", "ready": True})
        s = first_state(a)

        def error_for(payload: str) -> Frame:
            a.send_text(payload)
            return until(a, is_type("error"))

        assert error_for("{oops")["code"] == "bad_message"
        assert error_for("[1, 2]")["code"] == "bad_message"
        assert error_for('{"type": "dance"}')["code"] == "bad_message"
        assert error_for(json.dumps({"type": "chat", "text": "x" * 5000}))["code"] == "too_large"
        assert error_for('{"type": "act", "action": "done @5"}')["code"] == "bad_message"
        assert error_for('{"type": "act", "action": "p1 done"}')["code"] == "bad_message"
        assert error_for('{"type": "act", "action": "place d99 F01 s1"}')["code"] == "illegal"
        assert error_for('{"type": "act", "action": "take F01"}')["code"] == "illegal"
        assert error_for('{"type": "signal", "signal": "panic"}')["code"] == "bad_message"
        free_die = s["view"]["unplaced"][0]
        theirs = s["view"]["hands"][1]["cards"][0]["id"]
        illegal = error_for(json.dumps({"type": "act", "action": f"place d{free_die} {theirs} s1"}))
        assert illegal["code"] == "illegal" and "not one of your cards" in illegal["message"]
        # the refusal's reason code and facts come too, for a client to say it in its own words
        assert illegal["reason"] == "not_your_card" and illegal["params"] == {"card": theirs}
        missing = error_for('{"type": "act", "action": "place d99 F01 s1"}')
        assert missing["reason"] == "die_not_available" and missing["params"] == {"die_id": 99}
        watcher.send_json({"type": "act", "action": "done"})
        assert until(watcher, is_type("error"))["code"] == "not_seated"
        # nothing was applied by any of that (the bot in seat 1 may play meanwhile: its frames say
        # nothing of seat 0), and a valid action still is
        a.send_json({"type": "ping"})
        for _ in range(100):
            m = a.receive_json()
            if m["type"] == "pong":
                break
            if m["type"] == "state":
                assert [e for e in m["events"] if e.get("seat") == 0] == [], "a refused message was applied"
        else:
            raise AssertionError("no pong came")
        a.send_json({"type": "act", "action": "done"})
        nxt = until(a, lambda m: m["type"] == "state" and any(e["kind"] == "seat_done" for e in m["events"]))
        assert nxt["seq"] > s["seq"]


def test_full_game_against_bots_is_logged_and_replays(client: TestClient) -> None:
    code = new_room(client, players=3, difficulty="standard")
    ta = join(client, code, "Ana")
    with client.websocket_connect(f"/ws/{code}?token={ta}") as a:
        a.send_json({"type": "fill_bots"})
        room = until(a, lambda m: m["type"] == "room"
                     and all(s["kind"] != "open" for s in m["room"]["seats"]))
        assert [s["name"] for s in room["room"]["seats"]] == ["Ana", "Bot 2", "Bot 3"]
        a.send_json({"type": "ready", "ready": True})
        first_state(a)
        a.send_json({"type": "bot", "seat": 0, "on": True})  # the team planner plays Ana's seat too
        over = until(a, is_type("over"), limit=20000)
    assert over["log_id"] is not None
    log = client.get("/api/log").json()
    assert log["total"] == 1
    entry = log["games"][0]
    assert entry["id"] == over["log_id"] and entry["names"] == ["Ana", "Bot 2", "Bot 3"]
    assert entry["won"] == over["outcome"]["won"]
    assert entry["score"]["total"] == over["outcome"]["score"]["total"]
    # Ana handed her seat to the bot: three seats had a bot, and the game is not ranked
    assert entry["bots"] == 3 and entry["played_by"] == ["person_then_bot", "bot", "bot"]
    assert entry["difficulty"] == "standard" and entry["official"] and not entry["ranked"]
    assert client.get(f"/api/log?won={str(not entry['won']).lower()}").json()["total"] == 0
    assert client.get("/api/log?players=3").json()["total"] == 1
    full = client.get(f"/api/log/{entry['id']}").json()
    rec = GameRecord.from_dict(full["record"])
    assert final_state(rec).outcome is not None and final_state(rec).outcome.to_dict() == over["outcome"]
    steps = client.get(f"/api/log/{entry['id']}/replay").json()
    assert steps["count"] == len(rec.actions) + 1 and steps["steps"][0]["action"] is None
    assert steps["steps"][0]["act"] is None
    for st, action in zip(steps["steps"][1:], rec.actions, strict=True):
        # each step's action as text and as data, the same action
        assert Action.parse(st["action"]) == Action.from_data(st["act"]) == action
        assert all("text" not in e for e in st["events"])
    kinds = {e["kind"] for st in steps["steps"] for e in st["events"]}
    ending = "game_won" if over["outcome"]["won"] else "game_lost"
    assert {"die_placed", "bomb_defused", "dice_rolled", ending} <= kinds
    # the end screen's pace picture: the replay's pace and its last moment, without the steps
    pace = client.get(f"/api/log/{entry['id']}/pace").json()
    assert pace == {"pace": steps["pace"], "end_ms": steps["steps"][-1]["time_ms"]}
    assert pace["pace"]["taken"][-1][1] == pace["pace"]["needed"] - final_state(rec).bombs_in_middle()
    last = client.get(f"/api/log/{entry['id']}/replay/{len(rec.actions)}").json()["view"]
    assert last["outcome"] == over["outcome"]
    assert client.get(f"/api/log/{entry['id']}/replay/{len(rec.actions) + 1}").status_code == 404
    assert client.get("/api/log/999").status_code == 404


def test_hints_come_with_every_state_when_on(client: TestClient) -> None:
    code = new_room(client, hints=True, players=1)
    ta = join(client, code, "Ana")
    with client.websocket_connect(f"/ws/{code}?token={ta}") as a:
        a.send_json({"type": "ready", "ready": True})
        first = first_state(a)
        # the planner thinks off the event loop: the change goes out at once, and its hints in a
        # frame of the same seq, without the events again, as soon as they are known
        s = first if first["hints"] else until(a, is_type("state"))
        assert (s["seq"], s["view"]) == (first["seq"], first["view"])
        assert s is first or (first["hints"] == [] and s["events"] == [] and first["events"])
        h = s["hints"][0]
        assert h["seat"] == 0 and h["kind"] == "distribute"
        # the advice is facts for the page to word in its own language, the action is data
        assert h["advice"]["kind"] in ("place", "done")
        assert Action.from_data(h["act"]) == Action.parse(h["action"])
        if h["advice"]["kind"] == "place":
            die = next(d for d in s["view"]["rolled"] if d["id"] == h["act"]["die"])
            assert h["advice"]["die"] == {k: die[k] for k in ("id", "die", "colours", "face", "as")}
            assert (h["advice"]["card"]["id"], h["advice"]["slot"]) == (h["act"]["card"], h["act"]["slot"])
        texts = [text for p in s["moves"]["place"] for text in p["actions"]]
        texts += [x["action"] for x in s["moves"]["actions"]]
        legal = [with_time(Action.parse(f"p0 {text}"), None) for text in texts]
        assert with_time(Action.from_data(h["act"]), None) in legal


# ====================================================================== leaving and coming back
def test_reload_returns_the_player_to_their_seat(client: TestClient) -> None:
    code = new_room(client)
    ta, tb = join(client, code, "Ana"), join(client, code, "Bo")
    with client.websocket_connect(f"/ws/{code}?token={tb}") as b:
        b.send_json({"type": "ready", "ready": True})
        with client.websocket_connect(f"/ws/{code}?token={ta}") as a:
            a.send_json({"type": "ready", "ready": True})
            seq = first_state(a)["seq"]
        # Ana's page reloads: her seat waits for her and Bo sees her gone
        gone = until(b, lambda m: m["type"] == "room" and m["room"]["status"] == "playing"
                     and not m["room"]["seats"][0]["connected"])
        assert gone["room"]["seats"][0]["name"] == "Ana"
        with client.websocket_connect(f"/ws/{code}?token={ta}") as a2:
            w = until(a2, is_type("welcome"))
            assert (w["seat"], w["name"]) == (0, "Ana")
            back = first_state(a2)
            assert back["seq"] == seq and back["moves"]["place"]


def test_a_person_who_left_the_lobby_can_be_replaced_by_a_bot(client: TestClient) -> None:
    code = new_room(client)
    ta, tb = join(client, code, "Ana"), join(client, code, "Bo")
    with client.websocket_connect(f"/ws/{code}?token={ta}") as a:
        with client.websocket_connect(f"/ws/{code}?token={tb}") as b:
            until(b, is_type("welcome"))
            a.send_json({"type": "bot", "seat": 1, "on": True})
            taken = until(a, is_type("error"))  # Bo is here
            assert (taken["code"], taken["reason"], taken["params"]) == ("not_now", "seat_taken", {"seat": 1})
        until(a, lambda m: m["type"] == "room" and not m["room"]["seats"][1]["connected"])
        a.send_json({"type": "bot", "seat": 1, "on": True})
        room = until(a, lambda m: m["type"] == "room" and m["room"]["seats"][1]["kind"] == "bot")
        assert room["room"]["seats"][1]["name"] == "Bot 2"
        a.send_json({"type": "ready", "ready": True})
        assert first_state(a)["seq"] == 1
    with client.websocket_connect(f"/ws/{code}?token={tb}") as b:  # Bo's old token: now a spectator
        assert until(b, is_type("welcome"))["seat"] is None


def test_a_bot_takes_over_for_a_player_who_left_and_hands_back(client: TestClient) -> None:
    code = new_room(client)
    ta, tb = join(client, code, "Ana"), join(client, code, "Bo")
    with client.websocket_connect(f"/ws/{code}?token={ta}") as a:
        a.send_json({"type": "ready", "ready": True})
        with client.websocket_connect(f"/ws/{code}?token={tb}") as b:
            b.send_json({"type": "ready", "ready": True})
            first_state(b)
            a.send_json({"type": "bot", "seat": 1, "on": True})
            here = until(a, is_type("error"))  # Bo is still here
            assert (here["code"], here["reason"], here["params"]) == ("not_now", "still_here",
                                                                      {"seat": 1, "name": "Bo"})
        until(a, lambda m: m["type"] == "room" and not m["room"]["seats"][1]["connected"])
        a.send_json({"type": "bot", "seat": 1, "on": True})
        until(a, lambda m: m["type"] == "room" and m["room"]["seats"][1]["autoplay"])
        # the bot now plays Bo's seat: it says done or places a die without Bo
        until(a, lambda m: m["type"] == "state" and any(e.get("seat") == 1 for e in m["events"]))
        with client.websocket_connect(f"/ws/{code}?token={tb}") as b2:
            assert until(b2, is_type("welcome"))["room"]["seats"][1]["autoplay"] is False


def test_a_player_gone_for_the_grace_period_is_replaced_by_a_bot(client: TestClient) -> None:
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    options = RoomOptions(GameConfig(players=2), bot_delay_ms=0, seed=3, leave_grace_s=0.3)
    code = client.portal.call(_open_room, lobby, options)  # type: ignore[union-attr]
    ta, tb = join(client, code, "Ana"), join(client, code, "Bo")
    with client.websocket_connect(f"/ws/{code}?token={ta}") as a:
        a.send_json({"type": "ready", "ready": True})
        with client.websocket_connect(f"/ws/{code}?token={tb}") as b:
            b.send_json({"type": "ready", "ready": True})
            first_state(b)
        t0 = time.monotonic()
        room = until(a, lambda m: m["type"] == "room" and m["room"]["seats"][1]["autoplay"])
        assert time.monotonic() - t0 >= 0.25 and not room["room"]["seats"][1]["connected"]
        assert not room["room"]["seats"][0]["autoplay"]  # Ana is here: her seat stays hers


def test_time_runs_out_on_the_server_clock(client: TestClient) -> None:
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    code = client.portal.call(  # type: ignore[union-attr]
        _open_room, lobby, RoomOptions(GameConfig(players=1, time_limit=1), bot_delay_ms=0, seed=3))
    ta = join(client, code, "Ana")
    with client.websocket_connect(f"/ws/{code}?token={ta}") as a:
        a.send_json({"type": "ready", "ready": True})
        assert first_state(a)["clock"]["left_ms"] <= 1000
        t0 = time.monotonic()
        over = until(a, is_type("over"))
        assert time.monotonic() - t0 < 5
    assert over["outcome"]["reason"] == "time-up" and not over["outcome"]["won"]
    assert client.get(f"/api/log/{over['log_id']}").json()["reason"] == "time-up"


async def _open_room(lobby: Any, options: RoomOptions) -> str:
    return str(lobby.open(options).code)


async def _start_from(lobby: Any, code: str, scenario: dict[str, Any]) -> None:
    lobby.rooms[code].start(scenario_from_data(scenario))


def test_an_open_penalty_choice_is_made_at_random_after_the_timeout(client: TestClient) -> None:
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    options = RoomOptions(GameConfig(players=2), bot_delay_ms=0, seed=3, choice_timeout_s=0.3)
    code = client.portal.call(_open_room, lobby, options)  # type: ignore[union-attr]
    ta, tb = join(client, code, "Ana"), join(client, code, "Bo")
    scenario = {
        "config": {"players": 2, "difficulty": "standard"},
        "players": [[{"id": "F32", "dice": ["R1", "G2", "B3", "Y4"]}, {"notation": "? ? ?", "dice": ["R5"]}],
                    ["F20"]],
        "row": ["F01", "F02", "F03", "F04", "F05"], "deck": ["F06", "F07"],
        "fuses_activated": ["fuse:R"], "rolled": ["G6"], "removals": {0: ["R1", "R5"]},
        "removal_reason": "fuse card R", "time_left": 380}
    with client.websocket_connect(f"/ws/{code}?token={ta}") as a, \
            client.websocket_connect(f"/ws/{code}?token={tb}"):
        client.portal.call(_start_from, lobby, code, scenario)  # type: ignore[union-attr]
        s = first_state(a)
        fuse = {"kind": "fuse", "card": s["view"]["fuses_activated"][0]["id"], "shows": ["R"]}
        assert s["view"]["removal_cause"] == fuse  # why the dice must go, for the page to word
        cards = s["view"]["hands"][0]["cards"]
        reds = [d["id"] for c in cards for d in c["dice"] if d and d["colours"] == "R"]
        assert [(x["verb"], x["die"], x["action"]) for x in s["moves"]["actions"]] == [
            ("give", d, f"give d{d}") for d in reds]
        assert 0 < s["choices"]["0"] <= 300 and "1" not in s["choices"]  # the deadline, for the page
        t0 = time.monotonic()
        gave = until(a, lambda m: m["type"] == "state"
                     and any(e["kind"] == "die_returned" for e in m["events"]))
        assert 0.25 <= time.monotonic() - t0 < 5
        returned = gave["events"][0]
        assert returned["seat"] == 0 and returned["die"]["colours"] == "R" and returned["cause"] == fuse


@pytest.mark.parametrize("rolled", [True, False])
def test_the_first_frame_tells_the_first_roll_only_when_there_are_dice(client: TestClient,
                                                                       rolled: bool) -> None:
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    code = client.portal.call(  # type: ignore[union-attr]
        _open_room, lobby, RoomOptions(GameConfig(players=1), bot_delay_ms=0, seed=3))
    ta = join(client, code, "Ana")
    scenario: dict[str, Any] = {"config": {"players": 1}, "players": [["F20", "F14"]],
                                "row": ["F01", "F02", "F03", "F04", "F05"], "deck": ["F06", "F07"]}
    if rolled:
        scenario["rolled"] = ["G6", "B2"]
    with client.websocket_connect(f"/ws/{code}?token={ta}") as a:
        client.portal.call(_start_from, lobby, code, scenario)  # type: ignore[union-attr]
        s = first_state(a)
        rolls = [e for e in s["events"] if e["kind"] == "dice_rolled"]
        if rolled:
            assert [sorted(d["face"] for d in e["dice"]) for e in rolls] == [[2, 6]]
        else:  # the leader has not rolled yet: no "Ana rolls" with nothing after it
            assert s["view"]["phase"] == "roll" and rolls == []


# ====================================================================== cards and tutorial
def test_cards_are_served_as_svg_and_as_a_printable_page(client: TestClient) -> None:
    r = client.get("/api/cards/F12.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert 'data-card="F12"' in r.text and r.text.count('class="slot"') == 3
    assert client.get("/api/cards/NOPE.svg").status_code == 404
    assert 'data-card="T1"' in client.get("/api/cards/T1.svg").text  # a tutorial lesson's own card
    page = client.get("/cards?set=fuse")
    assert page.status_code == 200 and "F54" in page.text and "<svg" in page.text
    assert client.get("/cards?set=chess").status_code == 422


def test_the_tutorial_checks_each_move_with_the_engine(client: TestClient) -> None:
    en = client.get("/api/tutorial").json()["lessons"]
    es = client.get("/api/tutorial?lang=es").json()["lessons"]
    assert [x["id"] for x in en] == [x["id"] for x in es] and len(en) >= 5
    assert en[0]["title"] == "Dice and slots" and es[0]["title"] == "Dados y casillas"
    first = en[0]
    red = next(d["id"] for d in first["view"]["rolled"] if d["die"].startswith("R"))
    blue = next(d["id"] for d in first["view"]["rolled"] if d["die"].startswith("B"))
    right = client.post("/api/tutorial/place/try", json={"action": f"place d{red} T1 s1"}).json()
    assert right["ok"] and right["events"][0]["kind"] == "die_placed"
    assert right["action"] == f"place d{red} T1 s1"
    assert {k: right["act"][k] for k in ("verb", "seat", "die", "card", "slot")} == {
        "verb": "place", "seat": 0, "die": red, "card": "T1", "slot": 0}
    # the lesson's moves give the text the page sends for that placement
    assert any(p["die"] == red and p["card"] == "T1" and p["actions"][p["slots"].index(0)] == right["action"]
               for p in first["moves"]["place"])
    legal_other = client.post("/api/tutorial/place/try", json={"action": f"place d{blue} T1 s2"}).json()
    assert not legal_other["ok"] and "red" in legal_other["message"]
    wrong = client.post("/api/tutorial/place/try?lang=es", json={"action": f"place d{blue} T1 s1"}).json()
    # the engine's refusal in the page's language, from its reason code and facts
    assert not wrong["ok"] and "no puede ir" in wrong["message"] and wrong["reason"] == "slot_icon"
    assert wrong["params"]["card"] == "T1" and wrong["params"]["slot"] == 0
    assert client.post("/api/tutorial/nope/try", json={"action": "done"}).status_code == 404
    done = client.post("/api/tutorial/done/try?lang=es", json={"action": "done"}).json()
    assert done["ok"] and "terminas" in done["message"]


def test_every_lesson_can_be_solved_and_countdown_has_lessons_of_its_own(client: TestClient) -> None:
    en = client.get("/api/tutorial").json()["lessons"]
    es = client.get("/api/tutorial?lang=es").json()["lessons"]
    # the leader's role, naming, sparks, split dice and the fuse cards with words
    assert {"countdown-role", "countdown-naming", "countdown-sparks", "countdown-split",
            "countdown-roll-six"} <= {lesson["id"] for lesson in en}
    for a, b in zip(en, es, strict=True):
        assert a["title"] != b["title"] and a["text"] != b["text"] and a["goal"] != b["goal"], a["id"]
        moves = [m for p in a["moves"]["place"] for m in p["actions"]]
        moves += [m["action"] for m in a["moves"]["actions"]]
        solved = [m for m in moves
                  if client.post(f"/api/tutorial/{a['id']}/try", json={"action": m}).json()["ok"]]
        assert solved, (a["id"], moves)
        # and not every move, where the lesson asks for one of several (any colour may be named)
        if a["id"] not in ("countdown-naming", "countdown-roll-six", "done"):
            assert len(solved) < len(moves), (a["id"], solved)


def test_the_client_is_served_from_the_package(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and "<html" in r.text.lower()


# ====================================================================== real sockets
async def _race(base: str, rounds: int) -> list[tuple[int, int]]:
    """Two players claim the same die at the same moment, ``rounds`` times; returns (wins, errors)
    per round."""
    ws_base = base.replace("http", "ws")
    async with httpx.AsyncClient(base_url=base) as http:
        code = (await http.post("/api/rooms", json={"players": 2, "difficulty": "training",
                                                     "seed": _shared_die_seed()})).json()["code"]
        tokens = [(await http.post(f"/api/rooms/{code}/join", json={"name": n})).json()["token"]
                  for n in ("Ana", "Bo")]
    socks = [await websockets.connect(f"{ws_base}/ws/{code}?token={t}") for t in tokens]
    latest: list[Frame] = [{}, {}]

    async def state_of(i: int, after: int) -> Frame:
        while True:
            m = json.loads(await socks[i].recv())
            if m["type"] == "state":
                latest[i] = m
                if m["seq"] > after:
                    return m

    for s in socks:
        await s.send(json.dumps({"type": "ready", "ready": True}))
    await asyncio.gather(state_of(0, 0), state_of(1, 0))
    results = []
    for _ in range(rounds):
        a, b = latest
        both = {p["die"] for p in a["moves"]["place"]} & {p["die"] for p in b["moves"]["place"]}
        if not both:
            break
        die = min(both)
        claims = []
        for frame in (a, b):
            p = next(x for x in frame["moves"]["place"] if x["die"] == die)
            claims.append(json.dumps({"type": "act",
                                      "action": f"place d{die} {p['card']} s{p['slots'][0] + 1}"}))
        await asyncio.gather(socks[0].send(claims[0]), socks[1].send(claims[1]))
        answers = []
        for i in (0, 1):  # each claimer's answer: the state placing its die, or an error
            while True:
                m = json.loads(await socks[i].recv())
                if m["type"] == "state":
                    latest[i] = m
                    if any(e["kind"] == "die_placed" and e["seat"] == i for e in m["events"]):
                        answers.append(m)
                        break
                elif m["type"] == "error":
                    answers.append(m)
                    break
        placed = [e for m in answers if m["type"] == "state"
                  for e in m["events"] if e["kind"] == "die_placed"]
        wins = len({(e["seat"], e["card"]) for e in placed})
        errors = sum(1 for m in answers if m["type"] == "error" and m["code"] == "illegal")
        results.append((wins, errors))
        # both views settle on the same frame before the next round
        while latest[0].get("seq") != latest[1].get("seq"):
            lag = 0 if latest[0]["seq"] < latest[1]["seq"] else 1
            await state_of(lag, latest[lag]["seq"])
    for s in socks:
        await s.close()
    return results


def _shared_die_seed() -> int:
    """A deal whose first roll has a die that both players could place."""
    for seed in range(1000):
        g = new_game(GameConfig(players=2, difficulty="training"), seed)
        dice = [{a.die for a in g.legal_actions(s) if isinstance(a, Place)} for s in (0, 1)]
        if dice[0] & dice[1]:
            return seed
    raise AssertionError("no such deal in 1000 seeds")


def test_two_claims_of_one_die_over_real_sockets_exactly_one_wins() -> None:
    with live_server("sqlite://") as base:
        results = asyncio.run(_race(base, rounds=4))
    assert results, "the players never had a die both could place"
    for wins, errors in results:
        assert (wins, errors) == (1, 1)


def test_a_game_is_stored_in_postgresql(postgres_url: str) -> None:  # noqa: F811
    with TestClient(create_app(postgres_url)) as c:
        code = new_room(c, players=1)
        ta = join(c, code, "Ana")
        with c.websocket_connect(f"/ws/{code}?token={ta}") as a:
            a.send_json({"type": "ready", "ready": True})
            first_state(a)
            a.send_json({"type": "bot", "seat": 0, "on": True})
            over = until(a, is_type("over"), limit=20000)
        assert over["log_id"] is not None
    # a new server on the same database still has it
    with TestClient(create_app(postgres_url)) as c:
        games = c.get("/api/log?players=1").json()["games"]
        assert any(g["id"] == over["log_id"] and g["names"] == ["Ana"] for g in games)


class _ManualClock:
    """A scheduler whose time a test moves by hand; ``advance`` runs the timers that fall due."""

    def __init__(self) -> None:
        self.t = 0.0
        self.timers: list[tuple[float, Callable[[], None]]] = []

    def now(self) -> float:
        return self.t

    def call_later(self, delay: float, fn: Callable[[], None]) -> Any:
        self.timers.append((self.t + delay, fn))
        return _NoTimer()

    def advance(self, seconds: float) -> None:
        self.t += seconds
        due = [fn for at, fn in self.timers if at <= self.t]
        self.timers = [(at, fn) for at, fn in self.timers if at > self.t]
        for fn in due:
            fn()


class _NoTimer:
    def cancel(self) -> None:
        pass


class _Socket:
    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.frames: list[Frame] = []

    def send(self, text: str) -> None:
        self.frames.append(json.loads(text))


def test_hints_and_bots_follow_the_server_clock_when_a_role_decision_comes_back() -> None:
    # Countdown, the leader's role active: the planner's remembered role decision must carry the
    # time of the moment it is used, not of the moment it was first worked out
    clock = _ManualClock()
    room = Room("AAAAA", parse_options({"game": "countdown", "players": 2, "hints": True, "seed": 19}), clock)
    room.join("Ana")
    room.join("Bo")
    socks = [_Socket(0), _Socket(1)]
    for s in socks:
        room.connect(s)
        room.handle(s, '{"type": "ready"}')
    state = room.match.state  # type: ignore[union-attr]
    assert state.active_ability() is not None
    other = socks[1 - state.leader]
    clock.t += 1.0
    before = len(other.frames)
    room.handle(other, '{"type": "act", "action": "done"}')
    answer = other.frames[before:]
    assert [f["type"] for f in answer] == ["state"] and answer[0]["hints"]
    assert all(h["action"] is None or h["action"].endswith("@1000") for h in answer[0]["hints"])


def test_an_earlier_absence_does_not_cut_short_the_grace_period_of_a_later_one() -> None:
    clock = _ManualClock()
    options = RoomOptions(GameConfig(players=2), bot_delay_ms=1000, seed=3, leave_grace_s=30)
    room = Room("AAAAA", options, clock)
    room.join("Ana")
    room.join("Bo")
    ana, bo = _Socket(0), _Socket(1)
    for s in (ana, bo):
        room.connect(s)
        room.handle(s, '{"type": "ready"}')
    room.disconnect(bo)  # Bo's connection drops...
    clock.advance(20)
    bo2 = _Socket(1)
    room.connect(bo2)  # ...he is back after 20 s...
    room.disconnect(bo2)  # ...and gone again
    clock.advance(11)  # the first absence's timer falls due: only 11 s into the second one
    assert not room.seats[1].autoplay
    clock.advance(20)
    assert room.seats[1].autoplay and not room.seats[0].autoplay
