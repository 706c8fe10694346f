"""The seven Countdown roles (docs/rules.md A.7, D.9, F.2, G-27, G-29, G-34, G-35), through ``apply`` with
the actions' text forms.

The deal and the Logistics Specialist's sparks are checked in every game with role cards (Countdown,
the integrated sets, FUSE with the Role module); the rest in Countdown games set up by hand from the
small test deck (``tests/data/countdown_test_cards.toml``: bombs T01-T40, sparks TS01-TS12, fuse
cards TZ1-TZ10, roles TR1-TR7) so that every roll is chosen with ``apply_chance`` and every card is
known.
"""

from __future__ import annotations

from typing import Any

import pytest

from conftest import TESTS, act, die, kinds, put, removals, roll, t, turn_start
from fusegame.cards import builtin_catalogue, load_catalogue
from fusegame.cards.catalogue import Catalogue
from fusegame.cards.model import Ability
from fusegame.constraints import EMPTY
from fusegame.rules import (
    Action,
    Event,
    GameConfig,
    GameState,
    IllegalAction,
    IllegalPlacement,
    NotYourDecision,
    Phase,
    new_game,
)
from fusegame.rules.actions import Recolour
from fusegame.rules.decisions import push
from fusegame.rules.defusal import Refill
from game_variants import ALL, Variant, has_roles, load, uses_sparks, variants

CARDS = load_catalogue(TESTS / "data" / "countdown_test_cards.toml")
ROLE = {r.ability: r.id for r in CARDS.roles}
ROW = ["T20", "T21", "T22", "T23", "T24"]
DECK = ["T25", "T26", "T27"]


# ----------------------------------------------------------------------------- helpers
def game(hands: list[list[str]], roles: list[Ability | None] | None = None, *, leader: int = 0,
         row: list[str] | None = None, deck: list[str] | None = None, game: str = "countdown",
         cards: Catalogue = CARDS, **kw: Any) -> GameState:
    """A game at the start of a turn (before the draw) with these hands and roles."""
    config = GameConfig(players=len(hands), game=game, cards=cards, **kw)
    return turn_start(config, hands, ROW if row is None else row, DECK if deck is None else deck, seed=7,
                      spark_deck=[s.id for s in config.playable.sparks] if "sparks" in config.parts else None,
                      roles=None if roles is None else [ROLE[r] if r else "" for r in roles], leader=leader)


def fire(g: GameState, fuse: str) -> list[Event]:
    """Turn fuse card ``fuse`` over from the top of the deck, as a row refill does."""
    g.deck.append(fuse)
    push(g, Refill(1))
    return g.settle()


def refused(g: GameState, text: str, error: type[IllegalAction], *words: str) -> None:
    """The action is refused with a message holding ``words``, and nothing changes."""
    before = g.to_dict()
    with pytest.raises(error) as info:
        act(g, text)
    for w in words:
        assert w in str(info.value), str(info.value)
    assert g.to_dict() == before


THREE = [["T01", "T03"], ["T02", "T24"], ["T05", "T07"]]


# ----------------------------------------------------------------------------- dealing
@pytest.mark.parametrize(("variant", "players"), [
    pytest.param(v, p, id=f"{v}-{p}p") for v in ALL if has_roles(v.spec) for p in (1, 2, 3, 4, 5)
    if v.seats(p)])
def test_roles_are_dealt_one_per_player_face_up_from_the_seven(variant: Variant, players: int) -> None:
    # B.4 step 1, F.2: every player gets one role card face up; the rest go back to the box
    config = GameConfig(players=players, game=variant.game, modules=variant.modules)
    g = new_game(config, seed=players, chance=False)
    assert g.roles is not None and len(config.playable.roles) == 7
    assert len(g.roles.cards) == players and len(set(g.roles.cards)) == players
    assert set(g.roles.cards) <= {r.id for r in config.playable.roles}
    assert g.roles.up == [True] * players


