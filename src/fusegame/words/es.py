"""Spanish: the same log lines, with dice and colours in words and seats ``J1``, ``J2``..."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from fusegame.words import catalogue
from fusegame.words.templates import act_text, role_event_key, say

SEAT = "J"
COLOURS = {"R": "rojo", "B": "azul", "G": "verde", "Y": "amarillo", "K": "negro"}
#: what a text fuse card does, by effect (the catalogue's ``effect.<effect>``, as the page says it)
EFFECTS = {k.removeprefix("effect."): v for k, v in catalogue("es").items()
           if k.startswith("effect.") and k not in ("effect.symbol", "effect.symbolLong")}
REASONS = {"bombs-defused": "bombas desactivadas", "time-up": "se acabó el tiempo",
           "bag-empty": "la bolsa está vacía"}

Ev = Mapping[str, Any]
Seat = Callable[[int], str]


def colours_words(letters: str) -> str:
    return "/".join(COLOURS[x] for x in letters.split("/"))


def die_words(d: Ev) -> str:
    """``azul 5``, ``negro/amarillo 3``, ``azul 4 como rojo``."""
    words = f"{colours_words(d['colours'])} {d['face']}"
    return words + (f" como {colours_words(d['as'])}" if d.get("as") else "")


def _die(d: Ev) -> str:
    return f"el dado {die_words(d)}"


def cause(c: Ev) -> str:
    if c["kind"] == "fuse":
        shows = " ".join(COLOURS.get(s, s) for s in c["shows"])
        return f"carta de mecha {shows}"
    if c["kind"] == "penalty":
        return f"dado sin usar {die_words(c['die'])}"
    if c["kind"] == "no_spark":
        return "no quedan cartas de chispa"
    return "motivo no indicado"


def _fuse(e: Ev, p: Seat) -> str:
    if e["effect"] != "symbol":
        return f"salta la carta de mecha {e['card']} (+2): {EFFECTS.get(e['effect'], e['effect'])}"
    shows = " ".join(COLOURS.get(s, s) for s in e["shows"])
    return f"salta la carta de mecha {e['card']} ({shows}) (+2)"


def _clock(e: Ev, p: Seat) -> str:
    s = e["time_ms"] // 1000
    return f"la nave está a salvo: el reloj se para tras {s // 60}:{s % 60:02d}"


def _role(e: Ev, p: Seat) -> str:
    who, role = p(e["seat"]), e["role"]
    if role == "name":
        v = e["value"]
        return f"{who} nombra {COLOURS.get(v, v)}"
    if role == "recolour":
        return f"{who} cambia el color de un dado: {die_words(e['die'])}"
    if role == "renumber":
        return f"{who} gira un dado a {die_words(e['die'])}"
    if role == "flip":
        return f"{who} da la vuelta a un dado: {die_words(e['die'])}"
    if role == "rethrow":
        n = len(e["dice"])
        return f"{who} vuelve a tirar {n} dado{'' if n == 1 else 's'}"
    return say("es", role_event_key(role), {**e, "who": who}) or f"{who} usa su habilidad de rol"


EVENTS: dict[str, Callable[[Ev, Seat], str]] = {
    "dice_rolled": lambda e, p: f"{p(e['leader'])} tira " + ", ".join(die_words(d) for d in e["dice"]),
    "die_placed": lambda e, p: (f"{p(e['seat'])} coloca {_die(e['die'])} en {e['card']} "
                                f"(casilla {e['slot'] + 1})"),
    "card_completed": lambda e, p: f"{p(e['seat'])} completa {e['card']}",
    "bomb_defused": lambda e, p: f"{p(e['seat'])} desactiva {e['card']} (+{e['points']})",
    "card_taken": lambda e, p: f"{p(e['seat'])} coge {e['card']}",
    "card_revealed": lambda e, p: f"{e['card']} pasa a la fila",
    "fuse_activated": _fuse,
    "die_returned": lambda e, p: (f"{p(e['seat'])} devuelve {_die(e['die'])} de {e['card']} a la bolsa "
                                  f"({cause(e['cause'])})"),
    "seat_done": lambda e, p: f"{p(e['seat'])} ha terminado",
    "penalty_rolled": lambda e, p: f"se tira un dado sin usar: {die_words(e['die'])}",
    "turn_ended": lambda e, p: f"termina el turno {e['turn']}",
    "game_won": lambda e, p: f"el equipo gana: {e['score']} puntos",
    "game_lost": lambda e, p: (f"el equipo pierde ({REASONS.get(e['reason'], e['reason'])}): "
                               f"{e['score']} puntos"),
    "spark_drawn": lambda e, p: f"{p(e['seat'])} roba la chispa {e['card']}",
    "spark_defused": lambda e, p: f"{p(e['seat'])} desactiva la chispa {e['card']} (+2)",
    "sparks_turned_over": lambda e, p: (f"el descarte de chispas ({e['cards']} cartas) pasa a ser el mazo de "
                                        "chispas"),
    "no_spark_left": lambda e, p: (f"{p(e['seat'])} debe robar una chispa pero todas están en juego: entrega "
                                   "un dado"),
    "card_turned_down": lambda e, p: (f"{p(e['seat'])} pone {e['card']} boca abajo (no hace falta "
                                      "desactivarla)"),
    "clock_stopped": _clock,
    "role_used": _role,
    "role_restored": lambda e, p: f"la carta de rol de {p(e['seat'])} vuelve a estar boca arriba",
    "dice_rerolled": lambda e, p: "nueva tirada: " + ", ".join(die_words(d) for d in e["dice"]),
    "six_rolled": lambda e, p: f"{p(e['seat'])} saca un 6",
    "not_six": lambda e, p: f"{p(e['seat'])} saca un {e['face']}, no un 6",
    "die_returned_free": lambda e, p: f"{p(e['seat'])} devuelve {_die(e['die'])} a la bolsa sin penalización",
}


# ====================================================================== hints
# The same advice as a teammate would say it in Spanish, with the game's words (carta, dado,
# casilla, chispa, mecha, bolsa, fila, montones). Card names are proper names and stay as printed.
Hint = Callable[[Ev, Seat, int | None], str]

LAYOUTS = {"pyramid": "pirámide", "stack": "pila", "double stack": "pila doble", "wall": "muro",
           "ziggurat": "zigurat"}
PLURALS = {"R": "rojos", "B": "azules", "G": "verdes", "Y": "amarillos", "K": "negros"}


def hint_seat(seat: int) -> str:
    return f"{SEAT}{seat + 1}"


def _card_id(c: Ev) -> str:
    """``F12 (Little tent, pirámide)``: the id, then the card's name and its layout."""
    name, layout = c.get("name_es") or c.get("name") or "", c.get("layout") or ""
    if layout and LAYOUTS.get(layout, layout).lower() in name.lower():  # the name says it already
        layout = ""
    extra = [x for x in (name, LAYOUTS.get(layout, layout)) if x]
    return f"{c['id']} ({', '.join(extra)})" if extra else str(c["id"])


