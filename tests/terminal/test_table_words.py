"""The words the table says: a die a teammate took is said to be taken; the table says whom it
waits for and for what; a new list of choices starts without a highlight (a double Enter never
spends a role ability); the Cutter is asked for a colour; a hint says its move once; the end screen
says whether the game is ranked."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from terminaltable import local_app, shown, until

from fusegame.scenario import load_scenario, scenario_from_text
from fusegame.server.options import RoomOptions
from fusegame.terminal.app import FuseApp
from fusegame.terminal.local import LocalLink
from fusegame.terminal.render import end_text, notice_line
from fusegame.terminal.table import Table
from fusegame.terminal.texts import Words

HINTS = Path(__file__).resolve().parents[1] / "scenarios" / "hints"


def _scenario_app(name: str, lang: str = "en") -> FuseApp:
    state = load_scenario(HINTS / f"{name}.yaml")
    options = RoomOptions(state.config, hints=True, bot_delay_ms=10_000, choice_timeout_s=60)
    return FuseApp(LocalLink(options, "Ana", None, position=state), lang)


#: Luis (seat 1) has placed the rolled R1 on his card; the B3 is still in the middle.
TAKEN = """
config: {players: 2, difficulty: standard}
players:
  - [{id: BLUES, notation: "B B"}, {id: REDS, notation: "R R"}]
  - [{id: MORE_REDS, notation: "R R", dice: [R1@0]}]
