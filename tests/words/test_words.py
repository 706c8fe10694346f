"""The words made from the engine's facts: every event in English (the engine's log lines) and in
Spanish."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from fusegame import GameConfig, new_game
from fusegame.rules.actions import Action
from fusegame.rules.config import Difficulty
from fusegame.rules.events import EVENT_KINDS, Event
from fusegame.words import LANGS, cause_text, die_words, event_text, seat_name

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "playthrough_3p_standard.txt"

BLUE5 = {"id": 7, "die": "B5", "colours": "B", "face": 5, "as": None}
SPLIT3 = {"id": 20, "die": "K/Y3", "colours": "K/Y", "face": 3, "as": None}
AS_RED = {"id": 5, "die": "B4 as R", "colours": "B", "face": 4, "as": "R"}
FUSE_R = {"kind": "fuse", "card": "FZR", "shows": ["R"]}
PENALTY_G4 = {"kind": "penalty", "die": {"id": None, "die": "G4", "colours": "G", "face": 4, "as": None}}

#: One event of every kind (and of every variant its words depend on), with the engine's log line.
EXAMPLES: list[tuple[dict[str, Any], str]] = [
    ({"kind": "dice_rolled", "leader": 2, "dice": [BLUE5, SPLIT3]}, "P3 rolls B5 K/Y3"),
    ({"kind": "die_placed", "seat": 0, "die": BLUE5, "card": "F03", "slot": 3}, "P1 places B5 on F03 slot 4"),
    ({"kind": "card_completed", "seat": 1, "card": "F03"}, "P2 completes F03"),
    ({"kind": "bomb_defused", "seat": 0, "card": "F03", "points": 2}, "P1 defuses F03 (+2)"),
    ({"kind": "card_taken", "seat": 0, "card": "F22"}, "P1 takes F22"),
    ({"kind": "card_revealed", "card": "F41"}, "F41 is turned into the row"),
    ({"kind": "fuse_activated", "card": "FZR", "effect": "symbol", "shows": ["R"]},
     "fuse card FZR (R) goes off (+2)"),
    ({"kind": "fuse_activated", "card": "CF2", "effect": "spark", "shows": []},
     "fuse card CF2 goes off (+2): All players must draw a spark card."),
    ({"kind": "fuse_activated", "card": "CF3", "effect": "lose-roles", "shows": []},
     "fuse card CF3 goes off (+2): All players lose their role ability until they defuse a bomb card."),
    ({"kind": "fuse_activated", "card": "CF4", "effect": "roll-six", "shows": []},
     "fuse card CF4 goes off (+2): All players must roll a 6 before the game continues."),
    ({"kind": "die_returned", "seat": 1, "die": BLUE5, "card": "F03", "slot": 3, "cause": FUSE_R},
     "P2 returns B5 from F03 to the bag (fuse card R)"),
    ({"kind": "die_returned", "seat": 1, "die": BLUE5, "card": "F03", "slot": 3, "cause": PENALTY_G4},
     "P2 returns B5 from F03 to the bag (unused die G4)"),
    ({"kind": "die_returned", "seat": 1, "die": BLUE5, "card": "F03", "slot": 3,
      "cause": {"kind": "no_spark"}},
     "P2 returns B5 from F03 to the bag (no spark card left)"),
    ({"kind": "seat_done", "seat": 0}, "P1 is done"),
    ({"kind": "penalty_rolled", "die": BLUE5}, "unused die rolled: B5"),
    ({"kind": "turn_ended", "turn": 3, "leader": 1}, "turn 3 ends"),
    ({"kind": "game_won", "reason": "bombs-defused", "score": 40}, "the team wins: score 40"),
    ({"kind": "game_lost", "reason": "time-up", "score": 12}, "the team loses (time-up): score 12"),
    ({"kind": "game_lost", "reason": "bag-empty", "score": 9}, "the team loses (bag-empty): score 9"),
    ({"kind": "spark_drawn", "seat": 0, "card": "S03"}, "P1 draws spark S03"),
    ({"kind": "spark_defused", "seat": 0, "card": "S03"}, "P1 defuses spark S03 (+2)"),
    ({"kind": "sparks_turned_over", "cards": 5}, "the spark discard pile (5 cards) becomes the spark deck"),
    ({"kind": "no_spark_left", "seat": 1},
     "P2 must draw a spark but every spark is in play: gives up a die instead"),
    ({"kind": "card_turned_down", "seat": 0, "card": "C12"},
     "P1 turns C12 face down (it need not be defused)"),
    ({"kind": "clock_stopped", "time_ms": 125_400}, "the ship is saved: the clock stops after 2:05"),
    ({"kind": "role_used", "seat": 0, "role": "name", "value": "R"}, "P1 names R"),
    ({"kind": "role_used", "seat": 0, "role": "recolour", "die": AS_RED, "colour": "R"},
     "P1 recolours a die: B4 as R"),
    ({"kind": "role_used", "seat": 0, "role": "renumber", "die": BLUE5}, "P1 turns a die to B5"),
    ({"kind": "role_used", "seat": 0, "role": "flip", "die": BLUE5}, "P1 flips a die to B5"),
    ({"kind": "role_used", "seat": 0, "role": "rethrow", "dice": [BLUE5, SPLIT3]}, "P1 rerolls B5 K/Y3"),
    ({"kind": "role_restored", "seat": 2}, "P3's role card is face up again"),
    ({"kind": "dice_rerolled", "dice": [BLUE5, SPLIT3]}, "rerolled: B5 K/Y3"),
    ({"kind": "six_rolled", "seat": 0, "face": 6}, "P1 rolls a 6"),
    ({"kind": "not_six", "seat": 0, "face": 3}, "P1 rolls a 3, not a 6"),
    ({"kind": "die_returned_free", "seat": 0, "die": BLUE5}, "P1 returns B5 to the bag without penalty"),
]
IDS = [f"{e['kind']}-{i}" for i, (e, _) in enumerate(EXAMPLES)]

# what both languages print as is: ids, die labels, seat names and numbers
_PROPER = re.compile(r"\b[A-Z][A-Z0-9/]*\b|\bd\d+\b|\d+")
_WORD = re.compile(r"[^\W\d_]+")


def words_of(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(_PROPER.sub(" ", text))}


#: the English of every example line
ENGLISH = set().union(*(words_of(line) for _, line in EXAMPLES))
#: words both languages spell alike
SHARED = {"a", "no"}


def test_every_event_kind_has_an_example() -> None:
    assert {e["kind"] for e, _ in EXAMPLES} == set(EVENT_KINDS)
    for e, _ in EXAMPLES:
        assert set(EVENT_KINDS[e["kind"]]) <= set(e) - {"kind"}, e


@pytest.mark.parametrize(("event", "line"), EXAMPLES, ids=IDS)
def test_english_event_words_are_the_log_line(event: dict[str, Any], line: str) -> None:
    assert event_text(event) == line
    record = str(Event(event["kind"], {k: v for k, v in event.items() if k != "kind"}))
    assert record == RECORD.get(line, line)  # the record's line: the same but for role abilities


#: The record's lines (``str(Event)``, the golden playthroughs) name a role's dice by id, as the
#: action notation does; the log a person reads never does.
RECORD = {"P1 recolours a die: B4 as R": "P1 recolours d5: B4 as R",
          "P1 turns a die to B5": "P1 turns d7 to B5", "P1 flips a die to B5": "P1 flips d7 to B5",
          "P1 rerolls B5 K/Y3": "P1 rerolls d7 d20"}


@pytest.mark.parametrize(("event", "line"), EXAMPLES, ids=IDS)
def test_every_event_has_spanish_words(event: dict[str, Any], line: str) -> None:
    es = event_text(event, lang="es")
    assert es and es != line and not es.startswith(event["kind"])
    english = (words_of(es) & ENGLISH) - SHARED
    assert not english, f"English in {es!r}: {sorted(english)}"


@pytest.mark.parametrize(("event", "spanish"), [
    ({"kind": "die_placed", "seat": 0, "die": BLUE5, "card": "F03", "slot": 3},
     "J1 coloca el dado azul 5 en F03 (casilla 4)"),
    ({"kind": "die_returned", "seat": 1, "die": SPLIT3, "card": "F03", "slot": 0, "cause": FUSE_R},
     "J2 devuelve el dado negro/amarillo 3 de F03 a la bolsa (carta de mecha rojo)"),
    ({"kind": "die_returned", "seat": 1, "die": BLUE5, "card": "F03", "slot": 0, "cause": PENALTY_G4},
     "J2 devuelve el dado azul 5 de F03 a la bolsa (dado sin usar verde 4)"),
    ({"kind": "role_used", "seat": 0, "role": "recolour", "die": AS_RED, "colour": "R"},
     "J1 cambia el color de un dado: azul 4 como rojo"),
    ({"kind": "clock_stopped", "time_ms": 125_400}, "la nave está a salvo: el reloj se para tras 2:05"),
])
def test_spanish_event_lines(event: dict[str, Any], spanish: str) -> None:
    assert event_text(event, lang="es") == spanish


def test_players_names_replace_the_seat_numbers() -> None:
    e = {"kind": "card_taken", "seat": 1, "card": "F22"}
    assert event_text(e, names=["Ana", "Luis"]) == "Luis takes F22"
    assert event_text(e, lang="es", names=["Ana", "Luis"]) == "Luis coge F22"
    assert event_text(e, names=["Ana", ""]) == "P2 takes F22"  # an empty name: the seat number
    assert seat_name(2, "es") == "J3"


def test_dice_and_causes_in_words() -> None:
    assert [die_words(d) for d in (BLUE5, SPLIT3, AS_RED)] == ["Blue 5", "Black/yellow 3", "Blue 4 as red"]
    assert [die_words(d, "es") for d in (BLUE5, SPLIT3, AS_RED)] == ["azul 5", "negro/amarillo 3",
                                                                      "azul 4 como rojo"]
    assert cause_text(FUSE_R) == "fuse card R" and cause_text(None) == ""
    assert cause_text(PENALTY_G4, "es") == "dado sin usar verde 4"


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="no words for language 'fr'"):
        event_text({"kind": "seat_done", "seat": 0}, lang="fr")
    assert set(LANGS) == {"en", "es"}


def _golden_replay() -> tuple[list[str], list[str]]:
    """The recorded playthrough's event lines, and the same game's events in words now."""
    spec = importlib.util.spec_from_file_location("regen_golden", ROOT / "scripts" / "regen_golden.py")
    assert spec is not None and spec.loader is not None
    regen = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("regen_golden", regen)
    spec.loader.exec_module(regen)
    text = GOLDEN.read_text("utf-8").splitlines()
    config = GameConfig(players=3, difficulty=Difficulty.STANDARD, cards=regen.cards())
    g = new_game(config, regen.PLAYTHROUGH_SEED, chance=False)
    setup = ("  hand ", "  row:")
    recorded = [line[2:] for line in text if line.startswith("  ") and not line.startswith(setup)]
    made = [event_text(e.to_dict()) for e in g.sample_chance()]
    for line in text:
        if line.startswith("> "):
            made += [event_text(e.to_dict()) for e in g.apply(Action.parse(line[2:]))]
    return recorded, made


def test_english_event_words_are_the_recorded_log_lines() -> None:
    recorded, made = _golden_replay()
    assert len(recorded) > 50
    assert made == recorded
