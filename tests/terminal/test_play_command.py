"""``fuse play``'s refusals: a bad link, a server that is not there, bad game options, an unknown
language or database; each is one line on stderr and an exit code, never a traceback."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fusegame import cli
from fusegame.terminal.remote import BOOK_SIZE, JoinError, SeatBook, parse_room_url


def _fails(args: list[str], code: int) -> str:
    res = CliRunner().invoke(cli.app, ["play", *args])
    assert res.exit_code == code, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fuse: error: "), res.stderr
    assert "Traceback" not in res.output
    return lines[0]


def test_a_link_that_is_not_a_room() -> None:
    assert "not a room link" in _fails(["--join", "http://localhost:8000/#/log"], 1)
    assert "not a room link" in _fails(["--join", "ftp://x/#/room/ABC"], 1)


def test_a_server_that_is_not_there() -> None:
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    line = _fails(["--join", f"http://127.0.0.1:{port}/#/room/ABCD"], 1)
    assert f"cannot reach the server at http://127.0.0.1:{port}" in line


def test_bad_game_options() -> None:
    assert "players" in _fails(["--players", "9"], 2)
    assert "difficulty" in _fails(["--difficulty", "impossible"], 2).lower()
    assert "--bot-delay" in _fails(["--bot-delay", "60"], 2)
    assert "--lang" in _fails(["--lang", "fr"], 2)
    assert "database" in _fails(["--db", "nonsense"], 2)


@pytest.mark.parametrize(("url", "base", "code"), [
    ("http://localhost:8000/#/room/ABCD2345EFGH", "http://localhost:8000", "ABCD2345EFGH"),
    ("https://fuse.example.org/#/room/abcd-2345", "https://fuse.example.org", "ABCD2345"),
    ("localhost:8000/room/ABCD", "http://localhost:8000", "ABCD"),
])
def test_room_links_as_the_browser_shows_them(url: str, base: str, code: str) -> None:
    link = parse_room_url(url)
    assert (link.base, link.code) == (base, code)
    assert link.ws_url == base.replace("http", "ws", 1) + f"/ws/{code}"


def test_not_a_room_link() -> None:
    with pytest.raises(JoinError):
        parse_room_url("http://localhost:8000/")


def test_the_seat_book_keeps_the_newest_seats_and_survives_a_bad_file(tmp_path: Path) -> None:
    book = SeatBook(tmp_path / "seats.json")
    link = parse_room_url("http://localhost:8000/#/room/ABCD")
    assert book.get(link) is None
    book.path.write_text("{not json")
    assert book.get(link) is None  # a bad file is as good as none
    book.put(link, 2, "tok", "Ana")
    assert book.get(link) == (2, "tok")
    for i in range(BOOK_SIZE + 5):
        book.put(parse_room_url(f"http://localhost:8000/#/room/R{i}"), 0, f"t{i}", "Ana")
    kept = json.loads(book.path.read_text())["seats"]
    assert len(kept) == BOOK_SIZE and "http://localhost:8000/#/room/R104" in kept
    book.forget(parse_room_url("http://localhost:8000/#/room/R104"))
    assert book.get(parse_room_url("http://localhost:8000/#/room/R104")) is None
