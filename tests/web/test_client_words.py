"""The page's words: every string the client shows exists in English and in Spanish."""

from __future__ import annotations

import re
from importlib import resources

KEY = re.compile(r"^\s*'([\w.-]+)':", re.M)


def _dictionaries() -> dict[str, list[str]]:
    text = (resources.files("fusegame.web") / "static" / "i18n.js").read_text(encoding="utf-8")
    out = {}
    for lang in ("en", "es"):
        body = re.search(rf"^const {lang} = \{{(.*?)^\}};", text, re.S | re.M)
        assert body, f"no {lang} dictionary in i18n.js"
        out[lang] = KEY.findall(body.group(1))
    return out


def test_english_and_spanish_have_the_same_keys_once_each() -> None:
    d = _dictionaries()
    assert len(d["en"]) > 200
    for lang, keys in d.items():
        assert len(keys) == len(set(keys)), f"{lang}: a key is defined twice"
    assert set(d["en"]) == set(d["es"])


def test_every_key_the_scripts_ask_for_is_in_the_dictionaries() -> None:
    known = set(_dictionaries()["en"])
    static = resources.files("fusegame.web") / "static"
    asked: set[str] = set()
    for f in static.iterdir():
        if f.name.endswith(".js"):
            asked |= set(re.findall(r"\bt\('([\w.-]+)'", f.read_text(encoding="utf-8")))
    assert asked, "no t('...') calls found"
    assert sorted(asked - known) == []


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
