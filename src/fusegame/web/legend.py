"""The legend: every symbol the cards use, drawn as on the cards, with what it means in words.

The pictures come from the same drawing code as the cards (:func:`fusegame.web.svg.symbol_svg`), so
the legend cannot drift from what the table shows. The words are about symbols, never about one
card: each card's own words are made from its model (``fusegame.cards.words``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from fusegame.cards.words import Lang
from fusegame.web.svg import symbol_svg


@dataclass(frozen=True)
class LegendItem:
    """One symbol: its picture (SVG markup) and what it means."""

    symbol: str  # the card notation it is drawn from (a stable key)
    svg: str
    text: str

    def to_dict(self) -> dict[str, str]:
        return {"symbol": self.symbol, "svg": self.svg, "text": self.text}


#: (notation, English, Spanish), in the order a new player meets them.
_ITEMS: tuple[tuple[str, str, str], ...] = (
    ("?", "Any die.", "Cualquier dado."),
    ("3", "A die showing this number (count the pips).", "Un dado con este número (cuenta los puntos)."),
    ("R", "A die of this colour. The letter names it: R red, B blue, G green, Y yellow, K black.",
     "Un dado de este color. La letra lo nombra: R rojo, B azul, G verde, Y amarillo, K negro."),
    ("R3", "This colour and this number.", "Este color y este número."),
    ("!R", "Any die but one of this colour (struck through).",
     "Cualquier dado que no sea de este color (tachado)."),
    ("R|3", "A tile split in two: either half will do, here a red die or a 3.",
     "Una casilla partida en dos: vale cualquiera de las mitades, aquí un dado rojo o un 3."),
    ("#", "A number: the symbols beside it, or the sum under the card, say which.",
     "Un número: los símbolos a su lado, o la suma bajo la carta, dicen cuál."),
    ("%", "A colour (the rainbow wheel): the rings beside it, or the rule under the card, say which.",
     "Un color (la rueda de colores): los anillos a su lado, o la regla bajo la carta, dicen cuál."),
    ("R#", "A die of this colour whose number counts in the sum under the card.",
     "Un dado de este color cuyo número cuenta en la suma bajo la carta."),
    ("*", "Any die: its colour or its number counts for the symbol beside it.",
     "Cualquier dado: cuenta su color o su número para el símbolo de al lado."),
    ("S", "A split die: one of Countdown's dice of two colours.",
     "Un dado partido: uno de los dados de dos colores de Countdown."),
    ("# < #", "Lower than the next die: in a stack, the lower die goes underneath.",
     "Menor que el dado siguiente: en una pila, el dado menor va debajo."),
    ("# > #", "Higher than the next die.", "Mayor que el dado siguiente."),
    ("# = #", "The same number.", "El mismo número."),
    ("# != #", "Different numbers.", "Números distintos."),
    ("% =c %", "In a ring: the same colour.", "En un anillo: el mismo color."),
    ("% !=c %", "In a ring: different colours.", "En un anillo: colores distintos."),
    ("? =cn ?", "The same colour and the same number.", "El mismo color y el mismo número."),
    ("? =c|n ?", "The same colour or the same number.", "El mismo color o el mismo número."),
    ("first:? ?", "“1st”: this slot is filled before the others; “last”: after them.",
     "«1.º»: esta casilla se llena antes que las demás; «últ.»: después."),
    ("# # # ; a + b + c = 14",
     "Letters name the slots for the rule under the card (here: the three add up to 14).",
     "Las letras nombran las casillas para la regla bajo la carta (aquí: los tres suman 14)."),
    ("stack: # # #", "A stack: each die goes on top of the one below, from the bottom up.",
     "Una pila: cada dado va encima del de abajo, de abajo arriba."),
    ("pyramid: # # / #", "A pyramid: an upper die rests on the two below it, which go first.",
     "Una pirámide: el dado de arriba se apoya en los dos de abajo, que van primero."),
)


@cache
def legend(lang: Lang = "en") -> tuple[LegendItem, ...]:
    """Every symbol of the cards in ``lang``, each drawn once."""
    return tuple(LegendItem(symbol, symbol_svg(symbol, lang=lang), es if lang == "es" else en)
                 for symbol, en, es in _ITEMS)
