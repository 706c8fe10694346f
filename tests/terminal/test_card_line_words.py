"""A card's line on the terminal says its clauses in the screen's language: a Spanish screen shows
``colores-distintos(a,b,c) o ...``, never the notation's English names."""

from __future__ import annotations

import re

from fusegame.cards import builtin_catalogue
from fusegame.cards.model import Group, GroupTest
from fusegame.terminal.render import card_slots

ENGLISH = re.compile(r"\b(same-colour|same-number|different-colours|different-numbers|or)\b")


def _grouped() -> list[tuple[str, str]]:
    cat = builtin_catalogue()
    return [(c.id, c.notation) for c in [*cat.bombs, *cat.sparks]
            if any(isinstance(a, GroupTest) for cl in c.shape.clauses for a in cl.alts)]


def test_every_card_with_a_group_test_is_said_in_spanish_on_a_spanish_screen() -> None:
    cards = _grouped()
    assert len(cards) >= 5, "the catalogues have cards with whole-group tests"
    for cid, notation in cards:
        es = card_slots({"id": cid, "notation": notation}, lang="es")
        en = card_slots({"id": cid, "notation": notation}, lang="en")
        assert not ENGLISH.findall(es), (cid, es)
        assert ENGLISH.findall(en), (cid, en)


def test_a_clause_with_alternatives_is_said_with_the_spanish_or() -> None:
    line = card_slots({"id": "X", "notation": "? ? ? ; same-colour(a,b,c) or same-number(a,b,c)"}, lang="es")
    assert "mismo-color(a,b,c) o mismo-número(a,b,c)" in line
    names = {"same-colour", "same-number", "different-colours", "different-numbers"}
    assert {g.value for g in Group} == names, "a new group test needs its Spanish name"
