"""Shared test helpers: which card catalogue the engine tests play with.

The built-in catalogue (``src/fusegame/cards/data/fuse.toml``) is preferred as soon as it holds bomb
cards; until then the tests use their own valid catalogue, ``tests/data/conformance_cards.toml``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from fusegame.cards import Catalogue, builtin_catalogue, load_catalogue

TESTS = Path(__file__).resolve().parent
CONFORMANCE_CARDS = TESTS / "data" / "conformance_cards.toml"


@cache
def conformance_catalogue() -> Catalogue:
    return load_catalogue(CONFORMANCE_CARDS)


def game_cards() -> Catalogue | None:
    """The ``cards=`` value for ``GameConfig``: None (built-in) when the built-in has bomb cards."""
    return None if builtin_catalogue().bombs else conformance_catalogue()


def make_config(**kw: Any) -> Any:
    """A ``GameConfig`` that uses the preferred catalogue."""
    from fusegame.rules import GameConfig

    kw.setdefault("cards", game_cards())
    return GameConfig(**kw)


@pytest.fixture
def cards() -> Catalogue | None:
    return game_cards()
