"""The words of the terminal table, in English and Spanish.

Events, hints, dice and cards have their words in ``fusegame.words`` and ``fusegame.cards.words``;
this holds only what the screen itself says (titles, keys, notices): the keys under ``term.`` of the
catalogue of each language (``fusegame.words.catalogue``, ``words/en.json`` and ``words/es.json``),
without the prefix.
"""

from __future__ import annotations

import locale
import os
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from fusegame.words import catalogue

PREFIX = "term."


def _screen(lang: str) -> Mapping[str, str]:
    """The screen's words in ``lang``: its catalogue's ``term.`` keys, without the prefix."""
    return MappingProxyType({k.removeprefix(PREFIX): v for k, v in catalogue(lang).items()
                             if k.startswith(PREFIX)})


EN: Mapping[str, str] = _screen("en")
ES: Mapping[str, str] = _screen("es")
TEXTS: dict[str, Mapping[str, str]] = {"en": EN, "es": ES}


def default_lang() -> str:
    """The language of the environment (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``) when
    it is Spanish or English, else English."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            code = value.split(":")[0][:2].lower()
            return code if code in TEXTS else "en"
    code = (locale.getlocale()[0] or "en")[:2].lower()
    return code if code in TEXTS else "en"


def refusal_line(frame: Mapping[str, Any], w: Words, names: Sequence[str] | None = None) -> str:
    """An error frame (docs/protocol.md) in the screen's language: a refusal of the rules from its
    reason code and facts (``fusegame.words.refusal_text``), the server's own refusals from theirs;
    the server's English line for anything else."""
    from fusegame.words import refusal_text

    message = str(frame.get("message") or frame.get("code") or "error")
    reason, params = frame.get("reason"), frame.get("params") or {}
    if frame.get("code") == "illegal" and reason:
        return w("refused", why=refusal_text(str(reason), params, w.lang, names, fallback=message))
    key = f"err.{reason or frame.get('code')}"
    if key in TEXTS[w.lang]:
        return w(key, n=params.get("retry_after", "")) if key == "err.rate_limited" else w(key)
    return message


def exit_line(outcome: Mapping[str, Any], log_id: int | None, lang: str) -> str:
    """The line ``fuse play`` leaves on the screen when a game ends: ``won (every bomb defused),
    score 23, in the BDT Log as game 7``."""
    w = Words(lang)
    reason = str(outcome.get("reason") or "")
    return w("exit", result=w("exit.won" if outcome.get("won") else "exit.lost"),
             reason=w(f"reason.{reason}") if f"reason.{reason}" in TEXTS[lang] else reason,
             score=(outcome.get("score") or {}).get("total", 0),
             kept=w("exit.kept", id=log_id) if log_id is not None else "")


class Words:
    """The screen's words in one language: ``words("auto", s=3)``."""

    def __init__(self, lang: str) -> None:
        if lang not in TEXTS:
            raise ValueError(f"no words for language {lang!r} (choose from {', '.join(TEXTS)})")
        self.lang = lang
        self._table = TEXTS[lang]

    def __call__(self, key: str, **params: Any) -> str:
        text = self._table.get(key, EN.get(key, key))
        return text.format(**params) if params else text
