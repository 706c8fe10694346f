"""Words for the facts the engine reports: events, the causes of dice given up, and hints, in
English and Spanish.

The engine reports facts (``rules.events``, ``bots.hints``); this is the edge that turns them into
sentences. ``event_text(event)`` is the engine's terse English log line (``P1 places B5 on F03
slot 4``), the form the golden playthroughs and the command line print; ``lang="es"`` gives the
same line in Spanish. Seat names can be supplied (``names=["Ana", "Luis"]``); by default seats are
``P1``, ``P2``... (``J1``, ``J2``... in Spanish).

    >>> event_text({"kind": "seat_done", "seat": 0})
    'P1 is done'
    >>> event_text({"kind": "seat_done", "seat": 0}, lang="es")
    'J1 ha terminado'

A hint's advice (``Hint.advice``, the facts of ``bots.hints``) becomes the action in words
(``hint_text``) and the reason (``hint_reason``); ``seat`` is the seat the hint is for, whose cards
are "your" cards. English hints name seats as action text does (``p0``, ``p1``...).

    >>> hint_text({"kind": "roll_six"}, lang="es")
    'Tira tu dado'

Everything else people read (the page's words, the terminal's under ``term.``, the Spanish refusals
under ``refuse.<code>``) is data: one catalogue per language, ``en.json`` and ``es.json`` beside this
module, read by ``catalogue(lang)`` and served to the page at ``/api/words/{lang}``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

#: The languages with words, in the order a message lists them.
LANGUAGES = ("en", "es")


def _no_words(lang: str) -> ValueError:
    return ValueError(f"no words for language {lang!r} (choose from {', '.join(LANGUAGES)})")


@cache
def catalogue(lang: str) -> Mapping[str, str]:
    """Every template of language ``lang``, key -> template (read-only, read once): the page's words
    (``web/static/i18n.js`` fetches them from ``/api/words/{lang}``), the terminal's under ``term.``
    and the refusals of the rules under ``refuse.<code>``. The files are ``en.json`` and ``es.json``
    beside this module; the English refusals are the engine's own sentences
    (``rules.errors.REFUSALS``), added here rather than copied into ``en.json``.

        >>> catalogue("es")["term.roll"], catalogue("en")["refuse.quota"]
        ('Tirada', 'you may take at most {n} dice a turn')
        >>> catalogue("fr")
        Traceback (most recent call last):
        ...
        ValueError: no words for language 'fr' (choose from en, es)
    """
    if lang not in LANGUAGES:
        raise _no_words(lang)
    # beside this module, as the package installs it: ``importlib.resources`` would load its
    # readers (zipfile, threading) for an editable install, which the engine does not import
    text = (Path(__file__).parent / f"{lang}.json").read_text(encoding="utf-8")
    table: dict[str, str] = json.loads(text)
    if lang == "en":
        from fusegame.rules.errors import REFUSALS

        table.update({f"refuse.{code}": words for code, words in REFUSALS.items()})
    return MappingProxyType(table)


# en and es read the catalogue (es.REFUSALS): they come after it
from fusegame.words import en, es  # noqa: E402

LANGS: dict[str, Any] = {"en": en, "es": es}


def _lang(lang: str) -> Any:
    try:
        return LANGS[lang]
    except KeyError:
        raise _no_words(lang) from None


def seat_name(seat: int, lang: str = "en", names: Sequence[str] | None = None) -> str:
    if names is not None and 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return f"{_lang(lang).SEAT}{seat + 1}"


def die_words(die: Mapping[str, Any], lang: str = "en") -> str:
    """A die view or fact in words: ``Blue 5``, ``Black/yellow 3``, ``Blue 4 as red``."""
    return str(_lang(lang).die_words(die))


def cause_text(cause: Mapping[str, Any] | None, lang: str = "en") -> str:
    """Why a die must go back to the bag: ``fuse card R``, ``unused die G4``, ``no spark card left``."""
    if not cause:
        return ""
    return str(_lang(lang).cause(cause))


def event_text(event: Mapping[str, Any], lang: str = "en", names: Sequence[str] | None = None,
               record: bool = False) -> str:
    """One event (``Event.to_dict()``) as a log line. Dice are said by colour and number, never by
    their ids; ``record=True`` gives the record's English line instead (``str(Event)``, the golden
    playthroughs), whose role lines name dice by id as the action notation does."""
    words = _lang(lang)
    seat: Callable[[int], str] = lambda s: seat_name(s, lang, names)
    table: Mapping[str, Callable[..., str]] = en.RECORD_EVENTS if record else words.EVENTS
    make = table.get(str(event.get("kind")))
    if make is None:
        return f"{event.get('kind')} {dict(event)}"
    return str(make(event, seat))


def refusal_text(code: str, facts: Mapping[str, Any] | None = None, lang: str = "en",
                 names: Sequence[str] | None = None, fallback: str | None = None) -> str:
    """Why an action is refused, from its reason code and facts (``IllegalAction.code``,
    ``.facts``; ``rules.errors.REFUSALS`` lists the codes): ``fallback`` (else the code) for a code
    without words.

        >>> refusal_text("quota", {"n": 2}, lang="es")
        'puedes coger como mucho 2 dados por turno'
    """
    seat: Callable[[int], str] = lambda s: seat_name(s, lang, names)
    text = _lang(lang).refusal(code, facts or {}, seat)
    return str(text) if text is not None else (fallback if fallback is not None else code)


def _advice_words(table: str, advice: Mapping[str, Any], lang: str, names: Sequence[str] | None,
                  seat: int | None) -> str:
    words = _lang(lang)

    def who(s: int) -> str:
        if names is not None and 0 <= s < len(names) and names[s]:
            return names[s]
        return str(words.hint_seat(s))

    make = getattr(words, table).get(advice.get("kind"))
    if make is None:
        raise ValueError(f"no words for advice of kind {advice.get('kind')!r}")
    return str(make(advice, who, seat))


def hint_text(advice: Mapping[str, Any], lang: str = "en", names: Sequence[str] | None = None,
              seat: int | None = None) -> str:
    """What to do, from a hint's advice: ``Put the Blue 5 on F12 slot 3``."""
    return _advice_words("HINT_TEXTS", advice, lang, names, seat)


def hint_reason(advice: Mapping[str, Any], lang: str = "en", names: Sequence[str] | None = None,
                seat: int | None = None) -> str:
    """Why, in one line, from a hint's advice: ``Blue 5 on F12 (Little tent, pyramid): completes it,
    +1 point``."""
    return _advice_words("HINT_REASONS", advice, lang, names, seat)


__all__ = ["LANGS", "LANGUAGES", "catalogue", "cause_text", "die_words", "event_text", "hint_reason",
           "hint_text", "refusal_text", "seat_name"]
