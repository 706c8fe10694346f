"""Per-seat observations: public information only, legal actions included; the text picture."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fusegame.cards import load_catalogue
from fusegame.observe import observation, render_text
from fusegame.rng import Rng
from fusegame.rules import GameConfig, GameState, Phase, new_game
from fusegame.rules.actions import with_time

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
        (lv, len(cards), cards[-1]) for lv, cards in sorted(state.stacks.items())]
    text = json.dumps(view)
    for cards in state.stacks.values():
        for c in cards[:-1]:  # cards under the tops are not shown
            assert f'"{c}"' not in text
    assert view["fuse_deck_size"] == len(state.fuse_deck)
    for f in state.fuse_deck:
        assert f'"{f}"' not in text


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
