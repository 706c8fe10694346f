"""The game state and the one pipeline that changes it.

``GameState`` holds a whole game as plain data (the seeded generator included), so it can be
cloned, saved as JSON and replayed exactly. Actions come from any seat that may act now, in any
order (the games are played in real time); ``apply`` validates and returns the events it caused.
Chance (the turn's draw and roll, penalty rerolls, role rerolls, "roll a 6") is resolved with the
state's own generator, or left open for a solver with ``chance=False`` (see ``chance_outcomes``
and ``apply_chance``).

A FUSE turn follows RULES.md C.1.7: roll, distribution (with defusals, replacement picks and fuse
cards as they happen), the unused-dice penalty one die at a time, then the bag passes on.
A Countdown turn follows C.2: the leader's abilities, the roll, distribution, Step 3 (every
complete card is defused; 1-2 players may defuse early), Step 4 (sparks for dice not taken), then
the bag passes on. The FUSE modules mix the two: sparks replace the penalty, roles work on the roll.
"""

from __future__ import annotations

from bisect import insort
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import combinations_with_replacement, product
from math import comb, factorial, prod
from typing import Any, overload

from fusegame.cards.catalogue import Catalogue
from fusegame.cards.model import Ability, BombCard, FuseCard, FuseEffect, RoleCard
from fusegame.constraints import EMPTY, CompiledCard
from fusegame.dice import (
    N_TYPES,
    TYPE_LABELS,
    DiceSet,
    colours_text,
    die_type,
    parse_colours,
    type_colours,
    type_face,
)
from fusegame.rng import Rng
from fusegame.rules import roles as _roles
from fusegame.rules.actions import (
    Action,
    Defuse,
    Done,
    Flip,
    GiveUp,
    Name,
    Place,
    Recolour,
    Renumber,
    RerollUnused,
    Rethrow,
    ReturnFree,
    RevealFuse,
    RollSix,
    TakeCard,
    Tick,
)
from fusegame.rules.config import ROW_SIZE, ConfigError, GameConfig, Setup, dice_per_turn
from fusegame.rules.events import Event
from fusegame.rules.outcome import Outcome, Termination, score


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message is meant for the player."""


class GameOverError(IllegalAction):
    """The game has ended: no action is accepted."""


class NotYourDecision(IllegalAction):
    """This seat cannot make this kind of decision now."""


class IllegalPlacement(IllegalAction):
    """The die cannot go on that slot."""


class BadTime(IllegalAction):
    """The action's time is before the game's current time."""


class Phase(str, Enum):
    ROLL = "roll"  #: waiting for the turn's draw and roll (a chance node)
    DISTRIBUTE = "distribute"  #: players claim and place rolled dice
    PENALTY = "penalty"  #: FUSE: unused dice are rerolled one at a time
    DEFUSE = "defuse"  #: Countdown Step 3: complete cards are defused and replaced
    SPARKS = "sparks"  #: Countdown Step 4 (and the Spark module): sparks for dice not taken
    OVER = "over"

_ROLE_ACTIONS = (Name, Recolour, Renumber, Flip, Rethrow)


@dataclass(frozen=True)
class Decision:
    """What one seat must or may decide now: ``kind`` and the die ids or card ids to choose from."""

    kind: str  #: "distribute", "take", "give_up", "reroll", "name", "roll_six", "role" or "return"
    options: tuple[Any, ...] = ()


class HandCard:
    """A bomb card in front of a player, with the dice on its slots.

    ``types`` caches the die type on each slot; ``key`` is the same with each type replaced by its
    class representative for this card (``CompiledCard.canon``), the key of the card's tables.
    """

    __slots__ = ("card", "dice", "types", "key")

    def __init__(self, card: str, n: int) -> None:
        self.card = card
        self.dice: list[int] = [EMPTY] * n
        self.types: tuple[int, ...] = (EMPTY,) * n
        self.key: tuple[int, ...] = self.types

    @property
    def complete(self) -> bool:
        return EMPTY not in self.dice

    def copy(self) -> HandCard:
        h = HandCard.__new__(HandCard)
        h.card, h.dice, h.types, h.key = self.card, self.dice[:], self.types, self.key
        return h

    def set_slot(self, slot: int, die: int, t: int, canon: tuple[int, ...]) -> None:
        """Put ``die`` of type ``t`` on ``slot`` (``die`` EMPTY: clear it)."""
        self.dice[slot] = die
        self.types = self.types[:slot] + (t,) + self.types[slot + 1:]
        self.key = self.key[:slot] + (t if t == EMPTY else canon[t],) + self.key[slot + 1:]


_Group = tuple[int, int, str, tuple[int, ...]]  # seat, die, card, the slots it may go on


class LegalActions(Sequence[Action]):
    """The legal actions of a position, as a sequence of ``Action`` values.

    Placements are kept as one entry per (seat, die, card) with the card's tuple of legal slots,
    and become ``Place`` objects only when looked at: a policy that picks one action builds one.
    """

    __slots__ = ("_items", "_at", "_n")

    def __init__(self, items: list[Action | _Group], at: int, n: int | None = None) -> None:
        self._items = items
        self._at = at
        self._n = len(items) if n is None else n

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> list[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | list[Action]:
        if isinstance(i, slice):
            return list(self)[i]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("legal action index out of range")
        for x in self._items:
            if type(x) is tuple:
                k = len(x[3])
                if i < k:
                    return Place(x[0], self._at, x[1], x[2], x[3][i])
                i -= k
            elif i == 0:
                return x  # type: ignore[return-value]
            else:
                i -= 1
        raise IndexError(i)  # unreachable: the counts agree

    def __iter__(self) -> Iterator[Action]:
        at = self._at
        for x in self._items:
            if type(x) is tuple:
                seat, die, card, slots = x
                for slot in slots:
                    yield Place(seat, at, die, card, slot)
            else:
                yield x  # type: ignore[misc]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LegalActions({list(self)!r})"


_COMPILED: dict[tuple[str, str, int, bool], CompiledCard] = {}


def compiled(card: BombCard, types_in_play: int, feasibility: bool) -> CompiledCard:
    """The compiled tables of a card (shared by every game with the same dice and rules)."""
    key = (card.id, card.notation, types_in_play, feasibility)  # the notation fixes the shape
    c = _COMPILED.get(key)
    if c is None:
        c = _COMPILED[key] = CompiledCard(card.shape, types_in_play, feasibility)
    return c


class GameState:
    """A game in progress. Create one with ``new_game``; change it only through ``apply``."""

    def __init__(self, config: GameConfig, dice: DiceSet | None = None) -> None:
        self.config = config
        self.catalogue: Catalogue = config.catalogue
        self.dice = dice or config.dice_set
        self._bombs = {b.id: b for b in self.catalogue.bombs}
        self._sparks = {b.id: b for b in self.catalogue.sparks}
        self._cards = {**self._bombs, **self._sparks}
        self._fuses = {f.id: f for f in self.catalogue.fuses}
        self._roles = {r.id: r for r in self.catalogue.roles}
        in_play = self.dice.types_in_play
        self._compiled = {b.id: compiled(b, in_play, config.feasibility) for b in self._cards.values()}
        self._step3 = config.countdown_rules
        self._sparks_on = config.uses_sparks
        n = config.players
        self.rng = Rng(0)
        self.time_ms = 0
        self.faces: list[int] = [1] * len(self.dice)
        self.types: list[int] = [die_type(c, 1) for c in self.dice.colours]  # cache of die_type per die
        self.free: list[int] = []  # dice of this turn's roll still in the middle
        self.quota = config.base_quota
        self.bag: list[int] = list(range(len(self.dice)))
        self.hands: list[list[HandCard]] = [[] for _ in range(n)]  # bombs and sparks in play
        self.duds: list[list[str]] = [[] for _ in range(n)]  # hand bombs turned face down (C.2.2)
        self.row: list[str] = []
        self.deck: list[str] = []  # top is the end of the list
        self.stacks: dict[int, list[str]] = {}  # stacks setup: level -> cards, top at the end
        self.fuse_deck: list[str] = []  # stacks setup
        self.score_pile: list[str] = []
        self.fuses_activated: list[str] = []
        self.spark_deck: list[str] = []  # top is the end of the list
        self.spark_discard: list[str] = []  # face up, oldest first
        self.sparks_defused: list[str] = []
        self.roles: list[str] = []  # role card id per seat ('' for none) when roles are in play
        self.roles_up: list[bool] = []
        self.turn = 1
        self.leader = 0
        self.phase = Phase.ROLL
        self.rolled: list[int] = []
        self.taken: list[int] = [0] * n
        self.done: list[bool] = [False] * n
        self.picks: list[list[Any]] = []  # [seat, completed card id, fuse revealed?]
        self.removals: dict[int, tuple[int, ...]] = {}  # seat -> eligible die ids
        self.removal_reason = ""
        self.refills = 0  # row cards still to be turned over from the deck
        self.unused: list[int] = []
        self.penalty_die = EMPTY  # the unused die chosen for the next penalty roll
        self.spark_queue: list[int] = []  # seats still to draw a spark, in order
        self.six: list[int] = []  # seats still to roll a 6 ("all players must roll a 6")
        self.six_pending = EMPTY  # the seat whose roll is in the air
        self.named = ""  # the colour letter or number the Cutter / Operations Engineer named
        self.role_eligible: list[int] = []  # rolled dice the named colour/number lets change
        self.role_dice: list[int] = []  # dice already changed or flipped this turn
        self.role_uses = 0  # ability uses this turn (Technologist, Technician: 1; Instructor: 3)
        self.bonus_die = False  # a Logistics Specialist led this roll: one more die, quota + 1
        self.free_return = False  # FUSE penalty: the Logistics leader may still return a die free
        self.temp: dict[int, int] = {}  # die -> temporary colour mask (until placed: D.9)
        self.rethrow: list[int] = []  # dice the Explosives Instructor is rerolling (chance)
        self.clock_stop: int | None = None  # Countdown 1-2p: the ship was saved mid-turn at this time
        self.outcome: Outcome | None = None

    # ================================================================== queries
    @property
    def players(self) -> int:
        return self.config.players

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def is_chance(self) -> bool:
        """True when the next step is random: the turn's roll, a penalty reroll, an ability's
        reroll, or a "roll a 6" roll."""
        if self.outcome or self.removals:
            return False
        if self.six_pending != EMPTY or self.rethrow:
            return True
        if self.six or self.spark_queue or self.refills:
            return False
        if self.phase is Phase.ROLL:
            return not _roles.needs_name(self)
        return self.phase is Phase.PENALTY and self.penalty_die != EMPTY

    def bomb(self, card_id: str) -> BombCard:
        """The bomb or spark card with this id."""
        return self._cards[card_id]

    def fuse(self, card_id: str) -> FuseCard:
        """The fuse card with this id."""
        return self._fuses[card_id]

    def role(self, card_id: str) -> RoleCard:
        """The role card with this id."""
        return self._roles[card_id]

    def is_spark(self, card_id: str) -> bool:
        return card_id in self._sparks

    def card_rules(self, card_id: str) -> CompiledCard:
        """The compiled legality tables of a bomb or spark card (keyed by ``HandCard.key``)."""
        return self._compiled[card_id]

    def die_type(self, die: int) -> int:
        """The type (colour set and face) die ``die`` shows now (its real colours)."""
        return self.types[die]

    def effective_type(self, die: int) -> int:
        """The type die ``die`` counts as for placement now (a temporary colour counts)."""
        return _roles.effective_type(self, die)

    def die_label(self, die: int) -> str:
        """``Y5``: the colour and face die ``die`` shows now (``B4 as R`` with a temporary colour)."""
        t = self.temp.get(die)
        return TYPE_LABELS[self.types[die]] + (f" as {colours_text(t)}" if t else "")

    def set_face(self, die: int, face: int) -> None:
        """Turn a die to ``face`` (a roll, or a role turning it)."""
        self.faces[die] = face
        self.types[die] = die_type(self.dice.colours[die], face)

    def unplaced(self) -> list[int]:
        """Dice of this turn's roll that are still in the middle of the table."""
        return self.free[:] if self.phase is Phase.DISTRIBUTE else []

    def hand_card(self, seat: int, card_id: str) -> HandCard | None:
        """The card ``card_id`` in front of ``seat``, if it is there."""
        for hc in self.hands[seat]:
            if hc.card == card_id:
                return hc
        return None

    def middle_has_bombs(self) -> bool:
        """Are bomb cards left in the row and deck (or the level stacks)?"""
        if self.config.setup is Setup.STACKS:
            return any(self.stacks.values())
        return bool(self.row) or any(c in self._bombs for c in self.deck)

    def sparks_in_play(self) -> int:
        """How many spark cards lie in front of the players."""
        return sum(1 for hand in self.hands for hc in hand if hc.card in self._sparks)

    def active_ability(self) -> Ability | None:
        """The leader's role ability, if one is in use this turn."""
        return _roles.active_ability(self)

    def seat_quota(self, seat: int) -> int:
        """The most dice ``seat`` may take this turn (a Logistics leader: one more)."""
        return self.quota + (1 if self.bonus_die and seat == self.leader else 0)

    def _early(self) -> bool:
        """May complete cards be defused before Step 3 (Countdown, 1-2 players)?"""
        return self._step3 and self.players <= 2

    def _may_place(self, seat: int) -> bool:
        if self.done[seat] or self.taken[seat] >= self.seat_quota(seat):
            return False
        for hc in self.hands[seat]:
            if EMPTY in hc.types:
                return True
        # 1-2 player Countdown: a complete card may be defused before Step 3. That is a decision
        # to wait for while it brings a new card to place on (the middle has bombs) or clears a
        # spark ("sparks may also be cleared early"); a complete bomb with the middle empty brings
        # nothing, so it holds nobody up (``apply`` still accepts its early defusal)
        return self._early() and any(EMPTY not in hc.types for hc in self.hands[seat]) and (
            self.middle_has_bombs() or any(hc.card in self._sparks for hc in self.hands[seat]))

    def _pick_options(self) -> list[str]:
        if self.config.setup is Setup.STACKS:
            return [s[-1] for _, s in sorted(self.stacks.items()) if s]
        return list(self.row)

    def to_act(self) -> dict[int, Decision]:
        """Which seats may act now, and what each must decide."""
        out: dict[int, Decision] = {}
        if self.outcome or self.is_chance:
            return out
        if self.removals:
            return {s: Decision("give_up", dice) for s, dice in sorted(self.removals.items())}
        if self.six:
            return {s: Decision("roll_six") for s in self.six}
        if self.phase is Phase.ROLL:
            if _roles.needs_name(self):
                return {self.leader: Decision("name", _roles.name_options(self))}
            return out
        if self.phase is Phase.PENALTY:
            options = tuple(self.unused)
            return {self.leader: Decision("return" if self.free_return else "reroll", options)}
        free = tuple(self.unplaced())
        for seat in range(self.players):
            picks = [p for p in self.picks if p[0] == seat]
            if picks:
                out[seat] = Decision("take", tuple(self._pick_options()))
            elif self._may_place(seat) and free:
                out[seat] = Decision("distribute", free)
        if free and self.leader not in out and _roles.role_actions(self, self.time_ms):
            out[self.leader] = Decision("role", free)
        return out

    def legal_actions(self, seat: int | None = None) -> LegalActions:
        """Every legal action of ``seat`` (or of every seat), stamped with the current time.

        A sequence (``len``, indexing, iteration); ``list(...)`` of it gives ``Action`` objects.
        """
        at = self.time_ms
        acts: list[Action | _Group] = []
        if self.outcome is not None or self.is_chance:
            return LegalActions(acts, at)
        seats = range(self.players) if seat is None else (seat,)
        if self.removals:
            return LegalActions([GiveUp(s, at, d) for s in seats for d in self.removals.get(s, ())], at)
        if self.six:
            return LegalActions([RollSix(s, at) for s in seats if s in self.six], at)
        if self.phase is Phase.ROLL:
            if self.leader in seats and _roles.needs_name(self):
                acts += [Name(self.leader, at, v) for v in _roles.name_options(self)]
            return LegalActions(acts, at)
        if self.phase is Phase.PENALTY:
            if self.leader in seats:
                seen: set[int] = set()
                for d in self.unused:
                    cs = self.dice.colours[d]
                    if cs not in seen:  # dice of one colour set are interchangeable here
                        seen.add(cs)
                        acts.append(RerollUnused(self.leader, at, d))
                        if self.free_return:
                            acts.append(ReturnFree(self.leader, at, d))
            return LegalActions(acts, at)
        if self.phase is Phase.DEFUSE:
            for s in seats:
                if any(p[0] == s for p in self.picks):
                    acts += [TakeCard(s, at, c) for c in self._pick_options()]
            return LegalActions(acts, at)
        if self.phase is not Phase.DISTRIBUTE:
            return LegalActions(acts, at)
        free = self.free
        types = self.types
        temp = self.temp
        n = 0
        for s in seats:
            if self.picks and any(p[0] == s for p in self.picks):
                acts += [TakeCard(s, at, c) for c in self._pick_options()]
                if self.config.setup is Setup.STACKS and self.fuse_deck and not any(
                        p[2] for p in self.picks if p[0] == s):
                    acts.append(RevealFuse(s, at))
            if s == self.leader and free:
                acts += _roles.role_actions(self, at)
            if not free or self.done[s] or self.taken[s] >= self.seat_quota(s):
                continue
            # Defuse and Done exactly when the seat still has something to decide (``_may_place``,
            # which ``apply`` checks too), so that the seats with legal actions are the seats
            # ``to_act`` names
            may = self._may_place(s)
            for hc in self.hands[s]:
                st = hc.key
                if EMPTY not in st:
                    if may and self._early() and not any(p[1] == hc.card for p in self.picks):
                        acts.append(Defuse(s, at, hc.card))
                    continue
                rules = self._compiled[hc.card]
                table = rules.slot_table(st)
                canon = rules.canon
                card = hc.card
                for d in free:
                    t = canon[types[d]]
                    slots: tuple[int, ...] | None
                    if temp and d in temp:  # a temporary colour: judged apart from the table
                        slots = rules.legal_slots(st, t, canon[die_type(temp[d], self.faces[d])])
                    else:
                        slots = table[t]
                        if slots is None:
                            slots = rules.legal_slots(st, t)
                    if slots:
                        acts.append((s, d, card, slots))
                        n += len(slots) - 1
            if may:
                acts.append(Done(s, at))
        return LegalActions(acts, at, len(acts) + n)

    # ================================================================== apply
    def apply(self, action: Action, chance: bool = True) -> list[Event]:
        """Validate and apply ``action``; return the events it caused.

        Raises an ``IllegalAction`` subclass (a ``ValueError``) with a player-readable message and
        leaves the state unchanged when the action is not allowed now. An action stamped at or
        after the time limit is not performed: the game is lost on time instead.
        ``chance=False`` stops at the next chance node instead of sampling it.
        """
        if self.outcome is not None:
            raise GameOverError("the game is over")
        if action.at is not None and action.at < self.time_ms:
            raise BadTime(f"time {action.at} ms is before the game time {self.time_ms} ms")
        if not isinstance(action, Tick):
            if self.is_chance:
                raise NotYourDecision("waiting for the dice to be rolled")
            self._validate(action)
        return self._apply(action, chance)

    def apply_unchecked(self, action: Action, chance: bool = True) -> list[Event]:
        """Apply a legal action without validating it (for search); the caller guarantees legality."""
        return self._apply(action, chance)

    def _validate(self, a: Action) -> None:
        if not 0 <= a.seat < self.players:
            raise NotYourDecision(f"there is no seat {a.seat}")
        if self.removals:
            if not isinstance(a, GiveUp) or a.seat not in self.removals:
                who = ", ".join(f"P{s + 1}" for s in sorted(self.removals))
                raise NotYourDecision(f"first {who} must choose a die to give up")
            if a.die not in self.removals[a.seat]:
                raise NotYourDecision("that die cannot be given up (choose a highlighted die)")
            return
        if self.six:
            if not isinstance(a, RollSix) or a.seat not in self.six:
                who = ", ".join(f"P{s + 1}" for s in self.six)
                raise NotYourDecision(f"everyone waits for {who} to roll a 6")
            return
        if isinstance(a, RollSix):
            raise NotYourDecision("nobody has to roll a 6 now")
        if isinstance(a, _ROLE_ACTIONS):
            if isinstance(a, Name) != (self.phase is Phase.ROLL) or (
                    not isinstance(a, Name) and self.phase is not Phase.DISTRIBUTE):
                raise NotYourDecision("role abilities are used around the turn's roll"
                                      if self.phase is not Phase.DISTRIBUTE else "nothing to name now")
            why = _roles.why_not(self, a)
            if why:
                raise NotYourDecision(why)
            return
        if self.phase is Phase.ROLL:
            raise NotYourDecision("waiting for the leader to name a colour or number")
        if self.phase is Phase.PENALTY:
            if isinstance(a, ReturnFree):
                if a.seat != self.leader or not self.free_return:
                    raise NotYourDecision("no die can be returned without penalty now")
                if a.die not in self.unused:
                    raise NotYourDecision("that die is not an unused die")
                return
            if not isinstance(a, RerollUnused) or a.seat != self.leader:
                raise NotYourDecision(f"P{self.leader + 1} chooses which unused die to roll next")
            if a.die not in self.unused:
                raise NotYourDecision("that die is not an unused die")
            return
        if isinstance(a, (TakeCard, RevealFuse)):
            if not any(p[0] == a.seat for p in self.picks):
                raise NotYourDecision("you have no defused card to replace")
            if isinstance(a, TakeCard) and a.card not in self._pick_options():
                raise NotYourDecision(f"{a.card} cannot be taken (choose a card in the middle)")
            if isinstance(a, RevealFuse) and (self.config.setup is not Setup.STACKS or not self.fuse_deck
                                              or any(p[2] for p in self.picks if p[0] == a.seat)):
                raise NotYourDecision("no fuse card can be revealed now")
            return
        if self.phase is not Phase.DISTRIBUTE:
            raise NotYourDecision("waiting for the defused cards to be replaced")
        if isinstance(a, Done):
            if not self._may_place(a.seat) or not self.unplaced():
                raise NotYourDecision("you have nothing left to decide this turn")
            return
        if isinstance(a, Defuse):
            if not self._early():
                raise NotYourDecision("cards are defused in Step 3 (early only with 1-2 players)")
            hc = self.hand_card(a.seat, a.card)
            if hc is None or not hc.complete or any(p[1] == a.card for p in self.picks):
                raise NotYourDecision(f"{a.card} is not a complete card of yours")
            return
        if isinstance(a, Place):
            if self.done[a.seat]:
                raise NotYourDecision("you already said you are done this turn")
            if self.taken[a.seat] >= self.seat_quota(a.seat):
                raise NotYourDecision(f"you may take at most {self.seat_quota(a.seat)} dice a turn")
            if a.die not in self.free:
                raise IllegalPlacement("that die is not available (already taken, or not rolled)")
            hc = self.hand_card(a.seat, a.card)
            if hc is None:
                raise IllegalPlacement(f"{a.card} is not one of your cards")
            if hc.complete:
                raise IllegalPlacement(f"{a.card} is already complete")
            rules = self._compiled[a.card]
            canon = rules.canon
            why = rules.why_illegal(hc.key, a.slot, canon[self.types[a.die]],
                                    canon[self.effective_type(a.die)])
            if why:
                label = self.die_label(a.die)
                raise IllegalPlacement(f"{label} cannot go on {a.card} slot {a.slot + 1}: {why}")
            return
        raise NotYourDecision(f"{type(a).__name__} is not something a player can do now")

    def _apply(self, a: Action, chance: bool) -> list[Event]:
        ev: list[Event] = []
        if a.at is not None and a.at > self.time_ms:
            self.time_ms = a.at
        limit = self.config.time_limit
        if limit is not None and self.time_ms >= limit * 1000 and self.clock_stop is None:
            self.time_ms = limit * 1000
            self._end(False, Termination.TIME_UP, ev)
            return ev
        if isinstance(a, Place):
            self._place(a, ev)
        elif isinstance(a, Done):
            self.done[a.seat] = True
            ev.append(Event("seat_done", {"seat": a.seat}))
        elif isinstance(a, TakeCard):
            self._take(a.seat, a.card, ev)
        elif isinstance(a, RevealFuse):
            for p in self.picks:
                if p[0] == a.seat:
                    p[2] = True
                    break
            self._activate_fuse(self.fuse_deck.pop(), ev)
        elif isinstance(a, GiveUp):
            eligible = self.removals.pop(a.seat)
            assert a.die in eligible
            self._remove_die(a.seat, a.die, ev)
            if self.spark_queue:  # this player's next spark, even while others still choose
                self._draw_sparks(ev)
        elif isinstance(a, RerollUnused):
            self.penalty_die = a.die
        elif isinstance(a, ReturnFree):
            self.free_return = False
            self.unused.remove(a.die)
            insort(self.bag, a.die)
            ev.append(Event("die_returned_free", {"seat": a.seat, "die": self.die_label(a.die),
                                                  "die_id": a.die}))
        elif isinstance(a, Defuse):
            hc = self.hand_card(a.seat, a.card)
            assert hc is not None
            self._card_defusable(a.seat, hc, ev)
        elif isinstance(a, RollSix):
            self.six_pending = a.seat
        elif isinstance(a, _ROLE_ACTIONS):
            _roles.apply_role_action(self, a, ev)
        self._advance(ev, chance)
        return ev

    # ------------------------------------------------------------------ placement & defusal
    def _place(self, a: Place, ev: list[Event]) -> None:
        hc = self.hand_card(a.seat, a.card)
        assert hc is not None
        label = self.die_label(a.die)
        self.temp.pop(a.die, None)  # D.9: a changed colour reverts once the die is placed
        hc.set_slot(a.slot, a.die, self.types[a.die], self._compiled[a.card].canon)
        self.taken[a.seat] += 1
        self.free.remove(a.die)
        ev.append(Event("die_placed", {"seat": a.seat, "die": label, "die_id": a.die,
                                       "card": a.card, "slot": a.slot}))
        if hc.complete:
            ev.append(Event("card_completed", {"seat": a.seat, "card": a.card}))
            if not self._step3:  # FUSE defuses at once; Countdown waits for Step 3 (C.2)
                self._card_defusable(a.seat, hc, ev)

    def _card_defusable(self, seat: int, hc: HandCard, ev: list[Event]) -> None:
        """A complete card is defused: a spark is discarded; a bomb waits for its owner to take a
        replacement (or, with the middle empty, is simply defused)."""
        if hc.card in self._sparks:
            self._defuse_spark(seat, hc, ev)  # a spark never brings a lost role back
            self._after_middle_or_spark_change(ev)
            return
        # "until they defuse a bomb card": the role turns up as the defusal starts, before the
        # replacement is taken, so a leader may use it on this turn's dice straight away (G-46)
        self._restore_role(seat, ev)
        if self.middle_has_bombs():
            self.picks.append([seat, hc.card, False])
            return
        self._defuse(seat, hc, ev)  # the endgame: nothing to take, the card is simply defused
        self._after_middle_or_spark_change(ev)

    def _defuse(self, seat: int, hc: HandCard, ev: list[Event]) -> None:
        for d in hc.dice:
            insort(self.bag, d)
        self.hands[seat].remove(hc)
        self.score_pile.append(hc.card)
        # and again as it ends: a "lose role ability" card turned over by an earlier player's
        # refill in the same Step 3 comes before this defusal is finished
        self._restore_role(seat, ev)
        ev.append(Event("bomb_defused", {"seat": seat, "card": hc.card, "points": self.bomb(hc.card).points}))

    def _restore_role(self, seat: int, ev: list[Event]) -> None:
        if self.roles_up and not self.roles_up[seat]:
            self.roles_up[seat] = True
            ev.append(Event("role_restored", {"seat": seat}))

    def _defuse_spark(self, seat: int, hc: HandCard, ev: list[Event]) -> None:
        for d in hc.dice:
            insort(self.bag, d)
        self.hands[seat].remove(hc)
        self.spark_discard.append(hc.card)
        self.sparks_defused.append(hc.card)
        ev.append(Event("spark_defused", {"seat": seat, "card": hc.card}))

    def _take(self, seat: int, card: str, ev: list[Event]) -> None:
        i = next(i for i, p in enumerate(self.picks) if p[0] == seat)
        _, done_card, _ = self.picks.pop(i)
        hc = self.hand_card(seat, done_card)
        assert hc is not None
        self._defuse(seat, hc, ev)
        if self.config.setup is Setup.STACKS:
            for s in self.stacks.values():
                if s and s[-1] == card:
                    s.pop()
                    break
        else:
            self.row.remove(card)
        self.hands[seat].append(HandCard(card, self.bomb(card).shape.size))
        ev.append(Event("card_taken", {"seat": seat, "card": card}))
        if self.middle_has_bombs():
            if self.config.setup is not Setup.STACKS:
                self.refills += 1
            return
        # E.1: in FUSE taking the last bomb from the middle wins at once (fuse cards left below
        # it are never turned over, G-23), unless the hands (Insane) or sparks must be cleared too.
        if not self._step3 and not self.config.difficulty.top and not self.sparks_in_play():
            self._end(True, Termination.BOMBS_DEFUSED, ev)
            return
        for p in self.picks:  # nothing left to take: other complete cards are defused now
            other = self.hand_card(p[0], p[1])
            assert other is not None
            self._defuse(p[0], other, ev)
        self.picks.clear()
        self._after_middle_or_spark_change(ev)

    def _after_middle_or_spark_change(self, ev: list[Event]) -> None:
        """The middle has just emptied, or a card was defused with it empty: turn the hands face
        down if sparks still have to be cleared (C.2.2), and see whether the team has won."""
        if self.outcome or self.middle_has_bombs():
            return
        if self.sparks_in_play() and not self.config.difficulty.top:
            for seat, hand in enumerate(self.hands):
                for hc in [h for h in hand if h.card in self._bombs and not h.complete]:
                    hand.remove(hc)
                    for d in hc.dice:
                        if d != EMPTY:
                            insort(self.bag, d)
                    self.duds[seat].append(hc.card)
                    ev.append(Event("card_turned_down", {"seat": seat, "card": hc.card}))
        if not self._saved():
            return
        if not self._step3:
            self._end(True, Termination.BOMBS_DEFUSED, ev)
        elif self.phase is Phase.DISTRIBUTE and self.clock_stop is None:
            # E.2: the clock stops now; the turn's remaining dice may still be placed
            self.clock_stop = self.time_ms
            ev.append(Event("clock_stopped", {"time_ms": self.time_ms}))

    def _saved(self) -> bool:
        """No bomb left in the middle, no spark in play, and (Insane/Heroic) no card in hand."""
        if self.middle_has_bombs() or self.sparks_in_play():
            return False
        if not self.config.difficulty.top:
            return True
        return not any(hc.card in self._bombs for hand in self.hands for hc in hand)

    # ------------------------------------------------------------------ fuse cards & removals
    def _activate_fuse(self, card_id: str, ev: list[Event]) -> None:
        f = self.fuse(card_id)
        self.fuses_activated.append(card_id)
        data: dict[str, Any] = {"card": card_id, "shows": f.symbol}
        if f.effect is not FuseEffect.SYMBOL:
            data["effect"] = f.effect.value
        ev.append(Event("fuse_activated", data))
        if f.effect is FuseEffect.SYMBOL:
            self._start_removals(lambda c, n: f.matches(c, n), f"fuse card {f.symbol}", ev)
        elif f.effect is FuseEffect.SPARK:
            self.spark_queue += list(range(self.players))
        elif f.effect is FuseEffect.LOSE_ROLES:
            if self.roles_up:
                self.roles_up = [False] * self.players
        elif f.effect is FuseEffect.ROLL_SIX:
            self.six = list(range(self.players))

    def _start_removals(self, matches: Any, reason: str, ev: list[Event],
                        seats: Sequence[int] | None = None) -> None:
        """C.3: each player returns one matching, unsafe die from an incomplete card, if they can."""
        self.removal_reason = reason
        for seat in range(self.players) if seats is None else seats:
            eligible = tuple(self.eligible_dice(seat, matches))
            if len(eligible) == 1:
                self._remove_die(seat, eligible[0], ev)
            elif eligible:
                self.removals[seat] = eligible

    def eligible_dice(self, seat: int, matches: Any) -> Iterator[int]:
        """Dice ``seat`` could give up to a penalty: unsafe, on an incomplete card, and
        ``matches(colours, face)``."""
        for hc in self.hands[seat]:
            if hc.complete:
                continue
            for s in self._compiled[hc.card].removable(hc.key):
                d = hc.dice[s]
                if matches(self.dice.colours[d], self.faces[d]):
                    yield d

    def _remove_die(self, seat: int, die: int, ev: list[Event]) -> None:
        for hc in self.hands[seat]:
            if die in hc.dice:
                s = hc.dice.index(die)
                hc.set_slot(s, EMPTY, EMPTY, ())
                insort(self.bag, die)
                ev.append(Event("die_returned", {"seat": seat, "die": self.die_label(die), "die_id": die,
                                                 "card": hc.card, "slot": s, "reason": self.removal_reason}))
                return
        raise AssertionError(f"die {die} is not on seat {seat}'s cards")

    # ------------------------------------------------------------------ sparks
    def _draw_spark(self, seat: int, ev: list[Event]) -> None:
        """Give ``seat`` the top spark; turn the discards over when the deck is empty; with every
        spark in play, the player returns a die of their choice instead (F.3, G-37)."""
        if not self.spark_deck and self.spark_discard:
            pile = self.spark_discard[::-1]  # turned over: the oldest discard is the new top
            if self.config.shuffle_sparks:
                self.rng.shuffle(pile)
            self.spark_deck, self.spark_discard = pile, []
            ev.append(Event("sparks_turned_over", {"cards": len(pile)}))
        if self.spark_deck:
            card = self.spark_deck.pop()
            self.hands[seat].append(HandCard(card, self.bomb(card).shape.size))
            ev.append(Event("spark_drawn", {"seat": seat, "card": card}))
            return
        ev.append(Event("no_spark_left", {"seat": seat}))
        self._start_removals(lambda c, n: True, "no spark card left", ev, (seat,))

    def _draw_sparks(self, ev: list[Event]) -> None:
        """Draw the queued sparks. Players draw at the same time, so one who must give up a die
        instead (no spark left) does not hold up the others (I-11); a further spark of that
        player's waits until their choice is made. (Once one player finds no spark, every later
        draw finds none either, so skipping that player changes no one's card.)"""
        waiting: list[int] = []
        for seat in self.spark_queue:
            if seat in self.removals:
                waiting.append(seat)
            else:
                self._draw_spark(seat, ev)
        self.spark_queue = waiting

    def queue_sparks(self) -> None:
        """Queue Step 4's draws: one spark per die short of the base quota, for players who still
        have cards (C.2 Step 4, G-27, G-28). Public so that a scenario can rebuild a Step 4 position."""
        for k in range(self.players):
            seat = (self.leader + k) % self.players
            if self.hands[seat]:
                self.spark_queue += [seat] * max(0, self.quota - self.taken[seat])

    # ------------------------------------------------------------------ the automatic steps
    def _advance(self, ev: list[Event], chance: bool) -> None:
        while self.outcome is None and not self.removals:
            if self.six_pending != EMPTY:
                if not chance:
                    return
                self._roll_six(self.six_pending, self.rng.below(6) + 1, ev)
                continue
            if self.six:
                return
            if self.rethrow:
                if not chance:
                    return
                self._rethrow([self.rng.below(6) + 1 for _ in self.rethrow], ev)
                continue
            if self.spark_queue:
                # before the refill goes on: a fuse card is resolved before the next card is
                # turned over (A.5)
                self._draw_sparks(ev)
                continue
            if self.refills:
                if not self.deck:
                    self.refills = 0
                    continue
                top = self.deck.pop()
                if top in self._fuses:
                    self._activate_fuse(top, ev)
                else:
                    self.row.append(top)
                    self.refills -= 1
                    ev.append(Event("card_revealed", {"card": top}))
                continue
            if self.phase is Phase.DISTRIBUTE:
                if self.picks or (self.free and any(self._may_place(s) for s in range(self.players))):
                    return
                self._end_distribution(ev)
                continue
            if self.phase is Phase.DEFUSE:
                if self.picks:
                    return
                self._end_step3(ev)
                continue
            if self.phase is Phase.SPARKS:
                for d in self.unused:  # C.2 Step 4: the untaken dice go back in the bag
                    insort(self.bag, d)
                self.unused = []
                self._end_turn(ev)
                continue
            if self.phase is Phase.PENALTY:
                if self.penalty_die == EMPTY:
                    if not self.unused:
                        self._end_turn(ev)
                        continue
                    if self.free_return or len({self.dice.colours[d] for d in self.unused}) > 1:
                        return  # the leader chooses the order (or the die to return free)
                    self.penalty_die = self.unused[0]
                if not chance:
                    return
                self._penalty_roll(self.penalty_die, self.rng.below(6) + 1, ev)
                continue
            if self.phase is Phase.ROLL:
                if not self.bag:
                    self._end(False, Termination.BAG_EMPTY, ev)
                    return
                if not chance or _roles.needs_name(self):
                    return
                k = self._dice_to_draw()
                drawn = [self.bag.pop(self.rng.below(len(self.bag))) for _ in range(k)]
                self._roll(drawn, [self.rng.below(6) + 1 for _ in drawn], ev)
                continue
            return

    def _dice_to_draw(self) -> int:
        extra = 1 if self.active_ability() is Ability.LOGISTICS_SPECIALIST else 0
        return min(dice_per_turn(self.players) + extra, len(self.bag))

    def _end_distribution(self, ev: list[Event]) -> None:
        self.unused = self.free
        self.free = []
        self.temp.clear()
        if self._step3:
            # Step 3: every complete card is defused, the leader's seat first (C.2)
            self.phase = Phase.DEFUSE
            for k in range(self.players):
                seat = (self.leader + k) % self.players
                for hc in [h for h in self.hands[seat] if h.complete]:
                    if not any(p[1] == hc.card for p in self.picks):
                        self._card_defusable(seat, hc, ev)
        elif self._sparks_on:
            self.phase = Phase.SPARKS
            self.queue_sparks()
        else:
            self.phase = Phase.PENALTY
            self.free_return = self.bonus_die and bool(self.unused) and self.taken[self.leader] <= self.quota

    def _end_step3(self, ev: list[Event]) -> None:
        self._after_middle_or_spark_change(ev)
        if self._saved():  # E.2: the ship is saved; Step 4 is skipped
            self._end(True, Termination.BOMBS_DEFUSED, ev)
            return
        self.phase = Phase.SPARKS
        self.queue_sparks()

    def _roll(self, drawn: list[int], faces: list[int], ev: list[Event]) -> None:
        for d, f in zip(drawn, faces):
            self.set_face(d, f)
        self.rolled = drawn
        self.free = drawn[:]
        self.taken = [0] * self.players
        self.done = [False] * self.players
        self.bonus_die = self.active_ability() is Ability.LOGISTICS_SPECIALIST
        self.phase = Phase.DISTRIBUTE
        _roles.after_roll(self, drawn)
        ev.append(Event("dice_rolled", {"leader": self.leader, "dice": [self.die_label(d) for d in drawn],
                                        "die_ids": drawn}))

    def _rethrow(self, faces: list[int], ev: list[Event]) -> None:
        for d, f in zip(self.rethrow, faces):
            self.set_face(d, f)
        ev.append(Event("dice_rerolled", {"dice": [self.die_label(d) for d in self.rethrow],
                                          "die_ids": self.rethrow}))
        self.rethrow = []

    def _roll_six(self, seat: int, face: int, ev: list[Event]) -> None:
        self.six_pending = EMPTY
        ev.append(Event("six_rolled" if face == 6 else "not_six", {"seat": seat, "face": face}))
        if face == 6:
            self.six.remove(seat)

    def _penalty_roll(self, die: int, face: int, ev: list[Event]) -> None:
        self.set_face(die, face)
        self.unused.remove(die)
        self.penalty_die = EMPTY
        self.free_return = False  # the free return comes before the first penalty roll
        colours = self.dice.colours[die]
        ev.append(Event("penalty_rolled", {"die": self.die_label(die), "die_id": die}))
        self._start_removals(lambda c, n: bool(c & colours) or n == face,
                             f"unused die {self.die_label(die)}", ev)
        insort(self.bag, die)  # G-21: the rerolled die goes back into the bag

    def _end_turn(self, ev: list[Event]) -> None:
        ev.append(Event("turn_ended", {"turn": self.turn, "leader": self.leader}))
        self.turn += 1
        self.leader = (self.leader + 1) % self.players
        self.rolled = []
        self.named = ""
        self.role_eligible, self.role_dice, self.role_uses = [], [], 0
        self.bonus_die = self.free_return = False
        self.phase = Phase.ROLL

    def _end(self, won: bool, reason: Termination, ev: list[Event]) -> None:
        limit = self.config.time_limit
        now = self.time_ms if self.clock_stop is None else self.clock_stop
        left = None if limit is None else max(0, limit * 1000 - now)
        # A card is defused the moment its last die goes on (C.1.3, G-24); one still waiting for
        # its owner to take a replacement when the game ends scores all the same.
        pending = [p[1] for p in self.picks]
        points = sum(self.bomb(c).points for c in self.score_pile + pending)
        self.outcome = Outcome(won, reason, score(won, left, points, len(self.fuses_activated),
                                                  len(self.sparks_defused)),
                               left, self.config.official)
        self.phase = Phase.OVER
        ev.append(Event("game_won" if won else "game_lost",
                        {"reason": reason.value, "score": self.outcome.score.total}))

    # ================================================================== chance
    def chance_outcomes(self) -> list[tuple[tuple[int, ...], float]]:
        """The possible results of the pending chance event with their probabilities.

        For the turn's roll an outcome is a sorted tuple of die types (the dice drawn and the
        faces they show; dice of one colour set are interchangeable); for a penalty reroll or a
        "roll a 6" roll it is a 1-tuple with the face; for an Explosives Instructor's reroll, the
        new faces of the rerolled dice in order. Probabilities sum to 1.
        """
        if not self.is_chance:
            return []
        if self.six_pending != EMPTY or (self.phase is Phase.PENALTY and not self.rethrow):
            return [((f,), 1 / 6) for f in range(1, 7)]
        if self.rethrow:
            k = len(self.rethrow)
            return [(fs, 1 / 6 ** k) for fs in product(range(1, 7), repeat=k)]
        k = self._dice_to_draw()
        by_set = Counter(self.dice.colours[d] for d in self.bag)
        sets = sorted(by_set)
        total = comb(len(self.bag), k)
        out: list[tuple[tuple[int, ...], float]] = []
        for pick in combinations_with_replacement(sets, k):
            cnt = Counter(pick)
            p_col = prod(comb(by_set[s], m) for s, m in cnt.items()) / total
            if p_col == 0:
                continue
            groups = [(s, m) for s, m in sorted(cnt.items())]
            for faces in _face_multisets(groups):
                p_face = 1.0
                types: list[int] = []
                for (s, m), fs in zip(groups, faces):
                    p_face *= factorial(m) / prod(factorial(c) for c in Counter(fs).values()) / 6 ** m
                    types += [die_type(s, f) for f in fs]
                out.append((tuple(sorted(types)), p_col * p_face))
        return out

    def apply_chance(self, outcome: tuple[int, ...]) -> list[Event]:
        """Apply one chance outcome (from ``chance_outcomes``) instead of sampling it."""
        if not self.is_chance:
            raise IllegalAction("no chance event is pending")
        ev: list[Event] = []
        if self.six_pending != EMPTY or self.rethrow or self.phase is Phase.PENALTY:
            k = len(self.rethrow) or 1
            if len(outcome) != k or any(f not in range(1, 7) for f in outcome):
                raise IllegalAction(f"this outcome is {k} face(s) 1-6, not {outcome!r}")
            if self.six_pending != EMPTY:
                self._roll_six(self.six_pending, outcome[0], ev)
            elif self.rethrow:
                self._rethrow(list(outcome), ev)
            else:
                self._penalty_roll(self.penalty_die, outcome[0], ev)
        else:
            k = self._dice_to_draw()
            if len(outcome) != k or any(not 0 <= t < N_TYPES for t in outcome):
                raise IllegalAction(f"a roll outcome is {k} die types (see chance_outcomes())")
            drawn: list[int] = []
            for t in outcome:
                cs = type_colours(t)
                d = next((d for d in self.bag if self.dice.colours[d] == cs and d not in drawn), EMPTY)
                if d == EMPTY:
                    raise IllegalAction(f"the bag holds no more {colours_text(cs)} dice for {outcome!r}")
                drawn.append(d)
            for d in drawn:
                self.bag.remove(d)
            self._roll(drawn, [type_face(t) for t in outcome], ev)
        self._advance(ev, False)
        return ev

    def settle(self, chance: bool = False) -> list[Event]:
        """Run the automatic steps a freshly edited position is due (end a finished distribution,
        refill the row, start the penalty, end the turn), as ``apply`` does after every action."""
        ev: list[Event] = []
        self._advance(ev, chance)
        return ev

    def sample_chance(self) -> list[Event]:
        """Resolve the pending chance event with the game's own generator."""
        ev: list[Event] = []
        self._advance(ev, True)
        return ev

    # ================================================================== copies and data
    def clone(self) -> GameState:
        """An independent copy (cheaper than a deep copy: cards, config and tables are shared)."""
        g = GameState.__new__(GameState)
        g.__dict__.update(self.__dict__)
        g.rng = Rng(self.rng.state)
        g.faces = self.faces[:]
        g.types = self.types[:]
        g.free = self.free[:]
        g.bag = self.bag[:]
        g.hands = [[hc.copy() for hc in hand] for hand in self.hands]
        g.row, g.deck, g.fuse_deck = self.row[:], self.deck[:], self.fuse_deck[:]
        g.stacks = {k: v[:] for k, v in self.stacks.items()}
        g.score_pile, g.fuses_activated = self.score_pile[:], self.fuses_activated[:]
        g.rolled, g.taken, g.done = self.rolled[:], self.taken[:], self.done[:]
        g.picks = [p[:] for p in self.picks]
        g.removals = dict(self.removals)
        g.unused = self.unused[:]
        if self._sparks_on or self.roles:
            g.duds = [x[:] for x in self.duds]
            g.spark_deck, g.spark_discard = self.spark_deck[:], self.spark_discard[:]
            g.sparks_defused, g.spark_queue = self.sparks_defused[:], self.spark_queue[:]
            g.roles, g.roles_up = self.roles[:], self.roles_up[:]
            g.role_eligible, g.role_dice = self.role_eligible[:], self.role_dice[:]
            g.temp, g.rethrow = dict(self.temp), self.rethrow[:]
        g.six = self.six[:]
        return g

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (including the generator: keep it from players)."""
        return {
            "config": self.config.to_dict(), "dice": self.dice.text(), "rng": self.rng.state,
            "time_ms": self.time_ms, "faces": self.faces[:], "bag": self.bag[:],
            "hands": [[{"card": hc.card, "dice": hc.dice[:]} for hc in hand] for hand in self.hands],
            "row": self.row[:], "deck": self.deck[:],
            "stacks": {str(k): v[:] for k, v in self.stacks.items()}, "fuse_deck": self.fuse_deck[:],
            "score_pile": self.score_pile[:], "fuses_activated": self.fuses_activated[:],
            "turn": self.turn, "leader": self.leader, "phase": self.phase.value,
            "rolled": self.rolled[:], "free": self.free[:], "taken": self.taken[:], "done": self.done[:],
            "picks": [p[:] for p in self.picks],
            "removals": {str(k): list(v) for k, v in self.removals.items()},
            "removal_reason": self.removal_reason, "refills": self.refills,
            "unused": self.unused[:], "penalty_die": self.penalty_die,
            "outcome": self.outcome.to_dict() if self.outcome else None,
            "duds": [x[:] for x in self.duds], "spark_deck": self.spark_deck[:],
            "spark_discard": self.spark_discard[:], "sparks_defused": self.sparks_defused[:],
            "spark_queue": self.spark_queue[:], "roles": self.roles[:], "roles_up": self.roles_up[:],
            "six": self.six[:], "six_pending": self.six_pending, "named": self.named,
            "role_eligible": self.role_eligible[:], "role_dice": self.role_dice[:],
            "role_uses": self.role_uses, "bonus_die": self.bonus_die, "free_return": self.free_return,
            "temp": {str(k): colours_text(v) for k, v in self.temp.items()},
            "rethrow": self.rethrow[:], "clock_stop": self.clock_stop,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameState:
        """Rebuild a state from ``to_dict`` data (``from_dict(s.to_dict()) == s``)."""
        g = cls(GameConfig.from_dict(d["config"]), DiceSet.parse(d["dice"]))
        g.rng = Rng(d["rng"])
        g.time_ms, g.faces, g.bag = d["time_ms"], list(d["faces"]), list(d["bag"])
        g.hands = []
        for hand in d["hands"]:
            cards = []
            for h in hand:
                hc = HandCard(h["card"], len(h["dice"]))
                hc.dice = list(h["dice"])
                cards.append(hc)
            g.hands.append(cards)
        g.row, g.deck = list(d["row"]), list(d["deck"])
        g.stacks = {int(k): list(v) for k, v in d["stacks"].items()}
        g.fuse_deck = list(d["fuse_deck"])
        g.score_pile, g.fuses_activated = list(d["score_pile"]), list(d["fuses_activated"])
        g.turn, g.leader, g.phase = d["turn"], d["leader"], Phase(d["phase"])
        g.rolled, g.taken, g.done = list(d["rolled"]), list(d["taken"]), list(d["done"])
        g.picks = [list(p) for p in d["picks"]]
        g.removals = {int(k): tuple(v) for k, v in d["removals"].items()}
        g.removal_reason, g.refills = d["removal_reason"], d["refills"]
        g.unused, g.penalty_die = list(d["unused"]), d["penalty_die"]
        g.outcome = Outcome.from_dict(d["outcome"]) if d["outcome"] else None
        if "duds" in d:  # states saved before Countdown have none of these
            g.duds = [list(x) for x in d["duds"]]
            g.spark_deck, g.spark_discard = list(d["spark_deck"]), list(d["spark_discard"])
            g.sparks_defused, g.spark_queue = list(d["sparks_defused"]), list(d["spark_queue"])
            g.roles, g.roles_up = list(d["roles"]), list(d["roles_up"])
            g.six, g.six_pending, g.named = list(d["six"]), d["six_pending"], d["named"]
            g.role_eligible, g.role_dice = list(d["role_eligible"]), list(d["role_dice"])
            g.role_uses, g.bonus_die, g.free_return = d["role_uses"], d["bonus_die"], d["free_return"]
            g.temp = {int(k): parse_colours(v) for k, v in d["temp"].items()}
            g.rethrow, g.clock_stop = list(d["rethrow"]), d["clock_stop"]
        g.refresh_types()
        if "free" in d:  # dice of the roll on cards since defused are neither free nor placed
            g.free = list(d["free"])
        return g

    def refresh_types(self) -> None:
        """Recompute the derived caches (die types; the dice left in the middle, taken to be the
        rolled dice not on a card) after editing dice, faces, cards or the roll directly."""
        self.types = [die_type(c, f) for c, f in zip(self.dice.colours, self.faces)]
        for hand in self.hands:
            for hc in hand:
                hc.types = tuple(EMPTY if x == EMPTY else self.types[x] for x in hc.dice)
                hc.key = self._compiled[hc.card].key(hc.types)
        placed = {d for hand in self.hands for hc in hand for d in hc.dice}
        self.free = [d for d in self.rolled if d not in placed] if self.phase is Phase.DISTRIBUTE else []

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:  # states are mutable; identity hash like any object
        return id(self)

    def __repr__(self) -> str:
        return f"<GameState turn {self.turn} {self.phase.value} leader P{self.leader + 1} t={self.time_ms}ms>"

    def dice_on_cards(self) -> int:
        """How many dice sit on players' cards."""
        return sum(1 for hand in self.hands for hc in hand for d in hc.dice if d != EMPTY)

    def colours_of(self, die: int) -> str:
        """The colour letters of die ``die`` (``K/Y`` for a split die)."""
        return colours_text(self.dice.colours[die])


