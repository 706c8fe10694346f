"""Shared test helpers: which card catalogue the engine tests play with.

The built-in catalogue (``src/fusegame/cards/data/fuse.toml``) is preferred as soon as it holds bomb
cards; until then the tests use their own valid catalogue, ``tests/data/conformance_cards.toml``.
Countdown games likewise use the built-in Countdown cards (``countdown.toml``) once they exist, and
until then ``tests/data/countdown_test_cards.toml`` merged with the built-in catalogue.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from fusegame.cards import Catalogue, builtin_catalogue, load_catalogue

TESTS = Path(__file__).resolve().parent
CONFORMANCE_CARDS = TESTS / "data" / "conformance_cards.toml"
COUNTDOWN_TEST_CARDS = TESTS / "data" / "countdown_test_cards.toml"


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


@cache
def countdown_test_catalogue() -> Catalogue:
    """The built-in catalogue with the small Countdown test deck added (bombs, fuses, sparks, roles)."""
    base, extra = builtin_catalogue(), load_catalogue(COUNTDOWN_TEST_CARDS)
    return Catalogue(base.bombs + extra.bombs, base.fuses + extra.fuses, "built-in + test deck",
                     base.sparks + extra.sparks, base.roles + extra.roles)


def countdown_cards() -> Catalogue | None:
    """The ``cards=`` value for games that use Countdown cards (Countdown, integrated, epic, the
    modules): None (built-in) once the built-in catalogue has Countdown bomb cards, else the
    built-in catalogue plus the Countdown test deck."""
    if builtin_catalogue().of_set("countdown").bombs:
        return None
    return countdown_test_catalogue()


def make_countdown_config(**kw: Any) -> Any:
    """A ``GameConfig`` for a game with Countdown parts, using ``countdown_cards()``."""
    from fusegame.rules import GameConfig

    kw.setdefault("cards", countdown_cards())
    return GameConfig(**kw)