def card_words(c: Ev) -> str:
    """``F12 (Little tent, pirámide)``, ``la chispa S03``."""
    return f"la chispa {_card_id(c)}" if c.get("kind") == "spark" else _card_id(c)


def seat_card(seat: int, card: Ev, p: Seat, me: int | None) -> str:
    """``tu carta REDS``, ``la carta J1 de J3``, ``la chispa S03 de J2``."""
    noun = "chispa" if card.get("kind") == "spark" else "carta"
    if seat == me:
        return f"tu {noun} {_card_id(card)}"
    return f"la {noun} {_card_id(card)} de {p(seat)}"


def dice_list(dice: list[Ev]) -> str:
    """``el dado rojo 1``, ``el dado rojo 1, el dado azul 2 y el dado verde 3``."""
    words = [_die(d) for d in dice]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " y " + words[-1]


def _dice(n: int) -> str:
    return "ningún dado" if n == 0 else "un dado" if n == 1 else f"unos {n} dados"


def about(work: int | None) -> str:
    """``unos 6 dados``, ``un dado``; a card that cannot be finished says so."""
    return "no hay forma de terminarla" if work is None else _dice(work)


def _missing(n: int) -> str:
    return "no falta ningún dado" if n == 0 else "falta un dado" if n == 1 else f"faltan unos {n} dados"


def to_go(t: Ev) -> str:
    """``faltan unos 6 dados, antes 9``: how a card's expected work moves."""
    after, before = t["after"], t["before"]
    if after is None:
        return "ya no hay forma de terminarla"
    if after == before:
        return ("sigue sin faltar ningún dado" if after == 0 else "sigue faltando un dado" if after == 1
                else f"siguen faltando unos {after} dados")
    was = "no había forma de terminarla" if before is None else str(before)
    return f"{_missing(after)}, antes {was}"


def points(n: int) -> str:
    return f"+{n} punto{'' if n == 1 else 's'}"


