"""The BDT Log's storage, on SQLite and on a real PostgreSQL server (started by ``pgserver``)."""

from __future__ import annotations

import dataclasses
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from fusegame import GameConfig, new_game
from fusegame.record import GameRecord, final_state
from fusegame.rules.state import GameState
from fusegame.server.storage import (
    LogEntry,
    LogScore,
    RoomMoved,
    Storage,
    StorageError,
    StoredRoom,
    default_url,
    entry_from_state,
)
from fusegame.sim import get_policy, play_game
from pgserver import free_port, fresh_database, postgres_url  # noqa: F401

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)

ENTRY_KEYS = {"id", "finished_at", "game", "title", "players", "names", "bots", "difficulty", "options",
              "won", "reason", "time_left_ms", "score", "official", "played_by", "seeded", "ranked", "table"}


def finished(config: GameConfig, seed: int) -> tuple[GameState, GameRecord]:
    result = play_game(config, seed, get_policy("greedy"), record=True)
    assert result.record is not None
    return final_state(result.record), result.record


@pytest.fixture(scope="module")
def played() -> dict[str, tuple[GameState, GameRecord]]:
    """Real finished games: a won and a lost 2-player Training game, a 3-player Standard game and a
    Countdown game."""
    games = {
        "won": finished(GameConfig(players=2, difficulty="training"), 0),
        "lost": finished(GameConfig(players=2, difficulty="training"), 1),
        "three": finished(GameConfig(players=3, difficulty="standard"), 2),
        "countdown": finished(GameConfig(players=3, game="countdown", difficulty="standard"), 1),
    }
    assert games["won"][0].outcome is not None and games["won"][0].outcome.won
    assert games["lost"][0].outcome is not None and not games["lost"][0].outcome.won
    return games


def entry(played: dict[str, tuple[GameState, GameRecord]], key: str, minutes: int = 0,
          bots: int = 1) -> LogEntry:
    state, record = played[key]
    names = ["Ann"] + [f"Bot {i + 1}" for i in range(1, state.config.players)]
    return entry_from_state(state, record, names, bots, {"timed": True, "hints": False},
                            T0 + timedelta(minutes=minutes))


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty log's URL: a SQLite file, or a fresh database on the test PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'fuse.db'}"
    return fresh_database(request.getfixturevalue("postgres_url"))


@pytest.fixture
def store(url: str) -> Any:
    s = Storage(url)
    yield s
    s.close()


def test_a_finished_game_reads_back_as_saved(store: Storage,
                                             played: dict[str, tuple[GameState, GameRecord]]) -> None:
    state, record = played["won"]
    e = entry(played, "won")
    assert state.outcome is not None
    assert (e.game, e.title, e.players, e.difficulty, e.official) == ("fuse", "FUSE", 2, "training", True)
    assert e.score.total == state.outcome.score.total and e.time_left_ms == state.outcome.time_left_ms
    game_id = store.save_game(e)
    got = store.get_game(game_id)
    assert got == dataclasses.replace(e, id=game_id)
    assert got.record == record.to_dict()
    d = got.to_dict(with_record=True)
    assert set(d) == ENTRY_KEYS | {"record"}
    assert d["finished_at"] == "2024-05-01T12:00:00Z"
    assert d["score"] == {"total": state.outcome.score.total, "win": 10,
                          "time": state.outcome.score.time_bonus, "bombs": state.outcome.score.bomb_points,
                          "fuses": state.outcome.score.fuse_points, "sparks": 0}
    assert (d["won"], d["reason"], d["names"], d["bots"]) == (True, "bombs-defused", ["Ann", "Bot 2"], 1)
    # lists leave the record out
    (listed,) = store.list_games()
    assert listed.record is None and set(listed.to_dict()) == ENTRY_KEYS


def test_the_stored_record_replays_to_the_same_outcome(
        store: Storage, played: dict[str, tuple[GameState, GameRecord]]) -> None:
    for key in ("lost", "countdown"):
        state, _ = played[key]
        got = store.get_game(store.save_game(entry(played, key)))
        assert got is not None and got.record is not None
        replayed = final_state(GameRecord.from_dict(got.record))
        assert replayed.outcome == state.outcome
        assert replayed.outcome is not None and got.score.total == replayed.outcome.score.total


