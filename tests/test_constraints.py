"""The compiled card tables: class keys, feasibility against brute force, safe dice, legal actions."""

from __future__ import annotations

from itertools import product

import pytest

from fusegame import Done, GameConfig, Place, builtin_catalogue, new_game
from fusegame.cards.notation import parse
from fusegame.constraints import EMPTY, CompiledCard, random_partial_state
from fusegame.dice import RED, DiceSet, die_type, type_colours, type_face
from fusegame.rng import Rng

IN_PLAY = DiceSet.fuse().types_in_play
TYPES = [t for t in range(90) if IN_PLAY >> t & 1]
BOMBS = builtin_catalogue().of_set("fuse").bombs


@pytest.mark.parametrize("card", BOMBS, ids=[b.id for b in BOMBS])
def test_class_keys_give_the_same_answers_as_real_die_types(card) -> None:  # type: ignore[no-untyped-def]
    rules = CompiledCard(card.shape, IN_PLAY)
    keyed = CompiledCard(card.shape, IN_PLAY)
    rng = Rng(sum(map(ord, card.id)))
    for state in [random_partial_state(rules, rng) for _ in range(6)]:
        key = keyed.key(state)
        for t in TYPES:
            assert rules.legal_slots(state, t) == keyed.legal_slots(key, keyed.canon[t]), (state, t)
        assert rules.removable(state) == keyed.removable(key)


def brute_feasible(card: CompiledCard, state: tuple[int, ...]) -> bool:
    """Fill the empty slots in every way and check every pending constraint (those with an empty
    slot; the others were checked when their last die went on), with no search tricks."""
    empties = [i for i in range(card.n) if state[i] == EMPTY]
    shape = card.shape
    relations = [r for r in shape.relations if r.a in empties or r.b in empties]
    clauses = [c for c in shape.clauses if set(c.slots) & set(empties)]
    for fill in product(TYPES, repeat=len(empties)):
        full = list(state)
        for e, t in zip(empties, fill):
            full[e] = t
        if not all(card.pred[i] >> full[i] & 1 for i in empties):
            continue
        if not all(r.rel.holds(type_colours(full[r.a]), type_face(full[r.a]),
                               type_colours(full[r.b]), type_face(full[r.b])) for r in relations):
            continue
        if not all(c.holds({s: type_colours(full[s]) for s in c.slots},
                           {s: type_face(full[s]) for s in c.slots}) for c in clauses):
            continue
        return True
    return False


SMALL = ["# # # ; a - b = c", "# < # < #", "% !=c % =c|n %", "4 > # > #", "R|B G|Y ; a + b = 7",
         "% % % ; same-colour(a,b,c) or same-number(a,b,c)", "? =cn ?", "# # ; a - b = 2",
         # slots that no relation or clause names share the feasibility answers of the others
         "% % % ? ; same-colour(a,b,c) or same-number(a,b,c)", "1|2 ? # < #", "R ? G|B"]


@pytest.mark.parametrize("text", SMALL)
def test_feasibility_agrees_with_brute_force(text: str) -> None:
    card = CompiledCard(parse(text), IN_PLAY)
    rng = Rng(len(text))
    checked = 0
    for _ in range(40):
        # any partial state, legal or not: the search must agree with enumeration everywhere
        state = tuple(TYPES[rng.below(30)] if rng.below(2) else EMPTY for _ in range(card.n))
        if sum(x == EMPTY for x in state) > 3:
            continue
        filled_ok = all(card.pred[i] >> state[i] & 1 for i in range(card.n) if state[i] != EMPTY)
        if not filled_ok:
            continue
        checked += 1
        assert card.feasible(state) == brute_feasible(card, state), (text, state)
    assert checked >= 5


def test_stack_and_pyramid_dice_under_others_are_safe() -> None:
    stack = CompiledCard(parse("stack: ? ? ?"), IN_PLAY)
    r = die_type(RED, 3)
    assert stack.removable((r, r, EMPTY)) == (1,)  # only the top die can go
    pyramid = CompiledCard(parse("pyramid: ? ? / ?"), IN_PLAY)
    assert pyramid.removable((r, r, EMPTY)) == (0, 1)  # H-03: nothing on them yet
    assert pyramid.removable((r, r, r)) == (2,)
    first = CompiledCard(parse("first:R ? ?"), IN_PLAY)
    assert first.removable((r, r, EMPTY)) == (1,)  # a must-be-first die is safe