@pytest.mark.parametrize("variant", variants(has_roles, players=4))
def test_the_deal_varies_with_the_seed_and_can_give_any_role(variant: Variant) -> None:
    config = GameConfig(players=4, game=variant.game, modules=variant.modules)
    seen = {new_game(config, seed=s, chance=False).roles.cards[0] for s in range(40)}  # type: ignore[union-attr]
    assert seen == {r.id for r in config.playable.roles}


@pytest.mark.parametrize(("variant", "players"), [
    pytest.param(v, p, id=f"{v}-{p}p") for v in ALL if not has_roles(v.spec) for p in (1, 3, 5, 6, 9)
    if v.seats(p)])
def test_roles_are_not_dealt_without_the_role_cards(variant: Variant, players: int) -> None:
    # F.3: role cards are not used in epic games; FUSE has them only with the Role module (F.2)
    config = GameConfig(players=players, game=variant.game, modules=variant.modules)
    g = new_game(config, seed=1)
    assert not config.uses_roles and g.roles is None and g.active_ability() is None
    assert not config.playable.roles


def test_only_the_leaders_role_works() -> None:
    g = game(THREE, [Ability.TECHNOLOGIST, Ability.TECHNOLOGIST, Ability.EQUIPMENT_TECHNICIAN], leader=2)
    roll(g, "R3", "B4", "G5")
    # seat 0 holds a Technologist, but seat 2 leads: only the Equipment Technician works
    refused(g, f"p0 recolour d{die(g, 'R3')} B", NotYourDecision, "only the leader's role")
    refused(g, f"p2 recolour d{die(g, 'R3')} B", NotYourDecision, "cannot do that")
    act(g, f"p2 renumber d{die(g, 'R3')} 6")
    assert g.die_label(g.free[0]) == "R6"


def test_face_down_roles_do_nothing() -> None:
    # the "lose role ability" fuse card: a face-down role does nothing while its owner leads
    g = game(THREE, [Ability.CUTTER, None, None])
    g.roles.up[0] = False
    assert g.active_ability() is None
    assert g.is_chance  # no colour to name: the dice are drawn at once
    roll(g, "R3", "B4", "G5")
    refused(g, f"p0 recolour d{die(g, 'R3')} B", NotYourDecision, "no role ability")
    g = game(THREE, [Ability.TECHNOLOGIST, None, None])
    g.roles.up[0] = False
    roll(g, "R3", "B4", "G5")
    refused(g, f"p0 recolour d{die(g, 'R3')} B", NotYourDecision, "no role ability")
    assert not any(a.verb == "recolour" for a in g.legal_actions(0))


def test_abilities_work_only_on_rolled_dice_not_yet_placed() -> None:
    g = game(THREE, [Ability.EQUIPMENT_TECHNICIAN, None, None])
    roll(g, "R3", "B4", "G5")
    r3 = die(g, "R3")
    act(g, f"p0 place d{r3} T01 s1")
    refused(g, f"p0 renumber d{r3} 6", NotYourDecision, "rolled dice still in the middle")
    in_bag = g.bag[0]
    refused(g, f"p0 renumber d{in_bag} 6", NotYourDecision, "rolled dice still in the middle")
    act(g, f"p0 renumber d{die(g, 'B4')} 6")


# ----------------------------------------------------------------------------- Cutter
def test_cutter_names_a_colour_before_the_draw_and_nothing_is_rolled_until_then() -> None:
    g = game(THREE, [Ability.CUTTER, None, None])
    assert not g.is_chance and g.phase is Phase.ROLL
    assert g.to_act() == {0: g.to_act()[0]} and g.to_act()[0].kind == "name"
    assert g.to_act()[0].options == ("R", "B", "G", "Y", "K")
    with pytest.raises(IllegalAction, match="no chance event"):
        roll(g, "R3", "B4", "G5")
    refused(g, "p1 name R", NotYourDecision, "only the leader's role")
    refused(g, "p0 name 5", NotYourDecision, "names one of")
    bag = len(g.bag)
    act(g, "p0 name R")
    assert g.roles.named == "R" and g.is_chance and len(g.bag) == bag  # named; the draw comes next
    refused(g, "p0 name B", NotYourDecision, "waiting for the dice")


