"""Hints: the team planner's advice per seat, its wording, and the ``fuse hint`` command."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from fusegame import GameConfig, new_game
from fusegame.bots import Hint, hint
from fusegame.bots.hints import die_words, nobody_acts
from fusegame.bots.team import PLAY_WEIGHTS, TeamPlanner
from fusegame.cli import app
from fusegame.constraints import EMPTY
from fusegame.rules.actions import Done, GiveUp, Place, Recolour, TakeCard, Tick
from fusegame.rules.state import GameState
from fusegame.scenario import dump_scenario_text, load_scenario
from fusegame.words import hint_reason, hint_text

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
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
        assert_spanish(h)
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


def test_a_die_left_for_the_penalty_says_what_the_penalty_costs() -> None:
    # p0 has nothing to place; the penalty for the Yellow 2 comes after p1 completes F27 (its dice
    # are safe then) and p2 puts a die on the Straight (which it may knock off): the Black 5,
    # which the roll alone cannot tell from the Yellow 2 but the next roll can
    state = load("penalty_cost.yaml")
    h = by_seat(state)[0]
    assert isinstance(h.action, Done)
    then = h.advice["then"]
    assert then["kind"] == "penalty" and [d["die"] for d in then["dice"]] == ["Y2"]
    planner = TeamPlanner(PLAY_WEIGHTS)
    before = planner.penalty_cost(state, state.unplaced()[2])  # F27's Red 4 and Blue 4 at risk
    assert 0 < then["cost_tenths"] < 10 * before
    assert h.reason == (f"Say done: no die fits your cards; the Yellow 2 is left for the penalty, "
                        f"which undoes about {then['cost_tenths'] / 10:g} dice of work on average")


def test_the_penalty_cost_counts_every_die_the_roll_puts_on_one_card() -> None:
    # two players: p0's REDS takes both the R3 and the R5, and a die rerolled for the penalty
    # that shows a red's number knocks it off; p1 hears the cost with both reds on the card
    state = load("penalty_two_dice.yaml")
    told = by_seat(state)[1].advice["then"]
    assert told["kind"] == "penalty" and sorted(d["die"] for d in told["dice"]) == ["B6", "K2"]
    planner = TeamPlanner(PLAY_WEIGHTS)
    # the roll as the team plays it: p0 places what its hints say until it has nothing to place
    g = state.clone()
    steps = []
    while (h := by_seat(g).get(0)) is not None and isinstance(h.action, Place):
        g.apply(h.action)
        steps.append(sum(planner.penalty_cost(g, d["id"]) for d in told["dice"]))
    assert sorted(g.unplaced()) == sorted(d["id"] for d in told["dice"])
    reds = g.hand_card(0, "REDS")
    assert reds is not None and sum(d != EMPTY for d in reds.dice) == 3
    # each red placed makes the penalty dearer, and the hint gives the cost once both are on
    assert len(steps) == 2 and steps[0] < steps[1]
    assert told["cost_tenths"] == round(steps[1] * 10)
    assert by_seat(state)[1].reason.endswith(
        f"which undoes about {told['cost_tenths'] / 10:g} dice of work on average")


def test_a_penalty_with_no_die_on_the_cards_to_take_costs_nothing() -> None:
    hints = hint(load("penalty_free.yaml"))
    assert len(hints) == 3
    for h in hints:
        assert isinstance(h.action, Done)
        assert h.advice["then"] == {"kind": "penalty", "dice": h.advice["then"]["dice"], "cost_tenths": 0}
        assert len(h.advice["then"]["dice"]) == 3
        assert h.reason.endswith("which costs nothing: no die on the cards can be lost to it")
        assert hint_reason(h.advice, "es").endswith(
            "que no cuesta nada: no se puede perder ningún dado de las cartas")


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


def test_the_take_hint_prefers_the_smallest_card() -> None:
    h = by_seat(load("take_smallest.yaml"))[0]
    assert isinstance(h.action, TakeCard) and h.action.card == "F06"
    assert h.advice["why"] == {"kind": "smallest", "where": "row", "work": 7}
    assert h.reason == (
        "Take F06 (Two apart): the smallest card in the row (fewest slots and points, about 7 dice): "
        "leave the big ones for last; the game is won once the middle is empty, and the cards then "
        "in front of the players need not be finished")
    assert hint_reason(h.advice, "es") == (
        "Coge F06 (A dos de distancia): la carta más pequeña de la fila (menos casillas y puntos, "
        "unos 7 dados): "
        "deja las grandes para el final; la partida se gana cuando el centro queda vacío, y las cartas "
        "que tengan entonces delante los jugadores no hace falta terminarlas")


def test_the_take_hint_says_when_the_dice_in_the_bag_chose_the_card() -> None:
    h = by_seat(load("take_next_roll.yaml"))[0]
    assert isinstance(h.action, TakeCard) and h.action.card == "TWO_BLUES"
    why = h.advice["why"]
    assert why["kind"] == "next_roll" and why["instead"]["id"] == "TWO_REDS" and why["work"] == 11
    more = f"{why['ahead_tenths'] / 10:g}"
    assert why["ahead_tenths"] >= 10  # no die of the next roll can go on TWO_REDS; most fit TWO_BLUES
    assert h.reason == (
        "Take TWO_BLUES: the card the dice in the bag fit (about 11 dice), rather than TWO_REDS: the "
        f"team's next roll should do about {more} dice more work")
    assert hint_reason(h.advice, "es") == (
        "Coge TWO_BLUES: la carta a la que mejor se ajustan los dados de la bolsa (unos 11 dados), en vez "
        f"de TWO_REDS: la próxima tirada del equipo debería rendir unos {more.replace('.', ',')} dados "
        "más de trabajo")


def test_a_completion_that_takes_the_last_bomb_says_the_team_wins() -> None:
    state = load("last_bomb.yaml")
    h = by_seat(state)[0]
    assert isinstance(h.action, Place) and h.advice["card"]["id"] == "REDS"
    assert h.advice["why"] == {"kind": "wins", "points": 1, "left": 1}
    assert h.reason == ("Red 6 on REDS: completes it, +1 point; this roll takes the last bomb from the "
                        "middle, and the team wins")
    assert hint_reason(h.advice, "es") == (
        "El dado rojo 6 en REDS: la completa, +1 punto; esta tirada se lleva la última bomba del centro, "
        "y el equipo gana")
    # counted by its work alone, the Red 6 would go to p1's SIXES
    work_only = {x.seat: x for x in hint(state, TeamPlanner(replace(PLAY_WEIGHTS, win_bonus=0.0)))}
    assert work_only[0].advice["kind"] == "done"
    assert isinstance(work_only[1].action, Place) and work_only[1].advice["card"]["id"] == "SIXES"


def test_at_insane_the_take_hint_prefers_the_hardest_card() -> None:
    h = by_seat(load("take_hardest_first.yaml"))[0]
    assert isinstance(h.action, TakeCard) and h.action.card == "F15"
    assert h.advice["why"] == {"kind": "hardest_first", "where": "row", "work": 9}
    assert h.reason == (
        "Take F15 (Balance): the hardest card in the row (about 9 dice): every card must be "
        "finished, so take the hard ones while there is time and leave the quick ones for the end, when "
        "the players whose cards are done can no longer help")
    assert hint_reason(h.advice, "es") == (
        "Coge F15 (Equilibrio): la carta más difícil de la fila (unos 9 dados): hay que terminar "
        "todas las cartas, así que coge las difíciles mientras hay tiempo y deja las rápidas para el "
        "final, cuando los jugadores que ya hayan terminado sus cartas no podrán ayudar")


def test_late_in_the_game_the_hint_finishes_the_card_that_can_still_win() -> None:
    h = by_seat(load("finish_first.yaml"))[0]
    assert isinstance(h.action, Place) and h.action.card == "F43"
    assert h.advice["why"]["kind"] == "focus" and h.advice["why"]["left"] == 1
    assert h.advice["why"]["spare"]["id"] == "F42"
    assert h.reason == (
        "Yellow 2 on F43 (Rising, stack) slot 1: finish this one first (about 14 dice to go, was 15); "
        "only 1 bomb is left in the middle, so F42 (Four colours up, stack) will likely never need finishing")
    assert hint_reason(h.advice, "es") == (
        "El dado amarillo 2 en F43 (En subida, pila), casilla 1: termina esta primero (faltan unos 14 dados, "
        "antes 15); solo queda 1 bomba en el centro, así que seguramente no hará falta terminar F42 (Cuatro "
        "colores arriba, pila)")


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
        assert set(d) == {"seat", "kind", "action", "act", "advice", "text", "reason"}
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


# ====================================================================== advice: facts, and their words
B5 = {"id": 5, "die": "B5", "colours": "B", "face": 5, "as": None}
R1 = {"id": 2, "die": "R1", "colours": "R", "face": 1, "as": None}
KY3 = {"id": 20, "die": "K/Y3", "colours": "K/Y", "face": 3, "as": None}
F12 = {"id": "F12", "name": "Little tent", "layout": "pyramid", "kind": "bomb", "points": 2}
F44 = {"id": "F44", "name": "Yellow one in the middle", "layout": "stack", "kind": "bomb", "points": 4}
S03 = {"id": "S03", "name": "Split", "layout": "", "kind": "spark", "points": 0}
REDS = {"id": "REDS", "name": "", "layout": "", "kind": "bomb", "points": 1}
TO_GO = {"after": 6, "before": 9}

#: One advice of every kind and variant a hint gives (the format of ``Hint.advice``).
ADVICE: list[dict[str, Any]] = [
    {"kind": "place", "die": B5, "card": F12, "slot": 2, "why": {"kind": "completes", "points": 2}},
    {"kind": "place", "die": KY3, "card": S03, "slot": 0, "why": {"kind": "clears_spark"}},
    {"kind": "place", "die": B5, "card": F12, "slot": 2,
     "why": {"kind": "closer", "most_ways": True, "to_go": TO_GO}},
    {"kind": "place", "die": B5, "card": F44, "slot": 0,
     "why": {"kind": "closer", "most_ways": False, "to_go": {"after": 1, "before": 1}}},
    {"kind": "place", "die": B5, "card": F44, "slot": 0, "why": {"kind": "spares_spark", "to_go": TO_GO}},
    {"kind": "place", "die": B5, "card": F12, "slot": 1,
     "why": {"kind": "focus", "to_go": TO_GO, "spare": F44, "left": 2}},
    {"kind": "place", "die": R1, "card": F44, "slot": 0,
     "why": {"kind": "focus", "to_go": TO_GO, "spare": REDS, "left": 1}},
    {"kind": "place", "die": B5, "card": REDS, "slot": 0,
     "why": {"kind": "beats_penalty", "to_go": {"after": None, "before": 9}}},
    {"kind": "place", "die": B5, "card": F12, "slot": 0,
     "why": {"kind": "next_roll", "to_go": TO_GO, "instead": {"die": R1, "card": F12}, "ahead_tenths": 4}},
    {"kind": "place", "die": R1, "card": REDS, "slot": 1,
     "why": {"kind": "next_roll", "to_go": TO_GO, "instead": None, "ahead_tenths": 10}},
    {"kind": "place", "die": B5, "card": F12, "slot": 2, "why": {"kind": "wins", "points": 2, "left": 1}},
    {"kind": "place", "die": R1, "card": REDS, "slot": 1, "why": {"kind": "wins", "points": 1, "left": 2}},
    {"kind": "done", "why": {"kind": "no_fit"}, "then": None},
    {"kind": "done", "why": {"kind": "harder"}, "then": {"kind": "sparks", "count": 2}},
    {"kind": "done", "why": {"kind": "team"}, "then": {"kind": "penalty", "dice": [B5]}},
    {"kind": "done", "why": {"kind": "team"}, "then": {"kind": "penalty", "dice": [B5], "cost_tenths": 0}},
    {"kind": "done", "why": {"kind": "harder"}, "then": {"kind": "penalty", "dice": [R1], "cost_tenths": 10}},
    {"kind": "done", "why": {"kind": "better_elsewhere", "die": B5, "seat": 2, "card": REDS},
     "then": {"kind": "penalty", "dice": [B5, R1, KY3], "cost_tenths": 14}},
    {"kind": "wait_for_role", "leader": 0, "die": B5, "card": REDS},
    {"kind": "role", "role": "rethrow", "dice": [R1]},
    {"kind": "role", "role": "rethrow", "dice": [R1, B5]},
    {"kind": "role", "role": "recolour", "die": B5, "colour": "R", "then": {"seat": 1, "card": REDS},
     "saves": 7},
    {"kind": "role", "role": "renumber", "die": R1, "face": 3, "then": {"seat": 0, "card": F12}, "saves": 1},
    {"kind": "role", "role": "flip", "die": R1, "face": 6, "then": None, "saves": 4},
    {"kind": "role", "role": "recolour", "die": KY3, "colour": "B", "then": None, "saves": 0},
    {"kind": "role", "role": "renumber", "die": B5, "face": 2, "then": None, "saves": None},
    {"kind": "role", "role": "flip", "die": R1, "face": 6, "then": {"seat": 1, "card": F44}, "saves": 3},
    {"kind": "no_role_gain"},
    {"kind": "defuse", "card": F12},
    {"kind": "defuse", "card": S03},
    {"kind": "take", "card": F12, "why": {"kind": "only", "work": 6}, "others": []},
    {"kind": "take", "card": F12, "why": {"kind": "easiest", "where": "row", "work": 1}, "others": []},
    {"kind": "take", "card": F44, "why": {"kind": "hardest_late", "work": 20}, "others": []},
    {"kind": "take", "card": F44, "why": {"kind": "hardest_first", "where": "row", "work": 20}, "others": []},
    {"kind": "take", "card": F44, "why": {"kind": "hardest_first", "where": "stacks", "work": 20},
     "others": [{"card": F12, "seat": 0}]},
    {"kind": "take", "card": F44, "why": {"kind": "best_trade", "where": "stacks", "work": 12},
     "others": [{"card": F12, "seat": 0}, {"card": REDS, "seat": 2}]},
    {"kind": "take", "card": F12, "why": {"kind": "smallest", "where": "row", "work": 7}, "others": []},
    {"kind": "take", "card": F12, "why": {"kind": "next_roll", "where": "row", "work": 7, "instead": F44,
                                          "ahead_tenths": 38}, "others": []},
    {"kind": "take", "card": F12, "why": {"kind": "next_roll", "where": "row", "work": 7, "instead": F44,
                                          "ahead_tenths": 10}, "others": [{"card": REDS, "seat": 2}]},
    {"kind": "take", "card": F12, "why": {"kind": "smallest", "where": "stacks", "work": 7},
     "others": [{"card": F44, "seat": 1}]},
    {"kind": "wait_to_take"},
    {"kind": "nothing_to_take"},
    {"kind": "give_up", "die": B5, "card": F12, "cause": {"kind": "fuse", "card": "FZR", "shows": ["R"]},
     "to_go": TO_GO},
    {"kind": "give_up", "die": B5, "card": F12, "to_go": TO_GO,
     "cause": {"kind": "penalty", "die": {"id": None, "die": "G4", "colours": "G", "face": 4, "as": None}}},
    {"kind": "give_up", "die": B5, "card": F12, "cause": {"kind": "no_spark"},
     "to_go": {"after": 3, "before": 3}},
    {"kind": "give_up", "die": B5, "card": F12, "cause": None, "to_go": TO_GO},
    {"kind": "name", "value": "R", "in_bag": 7},
    {"kind": "name", "value": "5", "in_bag": None},
    {"kind": "reroll", "die": R1},
    {"kind": "return_free", "die": R1},
    {"kind": "roll_six"},
]


def scenario_hints() -> list[tuple[str, Hint]]:
    return [(f"{p.stem}-p{h.seat}", h) for p in ALL_SCENARIOS for h in hint(load_scenario(p))]


def paths(x: Any, at: str = "") -> set[str]:
    """Where each fact of an advice sits, with the kinds that choose its words: ``:done/why:no_fit``."""
    if isinstance(x, dict):
        if "layout" in x or "colours" in x:  # a card or a die fact
            return {f"{at}<{'card' if 'layout' in x else 'die'}>"}
        tag = at + "".join(f":{x[k]}" for k in ("kind", "role") if k in x)
        out = {tag}
        for k, v in x.items():
            if k not in ("kind", "role"):
                out |= paths(v, f"{tag}/{k}")
        return out
    if isinstance(x, list):
        return {f"{at}[]"}.union(*(paths(v, f"{at}[]") for v in x))
    return {at + ("=null" if x is None else "")}


def proper_names(advice: dict[str, Any]) -> list[str]:
    """Card names, printed as they are in every language."""
    out: list[str] = []

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            if "layout" in x and x.get("name"):
                out.append(x["name"])
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(advice)
    return out


_PROPER = re.compile(r"\b[A-Z][A-Z0-9/]*\b|\d+")
_WORD = re.compile(r"[^\W\d_]+")


def words_of(text: str, advice: dict[str, Any]) -> set[str]:
    for name in proper_names(advice):
        text = text.replace(name, " ")
    return {w.lower() for w in _WORD.findall(_PROPER.sub(" ", text))}


ENGLISH = set().union(*(words_of(hint_text(a) + " " + hint_reason(a), a) for a in ADVICE))
SHARED = {"a", "no"}  # spelt alike in both languages
KNOWN = set().union(*(paths(a) for a in ADVICE))


def test_the_advice_catalogue_covers_every_kind_a_hint_gives() -> None:
    kinds = {a["kind"] for a in ADVICE}
    assert kinds == {"place", "done", "wait_for_role", "role", "no_role_gain", "defuse", "take",
                     "wait_to_take", "nothing_to_take", "give_up", "name", "reroll", "return_free",
                     "roll_six"}
    for name, h in scenario_hints():
        assert paths(h.advice) <= KNOWN, (name, paths(h.advice) - KNOWN)


@pytest.mark.parametrize("advice", ADVICE, ids=[f"{a['kind']}-{i}" for i, a in enumerate(ADVICE)])
def test_every_advice_has_words_in_english_and_spanish(advice: dict[str, Any]) -> None:
    for lang in ("en", "es"):
        text, reason = hint_text(advice, lang), hint_reason(advice, lang)
        assert text and reason and "\n" not in text + reason
        assert hint_text(advice, lang, names=["Ana", "Luis", "Eva"]) == text  # what to do names nobody
    es = hint_text(advice, "es") + " " + hint_reason(advice, "es")
    english = (words_of(es, advice) & ENGLISH) - SHARED
    assert not english, f"English in {es!r}: {sorted(english)}"


def assert_spanish(h: Hint) -> None:
    """The hint's advice is of a known shape and reads in Spanish with no English left in it."""
    assert paths(h.advice) <= KNOWN, paths(h.advice) - KNOWN
    assert hint_text(h.advice, seat=h.seat) == h.text and hint_reason(h.advice, seat=h.seat) == h.reason
    es = hint_text(h.advice, "es", seat=h.seat) + " " + hint_reason(h.advice, "es", seat=h.seat)
    english = (words_of(es, h.advice) & ENGLISH) - SHARED
    assert not english, f"English in {es!r}: {sorted(english)}"