def test_legal_actions_is_a_sequence_of_the_same_actions_however_it_is_read() -> None:
    game = new_game(GameConfig(players=2), seed=3)
    acts = game.legal_actions()
    listed = list(acts)
    assert len(acts) == len(listed) > 1
    assert [acts[i] for i in range(len(acts))] == listed
    assert acts[-1] == listed[-1] and acts[1:3] == listed[1:3]
    assert acts == listed and listed[0] in acts
    assert any(isinstance(a, Place) for a in acts)
    # each seat's Done is kept as its seat and built when read: a real action, stamped like the rest
    dones = [a for a in acts if isinstance(a, Done)]
    assert [d.seat for d in dones] == [0, 1] and all(d.at == game.time_ms for d in dones)
    assert [acts[i] for i in range(len(acts)) if isinstance(acts[i], Done)] == dones
    with pytest.raises(IndexError):
        acts[len(acts)]
    # every seat's own list is the part of the whole that belongs to it
    assert sorted(map(str, acts)) == sorted(str(a) for s in (0, 1) for a in game.legal_actions(s))


ALL_BOMBS = builtin_catalogue().bombs
#: FUSE's dice, and Countdown's with its split dice (more die types, and classes of them)
DICE = {"fuse": IN_PLAY, "countdown": GameConfig(game="countdown", players=3).dice_set.types_in_play}


@pytest.mark.parametrize("dice", DICE)
@pytest.mark.parametrize("card", ALL_BOMBS, ids=[b.id for b in ALL_BOMBS])
def test_shared_answers_are_those_worked_out_afresh(card, dice: str) -> None:  # type: ignore[no-untyped-def]
    """The memos answer a state from the class keys of the slots that matter, and a card with no
    order from its empty slots alone: the search and the order rules, run afresh on the state
    itself, must agree on random partial cards and one die past them."""
    rules = CompiledCard(card.shape, DICE[dice])
    types = [t for t in range(90) if DICE[dice] >> t & 1]
    rng = Rng(sum(map(ord, card.id)) + 1)
    for _ in range(8):
        state = random_partial_state(rules, rng)
        assert rules.open_slots(state) == tuple(s for s in range(rules.n) if rules.is_open(state, s))
        # the same card with other dice on the slots that no relation or clause names
        other = tuple(x if x == EMPTY or not rules._free[i] else types[(types.index(x) + 5) % len(types)]
                      for i, x in enumerate(state))
        for st in (state, other):
            for t in types[::5]:
                fresh = tuple(s for s in range(rules.n) if rules._legal_uncached(st, s, t, t))
                assert rules.legal_slots(st, t) == fresh, (st, t)
        for s in range(rules.n):
            if state[s] == EMPTY:
                for t in types[::7]:
                    trial = state[:s] + (t,) + state[s + 1:]
                    assert rules.feasible(trial) == rules._search(trial), (state, s, t)


#: every card with the dice that can complete it (some Countdown cards need its split dice)
COMPLETABLE = [(card, dice) for dice in DICE for card in ALL_BOMBS
               if CompiledCard(card.shape, DICE[dice]).completion() is not None]


