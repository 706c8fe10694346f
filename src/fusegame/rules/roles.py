"""Role cards (docs/rules.md A.7, G-27, G-29, G-34, G-35, G-46): one per player, and what the leader may
do with theirs to the dice of the turn's roll.

Only the leader's role works, and only while its card is face up. Abilities act on the main roll
only, on dice still in the middle (placed dice never change: D.7). Cutter and Operations Engineer
name a colour or number before the draw; the others act between the roll and the end of the
distribution. Colour changes are temporary (the die reverts once placed, D.9); number changes
turn the die for good. The Logistics Specialist draws one more die; with FUSE's penalty rolls the
leader may send an untaken die back free instead (``rules.penalty``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, product
from typing import TYPE_CHECKING, Any, Final

from fusegame.cards.model import Ability
from fusegame.dice import BY_LETTER, COLOURS, LETTERS, colours_text, die_type
from fusegame.rules.actions import Action, Flip, Name, Recolour, Renumber, Rethrow
from fusegame.rules.decisions import Pending, check_faces, push
from fusegame.rules.events import Event
from fusegame.rules.games import Phase
from fusegame.rules.schema import (
    ColourMap,
    Count,
    Dice,
    DocContext,
    Flag,
    Kind,
    Part,
    ScenarioError,
    declared,
    kind_of,
    read_bool,
    read_list,
)
from fusegame.rules.views import die_view

if TYPE_CHECKING:
    from fusegame.rules.state import GameState

#: The most rerolls an Explosives Instructor may make in a turn.
MAX_REROLLS: Final = 3


NO_ROLES = ("this game has no role cards (they are in countdown and integrated games, and in FUSE with "
            "modules: [roles])")
NOBODY = "nobody has a role card (give the roles)"
#: the steps of a turn after its roll (a Logistics leader's extra die counts then)
AFTER_ROLL = (Phase.DISTRIBUTE, Phase.DEFUSE, Phase.SPARKS, Phase.PENALTY)


class RoleCards(Kind):
    """One role card id per seat (``""``: none); documents may name the role instead."""

    stage = 1

    def copy(self, v: list[str]) -> list[str]:
        return v[:]

    def read(self, raw: Any, where: str, ctx: DocContext) -> list[str]:
        return ctx.role_ids(raw, where)

    def write(self, v: list[str], ctx: DocContext) -> list[str | None]:
        return [r or None for r in v]


class FaceUp(Kind):
    """Per seat, whether the role card is face up (documents may write one true/false for all)."""

    stage = 1

    def copy(self, v: list[bool]) -> list[bool]:
        return v[:]

    def read(self, raw: Any, where: str, ctx: DocContext) -> list[bool]:
        n = ctx.players
        if isinstance(raw, bool):
            return [raw] * n
        items = read_list(raw, where)
        if len(items) != n:
            raise ScenarioError(where, f"lists {len(items)} values for {n} players (or write one true/false "
                                       "for all)")
        return [read_bool(x, f"{where}[{i}]") for i, x in enumerate(items)]


class Named(Kind):
    """The colour letter or number a Cutter or Operations Engineer named (``""``: none)."""

    def read(self, raw: Any, where: str, ctx: DocContext) -> str:
        if isinstance(raw, int) and not isinstance(raw, bool):
            raw = str(raw)
        if not isinstance(raw, str):
            raise ScenarioError(where, f"expected a colour letter or a number, got {kind_of(raw)}")
        return raw


@dataclass
class Roles(Part):
    """Each seat's role card (``""`` for none) and whether it is face up; the state of the leader's
    ability this turn."""

    cards: list[str] = declared(RoleCards(), default_factory=list, doc="roles", view=None)
    up: list[bool] = declared(FaceUp(), default_factory=list, doc="roles_up", view=None)
    named: str = declared(Named(), default="", doc="named", view=None)  #: the colour letter or number named
    eligible: list[int] = declared(Dice(lambda g: g.rolled), default_factory=list, doc="role_eligible",
                                   view="role_eligible")  #: rolled dice the named colour/number lets change
    changed: list[int] = declared(Dice(lambda g: g.rolled), default_factory=list, doc="role_dice",
                                  view="role_dice")  #: dice already changed or flipped this turn
    uses: int = declared(Count(), default=0, doc="role_uses", view="role_uses")  #: ability uses this turn
    #: a Logistics Specialist leads: one more die this turn
    bonus_die: bool = declared(Flag(), default=False, doc="bonus_die", view="bonus_die")
    temp: dict[int, int] = declared(ColourMap(), default_factory=dict, doc=None, view=None)  #: die -> colour

    # -- queries ------------------------------------------------------------------------------
    def active(self, g: GameState) -> Ability | None:
        """The leader's ability, if the leader's card is face up."""
        role = self.cards[g.leader] if g.leader < len(self.cards) else ""
        if not role or not self.up[g.leader]:
            return None
        return g.role(role).ability

    def needs_name(self, g: GameState) -> bool:
        """Before this turn's draw, must the leader name a colour or a number?"""
        ab = self.active(g)
        return not self.named and ab is not None and bool(ABILITIES[ab].names)

    def name_options(self, g: GameState) -> tuple[str, ...]:
        """What the leader's ability names before the draw (``()`` for an ability that names nothing)."""
        ab = self.active(g)
        return ABILITIES[ab].names if ab is not None else ()

    def extra_dice(self, g: GameState) -> int:
        """A Logistics Specialist leading draws one more die."""
        ab = self.active(g)
        return ABILITIES[ab].extra_dice if ab is not None else 0

    def default_bonus(self, g: GameState) -> bool:
        """A Logistics Specialist leading this turn's roll (docs/rules.md A.7): one more die, quota + 1."""
        return g.phase in AFTER_ROLL and self.extra_dice(g) > 0

    def mark_eligible(self, g: GameState, drawn: Sequence[int]) -> None:
        """Note which rolled dice the named colour or number lets change."""
        ab = self.active(g)
        rolled_as = ABILITIES[ab].named if ab is not None else None
        if rolled_as is not None and self.named:
            self.eligible = [d for d in drawn if rolled_as(g, d, self.named)]

    # -- scenario documents --------------------------------------------------------------------
    @classmethod
    def absent_message(cls, key: str) -> str:
        return NO_ROLES if key in ("roles", "roles_up") else NOBODY

    def read_doc(self, doc: Mapping[str, Any], ctx: DocContext, stage: int) -> set[str]:
        given = super().read_doc(doc, ctx, stage)
        g = ctx.state if stage > 1 else None
        if stage == 1:
            if "roles_up" in given and "roles" not in given:
                raise ScenarioError("roles_up", "give the role cards (roles) too")
            if self.cards and not self.up:
                self.up = [True] * len(self.cards)
        elif stage == 2 and self.named and g is not None:
            role = self.cards[g.leader] if self.cards else ""
            ability = g.role(role).ability if role else None
            if ability is Ability.CUTTER:
                if self.named not in BY_LETTER:
                    raise ScenarioError("named", "the Cutter names a colour (R, B, G, Y or K), not "
                                                 f"{self.named!r}")
            elif ability is Ability.OPERATIONS_ENGINEER:
                if self.named not in ("1", "2", "3", "4", "5", "6"):
                    raise ScenarioError("named", f"the Operations Engineer names a number (1-6), not "
                                                 f"{self.named!r}")
            else:
                raise ScenarioError("named", f"only a Cutter or an Operations Engineer names a colour or "
                                             f"number, and the leader (seat {g.leader}) is neither")
        elif stage == 3 and g is not None:
            if doc.get("role_eligible") is None and self.named and g.phase is Phase.DISTRIBUTE:
                self.mark_eligible(g, g.rolled)
            if doc.get("role_uses") is None:
                self.uses = len(self.changed)
            if doc.get("bonus_die") is None:
                self.bonus_die = self.default_bonus(g)
        return given

    def before_doc(self, g: GameState, doc: Mapping[str, Any], over: bool) -> None:
        if not self.cards:
            for key in ("named", "role_eligible", "role_dice", "role_uses"):
                if doc.get(key):
                    raise ScenarioError(key, NOBODY)

    def write_doc(self, g: GameState, ctx: DocContext) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.cards:
            out["roles"] = [r or None for r in self.cards]
            if not all(self.up):
                out["roles_up"] = self.up[:]
        if self.named:
            out["named"] = self.named
            out["role_eligible"] = [ctx.die_text(d) for d in self.eligible]
        if self.changed:
            out["role_dice"] = [ctx.die_text(d) for d in self.changed]
        if self.uses != len(self.changed):
            out["role_uses"] = self.uses
        if self.bonus_die != self.default_bonus(g):
            out["bonus_die"] = self.bonus_die
        return out

    def view(self, g: GameState) -> dict[str, Any]:
        out = super().view(g)
        ability = self.active(g)
        out["roles"] = [_role_view(g, s, rid, self.up[s]) for s, rid in enumerate(self.cards)]
        out["active_ability"] = None if ability is None else ability.value
        out["named"] = self.named or None
        return out

    # -- hooks into the turn -------------------------------------------------------------------
    def after_roll(self, g: GameState, drawn: list[int]) -> None:
        """A Logistics leader's extra die; which rolled dice the named colour or number lets change."""
        self.bonus_die = self.active(g) is Ability.LOGISTICS_SPECIALIST
        self.mark_eligible(g, drawn)

    def on_placed(self, g: GameState, die: int) -> None:
        self.temp.pop(die, None)  # D.9: a changed colour reverts once the die is placed

    def on_bomb_defused(self, g: GameState, seat: int, ev: list[Event]) -> None:
        """"Until they defuse a bomb card": a lost role turns face up again."""
        if self.up and not self.up[seat]:
            self.up[seat] = True
            if g.listening:
                ev.append(Event("role_restored", {"seat": seat}))

    def on_distribution_end(self, g: GameState) -> None:
        self.temp.clear()

    def on_turn_end(self, g: GameState) -> None:
        self.named = ""
        self.eligible, self.changed, self.uses = [], [], 0
        self.bonus_die = False

    def lose_all(self, g: GameState) -> None:
        """"All players lose their role ability until they defuse a bomb card.\""""
        if self.up:
            self.up = [False] * g.players

    # -- the abilities -------------------------------------------------------------------------
    def actions(self, g: GameState, at: int) -> list[Action]:
        """Every ability action the leader may take now (empty outside the distribution)."""
        ab = self.active(g)
        if ab is None or not g.free:
            return []
        return ABILITIES[ab].actions(self, g, g.leader, at)

    def use(self, g: GameState, a: Action, ev: list[Event]) -> None:
        """Carry out a checked ability action (a Rethrow leaves its dice to the next chance step)."""
        USES[a.verb](self, g, a, ev)


