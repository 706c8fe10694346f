"""The words of the terminal table, in English and Spanish.

Events, hints, dice and cards have their words in ``fusegame.words`` and ``fusegame.cards.words``;
this holds only what the screen itself says (titles, keys, notices).
"""

from __future__ import annotations

import locale
import os
from collections.abc import Mapping, Sequence
from typing import Any

EN: dict[str, str] = {
    "roll": "Roll", "roll.none": "no dice rolled yet", "mine": "Your cards", "row": "The row",
    "row.take": "The row: take a card", "team": "Team", "log": "Ship's log", "score": "Score",
    "deck": "deck", "bag": "bag", "turn": "turn", "leader": "leader", "untimed": "untimed",
    "sparks": "sparks", "role": "role", "done": "done", "you": "you", "bot": "bot", "away": "away",
    "fuses": "fuse cards", "stacks": "Stacks", "level": "level {level} ({n})", "empty": "empty",
    "your.distribute": "Your turn: place a die (1-9, arrows, Enter) or d when you can't.",
    "your.take": "Take a card from the row (arrows, Enter).",
    "your.give_up": "Give up a die (pick it, Enter).", "your.give": "Give up a die (pick it, Enter).",
    "your.reroll": "Reroll an unused die (pick it, Enter).",
    "your.return": "Return a die free (pick it, Enter).",
    "your.roll_six": "Roll your die for a 6 (Enter).", "your.roll": "Roll for a 6 (Enter).",
    "your.name": "Name a colour or a number (arrows, Enter).",
    "your.role": "Use your role or press d.", "your.reveal": "Reveal a fuse card (Enter).",
    "your.defuse": "Defuse a complete card now (Enter) or go on.",
    "your.other": "Your move (arrows, Enter).",
    "waiting": "Waiting for your teammates.", "spectator": "You are watching this game.",
    "auto": "chosen for you in {s} s",
    "act.take": "Take", "act.give": "Give up", "act.reroll": "Reroll", "act.return": "Return free",
    "act.defuse": "Defuse", "act.roll": "Roll for a 6", "act.name": "Name",
    "act.reveal": "Reveal a fuse card",
    "act.recolour": "Recolour", "act.renumber": "Renumber", "act.flip": "Flip",
    "act.rethrow": "Reroll", "act.done": "Done", "actions": "Choose",
    "slot": "slot", "pick": "Die {n}: {die}", "no_slot": "Die {n} fits none of your cards.",
    "no_die": "There is no die {n}.", "hint.none": "No hint right now.",
    "hint.off": "Hints are off in this room.", "hint": "Hint",
    "keys": "1-9 die  ←→ slot  Enter place  d done  h hint  ? keys  q quit",
    "keys.lobby": "r ready  b fill seats with bots  q quit",
    "keys.title": "Keys",
    "help": ("1-9        pick a die of the roll (its number is shown beside it)\n"
             "← → ↑ ↓    move between the slots the die may go to, or between choices\n"
             "Enter      place the die there, or make the highlighted choice\n"
             "Tab        move between choices (take a card, give up a die...)\n"
             "Esc        put the die back down\n"
             "d          done: you cannot or will not place more this turn\n"
             "h          the planner's hint (Enter then follows it)\n"
             "?          this list\n"
             "q          quit (asks first during a game)\n\n"
             "Mouse: click a die, then a slot; click a choice to make it."),
    "quit.ask": "Leave the game? It is not finished.", "yes": "y: leave", "no": "n: stay",
    "won": "The bombs are defused: you win!", "lost": "The team lost.",
    "reason.bombs-defused": "every bomb defused", "reason.time-up": "the time ran out",
    "reason.bag-empty": "the bag is empty",
    "score.win": "Win bonus", "score.time": "Time bonus", "score.bombs": "Bomb points",
    "score.fuses": "Fuse card points", "score.sparks": "Spark points", "score.total": "Total",
    "official": "official score", "unofficial": "unofficial score (not a timed 10-minute game)",
    "stored": "In the BDT Log as game {id} (fuse serve: Log page).",
    "not_stored": "This game could not be stored.", "storing": "Storing the game…",
    "end.keys": "q quit  Esc look at the table",
    "lobby": "Room {code}", "lobby.wait": "Waiting for every seat to be filled and every player ready.",
    "ready": "ready", "not_ready": "not ready", "open": "open seat",
    "lost_conn": "The connection to the server was lost ({why}). Press q.",
    "restarting": "The server is restarting; the game waits.",
    "no_moves": "nothing to do now",
    "unused": "unused", "penalty_die": "Penalty die", "bonus_die": "Bonus die",
    "must_roll_six": "Must roll a 6: {who}",
    "pace": "pace", "pace.ahead": "{n} ahead", "pace.line": "on the line", "pace.behind": "{n} behind",
    "refused": "Not possible now: {why}",
    "err.full": "Every seat is taken: you can watch the game.",
    "err.started": "The game has started: you can watch it.",
    "err.over": "The game is over.", "err.not_playing": "The game has not started yet.",
    "err.not_seated": "Spectators can only watch: join a seat to play.",
    "err.rate_limited": "Too many requests: try again in {n} s.",
    "err.internal": "The server could not handle that; the game goes on.",
    "exit": "{result} ({reason}), score {score}{kept}", "exit.won": "won", "exit.lost": "lost",
    "exit.kept": ", in the BDT Log as game {id}",
}