def _saves(work: int | None) -> str:
    if work is None:
        return "hace posible terminar una carta"
    return "no ahorra ningún dado" if work == 0 else f"ahorra {_dice(work)}"


def _shows(shows: list[str]) -> str:
    return " ".join(COLOURS.get(s, s) for s in shows)


def _role_text(a: Ev) -> str:
    role = a["role"]
    if role == "rethrow":
        return f"Vuelve a tirar {dice_list(a['dice'])}"
    die = die_words(a["die"])
    if role == "recolour":
        return f"Haz que el dado {die} sea {colours_words(a['colour'])}"
    if role == "renumber":
        return f"Gira el dado {die} al {a['face']}"
    if role == "flip":
        return f"Da la vuelta al dado {die} para que muestre un {a['face']}"
    return say("es", f"hint.{role}", a) or say("es", "words.other", {"verb": role}) or role


def _place_reason(a: Ev, p: Seat, me: int | None) -> str:
    die, card, w = f"El dado {die_words(a['die'])}", card_words(a["card"]), a["why"]
    if w["kind"] == "completes":
        return f"{die} en {card}: la completa, {points(w['points'])}"
    if w["kind"] == "wins":
        last = "la última bomba" if w["left"] == 1 else f"las {w['left']} últimas bombas"
        return (f"{die} en {card}: la completa, {points(w['points'])}; esta tirada se lleva {last} "
                "del centro, y el equipo gana")
    if w["kind"] == "clears_spark":
        return f"{die} en {card}: la completa y te libras de la chispa"
    where = f"{die} en {card}, casilla {a['slot'] + 1}"
    go = to_go(w["to_go"])
    if w["kind"] == "closer":
        why = "deja más formas de terminarla" if w["most_ways"] else "la acerca un paso más"
        return f"{where}: {why} ({go})"
    if w["kind"] == "focus":
        left = "solo queda 1 bomba" if w["left"] == 1 else f"solo quedan {w['left']} bombas"
        return (f"{where}: termina esta primero ({go}); {left} en el centro, así que seguramente "
                f"no hará falta terminar {card_words(w['spare'])}")
    if w["kind"] == "spares_spark":
        return f"{where}: coger un dado te ahorra una carta de chispa ({go})"
    if w["kind"] == "next_roll":
        more = w["ahead_tenths"] / 10
        n = "un dado" if more == 1 else f"unos {more:g} dados".replace(".", ",")
        rather = ""
        if w["instead"]:
            rather = (f"en vez del dado {die_words(w['instead']['die'])} en "
                      f"{card_words(w['instead']['card'])}, ")
        return (f"{where}: {rather}para que las cartas del equipo pidan dados que aún quedan en la "
                f"bolsa; la próxima tirada debería rendir {n} más de trabajo ({go})")
    return f"{where}: mejor que dejarlo para la tirada de penalización ({go})"


def _done_reason(a: Ev, p: Seat, me: int | None) -> str:
    w, then = a["why"], a.get("then")
    if w["kind"] == "no_fit":
        why = "ningún dado encaja en tus cartas"
    elif w["kind"] == "harder":
        why = "cualquier dado que encaje haría tus cartas más difíciles de terminar"
    elif w["kind"] == "better_elsewhere":
        why = (f"el dado {die_words(w['die'])} que encaja en tus cartas rinde más en "
               f"{seat_card(w['seat'], w['card'], p, me)}")
    else:
        why = "al equipo le conviene más dejar los dados a los demás"
    after = ""
    if then and then["kind"] == "sparks":
        n = then["count"]
        after = f"; robarás {n} carta{'' if n == 1 else 's'} de chispa"
    elif then and then["kind"] == "penalty":
        left = then["dice"]
        after = f"; {dice_list(left)} {'queda' if len(left) == 1 else 'quedan'} para la penalización"
        after += _penalty_cost(then.get("cost_tenths"))
    return f"Di que has terminado: {why}{after}"


def _penalty_cost(tenths: int | None) -> str:
    """Lo que se espera que deshaga la penalización por los dados que quedan."""
    if tenths is None:
        return ""
    cost = tenths / 10
    if tenths == 0:
        return ", que no cuesta nada: no se puede perder ningún dado de las cartas"
    n = "un dado" if cost == 1 else f"unos {cost:g} dados".replace(".", ",")
    return f", que deshace de media {n} de trabajo"


def _wait_reason(a: Ev, p: Seat, me: int | None) -> str:
    card = a["card"]
    noun = "chispa" if card.get("kind") == "spark" else "carta"
    return (f"Espera: {p(a['leader'])} usa primero su rol en el dado {die_words(a['die'])}; después irá "
            f"en tu {noun} {_card_id(card)}")