Part.register(Roles, "roles", shown_when_absent=True)


def _use_name(r: Roles, g: GameState, a: Action, ev: list[Event]) -> None:
    assert isinstance(a, Name)
    r.named = a.value
    if g.listening:
        ev.append(Event("role_used", {"seat": a.seat, "role": "name", "value": a.value}))


def _use_recolour(r: Roles, g: GameState, a: Action, ev: list[Event]) -> None:
    assert isinstance(a, Recolour)
    r.temp[a.die] = BY_LETTER[a.colour]
    r.changed.append(a.die)
    r.uses += 1
    if g.listening:
        ev.append(Event("role_used", {"seat": a.seat, "role": "recolour", "die": die_view(g, a.die),
                                      "colour": a.colour}))


def _use_turn(r: Roles, g: GameState, a: Action, ev: list[Event]) -> None:
    assert isinstance(a, (Renumber, Flip))
    face = a.face if isinstance(a, Renumber) else g.dice.opposite_face(g.faces[a.die])
    g.set_face(a.die, face)
    r.changed.append(a.die)
    r.uses += 1
    if g.listening:
        ev.append(Event("role_used", {"seat": a.seat, "role": a.verb, "die": die_view(g, a.die)}))


def _use_rethrow(r: Roles, g: GameState, a: Action, ev: list[Event]) -> None:
    assert isinstance(a, Rethrow)
    r.uses += 1
    if g.listening:
        ev.append(Event("role_used", {"seat": a.seat, "role": "rethrow",
                                      "dice": [die_view(g, d) for d in a.dice]}))
    push(g, Rerolling(list(a.dice)))


