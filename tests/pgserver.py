"""A throwaway PostgreSQL server for the tests: ``initdb`` into a temporary directory, ``pg_ctl start``
on a free port of 127.0.0.1, trust authentication, removed again at the end.

Use the session fixture ``postgres_url`` (``from pgserver import postgres_url  # noqa: F401`` in a
test module) for the server's ``postgresql://postgres@127.0.0.1:PORT/fuse`` URL, and
``fresh_database(url)`` for an empty database of one's own on it. The PostgreSQL binaries must be
installed (``.ci/run`` installs Debian's ``postgresql``); without them the tests fail, they are never
skipped.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

USER = "postgres"
DATABASE = "fuse"


class PostgresUnavailable(RuntimeError):
    """The PostgreSQL server binaries are missing or the server would not start."""


def find_bindir() -> Path:
    """The directory with ``initdb``, ``pg_ctl`` and ``postgres``: Debian's versioned directories first
    (newest), then ``pg_config --bindir``, then ``PATH``."""
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                        key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit() else 0,
                        reverse=True)
    if shutil.which("pg_config"):
        try:
            out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, check=True)
            candidates.append(out.stdout.strip())
        except (OSError, subprocess.CalledProcessError):
            pass
    initdb = shutil.which("initdb")
    if initdb:
        candidates.append(str(Path(initdb).parent))
    for c in candidates:
        if c and all((Path(c) / tool).is_file() for tool in ("initdb", "pg_ctl", "postgres")):
            return Path(c)
    raise PostgresUnavailable(
        "PostgreSQL server binaries (initdb, pg_ctl, postgres) not found in /usr/lib/postgresql/*/bin, "
        "pg_config --bindir or PATH; install them (Debian: apt-get install postgresql, which .ci/run does)")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _as_owner(cmd: list[str]) -> list[str]:
    # initdb and postgres refuse to run as root
    return ["runuser", "-u", USER, "--", *cmd] if os.geteuid() == 0 else cmd


def _run(cmd: list[str], cwd: Path, what: str) -> None:
    done = subprocess.run(_as_owner(cmd), cwd=cwd, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise PostgresUnavailable(f"{what} failed ({done.returncode}): {done.stderr.strip() or done.stdout}")


def start_postgres() -> tuple[str, Callable[[], None]]:
    """Start a server; returns its ``postgresql://`` URL (database ``fuse``) and a function that stops
    it and removes its files."""
    bindir = find_bindir()
    # Not pytest's tmp_path: it sits in root's private directory, where the postgres user cannot go.
    root = Path(tempfile.mkdtemp(prefix="fuse-pg-"))
    data, sockets = root / "data", root / "sockets"
    sockets.mkdir()
    if os.geteuid() == 0:
        for p in (root, sockets):
            shutil.chown(p, USER, USER)
    started = False

    def stop() -> None:
        if started:
            subprocess.run(_as_owner([str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w",
                                      "stop"]), cwd=root, capture_output=True, timeout=60)
        shutil.rmtree(root, ignore_errors=True)

    try:
        _run([str(bindir / "initdb"), "-D", str(data), "-U", USER, "--auth=trust", "--no-locale",
              "-E", "UTF8", "--no-sync"], root, "initdb")
        # the port may be taken between free_port() and the server binding it: try a few
        for _ in range(5):
            port = free_port()
            opts = (f"-c listen_addresses=127.0.0.1 -p {port} -k {sockets} -c fsync=off "
                    "-c synchronous_commit=off -c full_page_writes=off")
            done = subprocess.run(
                _as_owner([str(bindir / "pg_ctl"), "-D", str(data), "-l", str(root / "server.log"), "-w",
                           "-t", "60", "-o", opts, "start"]),
                cwd=root, capture_output=True, text=True, timeout=90)
            if done.returncode == 0:
                started = True
                break
        if not started:
            log = (root / "server.log").read_text(errors="replace") if (root / "server.log").exists() else ""
            raise PostgresUnavailable(f"the PostgreSQL server would not start: {log.strip()[-2000:]}")
        _run([str(bindir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", USER, DATABASE],
             root, "createdb")
    except BaseException:
        stop()
        raise
    return f"postgresql://{USER}@127.0.0.1:{port}/{DATABASE}", stop


@contextmanager
def postgres_server() -> Iterator[str]:
    """``with postgres_server() as url:`` a running server for the block."""
    url, stop = start_postgres()
    try:
        yield url
    finally:
        stop()


def fresh_database(url: str) -> str:
    """Create an empty database on the server of ``url``; returns its URL."""
    import psycopg

    name = "fuse_" + uuid.uuid4().hex[:12]
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return url.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A running PostgreSQL server for the test session (fails, not skips, when it cannot start)."""
    try:
        url, stop = start_postgres()
    except PostgresUnavailable as e:
        pytest.fail(str(e), pytrace=False)
    try:
        yield url
    finally:
        stop()