def test_filters_pick_the_matching_games(store: Storage,
                                         played: dict[str, tuple[GameState, GameRecord]]) -> None:
    ids = {k: store.save_game(entry(played, k, minutes=i)) for i, k in enumerate(played)}

    def found(**kw: Any) -> set[int | None]:
        games = store.list_games(**kw)
        assert store.count_games(**kw) == len(games)
        return {g.id for g in games}

    wins = {ids[k] for k, (s, _) in played.items() if s.outcome is not None and s.outcome.won}
    assert found(won=True) == wins and ids["won"] in wins
    assert found(won=False) == set(ids.values()) - wins and ids["lost"] not in wins
    assert found(players=2) == {ids["won"], ids["lost"]}
    assert found(difficulty="standard") == {ids["three"], ids["countdown"]}
    assert found(game="countdown") == {ids["countdown"]}
    assert found(game="fuse", players=3) == {ids["three"]}
    assert found(game="fuse", difficulty="training", won=False) == {ids["lost"]}
    assert found(game="epic") == set() and found(players=10**12) == set()
    assert store.count_games() == 4


def test_listing_is_newest_first_and_pages(store: Storage,
                                           played: dict[str, tuple[GameState, GameRecord]]) -> None:
    # saved out of order: the finishing time decides, not the order of saving
    for minutes in (5, 1, 9, 3):
        store.save_game(entry(played, "won", minutes=minutes))
    times = [e.finished_at for e in store.list_games()]
    assert times == sorted(times, reverse=True) and times[0] == T0 + timedelta(minutes=9)
    assert [e.finished_at for e in store.list_games(limit=2, offset=1)] == times[1:3]
    with pytest.raises(ValueError, match="negative"):
        store.list_games(limit=-1)


def test_best_is_by_total_then_time_left(store: Storage,
                                         played: dict[str, tuple[GameState, GameRecord]]) -> None:
    base = dataclasses.replace(entry(played, "won"), ranked=True)

    def variant(total: int, left: int | None, minutes: int) -> int:
        e = dataclasses.replace(base, score=dataclasses.replace(base.score, total=total), time_left_ms=left,
                                finished_at=T0 + timedelta(minutes=minutes))
        return store.save_game(e)

    mid_less_time = variant(60, 10_000, 0)
    low = variant(40, 500_000, 1)
    top = variant(80, 0, 2)
    mid_untimed = variant(60, None, 3)
    mid_more_time = variant(60, 90_000, 4)
    mid_more_time_later = variant(60, 90_000, 5)
    assert [e.id for e in store.best_games()] == [top, mid_more_time, mid_more_time_later, mid_less_time,
                                                  mid_untimed, low]
    assert [e.id for e in store.best_games(limit=2)] == [top, mid_more_time]


def test_the_log_survives_reopening(url: str, played: dict[str, tuple[GameState, GameRecord]]) -> None:
    with Storage(url) as first:
        game_id = first.save_game(entry(played, "three"))
    with Storage(url) as again:  # create_all on an existing log keeps its games
        got = again.get_game(game_id)
        assert got is not None and got.to_dict(with_record=True) == \
            dataclasses.replace(entry(played, "three"), id=game_id).to_dict(with_record=True)
        assert again.count_games() == 1


def test_unknown_ids_are_none(store: Storage) -> None:
    assert store.get_game(1) is None
    assert store.get_game(0) is None and store.get_game(-3) is None and store.get_game(2**40) is None


def test_a_failed_save_leaves_nothing_behind(store: Storage,
                                             played: dict[str, tuple[GameState, GameRecord]]) -> None:
    bad = dataclasses.replace(entry(played, "won"), options={"seed": object()})  # not JSON
    with pytest.raises(StorageError) as err:
        store.save_game(bad)
    assert "\n" not in str(err.value) and "options" in str(err.value)
    assert store.count_games() == 0
    assert store.save_game(entry(played, "won")) > 0 and store.count_games() == 1


def test_concurrent_saves_from_threads_all_land(store: Storage,
                                                played: dict[str, tuple[GameState, GameRecord]]) -> None:
    ids: list[int] = []
    errors: list[BaseException] = []

    def save(i: int) -> None:
        try:
            ids.append(store.save_game(entry(played, "lost", minutes=i)))
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=save, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(set(ids)) == 8 and store.count_games() == 8


def test_an_in_memory_log_is_shared_across_threads(played: dict[str, tuple[GameState, GameRecord]]) -> None:
    with Storage("sqlite://") as store:
        saved: list[int] = []
        t = threading.Thread(target=lambda: saved.append(store.save_game(entry(played, "won"))))
        t.start()
        t.join()
        got = store.get_game(saved[0])
        assert got is not None and got.won


def test_an_unfinished_game_is_not_logged() -> None:
    state = new_game(GameConfig(players=2), 1)
    with pytest.raises(ValueError, match="not over"):
        entry_from_state(state, None, ["Ann", "Bob"], 0)


