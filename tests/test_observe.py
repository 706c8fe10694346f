"""Per-seat observations: public information only, legal actions included; the text picture."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import make_countdown_config, six_seats
from fusegame.cards import load_catalogue
from fusegame.observe import observation, render_text
from fusegame.rng import Rng
from fusegame.rules import GameConfig, GameState, GiveUp, Phase, Place, new_game
from fusegame.rules.actions import Defuse, Name, Recolour, with_time
from fusegame.scenario import scenario_from_text

DATA = Path(__file__).resolve().parent / "data"
MINI = load_catalogue(DATA / "mini_cards.toml")


def config(**kw: object) -> GameConfig:
    kw.setdefault("cards", MINI)
    return GameConfig(**kw)  # type: ignore[arg-type]


def advance(state: GameState, steps: int, seed: int = 1) -> GameState:
    rng = Rng(seed)
    t = state.time_ms
    for _ in range(steps):
        if state.is_over:
            break
        acts = state.legal_actions()
        t += 700
        state.apply(with_time(acts[rng.below(len(acts))], t))
    return state


def hidden_variant(state: GameState) -> GameState:
    """The same public position: another deck order, another generator state, other bag faces."""
    other = state.clone()
    other.deck.reverse()
    other.deck = other.deck[1:] + other.deck[:1]
    other.rng = Rng(123456789)
    on_table = set(other.rolled) | {d for hand in other.hands for hc in hand for d in hc.dice}
    for d in other.bag:
        if d not in on_table:
            other.faces[d] = 7 - other.faces[d]
    return other


@pytest.mark.parametrize("steps", [0, 15, 40])
def test_deck_order_and_rng_do_not_show(steps: int) -> None:
    state = advance(new_game(config(players=3), seed=21), steps)
    other = hidden_variant(state)
    assert other.deck != state.deck and other.rng.state != state.rng.state
    assert other != state  # the full states differ...
    for seat in range(3):
        assert observation(other, seat) == observation(state, seat)  # ...the views do not
    assert render_text(other) == render_text(state)


def test_observation_has_no_hidden_card_ids_or_rng() -> None:
    state = advance(new_game(config(players=4), seed=3), 25)
    view = observation(state, 2)
    text = json.dumps(view)  # JSON-ready
    for card in state.deck:  # no bomb or fuse card of the face-down deck is named
        assert f'"{card}"' not in text and f" {card}" not in text
    assert "rng" not in view and "deck" not in view
    assert str(state.rng.state) not in text
    assert view["deck_size"] == len(state.deck)
    fuses_in_deck = [c for c in state.deck if c.startswith("MZ")]
    assert view["fuse_cards_not_gone_off"] >= len(fuses_in_deck)


def test_observation_contents() -> None:
    state = new_game(config(players=3), seed=8)
    view = observation(state, 1)
    assert view["seat"] == 1 and view["players"] == 3
    assert view["phase"] == Phase.DISTRIBUTE.value
    assert view["legal_actions"] == [str(a) for a in state.legal_actions(1)]
    assert view["legal_actions"] and all(a.startswith("p1 ") for a in view["legal_actions"])
    assert [c["id"] for c in view["row"]] == state.row
    assert [[c["id"] for c in h["cards"]] for h in view["hands"]] == [[hc.card for hc in hand]
                                                                     for hand in state.hands]
    assert [d["id"] for d in view["rolled"]] == state.rolled
    assert sum(view["bag"].values()) == len(state.bag) == view["bag_size"]
    assert set(view["bag"]) == {"R", "B", "G", "Y", "K"}
    assert view["to_act"] == {str(s): {"kind": d.kind, "options": list(d.options)}
                              for s, d in state.to_act().items()}
    assert view["time_left_ms"] == 600_000 and view["outcome"] is None
    assert view["score"]["total"] == 0
    assert observation(state, 0)["legal_actions"] != view["legal_actions"]


def test_dice_on_cards_are_public() -> None:
    state = advance(new_game(config(players=2), seed=4), 12)
    view = observation(state, 0)
    for s, hand in enumerate(state.hands):
        for hc, card in zip(hand, view["hands"][s]["cards"]):
            labels = [None if d is None else d["die"] for d in card["dice"]]
            assert labels == [None if d < 0 else state.die_label(d) for d in hc.dice]


def test_finished_game_shows_outcome_and_score() -> None:
    state = advance(new_game(config(players=2, time_limit=30), seed=6), 500)
    assert state.is_over and state.outcome is not None
    view = observation(state, 0)
    assert view["outcome"] == state.outcome.to_dict()
    assert view["score"] == state.outcome.score.to_dict()
    assert view["legal_actions"] == [] and view["to_act"] == {}
    assert "Game over" in render_text(state)


def test_stacks_setup_shows_tops_and_sizes_only() -> None:
    state = new_game(config(players=2, setup="stacks"), seed=2)
    view = observation(state, 0)
    assert view["row"] == []
    assert [(s["level"], s["size"], s["top"]["id"]) for s in view["stacks"]] == [
        (lv, len(cards), cards[-1]) for lv, cards in sorted(state.stacks.piles.items())]
    text = json.dumps(view)
    for cards in state.stacks.piles.values():
        for c in cards[:-1]:  # cards under the tops are not shown
            assert f'"{c}"' not in text
    assert view["fuse_deck_size"] == len(state.stacks.fuses)
    for f in state.stacks.fuses:
        assert f'"{f}"' not in text


GIVE_UP = """
config: {players: 2}
players:
  - [{id: X1, notation: "? ? ?", dice: [R1, R2]}]
  - [F10]
