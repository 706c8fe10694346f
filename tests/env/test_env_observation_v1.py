"""Version 1 of the observation: what an agent can tell apart, and how users reach the environments.

Every card of both catalogues must encode to its own vector, and the vector must say what the
card asks for (a slot that asks for red says red, not every colour; relations and equations say
which slots they bind), as it lies in front of a seat in a real game."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import fusegame.env as fenv
from fusegame.cards.catalogue import builtin_catalogue
from fusegame.env.encode import VERSION, card_feature_names, card_features
from fusegame.env.reference import reference

CATALOGUE = builtin_catalogue()
CARDS = {c.id: c for c in [*CATALOGUE.bombs, *CATALOGUE.sparks]}
NAMES = [n for n, _ in card_feature_names(6)]


def features(card_id: str) -> dict[str, float]:
    return {n: float(v) for n, v in zip(NAMES, card_features(CARDS[card_id], 6), strict=True) if v}


@pytest.mark.parametrize("card_set", ["fuse", "countdown"])
def test_every_catalogue_card_encodes_to_its_own_vector(card_set: str) -> None:
    cards = [c for c in CARDS.values() if c.set == card_set]
    seen: dict[bytes, str] = {}
    for c in cards:
        key = card_features(c, 6).tobytes()
        assert key not in seen, f"{c.id} ({c.notation}) encodes as {seen[key]} ({CARDS[seen[key]].notation})"
        seen[key] = c.id
    assert len(seen) == len(cards) > 50


def test_cards_of_the_two_sets_encode_alike_only_when_their_rules_are_the_same() -> None:
    # Countdown reprints some of FUSE's cards (C01 is F01): those are the same card in play
    seen: dict[bytes, str] = {}
    for c in CARDS.values():
        key = card_features(c, 6).tobytes()
        if key in seen:
            other = CARDS[seen[key]]
            same = (c.notation, c.points, c.kind) == (other.notation, other.points, other.kind)
            assert same, (c.id, other.id)
        seen[key] = c.id


def test_a_card_says_what_each_slot_asks_for() -> None:
    # F34 "R R B B" and F36 "stack: % =c % =c % < #" encoded alike in version 0
    plain, stack = features("F34"), features("F36")
    assert plain["slot1.alt1.R"] and not any(plain.get(f"slot1.alt1.{c}") for c in "BGYK")
    assert plain["slot3.alt1.B"] and plain["layout.row"] and "rel.1.2.same_colour" not in plain
    assert stack["layout.stack"] and stack["slot1.icon.colour"] and stack["slot4.icon.number"]
    assert stack["rel.1.2.same_colour"] and stack["rel.3.4.lt"]
    # the stack's relations, each pair once, "a > b" written as "b < a"
    rels = sorted(n for n in stack if n.startswith("rel."))
    assert rels and all(int(n.split(".")[1]) < int(n.split(".")[2]) for n in rels)
    # an equation names the slots it adds and subtracts and its constant
    equations = [c for c in CARDS.values() if any(
        type(a).__name__ == "Comparison" for cl in c.shape.clauses for a in cl.alts)]
    assert equations
    eq = features(equations[0].id)
    assert eq["clause1.alt1.equation"] and any(n.startswith("clause1.alt1.expr") for n in eq)


def test_the_cards_in_front_of_a_seat_are_in_its_observation() -> None:
    env = fenv.raw_env(game="countdown", players=3, difficulty="expert")
    env.reset(seed=5)
    g = env.match.state
    layout = env.match.encoder.layout
    names = layout.feature_names()
    for seat in range(3):
        obs = env.observe(f"player_{seat}")["observation"]
        for k in range(3):
            s = (seat + k) % 3
            for h, hc in enumerate(g.hands[s][:layout.hand]):
                start = names.index(f"cards.seat{k + 1}.hand{h + 1}.present")
                block = obs[start:start + len(NAMES)]
                static = card_features(g.bomb(hc.card), env.match.table.slots)
                icons = [i for i, n in enumerate(NAMES)
                         if ".icon." in n or ".alt" in n or n.startswith("rel.")]
                assert np.array_equal(block[icons], static[icons]), (seat, s, hc.card)


def test_the_state_is_the_public_table_with_who_holds_the_initiative() -> None:
    env = fenv.raw_env(players=3)
    env.reset(seed=2)
    state = env.state()
    assert env.state_space.contains(state)
    assert np.array_equal(state[:env.match.encoder.size], env.observe("player_0")["observation"]
                          if env.agent_selection == "player_0" else env.match.encoder.encode(
                              env.match.state, 0, False))
    holder = int(env.agent_selection.split("_")[1])
    assert state[env.match.encoder.size + holder] == 1.0 and state[env.match.encoder.size:].sum() == 1.0


@pytest.mark.parametrize("order", [
    "import fusegame, gymnasium; gymnasium.make('fusegame/Fuse-v1')",
    "import gymnasium, fusegame; gymnasium.make('fusegame/Fuse-v1')",
    "import gymnasium; gymnasium.make('fusegame.env:fusegame/Fuse-v1')",
], ids=["fusegame-first", "gymnasium-first", "module-id"])
def test_the_gymnasium_id_works_as_users_write_it(order: str) -> None:
    code = f"{order}; import sys; print('ok')"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_old_version_is_named_for_what_replaced_it() -> None:
    import gymnasium

    with pytest.raises(gymnasium.error.DeprecatedEnv, match="Fuse-v1"):
        gymnasium.make("fusegame/Fuse-v0")
    assert fenv.GYM_ID == f"fusegame/Fuse-v{VERSION}"
    assert fenv.raw_env().metadata["name"] == f"fuse_v{VERSION}"


def test_the_observation_reference_page_is_the_encoders_own() -> None:
    page = Path(__file__).resolve().parents[2] / "docs" / "rl_observation.md"
    assert page.read_text() == reference(), "run: python -m fusegame.env.reference > docs/rl_observation.md"
