"""The BDT Log: every finished game, kept in SQLite or PostgreSQL.

``Storage(url)`` opens (and if needed creates) the log. The URL is one of::

    sqlite:///path/to/fuse.db        a file (the default: see ``default_url``)
    sqlite://                        in memory, gone when the program ends
    postgresql://user@host:port/db   PostgreSQL (psycopg 3; ``pip install 'fusegame[postgres]'``)

Each entry keeps the facts the log page lists and filters on (game, players, difficulty, result,
score, who played each seat, whether it is ranked) as columns, and the whole ``GameRecord`` as JSON
so that any game can be replayed exactly. Only ranked games (timed, dealt at random, every seat
played by a person from start to end) are ever among the best scores.

The same database keeps every room still open (``rooms`` and ``room_actions``): its options, seed
and seats, and its game's actions, one row each, appended as they are made, so that a server that
restarts, however it stopped, picks every game up where it was (``fusegame.server.lobby``).

The engine is synchronous and so is this module. The log's reads and writes are slow enough to go
through ``asyncio.to_thread``; a room's writes are small (one action is one short row) and are made
on the server's event loop, before the change goes out to the players. Every write is one
transaction; a problem with the database is raised as ``StorageError`` with one readable line.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import threading
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Index,
    String,
    Table,
    bindparam,
    create_engine,
    delete,
    event,
    false,
    func,
    insert,
    inspect,
    or_,
    select,
    text,
    true,
    update,
)
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.engine.interfaces import Dialect
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker, undefer
from sqlalchemy.pool import StaticPool
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ClauseElement, ColumnElement

from fusegame.observe import game_title
from fusegame.record import GameRecord
from fusegame.rules.outcome import Score
from fusegame.rules.state import GameState

__all__ = ["BOT", "PERSON", "PERSON_THEN_BOT", "LogEntry", "LogScore", "Storage", "StorageError",
           "StorageUnavailable", "StoredRoom", "default_url", "entry_from_state"]

#: ids and counts are 32-bit integers in PostgreSQL; a query beyond that range simply matches nothing
_INT_MAX = 2**31 - 1

URL_HELP = "use sqlite:///FILE, sqlite:// (in memory) or postgresql://USER@HOST:PORT/DATABASE"


#: Who played a seat of a logged game: a person throughout, a bot throughout, or a person and then
#: a bot (the seat was handed to the bot, or the bot took it over after its player left).
PERSON, BOT, PERSON_THEN_BOT = "person", "bot", "person_then_bot"


class StorageError(ValueError):
    """The log's database cannot be opened, read or written; the message is one readable line."""


class StorageUnavailable(StorageError):
    """The database did not answer a read or a write (down, unreachable, its disk full): a moment's
    trouble, worth trying again, unlike a request the database can never take."""


class RoomMoved(StorageError):
    """A room's write was refused: the row kept for it is another process's now (it took the room
    over, which raised the room's ``epoch``), or its game is already in the log. The writer has
    lost the room and must stop playing it; never worth trying again."""