ES: dict[str, str] = {
    "roll": "Tirada", "roll.none": "aún no hay dados", "mine": "Tus cartas", "row": "La fila",
    "row.take": "La fila: coge una carta", "team": "Equipo", "log": "Diario de a bordo",
    "score": "Puntos", "deck": "mazo", "bag": "bolsa", "turn": "turno", "leader": "líder",
    "untimed": "sin tiempo", "sparks": "chispas", "role": "rol", "done": "hecho", "you": "tú",
    "bot": "bot", "away": "fuera", "fuses": "cartas de mecha", "stacks": "Montones",
    "level": "nivel {level} ({n})", "empty": "vacío",
    "your.distribute": "Tu turno: coloca un dado (1-9, flechas, Intro) o d si no puedes.",
    "your.take": "Coge una carta de la fila (flechas, Intro).",
    "your.give_up": "Entrega un dado (elígelo, Intro).", "your.give": "Entrega un dado (elígelo, Intro).",
    "your.reroll": "Vuelve a tirar un dado sin usar (elígelo, Intro).",
    "your.return": "Devuelve un dado sin penalización (elígelo, Intro).",
    "your.roll_six": "Tira tu dado para sacar un 6 (Intro).", "your.roll": "Tira para sacar un 6 (Intro).",
    "your.name": "Nombra un color o un número (flechas, Intro).",
    "your.role": "Usa tu rol o pulsa d.", "your.reveal": "Revela una carta de mecha (Intro).",
    "your.defuse": "Desactiva ya una carta completa (Intro) o sigue.",
    "your.other": "Te toca (flechas, Intro).",
    "waiting": "Esperando a tus compañeros.", "spectator": "Estás mirando esta partida.",
    "auto": "se elige por ti en {s} s",
    "act.take": "Coger", "act.give": "Entregar", "act.reroll": "Volver a tirar",
    "act.return": "Devolver", "act.defuse": "Desactivar", "act.roll": "Tirar para sacar un 6",
    "act.name": "Nombrar", "act.reveal": "Revelar una carta de mecha", "act.recolour": "Cambiar color",
    "act.renumber": "Cambiar número", "act.flip": "Dar la vuelta", "act.rethrow": "Volver a tirar",
    "act.done": "Hecho", "actions": "Elige",
    "slot": "casilla", "pick": "Dado {n}: {die}", "no_slot": "El dado {n} no cabe en tus cartas.",
    "no_die": "No hay dado {n}.", "hint.none": "Ahora no hay pista.",
    "hint.off": "Las pistas están desactivadas en esta sala.", "hint": "Pista",
    "keys": "1-9 dado  ←→ casilla  Intro colocar  d hecho  h pista  ? teclas  q salir",
    "keys.lobby": "r listo  b llenar con bots  q salir",
    "keys.title": "Teclas",
    "help": ("1-9        elige un dado de la tirada (su número está a su lado)\n"
             "← → ↑ ↓    pasa de una casilla posible a otra, o de una opción a otra\n"
             "Intro      coloca el dado ahí, o haz la opción marcada\n"
             "Tab        pasa de una opción a otra (coger carta, entregar dado...)\n"
             "Esc        suelta el dado\n"
             "d          hecho: no puedes o no quieres colocar más este turno\n"
             "h          la pista del planificador (Intro la sigue)\n"
             "?          esta lista\n"
             "q          salir (pregunta antes durante una partida)\n\n"
             "Ratón: pulsa un dado y luego una casilla; pulsa una opción para hacerla."),
    "quit.ask": "¿Dejar la partida? No ha terminado.", "yes": "s: salir", "no": "n: seguir",
    "won": "Bombas desactivadas: ¡ganáis!", "lost": "El equipo ha perdido.",
    "reason.bombs-defused": "todas las bombas desactivadas", "reason.time-up": "se acabó el tiempo",
    "reason.bag-empty": "la bolsa está vacía",
    "score.win": "Bonus de victoria", "score.time": "Bonus de tiempo", "score.bombs": "Puntos de bombas",
    "score.fuses": "Puntos de cartas de mecha", "score.sparks": "Puntos de chispas", "score.total": "Total",
    "official": "puntuación oficial", "unofficial": "puntuación no oficial (no es una partida de 10 minutos)",
    "stored": "En el Diario BDT como partida {id} (fuse serve: página del Diario).",
    "not_stored": "No se pudo guardar esta partida.", "storing": "Guardando la partida…",
    "end.keys": "q salir  Esc ver la mesa",
    "lobby": "Sala {code}", "lobby.wait": "Esperando a que se llenen los asientos y todos estén listos.",
    "ready": "listo", "not_ready": "no listo", "open": "asiento libre",
    "lost_conn": "Se perdió la conexión con el servidor ({why}). Pulsa q.",
    "restarting": "El servidor se reinicia; la partida espera.",
    "no_moves": "nada que hacer ahora",
    "unused": "sin usar", "penalty_die": "Dado de penalización", "bonus_die": "Dado extra",
    "must_roll_six": "Debe sacar un 6: {who}",
    "pace": "ritmo", "pace.ahead": "{n} por delante", "pace.line": "en la línea",
    "pace.behind": "{n} por detrás",
    "refused": "Ahora no es posible: {why}",
    "err.full": "Todos los asientos están ocupados: puedes mirar la partida.",
    "err.started": "La partida ya ha empezado: puedes mirarla.",
    "err.over": "La partida ha terminado.", "err.not_playing": "La partida aún no ha empezado.",
    "err.not_seated": "Los espectadores solo pueden mirar: siéntate para jugar.",
    "err.rate_limited": "Demasiadas peticiones: vuelve a intentarlo dentro de {n} s.",
    "err.internal": "El servidor no ha podido atender la petición; la partida sigue.",
    "exit": "{result} ({reason}), {score} puntos{kept}", "exit.won": "ganada", "exit.lost": "perdida",
    "exit.kept": ", en el Diario BDT como partida {id}",
}

TEXTS: dict[str, dict[str, str]] = {"en": EN, "es": ES}


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
