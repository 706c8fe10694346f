"""The BDT Log: every finished game, kept in SQLite or PostgreSQL.

``Storage(url)`` opens (and if needed creates) the log. The URL is one of::

    sqlite:///path/to/fuse.db        a file (the default: see ``default_url``)
    sqlite://                        in memory, gone when the program ends
    postgresql://user@host:port/db   PostgreSQL (psycopg 3; ``pip install 'fusegame[postgres]'``)

Each entry keeps the facts the log page lists and filters on (game, players, difficulty, result,
score) as columns, and the whole ``GameRecord`` as JSON so that any game can be replayed exactly.
The engine is synchronous and so is this module: an async server calls it through
``asyncio.to_thread``. Every write is one transaction; a problem with the database is raised as
``StorageError`` with one readable line.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import JSON, DateTime, Index, String, create_engine, false, func, select
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker, undefer
from sqlalchemy.pool import StaticPool
from sqlalchemy.sql.elements import ColumnElement

from fusegame.observe import game_title
from fusegame.record import GameRecord
from fusegame.rules.outcome import Score
from fusegame.rules.state import GameState

__all__ = ["LogEntry", "LogScore", "Storage", "StorageError", "default_url", "entry_from_state"]

#: ids and counts are 32-bit integers in PostgreSQL; a query beyond that range simply matches nothing
_INT_MAX = 2**31 - 1

URL_HELP = "use sqlite:///FILE, sqlite:// (in memory) or postgresql://USER@HOST:PORT/DATABASE"


class StorageError(ValueError):
    """The log's database cannot be opened, read or written; the message is one readable line."""


# ================================================================== entries
@dataclass(frozen=True)
class LogScore:
    """A game's score as the log shows it (RULES.md E.3)."""

    total: int
    win: int
    time: int
    bombs: int
    fuses: int
    sparks: int = 0

    @classmethod
    def from_score(cls, score: Score) -> LogScore:
        return cls(score.total, score.win_bonus, score.time_bonus, score.bomb_points, score.fuse_points,
                   score.spark_points)

    def to_dict(self) -> dict[str, int]:
        return {"total": self.total, "win": self.win, "time": self.time, "bombs": self.bombs,
                "fuses": self.fuses, "sparks": self.sparks}


@dataclass
class LogEntry:
    """One finished game in the log.

    ``names`` are the players' names by seat (bots included), ``bots`` how many seats a bot played,
    ``options`` the room's options. ``record`` is ``GameRecord.to_dict()``; entries read by
    ``list_games``/``best_games`` leave it out (``None``), ``get_game`` includes it. ``id`` is
    ``None`` until the entry is saved.
    """

    finished_at: datetime
    game: str
    title: str
    players: int
    names: list[str]
    bots: int
    difficulty: str
    options: dict[str, Any]
    won: bool
    reason: str
    time_left_ms: int | None
    score: LogScore
    official: bool
    record: dict[str, Any] | None = None
    id: int | None = None

    def to_dict(self, *, with_record: bool = False) -> dict[str, Any]:
        """The protocol's entry: ``finished_at`` in ISO 8601 UTC (``...Z``), the score nested;
        ``with_record=True`` adds ``"record"``."""
        d: dict[str, Any] = {
            "id": self.id, "finished_at": _iso(self.finished_at), "game": self.game, "title": self.title,
            "players": self.players, "names": list(self.names), "bots": self.bots,
            "difficulty": self.difficulty, "options": dict(self.options), "won": self.won,
            "reason": self.reason, "time_left_ms": self.time_left_ms, "score": self.score.to_dict(),
            "official": self.official,
        }
        if with_record:
            d["record"] = self.record
        return d


def entry_from_state(state: GameState, record: GameRecord | Mapping[str, Any] | None, names: Sequence[str],
                     bots: int, options: Mapping[str, Any] | None = None,
                     finished_at: datetime | None = None) -> LogEntry:
    """The log entry for a finished game (``finished_at`` defaults to now).

    ``official`` is the engine's verdict (``Outcome.official``): untimed practice and games of
    another length do not count as official. Raises ``ValueError`` when the game is not over.
    """
    outcome = state.outcome
    if outcome is None:
        raise ValueError("the game is not over: only finished games go in the BDT Log")
    cfg = state.config
    if isinstance(record, GameRecord):
        rec: dict[str, Any] | None = record.to_dict()
    else:
        rec = dict(record) if record is not None else None
    return LogEntry(
        finished_at=finished_at if finished_at is not None else datetime.now(UTC),
        game=cfg.game.value, title=game_title(cfg), players=cfg.players, names=list(names), bots=bots,
        difficulty=cfg.difficulty.value, options=dict(options or {}), won=outcome.won,
        reason=outcome.reason.value, time_left_ms=outcome.time_left_ms,
        score=LogScore.from_score(outcome.score), official=outcome.official, record=rec)


def _utc(dt: datetime) -> datetime:
    """An aware UTC datetime; naive ones are taken to be UTC already (SQLite keeps no offset)."""
    return dt.replace(tzinfo=UTC) if dt.tzinfo is None else dt.astimezone(UTC)