def test_cutter_may_change_each_die_of_the_named_colour_split_dice_included() -> None:
    g = game(THREE, [Ability.CUTTER, None, None])
    act(g, "p0 name R")
    roll(g, "R3", "B4", "R/K5")
    r3, b4, rk5 = die(g, "R3"), die(g, "B4"), die(g, "R/K5")
    assert sorted(g.roles.eligible) == sorted([r3, rk5])
    refused(g, f"p0 recolour d{b4} G", NotYourDecision, "only dice rolled as R")
    refused(g, f"p0 renumber d{b4} 6", NotYourDecision, "only dice rolled as R")
    act(g, f"p0 renumber d{r3} 6")  # each eligible die once: number here...
    act(g, f"p0 recolour d{rk5} Y")  # ...and colour there
    assert g.die_label(r3) == "R6" and g.die_label(rk5) == "R/K5 as Y"


def test_cutter_changes_colour_or_number_of_a_die_never_both() -> None:
    g = game(THREE, [Ability.CUTTER, None, None])
    act(g, "p0 name R")
    roll(g, "R3", "R4", "B5")
    r3, r4 = die(g, "R3"), die(g, "R4")
    act(g, f"p0 recolour d{r3} B")
    refused(g, f"p0 renumber d{r3} 6", NotYourDecision, "colour or number, not both")
    refused(g, f"p0 recolour d{r3} G", NotYourDecision, "once")
    act(g, f"p0 renumber d{r4} 1")
    refused(g, f"p0 recolour d{r4} G", NotYourDecision, "colour or number, not both")
    assert not any(getattr(a, "die", None) in (r3, r4) and a.verb in ("recolour", "renumber")
                   for a in g.legal_actions(0))


def test_a_single_colour_die_never_becomes_a_split_die_but_a_split_die_may_become_single() -> None:
    g = game(THREE, [Ability.CUTTER, None, None])
    act(g, "p0 name R")
    roll(g, "R3", "R/K4", "B5")
    r3, rk4 = die(g, "R3"), die(g, "R/K4")
    with pytest.raises(NotYourDecision, match="split"):
        g.apply(Recolour(0, None, r3, "R/B"), chance=False)
    assert "R/B" not in {getattr(a, "colour", "") for a in g.legal_actions(0)}
    refused(g, f"p0 recolour d{r3} R", NotYourDecision, "already R")
    act(g, f"p0 recolour d{rk4} K")  # one of its own colours: it now counts as black only
    assert g.die_label(rk4) == "R/K4 as K"


def test_cutter_colour_change_counts_for_placement_then_reverts() -> None:
    # A.7, D.9: the new colour lasts until the die is placed; from then on the die is red again
    g = game(THREE, [Ability.CUTTER, None, None])
    act(g, "p0 name R")
    roll(g, "R4", "G2", "Y6")
    r4 = die(g, "R4")
    act(g, f"p0 recolour d{r4} B")
    # T03 "R ?": as a blue die it no longer fits the red slot, but the "?" slot takes it
    refused(g, f"p0 place d{r4} T03 s1", IllegalPlacement, "does not match")
    act(g, f"p0 place d{r4} T03 s2")
    assert g.roles.temp == {} and g.die_label(r4) == "R4"
    hc = g.hand_card(0, "T03")
    assert hc is not None and hc.types[1] == t("R4")  # the card holds a red die
    # a blue fuse card cannot take it, a red one can
    g.apply(Action.parse("p1 done"), chance=False)
    fire(g, "TZ2")  # shows blue and 3
    assert g.hand_card(0, "T03").dice[1] == r4  # type: ignore[union-attr]
    fire(g, "TZ1")  # shows red
    assert g.hand_card(0, "T03").dice[1] == EMPTY  # type: ignore[union-attr]