# ================================================================== entries
@dataclass(frozen=True)
class LogScore:
    """A game's score as the log shows it (docs/rules.md E.3)."""

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

    ``names`` are the players' names by seat (bots included), ``bots`` how many seats a bot played
    (all of the game or part of it), ``options`` the room's options. ``record`` is
    ``GameRecord.to_dict()``; entries read by ``list_games``/``best_games`` leave it out (``None``),
    ``get_game`` includes it. ``id`` is ``None`` until the entry is saved.

    ``played_by`` says, by seat, who played it (``PERSON``, ``BOT`` or ``PERSON_THEN_BOT``) and
    ``seeded`` whether the deal was chosen (a room's ``seed`` option); both are ``None`` for games
    logged before they were recorded. ``ranked`` is true only for a timed (``official``) game dealt
    at random with every seat played by a person throughout: the only games among the best scores.
    ``table`` marks a game played with the box at a real table, its score counted by its players
    (no record, never ranked: the best scores show such games only when asked).
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
    played_by: list[str] | None = None
    seeded: bool | None = None
    ranked: bool = False
    table: bool = False

    def to_dict(self, *, with_record: bool = False) -> dict[str, Any]:
        """The protocol's entry: ``finished_at`` in ISO 8601 UTC (``...Z``), the score nested;
        ``with_record=True`` adds ``"record"``."""
        d: dict[str, Any] = {
            "id": self.id, "finished_at": _iso(self.finished_at), "game": self.game, "title": self.title,
            "players": self.players, "names": list(self.names), "bots": self.bots,
            "difficulty": self.difficulty, "options": dict(self.options), "won": self.won,
            "reason": self.reason, "time_left_ms": self.time_left_ms, "score": self.score.to_dict(),
            "official": self.official,
            "played_by": list(self.played_by) if self.played_by is not None else None,
            "seeded": self.seeded, "ranked": self.ranked, "table": self.table,
        }
        if with_record:
            d["record"] = self.record
        return d


def entry_from_state(state: GameState, record: GameRecord | Mapping[str, Any] | None, names: Sequence[str],
                     bots: int, options: Mapping[str, Any] | None = None,
                     finished_at: datetime | None = None, *, played_by: Sequence[str] | None = None,
                     seeded: bool | None = None) -> LogEntry:
    """The log entry for a finished game (``finished_at`` defaults to now).

    ``official`` is the engine's verdict (``Outcome.official``): untimed practice and games of
    another length do not count as official. The game is ranked only when it is official, ``seeded``
    is false, no seat had a bot (``bots`` is 0), ``played_by`` says a person played every seat, the
    room gave no hints (``options``) and the game went at a person's pace (``MIN_MS_PER_DIE``); a
    caller that does not know who played or how the deal was made leaves the game unranked.
    Raises ``ValueError`` when the game is not over.
    """
    outcome = state.outcome
    if outcome is None:
        raise ValueError("the game is not over: only finished games go in the BDT Log")
    cfg = state.config
    if isinstance(record, GameRecord):
        rec: dict[str, Any] | None = record.to_dict()
    else:
        rec = dict(record) if record is not None else None
    seats = list(played_by) if played_by is not None else None
    ranked = (outcome.official and seeded is False and bots == 0 and seats is not None
              and len(seats) == cfg.players and all(p == PERSON for p in seats)
              and not (options or {}).get("hints") and _at_a_person_s_pace(state, rec))
    return LogEntry(
        finished_at=finished_at if finished_at is not None else datetime.now(UTC),
        game=cfg.game.value, title=game_title(cfg), players=cfg.players, names=list(names), bots=bots,
        difficulty=cfg.difficulty.value, options=dict(options or {}), won=outcome.won,
        reason=outcome.reason.value, time_left_ms=outcome.time_left_ms,
        score=LogScore.from_score(outcome.score), official=outcome.official, record=rec, played_by=seats,
        seeded=seeded, ranked=ranked)


#: A ranked game was played at a person's pace: at least this much of its clock per die placed. A
#: script that plays "as a person" at once (0.6 s for a whole solo game) is not; a table of people,
#: who take seconds a die, always is.
MIN_MS_PER_DIE = 1000


def _at_a_person_s_pace(state: GameState, rec: Mapping[str, Any] | None) -> bool:
    """Did the game use at least ``MIN_MS_PER_DIE`` of its clock for each die placed?"""
    outcome, limit = state.outcome, state.config.time_limit
    if rec is None or outcome is None or limit is None:
        return False
    placed = sum(1 for a in rec.get("actions", ()) if " place " in f" {a} ")
    used = limit * 1000 - (outcome.time_left_ms or 0)
    return used >= MIN_MS_PER_DIE * placed


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
    # Added later (``_MIGRATIONS``): older rows have no seats' players and no seed flag, and are not ranked.
    played_by: Mapped[list[str] | None] = mapped_column(JSON(none_as_null=True))
    seeded: Mapped[bool | None] = mapped_column(Boolean)
    ranked: Mapped[bool] = mapped_column(Boolean, server_default=false(), default=False)
    #: the code of the room it was played in, so that a page opened on that code once the room has
    #: left the server is sent to the game in the log
    room_code: Mapped[str | None] = mapped_column(String(16))
    #: a game played with the box at a real table (the Ship's Computer), not in this app
    table_game: Mapped[bool] = mapped_column(Boolean, server_default=false(), default=False)
    #: the game's review (``fusegame.review``), kept once made; deferred like the record
    review: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), deferred=True)

    __table_args__ = (
        Index("ix_games_best", "score_total", "time_left_ms"),
        Index("ix_games_filter", "game", "players", "difficulty", "won"),
        Index("ix_games_ranked", "ranked", "score_total"),
        Index("ix_games_room_code", "room_code"),
        Index("ix_games_table", "table_game", "score_total"),
    )

    @classmethod
    def from_entry(cls, e: LogEntry) -> _GameRow:
        return cls(finished_at=_utc(e.finished_at), game=e.game, title=e.title, players=e.players,
                   names=list(e.names), bots=e.bots, difficulty=e.difficulty, options=dict(e.options),
                   won=e.won, reason=e.reason, time_left_ms=e.time_left_ms, score_total=e.score.total,
                   score_win=e.score.win, score_time=e.score.time, score_bombs=e.score.bombs,
                   score_fuses=e.score.fuses, score_sparks=e.score.sparks, official=e.official,
                   record=e.record, played_by=list(e.played_by) if e.played_by is not None else None,
                   seeded=e.seeded, ranked=e.ranked, table_game=e.table)

    def entry(self, *, record: bool) -> LogEntry:
        return LogEntry(
            finished_at=_utc(self.finished_at), game=self.game, title=self.title, players=self.players,
            names=list(self.names), bots=self.bots, difficulty=self.difficulty, options=dict(self.options),
            won=self.won, reason=self.reason, time_left_ms=self.time_left_ms,
            score=LogScore(self.score_total, self.score_win, self.score_time, self.score_bombs,
                           self.score_fuses, self.score_sparks),
            official=self.official, record=self.record if record else None, id=self.id,
            played_by=list(self.played_by) if self.played_by is not None else None, seeded=self.seeded,
            ranked=bool(self.ranked), table=bool(self.table_game))


