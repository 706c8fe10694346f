"""Fuzzing the door of a running server: random methods, paths, queries and bodies over HTTP, and
random frames over a seated player's socket (lone surrogates, deep nesting, huge numbers, wrong
types, noise), against the app under uvicorn on a free port. Nothing may answer 500, send invalid
UTF-8 or JSON, report an internal error, drop the room or its other sockets; afterwards the server
still plays a whole game and logs it."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from fusegame.server.app import create_app
from liveserver import served


def connect(url: str) -> ClientConnection:
    """A socket without keepalive pings (the fuzz's server runs without them too): a ping draws
    its payload from the global `random`, and one sent while hypothesis draws an example reads
    to it as a strategy using `random`."""
    return ws_connect(url, ping_interval=None)


pytestmark = pytest.mark.timeout(300)

FUZZ = settings(max_examples=1500, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@dataclass
class Table:
    """The server, and a room in play with a fuzzed player, a second player and a spectator."""

    base: str
    http: httpx.Client
    code: str
    fuzzed: ClientConnection
    others: list[ClientConnection]


def _frames(ws: ClientConnection, until_pong: bool = True) -> list[dict[str, Any]]:
    """Ping, then read every frame up to the pong: each must be a JSON object, none an internal
    error (the socket's counterpart of a 500)."""
    ws.send('{"type":"ping"}')
    out = []
    while True:
        text = ws.recv(timeout=10)
        assert isinstance(text, str)  # a text frame, so valid UTF-8 (the client checks)
        frame = json.loads(text)
        assert isinstance(frame, dict) and isinstance(frame.get("type"), str)
        assert not (frame["type"] == "error" and frame.get("code") == "internal"), frame
        if frame["type"] == "pong":
            return out
        out.append(frame)


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    db = tmp_path_factory.mktemp("fuzz") / "fuse.db"
    # the fuzzer comes from one address far faster than people: limits would only answer 429
    app = create_app(f"sqlite:///{db}", rate_limits=None)
    with served(app, ws_ping_interval=None) as server:  # no keepalive pings: see `connect`
        base = server.base
        http = httpx.Client(base_url=base, timeout=10)
        room = {"players": 2, "difficulty": "training", "seed": 3}
        code = http.post("/api/rooms", json=room).json()["code"]
        tokens = [http.post(f"/api/rooms/{code}/join", json={"name": n}).json()["token"]
                  for n in ("Ana", "Bo")]
        ws_base = base.replace("http", "ws")
        with contextlib.ExitStack() as stack:
            socks = [stack.enter_context(connect(f"{ws_base}/ws/{code}{query}"))
                     for query in [f"?token={t}" for t in tokens] + [""]]
            for s in socks[:2]:
                s.send('{"type":"ready","ready":true}')
            for s in socks:
                _frames(s)
            yield Table(base, http, code, socks[0], socks[1:])
        http.close()


# ====================================================================== what to send
DEEP = ["[" * 1000 + "]" * 1000, '{"a":' * 500 + "0" + "}" * 500, '{"type":"chat","text":' + "[" * 300]
#: Text of every kind a client could smuggle in: lone surrogates, controls, combining marks, noise.
odd_text = st.one_of(
    st.sampled_from(["\ud800", "\udfff x", "x\ud83d", "\ud800x", "\u202e", "\x00", "e\u0301", "", " ",
                     "A" * 300, "\U0001F600"]),
    st.text(st.characters(categories=["Cs", "Cc", "Cf", "Mn", "Zs", "Co"]), max_size=30),
    st.text(max_size=30))
huge = st.sampled_from([2**63, 2**64, 10**40, -(2**63) - 1, 2**31, -1])
odd_number = st.one_of(huge, huge, st.integers(-3, 120), st.integers(), st.floats())
scalars = st.one_of(odd_text, odd_number, st.none(), st.booleans())
json_values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(odd_text, inner, max_size=4)), max_leaves=12)
#: An action's text as a client could write it: a verb and die, card and slot words, some absurd.
action_text = st.builds(
    lambda verb, words: " ".join([verb, *words]),
    st.sampled_from(["place", "done", "take", "give", "reroll", "defuse", "roll", "rethrow", "recolour",
                     "renumber", "flip", "name", "return", "reveal", "tick", "p0", "p1", "@5", ""]),
    st.lists(st.one_of(odd_number.map(lambda n: f"d{n}"), odd_number.map(lambda n: f"s{n}"),
                       st.sampled_from(["F1", "F01", "F12", "T1", "F99", "C12", "R", "6", "@1"]), odd_text),
             max_size=4))
