"""The table's pictures: the compact drawing of a card (the same slots as the printed one, without
its blank space, so that a hand and the row fit on one screen) and the legend of the symbols."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from xml.sax.saxutils import escape

import pytest
from starlette.testclient import TestClient

from fusegame.cards import BombCard, builtin_catalogue
from fusegame.server.app import create_app
from fusegame.web.legend import legend
from fusegame.web.svg import card_svg

NS = "{http://www.w3.org/2000/svg}"
CAT = builtin_catalogue()
SHAPED = CAT.bombs + CAT.sparks


def root(text: str) -> ET.Element:
    el = ET.fromstring(text)
    assert el.tag == f"{NS}svg"
    return el


def view(el: ET.Element) -> tuple[float, float]:
    _, _, w, h = (float(x) for x in (el.get("viewBox") or "").split())
    return w, h


def slot_kinds(el: ET.Element) -> list[tuple[str | None, str]]:
    """Each slot's number and what its tooltip says it asks for."""
    return [(g.get("data-slot"), "".join(g.find(f"{NS}title").itertext()))  # type: ignore[union-attr]
            for g in el.iter(f"{NS}g") if g.get("class") == "slot"]


@pytest.mark.parametrize("c", SHAPED, ids=lambda c: c.id)
def test_the_compact_card_has_the_printed_card_s_slots_and_points_in_less_room(c: BombCard) -> None:
    full, compact = root(card_svg(c)), root(card_svg(c, compact=True))
    assert slot_kinds(compact) == slot_kinds(full)
    (fw, fh), (cw, ch) = view(full), view(compact)
    assert ch < fh and cw <= fw + 1e-6
    # its slots are never smaller than the printed card's smallest legible slot (40 units)
    sizes = [float(g.get("data-size", "0")) for g in compact.iter(f"{NS}g") if g.get("class") == "slot"]
    assert min(sizes) >= 40
    words = ["".join(t.itertext()) for t in compact.iter(f"{NS}text")]
    assert c.id in words
    if c.kind == "bomb":
        assert str(c.points) in words
    # the diagram stays inside the card
    for g in compact.iter(f"{NS}g"):
        if g.get("class") == "slot":
            x, y, s = (float(g.get(k, "nan")) for k in ("data-x", "data-y", "data-size"))
            assert 0 <= x and x + s <= cw and 0 <= y and y + s <= ch


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_legend_draws_each_symbol_once_with_its_meaning(lang: str) -> None:
    items = legend(lang)  # type: ignore[arg-type]
    assert len({i.symbol for i in items}) == len(items)
    assert len({i.text for i in items}) == len(items)
    for item in items:
        pic = root(item.svg)
        assert any(g.get("class") == "slot" for g in pic.iter(f"{NS}g")), item.symbol
        assert item.text.endswith("."), item.text
    # every kind of slot and every symbol between slots that the catalogue uses is in the legend
    used = {m for c in SHAPED for m in re.findall(r'data-rel="([^"]+)"', card_svg(c))}
    drawn = {m for i in items for m in re.findall(r'data-rel="([^"]+)"', i.svg)}
    assert used <= drawn, used - drawn


def test_the_legend_is_in_both_languages() -> None:
    en, es = legend("en"), legend("es")
    assert [i.symbol for i in en] == [i.symbol for i in es]
    assert all(a.text != b.text for a, b in zip(en, es))


def test_the_server_serves_the_compact_cards_and_the_legend() -> None:
    with TestClient(create_app("sqlite://")) as client:
        full = client.get("/api/cards/F01.svg")
        compact = client.get("/api/cards/F01.svg", params={"compact": "true"})
        assert full.status_code == compact.status_code == 200
        assert 'class="card compact"' in compact.text and 'class="card compact"' not in full.text
        # fuse and role cards have one drawing only
        fuse = CAT.fuses[0].id
        assert client.get(f"/api/cards/{fuse}.svg", params={"compact": "true"}).text == \
            client.get(f"/api/cards/{fuse}.svg").text
        es = client.get("/api/legend", params={"lang": "es"}).json()
        assert es[0] == {"symbol": "?", "svg": legend("es")[0].svg, "text": "Cualquier dado."}
        assert client.get("/api/legend", params={"lang": "fr"}).status_code == 422


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_printable_catalogue_starts_with_the_legend(lang: str) -> None:
    from fusegame.web.svg import catalogue_page

    page = catalogue_page(CAT, "fuse", lang)  # type: ignore[arg-type]
    head, _, rest = page.partition('<section class="legend"')
    assert '<section class="set"' not in head, "the legend comes before the cards"
    legend_part = rest.split("</section>", 1)[0]
    for item in legend(lang):  # type: ignore[arg-type]
        assert escape(item.text) in legend_part


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_card_has_a_name_of_its_own_shown_whole_at_table_size(lang: str) -> None:
    from fusegame.cards.words import card_words
    # distinct across both boxes, since the integrated and epic games mix them
    names: dict[str, str] = {}
    for c in SHAPED:
        name = card_words(c, lang).name  # type: ignore[arg-type]
        assert name and name != c.id, (lang, c.id)
        assert name not in names, f"{c.id} and {names[name]} are both called {name!r} ({lang})"
        names[name] = c.id
        # the compact drawing shows it whole: on one line, or on two over a narrow stack
        drawn = root(card_svg(c, compact=True, lang=lang))  # type: ignore[arg-type]
        lines = ["".join(t.itertext()) for t in drawn.iter(f"{NS}text") if t.get("class") == "card-name"]
        assert " ".join(lines) == name, (c.id, lines)
        assert len(lines) <= 2 and not any(line.endswith("\u2026") for line in lines), (c.id, lines)


def test_a_spanish_name_the_catalogue_does_not_give_says_every_alternative() -> None:
    import dataclasses

    from fusegame.cards.words import card_words
    # F13 asks for the same colour *or* the same number: a name made from its model says both
    f13 = next(c for c in CAT.bombs if c.id == "F13")
    made = card_words(dataclasses.replace(f13, name_es=""), "es").name
    assert "mismo color" in made and "mismo número" in made, made
