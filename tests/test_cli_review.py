"""``fuse review``: a game record or a game of the BDT Log reviewed on the command line, in both
languages and as JSON for tools, with one line for every problem."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from fusegame import GameConfig
from fusegame.cli import app
from fusegame.record import final_state, save
from fusegame.server.storage import BOT, PERSON, Storage, entry_from_state
from fusegame.sim import get_policy, play_game

runner = CliRunner()


def greedy_record(tmp_path: Path) -> Path:
    result = play_game(GameConfig(players=3), 4, get_policy("greedy"), record=True)
    assert result.record is not None
    out = tmp_path / "game.json"
    save(result.record, out)
    return out


def test_a_record_reviewed_in_words_and_as_json(tmp_path: Path) -> None:
    path = greedy_record(tmp_path)
    res = runner.invoke(app, ["review", str(path)])
    assert res.exit_code == 0, res.output
    text = res.stdout
    assert text.startswith("Review of the game") and "estimate" in text
    assert "Key moments" in text and "  - Roll " in text and "was better" in text
    assert "Where the time went" in text and "Each player" in text and "player 3:" in text
    res = runner.invoke(app, ["review", str(path), "--lang", "es"])
    assert res.exit_code == 0 and "Momentos clave" in res.stdout and "  - Tirada " in res.stdout
    assert "review." not in res.stdout, "a template key left unworded"
    res = runner.invoke(app, ["review", str(path), "--json"])
    data = json.loads(res.stdout)
    assert data["version"] == 1 and data["rolls"] == len(data["turns"]) and data["moments"]
    # the key moments are among the costly ones, costliest first
    weights = [m["weight"] for m in data["costly"]]
    assert weights == sorted(weights, reverse=True) and data["moments"] == data["costly"][:3]
    # replay points to the review
    res = runner.invoke(app, ["replay", str(path)])
    assert f"fuse review {path}" in res.stdout


def test_a_game_of_the_log_is_reviewed_with_its_players_names(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'log.db'}"
    result = play_game(GameConfig(players=3), 4, get_policy("greedy"), record=True)
    assert result.record is not None
    store = Storage(db)
    log_id = store.save_game(entry_from_state(final_state(result.record), result.record,
                                              ["Ana", "Bot 2", "Bot 3"], 2, played_by=[PERSON, BOT, BOT]))
    store.close()
    res = runner.invoke(app, ["review", str(log_id), "--db", db])
    assert res.exit_code == 0, res.output
    assert "Ana:" in res.stdout and "Bot 2 (bot):" in res.stdout


def test_a_review_of_nothing_is_one_line(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'log.db'}"
    for args, said in ((["review", "77", "--db", db], "no game 77 in the BDT Log"),
                       (["review", str(tmp_path / "none.json")], "no such file"),
                       (["review", str(greedy_record(tmp_path)), "--lang", "fr"], "--lang must be one of")):
        res = runner.invoke(app, args)
        assert res.exit_code == 2 and said in res.output and "Traceback" not in res.output
