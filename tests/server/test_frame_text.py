"""A room's frames are the JSON text they always were, whatever encodes them: clients, recorded
frames and caches compare them byte for byte."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest

from fusegame.rules.config import GameConfig
from fusegame.rules.setup import new_game
from fusegame.server.room import dumps, moves_by_seat, public_view


def standard(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize("options", [
    {"players": 4},
    {"players": 5, "difficulty": "expert", "modules": ["roles", "sparks"]},
    {"players": 4, "game": "countdown"},
    {"players": 2, "setup": "stacks"},
])
def test_every_positions_view_and_moves_are_written_as_the_standard_encoder_writes_them(
        options: dict[str, Any]) -> None:
    cfg = GameConfig.from_dict(options)
    for seed in range(3):
        g = new_game(cfg, seed)
        rng = random.Random(seed)
        for _ in range(150):
            if g.outcome is not None:
                break
            view, moves = public_view(g), moves_by_seat(g)
            assert dumps(view) == standard(view)
            assert dumps(moves) == standard(moves)
            legal = g.legal_actions()
            for seat, offered in moves.items():  # what a client sends back for each move offered
                texts = [t for p in offered["place"] for t in p["actions"]]
                texts += [m["action"] for m in offered["actions"]]
                assert sorted(texts) == sorted(str(replace(a, at=None)).split(" ", 1)[1]
                                               for a in legal if a.seat == seat)
            g.apply(rng.choice(legal))


def test_names_and_chat_in_any_script_are_written_as_they_are() -> None:
    frame = {"type": "chat", "seat": 0, "name": "Zoë 北 🎲", "text": "\"quoted\" \\ \n\t\u2028 <b>&</b>"}
    assert dumps(frame) == standard(frame)
    assert json.loads(dumps(frame)) == frame


def test_a_lone_surrogate_still_makes_a_frame_for_the_socket_to_repair() -> None:
    # the door refuses such text; a frame that holds it anyway is written, not raised
    frame = {"type": "chat", "seat": 0, "text": "\ud800"}
    assert dumps(frame) == standard(frame)
