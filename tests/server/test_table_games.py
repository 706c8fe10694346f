"""Games played with the box at a real table (the Ship's Computer): what to lay out, from the
engine's table of games, and the score its players counted, which goes into the same BDT Log as
the digital games, marked, never among their best scores unless asked, and refused with one
readable line when the chosen game could not have given it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fusegame import GameConfig, new_game
from fusegame.record import final_state
from fusegame.rules.tabletop import table_setup
from fusegame.server.app import create_app
from fusegame.server.storage import PERSON, Storage, entry_from_state
from fusegame.sim import get_policy, play_game

COUNTDOWN_3_EXPERT = {"game": "countdown", "players": 3, "difficulty": "expert"}


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'fuse.db'}"


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db, rate_limits=None)) as c:
        yield c


def save(client: TestClient, **body: Any) -> Any:
    return client.post("/api/log/table", json={"options": COUNTDOWN_3_EXPERT, **body})


def refusal(client: TestClient, body: dict[str, Any]) -> str:
    r = client.post("/api/log/table", json=body)
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert isinstance(detail, str) and "\n" not in detail and "Traceback" not in detail
    return detail


def test_the_setup_of_countdown_for_three_at_expert_is_the_rulebook_s(client: TestClient) -> None:
    r = client.get("/api/computer/setup", params=COUNTDOWN_3_EXPERT)
    assert r.status_code == 200, r.text
    s = r.json()
    # docs/rules.md A.9.2 (3 players, Expert: 29), B.4 (hands of 2 from the deck, a row of 5, roles,
    # the spark deck), B.5 (1 to 10 fuse cards from Expert up), A.2 (Countdown's 25 dice)
    assert (s["deck"], s["hands_in_deck"], s["hand_size"], s["row"], s["face_down"]) == (29, True, 2, 5, 18)
    assert s["hand_rule"] == {"kind": "pair", "limit": 3}
    assert s["fuse_range"] == {"min": 1, "max": 10} and s["fuse_cards"] == 6 and s["fuse_from"] == "expert"
    assert s["roles"] == 3 and s["sparks"] > 0 and s["dice_total"] == 25
    assert {"colours": "R/B", "count": 1} in s["dice"] and s["bomb_values"] == [1, 2, 3, 4, 5, 6]


def test_the_setup_follows_the_options(client: TestClient) -> None:
    fuse = client.get("/api/computer/setup", params={"players": 3}).json()
    assert (fuse["deck"], fuse["hands_in_deck"], fuse["face_down"], fuse["fuse_cards"]) == (21, False, 16, 6)
    assert fuse["roles"] == 0 and fuse["sparks"] == 0 and fuse["levels"] is None
    stacks = client.get("/api/computer/setup", params={"players": 3, "setup": "stacks"}).json()
    assert stacks["row"] == 0 and sum(stacks["levels"].values()) == 21
    sparks = client.get("/api/computer/setup", params={"players": 2, "modules": ["sparks", "roles"]}).json()
    assert sparks["sparks"] > 0 and sparks["roles"] == 2
    fewer = client.get("/api/computer/setup", params={**COUNTDOWN_3_EXPERT, "fuse_cards": 2}).json()
    assert fewer["fuse_cards"] == 2
    # the pace gauge turns red three bombs behind, five in FUSE at four players and up, which
    # catch up late (fusegame.pace.far_behind): the Ship's Computer is told, not left to know
    assert fuse["pace_far"] == -3
    assert client.get("/api/computer/setup", params={"players": 4}).json()["pace_far"] == -5
    countdown = client.get("/api/computer/setup", params={"game": "countdown", "players": 4}).json()
    assert countdown["pace_far"] == -3
    r = client.get("/api/computer/setup", params={"game": "countdown", "players": 7})
    assert r.status_code == 422 and r.json()["detail"] == "players: must be from 1 to 4, got 7"


def test_a_table_game_is_stored_with_the_rulebook_s_breakdown(client: TestClient) -> None:
    r = save(client, names=["Ana", "Ben", "Cy"], won=True, time_left_ms=123_400,
             bombs={"1": 2, "3": 1, "5": 1}, fuse_cards=2, sparks=1)
    assert r.status_code == 201, r.text
    entry = r.json()["entry"]
    # E.3: 10 for the win, 12 for 2:03 left, 2 + 3 + 5 for the cards, 2 per fuse card and spark
    assert entry["score"] == {"total": 10 + 12 + 10 + 4 + 2, "win": 10, "time": 12, "bombs": 10, "fuses": 4,
                              "sparks": 2}
    assert entry["table"] is True and entry["ranked"] is False and entry["official"] is True
    assert entry["names"] == ["Ana", "Ben", "Cy"] and entry["reason"] == "bombs-defused"
    assert entry["title"] == "FUSE: Countdown" and entry["options"]["fuse_cards"] == 6
    got = client.get(f"/api/log/{r.json()['id']}").json()
    assert got["table"] is True and got["record"] is None and got["score"] == entry["score"]
    replay = client.get(f"/api/log/{r.json()['id']}/replay")
    assert replay.status_code == 404 and "played at a table" in replay.json()["detail"]
    assert client.get(f"/api/log/{r.json()['id']}/pace").status_code == 404  # nor a pace picture


def test_a_loss_scores_no_time_bonus_and_a_given_bonus_must_match_the_clock(client: TestClient) -> None:
    lost = save(client, won=False, bombs={"2": 3}).json()["entry"]
    assert lost["score"]["total"] == 6 and lost["score"]["time"] == 0 and lost["reason"] == "time-up"
    bag = save(client, won=False, time_left_ms=50_000, bombs={"2": 1}).json()["entry"]
    assert bag["reason"] == "bag-empty" and bag["score"]["time"] == 0
    bonus_only = save(client, won=True, time_bonus=7).json()["entry"]
    assert bonus_only["score"]["time"] == 7 and bonus_only["time_left_ms"] == 70_000
    short = save(client, won=True, time_left_ms=300_000, time_limit_s=900).json()["entry"]
    assert short["official"] is False  # another length than the rulebook's ten minutes


def test_a_table_game_s_names_are_cleaned_as_the_table_s_are(client: TestClient) -> None:
    names = ["\u202eAna", "Bo\u0000b", "\u200bCy", "Di \U0001F468\u200d\U0001F469"]
    entry = save(client, won=True, time_left_ms=200_000, options={"players": 4, "game": "fuse"},
                 names=names).json()["entry"]
    # no bidi override, control or invisible character is kept; an emoji's joiner is
    assert entry["names"] == ["Ana", "Bo b", "Cy", "Di \U0001F468\u200d\U0001F469"]


@pytest.mark.parametrize("body,says", [
    ({"won": True, "bombs": {"1": -1}}, "bombs.1"),
    ({"won": True, "fuse_cards": -2}, "fuse_cards"),
    ({"won": True, "bombs": {"4": 30}}, "at most"),
    ({"won": True, "bombs": {"7": 1}}, "no 7-point bomb cards"),
    ({"won": True, "options": {"players": 1}, "bombs": {"4": 12, "3": 12}},
     "more than this game's bomb cards hold"),
    ({"won": True, "fuse_cards": 7}, "fuse_cards: this game used 6"),
    ({"won": True, "options": {"players": 2}, "sparks": 1}, "sparks: this game has no spark cards"),
    ({"won": False, "time_bonus": 3}, "time_bonus: a lost game has no time bonus"),
    ({"won": True, "time_left_ms": 123_000, "time_bonus": 30}, "time_bonus"),
    ({"won": True, "time_left_ms": 700_000}, "time_left_ms"),
    ({"won": True, "time_left_ms": 600_000}, "at least 60 s of the clock"),
    ({"won": True, "time_bonus": 60}, "at least 60 s of the clock"),
    ({"won": True, "names": ["Ana", "\u200b\u2060", "Cy", "Di"]}, "names.1"),
    ({"won": True, "reason": "time-up"}, "reason"),
    ({"won": True, "names": ["Ana"]}, "names: 4 players, 1 names"),
    ({"won": True, "names": ["Ana", " ", "Cy", "Di"]}, "names.1"),
    ({"won": True, "score": 99}, "unknown field 'score'"),
    ({"won": "yes"}, "won"),
    ({"won": True, "options": {"game": "chess"}}, "options.game"),
    ({"won": True, "options": {"players": 8}}, "players"),
    ({"won": True, "options": {"seed": 3}}, "options.seed"),
    ({}, "won"),
])
def test_an_impossible_score_is_refused_with_a_readable_line(client: TestClient, body: dict[str, Any],
                                                              says: str) -> None:
    options = body.pop("options", {"game": "fuse"})
    assert says in refusal(client, {"options": options, **body})


def test_table_games_sit_beside_digital_ones_but_never_among_their_best(client: TestClient, db: str) -> None:
    result = play_game(GameConfig(players=1), 5, get_policy("greedy"), record=True)
    assert result.record is not None
    with Storage(db) as store:
        digital = store.save_game(entry_from_state(final_state(result.record), result.record, ["Ann"], 0,
                                                   played_by=[PERSON], seeded=False))
    assert client.get(f"/api/log/{digital}").json()["ranked"] is True
    table = save(client, won=True, time_left_ms=530_000, bombs={"5": 6, "6": 6}).json()["id"]
    both = client.get("/api/log").json()
    assert {g["id"] for g in both["games"]} == {digital, table} and both["total"] == 2
    assert [g["id"] for g in both["best"]] == [digital]  # the digital best scores only
    only_table = client.get("/api/log", params={"source": "table"}).json()
    assert [g["id"] for g in only_table["games"]] == [table]
    assert [g["id"] for g in only_table["best"]] == [table]
    only_digital = client.get("/api/log", params={"source": "digital"}).json()
    assert [g["id"] for g in only_digital["games"]] == [digital]
    mixed = client.get("/api/log", params={"source": "all"}).json()["best"]
    assert [g["id"] for g in mixed] == [table, digital]  # the table game scored more
    assert client.get("/api/log", params={"source": "moon"}).status_code == 422


def test_the_engine_s_setup_matches_the_decks_it_deals() -> None:
    # the checklist and a digital game of the same options lay out the same table
    for config in (GameConfig(players=3, difficulty="expert", game="countdown"), GameConfig(players=3),
                   GameConfig(players=1), GameConfig(players=6, game="epic", difficulty="elite")):
        s = table_setup(config)
        g = new_game(config, 11, chance=False)
        assert len(g.row) == s.row
        assert all(len(h) == s.hand_size for h in g.hands)
        assert len(g.deck) == s.face_down + s.fuse_cards
        assert (s.sparks > 0) == (g.sparks is not None) and s.roles == (len(g.roles.cards) if g.roles else 0)
        assert s.dice_total == len(config.dice_set.colours)


def test_one_address_logs_a_few_table_games_an_hour_not_a_page_of_them(db: str) -> None:
    # the default limits: six an hour from one address, then a 429 that says when to try again;
    # another address is not held back by it
    with TestClient(create_app(db)) as c:
        answers = [save(c, won=False, bombs={"2": 3}).status_code for _ in range(8)]
        assert answers == [201] * 6 + [429] * 2
        refused = save(c, won=False, bombs={"2": 3})
        assert "saved table games" in refused.json()["detail"] and int(refused.headers["Retry-After"]) > 0
        other = TestClient(c.app, client=("203.0.113.9", 5000))
        assert save(other, won=False, bombs={"2": 3}).status_code == 201
        assert c.get("/api/log", params={"source": "table"}).json()["total"] == 7