#: Columns added to ``games`` after the first release, with their SQL types: ``Storage`` adds the
#: ones an older log lacks (``ranked`` false: who played an older game cannot be checked).
_MIGRATIONS: dict[str, dict[str, dict[str, str]]] = {"games": {
    "played_by": {"sqlite": "JSON", "postgresql": "JSON"},
    "seeded": {"sqlite": "BOOLEAN", "postgresql": "BOOLEAN"},
    "ranked": {"sqlite": "BOOLEAN NOT NULL DEFAULT 0", "postgresql": "BOOLEAN NOT NULL DEFAULT false"},
    "room_code": {"sqlite": "VARCHAR(16)", "postgresql": "VARCHAR(16)"},
    "table_game": {"sqlite": "BOOLEAN NOT NULL DEFAULT 0", "postgresql": "BOOLEAN NOT NULL DEFAULT false"},
    "review": {"sqlite": "JSON", "postgresql": "JSON"},
}, "rooms": {
    "epoch": {"sqlite": "BIGINT NOT NULL DEFAULT 0", "postgresql": "BIGINT NOT NULL DEFAULT 0"},
}}


class _RoomRow(_Base):
    """A room still open: its options (the game's config included), seed, seats and where its clock
    stood when the server last stopped it; its actions are in ``room_actions``."""

    __tablename__ = "rooms"

    code: Mapped[str] = mapped_column(String(32), primary_key=True)
    status: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    clock_ms: Mapped[int | None] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: raised by each process that takes the room over (``load_rooms(take=True)``); every write
    #: of a room names the epoch its writer holds, so a process that lost the room is refused
    #: by the database itself (a fencing token) and cannot write, show or log a move again
    epoch: Mapped[int] = mapped_column(BigInteger, server_default=text("0"), default=0)


class _ActionRow(_Base):
    """One action of a room's game, in its text form with its time (``p0 place d3 F12 s1 @1500``)."""

    __tablename__ = "room_actions"

    room: Mapped[str] = mapped_column(String(32), primary_key=True)
    idx: Mapped[int] = mapped_column(primary_key=True)
    action: Mapped[str] = mapped_column(String(400))


_ROOMS = cast(Table, _RoomRow.__table__)
_ACTIONS = cast(Table, _ActionRow.__table__)


@dataclass
class StoredRoom:
    """A room as the database keeps it (see ``fusegame.server.lobby`` for what each part holds).

    ``status`` is ``lobby``, ``playing`` or ``broken`` (a room whose game would not replay: kept for
    a person to look at, never resumed); ``actions`` are the game's actions in order, as text;
    ``epoch`` is the fencing token of the process that holds the room (``RoomMoved``).
    """

    code: str
    status: str
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    created_at: datetime
    clock_ms: int | None = None
    actions: list[str] = field(default_factory=list)
    epoch: int = 0


# ================================================================== storage
def data_dir() -> Path:
    """``$FUSE_DATA_DIR``, else the user's data directory (``$XDG_DATA_HOME/fusegame``, normally
    ``~/.local/share/fusegame``); not created here."""
    env = os.environ.get("FUSE_DATA_DIR")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    return (Path(xdg) if xdg else Path.home() / ".local" / "share") / "fusegame"