# ----------------------------------------------------------------------------- Operations Engineer
def test_operations_engineer_names_a_number_and_changes_dice_showing_it() -> None:
    g = game(THREE, [Ability.OPERATIONS_ENGINEER, None, None])
    assert g.to_act()[0].kind == "name" and g.to_act()[0].options == ("1", "2", "3", "4", "5", "6")
    refused(g, "p0 name R", NotYourDecision, "names one of")
    act(g, "p0 name 5")
    roll(g, "R5", "B2", "K/R5")
    r5, b2, kr5 = die(g, "R5"), die(g, "B2"), die(g, "R/K5")
    assert sorted(g.roles.eligible) == sorted([r5, kr5])
    refused(g, f"p0 recolour d{b2} G", NotYourDecision, "only dice rolled as 5")
    act(g, f"p0 renumber d{r5} 2")
    # eligibility is fixed by the number shown at the roll: the R5 turned to 2 was changed
    # once already, the B2 that shows the same number now is still not eligible
    refused(g, f"p0 recolour d{r5} G", NotYourDecision, "not both")
    refused(g, f"p0 renumber d{b2} 5", NotYourDecision, "only dice rolled as 5")
    act(g, f"p0 recolour d{kr5} G")
    refused(g, f"p0 renumber d{kr5} 1", NotYourDecision, "not both")
    assert g.die_label(kr5) == "R/K5 as G"


# ----------------------------------------------------------------------------- Logistics Specialist
def test_logistics_specialist_draws_one_more_die_and_may_take_one_more() -> None:
    g = game(THREE, [Ability.LOGISTICS_SPECIALIST, None, None])
    assert all(len(o) == 4 for o, _ in g.chance_outcomes())  # 3 players + 1 (H-17.4)
    roll(g, "R3", "B4", "G5", "Y6")
    assert g.seat_quota(0) == 2 and g.seat_quota(1) == 1 and g.seat_quota(2) == 1
    act(g, f"p0 place d{die(g, 'R3')} T01 s1")
    act(g, f"p0 place d{die(g, 'B4')} T01 s2")
    act(g, f"p1 place d{die(g, 'G5')} T24 s1")
    refused(g, f"p1 place d{die(g, 'Y6')} T24 s2", NotYourDecision, "at most 1")


@pytest.mark.parametrize("variant", variants(lambda spec: has_roles(spec) and uses_sparks(spec), players=3))
@pytest.mark.parametrize(("taken", "sparks"), [
    ((0, 1, 1), [0]),  # the leader took nothing: one spark (the fourth die went back free)
    ((1, 1, 1), []),  # everyone took one: no spark, the extra die goes back without penalty
    ((2, 1, 0), [2]),  # the leader took the extra die: seat 2 draws one
])
def test_logistics_specialist_sparks_are_base_quota_minus_dice_taken(
        variant: Variant, taken: tuple[int, int, int], sparks: list[int]) -> None:
    # C.2 Step 4, F.2, G-27, H-17.6: sparks(p) = max(0, base quota - taken(p))
    g = load(variant, 3, {"players": [["? ? ?", "? ?"]] * 3, "row": ["? ?"],
                          "roles": ["logistics-specialist", None, None], "phase": "roll"})
    roll(g, "R3", "B4", "G5", "Y6")
    for seat, n in enumerate(taken):
        for k in range(n):
            act(g, f"p{seat} place d{g.free[0]} {g.hands[seat][0].card} s{k + 1}")
    ev: list[Event] = []
    for seat in range(3):
        if g.to_act().get(seat):
            ev += act(g, f"p{seat} done")
    drawn = [e.data["seat"] for e in ev if e.kind == "spark_drawn"]
    assert drawn == sparks and "die_returned_free" not in kinds(ev)
    assert g.phase is Phase.ROLL and g.turn == 2  # the untaken dice went back to the bag
    assert len(g.bag) == len(g.dice) - sum(taken)