#: What each field of a body, a query or a message may hold: what it should, and worse.
FIELD = {
    "action": st.one_of(action_text, scalars), "name": st.one_of(odd_text, scalars), "text": odd_text,
    "seat": odd_number, "die": odd_number, "on": scalars, "ready": scalars,
    "signal": st.one_of(st.sampled_from(["need", "take", "wait"]), scalars),
    "offset": odd_number, "limit": odd_number, "players": odd_number, "seed": odd_number,
    "fuse_cards": odd_number, "bot_delay_ms": odd_number, "step": odd_number,
    "game": st.one_of(st.sampled_from(["fuse", "countdown", "integrated", "epic"]), scalars),
    "difficulty": st.one_of(st.sampled_from(["training", "insane", "heroic"]), scalars),
    "modules": st.one_of(st.lists(st.sampled_from(["roles", "sparks", "split-dice"])), json_values),
    "won": st.one_of(st.sampled_from(["true", "false", "1", "yes"]), scalars),
    "lang": st.one_of(st.sampled_from(["en", "es"]), odd_text), "set": st.one_of(st.just("fuse"), odd_text),
    "token": odd_text,
}
#: The fields each message type has (docs/protocol.md), to build messages the door must look into.
MESSAGE_FIELDS = {"ping": [], "ready": ["ready"], "fill_bots": [], "bot": ["seat", "on"], "act": ["action"],
                  "chat": ["text"], "signal": ["signal", "die"]}


def _dumps(value: Any) -> str:
    # ensure_ascii writes a lone surrogate as its escape, which is exactly what a hostile client sends
    return json.dumps(value, ensure_ascii=True)


def _fields(names: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({}, optional={f: FIELD.get(f, scalars) for f in names})


@st.composite
def messages(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["shaped"] * 6 + ["deep", "noise", "odd type"]))
    if kind == "deep":
        return draw(st.sampled_from(DEEP))
    if kind == "noise":
        return draw(st.one_of(st.text(max_size=60), json_values.map(_dumps)))
    mtype = draw(st.sampled_from(sorted(MESSAGE_FIELDS))) if kind == "shaped" else draw(scalars)
    msg = {"type": mtype, **draw(_fields(MESSAGE_FIELDS.get(mtype, []) if isinstance(mtype, str) else []))}
    for key in draw(st.lists(odd_text, max_size=2)):
        msg.setdefault(key, draw(json_values))
    return _dumps(msg)


#: Every route (``{room}``: a room in its lobby, made for the request, or the room in play, or any
#: code; ``{lesson}``: a tutorial lesson; ``{x}``: anything), with the fields of its body and query.
ROUTES: list[tuple[str, str, list[str], list[str]]] = [
    ("POST", "/api/rooms", ["game", "players", "difficulty", "modules", "setup", "six_point_cards",
                            "fuse_cards", "strict_fuse", "timed", "hints", "bot_delay_ms", "seed"], []),
    ("GET", "/api/rooms/{room}", [], []), ("POST", "/api/rooms/{room}/join", ["name", "seat"], []),
    ("GET", "/api/log", [], ["game", "players", "difficulty", "won", "limit", "offset"]),
    ("GET", "/api/log/{x}", [], []), ("GET", "/api/log/{x}/replay", [], []),
    ("GET", "/api/log/{x}/pace", [], []), ("GET", "/api/log/{x}/replay/{x}", [], []),
    ("GET", "/api/tutorial", [], ["lang"]),
    ("POST", "/api/tutorial/{lesson}/try", ["action"], ["lang"]), ("GET", "/api/cards/{x}", [], []),
    ("GET", "/cards", [], ["set"]), ("GET", "/api/options", [], []), ("GET", "/api/health", [], []),
    ("GET", "/api/legend", [], ["lang"]),
    ("GET", "/api/words/{x}", [], []),
    ("GET", "/api/computer/setup", [], ["game", "players", "difficulty", "modules", "setup",
                                        "six_point_cards", "fuse_cards"]),
    ("POST", "/api/log/table", ["options", "names", "won", "reason", "time_left_ms", "time_bonus",
                                "time_limit_s", "bombs", "fuse_cards", "sparks"], []),
    ("GET", "/{x}", [], []), ("GET", "/{x}/{x}", [], []),
]
METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]
LESSONS = ["place", "relations", "stack", "done", "take", "fuse"]


def _segment(text: str) -> str:
    # percent-encoded as UTF-8 with surrogates passed through: invalid UTF-8 on purpose
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