def test_untimed_practice_is_not_official() -> None:
    state, record = finished(GameConfig(players=2, difficulty="training", time_limit=None), 3)
    e = entry_from_state(state, record, ["Ann", "Bob"], 0)
    assert e.official is False and e.time_left_ms is None and e.to_dict()["official"] is False


def one_line_error(url: str) -> str:
    with pytest.raises(StorageError) as err:
        Storage(url)
    msg = str(err.value)
    assert "\n" not in msg and "Traceback" not in msg and "sqlalche.me" not in msg
    assert msg.startswith("cannot open database")
    return msg


def test_a_bad_url_is_one_readable_line(tmp_path: Path) -> None:
    assert "not a database URL" in one_line_error("nonsense")
    assert "unsupported" in one_line_error("mysql://fuse@localhost/fuse")
    missing_dir = tmp_path / "no" / "such" / "dir.db"
    assert "unable to open database file" in one_line_error(f"sqlite:///{missing_dir}")
    not_a_db = tmp_path / "notes.db"
    not_a_db.write_text("these are not the tables you are looking for\n" * 100)
    assert "not a database" in one_line_error(f"sqlite:///{not_a_db}")


def test_an_unreachable_postgres_is_one_readable_line() -> None:
    msg = one_line_error(f"postgresql://fuse:s3cret@127.0.0.1:{free_port()}/fuse")
    assert "refused" in msg.lower()
    assert "s3cret" not in msg


def test_a_missing_postgres_database_is_one_readable_line(postgres_url: str) -> None:  # noqa: F811
    msg = one_line_error(postgres_url.rsplit("/", 1)[0] + "/no_such_db")
    assert "does not exist" in msg


def test_the_default_log_is_a_file_in_the_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   played: dict[str, tuple[GameState, GameRecord]]) -> None:
    monkeypatch.setenv("FUSE_DATA_DIR", str(tmp_path / "data" / "fuse"))
    url = default_url()
    assert url == f"sqlite:///{tmp_path / 'data' / 'fuse' / 'fuse.db'}"
    with Storage(url) as store:
        store.save_game(entry(played, "won"))
    assert (tmp_path / "data" / "fuse" / "fuse.db").is_file()
    monkeypatch.delenv("FUSE_DATA_DIR")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    assert default_url() == f"sqlite:///{tmp_path / 'home' / '.local' / 'share' / 'fusegame' / 'fuse.db'}"


def test_log_score_follows_the_engine_score(played: dict[str, tuple[GameState, GameRecord]]) -> None:
    state, _ = played["countdown"]
    assert state.outcome is not None
    s = LogScore.from_score(state.outcome.score)
    assert s.sparks == state.outcome.score.spark_points > 0
    assert s.total == s.win + s.time + s.bombs + s.fuses + s.sparks == state.outcome.score.total


# ====================================================================== who played, and ranking
def honest(played: dict[str, tuple[GameState, GameRecord]], key: str, minutes: int = 0, *,
           played_by: list[str] | None = None, seeded: bool = False) -> LogEntry:
    """An entry as the server logs it: who played each seat and whether the seed was chosen."""
    state, record = played[key]
    seats = played_by if played_by is not None else ["person"] * state.config.players
    names = [f"P{i + 1}" for i in range(state.config.players)]
    return entry_from_state(state, record, names, sum(p != "person" for p in seats), {"timed": True},
                            T0 + timedelta(minutes=minutes), played_by=seats, seeded=seeded)


def test_only_timed_games_dealt_at_random_and_played_by_people_throughout_are_ranked(
        played: dict[str, tuple[GameState, GameRecord]]) -> None:
    assert honest(played, "won").ranked and honest(played, "three").ranked
    assert not honest(played, "won", seeded=True).ranked  # a chosen deal
    handed = honest(played, "won", played_by=["person", "person_then_bot"])
    assert not handed.ranked and handed.bots == 1 and handed.to_dict()["played_by"][1] == "person_then_bot"
    assert not honest(played, "won", played_by=["person", "bot"]).ranked
    state, record = finished(GameConfig(players=2, difficulty="training", time_limit=None), 3)
    untimed = entry_from_state(state, record, ["A", "B"], 0, played_by=["person", "person"], seeded=False)
    assert not untimed.official and not untimed.ranked
    assert not entry(played, "won", bots=0).ranked  # nobody said who played: never ranked