@pytest.mark.parametrize("name, h", scenario_hints(), ids=lambda x: x if isinstance(x, str) else "")
def test_scenario_hints_have_words_in_both_languages(name: str, h: Hint) -> None:
    assert_spanish(h)


def test_spanish_hints_read_naturally() -> None:
    h = by_seat(load("complete_card.yaml"))
    assert hint_text(h[0].advice, "es") == "Pon el dado verde 4 en F27, casilla 3"
    assert hint_reason(h[0].advice, "es") == (
        "El dado verde 4 en F27 (Trío): la completa, +3 puntos")
    assert hint_reason(h[2].advice, "es", seat=2) == (
        "Di que has terminado: ningún dado encaja en tus cartas; el dado amarillo 2 y el dado rojo 3 quedan "
        "para la penalización, que deshace de media unos 0,3 dados de trabajo")
    role = by_seat(load("role.yaml"))
    assert hint_reason(role[0].advice, "es", seat=0).startswith(
        "Haz que el dado azul 5 sea rojo: después irá en la carta REDS de J2 (ahorra unos ")
    assert hint_reason(role[1].advice, "es", seat=1) == (
        "Espera: J1 usa primero su rol en el dado azul 5; después irá en tu carta REDS")
    give = by_seat(load("give_up.yaml"))[0]
    assert hint_reason(give.advice, "es", seat=0).startswith(
        "Entrega el dado rojo 5 de ANY3 por la carta de mecha (rojo): es el que menos cuesta reponer (")
    assert hint_reason(ADVICE[0], "es") == (
        "El dado azul 5 en F12 (Little tent, pirámide): la completa, +2 puntos")
    assert hint_reason(ADVICE[2], "es") == (
        "El dado azul 5 en F12 (Little tent, pirámide), casilla 3: deja más formas de terminarla "
        "(faltan unos 6 dados, antes 9)")


