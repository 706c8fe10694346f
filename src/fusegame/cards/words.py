"""Cards in words, in English and Spanish, made from the card model (never written per card).

``card_words(card, "es")`` gives a card's name and a plain description of what it asks for: the
layout and number of dice, what single slots demand, the symbols between neighbours, the
equations and group tests, and its points; fuse and role cards say what they do. The slots are
called a, b, c... in the order the card's notation writes them (left to right; in stacks from the
bottom up), the letters printed on the cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from fusegame.cards.model import (
    Ability,
    BombCard,
    Clause,
    Comparison,
    FuseCard,
    FuseEffect,
    Group,
    GroupTest,
    Layout,
    Pred,
    PredKind,
    Rel,
    Relation,
    RoleCard,
    Slot,
)
from fusegame.dice import COLOURS, LETTERS


def _catalogue(lang: str) -> Mapping[str, str]:
    from fusegame.words import catalogue  # the words package reads the cards' words: not at import

    return catalogue(lang)


Lang = Literal["en", "es"]
LANGS: tuple[Lang, ...] = ("en", "es")

_COLOUR = {"en": {"R": "red", "B": "blue", "G": "green", "Y": "yellow", "K": "black"},
           "es": {"R": "rojo", "B": "azul", "G": "verde", "Y": "amarillo", "K": "negro"}}
_NUMBER = {"en": ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                  "eleven", "twelve"],
           "es": ["ningún", "un", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez",
                  "once", "doce"]}
_LAYOUT = {
    "en": {Layout.ROW: "{n} dice in a row", Layout.STACK: "{n} dice in a stack, from the bottom up",
           Layout.DOUBLE_STACK: "{n} dice in two stacks, each from the bottom up",
           Layout.PYRAMID: "{n} dice in a pyramid, each upper die resting on two below",
           Layout.WALL: "{n} dice in a wall, the upper ones resting on the row below",
           Layout.ZIGGURAT: "{n} dice in a ziggurat, a stepped pyramid"},
    "es": {Layout.ROW: "{n} dados en fila", Layout.STACK: "{n} dados en una pila, de abajo arriba",
           Layout.DOUBLE_STACK: "{n} dados en dos pilas, cada una de abajo arriba",
           Layout.PYRAMID: "{n} dados en pirámide, cada dado de arriba sobre dos de abajo",
           Layout.WALL: "{n} dados en un muro, los de arriba apoyados en la fila de abajo",
           Layout.ZIGGURAT: "{n} dados en un zigurat, una pirámide escalonada"},
}
#: A relation between two slots, and the same relation along a whole chain of neighbours.
_REL = {
    "en": {Rel.LT: "{a} lower than {b}", Rel.GT: "{a} higher than {b}",
           Rel.SAME_NUMBER: "{a} and {b} the same number", Rel.DIFF_NUMBER: "{a} and {b} different numbers",
           Rel.SAME_COLOUR: "{a} and {b} the same colour", Rel.DIFF_COLOUR: "{a} and {b} different colours",
           Rel.SAME_BOTH: "{a} and {b} the same colour and the same number",
           Rel.SAME_EITHER: "{a} and {b} the same colour or the same number"},
    "es": {Rel.LT: "{a} menor que {b}", Rel.GT: "{a} mayor que {b}",
           Rel.SAME_NUMBER: "{a} y {b} del mismo número", Rel.DIFF_NUMBER: "{a} y {b} de números distintos",
           Rel.SAME_COLOUR: "{a} y {b} del mismo color", Rel.DIFF_COLOUR: "{a} y {b} de colores distintos",
           Rel.SAME_BOTH: "{a} y {b} del mismo color y el mismo número",
           Rel.SAME_EITHER: "{a} y {b} del mismo color o del mismo número"},
}
_CHAIN = {
    "en": {Rel.LT: "each number higher than the one before", Rel.GT: "each number lower than the one before",
           Rel.SAME_NUMBER: "all the same number",
           Rel.DIFF_NUMBER: "each number different from the one before",
           Rel.SAME_COLOUR: "all the same colour",
           Rel.DIFF_COLOUR: "each colour different from the one before",
           Rel.SAME_BOTH: "all the same colour and the same number",
           Rel.SAME_EITHER: "each die sharing its colour or its number with the one before"},
    "es": {Rel.LT: "cada número mayor que el anterior", Rel.GT: "cada número menor que el anterior",
           Rel.SAME_NUMBER: "todos del mismo número", Rel.DIFF_NUMBER: "cada número distinto del anterior",
           Rel.SAME_COLOUR: "todos del mismo color", Rel.DIFF_COLOUR: "cada color distinto del anterior",
           Rel.SAME_BOTH: "todos del mismo color y el mismo número",
           Rel.SAME_EITHER: "cada dado con el color o el número del anterior"},
}
_GROUP = {
    "en": {Group.SAME_COLOUR: "{m} all the same colour", Group.SAME_NUMBER: "{m} all the same number",
           Group.DIFF_COLOUR: "{m} all different colours", Group.DIFF_NUMBER: "{m} all different numbers"},
    "es": {Group.SAME_COLOUR: "{m} todos del mismo color", Group.SAME_NUMBER: "{m} todos del mismo número",
           Group.DIFF_COLOUR: "{m} todos de colores distintos",
           Group.DIFF_NUMBER: "{m} todos de números distintos"},
}
_OP = {"en": {"=": "equals", "<": "is less than", ">": "is greater than"},
       "es": {"=": "es igual a", "<": "es menor que", ">": "es mayor que"}}
_WORD = {
    "en": {"and": "and", "or": "or", "plus": "plus", "minus": "minus", "each": "each one",
           "any": "any die", "split": "a split die", "not": "not {c}",
           "either": "any die, its colour or its number",
           "a_number": "a {n}", "colour_number": "a {c} {n}", "first": "{s} is filled first",
           "last": "{s} is filled last", "names": "called {letters} in that order",
           "names_rows": "called {letters}, row by row from the bottom, each left to right",
           "one": "One die", "fuse_number": "a {n}",
           "points": "Worth {n} point.", "points_n": "Worth {n} points.",
           "spark": "A spark card: no points, defused like a bomb.",
           "fuse_symbol": "When it is turned over, every player returns one die that is {x} from their bomb"
                          " cards to the bag, if they can.",
           "fuse": "Fuse card", "role": "Role card"},
    "es": {"and": "y", "or": "o", "plus": "más", "minus": "menos", "each": "cada uno",
           "any": "cualquier dado", "split": "un dado partido", "not": "que no sea {c}",
           "either": "cualquier dado, cuenta su color o su número",
           "a_number": "un {n}", "colour_number": "un {n} {c}", "first": "{s} se llena primero",
           "last": "{s} se llena el último", "names": "llamados {letters} en ese orden",
           "names_rows": "llamados {letters}, fila a fila desde abajo, cada una de izquierda a derecha",
           "one": "Un dado", "fuse_number": "con un {n}",
           "points": "Vale {n} punto.", "points_n": "Vale {n} puntos.",
           "spark": "Carta de chispa: sin puntos, se desactiva como una bomba.",
           "fuse_symbol": "Al descubrirla, cada jugador devuelve a la bolsa un dado {x} de sus cartas"
                          " de bomba, si puede.",
           "fuse": "Carta de mecha", "role": "Carta de rol"},
}
# What a text fuse card does is the catalogue's ``fuseText.<effect>`` (fusegame.words).
# A role's name (Spanish: the printed names are English) and what it does, in both languages, are
# the catalogue's ``role.<ability>`` and ``roleText.<ability>`` (fusegame.words): the page says the same.
#: A title made from the card model: the shape, then what stands out (Spanish; English cards carry
#: their printed names).
_TITLE_SHAPE = {Layout.ROW: "Fila de {n}", Layout.STACK: "Pila de {n}",
                Layout.DOUBLE_STACK: "Dos pilas de {n}", Layout.PYRAMID: "Pirámide de {n}",
                Layout.WALL: "Muro de {n}", Layout.ZIGGURAT: "Zigurat de {n}"}
_TITLE_REL = {Rel.LT: "en subida", Rel.GT: "en bajada", Rel.SAME_NUMBER: "mismo número",
              Rel.DIFF_NUMBER: "números distintos", Rel.SAME_COLOUR: "mismo color",
              Rel.DIFF_COLOUR: "colores distintos", Rel.SAME_BOTH: "gemelos",
              Rel.SAME_EITHER: "color o número"}
_TITLE_GROUP = {Group.SAME_COLOUR: "mismo color", Group.SAME_NUMBER: "mismo número",
                Group.DIFF_COLOUR: "colores distintos", Group.DIFF_NUMBER: "números distintos"}


def role_name(ability: str, lang: Lang = "en") -> str | None:
    """A role's name from its ability (``cutter``) in Spanish; ``None`` for English, whose names
    are the printed ones the cards carry, and for an unknown ability."""
    if lang != "es":
        return None
    try:
        return _catalogue("es")[f"role.{Ability(ability).value}"]
    except ValueError:
        return None


def card_title(card: BombCard | FuseCard | RoleCard, lang: Lang = "en") -> str:
    """A card's name in ``lang``: the catalogue's name in English (the card's id when it has none)
    and its ``name_es`` in Spanish, else a title made from the model ("Fila de 4: colores
    distintos", "Pila de 3: en subida")."""
    return card_words(card, lang).name


def _title_es(card: BombCard) -> str:
    shape = card.shape
    base = _TITLE_SHAPE[shape.layout].format(n=shape.size) if shape.size > 1 else "Un dado"
    feature = ""
    kinds = {r.rel for r in shape.relations}
    if shape.clauses:
        atom = shape.clauses[0].alts[0]
        if isinstance(atom, GroupTest):
            # every alternative: "same colour or same number" is not "same colour"
            groups = [a.group for a in shape.clauses[0].alts if isinstance(a, GroupTest)]
            feature = " o ".join(dict.fromkeys(_TITLE_GROUP[g] for g in groups))
        else:
            signs = {sign for e in atom.exprs for sign, _, _ in e}
            summed = any(len(e) > 1 for e in atom.exprs)
            feature = "con resta" if -1 in signs else "con suma" if summed else "con cuenta"
    elif len(kinds) == 1:
        feature = _TITLE_REL[next(iter(kinds))]
    elif kinds:
        feature = "con signos"
    else:
        preds = [_pred(sl.pred, "es") for sl in shape.slots]
        named = list(dict.fromkeys(p for p in preds if p))
        if named and len(named) <= 2 and len(", ".join(named)) <= 24:
            feature = " y ".join(named)
        elif named:
            feature = "a elegir" if any(sl.pred.kind is PredKind.ONE_OF and len(sl.pred.alts) > 1
                                          for sl in shape.slots) else "de colores"
    return f"{base}: {feature}" if feature else base


@dataclass(frozen=True)
class CardWords:
    """A card's name and description in one language."""

    id: str
    lang: Lang
    kind: str
    name: str
    text: str
    points: int | None = None

    def to_dict(self) -> dict[str, object]:
        return {"id": self.id, "lang": self.lang, "kind": self.kind, "name": self.name, "text": self.text,
                "points": self.points}


def card_words(card: BombCard | FuseCard | RoleCard, lang: Lang = "en") -> CardWords:
    """``card`` in words, in ``lang`` (``"en"`` or ``"es"``)."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r} (choose from {', '.join(LANGS)})")
    w = _WORD[lang]
    if isinstance(card, FuseCard):
        if card.effect is FuseEffect.SYMBOL:
            text = w["fuse_symbol"].format(x=_fuse_symbol(card, lang))
        else:
            text = _catalogue(lang)[f"fuseText.{card.effect.value}"]
        return CardWords(card.id, lang, "fuse", f"{w['fuse']} {card.id}", text)
    if isinstance(card, RoleCard):
        name = _catalogue("es")[f"role.{card.ability.value}"] if lang == "es" else card.name
        return CardWords(card.id, lang, "role", name, _catalogue(lang)[f"roleText.{card.ability.value}"])
    # the cards' names are this edition's own, in both languages (the catalogue's name and name_es);
    # a card of one's own deck without a Spanish name gets a title made from its model
    name = (card.name_es or _title_es(card)) if lang == "es" else card.name or card.id
    return CardWords(card.id, lang, card.kind, name, _bomb_text(card, lang),
                     None if card.kind == "spark" else card.points)


# ------------------------------------------------------------------ pieces
def _colour(mask: int, lang: Lang) -> str:
    return _COLOUR[lang][LETTERS[mask]]


def _list(items: list[str], lang: Lang, joiner: str = "and") -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {_WORD[lang][joiner]} " + items[-1]


def _letter(i: int) -> str:
    return chr(ord("a") + i)


def _fuse_symbol(card: FuseCard, lang: Lang) -> str:
    parts = [_colour(c, lang) for c in COLOURS if card.colours & c]
    parts += [(_WORD[lang]["fuse_number"].format(n=n)) for n in card.numbers]
    return _list(parts, lang, "or")


def pred_words(p: Pred, lang: Lang = "en") -> str | None:
    """What one slot asks for by itself ("red or a 3"), or None when only its neighbours or the
    card's equations tell (any die, a number, a colour)."""
    return _pred(p, lang)


def _pred(p: Pred, lang: Lang) -> str | None:
    """What one slot asks for by itself, or None when only its neighbours or equations tell."""
    w = _WORD[lang]
    k = p.kind
    if k in (PredKind.ANY, PredKind.NUMBER, PredKind.COLOUR):
        return None
    if k is PredKind.EITHER:
        return w["either"]
    if k is PredKind.SPLIT:
        return w["split"]
    if k is PredKind.NOT:
        return w["not"].format(c=_colour(p.colour, lang))
    alts = []
    for c, f in p.alts:
        if c and f:
            alts.append(w["colour_number"].format(c=_colour(c, lang), n=f))
        elif c:
            alts.append(_colour(c, lang))
        else:
            alts.append(w["a_number"].format(n=f))
    return _list(alts, lang, "or")


def _slots(slots: tuple[Slot, ...], lang: Lang) -> tuple[list[str], bool]:
    """What single slots ask for, and whether that names slots by their letters."""
    preds = [_pred(s.pred, lang) for s in slots]
    if len(preds) == 1:
        return [p for p in preds if p is not None], False
    if all(p is not None for p in preds) and len(set(preds)) == 1:
        return [f"{_WORD[lang]['each']} {preds[0]}"], False
    named = [f"{_letter(i)}: {p}" for i, p in enumerate(preds) if p is not None]
    return named, bool(named)


def _relations(relations: tuple[Relation, ...], lang: Lang) -> tuple[list[str], bool]:
    """The symbols between neighbours, and whether that names slots by their letters."""
    if not relations:
        return [], False
    kinds = {r.rel for r in relations}
    chained = all(r.b == r.a + 1 for r in relations) and len(relations) > 1
    if len(kinds) == 1 and chained and relations[0].a == 0 and relations[-1].b == len(relations):
        return [_CHAIN[lang][relations[0].rel]], False
    return [_REL[lang][r.rel].format(a=_letter(r.a), b=_letter(r.b)) for r in relations], True


def _expr(terms: tuple[tuple[int, int, int], ...], lang: Lang) -> str:
    w = _WORD[lang]
    out = ""
    for i, (sign, slot, const) in enumerate(terms):
        word = _letter(slot) if slot >= 0 else str(const)
        if i == 0:
            out = word if sign > 0 else f"{w['minus']} {word}"
        else:
            out += f" {w['plus'] if sign > 0 else w['minus']} {word}"
    return out


def _clause(clause: Clause, lang: Lang) -> str:
    alts = []
    for atom in clause.alts:
        if isinstance(atom, Comparison):
            parts = [_expr(atom.exprs[0], lang)]
            for op, e in zip(atom.ops, atom.exprs[1:], strict=True):
                parts.append(f"{_OP[lang][op]} {_expr(e, lang)}")
            alts.append(" ".join(parts))
        elif isinstance(atom, GroupTest):
            members = _list([_letter(m) for m in atom.members], lang)
            alts.append(_GROUP[lang][atom.group].format(m=members))
    return f" {_WORD[lang]['or']} ".join(alts)


def _bomb_text(card: BombCard, lang: Lang) -> str:
    w = _WORD[lang]
    shape = card.shape
    n = shape.size
    count = _NUMBER[lang][n] if n < len(_NUMBER[lang]) else str(n)
    head = _LAYOUT[lang][shape.layout].format(n=count) if n > 1 else w["one"]
    head = head[0].upper() + head[1:]
    own, by_slot = _slots(shape.slots, lang)
    between, by_pair = _relations(shape.relations, lang)
    demands = own + between + [_clause(c, lang) for c in shape.clauses]
    order = [w["first"].format(s=_letter(i)) for i, s in enumerate(shape.slots) if s.first]
    order += [w["last"].format(s=_letter(i)) for i, s in enumerate(shape.slots) if s.last]
    demands += order
    if (by_slot or by_pair or shape.clauses or order) and n > 1:
        rows = shape.layout in (Layout.PYRAMID, Layout.WALL, Layout.ZIGGURAT)
        names = w["names_rows" if rows else "names"]
        head += f" ({names.format(letters=_list([_letter(i) for i in range(n)], lang))})"
    text = head + (": " + "; ".join(demands) if demands else "") + "."
    if card.kind == "spark":
        return f"{text} {w['spark']}"
    return f"{text} {(w['points'] if card.points == 1 else w['points_n']).format(n=card.points)}"
