"""A game review (``fusegame.review``, as its JSON data) in words, from the catalogues' ``review.*``
templates: the lines ``fuse review`` prints. The replay page says the same from the same templates
(``web/static/review.js``).

    >>> from fusegame.words.review import cost_words
    >>> cost_words("es", 2.5, "dice")
    'unos 2.5 dados de trabajo'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fusegame.words import LANGS, catalogue
from fusegame.words.templates import say


def _t(lang: str, key: str, **facts: Any) -> str:
    text = say(lang, key, facts)
    return text if text is not None else key


def seat_name(lang: str, seat: int | None, names: Sequence[str], bots: Sequence[int] = ()) -> str:
    """A seat by its player's name (``player 2`` where none is known), marked where a bot played."""
    if seat is None:
        return _t(lang, "review.nothing")
    name = names[seat] if 0 <= seat < len(names) and names[seat] else _t(lang, "review.seat", n=seat + 1)
    return _t(lang, "review.botMark", name=name) if seat in bots else name


def cost_words(lang: str, cost: float, unit: str) -> str:
    """``about 2.5 dice of work`` or ``12.0 s``."""
    if unit == "s":
        return _t(lang, "review.costSeconds", cost=f"{cost:.0f}")
    return _t(lang, "review.costDice", cost=f"{cost:.1f}", n=1 if round(cost, 1) == 1 else 2)


def places_words(lang: str, places: Sequence[Mapping[str, Any]], names: Sequence[str]) -> str:
    """Placements as ``Ana: red 4 on F12, Bo: blue 2 on F07`` (``nothing`` when none)."""
    if not places:
        return _t(lang, "review.nothing")
    return ", ".join(_t(lang, "review.place", who=seat_name(lang, p["seat"], names), die=p["die"],
                        card=p["card"]) for p in places)


def moment_words(lang: str, m: Mapping[str, Any], names: Sequence[str]) -> str:
    """One costly moment in a sentence, its cost after it."""
    roll = _t(lang, "review.roll", turn=m["turn"])
    kind = m["kind"]
    did, better = m.get("did") or {}, m.get("better") or {}
    who = seat_name(lang, m.get("seat"), names)
    if kind == "roll":
        text = _t(lang, "review.moment.roll", roll=roll, did=places_words(lang, did.get("places", []), names),
                  better=places_words(lang, better.get("places", []), names),
                  why=_t(lang, f"review.why.{m['why']}"))
    elif kind == "take":
        text = _t(lang, "review.moment.take", roll=roll, who=who, card=did.get("card"), dice=did.get("dice"),
                  better=better.get("card"), betterDice=better.get("dice"))
    elif kind == "give_up":
        # the die that was better to give up, in words as the one given up is
        alt = better.get("die")
        text = _t(lang, "review.moment.give_up", roll=roll, who=who, die=did.get("die"),
                  better=LANGS[lang].die_words(alt) if isinstance(alt, Mapping) else alt)
    else:
        usual = int(better.get("ms", 0)) / 1000
        return _t(lang, "review.moment.slow", roll=roll, s=f"{int(did.get('ms', 0)) / 1000:.0f}",
                  extra=f"{float(m['cost']):.0f}", usual=f"{usual:.0f}")
    return f"{text} ({cost_words(lang, float(m['cost']), m['unit'])})"


def _seconds(ms: int) -> str:
    s = round(ms / 1000)
    return f"{s // 60}:{s % 60:02d}"


def review_lines(lang: str, review: Mapping[str, Any], names: Sequence[str] = ()) -> list[str]:
    """The summary ``fuse review`` prints: the estimate's warning, the key moments, where the time
    went, the dice lost and each player's figures."""
    bots = [s["seat"] for s in review["seats"] if s.get("bot")]
    words = catalogue(lang)
    lines = [words["review.title"], "", words["review.estimate"], "",
             _t(lang, "review.summary", judged=review["judged"], rolls=review["rolls"],
                cost=f"{review['cost']:.1f}"), "", words["review.keyMoments"]]
    moments = review.get("moments") or []
    if not moments:
        lines.append("  " + words["review.noMoments"])
    for m in moments:
        lines.append(f"  - {moment_words(lang, m, names)}")
    lines += ["", words["review.timeTitle"]]
    for k, ms in sorted(review["time_ms"].items(), key=lambda kv: -kv[1]):
        lines.append(f"  {words.get(f'review.time.{k}', k)}: {_seconds(ms)}")
    lost = review.get("lost") or {}
    lines += ["", words["review.lostTitle"] + ": " + (", ".join(
        f"{n} {words.get(f'review.lost.{k}', words['review.lost.other'])}" for k, n in sorted(lost.items()))
        or words["review.lostNone"])]
    lines += ["", words["review.playersTitle"]]
    for s in review["seats"]:
        claim = words["review.claimNone"] if s["claim_ms"] is None else f"{s['claim_ms'] / 1000:.1f} s"
        lines.append("  " + _t(lang, "review.player", name=seat_name(lang, s["seat"], names, bots),
                               placed=s["placed"], given=sum(s["given_up"].values()),
                               completed=s["completed"], taken=s["taken"], claim=claim))
    return lines
