"""The typed errors ``GameState.apply`` raises for actions the rules do not allow now.

Every refusal carries a ``code`` (a short stable string, one of ``REFUSALS``) and its ``facts`` (a
small dict of plain values), so that an edge can word it in its own language
(``fusegame.words.refusal_text``); ``str(e)`` is the English sentence, made from ``REFUSALS``,
which is also the English catalogue's (``fusegame.words.en`` reuses it: one source per language).

Templates name facts in braces. ``{slot+1}`` counts from one; ``{n:,}`` takes a format spec. A
``seat`` fact is a seat (``P2``), ``seats`` a list of them (``P1, P3``); a ``die`` fact is a die
view (``rules.views.die_view``), said by its label (``B4``). An edge words those three its own way.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

#: The reason codes of every refusal and their English sentences (the wording ``str(e)`` has).
REFUSALS: dict[str, str] = {
    # the game as a whole
    "game_over": "the game is over",
    "bad_time": "time {at} ms is before the game time {now} ms",
    "waiting_for_roll": "waiting for the dice to be rolled",
    "no_such_seat": "there is no seat {index}",
    "no_chance": "no chance event is pending",
    "not_now": "{action} is not something a player can do now",
    "too_many_moves": "this game has made its {n:,} moves, the most a game may: it ends when its clock "
                      "runs out",
    # chance outcomes given by a caller (a simulator, a test)
    "bad_outcome": "a roll outcome is {n} die types (see chance_outcomes())",
    "bag_short": "the bag holds no more {colours} dice for {outcome}",
    "bad_faces": "this outcome is {n} face(s) 1-6, not {outcome}",
    # the turn
    "waiting_for_name": "waiting for the leader to name a colour or number",
    "waiting_for_cards": "waiting for the defused cards to be replaced",
    "nothing_to_decide": "you have nothing left to decide this turn",
    "already_done": "you already said you are done this turn",
    "quota": "you may take at most {n} dice a turn",
    "die_not_available": "that die is not available (already taken, or not rolled)",
    "not_your_card": "{card} is not one of your cards",
    "card_complete": "{card} is already complete",
    # a die that cannot go on a slot
    "slot_missing": "{die} cannot go on {card} slot {slot+1}: this card has no slot {slot+1}",
    "slot_filled": "{die} cannot go on {card} slot {slot+1}: that slot already holds a die",
    "slot_first": "{die} cannot go on {card} slot {slot+1}: slot {first+1} must be filled first",
    "slot_last": "{die} cannot go on {card} slot {slot+1}: that slot must be the last one filled",
    "slot_beneath": "{die} cannot go on {card} slot {slot+1}: that slot needs the dice beneath it first",
    "slot_icon": "{die} cannot go on {card} slot {slot+1}: the die does not match that slot's icon",
    "slot_relation": "{die} cannot go on {card} slot {slot+1}: the die breaks a relation with a die "
                     "already on the card",
    "slot_dead": "{die} cannot go on {card} slot {slot+1}: the card could no longer be completed (no "
                 "dead placements)",
    # Step 3: defusing and replacing cards
    "defuse_in_step3": "cards are defused in Step 3 (early only with 1-2 players)",
    "not_complete_card": "{card} is not a complete card of yours",
    "nothing_to_replace": "you have no defused card to replace",
    "card_not_in_middle": "{card} cannot be taken (choose a card in the middle)",
    "no_reveal": "no fuse card can be revealed now",
    # the penalty and dice given up
    "no_free_return": "no die can be returned without penalty now",
    "not_unused_die": "that die is not an unused die",
    "leader_rerolls": "{seat} chooses which unused die to roll next",
    "give_up_first": "first {seats} must choose a die to give up",
    "cannot_give_up": "that die cannot be given up (choose a highlighted die)",
    # fuse cards
    "no_roll_six": "nobody has to roll a 6 now",
    "waiting_for_six": "everyone waits for {seats} to roll a 6",
    # role abilities (FUSE: Countdown)
    "role_not_now": "role abilities are used around the turn's roll",
    "nothing_to_name": "nothing to name now",
    "leader_role_only": "only the leader's role can be used",
    "no_role_ability": "the leader has no role ability in use",
    "name_one_of": "{role} names one of {options}",
    "role_dice_in_middle": "abilities work on rolled dice still in the middle",
    "one_colour_only": "a die can only be changed to one colour (R, B, G, Y or K), never to a split die",
    "already_colour": "the die is already {colours}",
    "another_number": "turn the die to another number from 1 to 6",
    "only_named": "only dice rolled as {named} may be changed",
    "changed_once": "each die may be changed once (colour or number, not both)",
    "ability_used": "the ability has been used this turn",
    "already_flipped": "that die has been flipped already",
    "rerolls_max": "at most {n} rerolls a turn",
    "role_cannot": "the {role} cannot do that",
}

_FIELD = re.compile(r"\{(\w+)(\+1)?(:[^}]*)?\}")


def _english_seat(seat: int) -> str:
    return f"P{seat + 1}"


def _english_die(die: Any) -> str:
    return str(die["die"]) if isinstance(die, Mapping) else str(die)


def fill(template: str, facts: Mapping[str, Any], seat: Callable[[int], str] = _english_seat,
         die: Callable[[Any], str] = _english_die,
         value: Callable[[str, Any], str] | None = None) -> str:
    """``template`` with its fields filled from ``facts`` (see the module's docstring); ``seat``,
    ``die`` and ``value(key, fact)`` say seats, dice and any other fact in a language."""
    def one(m: re.Match[str]) -> str:
        key, plus, spec = m.group(1), m.group(2), m.group(3)
        if key not in facts:
            return m.group(0)
        v = facts[key]
        if plus:
            return str(int(v) + 1)
        if spec:
            return format(v, spec[1:])
        if key == "seat":
            return seat(int(v))
        if key == "seats":
            return ", ".join(seat(int(s)) for s in v)
        if key == "die":
            return die(v)
        return value(key, v) if value is not None else str(v)
    return _FIELD.sub(one, template)


def refusal_english(code: str, facts: Mapping[str, Any]) -> str:
    """The English sentence for refusal ``code`` with ``facts`` (the code itself when unknown)."""
    template = REFUSALS.get(code)
    return code if template is None else fill(template, facts)


class IllegalAction(ValueError):
    """An action the rules do not allow now: ``code`` (one of ``REFUSALS``) and ``facts`` say which
    and why; ``str(e)`` is the English sentence, meant for the player."""

    def __init__(self, code: str, facts: dict[str, Any] | None = None) -> None:
        self.code = code
        self.facts: dict[str, Any] = dict(facts) if facts else {}
        super().__init__(refusal_english(code, self.facts))


class GameOverError(IllegalAction):
    """The game has ended: no action is accepted."""


class NotYourDecision(IllegalAction):
    """This seat cannot make this kind of decision now."""


class IllegalPlacement(IllegalAction):
    """The die cannot go on that slot."""


class BadTime(IllegalAction):
    """The action's time is before the game's current time."""


__all__ = ["REFUSALS", "BadTime", "GameOverError", "IllegalAction", "IllegalPlacement", "NotYourDecision",
           "fill", "refusal_english"]
