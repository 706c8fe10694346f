"""Role abilities (RULES.md A.7, G-27, G-29, G-34, G-35): what the leader may do with them, and
their effect on the dice of the turn's roll.

Only the leader's role works, and only while its card is face up. Abilities act on the main roll
only, on dice still in the middle (placed dice never change: D.7). Cutter and Operations Engineer
name a colour or number before the draw; the others act between the roll and the end of the
distribution. Colour changes are temporary (the die reverts once placed, D.9); number changes
turn the die for good.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from fusegame.cards.model import Ability
from fusegame.dice import BY_LETTER, COLOURS, LETTERS, colours_text, die_type
from fusegame.rules.actions import Action, Flip, Name, Recolour, Renumber, Rethrow
from fusegame.rules.events import Event

if TYPE_CHECKING:
    from fusegame.rules.state import GameState

#: Abilities used on the roll, and the most times a turn each may be used (None: once per die).
MAX_REROLLS = 3
NAMING = (Ability.CUTTER, Ability.OPERATIONS_ENGINEER)


def active_ability(g: GameState) -> Ability | None:
    """The leader's ability, if roles are in play and the leader's card is face up."""
    if not g.roles:
        return None
    role = g.roles[g.leader]
    if not role or not g.roles_up[g.leader]:
        return None
    return g.role(role).ability


def needs_name(g: GameState) -> bool:
    """Before this turn's draw, must the leader name a colour or a number?"""
    return not g.named and active_ability(g) in NAMING


def name_options(g: GameState) -> tuple[str, ...]:
    if active_ability(g) is Ability.CUTTER:
        return tuple(LETTERS[c] for c in COLOURS)
    return tuple(str(f) for f in range(1, 7))


def after_roll(g: GameState, drawn: list[int]) -> None:
    """Note which rolled dice the named colour or number makes changeable."""
    ab = active_ability(g)
    if ab is Ability.CUTTER and g.named:
        colour = BY_LETTER[g.named]
        g.role_eligible = [d for d in drawn if g.dice.colours[d] & colour]
    elif ab is Ability.OPERATIONS_ENGINEER and g.named:
        g.role_eligible = [d for d in drawn if g.faces[d] == int(g.named)]


def _new_colours(g: GameState, die: int) -> list[str]:
    # a split die may become one colour (even one of its own); a single die any other colour
    cs = g.dice.colours[die]
    return [LETTERS[c] for c in COLOURS if c != cs]


def role_actions(g: GameState, at: int) -> list[Action]:
    """Every ability action the leader may take now (empty outside the distribution)."""
    ab = active_ability(g)
    if ab is None or not g.free or ab is Ability.LOGISTICS_SPECIALIST:
        return []
    s = g.leader
    out: list[Action] = []
    free = g.free
    if ab in NAMING:
        for d in free:
            if d in g.role_eligible and d not in g.role_dice:
                out += [Recolour(s, at, d, c) for c in _new_colours(g, d)]
                out += [Renumber(s, at, d, f) for f in range(1, 7) if f != g.faces[d]]
    elif ab is Ability.TECHNOLOGIST and not g.role_uses:
        for d in free:
            out += [Recolour(s, at, d, c) for c in _new_colours(g, d)]
    elif ab is Ability.EQUIPMENT_TECHNICIAN and not g.role_uses:
        for d in free:
            out += [Renumber(s, at, d, f) for f in range(1, 7) if f != g.faces[d]]
    elif ab is Ability.DISPOSAL_EXPERT:
        out += [Flip(s, at, d) for d in free if d not in g.role_dice]
    elif ab is Ability.EXPLOSIVES_INSTRUCTOR and g.role_uses < MAX_REROLLS:
        for k in range(1, len(free) + 1):
            out += [Rethrow(s, at, c) for c in combinations(sorted(free), k)]
    return out


def why_not(g: GameState, a: Action) -> str:
    """'' when the leader may take ability action ``a`` now, else the reason."""
    ab = active_ability(g)
    if a.seat != g.leader:
        return "only the leader's role can be used"
    if ab is None:
        return "the leader has no role ability in use"
    if isinstance(a, Name):
        if not needs_name(g):
            return "nothing to name now"
        if a.value not in name_options(g):
            return f"{g.role(g.roles[g.leader]).name} names one of {' '.join(name_options(g))}"
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
        if a.die not in g.role_eligible:
            return f"only dice rolled as {g.named} may be changed"
        if a.die in g.role_dice:
            return "each die may be changed once (colour or number, not both)"
        return ""
    if ab is Ability.TECHNOLOGIST and isinstance(a, Recolour) or (
            ab is Ability.EQUIPMENT_TECHNICIAN and isinstance(a, Renumber)):
        return "the ability has been used this turn" if g.role_uses else ""
    if ab is Ability.DISPOSAL_EXPERT and isinstance(a, Flip):
        return "that die has been flipped already" if a.die in g.role_dice else ""
    if ab is Ability.EXPLOSIVES_INSTRUCTOR and isinstance(a, Rethrow):
        return f"at most {MAX_REROLLS} rerolls a turn" if g.role_uses >= MAX_REROLLS else ""
    return f"the {g.role(g.roles[g.leader]).name} cannot do that"


def apply_role_action(g: GameState, a: Action, ev: list[Event]) -> None:
    """Carry out a validated ability action (a Rethrow leaves its dice to the next chance step)."""
    if isinstance(a, Name):
        g.named = a.value
        ev.append(Event("role_used", {"seat": a.seat, "role": "name", "value": a.value}))
        return
    if isinstance(a, Recolour):
        g.temp[a.die] = BY_LETTER[a.colour]
        g.role_dice.append(a.die)
        g.role_uses += 1
        ev.append(Event("role_used", {"seat": a.seat, "role": "recolour", "die_id": a.die,
                                      "die": g.die_label(a.die), "colour": a.colour}))
    elif isinstance(a, (Renumber, Flip)):
        face = a.face if isinstance(a, Renumber) else g.dice.opposite_face(g.faces[a.die])
        g.set_face(a.die, face)
        g.role_dice.append(a.die)
        g.role_uses += 1
        ev.append(Event("role_used", {"seat": a.seat, "role": a.verb, "die_id": a.die,
                                      "die": g.die_label(a.die)}))
    elif isinstance(a, Rethrow):
        g.rethrow = list(a.dice)
        g.role_uses += 1
        ev.append(Event("role_used", {"seat": a.seat, "role": "rethrow", "die_ids": list(a.dice)}))


def effective_type(g: GameState, die: int) -> int:
    """The type a die counts as for placement now (its temporary colour, if it has one)."""
    t = g.temp.get(die)
    return g.types[die] if t is None else die_type(t, g.faces[die])
