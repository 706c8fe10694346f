"""From 120 columns the table is drawn as the page draws it: each card a box with its slots in its
shape (a row, a stack bottom up, a double stack, a pyramid, a ziggurat, a wall), the dice on it in
their colours, its name and points; the roll as dice; the team's hands side by side. 80×24 keeps
its lines."""

from __future__ import annotations

import asyncio
from typing import Any

from terminaltable import local_app, shown, until
from textual.content import Content

from fusegame.cards.catalogue import builtin_catalogue
from fusegame.terminal.drawing import card_box


def _card(card_id: str, dice: dict[int, dict[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
    c = next(x for x in builtin_catalogue().bombs if x.id == card_id)
    on = [None] * c.shape.size
    for i, d in (dice or {}).items():
        on[i] = d
    return {"id": c.id, "points": c.points, "notation": c.notation, "kind": c.kind, "name": c.name,
            "dice": on, **extra}


def _drawn(card: dict[str, Any]) -> list[str]:
    return [Content.from_markup(line).plain for line in card_box(card, card["name"], "en").lines]


def _centre(line: str, text: str) -> float:
    i = line.index(text)
    return i + len(text) / 2


def _over(upper: float, lower: float) -> bool:
    """Centred over, to the half column a grid of characters allows."""
    return abs(upper - lower) <= 0.5


def test_a_card_is_a_box_with_its_id_points_and_name() -> None:
    lines = _drawn(_card("F01"))
    assert lines[0].startswith("╭ F01 ") and lines[0].endswith(" 1★ ╮")
    assert lines[1].startswith("│ Rainbow fence") and lines[-1].startswith("╰")
    assert len({len(line) for line in lines}) == 1  # every line as wide as the box
    assert "%   ≠c  %   ≠c  %" in lines[2]  # the relations between the slots they join
    done = _drawn(_card("F01", complete=True))
    assert done[0].startswith("╭ F01 ✔ ")


def test_a_stack_is_drawn_bottom_up_with_its_relations_turned() -> None:
    # F10 "stack: ? > ? < ?": a > b < c, a at the bottom
    lines = _drawn(_card("F10", {0: {"colours": "B", "face": 5}}))
    body = [line.strip("│ ") for line in lines[2:-1]]
    assert body == ["?", "∨", "?", "∧", "B5"]  # c, b < c, b, a > b, a


def test_a_double_stack_stands_as_two_columns() -> None:
    lines = _drawn(_card("F51"))  # stacks: 1|2 3|4 5|6 / R|Y K|B R|G
    assert [line.split() for line in lines[2:5]] == [["│", "5|6", "R|G", "│"], ["│", "3|4", "K|B", "│"],
                                                     ["│", "1|2", "R|Y", "│"]]


def test_a_pyramid_centres_each_row_over_the_one_below() -> None:
    lines = _drawn(_card("F50"))  # pyramid: 1 R3 2 / B G4 / Y5
    top, middle, bottom = lines[2], lines[3], lines[4]
    assert _over(_centre(middle, "B"), (_centre(bottom, "1") + _centre(bottom, "R3")) / 2)
    assert _over(_centre(middle, "G4"), (_centre(bottom, "R3") + _centre(bottom, "2")) / 2)
    assert _over(_centre(top, "Y5"), (_centre(middle, "B") + _centre(middle, "G4")) / 2)
    assert _centre(top, "Y5") > _centre(middle, "B") > _centre(bottom, "1")


def test_a_ziggurat_and_a_wall() -> None:
    zig = _drawn(_card("C13"))  # ziggurat: R|B G|Y K|R B|G / ?
    assert _over(_centre(zig[2], "?"), (_centre(zig[3], "R|B") + _centre(zig[3], "B|G")) / 2)
    wall = _drawn(_card("C05"))  # wall: R|B G|Y / !K ?
    assert _over(_centre(wall[2], "!K"), _centre(wall[3], "R|B"))
    assert _over(_centre(wall[2], "?"), _centre(wall[3], "G|Y"))


def test_dice_on_a_card_and_its_equations() -> None:
    lines = _drawn(_card("C30", {0: {"colours": "R/K", "face": 3}, 2: {"colours": "Y", "face": 6}}))
    assert "R/K3" in lines[2] and "Y6" in lines[2] and "b #" in lines[2]  # lettered: the sums name them
    assert "a + b = c; c + d = 10" in lines[3]


def test_a_wide_terminal_draws_the_table() -> None:
    async def go() -> None:
        app = local_app(players=4, difficulty="standard", seed=2, bot_delay_ms=10_000)
        async with app.run_test(size=(160, 48)) as pilot:
            await until(pilot, lambda: app.table.my_decision() is not None)
            v = app.table.view
            assert v is not None
            # the roll as dice: each number over a die of its colours
            roll = shown(app, "#roll").split("\n")
            assert len(roll) == 5 and roll[3].split() == [d["die"] for d in app.table.rolled()]
            assert roll[1].split() == [str(n) for n in range(1, len(app.table.rolled()) + 1)]
            assert set(roll[2].replace(" ", "")) == {"▄"} and set(roll[4].replace(" ", "")) == {"▀"}
            # your cards as cards side by side
            mine = shown(app, "#mine").split("\n")
            assert all(f"╭ {c['id']} " in mine[1] for c in v["hands"][0]["cards"])
            # each teammate's hand side by side
            team = shown(app, "#team-right").split("\n")
            for hand in v["hands"][1:]:
                head = next(i for i, line in enumerate(team) if line.startswith(f"Bot {hand['seat'] + 1}"))
                assert all(f"╭ {c['id']} " in team[head + 1] for c in hand["cards"][:2])
            # a slot is clicked in a box as on a line
            n = next(n for n, d in enumerate(app.table.rolled(), 1) if app.table.targets(int(d["id"])))
            await pilot.press(str(n))
            target = app.table.target()
            assert target is not None
            lines = shown(app, "#mine").split("\n")
            row = next(i for i, line in enumerate(lines) if "▶" in line)
            await pilot.click("#mine", offset=(lines[row].index("▶") + 1, row))
            hand = app.table.view["hands"][0]  # type: ignore[index]
            await until(pilot, lambda: any(d is not None for c in app.table.view["hands"][0]["cards"]  # type: ignore[index]
                                           for d in c["dice"]) and hand is not app.table.view["hands"][0])
            await pilot.resize_terminal(80, 24)  # 80 columns: lines again, no boxes
            await until(pilot, lambda: "╭" not in shown(app, "#mine"))
            assert "╭" not in shown(app, "#row") + shown(app, "#team-left")
    asyncio.run(go())
