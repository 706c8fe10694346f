"""The cards in words over HTTP: ``GET /api/cards/{id}.json?lang=en|es`` and the ``/cards`` page,
which shows each card's words, not its notation."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from fusegame.cards import builtin_catalogue
from fusegame.server.app import create_app

CAT = builtin_catalogue()


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app("sqlite://", rate_limits=None)) as c:
        yield c


def test_a_card_in_words_in_either_language(client: TestClient) -> None:
    en = client.get("/api/cards/F19.json").json()
    es = client.get("/api/cards/F19.json?lang=es").json()
    assert en["id"] == es["id"] == "F19" and en["name"] == "Small steps"
    assert en["text"].startswith("Three dice in a stack") and es["text"].startswith("Tres dados en una pila")
    assert en["points"] == 2 and en["kind"] == "bomb"
    role = client.get("/api/cards/CR1.json?lang=es").json()
    assert role["kind"] == "role" and "líder" in role["text"]
    assert client.get("/api/cards/NOPE.json").status_code == 404
    assert client.get("/api/cards/F19.json?lang=fr").status_code == 422


def test_the_cards_page_shows_words_not_notation(client: TestClient) -> None:
    for lang, words in (("en", "dice in a row"), ("es", "dados en fila")):
        page = client.get(f"/cards?lang={lang}").text
        assert f'<html lang="{lang}">' in page
        shown = " ".join(re.findall(r'<span class="words">([^<]*)</span>', page))
        assert words in shown
        captions = " ".join(re.findall(r"<figcaption>(.*?)</figcaption>", page))
        for card in [*CAT.bombs, *CAT.sparks]:
            if len(card.notation) > 3:
                assert card.notation not in captions, card.id
        every = len(CAT.bombs) + len(CAT.sparks) + len(CAT.fuses) + len(CAT.roles)
        assert page.count('class="words"') == every
    assert 'href="?lang=es"' in client.get("/cards").text  # the page in the other language, one click away
