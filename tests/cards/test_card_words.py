"""Cards in words: every card of both catalogues has a name and a plain description in English and
Spanish, made from its model, that says what it asks for without the notation's symbols."""

from __future__ import annotations

import re

import pytest

from fusegame.cards import builtin_catalogue
from fusegame.cards.model import BombCard, FuseCard, RoleCard
from fusegame.cards.notation import parse
from fusegame.cards.words import LANGS, card_words

CAT = builtin_catalogue()
CARDS: list[BombCard | FuseCard | RoleCard] = [*CAT.bombs, *CAT.sparks, *CAT.fuses, *CAT.roles]
#: what only the notation writes: relation symbols, group tests, the layout keywords
RAW = re.compile(r"!=c|=c\|n|=cn|same-colour\(|same-number\(|different-(colours|numbers)\(|\bstack:|"
                 r"pyramid:|wall:|ziggurat:|[<>]\s*#|#\s*[<>]|\?\s\?|%")


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c.id)
def test_every_card_has_a_name_and_a_text_in_both_languages(card: BombCard | FuseCard | RoleCard) -> None:
    en, es = (card_words(card, lang) for lang in LANGS)
    for w in (en, es):
        assert w.id == card.id and w.name.strip() and len(w.text) > 20
        assert w.text[0].isupper() and w.text.endswith(".")
        assert not RAW.search(w.text), w.text
        if isinstance(card, BombCard) and card.notation.strip() not in ("?", ""):
            assert card.notation not in w.text
    assert es.text != en.text and es.name != en.name


def test_spanish_titles_are_made_from_the_card_model() -> None:
    def title(notation: str) -> str:
        return card_words(BombCard("T1", "fuse", 2, parse(notation), notation, name="Test"), "es").name

    assert title("% !=c % !=c % !=c %") == "Fila de 4: colores distintos"
    assert title("stack: # < # < #") == "Pila de 3: en subida"
    assert title("R R B B") == "Fila de 4: rojo y azul"
    assert title("# # ; a - b = 2") == "Fila de 2: con resta"
    assert title("pyramid: % % / % ; different-colours(a,b,c)") == "Pirámide de 3: colores distintos"
    assert card_words(CAT.roles[0], "es").name != CAT.roles[0].name  # roles have Spanish names


def test_the_words_say_what_a_card_asks_for() -> None:
    def words(notation: str, lang: str = "en") -> str:
        return card_words(BombCard("T1", "fuse", 3, parse(notation), notation, name="Test"),
                          lang).text  # type: ignore[arg-type]

    assert words("stack: # < # < #") == ("Three dice in a stack, from the bottom up: each number higher "
                                         "than the one before. Worth 3 points.")
    assert words("% !=c % !=c %", "es") == ("Tres dados en fila: cada color distinto del anterior. "
                                            "Vale 3 puntos.")
    said = words("# > # > # ; a - c = 2")
    assert "(called a, b and c in that order)" in said and "a minus c equals 2" in said
    assert "a: yellow or a 1" in words("Y|1 ? !K") and "c: not black" in words("Y|1 ? !K")
    assert "a: amarillo o un 1" in words("Y|1 ? !K", "es")
    assert "each one green" in words("G G G")
    assert "a and b the same colour and the same number" in words("? =cn ? % !=c %")
    assert "a, b and c all different numbers" in words("# # # ; different-numbers(a,b,c)")


def test_fuse_and_role_cards_say_what_they_do() -> None:
    symbol = next(f for f in CAT.fuses if f.colours and not f.numbers and not f.text)
    assert "every player returns one die that is" in card_words(symbol).text
    assert "devuelve a la bolsa un dado" in card_words(symbol, "es").text
    spark = next(f for f in CAT.fuses if f.effect.value == "spark")
    assert "spark card" in card_words(spark).text and "chispa" in card_words(spark, "es").text
    for role in CAT.roles:
        assert "leader" in card_words(role).text and "líder" in card_words(role, "es").text


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown language"):
        card_words(CAT.bombs[0], "fr")  # type: ignore[arg-type]