@st.composite
def requests(draw: st.DrawFn) -> tuple[str, str, bytes | None]:
    method, path, body_fields, query_fields = draw(st.sampled_from(ROUTES))
    if draw(st.integers(0, 7)) == 7:
        method = draw(st.sampled_from(METHODS))
    anything = st.one_of(odd_text.filter(bool), odd_number.map(str), st.sampled_from(
        ["F12.svg", "T1.svg", "1", "0", "index.html", "%00", "..", "%2e%2e"]))
    for slot, values in (("{room}", st.one_of(st.sampled_from(["LOBBY", "LOBBY", "ROOM"]), anything)),
                         ("{lesson}", st.one_of(st.sampled_from(LESSONS), anything)), ("{x}", anything)):
        while slot in path:
            value = draw(values)
            raw = value in ("LOBBY", "ROOM", "%00", "%2e%2e") or value in LESSONS
            path = path.replace(slot, value if raw else _segment(value), 1)
    query = [(k, v if isinstance(v, str) else _dumps(v)) for k, v in draw(_fields(query_fields)).items()]
    query += [(draw(odd_text), draw(odd_text)) for _ in range(draw(st.integers(0, 1)))]
    if query:
        path += "?" + "&".join(f"{_segment(k)}={_segment(v)}" for k, v in query)
    shaped = _fields(body_fields).map(_dumps)
    text = st.one_of(shaped, shaped, shaped, json_values.map(_dumps), st.sampled_from(DEEP))
    body = draw(text.map(str.encode) | st.none() | st.binary(max_size=64))
    return method, path, body


# ====================================================================== the tests
@FUZZ
@given(req=requests())
def test_no_http_request_gets_a_500_or_anything_but_utf8_json(table: Table,
                                                              req: tuple[str, str, bytes | None]) -> None:
    method, path, body = req
    path = path.replace("ROOM", table.code)
    lobby = None
    if "LOBBY" in path:
        lobby = table.http.post("/api/rooms", json={"players": 2}).json()["code"]
        path = path.replace("LOBBY", lobby)
    r = table.http.request(method, path, content=body, headers={"content-type": "application/json"})
    _readable(r, method, path, body)
    if lobby is not None:  # whatever the request did to the room, the room can still be shown
        _readable(table.http.get(f"/api/rooms/{lobby}"), "GET", lobby, None)


def _readable(r: httpx.Response, method: str, path: str, body: bytes | None) -> None:
    assert r.status_code < 500, (method, path, body, r.status_code, r.text[:300])
    text = r.content.decode("utf-8")
    if r.headers.get("content-type", "").startswith("application/json") and method != "HEAD":
        json.loads(text)


@FUZZ
@given(frame=messages())
def test_no_frame_hurts_the_room_or_anyone_but_its_sender(table: Table, frame: str) -> None:
    table.fuzzed.send(frame)
    _frames(table.fuzzed)
    for ws in table.others:
        _frames(ws)


@settings(FUZZ, max_examples=150)
@given(code=st.one_of(st.just("ROOM"), odd_text.filter(lambda c: c and "/" not in c)),  # "/": another path
       token=st.one_of(st.none(), odd_text))
def test_a_socket_opened_with_any_code_and_token_is_greeted_or_told_why_not(table: Table, code: str,
                                                                            token: str | None) -> None:
    path = table.code if code == "ROOM" else _segment(code)
    query = "" if token is None else f"?token={_segment(token)}"
    with connect(f"{table.base.replace('http', 'ws')}/ws/{path}{query}") as ws:
        first = json.loads(ws.recv(timeout=10))
        if code == "ROOM":
            assert first["type"] == "welcome" and first["seat"] is None
            _frames(ws)
        else:
            assert (first["type"], first["code"]) == ("error", "unknown_room")


def test_after_the_fuzzing_the_room_is_there_and_the_server_plays_a_whole_game(table: Table) -> None:
    http = table.http
    assert http.get(f"/api/rooms/{table.code}").status_code == 200
    for ws in [table.fuzzed, *table.others]:
        _frames(ws)
    room = http.post("/api/rooms", json={"players": 1, "difficulty": "training", "bot_delay_ms": 0})
    code = room.json()["code"]
    token = http.post(f"/api/rooms/{code}/join", json={"name": "Eve"}).json()["token"]
    with connect(f"{table.base.replace('http', 'ws')}/ws/{code}?token={token}") as ws:
        ws.send('{"type":"ready","ready":true}')
        ws.send('{"type":"bot","seat":0,"on":true}')  # the planner plays the seat out
        deadline = time.monotonic() + 60
        while True:
            frame = json.loads(ws.recv(timeout=30))
            if frame["type"] == "over":
                break
            assert time.monotonic() < deadline, "the game did not end"
    log = http.get("/api/log").json()
    assert any(g["names"] == ["Eve"] for g in log["games"])
    assert http.get(f"/api/log/{frame['log_id']}").status_code == 200
