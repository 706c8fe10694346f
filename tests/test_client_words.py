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
