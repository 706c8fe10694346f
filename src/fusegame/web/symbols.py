"""The symbols of the cards and what each means in words, in English and in Spanish.

Plain data, shared by the legend (``fusegame.web.legend``, served at ``/api/legend``) and the
printable catalogue (``fusegame.web.svg.catalogue_page``), which both draw each symbol with
:func:`fusegame.web.svg.symbol_svg`. It draws nothing and imports no drawing code, so that
``web.svg`` can read it without importing ``web.legend`` (which imports ``web.svg``).
"""

from __future__ import annotations

from fusegame.cards.words import Lang

#: (notation, English, Spanish), in the order a new player meets them.
SYMBOLS: tuple[tuple[str, str, str], ...] = (
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


def symbol_words(lang: Lang = "en") -> tuple[tuple[str, str], ...]:
    """Every symbol of the cards as (notation, what it means in ``lang``), in ``SYMBOLS``' order."""
    return tuple((symbol, es if lang == "es" else en) for symbol, en, es in SYMBOLS)


__all__ = ["SYMBOLS", "symbol_words"]
