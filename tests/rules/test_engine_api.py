"""The engine's public API: determinism, typed errors with readable messages, time, Tick.

Every refusal is an ``IllegalAction`` subclass (a ``ValueError``) and leaves the state unchanged.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from conftest import make_config
from fusegame.rng import Rng
from fusegame.rules import (
    Action,
    BadTime,
    Done,
    GameOverError,
    GameState,
    GiveUp,
    IllegalAction,
    IllegalPlacement,
    NotYourDecision,
    Phase,
    Place,
    RerollUnused,
    RevealFuse,
    TakeCard,
    Termination,
    Tick,
    new_game,
)

LIMIT_MS = 600_000


def play_random(g: GameState, seed: int, steps: int, start_ms: int = 0, turn_ms: int = 15_000,
                prefer_place: bool = True) -> list[Action]:
    """Advance ``g`` by up to ``steps`` random legal actions (stamped with a moving clock)."""
    rng, clock, turn, done = Rng(seed), start_ms, g.turn, []
    for _ in range(steps):
        if g.is_over:
            break
        acts = g.legal_actions()
        if prefer_place:
            acts = [a for a in acts if not isinstance(a, Done)] or acts
        if g.turn != turn:
            turn, clock = g.turn, clock + turn_ms
        a = replace(acts[rng.below(len(acts))], at=max(clock, g.time_ms))
        g.apply(a)
        done.append(a)
    return done


def refuses(g: GameState, action: Action, error: type[IllegalAction], *words: str) -> str:
    """``action`` raises ``error`` whose message holds ``words``, and the state does not change."""
    before = json.dumps(g.to_dict(), sort_keys=True)
    with pytest.raises(error) as info:
        g.apply(action)
    msg = str(info.value)
    assert isinstance(info.value, ValueError)
    for w in words:
        assert w in msg, f"{w!r} not in {msg!r}"
    assert msg and msg[0].isalpha(), msg
    assert json.dumps(g.to_dict(), sort_keys=True) == before, "a refused action changed the state"
    return msg


# ----------------------------------------------------------------------------- determinism
@pytest.mark.parametrize("players", [1, 3, 5])
def test_same_config_and_seed_same_game_and_events(players: int) -> None:
    config = make_config(players=players)
    a, b = new_game(config, 42), new_game(config, 42)
    assert a == b
    rng = Rng(5)
    for _ in range(60):
        if a.is_over:
            break
        acts = a.legal_actions()
        assert acts == b.legal_actions()
        act = replace(acts[rng.below(len(acts))], at=a.time_ms + 2000)
        ev_a, ev_b = a.apply(act), b.apply(act)
        assert [e.to_dict() for e in ev_a] == [e.to_dict() for e in ev_b]
        assert [str(e) for e in ev_a] == [str(e) for e in ev_b]
        assert a == b


@pytest.mark.parametrize("options", [
    {"players": 3}, {"game": "countdown", "players": 3, "difficulty": "expert"},
    {"players": 4, "modules": ("roles", "bombs", "fuses", "sparks", "split-dice")}])
def test_a_state_that_does_not_listen_plays_the_same_game_and_reports_nothing(
        options: dict[str, object]) -> None:
    # the simulator plays with events off; its games must be the games everyone else sees
    config = make_config(**options)
    heard, quiet = new_game(config, 11), new_game(config, 11)
    quiet.listening = False
    rng, clock, turn, events = Rng(3), 0, 0, 0
    while not heard.is_over:
        acts = heard.legal_actions()
        assert acts == quiet.legal_actions()
        if heard.turn != turn:
            turn, clock = heard.turn, clock + 15_000
        act = replace(acts[rng.below(len(acts))], at=max(clock, heard.time_ms))
        events += len(heard.apply(act))
        assert quiet.apply(act) == []
        assert heard == quiet
    assert quiet.is_over and quiet.outcome == heard.outcome and events > 0


def test_games_from_one_configuration_share_card_tables_and_no_other_game_gets_them() -> None:
    # a simulation makes every game of a batch from one configuration: its card look-ups are built
    # once; a configuration that plays differently must never be handed another's tables
    config = make_config(players=3)
    a, b = new_game(config, 1), new_game(config, 2)
    assert a.compiled is b.compiled
    card = a.hands[0][0].card
    assert a.card_rules(card) is b.card_rules(card)
    again = new_game(make_config(players=3), 1)  # an equal configuration, another object
    assert again.compiled == a.compiled and again == a
    loose = new_game(make_config(players=3, feasibility=False), 1)
    assert loose.card_rules(card) is not a.card_rules(card)
    assert not loose.card_rules(card).feasibility and a.card_rules(card).feasibility
    countdown = new_game(make_config(game="countdown", players=3), 1)
    assert countdown.compiled.keys() != a.compiled.keys()


def test_different_seeds_differ() -> None:
    config = make_config(players=3)
    games = [json.dumps(new_game(config, s).to_dict(), sort_keys=True) for s in range(8)]
    assert len(set(games)) == len(games)
    setups = {(tuple(tuple(hc.card for hc in hand) for hand in g.hands), tuple(g.row))
              for g in (new_game(config, s) for s in range(8))}
    assert len(setups) > 1


def test_the_config_is_part_of_the_game() -> None:
    g = new_game(make_config(players=2, feasibility=False), 3)
    h = new_game(make_config(players=2), 3)
    assert g != h


# ----------------------------------------------------------------------------- typed errors
def first_illegal_placement(g: GameState, seat: int) -> Place | None:
    legal = set(g.legal_actions(seat))
    for d in g.unplaced():
        for hc in g.hands[seat]:
            for slot in range(len(hc.dice)):
                a = Place(seat, g.time_ms, d, hc.card, slot)
                if a not in legal and not hc.complete:
                    return a
    return None


def test_illegal_placement_is_refused_with_a_reason() -> None:
    for seed in range(20):
        g = new_game(make_config(players=3), seed)
        for seat in g.to_act():
            a = first_illegal_placement(g, seat)
            if a is not None:
                msg = refuses(g, a, IllegalPlacement, "cannot go on", a.card, f"slot {a.slot + 1}")
                assert ":" in msg  # "... cannot go on F07 slot 2: <why>"
                return
    pytest.fail("no illegal placement found in 20 games")


def test_placing_on_someone_elses_card_or_a_missing_slot() -> None:
    g = new_game(make_config(players=3), 7)
    seat = next(iter(g.to_act()))
    other = (seat + 1) % 3
    die = g.unplaced()[0]
    refuses(g, Place(seat, 0, die, g.hands[other][0].card, 0), IllegalPlacement, "not one of your cards")
    refuses(g, Place(seat, 0, die, "NOPE", 0), IllegalPlacement, "NOPE")
    card = g.hands[seat][0].card
    refuses(g, Place(seat, 0, die, card, 99), IllegalPlacement, "no slot 100")
    refuses(g, Place(seat, 0, 9999, card, 0), IllegalPlacement, "not available")
    in_bag = g.bag[0]
    refuses(g, Place(seat, 0, in_bag, card, 0), IllegalPlacement, "not available")


def test_wrong_seat() -> None:
    g = new_game(make_config(players=3), 7)
    refuses(g, Done(7, 0), NotYourDecision, "no seat 7")
    refuses(g, Done(-1, 0), NotYourDecision, "no seat -1")


def test_out_of_turn_take_and_reveal() -> None:
    g = new_game(make_config(players=3), 7)
    seat = next(iter(g.to_act()))
    refuses(g, TakeCard(seat, 0, g.row[0]), NotYourDecision, "no defused card")
    refuses(g, RevealFuse(seat, 0), NotYourDecision, "no defused card")
    refuses(g, GiveUp(seat, 0, 0), NotYourDecision)
    refuses(g, RerollUnused(seat, 0, g.unplaced()[0]), NotYourDecision)


def test_take_must_name_a_card_in_the_middle() -> None:
    for seed in range(30):
        g = new_game(make_config(players=2), seed)
        rng = Rng(seed)
        for _ in range(200):
            if g.is_over:
                break
            takes = [a for a in g.legal_actions() if isinstance(a, TakeCard)]
            if takes:
                t = takes[0]
                refuses(g, replace(t, card="NOT-IN-ROW"), NotYourDecision, "NOT-IN-ROW", "cannot be taken")
                other = (t.seat + 1) % 2
                if not any(isinstance(a, TakeCard) for a in g.legal_actions(other)):
                    refuses(g, replace(t, seat=other), NotYourDecision, "no defused card")
                g.apply(t)
                return
            acts = [a for a in g.legal_actions() if not isinstance(a, Done)] or g.legal_actions()
            g.apply(replace(acts[rng.below(len(acts))], at=g.time_ms + 500))
    pytest.fail("no defusal reached")


def test_done_twice_and_place_after_done() -> None:
    g = new_game(make_config(players=3), 11)
    seat = next(iter(g.to_act()))
    die = g.unplaced()[0]
    g.apply(Done(seat, 100))
    if g.phase is Phase.DISTRIBUTE:
        refuses(g, Done(seat, 200), NotYourDecision, "nothing left to decide")
        refuses(g, Place(seat, 200, die, g.hands[seat][0].card, 0), NotYourDecision,
                "already said you are done")


def test_players_cannot_act_during_a_chance_node() -> None:
    g = new_game(make_config(players=3), 2, chance=False)
    refuses(g, Done(0, 0), NotYourDecision, "rolled")


def test_time_going_backwards_is_bad_time() -> None:
    g = new_game(make_config(players=3), 7)
    g.apply(Tick(-1, 5000))
    seat = next(iter(g.to_act()))
    msg = refuses(g, Done(seat, 4999), BadTime, "4999", "5000")
    assert "before" in msg
    refuses(g, Tick(-1, 1000), BadTime)
    g.apply(Done(seat, 5000))  # the same instant is fine
    g.apply(Tick(-1, None))  # no time stamp: "now"
    assert g.time_ms == 5000


def test_action_at_or_past_the_time_limit_loses_on_time() -> None:
    for at in (LIMIT_MS, LIMIT_MS + 12_345):
        g = new_game(make_config(players=3), 7)
        seat = next(iter(g.to_act()))
        events = g.apply(Done(seat, at))
        assert [e.kind for e in events] == ["game_lost"], events  # the action itself is not performed
        assert g.outcome is not None and not g.outcome.won
        assert g.outcome.reason is Termination.TIME_UP and g.outcome.time_left_ms == 0
        assert g.time_ms == LIMIT_MS
        assert "time" in str(events[0])
        assert g.legal_actions() == [] and g.to_act() == {}
        with pytest.raises(GameOverError, match="over"):
            g.apply(Done(seat, at + 1))
        with pytest.raises(GameOverError):
            g.apply(Tick(-1, at + 1))


def test_just_before_the_limit_is_still_in_time() -> None:
    g = new_game(make_config(players=3), 7)
    seat = next(iter(g.to_act()))
    g.apply(Done(seat, LIMIT_MS - 1))
    assert not g.is_over and g.time_ms == LIMIT_MS - 1


def test_game_over_error_is_an_illegal_action() -> None:
    assert issubclass(GameOverError, IllegalAction) and issubclass(IllegalAction, ValueError)
    for cls in (BadTime, IllegalPlacement, NotYourDecision):
        assert issubclass(cls, IllegalAction)


# ----------------------------------------------------------------------------- Tick and time
def test_tick_moves_time_and_nothing_else() -> None:
    g = new_game(make_config(players=3), 7)
    before = g.to_dict()
    events = g.apply(Tick(-1, 61_000))
    assert events == [] and g.time_ms == 61_000
    after = g.to_dict()
    assert {k for k in before if before[k] != after[k]} == {"time_ms"}
    assert str(Tick(-1, 61_000)) == "tick @61000"
    assert Action.parse("tick @61000") == Tick(-1, 61_000)


def test_tick_to_the_limit_ends_the_game() -> None:
    g = new_game(make_config(players=2), 3)
    events = g.apply(Tick(-1, LIMIT_MS))
    assert [e.kind for e in events] == ["game_lost"]
    assert g.outcome is not None and g.outcome.reason is Termination.TIME_UP
    assert g.outcome.score.win_bonus == 0 and g.outcome.score.time_bonus == 0
    assert g.outcome.official


def test_untimed_game_never_ends_on_time_and_is_unofficial() -> None:
    config = make_config(players=2, time_limit=None)
    g = new_game(config, 4)
    g.apply(Tick(-1, 10**12))
    assert not g.is_over
    play_random(g, 4, 20_000, start_ms=10**12)
    assert g.is_over and g.outcome is not None
    assert g.outcome.reason is not Termination.TIME_UP
    assert not g.outcome.official and g.outcome.time_left_ms is None
    assert g.outcome.score.time_bonus == 0


def test_only_the_standard_ten_minutes_is_official() -> None:
    g = new_game(make_config(players=2, time_limit=300), 4)
    g.apply(Tick(-1, 300_000))
    assert g.outcome is not None and g.outcome.reason is Termination.TIME_UP and not g.outcome.official


def test_actions_print_and_parse_back() -> None:
    for a in (Place(0, 15200, 12, "F07", 2), Done(1, 20000), TakeCard(2, None, "F33"), RevealFuse(2, 5),
              GiveUp(0, None, 4), RerollUnused(3, 7, 9), Tick(-1, 61000)):
        assert Action.parse(str(a)) == a
    assert str(Place(0, 15200, 12, "F07", 2)) == "p0 place d12 F07 s3 @15200"


def test_an_actions_body_is_its_text_without_seat_and_time() -> None:
    # what a client sends back; Place writes its own (a frame lists every placement open to every
    # seat), which must agree with the fields' writers that every other action uses
    for a in (Place(3, 15200, 12, "F07", 2), Place(0, None, 0, "S01", 0), Done(1, 20000),
              TakeCard(2, None, "F33"), RevealFuse(2, 5), GiveUp(0, None, 4), RerollUnused(3, 7, 9)):
        assert a.body() == Action.body(a)
        assert Action.parse(f"p{a.seat} {a.body()}") == replace(a, at=None)
    assert Place(0, None, 12, "F07", 2).body() == "place d12 F07 s3"
    assert Done(1, 20000).body() == "done"


def test_every_action_builds_from_its_fields_by_position_and_by_name_and_stays_frozen() -> None:
    # every action writes its own __init__ (for speed, see rules.actions); each must take exactly
    # the dataclass's fields, in order, with the same defaults, and refuse changes afterwards
    from dataclasses import MISSING, FrozenInstanceError, fields

    from fusegame.rules.actions import ACTIONS
    for verb, cls in ACTIONS.items():
        fs = fields(cls)
        assert [f.name for f in fs[:2]] == ["seat", "at"], verb
        defaults = {f.name: f.default for f in fs if f.default is not MISSING}
        assert cls(3) == cls(3, **defaults), verb
        # a distinct value for every field, of the field's type, so that a swap would show
        values: list[object] = [2, 41]
        for i, f in enumerate(fs[2:]):
            values.append({int: 10 + i, str: f"v{i}", tuple: (4 + i, 7)}[type(f.default)])
        by_position = cls(*values)
        by_name = cls(**{f.name: v for f, v in zip(fs, values, strict=True)})
        assert by_position == by_name and hash(by_position) == hash(by_name), verb
        assert [getattr(by_name, f.name) for f in fs] == values, verb
        assert replace(by_name, at=99).at == 99 and by_name.at == 41, verb
        with pytest.raises(FrozenInstanceError):
            by_name.seat = 5  # type: ignore[misc]
        with pytest.raises(TypeError):
            cls(*values, 0)


# ----------------------------------------------------------------------------- serialisation
def find_die_returned_mid_turn() -> GameState:
    """A DISTRIBUTE state in which a die rolled this turn was placed and has already gone back to the
    bag (its card was defused and replaced, or a fuse card took it)."""
    for seed in range(200):
        g = new_game(make_config(players=5), seed)
        rng = Rng(seed)
        for _ in range(300):
            if g.is_over:
                break
            if g.phase is Phase.DISTRIBUTE:
                on_cards = {d for hand in g.hands for hc in hand for d in hc.dice}
                gone = set(g.rolled) - set(g.unplaced()) - on_cards
                if gone:
                    return g
            acts = [a for a in g.legal_actions() if not isinstance(a, Done)] or g.legal_actions()
            g.apply(replace(acts[rng.below(len(acts))], at=g.time_ms + 300))
    pytest.fail("no such position found")


def test_json_round_trip_keeps_the_dice_left_in_the_middle() -> None:
    """Engine bug check: ``from_dict`` must not offer a die that already went back to the bag."""
    g = find_die_returned_mid_turn()
    rt = GameState.from_dict(json.loads(json.dumps(g.to_dict())))
    assert rt == g
    assert set(rt.unplaced()) & set(rt.bag) == set(), (
        f"from_dict put dice {sorted(set(rt.unplaced()) & set(rt.bag))} back in the middle although "
        f"they are in the bag (original game offers {g.unplaced()}, the copy offers {rt.unplaced()})")
    assert rt.unplaced() == g.unplaced()
    assert rt.legal_actions() == g.legal_actions()
