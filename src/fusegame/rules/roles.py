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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, product
from typing import TYPE_CHECKING, Any, Final

from fusegame.cards.model import Ability
from fusegame.dice import BY_LETTER, COLOURS, LETTERS, colours_text, die_type
from fusegame.rules.actions import Action, Flip, Name, Recolour, Renumber, Rethrow
from fusegame.rules.decisions import Pending, push
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
NAMING = (Ability.CUTTER, Ability.OPERATIONS_ENGINEER)
#: The verbs of the role abilities.
VERBS: tuple[str, ...] = ("name", "recolour", "renumber", "flip", "rethrow")


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
        return not self.named and self.active(g) in NAMING

    def name_options(self, g: GameState) -> tuple[str, ...]:
        if self.active(g) is Ability.CUTTER:
            return tuple(LETTERS[c] for c in COLOURS)
        return tuple(str(f) for f in range(1, 7))

    def extra_dice(self, g: GameState) -> int:
        """A Logistics Specialist leading draws one more die."""
        return 1 if self.active(g) is Ability.LOGISTICS_SPECIALIST else 0

    def default_bonus(self, g: GameState) -> bool:
        """A Logistics Specialist leading this turn's roll (docs/rules.md A.7): one more die, quota + 1."""
        return g.phase in AFTER_ROLL and self.active(g) is Ability.LOGISTICS_SPECIALIST

    def mark_eligible(self, g: GameState, drawn: Sequence[int]) -> None:
        """Note which rolled dice the named colour or number lets change."""
        ab = self.active(g)
        if ab is Ability.CUTTER and self.named:
            colour = BY_LETTER[self.named]
            self.eligible = [d for d in drawn if g.dice.colours[d] & colour]
        elif ab is Ability.OPERATIONS_ENGINEER and self.named:
            self.eligible = [d for d in drawn if g.faces[d] == int(self.named)]

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
        if ab is None or not g.free or ab is Ability.LOGISTICS_SPECIALIST:
            return []
        s = g.leader
        out: list[Action] = []
        free = g.free
        if ab in NAMING:
            for d in free:
                if d in self.eligible and d not in self.changed:
                    out += [Recolour(s, at, d, c) for c in _new_colours(g, d)]
                    out += [Renumber(s, at, d, f) for f in range(1, 7) if f != g.faces[d]]
        elif ab is Ability.TECHNOLOGIST and not self.uses:
            for d in free:
                out += [Recolour(s, at, d, c) for c in _new_colours(g, d)]
        elif ab is Ability.EQUIPMENT_TECHNICIAN and not self.uses:
            for d in free:
                out += [Renumber(s, at, d, f) for f in range(1, 7) if f != g.faces[d]]
        elif ab is Ability.DISPOSAL_EXPERT:
            out += [Flip(s, at, d) for d in free if d not in self.changed]
        elif ab is Ability.EXPLOSIVES_INSTRUCTOR and self.uses < MAX_REROLLS:
            for k in range(1, len(free) + 1):
                out += [Rethrow(s, at, c) for c in combinations(sorted(free), k)]
        return out

    def use(self, g: GameState, a: Action, ev: list[Event]) -> None:
        """Carry out a checked ability action (a Rethrow leaves its dice to the next chance step)."""
        if isinstance(a, Name):
            self.named = a.value
            if g.listening:
                ev.append(Event("role_used", {"seat": a.seat, "role": "name", "value": a.value}))
            return
        if isinstance(a, Recolour):
            self.temp[a.die] = BY_LETTER[a.colour]
            self.changed.append(a.die)
            self.uses += 1
            if g.listening:
                ev.append(Event("role_used", {"seat": a.seat, "role": "recolour", "die": die_view(g, a.die),
                                              "colour": a.colour}))
        elif isinstance(a, (Renumber, Flip)):
            face = a.face if isinstance(a, Renumber) else g.dice.opposite_face(g.faces[a.die])
            g.set_face(a.die, face)
            self.changed.append(a.die)
            self.uses += 1
            if g.listening:
                ev.append(Event("role_used", {"seat": a.seat, "role": a.verb, "die": die_view(g, a.die)}))
        elif isinstance(a, Rethrow):
            self.uses += 1
            if g.listening:
                ev.append(Event("role_used", {"seat": a.seat, "role": "rethrow",
                                              "dice": [die_view(g, d) for d in a.dice]}))
            push(g, Rerolling(list(a.dice)))


Part.register(Roles, "roles", shown_when_absent=True)


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


def why_not(g: GameState, a: Action) -> str:
    """'' when the leader may take ability action ``a`` now, else the reason."""
    r = g.roles
    ab = r.active(g) if r is not None else None
    if a.seat != g.leader:
        return "only the leader's role can be used"
    if r is None or ab is None:
        return "the leader has no role ability in use"
    if isinstance(a, Name):
        if not r.needs_name(g):
            return "nothing to name now"
        if a.value not in r.name_options(g):
            return f"{g.role(r.cards[g.leader]).name} names one of {' '.join(r.name_options(g))}"
        return ""
    if not g.free:
        return "abilities work on rolled dice still in the middle"
    dice = a.dice if isinstance(a, Rethrow) else (getattr(a, "die", -1),)
    if not dice or any(d not in g.free for d in dice) or len(set(dice)) != len(dice):
        return "abilities work on rolled dice still in the middle"
    if isinstance(a, Recolour):
        # A.7: a die changes to one of the five colours; a single-colour die never becomes split
        # (the action can be built with any text, so say why rather than "already R")
        if a.colour not in LETTERS.values():
            return "a die can only be changed to one colour (R, B, G, Y or K), never to a split die"
        if a.colour not in _new_colours(g, a.die):
            return f"the die is already {colours_text(g.dice.colours[a.die])}"
    if isinstance(a, Renumber) and not (1 <= a.face <= 6 and a.face != g.faces[a.die]):
        return "turn the die to another number from 1 to 6"
    if ab in NAMING and isinstance(a, (Recolour, Renumber)):
        if a.die not in r.eligible:
            return f"only dice rolled as {r.named} may be changed"
        if a.die in r.changed:
            return "each die may be changed once (colour or number, not both)"
        return ""
    if ab is Ability.TECHNOLOGIST and isinstance(a, Recolour) or (
            ab is Ability.EQUIPMENT_TECHNICIAN and isinstance(a, Renumber)):
        return "the ability has been used this turn" if r.uses else ""
    if ab is Ability.DISPOSAL_EXPERT and isinstance(a, Flip):
        return "that die has been flipped already" if a.die in r.changed else ""
    if ab is Ability.EXPLOSIVES_INSTRUCTOR and isinstance(a, Rethrow):
        return f"at most {MAX_REROLLS} rerolls a turn" if r.uses >= MAX_REROLLS else ""
    return f"the {g.role(r.cards[g.leader]).name} cannot do that"


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
        from fusegame.rules.fuse_cards import check_faces

        check_faces(outcome, len(self.dice))
        self.land(g, list(outcome), ev)


Part.register(Rerolling, "rethrow", shown_when_absent=True, needs="roles")


def effective_type(g: GameState, die: int) -> int:
    """The type a die counts as for placement now (its temporary colour, if it has one)."""
    t = g.temp_colour(die)
    return g.types[die] if not t else die_type(t, g.faces[die])


__all__ = ["MAX_REROLLS", "NAMING", "Rerolling", "Roles", "VERBS", "effective_type", "why_not"]