def _fuse_roles_game(taken_by_leader: int) -> GameState:
    cards = Catalogue(builtin_catalogue().of_set("fuse").bombs, builtin_catalogue().of_set("fuse").fuses,
                      roles=CARDS.roles)
    g = game([["F01", "F02"], ["F03", "F04"], ["F05", "F06"]], [Ability.LOGISTICS_SPECIALIST, None, None],
             game="fuse", modules=("roles",), cards=cards,
             row=["F07", "F08", "F09", "F10", "F11"], deck=["F12"])
    roll(g, "R1", "B1", "G1", "Y1")
    hand = g.hands[0][0]
    placed = 0
    for d in list(g.free):
        if placed == taken_by_leader:
            break
        for a in g.legal_actions(0):
            if a.verb == "place" and a.die == d:  # type: ignore[attr-defined]
                g.apply(a, chance=False)
                placed += 1
                break
    assert placed == taken_by_leader, hand
    for seat in range(3):
        if g.to_act().get(seat):
            act(g, f"p{seat} done")
    return g


def test_logistics_in_fuse_returns_one_untaken_die_free_before_the_penalty_rolls() -> None:
    # F.2 roles module, G-27: with FUSE's reroll penalty the leader may send one untaken die back
    # with no penalty, when they did not take an extra die
    g = _fuse_roles_game(1)
    assert g.phase is Phase.PENALTY and len(g.unused) == 3
    assert g.to_act()[0].kind == "return"
    refused(g, f"p1 return d{g.unused[0]}", NotYourDecision, "no die can be returned")
    d = g.unused[0]
    ev = act(g, f"p0 return d{d}")
    assert kinds(ev) == ["die_returned_free"] and d in g.bag and d not in g.unused
    refused(g, f"p0 return d{g.unused[0]}", NotYourDecision, "no die can be returned")
    assert len(g.unused) == 2  # these two are rerolled as penalties


def test_logistics_in_fuse_has_no_free_return_after_taking_the_extra_die() -> None:
    g = _fuse_roles_game(2)
    assert g.phase is Phase.PENALTY and len(g.unused) == 2 and not g.penalty.free_return
    refused(g, f"p0 return d{g.unused[0]}", NotYourDecision, "no die can be returned")


def test_the_free_return_comes_before_the_first_penalty_roll_only() -> None:
    g = _fuse_roles_game(0)
    assert len(g.unused) == 4
    act(g, f"p0 reroll d{g.unused[0]}")
    g.apply_chance((3,))
    if removals(g):
        for seat, dice in list(removals(g).items()):
            act(g, f"p{seat} give d{dice[0]}")
    assert not g.penalty.free_return
    refused(g, f"p0 return d{g.unused[0]}", NotYourDecision, "no die can be returned")


# ----------------------------------------------------------------------------- Technologist
def test_technologist_changes_the_colour_of_one_die_a_turn() -> None:
    g = game(THREE, [Ability.TECHNOLOGIST, None, None])
    roll(g, "R3", "B4", "G5")
    act(g, f"p0 recolour d{die(g, 'B4')} R")
    refused(g, f"p0 recolour d{die(g, 'R3')} Y", NotYourDecision, "used this turn")
    refused(g, f"p0 renumber d{die(g, 'R3')} 1", NotYourDecision, "cannot do that")
    assert not [a for a in g.legal_actions(0) if a.verb == "recolour"]


def test_technologist_colour_is_checked_once_against_a_die_already_placed() -> None:
    # D.9 / H-17.12b: a die whose colour was changed goes next to a placed die; the relation
    # between them is checked now, with the temporary colour, and never again. Afterwards the
    # die has its real colour for every other purpose.
    g = game([["T12", "T01"], ["T24", "T01"], ["T24", "T01"]], [Ability.TECHNOLOGIST, None, None])
    put(g, 0, "T12", 1, "R5")  # T12 "% !=c % !=c %": s2 = R5
    roll(g, "R4", "G2", "Y6")
    r4 = die(g, "R4")
    # a red die may not go next to R5 under "different colours"...
    refused(g, f"p0 place d{r4} T12 s1", IllegalPlacement, "breaks a relation")
    act(g, f"p0 recolour d{r4} B")
    act(g, f"p0 place d{r4} T12 s1")  # ...but as blue it may: the relation is checked now
    hc = g.hand_card(0, "T12")
    assert hc is not None and hc.types[0] == t("R4")
    # s1-s2 stays satisfied (it is never checked again with the real red), so the card is
    # still completable: s3 is judged against R5 only and must not be red
    rules = g.card_rules("T12")
    assert rules.legal_slots(hc.key, rules.canon[t("B1")]) == (2,)
    assert rules.legal_slots(hc.key, rules.canon[t("R1")]) == ()
    # later fuse matching sees the real colour: a blue fuse card cannot take it, a red one can
    fire(g, "TZ2")  # blue and 3
    assert hc.dice[0] == r4
    fire(g, "TZ1")  # red: R4 and R5 both match, seat 0 chooses
    assert set(removals(g)[0]) == {r4, hc.dice[1]}