def _iso(dt: datetime) -> str:
    return _utc(dt).isoformat(timespec="seconds").replace("+00:00", "Z")


# ================================================================== table
class _Base(DeclarativeBase):
    pass


class _GameRow(_Base):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    game: Mapped[str] = mapped_column(String(32))
    title: Mapped[str] = mapped_column(String(200))
    players: Mapped[int]
    names: Mapped[list[str]] = mapped_column(JSON)
    bots: Mapped[int]
    difficulty: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    won: Mapped[bool]
    reason: Mapped[str] = mapped_column(String(32))
    time_left_ms: Mapped[int | None]
    score_total: Mapped[int]
    score_win: Mapped[int]
    score_time: Mapped[int]
    score_bombs: Mapped[int]
    score_fuses: Mapped[int]
    score_sparks: Mapped[int]
    official: Mapped[bool]
    # Deferred: a record is a few kB and the log's lists never show it.
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), deferred=True)

    __table_args__ = (
        Index("ix_games_best", "score_total", "time_left_ms"),
        Index("ix_games_filter", "game", "players", "difficulty", "won"),
    )

    @classmethod
    def from_entry(cls, e: LogEntry) -> _GameRow:
        return cls(finished_at=_utc(e.finished_at), game=e.game, title=e.title, players=e.players,
                   names=list(e.names), bots=e.bots, difficulty=e.difficulty, options=dict(e.options),
                   won=e.won, reason=e.reason, time_left_ms=e.time_left_ms, score_total=e.score.total,
                   score_win=e.score.win, score_time=e.score.time, score_bombs=e.score.bombs,
                   score_fuses=e.score.fuses, score_sparks=e.score.sparks, official=e.official,
                   record=e.record)

    def entry(self, *, record: bool) -> LogEntry:
        return LogEntry(
            finished_at=_utc(self.finished_at), game=self.game, title=self.title, players=self.players,
            names=list(self.names), bots=self.bots, difficulty=self.difficulty, options=dict(self.options),
            won=self.won, reason=self.reason, time_left_ms=self.time_left_ms,
            score=LogScore(self.score_total, self.score_win, self.score_time, self.score_bombs,
                           self.score_fuses, self.score_sparks),
            official=self.official, record=self.record if record else None, id=self.id)


# ================================================================== storage
def default_url() -> str:
    """The log's default place: ``fuse.db`` in ``$FUSE_DATA_DIR``, else in the user's data directory
    (``$XDG_DATA_HOME/fusegame``, normally ``~/.local/share/fusegame``), created when missing."""
    env = os.environ.get("FUSE_DATA_DIR")
    if env:
        base = Path(env).expanduser()
    else:
        xdg = os.environ.get("XDG_DATA_HOME")
        base = (Path(xdg) if xdg else Path.home() / ".local" / "share") / "fusegame"
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise StorageError(f"cannot create the data directory {base}: {e.strerror or e}") from None
    return f"sqlite:///{(base / 'fuse.db').resolve()}"


def _reason(e: BaseException) -> str:
    """The first line of what the database driver said (SQLAlchemy's own text adds a URL to its
    docs and the SQL, which a user does not need)."""
    inner: BaseException = e.orig if isinstance(e, DBAPIError) and e.orig is not None else e
    lines = [ln.strip() for ln in str(inner).splitlines() if ln.strip()]
    return lines[0] if lines else type(inner).__name__