row: [F01, F02, F03, F04, F05]
deck: [F06, F07]
rolled: [R1@0, B3]
time_left: 400
"""


def test_a_die_a_teammate_took_is_said_to_be_taken() -> None:
    async def go() -> None:
        state = scenario_from_text(TAKEN)
        options = RoomOptions(state.config, hints=True, bot_delay_ms=10_000, choice_timeout_s=60)
        app = FuseApp(LocalLink(options, "Ana", None, position=state), "en")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.table.my_decision() is not None)
            assert app.table.rolled()[0]["placed"]
            await pilot.press("1")
            assert shown(app, "#notice") == "Die 1 is taken: Bot 2 placed it."
            assert app.table.die is None
            await pilot.press("2")  # the B3 fits: picked
            assert app.table.die == app.table.rolled()[1]["id"]
            app.table.die = None
            await pilot.press("d")
            await until(pilot, lambda: app.table.view["hands"][0]["done"])  # type: ignore[index]
            await pilot.press("2")
            assert shown(app, "#notice") == "Die 2: you said done this turn."
    asyncio.run(go())


def test_the_table_says_whom_it_waits_for() -> None:
    async def go() -> None:
        app = local_app(players=3, seed=5, bot_delay_ms=10_000)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.table.done_move() is not None)
            await pilot.press("d")
            await until(pilot, lambda: "Waiting" in shown(app, "#notice"))
            assert shown(app, "#notice") == "Waiting for Bot 2 and Bot 3 to place dice or say done."
    asyncio.run(go())


def _frame(seq: int, to_act: dict[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "state", "seq": seq, "seat": 0, "clock": {"left_ms": 300_000, "running": True},
            "view": {"to_act": to_act, "hands": [{"seat": 0, "cards": []}], "rolled": []},
            "moves": {"place": [], "actions": actions}}


def test_a_browser_player_taking_a_card_is_named() -> None:
    t = Table()
    t.feed({"type": "room", "room": {"status": "playing", "seats": [{"seat": 0, "name": "Ana"},
                                                                     {"seat": 1, "name": "Luis"}]}})
    t.feed(_frame(4, {"1": {"kind": "take"}}, []))
    assert "Waiting for Luis to take a card from the row." in notice_line(t, Words("en"))
    assert "Esperando a que Luis coja una carta de la fila." in notice_line(t, Words("es"))


def test_a_new_list_of_choices_starts_without_a_highlight() -> None:
    take = [{"kind": "take", "card": c, "action": f"take {c}"} for c in ("F01", "F02", "F03")]
    roles = [{"kind": "recolour", "die": 3, "colour": c, "action": f"recolour d3 {c}"} for c in "RGB"]
    t = Table()
    t.feed(_frame(1, {"0": {"kind": "take"}}, take))
    assert t.choice == 0  # a card must be taken: the first is highlighted
    t.move(1)
    t.move(1)
    assert t.confirm() == "take F03"
    t.feed(_frame(2, {"0": {"kind": "distribute"}}, roles))  # the role's moves, offered
    assert t.choice == -1 and t.confirm() is None  # a second Enter does nothing
    t.move(1)
    assert t.confirm() == "recolour d3 R"
    t.feed(_frame(3, {"0": {"kind": "take"}}, take[1:]))
    assert t.choice == 0 and t.confirm() == "take F02"


def test_enter_spends_no_role_ability_until_one_is_chosen() -> None:
    async def go() -> None:
        app = _scenario_app("role")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.table.my_decision() is not None)
            assert "▶" not in shown(app, "#choices")
            seq = app.table.seq
            await pilot.press("enter")
            assert shown(app, "#notice") == "Pick a die (1-9) or a choice (Tab) first."
            await pilot.pause(0.2)
            assert app.table.seq == seq  # nothing was sent
            await pilot.press("tab")
            assert "▶ Recolour B5 R ◀" in shown(app, "#choices")
            await pilot.press("enter")
            await until(pilot, lambda: any(e.get("event", {}).get("kind") == "role_used"
                                           for e in app.table.log))
    asyncio.run(go())


def test_the_cutter_is_asked_for_a_colour() -> None:
    async def go() -> None:
        app = local_app(game="countdown", players=3, seed=4, bot_delay_ms=10_000)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.table.my_decision() is not None)
            assert app.table.my_decision()["kind"] == "name"  # type: ignore[index]
            assert shown(app, "#notice") == "▶ Name a colour (arrows, Enter)."
    asyncio.run(go())


def test_a_hint_says_its_move_once() -> None:
    async def go() -> None:
        app = _scenario_app("take_card")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: bool(app.table.hints))
            await pilot.press("h")
            hint = shown(app, "#hint")
            assert hint.startswith("Hint: Take F06 — the easiest card in the row")
            assert hint.count("Take F06") == 1
    asyncio.run(go())


def test_h_before_the_planner_has_thought_shows_the_hint_when_it_comes() -> None:
    async def go() -> None:
        app = _scenario_app("take_card")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: bool(app.table.hints))
            t = app.table
            hints = list(t.hints or [])
            frame = {"type": "state", "seq": t.seq, "seat": 0, "view": t.view, "moves": t.moves,
                     "clock": {"left_ms": t.clock_ms(), "running": True}, "choices": {}}
            app.deliver(json.dumps({**frame, "hints": []}))  # as it comes while the planner thinks
            await pilot.press("h")
            assert shown(app, "#hint") == "Hint: the planner is thinking…"
            assert "No hint" not in shown(app, "#notice")
            app.deliver(json.dumps({**frame, "hints": hints}))  # the same table, with its hints
            assert shown(app, "#hint").startswith("Hint: Take F06")
            assert t.choice_moves()[t.choice]["action"] == "take F06"  # selected: Enter follows it
    asyncio.run(go())


def test_the_end_screen_says_whether_the_game_is_ranked() -> None:
    t = Table()
    t.feed({"type": "room", "room": {"status": "playing", "seats": [
        {"seat": 0, "name": "Ana", "kind": "human"}, {"seat": 1, "name": "Bot 2", "kind": "bot"}]}})
    t.feed({"type": "over", "outcome": {"won": True, "reason": "bombs-defused", "official": True,
                                        "score": {"total": 40}}, "log_id": 3})
    t.seeded = True
    assert "Timed game, unranked: bots played, a chosen deal." in end_text(t, Words("en"))
    assert "official" not in end_text(t, Words("en"))
    assert "sin clasificar: jugaron bots, un reparto elegido" in end_text(t, Words("es"))
    t.entry = {"ranked": True, "bots": 0, "seeded": False}  # as the server's log says it
    assert "Timed game, ranked" in end_text(t, Words("en"))
    t.outcome = {**t.outcome, "official": False}  # type: ignore[dict-item]
    assert "unofficial score" in end_text(t, Words("en"))


def test_the_slot_cursor_stays_on_its_slot_when_the_others_change() -> None:
    def frame(seq: int, slots: list[int]) -> dict[str, Any]:
        f = _frame(seq, {"0": {"kind": "distribute"}}, [])
        f["view"]["hands"] = [{"seat": 0, "cards": [{"id": "F13", "notation": "% % %", "dice": [None] * 3}]}]
        f["view"]["rolled"] = [{"id": 7, "die": "K4", "colours": "K", "face": 4}]
        f["moves"]["place"] = [{"die": 7, "card": "F13", "slots": slots,
                                "actions": [f"place d7 F13 s{s + 1}" for s in slots]}]
        return f

    t = Table()
    t.feed(frame(1, [1, 2]))
    t.pick(1)
    assert t.confirm() == "place d7 F13 s2"
    t.feed(frame(2, [0, 1, 2]))  # a slot more before it: the cursor stays on slot 2
    assert t.confirm() == "place d7 F13 s2"
    t.feed(frame(3, [0, 2]))  # its slot gone: the cursor stays in the list
    assert t.confirm() in ("place d7 F13 s1", "place d7 F13 s3")
