"""A kind of decision a rule declares where it gives it (``DecisionSpec`` on a fuse effect's row)
joins the clients' table, and every client answers it without a handler of its own: the bots and
the hints by its default verbs, the hint's words from the catalogue in both languages."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from fusegame.bots.hints import _Hinter
from fusegame.bots.team import TeamPlanner
from fusegame.rules import GameConfig
from fusegame.rules.actions import Done, Place
from fusegame.rules.decision_kinds import KINDS, DecisionKind, _declared, answer_declared, complete
from fusegame.rules.decisions import ORDER, Decision, DecisionSpec, settle_before
from fusegame.rules.state import new_game
from fusegame.words import hint_reason, hint_text


@pytest.fixture
def zap() -> Iterator[DecisionKind]:
    """A made-up declared kind, answered by placing a die or, by default, by saying done."""
    kind = _declared(DecisionSpec("zap", "each", ("place", "done"), default=("done",)))
    KINDS["zap"] = kind
    try:
        yield kind
    finally:
        del KINDS["zap"]


def test_a_declared_kind_needs_no_handler_but_a_table_kind_does(zap: DecisionKind) -> None:
    handlers = {k: 0 for k in KINDS if k != "zap"}
    assert complete(handlers, "t") is handlers
    del handlers["take"]
    with pytest.raises(TypeError, match=r"no handler for decision kinds \['take'\]"):
        complete(handlers, "t")
    assert zap.declared and zap.words == "zap" and not zap.timed


def test_a_declared_kind_is_answered_by_its_default_verbs(zap: DecisionKind) -> None:
    g = new_game(GameConfig(players=2), 3)
    seat = next(iter(g.to_act()))
    assert answer_declared(g, seat, "zap") == Done(seat, g.time_ms)
    KINDS["zap"] = _declared(DecisionSpec("zap", "each", ("place", "done")))
    first = answer_declared(g, seat, "zap")
    assert isinstance(first, Place), "with no default, the first of its verbs in the engine's order"


def test_the_hint_for_a_declared_kind_says_its_action_in_both_languages(zap: DecisionKind) -> None:
    g = new_game(GameConfig(players=2), 3)
    seat = next(iter(g.to_act()))
    hint = _Hinter(g, TeamPlanner()).one(seat, Decision("zap"))
    assert hint.action == Done(seat, g.time_ms) and hint.advice["kind"] == "act"
    assert hint_text(hint.advice) == "Say you are done"
    assert hint_text(hint.advice, lang="es") == "Di que has terminado"
    assert "no advice of their own" in hint_reason(hint.advice)
    assert "consejo propio" in hint_reason(hint.advice, lang="es")


def test_a_new_pending_item_declares_its_place_in_the_queue() -> None:
    before = list(ORDER)
    try:
        settle_before("zap", "spark_draws")
        assert ORDER == [*before[:3], "zap", *before[3:]]
        with pytest.raises(ValueError, match="already has its place"):
            settle_before("zap", "refill")
    finally:
        ORDER[:] = before