def test_best_holds_only_ranked_games_and_the_log_filters_by_how_a_game_was_played(
        store: Storage, played: dict[str, tuple[GameState, GameRecord]]) -> None:
    fair = store.save_game(honest(played, "three", 0))
    seeded = store.save_game(dataclasses.replace(honest(played, "won", 1, seeded=True),
                                                 score=LogScore(500, 10, 50, 440, 0)))
    handed = honest(played, "won", 2, played_by=["person", "person_then_bot"])
    bot = store.save_game(dataclasses.replace(handed, score=LogScore(400, 10, 50, 340, 0)))
    state, record = finished(GameConfig(players=2, difficulty="training", time_limit=None), 3)
    untimed = store.save_game(entry_from_state(state, record, ["A", "B"], 0, played_by=["person", "person"],
                                               seeded=False, finished_at=T0))
    assert [e.id for e in store.best_games()] == [fair]
    assert store.best_games(seeded=True) == [] and store.best_games(bots=True) == []

    def found(**kw: Any) -> set[int | None]:
        assert store.count_games(**kw) == len(store.list_games(**kw))
        return {g.id for g in store.list_games(**kw)}

    assert found(ranked=True) == {fair} and found(ranked=False) == {seeded, bot, untimed}
    assert found(bots=True) == {bot} and found(seeded=True) == {seeded} and found(official=False) == {untimed}
    assert found(seeded=False) == {fair, bot, untimed}


def test_an_older_log_without_the_new_columns_still_loads_and_lists(
        url: str, played: dict[str, tuple[GameState, GameRecord]]) -> None:
    with Storage(url) as first:
        old = first.save_game(entry(played, "won"))
        first.save_room(stored_room("HJKMHJKMHJKM", ["p0 done @1500"]))
    # the log as an earlier version left it: no played_by, seeded, ranked, room or table games,
    # and its open rooms without their epochs
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    with engine.begin() as conn:
        conn.execute(text("ALTER TABLE rooms DROP COLUMN epoch"))
        conn.execute(text("DROP INDEX ix_games_ranked"))
        conn.execute(text("DROP INDEX ix_games_room_code"))
        conn.execute(text("DROP INDEX ix_games_table"))
        for column in ("played_by", "seeded", "ranked", "room_code", "table_game"):
            conn.execute(text(f"ALTER TABLE games DROP COLUMN {column}"))
    engine.dispose()
    with Storage(url) as again:
        (listed,) = again.list_games()
        assert listed.id == old and listed.names == ["Ann", "Bot 2"] and listed.official
        assert (listed.played_by, listed.seeded, listed.ranked, listed.table) == (None, None, False, False)
        assert [e.id for e in again.list_games(source="digital")] == [old]
        assert again.list_games(source="table") == []
        got = again.get_game(old)
        assert got is not None and got.record is not None and got.to_dict()["ranked"] is False
        # who played it cannot be checked: it is listed, never among the best
        assert again.best_games() == [] and again.count_games(ranked=False) == 1
        new = again.save_game(honest(played, "three"))
        assert [e.id for e in again.best_games()] == [new] and again.count_games() == 2
        # the room a game was played in is kept from now on
        in_room = again.finish_room("AAAABBBBCCCC", honest(played, "three"))
        assert again.game_of_room("AAAABBBBCCCC") == in_room and again.game_of_room("DDDDEEEEFFFF") is None
        # a room an earlier version left open is taken over at the first epoch, and played on
        (kept,) = again.load_rooms(take=True)
        assert (kept.code, kept.epoch, kept.actions) == ("HJKMHJKMHJKM", 1, ["p0 done @1500"])
        again.append_action("HJKMHJKMHJKM", 1, "p1 done @1600", epoch=1)
        with pytest.raises(RoomMoved):
            again.append_action("HJKMHJKMHJKM", 2, "p1 done @1700", epoch=0)


# ====================================================================== rooms still open
def stored_room(code: str, actions: list[str] | None = None) -> StoredRoom:
    seats = [{"kind": "human", "name": "Ana", "token": "t0k3n", "ready": True, "autoplay": False,
              "played": "person"},
             {"kind": "bot", "name": "Bot 2", "token": "", "ready": False, "autoplay": False,
              "played": "bot"}]
    return StoredRoom(code, "playing", {"config": GameConfig(players=2).to_dict(), "hints": False},
                      2**62 + 5, seats, T0, None, actions or [])


