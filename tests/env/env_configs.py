"""The game configurations the environment tests run on (keyword options of the environments)."""

from __future__ import annotations

from typing import Any

import pytest

#: solo FUSE, 4-player FUSE, Countdown with 2 and 3 players (roles, sparks, fuse cards at Expert),
#: an integrated game and an epic game
API_CONFIGS: list[Any] = [
    pytest.param({"players": 1}, id="fuse-1"),
    pytest.param({"players": 4}, id="fuse-4"),
    pytest.param({"game": "countdown", "players": 2, "difficulty": "expert"}, id="countdown-2-expert"),
    pytest.param({"game": "countdown", "players": 3, "difficulty": "expert"}, id="countdown-3-expert"),
    pytest.param({"game": "integrated", "players": 2, "difficulty": "elite"}, id="integrated-2-elite"),
    pytest.param({"game": "epic", "players": 6}, id="epic-6"),
]

#: every game of the engine, with the setups and modules that change the action table
ALL_GAMES: list[dict[str, Any]] = [
    {"players": 1},
    {"players": 3, "difficulty": "insane"},
    {"players": 2, "setup": "stacks"},
    {"players": 5, "modules": ("roles", "bombs", "fuses", "sparks", "split-dice")},
    {"players": 2, "modules": ("roles",)},
    {"game": "countdown", "players": 1},
    {"game": "countdown", "players": 2, "difficulty": "expert"},
    {"game": "countdown", "players": 4, "difficulty": "heroic"},
    {"game": "integrated", "players": 3, "difficulty": "expert"},
    {"game": "epic", "players": 7},
]
