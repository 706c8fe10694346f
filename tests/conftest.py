"""What the tests share: which card catalogue the engine tests play with, positions set up by hand,
actions in their text form, the pending decisions of a position, and which tests are the engine's.

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
from fusegame.dice import die_type, parse_colours
from fusegame.rng import Rng
from fusegame.rules import Action, Event, GameState, IllegalPlacement, Phase, Place
from fusegame.rules.state import HandCard

#: The tests that can tell the compiled engine from the plain one: only the engine's modules differ
#: between the two builds (setup.py's COMPILED), so these run on both (``pytest -m engine``, the
#: quick loop too); the browser, the terminal and the real server processes run on the plain build.
ENGINE_FOLDERS = ("rules/", "cards/", "scenario/", "bots/", "sim/", "env/", "words/")
ENGINE_FILES = frozenset({
    "test_constraints.py", "test_dice.py", "test_record.py", "test_observe.py", "test_pace.py",
    "test_cli.py", "server/test_server.py", "server/test_durable_rooms.py",
})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        try:
            where = item.path.resolve().relative_to(TESTS).as_posix()
        except ValueError:
            continue
        if where.startswith(ENGINE_FOLDERS) or where in ENGINE_FILES:
            item.add_marker(pytest.mark.engine)


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


# ------------------------------------------------------------------------ positions and actions
def turn_start(config: Any, hands: list[list[str]], row: list[str], deck: list[str], *, seed: int,
               spark_deck: list[str] | None = None, roles: list[str] | None = None,
               leader: int = 0) -> GameState:
    """A game at the start of a turn (before the draw), set up by hand: these hands, row and deck
    (top last), spark deck (top last), role card ids per seat ('' for none, all face up)."""
    g = GameState(config)
    g.rng = Rng(seed)
    g.hands = [[HandCard(c, g.bomb(c).shape.size) for c in hand] for hand in hands]
    g.row = list(row)
    g.deck = list(deck)
    if spark_deck is not None:
        assert g.sparks is not None, "a spark deck for a game without spark cards"
        g.sparks.deck = list(spark_deck)
    if roles is not None:
        assert g.roles is not None, "role cards for a game without roles"
        g.roles.cards = list(roles)
        g.roles.up = [True] * len(hands)
    g.leader = leader
    g.phase = Phase.ROLL
    g.refresh_types()
    return g


def t(label: str) -> int:
    """The die type of ``R3`` / ``R/K5``."""
    return die_type(parse_colours(label[:-1]), int(label[-1]))


def roll(g: GameState, *labels: str) -> list[Event]:
    """The pending draw and roll comes up with these dice."""
    return g.apply_chance(tuple(t(x) for x in labels))


def act(g: GameState, text: str) -> list[Event]:
    """Apply an action given in its text form (stopping at chance nodes)."""
    return g.apply(Action.parse(text), chance=False)


def put(g: GameState, seat: int, card: str, slot: int, label: str) -> int:
    """Put a die from the bag on a card in front of ``seat`` (setting up a position by hand)."""
    cs = parse_colours(label[:-1])
    d = next(d for d in g.bag if g.dice.colours[d] == cs)
    g.bag.remove(d)
    g.faces[d] = int(label[-1])
    hc = g.hand_card(seat, card)
    assert hc is not None
    hc.dice[slot] = d
    g.refresh_types()
    return d


def die(g: GameState, label: str) -> int:
    """The id of the first die with this label in the middle (this turn's unplaced dice)."""
    for d in g.unplaced():
        if g.die_label(d) == label:
            return d
    raise AssertionError(f"no {label} in the middle: {[g.die_label(d) for d in g.unplaced()]}")


def on_card(g: GameState, seat: int, card: str, slot: int) -> int:
    """The die on ``slot`` of ``card`` in front of ``seat``."""
    hc = g.hand_card(seat, card)
    assert hc is not None
    return hc.dice[slot]


def slots(g: GameState, label: str, card: str, seat: int = 0) -> set[int]:
    """The slots of ``card`` on which the legal actions let ``label`` go."""
    d = die(g, label)
    return {a.slot for a in g.legal_actions(seat) if isinstance(a, Place) and a.die == d and a.card == card}


def place(g: GameState, label: str, card: str, slot: int, seat: int = 0) -> list[Event]:
    """Place the rolled die showing ``label`` (validated), stopping at chance nodes."""
    return g.apply(Place(seat, g.time_ms, die(g, label), card, slot), chance=False)


def refused(g: GameState, label: str, card: str, slot: int, seat: int = 0) -> bool:
    """True when apply() rejects the placement with IllegalPlacement and leaves the state alone."""
    before = g.to_dict()
    with pytest.raises(IllegalPlacement):
        g.apply(Place(seat, g.time_ms, die(g, label), card, slot))
    assert g.to_dict() == before
    return True


def kinds(events: list[Event]) -> list[str]:
    """The kinds of these events, in order."""
    return [e.kind for e in events]


def of_kind(events: list[Event], kind: str) -> list[Event]:
    """The events of one kind."""
    return [e for e in events if e.kind == kind]


# ====================================================================== pending decisions
def pending(g: GameState, kind: str) -> Any:
    """The queue's item of ``kind`` (``removals``, ``roll_six``, ``rethrow``, ``spark_draws``,
    ``refill``), or None."""
    return g.pending(kind)


def removals(g: GameState) -> dict[int, tuple[int, ...]]:
    """Who must give up a die now, and the dice each may choose from."""
    return {s: tuple(d.options) for s, d in g.to_act().items() if d.kind == "give_up"}


def six_seats(g: GameState) -> list[int]:
    """The seats still to roll a 6."""
    item = g.pending("roll_six")
    return list(item.seats) if item is not None else []


def six_rolling(g: GameState) -> int:
    """The seat whose roll for a 6 is in the air (-1: none)."""
    item = g.pending("roll_six")
    return item.rolling if item is not None else -1


def spark_queue(g: GameState) -> list[int]:
    """The seats still to draw a spark, in order."""
    item = g.pending("spark_draws")
    return list(item.seats) if item is not None else []


def refills(g: GameState) -> int:
    """Row cards still to turn over from the deck."""
    item = g.pending("refill")
    return item.count if item is not None else 0


def rethrow(g: GameState) -> list[int]:
    """The Explosives Instructor's dice in the air."""
    item = g.pending("rethrow")
    return list(item.dice) if item is not None else []

