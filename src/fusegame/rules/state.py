"""The game state and the one pipeline that changes it.

``GameState`` holds a whole FUSE game as plain data (the seeded generator included), so it can be
cloned, saved as JSON and replayed exactly. Actions come from any seat that may act now, in any
order (FUSE is played in real time); ``apply`` validates and returns the events it caused.
Chance (the turn's draw and roll, penalty rerolls) is resolved with the state's own generator, or
left open for a solver with ``chance=False`` (see ``chance_outcomes`` and ``apply_chance``).

Turn order follows RULES.md C.1.7: roll, distribution (with defusals, replacement picks and fuse
cards as they happen), the unused-dice penalty one die at a time, then the bag passes on.
"""

from __future__ import annotations

from bisect import insort
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import combinations_with_replacement
from math import comb, factorial, prod
from typing import Any, overload

from fusegame.cards.catalogue import Catalogue
from fusegame.cards.model import BombCard, FuseCard
from fusegame.constraints import EMPTY, CompiledCard
from fusegame.dice import N_TYPES, TYPE_LABELS, DiceSet, colours_text, die_type, type_colours, type_face
from fusegame.rng import Rng
from fusegame.rules.actions import (
    Action,
    Done,
    GiveUp,
    Place,
    RerollUnused,
    RevealFuse,
    TakeCard,
    Tick,
)
from fusegame.rules.config import ROW_SIZE, ConfigError, Difficulty, GameConfig, Setup, dice_per_turn, quota
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
    PENALTY = "penalty"  #: unused dice are rerolled one at a time
    OVER = "over"


