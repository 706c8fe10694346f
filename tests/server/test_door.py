"""Bad input hurts nobody but its sender: lone surrogates, deep nesting, huge numbers, unknown dice
and tokens get a readable refusal, never a 500 or a dead room; request rates are limited per
address; sockets from other web sites are refused; a failing socket closes alone; the card pages
are drawn once, off the event loop, and cached by the browser (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import json
import logging
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect, WebSocketState

from fusegame.server.app import create_app
from fusegame.server.sockets import SocketClient

pytestmark = pytest.mark.timeout(120)

Frame = dict[str, Any]
DEEP = "[" * 1000 + "]" * 1000


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app("sqlite://")) as c:
        yield c


@pytest.fixture
def open_client() -> Iterator[TestClient]:
    """A server without rate limits, for tests that make many requests on purpose."""
    with TestClient(create_app("sqlite://", rate_limits=None)) as c:
        yield c


def new_room(c: TestClient, **options: Any) -> str:
    r = c.post("/api/rooms", json={"players": 2, "difficulty": "training", "bot_delay_ms": 0, "seed": 11,
                                   **options})
    assert r.status_code == 201, r.text
    return str(r.json()["code"])


def join(c: TestClient, code: str, name: str) -> str:
    r = c.post(f"/api/rooms/{code}/join", json={"name": name})
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def until(ws: Any, pred: Callable[[Frame], bool], limit: int = 3000) -> Frame:
    for _ in range(limit):
        m: Frame = ws.receive_json()
        if pred(m):
            return m
    raise AssertionError("the awaited frame never came")


def is_type(kind: str) -> Callable[[Frame], bool]:
    return lambda m: m["type"] == kind


def raw(c: TestClient, method: str, url: str, body: bytes | str) -> Any:
    data = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else body
    return c.request(method, url, content=data, headers={"content-type": "application/json"})


def readable(r: Any, status: int) -> str:
    """The response is ``status`` with one readable line of valid UTF-8 JSON; returns the line."""
    assert r.status_code == status, r.text
    detail = json.loads(r.content.decode("utf-8"))["detail"]
    assert isinstance(detail, str) and "\n" not in detail and "Traceback" not in detail
    return detail


# ====================================================================== the known failures
def test_a_lone_surrogate_in_chat_is_refused_to_its_sender_and_the_room_plays_on(client: TestClient) -> None:
    code = new_room(client)
    ta, tb = join(client, code, "Ana"), join(client, code, "Bo")
    with client.websocket_connect(f"/ws/{code}?token={ta}") as a, \
            client.websocket_connect(f"/ws/{code}?token={tb}") as b, \
            client.websocket_connect(f"/ws/{code}") as watcher:
        for ws in (a, b, watcher):
            until(ws, is_type("welcome"))
        a.send_text('{"type": "chat", "text": "\\ud800"}')
        a.send_text('{"type": "chat", "text": "ok\\udfff"}')
        for _ in range(2):
            refused = until(a, is_type("error"))
            assert refused["code"] == "bad_message" and "JSON" in refused["message"]
        # everyone still gets frames: the next line, and an answer to a ping
        a.send_text('{"type": "chat", "text": "still here \\ud83d\\ude00"}')
        for ws in (a, b, watcher):
            assert until(ws, is_type("chat"))["text"] == "still here \U0001F600"
            ws.send_json({"type": "ping"})
            until(ws, is_type("pong"))


def test_chat_and_names_are_normalised_and_length_checked(client: TestClient) -> None:
    code = new_room(client)
    r = client.post(f"/api/rooms/{code}/join", json={"name": "  A\u030angstr\u00f6m\t\u202e\n "})
    assert r.status_code == 200
    seats = client.get(f"/api/rooms/{code}").json()["room"]["seats"]
    assert seats[0]["name"] == "\u00c5ngstr\u00f6m"  # NFC, no override, no white space at the ends
    for name, why in [("\u0000\u202e\t", "name"), ("x" * 25, "name"), ("", "name")]:
        refused = client.post(f"/api/rooms/{code}/join", json={"name": name})
        assert refused.status_code == 422 and refused.json()["reason"] == why
        assert refused.json()["params"] == {"max": 24}
    with client.websocket_connect(f"/ws/{code}?token={r.json()['token']}") as a:
        a.send_json({"type": "chat", "text": "e\u0301  \u0007 bien\r\n"})
        assert until(a, is_type("chat"))["text"] == "\u00e9 bien"
        for text in ["\u202e\u0000 ", "x" * 201]:
            a.send_json({"type": "chat", "text": text})
            assert until(a, is_type("error"))["code"] == "bad_message"
        a.send_json({"type": "chat", "text": "y" * 200})
        assert until(a, is_type("chat"))["text"] == "y" * 200


def test_a_name_with_a_lone_surrogate_never_gets_in(client: TestClient) -> None:
    code = new_room(client)
    for body in ['{"name": "\\ud800x"}', '{"name": "x\\udc00"}', '{"name": "\ud800x"}']:
        assert "JSON" in readable(raw(client, "POST", f"/api/rooms/{code}/join", body), 400)
    room = client.get(f"/api/rooms/{code}")
    assert room.status_code == 200 and all(s["kind"] == "open" for s in room.json()["room"]["seats"])
    assert client.get("/api/log").status_code == 200


def test_a_game_played_under_unusual_names_is_readable_in_the_log(open_client: TestClient) -> None:
    c = open_client
    code = new_room(c, players=1)
    name = "Zoë \U0001F680 \u00c5"
    token = join(c, code, "Zoe\u0308 \U0001F680 A\u030a")
    with c.websocket_connect(f"/ws/{code}?token={token}") as a:
        a.send_json({"type": "ready", "ready": True})
        until(a, is_type("state"))
        a.send_json({"type": "bot", "seat": 0, "on": True})  # the planner plays it out at once
        over = until(a, is_type("over"))
    log = c.get("/api/log")
    assert log.status_code == 200
    log.content.decode("utf-8")
    assert log.json()["games"][0]["names"] == [name]
    if over["log_id"] is not None:
        entry = c.get(f"/api/log/{over['log_id']}")
        assert entry.status_code == 200 and entry.json()["names"] == [name]


def test_a_huge_log_offset_is_a_readable_422(client: TestClient) -> None:
    for query in ["offset=9223372036854775808", "offset=-1", "offset=1" + "0" * 40,
                  "limit=99999999999999999999"]:
        assert "offset" in readable(client.get(f"/api/log?{query}"), 422)


def test_a_tutorial_move_with_a_die_that_does_not_exist_is_told_it_is_illegal(client: TestClient) -> None:
    for action in ["place d99 F1 s1", "place d99999999999999999999 T1 s1", "place d0 T1 s99"]:
        r = client.post("/api/tutorial/place/try", json={"action": action})
        assert r.status_code == 200, r.text
        assert r.json()["ok"] is False and r.json()["message"]
    assert readable(client.post("/api/tutorial/place/try", json={"action": 5}), 422).startswith("action")
    assert readable(client.post("/api/tutorial/place/try", json=["done"]), 422)


def test_an_odd_token_makes_a_spectator_and_the_socket_works(client: TestClient) -> None:
    code = new_room(client)
    for query in ["token=%C3%A9", "token=%F0%9F%98%80", "token=" + "A" * 500, "token=", "token=a&token=b"]:
        with client.websocket_connect(f"/ws/{code}?{query}") as ws:
            assert until(ws, is_type("welcome"))["seat"] is None
            ws.send_json({"type": "ping"})
            until(ws, is_type("pong"))


@pytest.mark.parametrize("url", ["/api/rooms", "/api/rooms/{code}/join", "/api/tutorial/place/try"])
@pytest.mark.parametrize("body", [DEEP, '{"a":' * 300 + "1" + "}" * 300, b"\xff\xfe{}", "{"],
                         ids=["deep-list", "deep-object", "not-utf8", "cut-short"])
def test_bodies_nested_too_deep_or_not_json_are_a_readable_400(client: TestClient, url: str,
                                                                body: str | bytes) -> None:
    code = new_room(client)
    detail = readable(raw(client, "POST", url.format(code=code), body), 400)
    assert "JSON" in detail


def test_bad_frames_get_an_error_and_the_socket_stays(client: TestClient) -> None:
    code = new_room(client)
    token = join(client, code, "Ana")
    with client.websocket_connect(f"/ws/{code}?token={token}") as a:
        bad = [DEEP, '{"type": "chat", "text": ' + DEEP + "}", '{"type": "bot", "seat": 1e400}',
               '{"type": "bot", "seat": 123456789012345678901234567890}',
               '{"type": "ready", "ready": "yes"}', '{"type": "signal", "signal": "need", "die": true}',
               '{"type": 7}', '{"type": "act", "action": 1}',
               '{"type": "act", "action": "' + "d" * 300 + '"}', '"ping"', "null", "", "\ud800"]
        for frame in bad:
            a.send_bytes(frame.encode("utf-8", "surrogatepass"))
            err = until(a, is_type("error"))
            assert err["code"] == "bad_message", (frame[:40], err)
        a.send_json({"type": "ready", "ready": True})
        assert until(a, is_type("room"))["room"]["seats"][0]["ready"] is True


def test_no_request_of_the_known_kinds_is_a_server_error(client: TestClient) -> None:
    code = new_room(client)
    for method, url in [("GET", "/api/rooms/" + "\u00e9" * 50), ("GET", "/%00"), ("GET", "/" + "a" * 5000),
                        ("GET", "/api/cards/%00.svg"), ("GET", "/api/log/99999999999999999999"),
                        ("GET", "/api/log/1/replay/99999999999999999999"), ("GET", "/cards?set=%ff"),
                        ("GET", "/api/tutorial?lang=%ED%A0%80"), ("POST", f"/api/rooms/{code}/join")]:
        r = client.request(method, url)
        assert r.status_code < 500, (url, r.status_code, r.text[:200])
        r.content.decode("utf-8")


# ====================================================================== a failing socket
class FakeSocket:
    """What ``SocketClient`` needs of a WebSocket; ``fail`` makes writing fail like a bug would."""

    def __init__(self, fail: BaseException | None = None) -> None:
        self.fail = fail
        self.sent: list[str] = []
        self.closed_with: int | None = None
        self.client_state = WebSocketState.CONNECTED
        self.application_state = WebSocketState.CONNECTED

    async def send_text(self, text: str) -> None:
        if self.fail is not None:
            raise self.fail
        text.encode("utf-8")  # as the server does: a lone surrogate cannot go out
        self.sent.append(text)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed_with = code
        self.application_state = WebSocketState.DISCONNECTED


def test_a_failing_send_is_logged_and_closes_that_socket_only(caplog: pytest.LogCaptureFixture) -> None:
    async def go() -> tuple[FakeSocket, FakeSocket, FakeSocket]:
        broken, gone, fine = FakeSocket(RuntimeError("boom")), FakeSocket(WebSocketDisconnect(1001)), \
            FakeSocket()
        clients = [SocketClient(ws, None) for ws in (broken, gone, fine)]  # type: ignore[arg-type]
        pumps = [asyncio.create_task(c.pump()) for c in clients]
        for text in ['{"type":"pong"}', '{"type":"chat","text":"\ud800"}', '{"type":"pong"}']:
            for c in clients:
                c.send(text)
        await asyncio.sleep(0.05)
        assert pumps[0].done() and pumps[1].done() and not pumps[2].done()
        assert clients[0].closed and clients[1].closed and not clients[2].closed
        pumps[2].cancel()
        return broken, gone, fine

    with caplog.at_level(logging.WARNING, logger="fusegame.server"):
        broken, gone, fine = asyncio.run(go())
    assert broken.closed_with == 1011 and gone.closed_with is None
    # the one that works got every frame, the unencodable one repaired rather than dropped
    assert fine.sent == ['{"type":"pong"}', '{"type":"chat","text":"?"}', '{"type":"pong"}']
    # the bug is logged with its traceback; a browser that has gone is not a bug
    failures = [r for r in caplog.records if r.exc_info]
    assert len(failures) == 1 and "closing that socket" in failures[0].getMessage()


# ====================================================================== rates
def test_creating_rooms_is_limited_per_address(client: TestClient) -> None:
    for _ in range(20):
        new_room(client)
    r = client.post("/api/rooms", json={})
    assert r.status_code == 429
    assert r.json()["reason"] == "rate_limited" and r.json()["params"]["retry_after"] >= 1
    assert int(r.headers["retry-after"]) == r.json()["params"]["retry_after"]
    # another address is not held up by this one
    other = TestClient(client.app, client=("203.0.113.9", 5000))
    assert other.post("/api/rooms", json={}).status_code == 201


def test_chat_and_signals_are_limited_per_address_and_the_rest_is_relayed(client: TestClient) -> None:
    code = new_room(client)
    ta, tb = join(client, code, "Ana"), join(client, code, "Bo")
    with client.websocket_connect(f"/ws/{code}?token={ta}") as a, \
            client.websocket_connect(f"/ws/{code}?token={tb}") as b:
        until(b, is_type("welcome"))
        for i in range(80):
            a.send_json({"type": "chat", "text": f"line {i}"} if i % 2
                        else {"type": "signal", "signal": "wait"})
        a.send_json({"type": "ping"})
        refusals = []
        while (m := a.receive_json())["type"] != "pong":
            if m["type"] == "error":
                refusals.append(m)
        assert len(refusals) == 20
        assert {(r["code"], r["reason"]) for r in refusals} == {("rate_limited", "rate_limited")}
        b.send_json({"type": "ping"})  # answered after every frame the flood queued for b
        relayed = []
        while (m := b.receive_json())["type"] != "pong":
            if m["type"] in ("chat", "signal"):
                relayed.append(m)
        assert len(relayed) == 60  # the other player saw what was allowed, and nothing more


def test_a_socket_over_its_frame_limit_still_gets_its_pongs(client: TestClient) -> None:
    # a page at a flooding address keeps its socket: its keepalive pings are answered, not refused
    code = new_room(client)
    token = join(client, code, "Ana")
    with client.websocket_connect(f"/ws/{code}?token={token}") as ws:
        until(ws, is_type("welcome"))
        for _ in range(510):  # over the 500 frames in any 10 seconds
            ws.send_json({"type": "ready", "ready": True})
        ws.send_json({"type": "ping"})
        refused = 0
        while (m := ws.receive_json())["type"] != "pong":
            refused += m["type"] == "error" and m["reason"] == "rate_limited"
        assert refused >= 10  # the flood was refused, the ping was not
        ws.send_json({"type": "ready", "ready": False})
        assert until(ws, is_type("error"))["reason"] == "rate_limited"  # still over the limit
        ws.send_json({"type": "ping"})
        assert until(ws, is_type("pong"))["type"] == "pong"


def test_guessing_room_codes_runs_out_of_look_ups(client: TestClient) -> None:
    code = new_room(client)
    for i in range(30):
        assert client.get(f"/api/rooms/ZZZ{i:02d}").status_code == 404
    # once out of misses, even a real code is refused: the answer tells a guesser nothing
    r = client.get(f"/api/rooms/{code}")
    assert r.status_code == 429 and r.json()["reason"] == "rate_limited"
    assert client.post(f"/api/rooms/{code}/join", json={"name": "A"}).status_code == 429
    with client.websocket_connect(f"/ws/{code}") as ws:
        refused = ws.receive_json()
        assert (refused["code"], refused["reason"]) == ("rate_limited", "rate_limited")
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4429


def test_room_look_ups_are_limited(client: TestClient) -> None:
    code = new_room(client)
    answers = [client.get(f"/api/rooms/{code}").status_code for _ in range(241)]
    assert answers[:240] == [200] * 240 and answers[240] == 429


# ====================================================================== origins
def test_sockets_from_other_sites_are_refused(client: TestClient) -> None:
    code = new_room(client)
    for origin in ["http://evil.example", "null", "http://testserver.evil.example", "https://testserver:444"]:
        with pytest.raises(WebSocketDisconnect), \
                client.websocket_connect(f"/ws/{code}", headers={"origin": origin}) as ws:
            ws.receive_json()
    for origin in ["http://testserver", "http://TestServer:80"]:
        with client.websocket_connect(f"/ws/{code}", headers={"origin": origin}) as ws:
            assert ws.receive_json()["type"] == "welcome"


def test_fuse_serve_allows_the_origins_it_is_given() -> None:
    app = create_app("sqlite://", allowed_origins=["https://fuse.example.org", "http://localhost:3000/"])
    with TestClient(app) as c:
        code = new_room(c)
        for origin in ["https://fuse.example.org", "https://fuse.example.org:443", "http://localhost:3000"]:
            with c.websocket_connect(f"/ws/{code}", headers={"origin": origin}) as ws:
                assert ws.receive_json()["type"] == "welcome"
        with pytest.raises(WebSocketDisconnect), \
                c.websocket_connect(f"/ws/{code}", headers={"origin": "http://fuse.example.org"}) as ws:
            ws.receive_json()
    proc = subprocess.run([sys.executable, "-m", "fusegame.cli", "serve", "--port", "1",
                           "--allow-origin", "fuse.example.org"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1


# ====================================================================== cards
def test_card_pages_are_drawn_once_off_the_event_loop_and_cached(client: TestClient,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import fusegame.web.svg as svg

    drawn: list[bool] = []
    real = svg.catalogue_page

    def counting(*args: Any, **kw: Any) -> str:
        try:
            asyncio.get_running_loop()
            drawn.append(True)  # on an event loop
        except RuntimeError:
            drawn.append(False)
        return real(*args, **kw)

    monkeypatch.setattr(svg, "catalogue_page", counting)
    first = client.get("/cards?set=countdown")
    assert first.status_code == 200 and "<svg" in first.text
    assert client.get("/cards?set=countdown").text == first.text
    assert drawn == [False]
    tag = first.headers["etag"]
    assert "max-age" in first.headers["cache-control"]
    again = client.get("/cards?set=countdown", headers={"if-none-match": tag})
    assert again.status_code == 304 and again.content == b""
    plain = client.get("/cards?set=countdown", headers={"accept-encoding": "identity"})
    assert plain.text == first.text and "content-encoding" not in plain.headers
    card = client.get("/api/cards/F12.svg")
    assert card.headers["etag"] != tag and "max-age" in card.headers["cache-control"]
    again = client.get("/api/cards/F12.svg", headers={"if-none-match": card.headers["etag"]})
    assert again.status_code == 304
    assert client.get("/api/cards/NOPE.svg").status_code == 404