def test_hints_name_the_players() -> None:
    wait = by_seat(load("role.yaml"))[1]
    names = ["Ana", "Luis"]
    assert hint_reason(wait.advice, names=names, seat=1) == (
        "Wait: Ana uses the role on the Blue 5 first, then it goes on your REDS")
    assert hint_reason(wait.advice, "es", names=names, seat=1) == (
        "Espera: Ana usa primero su rol en el dado azul 5; después irá en tu carta REDS")
    elsewhere = by_seat(load("fuse_during_defusal.yaml"))[1]
    assert hint_reason(elsewhere.advice, "es", seat=1).endswith("rinde más en la carta J1 de J3")
    assert hint_reason(elsewhere.advice, "es", names=["Ana", "Luis", "Eva"], seat=1).endswith(
        "rinde más en la carta J1 de Eva")


def facts_only(x: Any, where: str, key: str = "") -> None:
    """Every string in an advice is a kind, an id, a symbol, a die label, a layout or a card's name:
    no sentence."""
    if isinstance(x, dict):
        for k, v in x.items():
            facts_only(v, where, k)
    elif isinstance(x, list):
        for v in x:
            facts_only(v, where, key)
    elif isinstance(x, str) and key not in ("name", "name_es"):
        if key == "die":
            assert re.fullmatch(r"[RBGYK/]+\d( as [RBGYK/]+)?", x), (where, x)
        elif key == "layout":
            assert x in ("", "pyramid", "stack", "double stack", "wall", "ziggurat"), (where, x)
        else:
            assert re.fullmatch(r"[\w/-]+", x), (where, key, x)
    else:
        assert x is None or isinstance(x, (bool, int, str)), (where, key, x)