row: [F01]
deck: [F02]
removals: {0: [R1, R2]}
"""


@pytest.mark.parametrize(("extra", "cause", "words"), [
    ("fuses_activated: [FZR]\nremoval_cause: {kind: fuse, card: FZR}\n",
     {"kind": "fuse", "card": "FZR", "shows": ["R"]}, "fuse card R"),
    ("phase: penalty\nunused: [B4]\nremoval_cause: {kind: penalty, die: R4}\n",
     {"kind": "penalty", "die": {"id": None, "die": "R4", "colours": "R", "face": 4, "as": None}},
     "unused die R4"),
], ids=["fuse", "penalty"])
def test_dice_to_give_up_come_with_their_cause(extra: str, cause: dict[str, object], words: str) -> None:
    state = scenario_from_text(GIVE_UP + extra)
    for seat in range(2):
        view = observation(state, seat)
        assert view["removal_cause"] == cause and view["parts"] == ["penalty"]
        assert view["to_act"] == {"0": {"kind": "give_up", "options": list(state.hands[0][0].dice[:2])}}
    assert f"To act: P1 give_up ({words})" in render_text(state)
    state.apply(GiveUp(0, None, state.hands[0][0].dice[0]), chance=False)
    assert observation(state, 0)["removal_cause"] is None


def test_a_player_with_no_spark_to_draw_gives_up_a_die_for_no_spark() -> None:
    state = scenario_from_text("""
config: {game: countdown, players: 2}
builtin_cards: false                 # no spark card in the game: none is left to draw
players:
  - [{notation: "? ? ?", dice: [R1, B2]}]
  - ["? ?"]