def _role_reason(a: Ev, p: Seat, me: int | None) -> str:
    text = _role_text(a)
    if a["role"] == "rethrow":
        why = ("ninguna carta puede usarlo tal como está" if len(a["dice"]) == 1
               else "ninguna carta puede usarlos tal como están")
        return f"{text}: {why}"
    if "dice" in a:  # otra habilidad sobre varios dados
        return f"{text}: {say('es', 'advice.' + a['role'], a) or ''}".rstrip(": ")
    then = a.get("then")
    if then:
        why = f"después irá en {seat_card(then['seat'], then['card'], p, me)}"
    else:
        why = "así la tirada encaja mejor con las cartas del equipo"
    return f"{text}: {why} ({_saves(a['saves'])})"


def _defuse_reason(a: Ev, p: Seat, me: int | None) -> str:
    c = a["card"]
    if c["kind"] == "spark":
        why = "te libras de la chispa"
    else:
        why = f"{points(c['points'])}, y la carta que la sustituya puede recibir dados en este turno"
    return f"Desactiva {card_words(c)} ahora: {why}"


def _take_why(a: Ev) -> str:
    w, pts = a["why"], a["card"]["points"]
    where = "de los montones" if w.get("where") == "stacks" else "de la fila"
    if w["kind"] == "only":
        return f"la única carta que queda ({about(w['work'])}, {pts} punto{'' if pts == 1 else 's'})"
    if w["kind"] == "easiest":
        return f"la carta más fácil {where} ({about(w['work'])})"
    if w["kind"] == "hardest_late":
        return (f"la partida está a punto de terminar, así que coge la más difícil y deja las fáciles "
                f"({about(w['work'])})")
    if w["kind"] == "hardest_first":
        return (f"la carta más difícil {where} ({about(w['work'])}): hay que terminar todas las cartas, "
                "así que coge las difíciles mientras hay tiempo y deja las rápidas para el final, cuando "
                "los jugadores que ya hayan terminado sus cartas no podrán ayudar")
    if w["kind"] == "smallest":
        return (f"la carta más pequeña {where} (menos casillas y puntos, {about(w['work'])}): deja las "
                "grandes para el final; la partida se gana cuando el centro queda vacío, y las cartas "
                "que tengan entonces delante los jugadores no hace falta terminarlas")
    if w["kind"] == "next_roll":
        more = w["ahead_tenths"] / 10
        n = "un dado" if more == 1 else f"unos {more:g} dados".replace(".", ",")
        return (f"la carta a la que mejor se ajustan los dados de la bolsa ({about(w['work'])}), en vez "
                f"de {card_words(w['instead'])}: la próxima tirada del equipo debería rendir {n} más de "
                "trabajo")
    return f"{points(pts)} por {about(w['work'])}, la mejor relación entre puntos y dados {where}"


def _take_reason(a: Ev, p: Seat, me: int | None) -> str:
    why = _take_why(a)
    if a["others"]:
        why += "; " + ", ".join(f"{o['card']['id']} es para {p(o['seat'])}" for o in a["others"])
    return f"Coge {card_words(a['card'])}: {why}"


def _give_up_cause(c: Ev | None) -> str:
    if not c:
        return ""
    if c["kind"] == "fuse":
        return f" por la carta de mecha ({_shows(c['shows'])})"
    if c["kind"] == "penalty":
        return f" por la penalización ({die_words(c['die'])})"
    if c["kind"] == "no_spark":
        return f" ({cause(c)})"
    return ""


def _name_text(a: Ev) -> str:
    v = a["value"]
    return f"Nombra {COLOURS.get(v, v)}"


def _name_reason(a: Ev, p: Seat, me: int | None) -> str:
    v = a["value"]
    if v in PLURALS:
        return (f"{_name_text(a)}: la bolsa tiene más dados {PLURALS[v]} que de cualquier otro color "
                f"({a['in_bag']})")
    return f"{_name_text(a)}: todos los números tienen la misma probabilidad de salir"


