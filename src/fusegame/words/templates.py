"""The catalogue's templates filled in Python: the words of an action, event or hint that has no
sentence of its own in ``en.py`` or ``es.py`` (a role ability or a decision added later), so that
its words are data in the two catalogues (``en.json``, ``es.json``) and nowhere else.

    >>> say("es", "words.flip", {"die": {"colours": "B", "face": 4}})
    'Da la vuelta al dado azul 4'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_PLACE = re.compile(r"\{(\w+)(?::[^}]*)?\}")


def _words(lang: str, key: str, v: Any) -> Any:
    from fusegame.words import LANGS

    if key == "die" and isinstance(v, Mapping):
        return LANGS[lang].die_words(v)
    if key == "dice" and isinstance(v, list):
        return ", ".join(LANGS[lang].die_words(d) for d in v if isinstance(d, Mapping))
    return v


def say(lang: str, key: str, facts: Mapping[str, Any]) -> str | None:
    """Template ``key`` of the catalogue of ``lang`` with ``facts`` in words (a die or a list of
    dice as views: ``{"colours": "B", "face": 4}``), its ``_one`` form when ``n`` is 1; None when
    the catalogue has no such template."""
    from fusegame.words import catalogue

    words = catalogue(lang)
    dice = facts.get("dice")
    n = facts.get("n", len(dice) if isinstance(dice, list) else None)
    template = (words.get(f"{key}_one") if n == 1 else None) or words.get(key)
    if template is None:
        return None
    values = {k: _words(lang, k, v) for k, v in facts.items()}
    values.setdefault("n", n)
    return _PLACE.sub(lambda m: str(values[m.group(1)]) if values.get(m.group(1)) is not None
                      else m.group(0), template)


def role_event_key(role: str) -> str:
    """The catalogue's key of a role ability's log line: ``ev.roleFlip``, ``ev.roleRethrow``..."""
    return f"ev.role{role[:1].upper()}{role[1:]}"


def act_text(lang: str, advice: Mapping[str, Any]) -> str:
    """A hint that is only an action (``{"kind": "act", "action": {...}, "die": ...}``, the answer to
    a decision the bots have no advice of their own for), in the words of ``words.<verb>``."""
    action = dict(advice.get("action") or {})
    verb = str(action.pop("verb", ""))
    facts = {k: v for k, v in action.items() if k not in ("seat", "at", "die", "dice")}
    facts.update({k: advice[k] for k in ("die", "dice") if k in advice})
    return say(lang, f"words.{verb}", facts) or say(lang, "words.other", {"verb": verb}) or verb


__all__ = ["act_text", "role_event_key", "say"]
