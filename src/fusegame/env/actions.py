"""The fixed action space: an enumerated table of action templates, the same for every seat.

Every engine action a seat can take is one index of ``Discrete(table.size)``. Dice are named by
their position in the turn's roll (``state.rolled``, in the order they were rolled), cards in
front of a player by their position in that player's hand (``state.hands[seat]``), cards in the
middle by their position among the cards one may take (the row, or the stacks' tops, lowest level
first), unused dice by their position in ``state.unused``. The observation lists dice and cards in
the same orders, so an index means the same thing to a policy as the features it sees.

The table, in this order (``R`` dice a turn at most, ``H`` cards in a hand at most, ``S`` slots on
a card at most, ``T`` cards to choose from, ``U = R`` unused dice)::

    wait                      0      let the next seat act first (environment action, not the engine's)
    done                      1      take no (more) dice this turn
    roll                      2      roll one's virtual die ("all players must roll a 6")
    reveal                    3      stacks setup: reveal a fuse card before taking a card
    place  r h s              R*H*S  put rolled die r on one's own card h, slot s
    defuse h                  H      1-2 player Countdown: defuse complete card h now
    take   t                  T      take middle card t
    give   h s                H*S    give up the die on one's card h, slot s
    reroll u                  U      the leader rolls unused die u next (penalty)
    return u                  U      Logistics Specialist: unused die u goes back free
    name   v                  11     name R B G Y K 1 2 3 4 5 6
    recolour r c              R*5    give rolled die r colour R B G Y K
    renumber r f              R*6    turn rolled die r to face 1-6
    flip   r                  R      turn rolled die r to its opposite face
    rethrow m                 2^R-1  reroll the rolled dice in bit mask m (1..2^R-1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fusegame.constraints import EMPTY
from fusegame.rules import defusal
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
)
from fusegame.rules.config import LEVELS, GameConfig, dice_per_turn
from fusegame.rules.games import ROW_SIZE
from fusegame.rules.state import GameState

#: What ``name v`` names, in order.
NAMED = "RBGYK123456"
#: The colours ``recolour r c`` may give, in order.
COLOUR_LETTERS = "RBGYK"

WAIT = 0
DONE = 1
ROLL = 2
REVEAL = 3


class NotInTable(ValueError):
    """An engine action that the table has no index for (a bound of the table was too small)."""


@dataclass(frozen=True)
class ActionTable:
    """The action templates of one game configuration, and the maps between them and actions.

    ``dice`` (R), ``hand`` (H), ``slots`` (S) and ``choices`` (T) are the bounds the table is built
    for; ``for_config`` derives them from the game so that no legal action falls outside.
    """

    dice: int
    hand: int
    slots: int
    choices: int

    @staticmethod
    def for_config(config: GameConfig) -> ActionTable:
        """The table for ``config``: R = dice a turn (+1 for a Logistics Specialist where roles are
        in play), H = the starting hand plus every spark card of the game (sparks pile up in front
        of a player with no upper bound but the spark deck), S = the largest card, T = 5."""
        parts = config.parts
        dice = dice_per_turn(config.players) + (1 if "roles" in parts else 0)
        cards = list(config.catalogue.bombs)
        sparks = list(config.catalogue.sparks) if "sparks" in parts else []
        hand = config.hand_size + len(sparks)
        slots = max(c.shape.size for c in cards + sparks)
        return ActionTable(dice, hand, slots, max(ROW_SIZE, len(LEVELS)))

    # -- the layout --------------------------------------------------------------------------
    @property
    def place0(self) -> int:
        return 4

    @property
    def defuse0(self) -> int:
        return self.place0 + self.dice * self.hand * self.slots

    @property
    def take0(self) -> int:
        return self.defuse0 + self.hand

    @property
    def give0(self) -> int:
        return self.take0 + self.choices

    @property
    def reroll0(self) -> int:
        return self.give0 + self.hand * self.slots

    @property
    def return0(self) -> int:
        return self.reroll0 + self.dice

    @property
    def name0(self) -> int:
        return self.return0 + self.dice

    @property
    def recolour0(self) -> int:
        return self.name0 + len(NAMED)

    @property
    def renumber0(self) -> int:
        return self.recolour0 + self.dice * len(COLOUR_LETTERS)

    @property
    def flip0(self) -> int:
        return self.renumber0 + self.dice * 6

    @property
    def rethrow0(self) -> int:
        return self.flip0 + self.dice

    @property
    def size(self) -> int:
        """How many templates (the ``n`` of the ``Discrete`` action space)."""
        return self.rethrow0 + (1 << self.dice) - 1

    # -- engine action -> index ------------------------------------------------------------------
    def index(self, state: GameState, action: Action) -> int:
        """The index of a legal engine ``action`` in ``state``; ``NotInTable`` if it has none."""
        try:
            return self._index(state, action)
        except (ValueError, IndexError) as e:
            raise NotInTable(f"{action} has no index in {self}: {e}") from None

    def _index(self, g: GameState, a: Action) -> int:
        seat = a.seat
        if isinstance(a, Place):
            r = self._bound(g.rolled.index(a.die), self.dice)
            h = self._bound(self._hand_pos(g, seat, a.card), self.hand)
            return self.place0 + (r * self.hand + h) * self.slots + self._bound(a.slot, self.slots)
        if isinstance(a, Done):
            return DONE
        if isinstance(a, GiveUp):
            for h, hc in enumerate(g.hands[seat]):
                if a.die in hc.dice:
                    return self.give0 + self._bound(h, self.hand) * self.slots + hc.dice.index(a.die)
            raise ValueError(f"die {a.die} is not on a card of seat {seat}")
        if isinstance(a, TakeCard):
            return self.take0 + self._bound(defusal.options(g).index(a.card), self.choices)
        if isinstance(a, RerollUnused):
            return self.reroll0 + self._bound(g.unused.index(a.die), self.dice)
        if isinstance(a, ReturnFree):
            return self.return0 + self._bound(g.unused.index(a.die), self.dice)
        if isinstance(a, RollSix):
            return ROLL
        if isinstance(a, RevealFuse):
            return REVEAL
        if isinstance(a, Defuse):
            return self.defuse0 + self._bound(self._hand_pos(g, seat, a.card), self.hand)
        if isinstance(a, Name):
            return self.name0 + NAMED.index(a.value)
        if isinstance(a, Recolour):
            r = self._bound(g.rolled.index(a.die), self.dice)
            return self.recolour0 + r * len(COLOUR_LETTERS) + COLOUR_LETTERS.index(a.colour)
        if isinstance(a, Renumber):
            return self.renumber0 + self._bound(g.rolled.index(a.die), self.dice) * 6 + a.face - 1
        if isinstance(a, Flip):
            return self.flip0 + self._bound(g.rolled.index(a.die), self.dice)
        if isinstance(a, Rethrow):
            mask = 0
            for d in a.dice:
                mask |= 1 << self._bound(g.rolled.index(d), self.dice)
            return self.rethrow0 + mask - 1
        raise ValueError(f"{type(a).__name__} is not a player's action")

    @staticmethod
    def _bound(i: int, n: int) -> int:
        if not 0 <= i < n:
            raise IndexError(f"position {i} outside 0..{n - 1}")
        return i

    @staticmethod
    def _hand_pos(g: GameState, seat: int, card: str) -> int:
        for h, hc in enumerate(g.hands[seat]):
            if hc.card == card:
                return h
        raise ValueError(f"{card} is not in front of seat {seat}")

    # -- index -> engine action ----------------------------------------------------------------
    def action(self, state: GameState, seat: int, index: int) -> Action | None:
        """The engine action that ``index`` names for ``seat`` in ``state``, stamped with the game
        time; ``None`` for ``wait`` or for an index that names nothing in this position (a die or
        card position that is empty now). The action may still be illegal: check it against the
        mask, or let ``GameState.apply`` judge it."""
        g, at = state, state.time_ms
        i = int(index)
        if i == WAIT or not 0 <= i < self.size:
            return None
        if i == DONE:
            return Done(seat, at)
        if i == ROLL:
            return RollSix(seat, at)
        if i == REVEAL:
            return RevealFuse(seat, at)
        try:
            if i < self.defuse0:
                r, rest = divmod(i - self.place0, self.hand * self.slots)
                h, s = divmod(rest, self.slots)
                return Place(seat, at, g.rolled[r], g.hands[seat][h].card, s)
            if i < self.take0:
                return Defuse(seat, at, g.hands[seat][i - self.defuse0].card)
            if i < self.give0:
                return TakeCard(seat, at, defusal.options(g)[i - self.take0])
            if i < self.reroll0:
                h, s = divmod(i - self.give0, self.slots)
                die = g.hands[seat][h].dice[s]
                return None if die == EMPTY else GiveUp(seat, at, die)
            if i < self.return0:
                return RerollUnused(seat, at, g.unused[i - self.reroll0])
            if i < self.name0:
                return ReturnFree(seat, at, g.unused[i - self.return0])
            if i < self.recolour0:
                return Name(seat, at, NAMED[i - self.name0])
            if i < self.renumber0:
                r, c = divmod(i - self.recolour0, len(COLOUR_LETTERS))
                return Recolour(seat, at, g.rolled[r], COLOUR_LETTERS[c])
            if i < self.flip0:
                r, f = divmod(i - self.renumber0, 6)
                return Renumber(seat, at, g.rolled[r], f + 1)
            if i < self.rethrow0:
                return Flip(seat, at, g.rolled[i - self.flip0])
            mask = i - self.rethrow0 + 1
            return Rethrow(seat, at, tuple(sorted(g.rolled[r] for r in range(self.dice) if mask >> r & 1)))
        except IndexError:
            return None

    def describe(self, index: int) -> str:
        """The template ``index`` stands for, in words (``place r1 h0 s2``)."""
        i = int(index)
        if not 0 <= i < self.size:
            raise IndexError(f"action {i} outside 0..{self.size - 1}")
        if i < self.place0:
            return ("wait", "done", "roll", "reveal")[i]
        if i < self.defuse0:
            r, rest = divmod(i - self.place0, self.hand * self.slots)
            h, s = divmod(rest, self.slots)
            return f"place r{r} h{h} s{s}"
        spans: list[tuple[int, str, Any]] = [
            (self.take0, "defuse h", None), (self.give0, "take t", None), (self.reroll0, "give", self.slots),
            (self.return0, "reroll u", None), (self.name0, "return u", None), (self.recolour0, "name", NAMED),
            (self.renumber0, "recolour", COLOUR_LETTERS), (self.flip0, "renumber", 6),
            (self.rethrow0, "flip r", None), (self.size, "rethrow", "mask")]
        start = self.defuse0
        for end, word, detail in spans:
            if i < end:
                k = i - start
                if detail is None:
                    return f"{word}{k}"
                if detail == "mask":
                    return f"rethrow {[r for r in range(self.dice) if (k + 1) >> r & 1]}"
                if isinstance(detail, str) and word == "name":
                    return f"name {detail[k]}"
                if isinstance(detail, str):
                    r, c = divmod(k, len(detail))
                    return f"{word} r{r} {detail[c]}"
                q, m = divmod(k, detail)
                return f"give h{q} s{m}" if word == "give" else f"renumber r{q} {m + 1}"
            start = end
        raise AssertionError("unreachable")


__all__ = ["ActionTable", "COLOUR_LETTERS", "DONE", "NAMED", "NotInTable", "REVEAL", "ROLL", "WAIT"]
