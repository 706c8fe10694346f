"""``GET /api/log/{id}/review``: a logged game's review is made by a worker process while the page
asks again, kept with the game, and served from the log by a server started later."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from fusegame import GameConfig
from fusegame.record import final_state
from fusegame.review import VERSION
from fusegame.server import reviews as reviews_module
from fusegame.server.app import create_app
from fusegame.server.storage import BOT, PERSON, Storage, entry_from_state
from fusegame.sim import get_policy, play_game


def logged_game(db: str, seed: int = 4) -> int:
    result = play_game(GameConfig(players=3), seed, get_policy("greedy"), record=True)
    assert result.record is not None
    store = Storage(db)
    try:
        entry = entry_from_state(final_state(result.record), result.record, ["Ana", "Bot 2", "Bot 3"], 2,
                                 played_by=[PERSON, BOT, BOT])
        return store.save_game(entry)
    finally:
        store.close()


def wait_for_review(c: TestClient, log_id: int) -> tuple[int, httpx.Response]:
    asked = 0
    deadline = time.monotonic() + 120
    while True:
        r = c.get(f"/api/log/{log_id}/review")
        asked += 1
        if r.status_code != 202:
            return asked, r
        assert r.json()["status"] == "working" and r.json()["ahead"] >= 0
        assert time.monotonic() < deadline, "the review never came"
        time.sleep(0.2)


def test_a_review_is_made_by_a_worker_and_kept_with_the_game(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'log.db'}"
    log_id = logged_game(db)
    with TestClient(create_app(db, rate_limits=None)) as c:
        asked, r = wait_for_review(c, log_id)
        assert r.status_code == 200 and asked > 1, "the first ask should start the review, not wait for it"
        review = r.json()["review"]
        assert review["version"] == VERSION and review["players"] == 3
        assert [s["bot"] for s in review["seats"]] == [False, True, True]
        assert review["rolls"] == len(review["turns"]) > 5
        # a greedy team makes costly choices the planner names, with what was better
        assert review["moments"] and all(m["better"] for m in review["moments"])
        # the replay's steps and the review's agree on where each roll starts
        steps = c.get(f"/api/log/{log_id}/replay").json()["steps"]
        for t in review["turns"][1:]:
            assert any(e["kind"] == "dice_rolled" for e in steps[t["step"]]["events"])
    # a server started later serves the review kept in the log at once
    with TestClient(create_app(db, rate_limits=None)) as c:
        r = c.get(f"/api/log/{log_id}/review")
        assert r.status_code == 200 and r.json()["review"] == review


def test_a_review_of_no_game_or_a_table_game_is_refused(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'log.db'}"
    with TestClient(create_app(db, rate_limits=None)) as c:
        r = c.get("/api/log/999/review")
        assert r.status_code == 404 and "no game 999" in r.json()["detail"]
        table = c.post("/api/log/table", json={
            "options": {"game": "countdown", "players": 3, "difficulty": "expert"}, "won": False,
            "bombs": {"2": 3}}).json()
        r = c.get(f"/api/log/{table['id']}/review")
        assert r.status_code == 404 and "table" in r.json()["detail"]


def test_a_review_nobody_waits_for_is_not_made_and_one_made_is_kept(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Five games end at once and each end screen asks for its review; three pages leave at once.
    The first of their reviews is already on its way to the worker: it is made, and kept though
    nobody is there to see it. The other two are dropped, so the last page waits only for the
    reviews before it that someone wanted."""
    monkeypatch.setattr(reviews_module, "UNWANTED_AFTER_S", 0.3)
    db = f"sqlite:///{tmp_path / 'log.db'}"
    first, left, dropped1, dropped2, last = (logged_game(db, seed) for seed in (4, 5, 6, 7, 8))
    with TestClient(create_app(db, rate_limits=None)) as c:
        for log_id in (first, left, dropped1, dropped2, last):
            assert c.get(f"/api/log/{log_id}/review").status_code == 202
        # each page is told how many reviews come before its own, and that number only falls
        ahead: list[int] = []
        deadline = time.monotonic() + 120
        while (r := c.get(f"/api/log/{last}/review")).status_code == 202:
            ahead.append(r.json()["ahead"])
            c.get(f"/api/log/{first}/review")
            assert time.monotonic() < deadline, "the last review never came"
            time.sleep(0.05)
        assert ahead[0] == 4 and ahead == sorted(ahead, reverse=True) and ahead[-1] < 4
        store = Storage(db)
        try:
            assert store.get_review(first) is not None and store.get_review(last) is not None
            assert store.get_review(left) is not None
            assert store.get_review(dropped1) is None and store.get_review(dropped2) is None
        finally:
            store.close()
        # asked for again, it is made from the start
        assert c.get(f"/api/log/{dropped1}/review").status_code == 202
        assert wait_for_review(c, dropped1)[1].status_code == 200


def test_two_pages_asking_at_once_start_one_review(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two end screens of one game ask for its review at the same moment: both wait on the log's
    reads before either starts it, and the second finds the first's under way instead of sending
    the worker the same game twice."""
    db = f"sqlite:///{tmp_path / 'log.db'}"
    log_id = logged_game(db)
    store = Storage(db)
    reviews = reviews_module.Reviews(store)
    started: list[int] = []
    start = reviews._start

    def counted(game: int, entry: reviews_module.LogEntry, now: float) -> reviews_module._Making:
        started.append(game)
        return start(game, entry, now)

    monkeypatch.setattr(reviews, "_start", counted)

    async def both() -> list[dict | None]:
        first = await asyncio.gather(reviews.get(log_id), reviews.get(log_id))
        async with asyncio.timeout(120):
            while (made := await reviews.get(log_id)) is None:
                await asyncio.sleep(0.1)
        return [*first, made]

    try:
        first, second, made = asyncio.run(both())
        assert first is None and second is None  # both told it is being made
        assert started == [log_id]
        assert made is not None and made["version"] == VERSION
    finally:
        if reviews._pool is not None:
            reviews._pool.shutdown(cancel_futures=True)
        store.close()