@pytest.mark.parametrize(("card", "dice"), COMPLETABLE, ids=[f"{c.id}-{d}" for c, d in COMPLETABLE])
def test_the_dice_that_complete_a_card_are_those_its_last_slot_takes(card, dice: str) -> None:  # type: ignore[no-untyped-def]
    """The models of work ask which dice complete a card with one slot left all at once: every
    class of dice must be answered as placing it die by die answers, with the same card read
    through its class keys or its real dice."""
    rules = CompiledCard(card.shape, DICE[dice])
    types = [t for t in range(90) if DICE[dice] >> t & 1]
    reps = tuple(sorted(set(rules.canon[t] for t in types)))
    rng = Rng(sum(map(ord, card.id)) + 2)
    for _ in range(6):
        state = rules.empty
        while state.count(EMPTY) > 1:
            options = [(s, t) for s in rules.open_slots(state) for t in types if rules.is_legal(state, s, t)]
            s, t = options[rng.below(len(options))]
            state = state[:s] + (t,) + state[s + 1:]
        expected = sum(1 << r for r in reps if rules.legal_slots(state, r))
        assert rules.completing_types(state) == expected, state
        assert rules.completing_types(rules.key(state)) == expected, state
    fresh = CompiledCard(card.shape, DICE[dice])  # answered before any legal slot was asked
    assert fresh.completing_types(state) == expected


@pytest.mark.parametrize("dice", DICE)
@pytest.mark.parametrize("card", ALL_BOMBS, ids=[b.id for b in ALL_BOMBS])
def test_placements_are_the_legal_slots_but_for_the_feasibility_rule(card, dice: str) -> None:  # type: ignore[no-untyped-def]
    """The planner's models find where a die may go near a card's end without asking whether the
    card could still be completed: every slot the rules allow is among them, and a slot among them
    is legal exactly when the state it leaves can still be completed (with the rule off, the two
    are the same)."""
    strict = CompiledCard(card.shape, DICE[dice], feasibility=False)
    rules = CompiledCard(card.shape, DICE[dice])
    # asked slot by slot (``is_legal``: order, icon, relations, clauses, then feasibility) on
    # cards of their own, so that no answer comes from the memo the other question filled
    one_by_one, strict_one_by_one = CompiledCard(card.shape, DICE[dice]), CompiledCard(
        card.shape, DICE[dice], feasibility=False)
    types = [t for t in range(90) if DICE[dice] >> t & 1]
    rng = Rng(sum(map(ord, card.id)) + 11)
    for _ in range(12):
        state = random_partial_state(strict, rng)
        for t in types:
            found = rules.placements(state, t)
            assert found == tuple(s for s in range(rules.n) if strict_one_by_one.is_legal(state, s, t))
            legal = tuple(s for s in range(rules.n) if one_by_one.is_legal(state, s, t))
            assert rules.legal_slots(state, t) == legal, (state, t)
            assert set(legal) <= set(found)


@pytest.mark.parametrize(("card", "dice"), COMPLETABLE, ids=[f"{c.id}-{d}" for c, d in COMPLETABLE])
@pytest.mark.parametrize("feasibility", [True, False], ids=["feasibility", "no-feasibility"])
def test_two_slots_left_are_answered_as_die_by_die(card, dice: str, feasibility: bool) -> None:  # type: ignore[no-untyped-def]
    """The planner's models meet many states with two slots left and ask, for every class of
    dice, where it may go and which dice would then complete the card, all in one pass: each
    answer must be the one placing the die and asking again would give, dead placements left out
    exactly when the feasibility rule is on."""
    rules = CompiledCard(card.shape, DICE[dice], feasibility)
    types = [t for t in range(90) if DICE[dice] >> t & 1]
    reps = tuple(sorted(set(rules.canon[t] for t in types)))
    rng = Rng(sum(map(ord, card.id)) + 3)
    checked = 0
    for _ in range(6):
        state = rules.empty
        while state.count(EMPTY) > 2:
            options = [(s, t) for s in rules.open_slots(state) for t in types if rules.is_legal(state, s, t)]
            if not options:
                break
            s, t = options[rng.below(len(options))]
            state = state[:s] + (t,) + state[s + 1:]
        if state.count(EMPTY) != 2:
            continue
        expected = sorted((rules.completing_types(state[:s] + (r,) + state[s + 1:]), i)
                          for i, r in enumerate(reps) for s in rules.legal_slots(state, r))
        fresh = CompiledCard(card.shape, DICE[dice], feasibility)  # no memo of the state yet
        found = fresh.two_left(state, reps)
        assert sorted((fits, i) for fits, places in found for i in places) == expected, state
        checked += 1
    assert checked, "no deal of this card reached two slots left"