#: verb -> what a checked ability action does (the verbs of the role abilities).
USES: dict[str, Callable[[Roles, GameState, Action, list[Event]], None]] = {
    "name": _use_name,
    "recolour": _use_recolour,
    "renumber": _use_turn,
    "flip": _use_turn,
    "rethrow": _use_rethrow,
}

# -- the abilities, one row each ---------------------------------------------------------------
def _changes_colour_or_number(r: Roles, g: GameState, s: int, at: int) -> list[Action]:
    # Cutter, Operations Engineer: each die rolled as the named colour or number, once
    out: list[Action] = []
    for d in g.free:
        if d in r.eligible and d not in r.changed:
            out += [Recolour(s, at, d, c) for c in _new_colours(g, d)]
            out += [Renumber(s, at, d, f) for f in range(1, 7) if f != g.faces[d]]
    return out


def _recolours_one(r: Roles, g: GameState, s: int, at: int) -> list[Action]:
    if r.uses:
        return []
    out: list[Action] = []
    for d in g.free:
        out += [Recolour(s, at, d, c) for c in _new_colours(g, d)]
    return out


def _renumbers_one(r: Roles, g: GameState, s: int, at: int) -> list[Action]:
    if r.uses:
        return []
    out: list[Action] = []
    for d in g.free:
        out += [Renumber(s, at, d, f) for f in range(1, 7) if f != g.faces[d]]
    return out