def default_url() -> str:
    """The log's default place: ``fuse.db`` in ``$FUSE_DATA_DIR``, else in the user's data directory
    (``$XDG_DATA_HOME/fusegame``, normally ``~/.local/share/fusegame``), created when missing."""
    base = data_dir()
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


@dataclass(frozen=True)
class _DriverStatement:
    """A statement rendered once in the driver's own SQL and run on its cursor, inside a
    transaction of SQLAlchemy's. A room's move is the server's most frequent write, made on the
    event loop; SQLAlchemy's work for each execution (its cache of statements, its execution
    context) took longer than the database's (bench/room_writes.py). Only for statements whose
    values need no conversion on their way to the driver (text and integers)."""

    sql: str
    names: tuple[str, ...] | None  #: the parameters' order where the driver's style is positional

    @classmethod
    def of(cls, statement: ClauseElement, dialect: Dialect) -> _DriverStatement:
        compiled = cast(SQLCompiler, statement.compile(dialect=dialect))
        return cls(str(compiled), tuple(compiled.positiontup or ()) if compiled.positional else None)

    def run(self, conn: Connection, params: dict[str, Any]) -> None:
        cursor = conn.connection.cursor()
        try:
            cursor.execute(self.sql, params if self.names is None else [params[n] for n in self.names])
        finally:
            cursor.close()


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
        #: where rooms the database could not take when the server stopped wait for it (a folder
        #: beside a SQLite file; in the data directory for a server database; none in memory)
        self.spool: Path | None = _spool_for(given)
        self._engine = self._create_engine(given)
        dialect = self._engine.dialect
        #: what the driver raises (the statements run on its cursor are not wrapped by SQLAlchemy)
        self._driver_error: type[Exception] = dialect.loaded_dbapi.Error
        self._append = _DriverStatement.of(insert(_ACTIONS).values(
            room=bindparam("room"), idx=bindparam("idx"), action=bindparam("action")), dialect)
        # An in-memory database is a single shared connection: one lock keeps two threads'
        # transactions from interleaving on it. A file has a connection per thread, and SQLite's
        # write-ahead log lets readers go on while one writer writes (the others wait their turn).
        self._lock: threading.Lock | None = (
            threading.Lock() if self._engine.dialect.name == "sqlite" and self._memory else None)
        self._sessions = sessionmaker(self._engine, expire_on_commit=False)
        #: the connection the rooms' writes use, kept open: they come one at a time from the
        #: server's event loop, and checking one out of the pool would cost a ping each time
        self._room_conn: Connection | None = None
        try:
            _Base.metadata.create_all(self._engine)
            self._migrate()
            with Session(self._engine) as s:  # an old or foreign "games" table fails here, not later
                s.execute(select(_GameRow).limit(1)).all()
                s.execute(select(_RoomRow).limit(1)).all()
        except SQLAlchemyError as e:
            self._engine.dispose()
            raise StorageError(f"cannot open database {self.url}: {_reason(e)}") from None

    def _migrate(self) -> None:
        """Add the columns an older ``games`` or ``rooms`` table lacks (their values for the older
        rows are the defaults: unknown players and seed, not ranked, the first epoch)."""
        dialect = self._engine.dialect.name
        for table, columns in _MIGRATIONS.items():
            have = {c["name"] for c in inspect(self._engine).get_columns(table)}
            missing = [(name, types[dialect]) for name, types in columns.items() if name not in have]
            if not missing:
                continue
            with self._engine.begin() as conn:
                for name, sql_type in missing:
                    conn.execute(text(f"ALTER TABLE {table} ADD COLUMN {name} {sql_type}"))
                for ix in _Base.metadata.tables[table].indexes:
                    ix.create(conn, checkfirst=True)

    def _create_engine(self, given: URL) -> Engine:
        scheme, _, driver = given.drivername.partition("+")
        url = given
        kw: dict[str, Any] = {}
        self._memory = False
        if scheme in ("postgresql", "postgres"):
            # psycopg 3 is the driver this package depends on; plain postgresql:// would mean psycopg2
            url = given.set(drivername="postgresql+" + (driver or "psycopg"))
            # PostgreSQL answers a commit once its write-ahead log is on the disk. A room's move is
            # written on the game's event loop, where waiting for the disk would hold up every
            # room on the server; with synchronous_commit off a commit is on the database server
            # as it returns (a killed or crashed game server loses nothing), and only a crash of
            # the database server itself could lose its last fraction of a second.
            kw = {"pool_pre_ping": True,
                  "connect_args": {"connect_timeout": 10, "options": "-c synchronous_commit=off"}}
        elif scheme == "sqlite":
            self._memory = memory = given.database in (None, "", ":memory:")
            # a writer that finds the file busy waits for its turn (up to 10 s) instead of failing
            kw = {"connect_args": {"check_same_thread": False, "timeout": 10}}
            if memory:
                kw["poolclass"] = StaticPool
        else:
            raise StorageError(f"cannot open database {self.url}: unsupported kind {scheme!r} ({URL_HELP})")
        try:
            engine = create_engine(url, **kw)
        except (ImportError, NoSuchModuleError) as e:
            hint = (" (postgresql:// uses psycopg 3: pip install 'fusegame[postgres]')"
                    if scheme != "sqlite" else "")
            raise StorageError(f"cannot open database {self.url}: no driver: {_reason(e)}{hint}") from None
        except (ArgumentError, TypeError) as e:
            raise StorageError(f"cannot open database {self.url}: {_reason(e)}") from None
        if scheme == "sqlite" and not self._memory:
            event.listen(engine, "connect", _sqlite_pragmas)
        return engine

    def close(self) -> None:
        """Close the database's connections (an in-memory log is gone after this)."""
        if self._room_conn is not None:
            with contextlib.suppress(SQLAlchemyError):
                self._room_conn.close()
            self._room_conn = None
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
                raise StorageUnavailable(f"cannot {what} ({self.url}): {_reason(e)}") from None

    # -- writing ---------------------------------------------------------------------------
    def save_game(self, entry: LogEntry) -> int:
        """Add a finished game to the log; returns its id (``entry`` itself is left as it is)."""
        return self.finish_room(None, entry)

    # -- rooms still open -------------------------------------------------------------------
    @contextmanager
    def _room_write(self, what: str) -> Iterator[Connection]:
        """One transaction on the rooms' own connection (opened again after a failure)."""
        with self._lock if self._lock is not None else nullcontext():
            try:
                if self._room_conn is None:
                    self._room_conn = self._engine.connect()
                with self._room_conn.begin():
                    yield self._room_conn
            except (SQLAlchemyError, self._driver_error) as e:
                conn, self._room_conn = self._room_conn, None
                if conn is not None:
                    with contextlib.suppress(SQLAlchemyError):
                        conn.invalidate()
                raise StorageUnavailable(f"cannot {what} ({self.url}): {_reason(e)}") from None

    def save_room(self, room: StoredRoom, *, replacing: bool = False) -> None:
        """Write a room whole (its row, at ``room.epoch``, and every action). A new room's code
        must be free; ``replacing`` writes over the row kept at the same epoch, which must still
        be there. Anything else is ``RoomMoved``: a room is never written back over another
        process's, nor brought back once its game is logged."""
        _check_json("room", options=room.options, seats=room.seats)
        with self._room_write(f"save room {room.code}") as conn:
            if replacing:
                _hold(conn, room.code, room.epoch)
            elif conn.execute(select(_ROOMS.c.code).where(_ROOMS.c.code == room.code)).first() is not None:
                raise RoomMoved(f"room {room.code} is kept already")
            conn.execute(delete(_ACTIONS).where(_ACTIONS.c.room == room.code))
            conn.execute(delete(_ROOMS).where(_ROOMS.c.code == room.code))
            conn.execute(insert(_ROOMS), {
                "code": room.code, "status": room.status, "options": room.options, "seed": room.seed,
                "seats": room.seats, "clock_ms": room.clock_ms, "created_at": _utc(room.created_at),
                "epoch": room.epoch})
            if room.actions:
                conn.execute(insert(_ACTIONS), [{"room": room.code, "idx": i, "action": a}
                                                for i, a in enumerate(room.actions)])

    def update_room(self, code: str, *, status: str | None = None, seats: list[dict[str, Any]] | None = None,
                    clock_ms: int | None = None, epoch: int | None = None) -> None:
        """Change a room's status, seats or stopped clock (only those given), as the holder of
        ``epoch`` (``RoomMoved`` when another process holds the room now, or it is gone)."""
        values: dict[str, Any] = {}
        if status is not None:
            values["status"] = status
        if seats is not None:
            _check_json("room", seats=seats)
            values["seats"] = seats
        if clock_ms is not None:
            values["clock_ms"] = clock_ms
        if not values:
            return
        held = [] if epoch is None else [_ROOMS.c.epoch == epoch]
        with self._room_write(f"update room {code}") as conn:
            changed = conn.execute(update(_ROOMS).where(_ROOMS.c.code == code, *held).values(**values))
            if changed.rowcount != 1:
                raise RoomMoved(f"cannot update room {code} ({self.url}): it is not stored"
                                + (f" at epoch {epoch}" if epoch is not None else ""))

    def append_action(self, code: str, index: int, action: str, *,
                      seats: list[dict[str, Any]] | None = None, epoch: int | None = None) -> None:
        """Add action number ``index`` (0-based) to a room's game, and its seats when they changed
        with it, in one transaction, as the holder of ``epoch`` (``RoomMoved`` when it is not)."""
        if seats is not None:
            _check_json("room", seats=seats)
        with self._room_write(f"record a move of room {code}") as conn:
            if epoch is not None:
                # first: the room's row is locked until the commit, so a process taking the room
                # over waits for this move and reads it, or this write waits and is refused
                _hold(conn, code, epoch)
            self._append.run(conn, {"room": code, "idx": index, "action": action})
            if seats is not None:
                conn.execute(update(_ROOMS).where(_ROOMS.c.code == code).values(seats=seats))

    def delete_room(self, code: str, *, epoch: int | None = None) -> None:
        """Forget a room and its actions (nothing happens if it is not stored, or, given
        ``epoch``, if another process holds it now)."""
        held = [] if epoch is None else [_ROOMS.c.epoch == epoch]
        with self._room_write(f"delete room {code}") as conn:
            if conn.execute(delete(_ROOMS).where(_ROOMS.c.code == code, *held)).rowcount or epoch is None:
                conn.execute(delete(_ACTIONS).where(_ACTIONS.c.room == code))

    def load_rooms(self, codes: Collection[str] | None = None, *, take: bool = False) -> list[StoredRoom]:
        """Every stored room (or those of ``codes``) with its actions in order, oldest room first.
        ``take``: this process takes the rooms over; their epochs are raised first, in the same
        transaction, so that whoever held them before can write none of them again."""
        with self._session("read the open rooms") as s:
            if take:
                s.execute(update(_ROOMS).where(*[] if codes is None else [_ROOMS.c.code.in_(list(codes))])
                          .values(epoch=_ROOMS.c.epoch + 1))
            actions: dict[str, list[str]] = {}
            which = [] if codes is None else [_ACTIONS.c.room.in_(list(codes))]
            for code, action in s.execute(select(_ACTIONS.c.room, _ACTIONS.c.action).where(*which)
                                          .order_by(_ACTIONS.c.room, _ACTIONS.c.idx)):
                actions.setdefault(code, []).append(action)
            chosen = [] if codes is None else [_ROOMS.c.code.in_(list(codes))]
            rows = s.execute(select(_ROOMS).where(*chosen)
                             .order_by(_ROOMS.c.created_at, _ROOMS.c.code)).mappings().all()
            return [StoredRoom(code=r["code"], status=r["status"], options=dict(r["options"]),
                               seed=r["seed"], seats=list(r["seats"]), created_at=_utc(r["created_at"]),
                               clock_ms=r["clock_ms"], actions=actions.get(r["code"], []),
                               epoch=r["epoch"]) for r in rows]

    def has_room(self, code: str) -> bool:
        """Whether room ``code`` is kept (and not broken)."""
        with self._session("read the open rooms") as s:
            return s.scalars(select(_ROOMS.c.code).where(_ROOMS.c.code == code,
                                                         _ROOMS.c.status != "broken")).first() is not None

    def room_epoch(self, code: str) -> int | None:
        """The epoch room ``code`` is held at now (None when it is not kept)."""
        with self._session("read the open rooms") as s:
            epoch = s.scalars(select(_ROOMS.c.epoch).where(_ROOMS.c.code == code)).first()
            return None if epoch is None else int(epoch)

    def room_codes(self) -> list[str]:
        """The codes of the rooms kept, but for broken ones (cheap: no seats, no actions)."""
        with self._session("read the open rooms") as s:
            return list(s.scalars(select(_ROOMS.c.code).where(_ROOMS.c.status != "broken")))

    def finish_room(self, code: str | None, entry: LogEntry, *, epoch: int | None = None) -> int:
        """Add a finished game to the log and forget its room (``code``), in one transaction:
        a server that stops between the two can neither lose the game nor log it twice. Given
        ``epoch``, the room's row must still be there at that epoch (``RoomMoved`` otherwise, and
        nothing is logged): of two processes that both think they hold a room, one logs it."""
        _check_json("game", names=entry.names, options=entry.options, record=entry.record,
                    played_by=entry.played_by)
        with self._session("save the game") as s:
            if code is not None and epoch is not None and s.connection().execute(
                    delete(_ROOMS).where(_ROOMS.c.code == code, _ROOMS.c.epoch == epoch)).rowcount != 1:
                raise RoomMoved(f"room {code} is no longer held at epoch {epoch}: its game is not "
                                "logged here")
            row = _GameRow.from_entry(entry)
            row.room_code = code
            s.add(row)
            s.flush()
            if code is not None:
                s.execute(delete(_ACTIONS).where(_ACTIONS.c.room == code))
                s.execute(delete(_ROOMS).where(_ROOMS.c.code == code))
            return row.id

    # -- rooms the database could not take ---------------------------------------------------
    def spool_room(self, room: StoredRoom) -> Path | None:
        """Keep ``room`` whole in a file until the database can take it (``spooled``): a server
        stopping while the database is away must not lose the moves it could not write. Returns
        the file (None when there is nowhere to keep it: a database in memory)."""
        if self.spool is None:
            return None
        self.spool.mkdir(parents=True, exist_ok=True)
        path = self.spool / f"{room.code}.json"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({**dataclasses.asdict(room), "created_at": _iso(room.created_at)}))
        tmp.replace(path)  # whole or not at all
        return path

    def spooled(self) -> list[tuple[Path, StoredRoom]]:
        """The rooms kept by ``spool_room``, with their files."""
        if self.spool is None or not self.spool.is_dir():
            return []
        kept = []
        for path in sorted(self.spool.glob("*.json")):
            d = json.loads(path.read_text())
            kept.append((path, StoredRoom(**{**d, "created_at": datetime.fromisoformat(d["created_at"])})))
        return kept

    # -- reading ---------------------------------------------------------------------------
    def game_of_room(self, code: str) -> int | None:
        """The log id of the game played in room ``code`` once the room is gone, or None."""
        stmt = (select(_GameRow.id).where(_GameRow.room_code == code[:16])
                .order_by(_GameRow.id.desc()).limit(1))
        with self._session("read the log") as s:
            return s.scalars(stmt).first()

    def list_games(self, *, limit: int = 50, offset: int = 0, **filters: Any) -> list[LogEntry]:
        """The games that match every filter given (``game``, ``players``, ``difficulty``, ``won``,
        ``ranked``, ``bots``: any seat played by a bot or not, ``seeded``, ``official``, ``source``:
        ``"digital"``, ``"table"`` or ``"all"``), newest first (without their records)."""
        _check_page(limit, offset)
        stmt = (select(_GameRow).where(*_filters(**filters))
                .order_by(_GameRow.finished_at.desc(), _GameRow.id.desc()).limit(limit).offset(offset))
        with self._session("read the log") as s:
            return [row.entry(record=False) for row in s.scalars(stmt)]

    def best_games(self, *, limit: int = 10, offset: int = 0, source: str | None = None,
                   **filters: Any) -> list[LogEntry]:
        """The best scores among the matching ranked games (never a game with a bot, a chosen
        seed or no clock): highest total first, then the most time left, then the earliest
        (without their records). Games played at a real table are never ranked: ``source="table"``
        asks for the best of them instead (those with the rulebook's clock), ``source="all"`` for
        both kinds together."""
        _check_page(limit, offset)
        table = _GameRow.table_game.is_(true()) & _GameRow.official.is_(true())
        eligible = {"table": table, "all": or_(_GameRow.ranked.is_(true()), table)}.get(
            source or "", _GameRow.ranked.is_(true()))
        stmt = (select(_GameRow).where(eligible, *_filters(source=source, **filters))
                .order_by(_GameRow.score_total.desc(), func.coalesce(_GameRow.time_left_ms, -1).desc(),
                          _GameRow.finished_at.asc(), _GameRow.id.asc())
                .limit(limit).offset(offset))
        with self._session("read the log") as s:
            return [row.entry(record=False) for row in s.scalars(stmt)]

    def count_games(self, **filters: Any) -> int:
        """How many games match every filter given (as ``list_games`` takes them)."""
        stmt = select(func.count()).select_from(_GameRow).where(*_filters(**filters))
        with self._session("read the log") as s:
            return int(s.scalar(stmt) or 0)

    def get_game(self, game_id: int) -> LogEntry | None:
        """One game with its record, or ``None`` when there is no game with that id."""
        if not 0 < game_id <= _INT_MAX:
            return None
        with self._session("read the log") as s:
            row = s.get(_GameRow, game_id, options=[undefer(_GameRow.record)])
            return row.entry(record=True) if row is not None else None


    def get_review(self, game_id: int) -> dict[str, Any] | None:
        """The review kept with a game (``save_review``), or ``None``: none kept, or no such game."""
        if not 0 < game_id <= _INT_MAX:
            return None
        with self._session("read the log") as s:
            found = s.scalar(select(_GameRow.review).where(_GameRow.id == game_id))
            return dict(found) if found is not None else None

    def save_review(self, game_id: int, review: dict[str, Any]) -> None:
        """Keep a game's review with it (a later one replaces it)."""
        with self._session("write the log") as s:
            s.execute(update(_GameRow).where(_GameRow.id == game_id).values(review=review))


