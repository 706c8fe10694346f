"""The rate limits of several processes, counted on a real ``redis-server``, when Redis goes away:
killed, or frozen with SIGSTOP. The games must go on: each call to Redis has a short deadline, and
after a failure the process counts in its own memory for a while (it still limits a flood), then
goes back to the shared count once Redis answers again."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from fusegame.server.guard import REDIS_DEADLINE_S, Rates
from redisproc import RedisServer

pytestmark = pytest.mark.timeout(120)

LIMITS = {"create": "3/minute"}


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    with RedisServer(tmp_path / "redis") as server:
        yield server


def timed(rates: Rates, kind: str, key: str) -> tuple[float | None, float]:
    start = time.monotonic()
    wait = rates.hit(kind, key)
    return wait, time.monotonic() - start


def test_two_processes_share_their_counts_on_redis(redis_server: RedisServer) -> None:
    one, two = Rates(LIMITS, redis_server.url), Rates(LIMITS, redis_server.url)
    assert one.shared and two.shared
    assert [one.hit("create", "10.0.0.1"), two.hit("create", "10.0.0.1"), one.hit("create", "10.0.0.1")] \
        == [None, None, None]
    # the fourth, on either process, is over the limit of three a minute
    assert two.hit("create", "10.0.0.1") is not None
    assert one.hit("create", "10.0.0.2") is None  # another address counts apart


def test_a_socket_s_frames_are_counted_in_its_process_not_on_redis(redis_server: RedisServer) -> None:
    # every frame of every socket is counted: a round trip to Redis for each one held the event
    # loop. A socket lives on one process, so its frames are counted there
    one, two = (Rates({**LIMITS, "message": "3/minute"}, redis_server.url) for _ in range(2))
    assert [one.hit("message", "10.0.0.1") for _ in range(4)][-1] is not None  # the flood is held
    assert two.hit("message", "10.0.0.1") is None  # the other process counts its own sockets
    with redis.Redis.from_url(redis_server.url) as r:
        keys = [k.decode() for k in r.keys("*")]
    assert not [k for k in keys if "message" in k]
    one.hit("create", "10.0.0.1")  # a request, counted on Redis for every process
    with redis.Redis.from_url(redis_server.url) as r:
        assert [k for k in r.keys("*") if b"create" in k]


def test_a_redis_killed_mid_game_costs_one_short_wait_and_the_limits_still_hold(
        redis_server: RedisServer) -> None:
    rates = Rates(LIMITS, redis_server.url)
    assert rates.hit("create", "10.0.0.1") is None
    redis_server.stop()
    wait, took = timed(rates, "create", "10.0.0.1")
    assert wait is None and took < 4 * REDIS_DEADLINE_S + 0.5, took
    assert not rates.shared
    # counted in this process now: at once, and still limited (three more, then refused)
    answers = [timed(rates, "create", "10.0.0.1") for _ in range(3)]
    assert all(t < 0.05 for _, t in answers), answers
    assert [w is None for w, _ in answers] == [True, True, False]
    # once the pause is over and Redis is back, the counts are shared again
    redis_server.start()
    rates._paused_until = 0.0  # the pause ends (in production, REDIS_PAUSE_S after the failure)
    other = Rates(LIMITS, redis_server.url)
    for who in (rates, other, rates):
        assert who.hit("create", "10.0.0.9") is None
    assert rates.shared and other.hit("create", "10.0.0.9") is not None


def test_a_frozen_redis_holds_a_request_no_longer_than_the_deadline(redis_server: RedisServer) -> None:
    rates = Rates(LIMITS, redis_server.url)
    assert rates.hit("create", "10.0.0.1") is None
    assert redis_server.proc is not None
    os.kill(redis_server.proc.pid, signal.SIGSTOP)
    try:
        wait, took = timed(rates, "create", "10.0.0.1")
        assert wait is None and took < 4 * REDIS_DEADLINE_S + 0.5, took
        # the next requests do not wait on Redis at all while the process counts on its own
        later = [timed(rates, "create", "10.0.0.3")[1] for _ in range(20)]
        assert max(later) < 0.05, later
    finally:
        os.kill(redis_server.proc.pid, signal.SIGCONT)


def test_a_visitor_s_own_forwarded_address_does_not_dodge_the_limits(tmp_path: Path) -> None:
    import httpx
    import yaml

    from fuseproc import FuseServer

    # compose.yaml: the servers believe X-Forwarded-For from the proxy's fixed address alone
    compose = yaml.safe_load((Path(__file__).resolve().parents[2] / "compose.yaml").read_text())
    proxy = compose["services"]["proxy"]["networks"]["fuse"]["ipv4_address"]
    assert compose["services"]["fuse1"]["environment"]["FORWARDED_ALLOW_IPS"] == proxy
    # a visitor who reaches a process with a new made-up address at every request is counted as
    # the address it comes from: the limit of 20 rooms a minute holds
    db = f"sqlite:///{tmp_path / 'fuse.db'}"
    with FuseServer(db, tmp_path, env={"FORWARDED_ALLOW_IPS": proxy}) as server:
        server.start()
        codes = [httpx.post(server.base + "/api/rooms", json={},
                            headers={"X-Forwarded-For": f"203.0.113.{i}"}).status_code for i in range(24)]
    assert codes[:20] == [201] * 20 and codes[20:] == [429] * 4, codes


def test_a_server_whose_redis_is_gone_answers_503_and_its_health_at_once(tmp_path: Path) -> None:
    import httpx

    from fuseproc import FuseServer

    # the default rate limits on, counted on Redis: an outage is a 503 with its reason, never a
    # 500, and a frozen Redis does not hold the process's other requests
    db = f"sqlite:///{tmp_path / 'fuse.db'}"
    with RedisServer(tmp_path / "redis") as redis, \
            FuseServer(db, tmp_path, args=("--redis", redis.url)) as server:
        server.start()
        code = httpx.post(server.base + "/api/rooms", json={}).json()["code"]
        redis.stop()
        created = httpx.post(server.base + "/api/rooms", json={}, timeout=30)
        assert created.status_code == 503 and "try again" in created.json()["detail"]
        assert httpx.get(f"{server.base}/api/rooms/{code}", timeout=30).status_code == 200  # its own room
        redis.start()
        assert redis.proc is not None
        os.kill(redis.proc.pid, signal.SIGSTOP)
        try:
            start = time.monotonic()
            assert httpx.get(server.base + "/api/health", timeout=30).status_code == 200
            assert time.monotonic() - start < 1.0
        finally:
            os.kill(redis.proc.pid, signal.SIGCONT)