row: ["? ?"]
spark_deck: []
phase: sparks
unused: [G3]
spark_queue: [0]
""")
    view = observation(state, 1)
    assert view["removal_cause"] == {"kind": "no_spark"} and view["to_act"]["0"]["kind"] == "give_up"
    assert set(view["parts"]) == {"sparks", "roles", "step3"}
    assert "To act: P1 give_up (no spark card left)" in render_text(state)


def test_bad_seat() -> None:
    state = new_game(config(players=2), seed=1)
    with pytest.raises(ValueError, match="no seat 2"):
        observation(state, 2)


def test_render_text_pictures_the_table() -> None:
    state = advance(new_game(config(players=3), seed=9), 5)
    text = render_text(state)
    lines = text.splitlines()
    assert len(lines) > 8
    assert f"turn {state.turn}" in lines[0]
    for c in state.row:
        assert c in text
    for s in range(3):
        assert f"P{s + 1}:" in text
        for hc in state.hands[s]:
            assert hc.card in text
    assert f"Bag: {len(state.bag)} dice" in text


# ====================================================================== Countdown's parts
def countdown(**kw: object) -> GameConfig:
    """A game with Countdown's cards (built-in, or the test deck until they exist); untimed unless
    asked, so that searches are not cut short by the clock."""
    kw.setdefault("time_limit", None)
    kw.setdefault("game", "countdown")
    return make_countdown_config(**kw)  # type: ignore[no-any-return]


def reach(config: GameConfig, pred: Callable[[GameState], bool], seeds: range = range(1, 30),
          max_steps: int = 3000) -> GameState:
    """The first position (over the seeds, in order) of a placement-loving random game where
    ``pred`` holds."""
    for seed in seeds:
        state = new_game(config, seed)
        rng = Rng(seed)
        t = 0
        for _ in range(max_steps):
            if pred(state):
                return state
            if state.is_over:
                break
            acts = list(state.legal_actions())
            eager = [a for a in acts if isinstance(a, (Place, Defuse))]
            pool = eager if eager and rng.below(10) else acts
            t += 300
            state.apply(with_time(pool[rng.below(len(pool))], t))
    raise AssertionError("no game reached the position")


def test_sparks_and_the_spark_piles_are_shown() -> None:
    state = reach(countdown(players=3), lambda g: len(g.sparks.discard) >= 2 and g.sparks_in_play() >= 2)
    view = observation(state, 0)
    assert view["version"] == 3 and view["game"] == "countdown" and view["sparks_in_game"]
    for s, hand in enumerate(state.hands):
        seen = view["hands"][s]
        assert seen["sparks"] == sum(state.is_spark(hc.card) for hc in hand)
        assert [c["kind"] for c in seen["cards"]] == ["spark" if state.is_spark(hc.card) else "bomb"
                                                      for hc in hand]
        assert seen["duds"] == state.sparks.duds[s]
    assert sum(h["sparks"] for h in view["hands"]) == state.sparks_in_play() >= 2
    assert view["spark_deck_size"] == len(state.sparks.deck)
    assert [c["id"] for c in view["spark_discard"]] == state.sparks.discard  # face up: public
    assert all(c["kind"] == "spark" and c["points"] == 0 for c in view["spark_discard"])
    assert view["sparks_defused"] == len(state.sparks.defused)
    assert view["score"]["total"] == sum(state.bomb(c).points for c in state.score_pile) + 2 * len(
        state.sparks.defused) + 2 * len(state.fuses_activated)
    text = render_text(state)
    assert text.splitlines()[0].startswith("FUSE: Countdown · 3 players")
    assert (f"Sparks: deck {len(state.sparks.deck)} · discard {len(state.sparks.discard)} "
            f"(top {state.sparks.discard[-1]}) · in play {state.sparks_in_play()}") in text
    spark = next(hc.card for hand in state.hands for hc in hand if state.is_spark(hc.card))
    assert f"{spark} (spark)" in text
    assert f"sparks defused: {len(state.sparks.defused)}" in text


def test_the_spark_deck_order_is_hidden() -> None:
    state = reach(countdown(players=2), lambda g: g.sparks_in_play() >= 1 and len(g.sparks.deck) > 3)
    other = state.clone()
    other.sparks.deck.reverse()
    assert other != state
    for seat in range(2):
        assert observation(other, seat) == observation(state, seat)
    assert render_text(other) == render_text(state)
    text = json.dumps(observation(state, 0))
    for card in state.sparks.deck:
        assert f'"{card}"' not in text


def test_roles_face_up_and_down_and_the_active_ability() -> None:
    state = new_game(countdown(players=4), 3)
    view = observation(state, 1)
    assert [r["id"] for r in view["roles"]] == state.roles.cards
    assert all(r["face_up"] for r in view["roles"])
    assert [r["name"] for r in view["roles"]] == [state.role(r).name for r in state.roles.cards]
    leader_role = state.role(state.roles.cards[state.leader])
    assert view["active_ability"] == leader_role.ability.value
    text = render_text(state)
    names = "  ".join(f"P{s + 1} {state.role(r).name}" for s, r in enumerate(state.roles.cards))
    assert "Roles: " + names in text
    assert f"Leader P{state.leader + 1}: {leader_role.name} active" in text
    down = state.clone()
    down.roles.up[down.leader] = False  # as after the "lose role ability" fuse card
    view = observation(down, 1)
    assert view["active_ability"] is None and not view["roles"][down.leader]["face_up"]
    text = render_text(down)
    assert f"P{down.leader + 1} {leader_role.name} (face down)" in text
    assert "no role ability this turn" in text
    fuse_only = observation(new_game(config(players=3), 1), 0)
    assert fuse_only["roles"] == [] and fuse_only["active_ability"] is None
    assert not fuse_only["sparks_in_game"] and fuse_only["spark_deck_size"] == 0


def test_a_named_colour_or_number_and_the_dice_it_frees() -> None:
    state = reach(countdown(players=2), lambda g: "name" in [d.kind for d in g.to_act().values()])
    before = observation(state, state.leader)
    assert before["named"] is None and before["to_act"][str(state.leader)]["kind"] == "name"
    assert "To act: P" in render_text(state) and " name" in render_text(state)
    value = state.to_act()[state.leader].options[0]
    state.apply(Name(state.leader, state.time_ms, value))
    view = observation(state, 0)
    assert view["named"] == value and view["role_eligible"] == state.roles.eligible
    assert f"named {value} (may change: " in render_text(state)


def test_temporary_colours_of_rolled_dice() -> None:
    state = reach(countdown(players=2), lambda g: any(isinstance(a, Recolour) for a in g.legal_actions()))
    act = next(a for a in state.legal_actions() if isinstance(a, Recolour))
    assert isinstance(act, Recolour)
    state.apply(act)
    view = observation(state, 1)
    die = next(d for d in view["rolled"] if d["id"] == act.die)
    assert die["as"] == act.colour and die["die"].endswith(f" as {act.colour}") and not die["placed"]
    assert all(d["as"] is None for d in view["rolled"] if d["id"] != act.die)
    assert view["role_dice"] == [act.die] and view["role_uses"] == 1
    assert f"(d{act.die} as {act.colour})" in render_text(state)


def test_the_roll_a_6_wait() -> None:
    state = reach(countdown(players=2, difficulty="expert", fuse_cards=10), lambda g: bool(six_seats(g)))
    view = observation(state, 0)
    assert view["must_roll_six"] == six_seats(state)
    assert [h["must_roll_six"] for h in view["hands"]] == [s in six_seats(state) for s in range(2)]
    assert {k: v["kind"] for k, v in view["to_act"].items()} == {str(s): "roll_six" for s in six_seats(state)}
    assert view["legal_actions"] == ([f"p0 roll @{state.time_ms}"] if 0 in six_seats(state) else [])
    text = render_text(state)
    assert "Everyone waits: " + ", ".join(f"P{s + 1}" for s in six_seats(state)) + " must roll a 6" in text


def test_face_down_cards_and_the_stopped_clock() -> None:
    state = reach(countdown(players=1), lambda g: any(g.sparks.duds))
    view = observation(state, 0)
    assert view["hands"][0]["duds"] == state.sparks.duds[0] != []
    text = render_text(state)
    assert "face down (need not be defused): " + " ".join(state.sparks.duds[0]) in text
    saved = reach(countdown(players=1, time_limit=3600), lambda g: g.step3.clock_stop is not None)
    view = observation(saved, 0)
    assert view["clock_stopped_ms"] == saved.step3.clock_stop
    assert view["time_left_ms"] == 3_600_000 - saved.step3.clock_stop
    assert "(clock stopped: the ship is saved)" in render_text(saved)


def test_fuse_cards_that_went_off_show_their_symbols_as_facts() -> None:
    g = scenario_from_text("config: {game: countdown, players: 2, difficulty: expert}\n"
                           "players: [[C10], [C11]]\nrow: [C01]\nfuses_activated: [fuse:R, fuse:spark]\n")
    view = observation(g, 0)
    symbol, text = view["fuses_activated"]
    assert symbol["effect"] == "symbol" and symbol["shows"] == ["R"]
    assert text == {"id": text["id"], "effect": "spark", "shows": []}  # no card text: the effect says it