def test_technologist_temporary_colour_does_not_satisfy_a_relation_still_pending() -> None:
    # D.9: a pending relation (its other slot empty) will see the real colour later. T04
    # "% =c %" is empty; a B4 made red goes on s1: s2 must then share a colour with BLUE.
    g = game([["T04", "T01"], ["T24", "T01"], ["T24", "T01"]], [Ability.TECHNOLOGIST, None, None])
    roll(g, "B4", "R2", "Y6")
    b4 = die(g, "B4")
    act(g, f"p0 recolour d{b4} R")
    act(g, f"p0 place d{b4} T04 s1")
    hc = g.hand_card(0, "T04")
    assert hc is not None
    rules = g.card_rules("T04")
    assert rules.legal_slots(hc.key, rules.canon[t("R2")]) == ()
    assert rules.legal_slots(hc.key, rules.canon[t("B1")]) == (1,)


# ----------------------------------------------------------------------------- Equipment Technician
def test_equipment_technician_turns_one_die_to_another_number_for_good() -> None:
    g = game(THREE, [Ability.EQUIPMENT_TECHNICIAN, None, None])
    roll(g, "R3", "B4", "G5")
    r3 = die(g, "R3")
    refused(g, f"p0 renumber d{r3} 3", NotYourDecision, "another number")
    act(g, f"p0 renumber d{r3} 6")
    refused(g, f"p0 renumber d{die(g, 'B4')} 1", NotYourDecision, "used this turn")
    refused(g, f"p0 recolour d{die(g, 'B4')} R", NotYourDecision, "cannot do that")
    act(g, f"p0 place d{r3} T03 s1")
    hc = g.hand_card(0, "T03")
    assert hc is not None and hc.types[0] == t("R6") and g.faces[r3] == 6  # permanent


# ----------------------------------------------------------------------------- Disposal Expert
@pytest.mark.parametrize(("before", "after"), [("R1", "R6"), ("R6", "R1"), ("R2", "R4"), ("R4", "R2"),
                                               ("R3", "R5"), ("R5", "R3")])
def test_disposal_expert_turns_a_die_to_its_opposite_face(before: str, after: str) -> None:
    # A.7, I-06: opposite faces 1-6, 2-4, 3-5 (not 7 - n)
    g = game(THREE, [Ability.DISPOSAL_EXPERT, None, None])
    roll(g, before, "B1", "G1")
    d = die(g, before)
    act(g, f"p0 flip d{d}")
    assert g.die_label(d) == after


def test_disposal_expert_flips_any_rolled_dice_each_once() -> None:
    g = game(THREE, [Ability.DISPOSAL_EXPERT, None, None])
    roll(g, "R2", "B3", "G1")
    r2, b3, g1 = die(g, "R2"), die(g, "B3"), die(g, "G1")
    for d in (r2, b3, g1):
        act(g, f"p0 flip d{d}")
    assert [g.die_label(d) for d in (r2, b3, g1)] == ["R4", "B5", "G6"]
    refused(g, f"p0 flip d{r2}", NotYourDecision, "flipped already")
    assert not [a for a in g.legal_actions(0) if a.verb == "flip"]