def _filters(*, game: str | None = None, players: int | None = None, difficulty: str | None = None,
             won: bool | None = None, ranked: bool | None = None, bots: bool | None = None,
             seeded: bool | None = None, official: bool | None = None,
             source: str | None = None) -> list[ColumnElement[bool]]:
    out: list[ColumnElement[bool]] = []
    if source in ("digital", "table"):
        out.append(_GameRow.table_game.is_(true()) if source == "table" else _GameRow.table_game.is_(false()))
    elif source not in (None, "all"):
        raise StorageError(f"source: digital, table or all, not {source!r}")
    if game is not None:
        out.append(_GameRow.game == game)
    if players is not None:
        out.append(_GameRow.players == players if abs(players) <= _INT_MAX else false())
    if difficulty is not None:
        out.append(_GameRow.difficulty == difficulty)
    if won is not None:
        out.append(_GameRow.won == won)
    if ranked is not None:
        out.append(_GameRow.ranked.is_(true()) if ranked else _GameRow.ranked.is_(false()))
    if bots is not None:
        out.append(_GameRow.bots > 0 if bots else _GameRow.bots == 0)
    if seeded is not None:  # an older game's seed is unknown: it matches neither
        out.append(_GameRow.seeded.is_(true()) if seeded else _GameRow.seeded.is_(false()))
    if official is not None:
        out.append(_GameRow.official == official)
    return out