HINT_TEXTS: dict[str, Hint] = {
    "place": lambda a, p, me: f"Pon {_die(a['die'])} en {a['card']['id']}, casilla {a['slot'] + 1}",
    "done": lambda a, p, me: "Di que has terminado",
    "wait_for_role": lambda a, p, me: "Espera",
    "role": lambda a, p, me: _role_text(a),
    "no_role_gain": lambda a, p, me: "Nada que hacer",
    "defuse": lambda a, p, me: f"Desactiva {a['card']['id']}",
    "take": lambda a, p, me: f"Coge {a['card']['id']}",
    "wait_to_take": lambda a, p, me: "Espera",
    "nothing_to_take": lambda a, p, me: "Nada que coger",
    "give_up": lambda a, p, me: f"Entrega {_die(a['die'])} de {a['card']['id']}",
    "name": lambda a, p, me: _name_text(a),
    "reroll": lambda a, p, me: f"Vuelve a tirar ahora {_die(a['die'])}",
    "return_free": lambda a, p, me: f"Devuelve {_die(a['die'])} a la bolsa sin penalización",
    "roll_six": lambda a, p, me: "Tira tu dado",
    "act": lambda a, p, me: act_text("es", a),
}

HINT_REASONS: dict[str, Hint] = {
    "place": _place_reason,
    "done": _done_reason,
    "wait_for_role": _wait_reason,
    "role": _role_reason,
    "no_role_gain": lambda a, p, me: ("Nada que hacer: tu rol no mejoraría esta tirada; deja que los demás "
                                      "coloquen"),
    "defuse": _defuse_reason,
    "take": _take_reason,
    "wait_to_take": lambda a, p, me: "Espera: los demás cogen las cartas del centro; coge tú de las nuevas",
    "nothing_to_take": lambda a, p, me: "Nada que coger: el centro está vacío",
    "give_up": lambda a, p, me: (f"{HINT_TEXTS['give_up'](a, p, me)}{_give_up_cause(a.get('cause'))}: es "
                                 f"el que menos cuesta reponer ({to_go(a['to_go'])})"),
    "name": _name_reason,
    "reroll": lambda a, p, me: (f"{HINT_TEXTS['reroll'](a, p, me)}: de los dados sin usar, es probablemente "
                                "el que menos costará en la penalización"),
    "return_free": lambda a, p, me: (f"{HINT_TEXTS['return_free'](a, p, me)}: su tirada de penalización es "
                                     "probablemente la que más costaría"),
    "roll_six": lambda a, p, me: "Tira tu dado: todos deben sacar un 6 antes de seguir",
    "act": lambda a, p, me: f"{act_text('es', a)}: {say('es', 'advice.declared', {})}",
}


# ====================================================================== refusals
# Why an action is refused (``rules.errors.REFUSALS`` has the codes and the English): the same
# facts in Spanish, from the catalogue (``es.json``, ``refuse.<code>``), which the page reads too. A
# die is said in words, a seat as ``J2``.
def _refusals() -> dict[str, str]:
    from fusegame.rules.errors import REFUSALS as CODES
    from fusegame.words import catalogue

    words = catalogue("es")
    return {code: words[f"refuse.{code}"] for code in CODES if f"refuse.{code}" in words}


REFUSALS: dict[str, str] = _refusals()

#: What each kind of action is, for "ahora no se puede ...".
ACTIONS = {
    "Place": "colocar un dado", "Done": "decir que has terminado", "TakeCard": "coger una carta",
    "RevealFuse": "revelar una carta de mecha", "GiveUp": "entregar un dado",
    "RerollUnused": "volver a tirar un dado sin usar", "Defuse": "desactivar una carta",
    "RollSix": "tirar para sacar un 6", "Name": "nombrar un color o un número",
    "Recolour": "cambiar el color de un dado", "Renumber": "cambiar el número de un dado",
    "Flip": "dar la vuelta a un dado", "Rethrow": "volver a tirar dados",
    "ReturnFree": "devolver un dado sin penalización", "Tick": "hacer avanzar el reloj",
}


def _refusal_value(facts: Ev) -> Callable[[str, Any], str]:
    def value(key: str, v: Any) -> str:
        if key in ("colours", "named", "options"):
            return " ".join(colours_words(x) if x.split("/")[0] in COLOURS else x for x in str(v).split())
        if key == "role":
            from fusegame.cards.words import role_name

            return role_name(str(facts.get("ability") or ""), "es") or str(v)
        if key == "action":
            return ACTIONS.get(str(v), "hacer eso")
        return str(v)
    return value


def refusal(code: str, facts: Ev, p: Seat) -> str | None:
    """Refusal ``code`` with its ``facts`` in Spanish (``None`` for a code without words)."""
    from fusegame.rules.errors import fill

    template = REFUSALS.get(code)
    if template is None:
        return None
    return fill(template, facts, seat=p, die=die_words, value=_refusal_value(facts))