class Storage:
    """The BDT Log in a database (see the module's docstring for the URLs).

    Safe to call from several threads. Opening creates the ``games`` table when it is missing;
    a bad URL or a database that cannot be reached raises ``StorageError``.
    """

    def __init__(self, url: str) -> None:
        try:
            given = make_url(url)
        except ArgumentError:
            raise StorageError(f"cannot open database {url!r}: not a database URL ({URL_HELP})") from None
        #: the URL as given, with any password hidden (for messages)
        self.url: str = given.render_as_string(hide_password=True)
        self._engine = self._create_engine(given)
        # SQLite runs one writer at a time anyway, and an in-memory database is a single shared
        # connection: one lock keeps two threads' transactions from interleaving on it.
        self._lock: threading.Lock | None = (
            threading.Lock() if self._engine.dialect.name == "sqlite" else None)
        self._sessions = sessionmaker(self._engine, expire_on_commit=False)
        try:
            _Base.metadata.create_all(self._engine)
            with Session(self._engine) as s:  # an old or foreign "games" table fails here, not later
                s.execute(select(_GameRow).limit(1)).all()
        except SQLAlchemyError as e:
            self._engine.dispose()
            raise StorageError(f"cannot open database {self.url}: {_reason(e)}") from None

    def _create_engine(self, given: URL) -> Engine:
        scheme, _, driver = given.drivername.partition("+")
        url = given
        kw: dict[str, Any] = {}
        if scheme in ("postgresql", "postgres"):
            # psycopg 3 is the driver this package depends on; plain postgresql:// would mean psycopg2
            url = given.set(drivername="postgresql+" + (driver or "psycopg"))
            kw = {"pool_pre_ping": True, "connect_args": {"connect_timeout": 10}}
        elif scheme == "sqlite":
            memory = given.database in (None, "", ":memory:")
            kw = {"connect_args": {"check_same_thread": False}}
            if memory:
                kw["poolclass"] = StaticPool
        else:
            raise StorageError(f"cannot open database {self.url}: unsupported kind {scheme!r} ({URL_HELP})")
        try:
            return create_engine(url, **kw)
        except (ImportError, NoSuchModuleError) as e:
            hint = (" (postgresql:// uses psycopg 3: pip install 'fusegame[postgres]')"
                    if scheme != "sqlite" else "")
            raise StorageError(f"cannot open database {self.url}: no driver: {_reason(e)}{hint}") from None
        except (ArgumentError, TypeError) as e:
            raise StorageError(f"cannot open database {self.url}: {_reason(e)}") from None

    def close(self) -> None:
        """Close the database's connections (an in-memory log is gone after this)."""
        self._engine.dispose()

    def __enter__(self) -> Storage:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Storage({self.url!r})"

    @contextmanager
    def _session(self, what: str) -> Iterator[Session]:
        """A session inside one transaction (committed at the end, rolled back on any error)."""
        with self._lock if self._lock is not None else nullcontext():
            try:
                with self._sessions() as s, s.begin():
                    yield s
            except SQLAlchemyError as e:
                raise StorageError(f"cannot {what} ({self.url}): {_reason(e)}") from None

    # -- writing ---------------------------------------------------------------------------
    def save_game(self, entry: LogEntry) -> int:
        """Add a finished game to the log; returns its id (``entry`` itself is left as it is)."""
        # Checked before the transaction: each driver reports unencodable JSON in its own way.
        for part, value in (("names", entry.names), ("options", entry.options), ("record", entry.record)):
            try:
                json.dumps(value)
            except (TypeError, ValueError) as e:
                raise StorageError(f"cannot save the game: its {part} are not JSON data ({e})") from None
        with self._session("save the game") as s:
            row = _GameRow.from_entry(entry)
            s.add(row)
            s.flush()
            return row.id

    # -- reading ---------------------------------------------------------------------------
    def list_games(self, *, game: str | None = None, players: int | None = None,
                   difficulty: str | None = None, won: bool | None = None, limit: int = 50,
                   offset: int = 0) -> list[LogEntry]:
        """The games that match every filter given, newest first (without their records)."""
        _check_page(limit, offset)
        stmt = (select(_GameRow).where(*_filters(game, players, difficulty, won))
                .order_by(_GameRow.finished_at.desc(), _GameRow.id.desc()).limit(limit).offset(offset))
        with self._session("read the log") as s:
            return [row.entry(record=False) for row in s.scalars(stmt)]

    def best_games(self, *, game: str | None = None, players: int | None = None,
                   difficulty: str | None = None, won: bool | None = None, limit: int = 10,
                   offset: int = 0) -> list[LogEntry]:
        """The best scores among the matching games: highest total first, then the most time left,
        then the earliest (without their records)."""
        _check_page(limit, offset)
        stmt = (select(_GameRow).where(*_filters(game, players, difficulty, won))
                .order_by(_GameRow.score_total.desc(), func.coalesce(_GameRow.time_left_ms, -1).desc(),
                          _GameRow.finished_at.asc(), _GameRow.id.asc())
                .limit(limit).offset(offset))
        with self._session("read the log") as s:
            return [row.entry(record=False) for row in s.scalars(stmt)]

    def count_games(self, *, game: str | None = None, players: int | None = None,
                    difficulty: str | None = None, won: bool | None = None) -> int:
        """How many games match every filter given."""
        stmt = select(func.count()).select_from(_GameRow).where(*_filters(game, players, difficulty, won))
        with self._session("read the log") as s:
            return int(s.scalar(stmt) or 0)

    def get_game(self, game_id: int) -> LogEntry | None:
        """One game with its record, or ``None`` when there is no game with that id."""
        if not 0 < game_id <= _INT_MAX:
            return None
        with self._session("read the log") as s:
            row = s.get(_GameRow, game_id, options=[undefer(_GameRow.record)])
            return row.entry(record=True) if row is not None else None


def _filters(game: str | None, players: int | None, difficulty: str | None,
             won: bool | None) -> list[ColumnElement[bool]]:
    out: list[ColumnElement[bool]] = []
    if game is not None:
        out.append(_GameRow.game == game)
    if players is not None:
        out.append(_GameRow.players == players if abs(players) <= _INT_MAX else false())
    if difficulty is not None:
        out.append(_GameRow.difficulty == difficulty)
    if won is not None:
        out.append(_GameRow.won == won)
    return out


def _check_page(limit: int, offset: int) -> None:
    if limit < 0 or offset < 0:
        raise ValueError(f"limit and offset cannot be negative (got limit={limit}, offset={offset})")