# ----------------------------------------------------------------------------- Explosives Instructor
def test_explosives_instructor_rerolls_any_dice_at_most_three_times() -> None:
    g = game(THREE, [Ability.EXPLOSIVES_INSTRUCTOR, None, None])
    roll(g, "R1", "B1", "G1")
    r, b, gr = die(g, "R1"), die(g, "B1"), die(g, "G1")
    act(g, f"p0 rethrow d{r} d{b}")
    assert g.is_chance and len(g.chance_outcomes()) == 36
    g.apply_chance((2, 3))
    assert [g.die_label(d) for d in (r, b, gr)] == ["R2", "B3", "G1"]
    act(g, f"p0 rethrow d{gr}")  # a die that sat out the first reroll joins the second
    g.apply_chance((4,))
    act(g, f"p0 place d{r} T03 s1")
    refused(g, f"p0 rethrow d{r}", NotYourDecision, "still in the middle")  # placed dice stay
    act(g, f"p0 rethrow d{b} d{gr}")
    g.apply_chance((5, 6))
    assert [g.die_label(d) for d in (b, gr)] == ["B5", "G6"]
    refused(g, f"p0 rethrow d{b}", NotYourDecision, "at most 3 rerolls")  # a fourth roll is refused
    assert not [a for a in g.legal_actions(0) if a.verb == "rethrow"]


def test_explosives_instructor_reroll_with_the_games_own_dice() -> None:
    g = game(THREE, [Ability.EXPLOSIVES_INSTRUCTOR, None, None])
    roll(g, "R1", "B1", "G1")
    r1, b1 = die(g, "R1"), die(g, "B1")
    ev = g.apply(Action.parse(f"p0 rethrow d{r1} d{b1}"))
    assert kinds(ev) == ["role_used", "dice_rerolled"] and not g.is_chance
    rerolled = ev[1].data["dice"]
    assert [(d["id"], d["face"]) for d in rerolled] == [(r1, g.faces[r1]), (b1, g.faces[b1])]
    assert g.roles is not None and g.roles.uses == 1


def test_explosives_instructor_rethrow_is_refused_for_the_same_die_twice() -> None:
    g = game(THREE, [Ability.EXPLOSIVES_INSTRUCTOR, None, None])
    roll(g, "R1", "B1", "G1")
    r = die(g, "R1")
    refused(g, f"p0 rethrow d{r} d{r}", NotYourDecision, "still in the middle")


def test_roles_reset_each_turn() -> None:
    # "one a turn": the Technologist's use is counted per turn, and the next leader's role works
    g = game([["T24", "T01"], ["T24", "T01"]], [Ability.TECHNOLOGIST, Ability.TECHNOLOGIST])
    roll(g, "R1", "B1", "G1", "Y1")
    act(g, f"p0 recolour d{die(g, 'R1')} B")
    act(g, "p0 done")
    act(g, "p1 done")
    g.settle()
    assert g.turn == 2 and g.leader == 1 and g.roles.uses == 0 and not g.roles.temp
    roll(g, "R2", "B2", "G2", "Y2")
    act(g, f"p1 recolour d{die(g, 'R2')} K")


# ----------------------------------------------------------------------------- the table of abilities
def test_every_ability_is_a_row_whose_actions_are_its_own_verbs() -> None:
    # a new ability is one row of ABILITIES (A.7): what it allows, its check, what it names or adds;
    # in random Countdown games every role action the leader is offered is of its ability's verbs
    from fusegame.rng import Rng
    from fusegame.rules.roles import ABILITIES, USES, VERBS

    assert set(ABILITIES) == set(Ability)
    assert all(set(rule.verbs) <= set(USES) for rule in ABILITIES.values())
    assert set(VERBS) == set(USES) == {"name"} | {v for rule in ABILITIES.values() for v in rule.verbs}
    offered: set[Ability] = set()
    for seed in range(12):
        g = new_game(GameConfig(players=3, game="countdown", difficulty="standard"), seed=seed)
        rng = Rng(seed)
        for _ in range(300):
            if g.is_over:
                break
            acts = g.legal_actions()
            roles = [a for a in acts if a.verb in VERBS and a.verb != "name"]
            if roles:
                assert g.roles is not None
                ab = g.roles.active(g)
                assert ab is not None and {a.verb for a in roles} <= set(ABILITIES[ab].verbs)
                offered.add(ab)
            g.apply(acts[rng.below(len(acts))])
    assert len(offered) >= 4  # most abilities were met and checked
