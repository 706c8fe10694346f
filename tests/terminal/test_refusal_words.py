"""The terminal says refusals and the game's end in its own language (``--lang es``)."""

from __future__ import annotations

from fusegame.terminal.render import notice_line
from fusegame.terminal.table import Table
from fusegame.terminal.texts import Words, exit_line, refusal_line

ILLEGAL = {"type": "error", "code": "illegal", "message": "you may take at most 2 dice a turn",
           "reason": "quota", "params": {"n": 2}}


def test_a_refusal_of_the_rules_is_worded_from_its_code() -> None:
    spanish = "Ahora no es posible: puedes coger como mucho 2 dados por turno"
    assert refusal_line(ILLEGAL, Words("es")) == spanish
    assert refusal_line(ILLEGAL, Words("en")) == "Not possible now: you may take at most 2 dice a turn"
    # a code the catalogue does not know keeps the server's English line
    odd = {**ILLEGAL, "reason": "brand_new", "message": "something new"}
    assert refusal_line(odd, Words("es")) == "Ahora no es posible: something new"
    # the server's own refusals, by their reason or code
    limited = {"type": "error", "code": "rate_limited", "message": "too many actions: wait 3 s",
               "reason": "rate_limited", "params": {"retry_after": 3}}
    assert "3 s" in refusal_line(limited, Words("es")) and "Demasiadas" in refusal_line(limited, Words("es"))
    seated = {"type": "error", "code": "not_seated", "message": "spectators can only watch"}
    assert refusal_line(seated, Words("es")).startswith("Los espectadores")
    assert refusal_line({"type": "error", "code": "x", "message": "as sent"}, Words("es")) == "as sent"


def test_the_table_shows_the_refusal_in_its_language() -> None:
    t = Table()
    t.feed(ILLEGAL)
    assert "puedes coger como mucho 2 dados" in notice_line(t, Words("es"))
    t.error = "The connection to the server was lost"  # not the frame's line: said as it is
    assert "connection" in notice_line(t, Words("es"))


def test_the_exit_line_is_in_the_screen_s_language() -> None:
    won = {"won": True, "reason": "bombs-defused", "score": {"total": 23}}
    assert exit_line(won, 7, "es") == ("ganada (todas las bombas desactivadas), 23 puntos, en el Diario BDT "
                                       "como partida 7")
    assert exit_line(won, None, "en") == "won (every bomb defused), score 23"
    lost = {"won": False, "reason": "time-up", "score": {"total": 4}}
    assert exit_line(lost, None, "es") == "perdida (se acabó el tiempo), 4 puntos"