def test_advice_is_json_facts_not_sentences() -> None:
    for name, h in scenario_hints():
        d = h.to_dict()
        assert json.loads(json.dumps(d["advice"])) == h.advice == d["advice"]
        if h.action is not None:
            assert d["act"] == h.action.to_data() and d["action"] == str(h.action)
        assert Hint.from_dict(json.loads(json.dumps(d))) == h, name
        facts_only(h.advice, name)
    for a in ADVICE:
        facts_only(a, a["kind"])


def test_the_action_data_is_read_back_before_the_text() -> None:
    h = by_seat(load("complete_card.yaml"))[0]
    d = h.to_dict()
    assert Hint.from_dict({**d, "action": None}) == h
    assert Hint.from_dict({**d, "act": None}) == h  # older clients send only the text
    with pytest.raises(ValueError, match="no words for advice of kind 'shrug'"):
        hint_text({"kind": "shrug"})


def test_cli_json_prints_the_advice() -> None:
    path = SCENARIOS / "fuse_during_defusal.yaml"
    res = runner.invoke(app, ["hint", str(path), "--json"])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)
    assert rows[1]["advice"] == {"kind": "done", "then": None, "why": {
        "kind": "better_elsewhere", "seat": 2,
        "die": {"id": 11, "die": "G4", "colours": "G", "face": 4, "as": None},
        "card": {"id": "J1", "name": "", "name_es": "", "layout": "", "kind": "bomb", "points": 1}}}
    assert rows[1]["reason"] == "Say done: the Green 4 that fits your cards does more on p2's J1"
    assert rows[0]["advice"]["kind"] == "take" and rows[0]["act"]["verb"] == "take"