def _flips(r: Roles, g: GameState, s: int, at: int) -> list[Action]:
    return [Flip(s, at, d) for d in g.free if d not in r.changed]


def _rethrows(r: Roles, g: GameState, s: int, at: int) -> list[Action]:
    out: list[Action] = []
    if r.uses < MAX_REROLLS:
        free = g.free
        for k in range(1, len(free) + 1):
            out += [Rethrow(s, at, c) for c in combinations(sorted(free), k)]
    return out


def _nothing(r: Roles, g: GameState, s: int, at: int) -> list[Action]:
    return []


def _check_named_change(r: Roles, g: GameState, a: Action) -> tuple[str, dict[str, Any]]:
    assert isinstance(a, (Recolour, Renumber))
    if a.die not in r.eligible:
        return "only_named", {"named": r.named}
    if a.die in r.changed:
        return "changed_once", {}
    return "", {}


def _check_once_a_turn(r: Roles, g: GameState, a: Action) -> tuple[str, dict[str, Any]]:
    return ("ability_used", {}) if r.uses else ("", {})


def _check_flip(r: Roles, g: GameState, a: Action) -> tuple[str, dict[str, Any]]:
    assert isinstance(a, Flip)
    return ("already_flipped", {}) if a.die in r.changed else ("", {})


def _check_rethrow(r: Roles, g: GameState, a: Action) -> tuple[str, dict[str, Any]]:
    return ("rerolls_max", {"n": MAX_REROLLS}) if r.uses >= MAX_REROLLS else ("", {})


def _rolled_as_colour(g: GameState, die: int, named: str) -> bool:
    return bool(g.dice.colours[die] & BY_LETTER[named])


def _rolled_as_number(g: GameState, die: int, named: str) -> bool:
    return g.faces[die] == int(named)


@dataclass(frozen=True)
class AbilityRule:
    """One role ability (docs/rules.md A.7): the verbs of its actions, every such action it allows
    now, its own check of one (``("", {})`` when allowed, else a refusal's code and facts; the
    checks every ability shares come first, in ``why_not``), and what it names before the roll or
    adds to the draw. A new ability is a row here; its actions' effects are ``USES``, by verb."""

    verbs: tuple[str, ...]
    actions: Callable[[Roles, GameState, int, int], list[Action]]
    check: Callable[[Roles, GameState, Action], tuple[str, dict[str, Any]]] | None = None
    #: what the leader names before the draw (a colour letter or a number), and which rolled dice
    #: the name lets change
    names: tuple[str, ...] = ()
    named: Callable[[GameState, int, str], bool] | None = None
    extra_dice: int = 0  #: more dice drawn while it leads


#: Every ability of the role cards: a test checks that none is missing.
ABILITIES: dict[Ability, AbilityRule] = {
    Ability.CUTTER: AbilityRule(("recolour", "renumber"), _changes_colour_or_number, _check_named_change,
                                names=tuple(LETTERS[c] for c in COLOURS), named=_rolled_as_colour),
    Ability.OPERATIONS_ENGINEER: AbilityRule(("recolour", "renumber"), _changes_colour_or_number,
                                             _check_named_change, names=tuple(str(f) for f in range(1, 7)),
                                             named=_rolled_as_number),
    Ability.TECHNOLOGIST: AbilityRule(("recolour",), _recolours_one, _check_once_a_turn),
    Ability.EQUIPMENT_TECHNICIAN: AbilityRule(("renumber",), _renumbers_one, _check_once_a_turn),
    Ability.DISPOSAL_EXPERT: AbilityRule(("flip",), _flips, _check_flip),
    Ability.EXPLOSIVES_INSTRUCTOR: AbilityRule(("rethrow",), _rethrows, _check_rethrow),
    Ability.LOGISTICS_SPECIALIST: AbilityRule((), _nothing, extra_dice=1),
}
#: The abilities that name a colour or number before the draw.
NAMING = tuple(ab for ab, rule in ABILITIES.items() if rule.names)
#: The verbs of the role abilities.
VERBS: tuple[str, ...] = tuple(USES)



