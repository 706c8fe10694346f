"""The declared table of decision kinds (``rules.decision_kinds``) and the clients that read it.

Every kind the engine gives, in random games of every variant, is in the table; and every client
that treats kinds differently has an entry for every kind of the table: the bots' and the hints'
dispatch, the server's choice timers (I-11), the observation vector, the action table, the
terminal's words and the page's (which gets the table from ``GET /api/options``).
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from fusegame.bots import greedy, hints, team
from fusegame.env.actions import ActionTable
from fusegame.env.encode import DECISION_KINDS, kind_index
from fusegame.rng import Rng
from fusegame.rules import GameConfig
from fusegame.rules.actions import ACTIONS, Done
from fusegame.rules.decision_kinds import KINDS, DecisionKind, Who, complete, kind_of, table_data
from fusegame.rules.state import new_game
from fusegame.server.options import option_choices
from fusegame.terminal.texts import TEXTS
from fusegame.words import catalogue
from game_variants import ALL, Variant

STATIC = Path(__file__).resolve().parents[2] / "src" / "fusegame" / "web" / "static"

#: the kinds in the order the observation vector has one-hot them since it was laid out: a new kind
#: is appended (the vector grows by one), never inserted
OBSERVED = ("distribute", "take", "give_up", "reroll", "name", "roll_six", "role", "return")

#: the kinds that one ``to_act()`` may give together (each step gives its own kinds): the bots
#: answer the first seat whose kind is answered at once, which relies on "take" being the only
#: such kind beside placing dice and the role
TOGETHER = {"distribute", "take", "role"}


# ====================================================================== the table itself
def test_every_kind_is_declared_whole() -> None:
    assert tuple(KINDS)[:len(OBSERVED)] == OBSERVED
    for name, k in KINDS.items():
        assert isinstance(k, DecisionKind) and k.name == name and isinstance(k.who, Who)
        assert k.verbs and set(k.verbs) <= set(ACTIONS), f"{name}: verbs {k.verbs}"
        assert k.words, name
        # a timed choice has a default among its own verbs; an untimed kind has neither
        assert bool(k.default) == k.timed and set(k.default) <= set(k.verbs), name
        assert not k.alone or k.timed, name
        assert kind_of(name) is k
    with pytest.raises(KeyError, match="unknown decision kind"):
        kind_of("juggle")


def test_complete_refuses_a_dispatch_that_misses_a_kind() -> None:
    handlers = dict.fromkeys(KINDS, 0)
    assert complete(handlers, "t") is handlers
    with pytest.raises(TypeError, match="no handler for decision kinds .'role'."):
        complete({k: 0 for k in KINDS if k != "role"}, "t")
    with pytest.raises(TypeError, match="unknown kinds .'juggle'."):
        complete({**handlers, "juggle": 0}, "t")


# ====================================================================== what the engine gives
def _games(v: Variant) -> list[GameConfig]:
    return [GameConfig(players=p, game=v.game, modules=v.modules)
            for p in sorted({v.fewest(1), v.fewest(2), v.fewest(4)}) if v.seats(p)]


@cache
def _played(variant: Variant) -> frozenset[str]:
    """Random games of ``variant`` (a few seeds, 1, 2 and 4 players where it seats them), every
    position checked against the table; the kinds they gave."""
    seen: set[str] = set()
    for config in _games(variant):
        for seed in range(6):
            g, rng, clock, turn = new_game(config, seed), Rng(seed), 0, 0
            for _ in range(2500):
                if g.is_over:
                    break
                decisions = g.to_act()
                kinds = {d.kind for d in decisions.values()}
                assert len(kinds) == 1 or kinds <= TOGETHER, kinds
                for seat, dec in decisions.items():
                    k = KINDS.get(dec.kind)
                    assert k is not None, f"{variant}: the engine gives {dec.kind!r}, not in the table"
                    if k.who is Who.LEADER:
                        assert seat == g.leader, (dec.kind, seat, g.leader)
                    verbs = {a.verb for a in g.legal_actions(seat)}
                    assert verbs & set(k.verbs), (dec.kind, verbs)
                    assert verbs <= {v for kk in KINDS.values() for v in kk.verbs}, verbs
                    seen.add(dec.kind)
                acts = [a for a in g.legal_actions() if not isinstance(a, Done)] or g.legal_actions()
                if g.turn != turn:
                    turn, clock = g.turn, clock + 15_000
                g.apply(replace(acts[rng.below(len(acts))], at=max(clock, g.time_ms)))
    return frozenset(seen)


@pytest.mark.parametrize("variant", [pytest.param(v, id=str(v)) for v in ALL])
def test_every_kind_the_engine_gives_is_in_the_table(variant: Variant) -> None:
    assert "distribute" in _played(variant)


def test_every_kind_of_the_table_is_given_in_some_game() -> None:
    seen = set().union(*(_played(v) for v in ALL))
    assert seen == set(KINDS), sorted(set(KINDS) - seen)


# ====================================================================== the clients
@pytest.mark.parametrize("dispatch", [greedy._AT_ONCE, team._AT_ONCE, hints._HINTS],
                         ids=["greedy", "team", "hints"])
def test_the_bots_and_the_hints_answer_every_kind(dispatch: dict[str, object]) -> None:
    # a kind a rule declares where it gives it is answered by ``answer_declared`` (see
    # test_declared_kinds.py); every kind of the table itself has a handler of its own
    assert set(dispatch) == {name for name, k in KINDS.items() if not k.declared}
    assert set(dispatch) >= set(OBSERVED)


def test_the_server_s_timers_and_the_page_read_the_table() -> None:
    # the room's timers read ``timed``, ``alone`` and ``default``; the page gets the table whole
    assert option_choices()["decision_kinds"] == table_data()
    assert set(table_data()) == set(KINDS)
    assert {k for k, d in KINDS.items() if d.timed} == {"give_up", "reroll", "return"}


def test_the_observation_has_a_place_for_every_kind_and_refuses_others() -> None:
    assert DECISION_KINDS == tuple(KINDS)
    assert [kind_index(k) for k in KINDS] == list(range(len(KINDS)))
    with pytest.raises(ValueError, match="juggle"):
        kind_index("juggle")


def test_the_action_table_has_a_template_for_every_verb_that_answers_a_kind() -> None:
    table = ActionTable.for_config(GameConfig(players=4, game=ALL[0].game, modules=ALL[-1].modules))
    templates = {table.describe(i).split()[0] for i in range(table.size)}
    for name, k in KINDS.items():
        assert set(k.verbs) <= templates, (name, set(k.verbs) - templates)


@pytest.mark.parametrize("lang", sorted(TEXTS))
def test_the_terminal_has_words_for_every_kind(lang: str) -> None:
    for k in KINDS.values():
        assert f"your.{k.words}" in TEXTS[lang], (lang, k.name)


def test_the_page_has_words_for_every_kind_and_reads_the_table() -> None:
    # the page's words are the catalogue's (words/en.json, es.json, fetched by i18n.js)
    for k in KINDS.values():
        for prefix in ("yourTurn", "decide"):
            for lang in ("en", "es"):
                assert f"{prefix}.{k.words}" in catalogue(lang), f"{lang}.json: {prefix}.{k.words}"
    table = (STATIC / "table.js").read_text(encoding="utf-8")
    # the page names no kind itself: it reads ``timed`` and ``words`` from the table
    assert "this.decisionKinds" in table and "kindOf(" in table
    assert not re.search(r"\b(mine|decision)\.kind\s*[!=]==", table), "table.js compares kinds"
    assert not re.search(r"\[\s*'(give_up|reroll|return)'", table), "table.js lists kinds: read the table"
    assert "o.decision_kinds" in (STATIC / "play.js").read_text(encoding="utf-8")