@dataclass(frozen=True)
class Decision:
    """What one seat must or may decide now: ``kind`` and the die ids or card ids to choose from."""

    kind: str  #: "distribute", "take", "give_up" or "reroll"
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
    """A FUSE game in progress. Create one with ``new_game``; change it only through ``apply``."""

    def __init__(self, config: GameConfig, dice: DiceSet | None = None) -> None:
        self.config = config
        self.catalogue: Catalogue = config.catalogue
        self.dice = dice or DiceSet.fuse()
        self._bombs = {b.id: b for b in self.catalogue.bombs}
        self._fuses = {f.id: f for f in self.catalogue.fuses}
        in_play = self.dice.types_in_play
        self._compiled = {b.id: compiled(b, in_play, config.feasibility) for b in self.catalogue.bombs}
        n = config.players
        self.rng = Rng(0)
        self.time_ms = 0
        self.faces: list[int] = [1] * len(self.dice)
        self.types: list[int] = [die_type(c, 1) for c in self.dice.colours]  # cache of die_type per die
        self.free: list[int] = []  # dice of this turn's roll still in the middle
        self.quota = quota(config.players)
        self.bag: list[int] = list(range(len(self.dice)))
        self.hands: list[list[HandCard]] = [[] for _ in range(n)]
        self.row: list[str] = []
        self.deck: list[str] = []  # top is the end of the list
        self.stacks: dict[int, list[str]] = {}  # stacks setup: level -> cards, top at the end
        self.fuse_deck: list[str] = []  # stacks setup
        self.score_pile: list[str] = []
        self.fuses_activated: list[str] = []
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
        """True when the next step is random: the turn's roll or a penalty reroll."""
        if self.outcome or self.removals:
            return False
        return self.phase is Phase.ROLL or (self.phase is Phase.PENALTY and self.penalty_die != EMPTY)

    def bomb(self, card_id: str) -> BombCard:
        """The bomb card with this id."""
        return self._bombs[card_id]

    def fuse(self, card_id: str) -> FuseCard:
        """The fuse card with this id."""
        return self._fuses[card_id]

    def card_rules(self, card_id: str) -> CompiledCard:
        """The compiled legality tables of a bomb card (keyed by ``HandCard.key``)."""
        return self._compiled[card_id]

    def die_type(self, die: int) -> int:
        """The type (colour set and face) die ``die`` shows now."""
        return self.types[die]

    def die_label(self, die: int) -> str:
        """``Y5``: the colour and face die ``die`` shows now."""
        return TYPE_LABELS[self.types[die]]

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

    def _may_place(self, seat: int) -> bool:
        return (not self.done[seat] and self.taken[seat] < self.quota
                and any(EMPTY in hc.types for hc in self.hands[seat]))

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
        if self.phase is Phase.PENALTY:
            return {self.leader: Decision("reroll", tuple(self.unused))}
        free = tuple(self.unplaced())
        for seat in range(self.players):
            picks = [p for p in self.picks if p[0] == seat]
            if picks:
                out[seat] = Decision("take", tuple(self._pick_options()))
            elif self._may_place(seat) and free:
                out[seat] = Decision("distribute", free)
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
        if self.phase is Phase.PENALTY:
            if self.leader in seats:
                seen: set[int] = set()
                for d in self.unused:
                    cs = self.dice.colours[d]
                    if cs not in seen:  # dice of one colour set are interchangeable here
                        seen.add(cs)
                        acts.append(RerollUnused(self.leader, at, d))
            return LegalActions(acts, at)
        if self.phase is not Phase.DISTRIBUTE:
            return LegalActions(acts, at)
        free = self.free
        types = self.types
        quota_ = self.quota
        n = 0
        for s in seats:
            if self.picks and any(p[0] == s for p in self.picks):
                acts += [TakeCard(s, at, c) for c in self._pick_options()]
                if self.config.setup is Setup.STACKS and self.fuse_deck and not any(
                        p[2] for p in self.picks if p[0] == s):
                    acts.append(RevealFuse(s, at))
            if not free or self.done[s] or self.taken[s] >= quota_:
                continue
            open_card = False
            for hc in self.hands[s]:
                st = hc.key
                if EMPTY not in st:
                    continue
                open_card = True
                rules = self._compiled[hc.card]
                table = rules.slot_table(st)
                canon = rules.canon
                card = hc.card
                for d in free:
                    t = canon[types[d]]
                    slots = table[t]
                    if slots is None:
                        slots = rules.legal_slots(st, t)
                    if slots:
                        acts.append((s, d, card, slots))
                        n += len(slots) - 1
            if open_card:
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
        if self.phase is Phase.PENALTY:
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
        if isinstance(a, Done):
            if not self._may_place(a.seat) or not self.unplaced():
                raise NotYourDecision("you have nothing left to decide this turn")
            return
        if isinstance(a, Place):
            if self.done[a.seat]:
                raise NotYourDecision("you already said you are done this turn")
            if self.taken[a.seat] >= self.quota:
                raise NotYourDecision(f"you may take at most {self.quota} dice a turn")
            if a.die not in self.free or self.phase is not Phase.DISTRIBUTE:
                raise IllegalPlacement("that die is not available (already taken, or not rolled)")
            hc = self.hand_card(a.seat, a.card)
            if hc is None:
                raise IllegalPlacement(f"{a.card} is not one of your cards")
            if hc.complete:
                raise IllegalPlacement(f"{a.card} is already complete")
            rules = self._compiled[a.card]
            why = rules.why_illegal(hc.key, a.slot, rules.canon[self.types[a.die]])
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
        if limit is not None and self.time_ms >= limit * 1000:
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
        elif isinstance(a, RerollUnused):
            self.penalty_die = a.die
        self._advance(ev, chance)
        return ev

    # ------------------------------------------------------------------ placement & defusal
    def _place(self, a: Place, ev: list[Event]) -> None:
        hc = self.hand_card(a.seat, a.card)
        assert hc is not None
        hc.set_slot(a.slot, a.die, self.types[a.die], self._compiled[a.card].canon)
        self.taken[a.seat] += 1
        self.free.remove(a.die)
        ev.append(Event("die_placed", {"seat": a.seat, "die": self.die_label(a.die), "die_id": a.die,
                                       "card": a.card, "slot": a.slot}))
        if hc.complete:
            ev.append(Event("card_completed", {"seat": a.seat, "card": a.card}))
            if self.middle_has_bombs():
                self.picks.append([a.seat, a.card, False])
            else:  # Insane endgame: nothing to take, the card is simply defused
                self._defuse(a.seat, hc, ev)
                self._check_insane_win(ev)

    def _defuse(self, seat: int, hc: HandCard, ev: list[Event]) -> None:
        for d in hc.dice:
            insort(self.bag, d)
        self.hands[seat].remove(hc)
        self.score_pile.append(hc.card)
        ev.append(Event("bomb_defused", {"seat": seat, "card": hc.card, "points": self.bomb(hc.card).points}))

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
        if not self.middle_has_bombs():
            # E.1: taking the last bomb from the middle wins at once (Insane also needs the hands);
            # fuse cards left below it are never turned over (G-23).
            if self.config.difficulty is not Difficulty.INSANE:
                self._end(True, Termination.BOMBS_DEFUSED, ev)
                return
            for p in self.picks:  # nothing left to take: other complete cards are defused now
                other = self.hand_card(p[0], p[1])
                assert other is not None
                self._defuse(p[0], other, ev)
            self.picks.clear()
            self._check_insane_win(ev)
            return
        if self.config.setup is not Setup.STACKS:
            self.refills += 1

    def _check_insane_win(self, ev: list[Event]) -> None:
        if not self.outcome and not self.middle_has_bombs() and not any(self.hands):
            self._end(True, Termination.BOMBS_DEFUSED, ev)

    # ------------------------------------------------------------------ fuse cards & removals
    def _activate_fuse(self, card_id: str, ev: list[Event]) -> None:
        f = self.fuse(card_id)
        self.fuses_activated.append(card_id)
        ev.append(Event("fuse_activated", {"card": card_id, "shows": f.symbol}))
        self._start_removals(lambda c, n: f.matches(c, n), f"fuse card {f.symbol}", ev)

    def _start_removals(self, matches: Any, reason: str, ev: list[Event]) -> None:
        """C.3: every player returns one matching, unsafe die from an incomplete card, if they can."""
        self.removal_reason = reason
        for seat in range(self.players):
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

    # ------------------------------------------------------------------ the automatic steps
    def _advance(self, ev: list[Event], chance: bool) -> None:
        while self.outcome is None and not self.removals:
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
                self.unused = self.free
                self.free = []
                self.phase = Phase.PENALTY
                continue
            if self.phase is Phase.PENALTY:
                if self.penalty_die == EMPTY:
                    if not self.unused:
                        self._end_turn(ev)
                        continue
                    if len({self.dice.colours[d] for d in self.unused}) > 1:
                        return  # the leader chooses the order
                    self.penalty_die = self.unused[0]
                if not chance:
                    return
                self._penalty_roll(self.penalty_die, self.rng.below(6) + 1, ev)
                continue
            if self.phase is Phase.ROLL:
                if not self.bag:
                    self._end(False, Termination.BAG_EMPTY, ev)
                    return
                if not chance:
                    return
                k = min(dice_per_turn(self.players), len(self.bag))
                drawn = [self.bag.pop(self.rng.below(len(self.bag))) for _ in range(k)]
                self._roll(drawn, [self.rng.below(6) + 1 for _ in drawn], ev)
                continue
            return

    def _roll(self, drawn: list[int], faces: list[int], ev: list[Event]) -> None:
        for d, f in zip(drawn, faces):
            self.faces[d] = f
            self.types[d] = die_type(self.dice.colours[d], f)
        self.rolled = drawn
        self.free = drawn[:]
        self.taken = [0] * self.players
        self.done = [False] * self.players
        self.phase = Phase.DISTRIBUTE
        ev.append(Event("dice_rolled", {"leader": self.leader, "dice": [self.die_label(d) for d in drawn],
                                        "die_ids": drawn}))

    def _penalty_roll(self, die: int, face: int, ev: list[Event]) -> None:
        self.faces[die] = face
        self.types[die] = die_type(self.dice.colours[die], face)
        self.unused.remove(die)
        self.penalty_die = EMPTY
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
        self.phase = Phase.ROLL

    def _end(self, won: bool, reason: Termination, ev: list[Event]) -> None:
        limit = self.config.time_limit
        left = None if limit is None else max(0, limit * 1000 - self.time_ms)
        # A card is defused the moment its last die goes on (C.1.3, G-24); one still waiting for
        # its owner to take a replacement when the game ends scores all the same.
        pending = [p[1] for p in self.picks]
        points = sum(self.bomb(c).points for c in self.score_pile + pending)
        self.outcome = Outcome(won, reason, score(won, left, points, len(self.fuses_activated)),
                               left, self.config.official)
        self.phase = Phase.OVER
        ev.append(Event("game_won" if won else "game_lost",
                        {"reason": reason.value, "score": self.outcome.score.total}))

    # ================================================================== chance
    def chance_outcomes(self) -> list[tuple[tuple[int, ...], float]]:
        """The possible results of the pending chance event with their probabilities.

        For the turn's roll an outcome is a sorted tuple of die types (the dice drawn and the
        faces they show; dice of one colour set are interchangeable); for a penalty reroll it is
        a 1-tuple with the face. Probabilities sum to 1.
        """
        if not self.is_chance:
            return []
        if self.phase is Phase.PENALTY:
            return [((f,), 1 / 6) for f in range(1, 7)]
        k = min(dice_per_turn(self.players), len(self.bag))
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
        if self.phase is Phase.PENALTY:
            if len(outcome) != 1 or outcome[0] not in range(1, 7):
                raise IllegalAction(f"a penalty reroll outcome is one face 1-6, not {outcome!r}")
            self._penalty_roll(self.penalty_die, outcome[0], ev)
        else:
            k = min(dice_per_turn(self.players), len(self.bag))
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
    """Set up a game (RULES.md B.1-B.3, B.6) and roll the first turn's dice.

    The same config and seed always give the same game. ``chance=False`` stops before the first
    roll so that a solver can enumerate it.
    """
    g = GameState(config)
    g.rng = Rng(seed)
    rng = g.rng
    bombs = [b for b in g.catalogue.bombs if config.six_point_cards or b.points != 6]
    pool = [b.id for b in bombs]
    rng.shuffle(pool)
    rejects: list[str] = []
    for seat in range(config.players):
        hand = _deal_hand(g, pool, rejects, config.hand_size)
        g.hands[seat] = [HandCard(c, g.bomb(c).shape.size) for c in hand]
    pool += rejects
    rng.shuffle(pool)
    fuse_ids = [f.id for f in g.catalogue.fuses]
    rng.shuffle(fuse_ids)
    fuses = fuse_ids[:config.fuse_cards]
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
    g.leader = config.first_leader if config.first_leader is not None else rng.below(config.players)
    g.phase = Phase.ROLL
    g._advance([], chance)
    return g


def _deal_hand(g: GameState, pool: list[str], rejects: list[str], size: int) -> list[str]:
    """B.3: deal a legal hand, setting rejected cards aside."""
    def draw() -> str:
        if not pool:
            raise ConfigError("not enough bomb cards to deal legal starting hands")
        return pool.pop()

    def pts(card: str) -> int:
        return g.bomb(card).points

    hand = [draw() for _ in range(size)]
    if size == 2:
        while min(pts(c) for c in hand) > 2:  # some card must be worth 1 or 2
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
