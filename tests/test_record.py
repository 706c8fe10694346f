"""Game records: JSON round trip, exact replay, Recorder, clear errors on bad files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fusegame.cards import load_catalogue
from fusegame.record import (
    GameRecord,
    Recorder,
    RecordError,
    catalogue_fingerprint,
    final_state,
    load,
    replay,
)
from fusegame.rng import Rng
from fusegame.rules import GAMES, Action, Game, GameConfig, GameState, IllegalAction, Place, Tick
from fusegame.rules.actions import with_time
from fusegame.sim import play_game, random_policy

DATA = Path(__file__).resolve().parent / "data"
MINI = load_catalogue(DATA / "mini_cards.toml")


def config(**kw: object) -> GameConfig:
    kw.setdefault("cards", MINI)
    return GameConfig(**kw)  # type: ignore[arg-type]


def play_recorded(cfg: GameConfig, seed: int, steps: int = 10_000) -> tuple[Recorder, list[GameState],
                                                                           list[list[object]]]:
    """Play random legal actions (times rising by 0.5 s a step) through a Recorder."""
    rec = Recorder(cfg, seed)
    rng = Rng(seed + 99)
    states: list[GameState] = []
    events: list[list[object]] = []
    t = 0
    for _ in range(steps):
        if rec.state.is_over:
            break
        acts = rec.state.legal_actions()
        t += 500
        ev = rec.apply(with_time(acts[rng.below(len(acts))], t))
        states.append(rec.state.clone())
        events.append(list(ev))
    return rec, states, events


#: a game of each row of the table (FUSE with the small test deck, the others with the built-in cards)
ROW_CONFIGS = {game: config(players=3, time_limit=120) if game is Game.FUSE else
               GameConfig(game=game, players=spec.players[0] + 1, time_limit=120)
               for game, spec in GAMES.items()}


@pytest.mark.parametrize("game", list(ROW_CONFIGS), ids=lambda g: g.value)
def test_replay_reproduces_every_state_and_event(game: Game) -> None:
    cfg = ROW_CONFIGS[game]
    rec, states, events = play_recorded(cfg, seed=11)
    record = rec.record
    assert rec.state.is_over and record.outcome == rec.state.outcome
    assert len(record.actions) == len(states) > 20
    replayed = list(replay(record, copy=True))
    assert len(replayed) == len(states)
    for (action, ev, st), want_state, want_events, orig in zip(replayed, states, events, record.actions):
        assert action == orig
        assert ev == want_events
        assert st == want_state
        assert st.to_dict() == want_state.to_dict()
    assert final_state(record) == rec.state


def test_record_round_trips_through_json(tmp_path: Path) -> None:
    cfg = config(players=2, time_limit=90)
    rec, states, _ = play_recorded(cfg, seed=5)
    record = rec.record
    again = GameRecord.from_dict(json.loads(json.dumps(record.to_dict())))
    assert again.to_dict() == record.to_dict()
    assert again.actions == record.actions and again.seed == 5 and again.outcome == record.outcome
    path = tmp_path / "game.json"
    record.save(path)
    data = json.loads(path.read_text())
    assert data["format"] == "fusegame-record" and data["seed"] == 5
    assert data["actions"][0] == str(record.actions[0]) and "@" in data["actions"][0]
    loaded = load(path)
    assert loaded.config.to_dict() == cfg.to_dict()
    *_, (_, _, last) = replay(loaded)
    assert last == states[-1]


def test_sim_record_replays_exactly() -> None:
    cfg = config(players=4)
    result = play_game(cfg, 3, random_policy, record=True)
    assert result.record is not None and result.outcome is not None
    state = final_state(result.record)
    assert state.outcome == result.outcome
    assert state.time_ms == result.time_ms


def test_recorder_records_only_accepted_actions() -> None:
    rec = Recorder(config(players=2), seed=1)
    with pytest.raises(IllegalAction):
        rec.apply(Place(0, 0, die=999, card="M01", slot=0))
    assert rec.record.actions == []
    a = rec.state.legal_actions(0)[0]
    events = rec.apply(a)
    assert rec.record.actions == [a] and events


def test_recorder_only_wraps_a_fresh_state() -> None:
    cfg = config(players=2)
    rec = Recorder(cfg, 4)
    rec.apply(rec.state.legal_actions(1)[0])
    with pytest.raises(RecordError):
        Recorder(cfg, 4, state=rec.state)
    fresh = Recorder(cfg, 4).state
    assert Recorder(cfg, 4, state=fresh).state is fresh


def _write(tmp_path: Path, data: object, name: str = "bad.json") -> Path:
    p = tmp_path / name
    p.write_text(data if isinstance(data, str) else json.dumps(data))
    return p


def _good(tmp_path: Path) -> dict[str, object]:
    rec, _, _ = play_recorded(config(players=2, time_limit=60), seed=2, steps=8)
    return rec.record.to_dict()


@pytest.mark.parametrize("mutate, message", [
    (lambda d: "{not json", "not valid JSON"),
    (lambda d: [1, 2], "expected a JSON object"),
    (lambda d: {**d, "format": "chess"}, "not a game record"),
    (lambda d: {**d, "version": 99}, "unsupported record version 99"),
    (lambda d: {k: v for k, v in d.items() if k != "seed"}, "missing 'seed'"),
    (lambda d: {**d, "seed": "seven"}, "'seed' must be a whole number"),
    (lambda d: {**d, "config": {**d["config"], "players": 9}}, "bad config: FUSE is for 1 to 5 players"),
    (lambda d: {**d, "config": {**d["config"], "colour": "red"}}, "unknown config option"),
    (lambda d: {**d, "actions": [*d["actions"][:2], "p0 jump d3"]},
     "action 3: cannot read action 'p0 jump d3'"),
    (lambda d: {**d, "actions": "p0 done"}, "'actions' must be a list"),
    (lambda d: {**d, "extra": 1}, "unknown field(s) extra"),
])
def test_bad_record_files_give_clear_errors(tmp_path: Path, mutate, message: str) -> None:  # type: ignore[no-untyped-def]
    path = _write(tmp_path, mutate(_good(tmp_path)))
    with pytest.raises(RecordError) as e:
        load(path)
    assert str(path) in str(e.value)
    assert message in str(e.value)
    assert isinstance(e.value, ValueError)


def test_missing_record_file(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read file"):
        load(tmp_path / "nope.json")


def test_illegal_action_in_record_is_reported_with_its_number(tmp_path: Path) -> None:
    d = _good(tmp_path)
    d["actions"] = [*d["actions"][:3], "p0 place d99 M01 s1 @100000"]  # type: ignore[index]
    record = load(_write(tmp_path, d))
    with pytest.raises(RecordError, match=r"action 4 \(p0 place d99 M01 s1 @100000\) cannot be replayed"):
        list(replay(record))


def test_wrong_final_outcome_is_detected(tmp_path: Path) -> None:
    cfg = config(players=2)
    result = play_game(cfg, 8, random_policy, record=True)
    assert result.record is not None and result.outcome is not None
    d = result.record.to_dict()
    d["outcome"]["score"]["bomb_points"] += 1
    record = load(_write(tmp_path, d))
    with pytest.raises(RecordError, match="the replay ends with"):
        list(replay(record))


def test_catalogue_mismatch_is_refused(tmp_path: Path) -> None:
    d = _good(tmp_path)
    d["catalogue"] = "0000000000000000"
    record = load(_write(tmp_path, d))
    with pytest.raises(RecordError, match="other cards"):
        list(replay(record))
    assert catalogue_fingerprint(MINI) == _good(tmp_path)["catalogue"]


def test_tick_and_untimed_actions_round_trip() -> None:
    cfg = config(players=2, time_limit=60)
    rec = Recorder(cfg, 3)
    rec.apply(Tick(-1, 1000))
    rec.apply(rec.state.legal_actions(0)[0])
    rec.apply(Tick(-1, 61_000))
    assert rec.state.is_over and rec.state.outcome is not None
    assert rec.state.outcome.reason.value == "time-up"
    again = GameRecord.from_dict(rec.record.to_dict())
    assert again.actions == rec.record.actions
    assert isinstance(again.actions[0], Tick) and isinstance(again.actions[1], Action)
    assert final_state(again) == rec.state