def test_a_room_and_its_actions_read_back_as_written(store: Storage) -> None:
    store.save_room(stored_room("AAAABBBBCCCC", ["p0 done @1500"]))
    store.save_room(dataclasses.replace(stored_room("DDDDEEEEFFFF"), status="lobby",
                                        created_at=T0 + timedelta(minutes=1)))
    for i, action in enumerate(["p1 done @1600", "p0 take F12 @2100"], start=1):
        store.append_action("AAAABBBBCCCC", i, action)
    seats = stored_room("X").seats
    seats[0]["autoplay"], seats[0]["played"] = True, "person_then_bot"
    store.append_action("AAAABBBBCCCC", 3, "p0 done @9000", seats=seats)  # a bot's move for Ana
    store.update_room("AAAABBBBCCCC", clock_ms=9500)
    first, second = store.load_rooms()
    assert first == dataclasses.replace(stored_room("AAAABBBBCCCC"), seats=seats, clock_ms=9500,
                                        actions=["p0 done @1500", "p1 done @1600", "p0 take F12 @2100",
                                                 "p0 done @9000"])
    assert (second.code, second.status, second.actions) == ("DDDDEEEEFFFF", "lobby", [])
    store.save_room(stored_room("AAAABBBBCCCC", ["p0 done @1"]), replacing=True)  # written whole again
    assert store.load_rooms()[0].actions == ["p0 done @1"]
    store.delete_room("DDDDEEEEFFFF")
    assert [r.code for r in store.load_rooms()] == ["AAAABBBBCCCC"]
    with pytest.raises(StorageError, match="not stored"):
        store.update_room("DDDDEEEEFFFF", status="broken")
    with pytest.raises(StorageError, match="^cannot record a move of room AAAABBBBCCCC"):
        store.append_action("AAAABBBBCCCC", 0, "p1 done @2")  # the same move twice is refused...
    assert store.load_rooms()[0].actions == ["p0 done @1"]  # ...the first one stays
    store.append_action("AAAABBBBCCCC", 1, "p1 done @2")  # and the room's next move is written
    assert store.load_rooms()[0].actions == ["p0 done @1", "p1 done @2"]


def test_a_room_taken_over_refuses_every_write_of_its_former_holder(
        store: Storage, played: dict[str, tuple[GameState, GameRecord]]) -> None:
    # process A holds the room at epoch 1; process B takes it over (a Redis that restarted lost
    # A's lease): from then on the database refuses A, whatever A tries, and B plays on
    store.save_room(dataclasses.replace(stored_room("AAAABBBBCCCC", ["p0 done @1500"]), epoch=1))
    with pytest.raises(RoomMoved):  # a new room never overwrites one kept under its code
        store.save_room(stored_room("AAAABBBBCCCC"))
    store.append_action("AAAABBBBCCCC", 1, "p1 done @1600", epoch=1)
    (taken,) = store.load_rooms(["AAAABBBBCCCC"], take=True)
    assert taken.epoch == 2 and taken.actions == ["p0 done @1500", "p1 done @1600"]
    for stale in (lambda: store.append_action("AAAABBBBCCCC", 2, "p0 done @1700", epoch=1),
                  lambda: store.update_room("AAAABBBBCCCC", clock_ms=1700, epoch=1),
                  lambda: store.save_room(dataclasses.replace(taken, epoch=1, actions=[]), replacing=True),
                  lambda: store.finish_room("AAAABBBBCCCC", honest(played, "won"), epoch=1)):
        with pytest.raises(RoomMoved):
            stale()
    store.delete_room("AAAABBBBCCCC", epoch=1)  # a stale holder's delete deletes nothing
    store.append_action("AAAABBBBCCCC", 2, "p1 take F12 @1800", epoch=2)
    assert store.load_rooms()[0].actions == ["p0 done @1500", "p1 done @1600", "p1 take F12 @1800"]
    assert store.count_games() == 0
    # the holder logs the game once; its room is gone, so nobody writes it back or logs it again
    store.finish_room("AAAABBBBCCCC", honest(played, "won"), epoch=2)
    with pytest.raises(RoomMoved):
        store.finish_room("AAAABBBBCCCC", honest(played, "won"), epoch=2)
    with pytest.raises(RoomMoved):
        store.save_room(dataclasses.replace(taken, actions=[]), replacing=True)
    assert store.count_games() == 1 and store.load_rooms() == []


def test_a_finished_game_goes_to_the_log_and_its_room_away_in_one_transaction(
        store: Storage, played: dict[str, tuple[GameState, GameRecord]]) -> None:
    store.save_room(stored_room("AAAABBBBCCCC", ["p0 done @1500"]))
    bad = dataclasses.replace(honest(played, "won"), options={"x": object()})
    with pytest.raises(StorageError):
        store.finish_room("AAAABBBBCCCC", bad)
    assert store.count_games() == 0 and len(store.load_rooms()) == 1  # nothing lost
    log_id = store.finish_room("AAAABBBBCCCC", honest(played, "won"))
    assert store.get_game(log_id) is not None and store.load_rooms() == []
