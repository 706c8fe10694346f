"""The page's words: every string the client shows exists in English and in Spanish.

The words are one catalogue per language (``fusegame/words/en.json``, ``es.json``: the page's keys,
the terminal's under ``term.``, the refusals under ``refuse.<code>``), which ``i18n.js`` fetches
from ``GET /api/words/{lang}``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from importlib import resources

import pytest
from fastapi.testclient import TestClient

from fusegame.rules.errors import REFUSALS
from fusegame.server.app import create_app
from fusegame.words import LANGUAGES, catalogue


def _keys_once(pairs: list[tuple[str, str]]) -> dict[str, str]:
    keys = [k for k, _ in pairs]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    assert not twice, f"a key is defined twice: {twice}"
    return dict(pairs)


def _files() -> dict[str, dict[str, str]]:
    """The catalogues as written (``en.json`` without the engine's English refusals)."""
    words = resources.files("fusegame.words")
    return {lang: json.loads((words / f"{lang}.json").read_text(encoding="utf-8"),
                             object_pairs_hook=_keys_once) for lang in LANGUAGES}


def test_english_and_spanish_have_the_same_keys_once_each() -> None:
    files = _files()
    assert len(files["en"]) > 200
    for lang, table in files.items():
        assert all(isinstance(v, str) and v for v in table.values()), lang
    en, es = catalogue("en"), catalogue("es")
    assert sorted(set(en) - set(es)) == [] and sorted(set(es) - set(en)) == []
    # the English refusals are the engine's own (rules.errors), not copied into en.json
    assert not [k for k in files["en"] if k.removeprefix("refuse.") in REFUSALS]
    assert sorted(set(es) - set(files["es"])) == []


def test_every_key_the_scripts_ask_for_is_in_the_dictionaries() -> None:
    known = set(catalogue("en"))
    static = resources.files("fusegame.web") / "static"
    asked: set[str] = set()
    for f in static.iterdir():
        if f.name.endswith(".js"):
            asked |= set(re.findall(r"\bt\('([\w.-]+)'", f.read_text(encoding="utf-8")))
    assert asked, "no t('...') calls found"
    assert sorted(asked - known) == []


def test_the_page_s_script_has_no_words_of_its_own() -> None:
    """i18n.js fetches the catalogues; it holds no dictionary literal to drift from them."""
    text = (resources.files("fusegame.web") / "static" / "i18n.js").read_text(encoding="utf-8")
    assert "/api/words/" in text and "await Promise.all" in text
    assert not re.search(r"^const (en|es) = \{", text, re.M)
    assert "home.title" not in text


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app("sqlite://", rate_limits=None)) as c:
        yield c


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_server_serves_each_catalogue_whole(client: TestClient, lang: str) -> None:
    got = client.get(f"/api/words/{lang}")
    assert got.status_code == 200 and got.headers["content-type"].startswith("application/json")
    assert got.json() == dict(catalogue(lang))
    # it changes only with a new version: cached, and answered 304 while the browser's copy is current
    assert "max-age" in got.headers["cache-control"]
    again = client.get(f"/api/words/{lang}", headers={"if-none-match": got.headers["etag"]})
    assert again.status_code == 304 and again.content == b""


def test_a_language_without_words_is_refused_with_the_languages(client: TestClient) -> None:
    for lang in ("fr", "EN", "x" * 300, "en.json"):
        got = client.get(f"/api/words/{lang}")
        assert got.status_code == 404, lang
        detail = got.json()["detail"]
        assert "choose from en, es" in detail and len(detail) < 120, detail
    with pytest.raises(ValueError, match=r"no words for language 'fr' \(choose from en, es\)"):
        catalogue("fr")


def _scripts() -> dict[str, str]:
    static = resources.files("fusegame.web") / "static"
    return {f.name: f.read_text(encoding="utf-8") for f in static.iterdir() if f.name.endswith(".js")}


#: A regular expression literal where one may stand in a script (after an operator or a bracket).
REGEX_LITERAL = re.compile(r"(?:(?<=[(,=:\[!&|?;])|(?<=\breturn)|^)\s*/(?![/*])"
                           r"((?:\\.|\[(?:\\.|[^\]\\])*\]|[^/\\\n\[])+)/[dgimsuy]*", re.M)


def _engine_texts() -> list[str]:
    """What the engine writes in English: the log lines and actions of a game, each word of them,
    and the causes of dice given up."""
    from fusegame import GameConfig, new_game
    from fusegame.bots.hints import hint
    from fusegame.words import cause_text

    state = new_game(GameConfig(players=2), 7)
    die = {"id": 3, "die": "G4", "colours": "G", "face": 4, "as": None}
    texts = [cause_text({"kind": "fuse", "card": "F03", "shows": ["R"]}), cause_text({"kind": "no_spark"}),
             cause_text({"kind": "penalty", "die": die})]
    for _ in range(40):
        if state.outcome is not None:
            break
        action = next(h.action for h in hint(state) if h.action is not None)
        texts += [str(action), str(action).split(" ", 1)[1]]
        texts += [str(e) for e in state.apply(action)]
    return texts + [w for x in texts for w in x.split()]


def test_the_client_reads_no_engine_text_and_keeps_no_action_parser() -> None:
    scripts = _scripts()
    # the page words the server's facts; it never reads the engine's sentences or action text back
    gone = ("eventFromText", "readAction", "parseAction", "bareAction", "labelWords", "reasonWords", "LINES",
            "serverMessage")
    for name, text in scripts.items():
        assert not [g for g in gone if re.search(rf"\b{g}\b", text)], name
        assert "new RegExp" not in text, name
        assert not re.search(r"/\^?fuse card|p\\d\+[ \\]", text), name
        # nor does it write action text: it sends back the moves' own strings
        verbs = "place|give|take|rethrow|reroll|return|defuse|recolour|renumber|flip|name"
        assert not re.search(rf"`(?:{verbs}) ", text), name
    literals = [(name, m.group(1)) for name, text in scripts.items() for m in REGEX_LITERAL.finditer(text)]
    assert len(literals) > 5, "the scan finds the scripts' regular expressions"
    engine = _engine_texts()
    for name, source in literals:
        # an expression with no letters of its own (/\s+/, /^[1-9]$/) reads no words
        bare = re.sub(r"\\.|\[(?:\\.|[^\]\\])*\]|\{\d+(?:,\d*)?\}", "", source)
        if not re.search(r"[A-Za-z]", bare):
            continue
        try:
            pattern = re.compile(source)
        except re.error:
            continue
        read = [x for x in engine if pattern.search(x)]
        assert not read, f"{name}: /{source}/ reads the engine's text {read[:3]}"
