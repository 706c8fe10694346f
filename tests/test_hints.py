"""Hints: the team planner's advice per seat, its wording, and the ``fuse hint`` command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fusegame import GameConfig, new_game
from fusegame.bots import Hint, hint
from fusegame.bots.hints import die_words, nobody_acts
from fusegame.bots.team import TeamPlanner
from fusegame.cli import app
from fusegame.rules.actions import Done, GiveUp, Place, Recolour, TakeCard, Tick
from fusegame.rules.state import GameState
from fusegame.scenario import dump_scenario_text, load_scenario

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
HINTS = SCENARIOS / "hints"
ALL_SCENARIOS = sorted([*SCENARIOS.glob("*.yaml"), *HINTS.glob("*.yaml")])
runner = CliRunner()


def load(name: str) -> GameState:
    return load_scenario(HINTS / name if (HINTS / name).exists() else SCENARIOS / name)


def by_seat(state: GameState) -> dict[int, Hint]:
    return {h.seat: h for h in hint(state)}


def assert_sound(state: GameState, hints: list[Hint]) -> None:
    """One hint per deciding seat; every hinted action is legal now; placements are explained
    with their die and card."""
    assert [h.seat for h in hints] == sorted(state.to_act())
    for h in hints:
        assert h.text and h.reason and "\n" not in h.reason
        if h.action is None:
            continue
        assert h.action.seat == h.seat
        state.clone().apply(h.action)  # raises if the rules do not allow it now
        if isinstance(h.action, Place):
            assert h.reason.startswith(f"{die_words(state, h.action.die)} on {h.action.card}")


# ====================================================================== placements
def test_a_die_that_completes_a_card_completes_it() -> None:
    state = load("complete_card.yaml")
    h = by_seat(state)[0]
    assert isinstance(h.action, Place) and h.action.card == "F27"
    assert state.die_label(h.action.die) == "G4"
    after = state.clone()
    after.apply(h.action)
    assert "F27" not in [hc.card for hc in after.hands[0] if not hc.complete]
    assert h.reason == "Green 4 on F27 (Three of a kind): completes it, +3 points"
    assert h.text == "Put the Green 4 on F27 slot 3"


def test_both_players_finish_a_card_when_their_dice_allow() -> None:
    state = load("two_player_midgame.yaml")
    hints = by_seat(state)
    planner = TeamPlanner()
    moves = {m.action: m for m in planner.plan(state).moves}
    for seat in (0, 1):
        a = hints[seat].action
        assert isinstance(a, Place) and moves[a].completes
        assert "completes it, +" in hints[seat].reason


def test_a_placement_that_does_not_complete_says_how_far_the_card_is() -> None:
    h = by_seat(load("complete_card.yaml"))[1]
    assert isinstance(h.action, Place) and h.action.card == "F33"
    assert f"slot {h.action.slot + 1}:" in h.reason and "dice to go, was" in h.reason


def test_a_seat_with_no_legal_placement_is_told_to_say_done() -> None:
    state = load("complete_card.yaml")
    assert not any(isinstance(a, Place) for a in state.legal_actions(2))
    h = by_seat(state)[2]
    assert isinstance(h.action, Done) and h.text == "Say done"
    assert h.reason.startswith("Say done: no die fits your cards")
    assert "left for the penalty" in h.reason  # two of the four dice go unused this turn


def test_a_seat_is_told_when_its_die_does_more_elsewhere() -> None:
    h = by_seat(load("fuse_during_defusal.yaml"))[1]
    assert isinstance(h.action, Done)
    assert h.reason == "Say done: the Green 4 that fits your cards does more on p2's J1"


# ====================================================================== other decisions
def test_the_take_hint_picks_a_row_card() -> None:
    state = load("take_card.yaml")
    h = by_seat(state)[0]
    assert h.kind == "take" and isinstance(h.action, TakeCard)
    assert h.action.card in state.row
    assert h.reason.startswith(f"Take {h.action.card}") and "dice" in h.reason


def test_seats_replacing_cards_are_told_different_cards() -> None:
    state = load("countdown_roll_six.yaml")
    hints = hint(state)
    cards = [h.action.card for h in hints if isinstance(h.action, TakeCard)]
    assert len(cards) == 2 and len(set(cards)) == 2 and set(cards) <= set(state.row)


def test_give_up_the_die_that_costs_least() -> None:
    state = load("give_up.yaml")
    h = by_seat(state)[0]
    assert isinstance(h.action, GiveUp) and state.die_label(h.action.die) == "R5"
    assert h.reason.startswith("Give up the Red 5 from ANY3 to the fuse card (R): it costs the least")


def test_the_leader_uses_the_role_and_the_seat_it_helps_waits() -> None:
    state = load("role.yaml")
    hints = by_seat(state)
    a = hints[0].action
    assert isinstance(a, Recolour) and state.die_label(a.die) == "B5" and a.colour == "R"
    assert hints[0].reason.startswith("Recolour the Blue 5 to red: then it goes on p1's REDS")
    assert hints[1].action is None
    assert hints[1].reason == "Wait: p0 uses the role on the Blue 5 first, then it goes on your REDS"
    assert hints[1].line().startswith("p1: no action — Wait:")


def test_nobody_is_hinted_at_a_chance_step() -> None:
    state = load("unused_die_penalty.yaml")
    assert state.is_chance and hint(state) == []
    assert nobody_acts(state).startswith("this is a chance step: the unused Red 1 is about to be rerolled")


@pytest.mark.parametrize("path", ALL_SCENARIOS, ids=lambda p: p.stem)
def test_hints_are_legal_in_every_scenario(path: Path) -> None:
    state = load_scenario(path)
    assert_sound(state, hint(state))


@pytest.mark.parametrize("config", [
    GameConfig(players=3),
    GameConfig(players=2, game="countdown"),
    GameConfig(players=4, modules=("roles",)),
], ids=["fuse", "countdown", "roles"])
def test_hints_are_legal_through_a_played_game(config: GameConfig) -> None:
    state = new_game(config, seed=11)
    planner = TeamPlanner()
    decisions = 0
    while not state.is_over and decisions < 40:
        if state.is_chance:
            state.sample_chance()
            continue
        assert_sound(state, hint(state, planner))
        state.apply(planner(state))
        decisions += 1
    assert decisions > 10


def test_hints_round_trip_through_dicts() -> None:
    for h in hint(load("complete_card.yaml")):
        d = json.loads(json.dumps(h.to_dict()))
        assert set(d) == {"seat", "kind", "action", "text", "reason"}
        assert Hint.from_dict(d) == h


# ====================================================================== the command
def test_cli_prints_a_line_per_seat() -> None:
    path = HINTS / "complete_card.yaml"
    res = runner.invoke(app, ["hint", str(path)])
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert len(lines) == len(load_scenario(path).to_act()) == 3
    assert lines[0] == "p0: place d10 F27 s3 — Green 4 on F27 (Three of a kind): completes it, +3 points"
    assert lines[2].startswith("p2: done — Say done: no die fits your cards")


def test_cli_json_round_trips() -> None:
    path = SCENARIOS / "fuse_during_defusal.yaml"
    res = runner.invoke(app, ["hint", str(path), "--json"])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)
    assert [Hint.from_dict(r) for r in rows] == hint(load_scenario(path))
    assert [r["seat"] for r in rows] == [0, 1, 2] and rows[0]["kind"] == "take"


def _finished(tmp_path: Path) -> Path:
    state = new_game(GameConfig(players=2), seed=3)
    state.apply(Tick(-1, 600_000))  # the clock runs out
    assert state.is_over
    path = tmp_path / "over.yaml"
    path.write_text(dump_scenario_text(state))
    return path


@pytest.mark.parametrize("make, needle", [
    (lambda tmp: tmp / "missing.yaml", "cannot read the file"),
    (lambda tmp: (tmp / "bad.yaml").write_text("players: [") and tmp / "bad.yaml", "not valid YAML"),
    (lambda tmp: (tmp / "die.yaml").write_text("players: [[F01]]\nrow: [F02]\nrolled: [Q5]\n")
     and tmp / "die.yaml", "'Q5' is not a die"),
    (lambda tmp: SCENARIOS / "unused_die_penalty.yaml", "this is a chance step"),
    (_finished, "the game is over (lost: time-up)"),
], ids=["missing", "yaml", "scenario", "chance", "over"])
def test_cli_bad_input_is_one_line_and_exit_2(tmp_path: Path, make: object, needle: str) -> None:
    path = make(tmp_path)  # type: ignore[operator]
    res = runner.invoke(app, ["hint", str(path)])
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fuse: error: ") and needle in lines[0], res.stderr
    assert "Traceback" not in res.output and res.stdout == ""
