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
from fusegame.constraints import EMPTY
from fusegame.dice import COLOURS, type_face
from fusegame.env.encode import VERSION, Encoder, card_feature_names, card_features
from fusegame.env.reference import reference
from fusegame.rules.state import GameState

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


def what_a_seat_sees(g: GameState, seat: int, names: list[str], hand: int) -> dict[str, float]:
    """Features of ``seat``'s vector worked out from the state itself, by name: the turn, the deck
    and the bag, each seat's dice taken and cards, the dice on the cards in view, the roll and the
    unused dice (what changes from one step to the next)."""
    n, colours = g.players, g.dice.colours
    out = {"globals.turn": min(g.turn, 100) / 100, "globals.deck": min(len(g.deck), 120) / 120,
           "globals.bag": len(g.bag) / len(colours)}
    for c, letter in zip(COLOURS, "RBGYK"):
        out[f"globals.bag.{letter}"] = sum(1 for d in g.bag if colours[d] & c) / len(colours)
    for k in range(n):
        s = (seat + k) % n
        out[f"seats.{k + 1}.taken"] = min(g.taken[s], g.seat_quota(s)) / max(1, g.seat_quota(s))
        for h in range(hand):
            at = f"cards.seat{k + 1}.hand{h + 1}"
            hc = g.hands[s][h] if h < len(g.hands[s]) else None
            out[f"{at}.present"] = float(hc is not None)
            for i, t in enumerate(hc.types if hc is not None else ()):
                out[f"{at}.slot{i + 1}.filled"] = float(t != EMPTY)
                out[f"{at}.slot{i + 1}.die.face"] = type_face(t) / 6 if t != EMPTY else 0.0
    for r in range(sum(1 for x in names if x.startswith("rolled.") and x.endswith(".present"))):
        d = g.rolled[r] if r < len(g.rolled) else None
        out[f"rolled.{r + 1}.present"] = float(d is not None)
        out[f"rolled.{r + 1}.free"] = float(d is not None and d in g.free)
        for f in range(1, 7):
            out[f"rolled.{r + 1}.face.{f}"] = float(d is not None and g.faces[d] == f)
        u = g.unused[r] if r < len(g.unused) else None
        out[f"unused.{r + 1}.present"] = float(u is not None)
        for f in range(1, 7):
            out[f"unused.{r + 1}.face.{f}"] = float(u is not None and g.faces[u] == f)
    return out


@pytest.mark.parametrize("options", [
    {"players": 1}, {"players": 4}, {"game": "countdown", "players": 1},
    {"game": "countdown", "players": 2, "difficulty": "expert"},
    {"game": "countdown", "players": 3, "difficulty": "expert"},
], ids=["fuse-1", "fuse-4", "countdown-1", "countdown-2-expert", "countdown-3-expert"])
def test_each_step_observation_is_a_fresh_encoders_and_stays_as_given(options: dict[str, object]) -> None:
    """The encoder rewrites only what changed since a seat's last observation: at every step of
    whole random games, what each seat is given equals what a new encoder gives for the position
    (seats that act seldom too) and says what the state says, and a vector already given never
    changes afterwards."""
    for seed in range(2):
        env = fenv.raw_env(**options)
        env.reset(seed=seed)
        m = env.match
        names = m.encoder.layout.feature_names()
        place = {name: i for i, name in enumerate(names)}
        rng = np.random.default_rng(seed)
        given: list[tuple[np.ndarray, bytes]] = []
        step = 0
        while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            agent = env.agent_selection
            obs = env.observe(agent)
            seats = range(m.players) if step % 5 == 0 else [env._seat[agent]]
            for seat in seats:
                vector = obs["observation"] if seat == env._seat[agent] else m.observe(seat, False)
                fresh = Encoder(m.config, m.table).encode(m.state, seat, seat == env._seat[agent])
                assert np.array_equal(vector, fresh), (seed, step, seat)
                for name, value in what_a_seat_sees(m.state, seat, names, m.encoder.hand).items():
                    assert vector[place[name]] == np.float32(value), (seed, step, seat, name)
                given.append((vector, vector.tobytes()))
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            step += 1
        assert m.state.is_over and step > 20
        assert all(vector.tobytes() == kept for vector, kept in given)