def _spool_for(url: URL) -> Path | None:
    if url.drivername.startswith("sqlite"):
        return None if url.database in (None, "", ":memory:") else Path(f"{url.database}.unsaved-rooms")
    where = hashlib.sha256(url.render_as_string(hide_password=True).encode()).hexdigest()[:12]
    return data_dir() / f"unsaved-rooms-{where}"


def _hold(conn: Connection, code: str, epoch: int) -> None:
    """Lock room ``code``'s row for this transaction if it is held at ``epoch``; else ``RoomMoved``.
    PostgreSQL locks the row (``FOR UPDATE``) until the commit; SQLite has one writer at a time, and a
    write after a read that another process has overtaken fails instead of committing."""
    held = conn.execute(select(_ROOMS.c.epoch).where(_ROOMS.c.code == code).with_for_update()).scalar()
    if held != epoch:
        raise RoomMoved(f"room {code} is held by another process now (or its game is logged): "
                        f"a write at epoch {epoch} is refused")


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # The write-ahead log with normal syncing: a commit is in the file as soon as it returns, so a
    # killed or crashed server loses nothing; only a power cut could lose the last moments before
    # the log's next checkpoint. A room's move is then one short append, not a sync to the disk.
    cur = dbapi_connection.cursor()
    try:
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
    finally:
        cur.close()


def _check_json(what: str, **parts: Any) -> None:
    # Checked before the transaction: each driver reports unencodable JSON in its own way.
    for part, value in parts.items():
        try:
            json.dumps(value)
        except (TypeError, ValueError) as e:
            raise StorageError(f"cannot save the {what}: its {part} are not JSON data ({e})") from None


def _check_page(limit: int, offset: int) -> None:
    if limit < 0 or offset < 0:
        raise ValueError(f"limit and offset cannot be negative (got limit={limit}, offset={offset})")