def _role_view(g: GameState, seat: int, rid: str, up: bool) -> dict[str, Any]:
    if not rid:
        return {"seat": seat, "id": None, "name": None, "ability": None, "face_up": False, "text": None}
    r = g.role(rid)
    return {"seat": seat, "id": r.id, "name": r.name, "ability": r.ability.value, "face_up": up,
            "text": r.text}


def _new_colours(g: GameState, die: int) -> list[str]:
    # a split die may become one colour (even one of its own); a single die any other colour
    cs = g.dice.colours[die]
    return [LETTERS[c] for c in COLOURS if c != cs]


def why_not(g: GameState, a: Action) -> tuple[str, dict[str, Any]]:
    """``("", {})`` when the leader may take ability action ``a`` now, else the refusal's code and
    facts (``rules.errors.REFUSALS``)."""
    r = g.roles
    ab = r.active(g) if r is not None else None
    if a.seat != g.leader:
        return "leader_role_only", {}
    if r is None or ab is None:
        return "no_role_ability", {}
    if isinstance(a, Name):
        if not r.needs_name(g):
            return "nothing_to_name", {}
        if a.value not in r.name_options(g):
            return "name_one_of", {"role": g.role(r.cards[g.leader]).name, "ability": ab.value,
                                   "options": " ".join(r.name_options(g))}
        return "", {}
    if not g.free:
        return "role_dice_in_middle", {}
    dice = a.dice if isinstance(a, Rethrow) else (getattr(a, "die", -1),)
    if not dice or any(d not in g.free for d in dice) or len(set(dice)) != len(dice):
        return "role_dice_in_middle", {}
    if isinstance(a, Recolour):
        # A.7: a die changes to one of the five colours; a single-colour die never becomes split
        # (the action can be built with any text, so say why rather than "already R")
        if a.colour not in LETTERS.values():
            return "one_colour_only", {}
        if a.colour not in _new_colours(g, a.die):
            return "already_colour", {"colours": colours_text(g.dice.colours[a.die])}
    if isinstance(a, Renumber) and not (1 <= a.face <= 6 and a.face != g.faces[a.die]):
        return "another_number", {}
    rule = ABILITIES[ab]
    if a.verb in rule.verbs and rule.check is not None:
        return rule.check(r, g, a)
    return "role_cannot", {"role": g.role(r.cards[g.leader]).name, "ability": ab.value}


@dataclass
class Rerolling(Pending):
    """The Explosives Instructor's dice in the air (a chance node: their new faces)."""

    dice: list[int] = declared(Dice(lambda g: g.free), default_factory=list, doc="rethrow", view="rerolling")

    @classmethod
    def absent_message(cls, key: str) -> str:
        return NOBODY

    def empty(self) -> bool:
        return not self.dice

    def before_doc(self, g: GameState, doc: Mapping[str, Any], over: bool) -> None:
        if g.roles is None or not g.roles.cards:
            raise ScenarioError("rethrow", NOBODY)
        if g.phase is not Phase.DISTRIBUTE and not over:
            raise ScenarioError("rethrow", "the Explosives Instructor rerolls dice only during the "
                                           "distribution")

    def chance(self, g: GameState) -> bool:
        return True

    def run(self, g: GameState, ev: list[Event], chance: bool) -> bool:
        if not chance:
            return False
        self.land(g, [g.rng.below(6) + 1 for _ in self.dice], ev)
        return True

    def land(self, g: GameState, faces: Sequence[int], ev: list[Event]) -> None:
        for d, f in zip(self.dice, faces):
            g.set_face(d, f)
        if g.listening:
            ev.append(Event("dice_rerolled", {"dice": [die_view(g, d) for d in self.dice]}))
        self.finish(g)

    def outcomes(self, g: GameState) -> list[tuple[tuple[int, ...], float]]:
        k = len(self.dice)
        return [(fs, 1 / 6 ** k) for fs in product(range(1, 7), repeat=k)]

    def settle_chance(self, g: GameState, outcome: Any, ev: list[Event]) -> None:
        check_faces(outcome, len(self.dice))
        self.land(g, list(outcome), ev)


Part.register(Rerolling, "rethrow", shown_when_absent=True, needs="roles")


def effective_type(g: GameState, die: int) -> int:
    """The type a die counts as for placement now (its temporary colour, if it has one)."""
    t = g.temp_colour(die)
    return g.types[die] if not t else die_type(t, g.faces[die])


__all__ = ["MAX_REROLLS", "NAMING", "Rerolling", "Roles", "VERBS", "effective_type", "why_not"]