def _face_multisets(groups: list[tuple[int, int]]) -> Iterator[list[tuple[int, ...]]]:
    if not groups:
        yield []
        return
    (_, m), rest = groups[0], groups[1:]
    for fs in combinations_with_replacement(range(1, 7), m):
        for tail in _face_multisets(rest):
            yield [fs, *tail]


# ====================================================================== setup
def new_game(config: GameConfig, seed: int, chance: bool = True) -> GameState:
    """Set up a game (RULES.md B.1-B.6, F) and roll the first turn's dice.

    The same config and seed always give the same game. ``chance=False`` stops before the first
    roll so that a solver can enumerate it.
    """
    g = GameState(config)
    g.rng = Rng(seed)
    rng = g.rng
    n = config.players
    if config.uses_roles:  # B.4 step 1: one role per player, face up
        roles = [r.id for r in config.playable.roles]
        rng.shuffle(roles)
        g.roles, g.roles_up = roles[:n], [True] * n
    playable = config.playable
    pool = [b.id for b in playable.bombs]
    rng.shuffle(pool)
    fuse_ids = [f.id for f in playable.fuses]
    if config.hands_in_deck:
        # B.4: build the deck, deal the hands from it, shuffle the rejects back, turn up the row,
        # then shuffle the fuse cards into the rest
        deck = pool[-config.deck_size:]
        rejects: list[str] = []
        for seat in range(n):
            hand = _deal_hand(g, deck, rejects, config.hand_size)
            g.hands[seat] = [HandCard(c, g.bomb(c).shape.size) for c in hand]
        deck += rejects
        rng.shuffle(deck)
        g.row = [deck.pop() for _ in range(min(ROW_SIZE, len(deck)))]
        rng.shuffle(fuse_ids)
        deck += fuse_ids[:config.fuse_count]
        rng.shuffle(deck)
        g.deck = deck
    else:
        rejects = []
        for seat in range(n):
            hand = _deal_hand(g, pool, rejects, config.hand_size)
            g.hands[seat] = [HandCard(c, g.bomb(c).shape.size) for c in hand]
        pool += rejects
        rng.shuffle(pool)
        rng.shuffle(fuse_ids)
        fuses = fuse_ids[:config.fuse_count]
        if config.setup is Setup.STANDARD:
            deck = [pool.pop() for _ in range(config.deck_size)]
            g.row = [deck.pop() for _ in range(ROW_SIZE)]
            deck += fuses
            rng.shuffle(deck)
            g.deck = deck
        else:
            by_level = _level_piles(g, pool, config)
            if config.setup is Setup.SINGLE_DECK:
                deck = [c for lv in sorted(by_level) for c in by_level[lv]]
                rng.shuffle(deck)
                g.row = [deck.pop() for _ in range(ROW_SIZE)]  # G-11: the row is dealt from bombs only
                deck += fuses
                rng.shuffle(deck)
                g.deck = deck
            else:
                g.stacks = by_level
                g.fuse_deck = fuses
    if config.uses_sparks:
        g.spark_deck = [s.id for s in playable.sparks]
        rng.shuffle(g.spark_deck)
    g.leader = config.first_leader if config.first_leader is not None else rng.below(n)
    g.phase = Phase.ROLL
    g._advance([], chance)
    return g


