"""The legend: every symbol the cards use, drawn as on the cards, with what it means in words.

The pictures come from the same drawing code as the cards (:func:`fusegame.web.svg.symbol_svg`), so
the legend cannot drift from what the table shows. The words are about symbols, never about one
card: each card's own words are made from its model (``fusegame.cards.words``). The symbols and
their words are listed in ``fusegame.web.symbols``, which the printable catalogue reads too.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from fusegame.cards.words import Lang
from fusegame.web.svg import symbol_svg
from fusegame.web.symbols import symbol_words


@dataclass(frozen=True)
class LegendItem:
    """One symbol: its picture (SVG markup) and what it means."""

    symbol: str  # the card notation it is drawn from (a stable key)
    svg: str
    text: str

    def to_dict(self) -> dict[str, str]:
        return {"symbol": self.symbol, "svg": self.svg, "text": self.text}


@cache
def legend(lang: Lang = "en") -> tuple[LegendItem, ...]:
    """Every symbol of the cards in ``lang``, each drawn once."""
    return tuple(LegendItem(symbol, symbol_svg(symbol, lang=lang), text)
                 for symbol, text in symbol_words(lang))
