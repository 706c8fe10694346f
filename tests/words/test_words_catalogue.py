"""The words catalogue is whole in both languages, and no sentence a person reads names a die by its
internal id.

Walks every refusal code (``rules.errors.REFUSALS``, and every code the rule modules raise), every
event kind, every decision kind and every card's text, in English and Spanish: a missing string, or
English on the Spanish side, fails. Then random games of every variant (``tests/game_variants.py``),
their log lines, hints and refusals in both languages, looking for ``d14``.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from fusegame.cards import builtin_catalogue
from fusegame.cards.words import card_words
from fusegame.rng import Rng
from fusegame.rules import GameConfig, IllegalAction, new_game
from fusegame.rules.actions import Done, GiveUp, Place, RerollUnused, TakeCard
from fusegame.rules.errors import REFUSALS, refusal_english
from fusegame.rules.events import EVENT_KINDS
from fusegame.terminal.texts import EN as SCREEN_EN
from fusegame.terminal.texts import ES as SCREEN_ES
from fusegame.words import en, es, event_text, hint_reason, hint_text, refusal_text
from game_variants import ALL, Variant

SRC = Path(__file__).resolve().parents[2] / "src" / "fusegame"
DIE_ID = re.compile(r"\bd\d+\b")
#: Words that give English away in a Spanish sentence.
ENGLISH = re.compile(r"\b(the|your|you|die|dice|card|cards|slot|is|not|no longer|must|only|cannot|"
                     r"already|waiting|turn|every|nobody|with|of|to|and|or)\b", re.I)
#: Spanish words that are English words too, or notation.
SPANISH_OK = {"no", "a", "y", "o"}


def english_in(text: str) -> list[str]:
    return [w for w in ENGLISH.findall(text) if w.lower() not in SPANISH_OK]


def placeholders(template: str) -> set[str]:
    return set(re.findall(r"\{(\w+)", template))


# ------------------------------------------------------------------ refusals
def raised_codes() -> set[str]:
    """The codes the engine and the server raise: ``Illegal...("code"`` and the reason functions'
    ``return "code", ...``."""
    codes: set[str] = set()
    raising = re.compile(r"\b(?:IllegalAction|NotYourDecision|IllegalPlacement|BadTime|GameOverError)\(\s*"
                         r"\"(\w+)\"(?:\s+if\s+[^\"]+\s+else\s+\"(\w+)\")?")
    for path in [*SRC.glob("rules/*.py"), SRC / "server" / "room.py", SRC / "constraints.py"]:
        text = path.read_text(encoding="utf-8")
        for m in raising.finditer(text):
            codes |= {c for c in m.groups() if c}
        if path.name in ("roles.py", "constraints.py", "moves.py"):
            codes |= set(re.findall(r"return \(?\"([a-z_0-9]+)\"(?:,|\)|$)", text, re.M))
    return codes


def test_every_code_raised_has_words_and_every_code_is_raised() -> None:
    raised = raised_codes()
    assert len(raised) > 40, sorted(raised)
    assert sorted(raised - set(REFUSALS)) == [], "raised without a code in rules.errors.REFUSALS"
    assert sorted(set(REFUSALS) - raised) == [], "a code nothing raises"


@pytest.mark.parametrize("code", sorted(REFUSALS))
def test_every_refusal_code_is_worded_in_both_languages(code: str) -> None:
    english, spanish = en.REFUSALS.get(code), es.REFUSALS.get(code)
    assert english == REFUSALS[code], "the English catalogue is the engine's own sentences"
    assert spanish, f"no Spanish words for {code}"
    assert spanish != english
    assert not english_in(re.sub(r"\{[^}]*\}", "", spanish)), spanish
    assert placeholders(spanish) == placeholders(english), "a fact said in one language only"


def test_the_english_words_are_what_the_error_says() -> None:
    facts = {"die": {"id": 4, "die": "B4", "colours": "B", "face": 4, "as": None}, "card": "F03", "slot": 1,
             "first": 0, "seat": 1, "seats": [0, 2], "n": 10_000, "at": 5, "now": 9, "index": 7,
             "action": "Place", "colours": "K/Y", "outcome": "(1, 2)", "role": "Cutter", "ability": "cutter",
             "named": "R", "options": "R B G"}
    for code in REFUSALS:
        e = IllegalAction(code, facts)
        assert (e.code, e.facts) == (code, facts)
        assert str(e) == refusal_english(code, facts) == refusal_text(code, facts)
        assert "{" not in str(e), str(e)
    slot_first = "B4 cannot go on F03 slot 2: slot 1 must be filled first"
    assert str(IllegalAction("slot_first", facts)) == slot_first
    assert str(IllegalAction("too_many_moves", facts)).startswith("this game has made its 10,000 moves")
    assert str(IllegalAction("give_up_first", facts)) == "first P1, P3 must choose a die to give up"
    assert refusal_text("give_up_first", facts, "es") == "primero J1, J3 debe elegir un dado para entregar"
    assert refusal_text("slot_first", facts, "es") == ("el dado azul 4 no puede ir en F03, casilla 2: antes "
                                                        "hay que llenar la casilla 1")
    assert refusal_text("unknown_code", {}, "es", fallback="the server's words") == "the server's words"


def test_the_page_has_the_catalogue_s_refusals_word_for_word() -> None:
    """The page reads the refusals from the catalogue the server serves (``/api/words/{lang}``,
    ``refuse.<code>``): the engine's English sentences and es.json's Spanish, one source each."""
    from fastapi.testclient import TestClient

    from fusegame.server.app import create_app
    from fusegame.words import catalogue

    with TestClient(create_app("sqlite://", rate_limits=None)) as client:
        for lang, table in (("en", en.REFUSALS), ("es", es.REFUSALS)):
            served = client.get(f"/api/words/{lang}").json()
            page = {k.removeprefix("refuse."): v for k, v in served.items()
                    if k.removeprefix("refuse.") in REFUSALS}
            assert sorted(page) == sorted(REFUSALS), lang
            assert page == table == {code: catalogue(lang)[f"refuse.{code}"] for code in REFUSALS}, lang


# ------------------------------------------------------------------ events, decisions, cards
def test_every_event_kind_has_words_in_both_languages() -> None:
    assert set(en.EVENTS) == set(EVENT_KINDS) == set(es.EVENTS)


def test_every_decision_kind_has_screen_words_in_both_languages() -> None:
    kinds = pytest.importorskip("fusegame.rules.decision_kinds").KINDS
    for kind in kinds.values():
        key = f"your.{getattr(kind, 'words', '') or kind.name}"
        assert key in SCREEN_EN and key in SCREEN_ES, key
        assert SCREEN_ES[key] != SCREEN_EN[key] and not english_in(SCREEN_ES[key]), key


def test_every_card_is_worded_in_both_languages() -> None:
    cat = builtin_catalogue()
    cards: list[Any] = [*cat.bombs, *cat.sparks, *cat.fuses, *cat.roles]
    assert len(cards) > 50
    for card in cards:
        english, spanish = card_words(card, "en"), card_words(card, "es")
        assert english.text and spanish.text, card.id
        assert spanish.text != english.text, card.id
        assert not english_in(spanish.text), (card.id, spanish.text)


# ------------------------------------------------------------------ random games: no die ids
def _wrong_actions(g: Any, rng: Rng, at: int) -> list[Any]:
    seat = rng.below(g.players)
    card = g.hands[seat][0].card if g.hands[seat] else "F01"
    die = g.free[0] if g.free else 0
    return [Place(seat, at, die, card, rng.below(9)), Place(seat, at, rng.below(40), card, 0), Done(seat, at),
            TakeCard(seat, at, "F01"), GiveUp(seat, at, die), RerollUnused(seat, at, die)]


@pytest.mark.parametrize("variant", ALL, ids=str)
def test_no_log_line_hint_or_refusal_names_a_die_by_its_id(variant: Variant) -> None:
    from fusegame.bots.hints import hint

    players = variant.fewest(3)
    g = new_game(GameConfig(players=players, game=variant.game, modules=variant.modules), 5)
    rng, clock, seen, refused = Rng(11), 0, set(), set()
    lines: list[str] = []
    for step in range(400):
        if g.is_over:
            break
        clock += 700
        at = max(clock, g.time_ms)
        if step % 25 == 0:
            for h in hint(g):
                for lang in ("en", "es"):
                    if h.advice:
                        lines += [hint_text(h.advice, lang, seat=h.seat),
                                  hint_reason(h.advice, lang, seat=h.seat)]
        trial = g.clone()
        for wrong in _wrong_actions(g, rng, at):
            try:
                trial.apply(wrong)
                trial = g.clone()  # it was allowed: try the next one on the position again
            except IllegalAction as e:
                refused.add(e.code)
                assert str(e) == refusal_text(e.code, e.facts, "en")
                spanish = refusal_text(e.code, e.facts, "es")
                assert not english_in(spanish), spanish
                lines += [str(e), spanish]
        acts = [a for a in g.legal_actions() if not isinstance(a, Done)] or g.legal_actions()
        for e in g.apply(replace(acts[rng.below(len(acts))], at=at)):
            seen.add(e.kind)
            lines += [event_text(e.to_dict()), event_text(e.to_dict(), lang="es")]
    assert seen and refused and lines
    named = [x for x in lines if DIE_ID.search(x)]
    assert not named, named[:5]