def _deal_hand(g: GameState, pool: list[str], rejects: list[str], size: int) -> list[str]:
    """B.3: deal a legal hand from the end of ``pool``, setting rejected cards aside."""
    def draw() -> str:
        if not pool:
            raise ConfigError("not enough bomb cards to deal legal starting hands")
        return pool.pop()

    def pts(card: str) -> int:
        return g.bomb(card).points

    hand = [draw() for _ in range(size)]
    limit = g.config.hand_limit
    if size == 2:
        while min(pts(c) for c in hand) > limit:  # FUSE: some card worth 1-2; Countdown: 1-3
            rejects.append(hand.pop())
            hand.append(draw())
        return hand
    while len({pts(c) for c in hand}) < 3:  # solo: at least three different values
        values = [pts(c) for c in hand]
        i = max(i for i, v in enumerate(values) if values.count(v) > 1)
        rejects.append(hand.pop(i))
        hand.append(draw())
    return hand


def _level_piles(g: GameState, pool: list[str], config: GameConfig) -> dict[int, list[str]]:
    """B.6: the chosen number of cards of each level, each pile shuffled (pool is shuffled)."""
    piles: dict[int, list[str]] = {lv: [c for c in pool if g.bomb(c).points == lv] for lv in config.levels}
    want = config.counts_per_level()
    out: dict[int, list[str]] = {}
    short = 0
    for lv in sorted(want, reverse=True):
        n = want[lv] + short
        out[lv] = piles[lv][:n]
        short = n - len(out[lv])
    if short:  # hands took too many low cards: top up from the higher levels' spares
        for lv in sorted(want):
            spare = [c for c in piles[lv] if c not in out[lv]][:short]
            out[lv] += spare
            short -= len(spare)
    if short:
        raise ConfigError("not enough bomb cards for the chosen level counts")
    return {lv: cards for lv, cards in out.items() if cards}
