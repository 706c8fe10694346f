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

The table is read off the engine's action registry (``rules.actions.ACTIONS``): each field of an
action says what it names (``Arg.names``: a rolled die, a card in hand, a colour...), so an action
the engine gains later gets its templates here without a change, after all of these.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from fusegame.constraints import EMPTY
from fusegame.rules import defusal
from fusegame.rules.actions import ACTIONS, Action, Arg, Place
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

#: The verbs in table order. A verb the engine registers later (a new role's action, say) follows
#: these, so that the indices of a game that does not use it never move.
ORDER = ("done", "roll", "reveal", "place", "defuse", "take", "give", "reroll", "return", "name",
         "recolour", "renumber", "flip", "rethrow")


#: what ``ActionTable._where`` finds the positions of (one look-up for every action that names one)
_POSITIONS = frozenset({"rolled", "unused", "hand", "held", "middle"})
#: the values a field may name -> their places
_VALUES: dict[str, dict[Any, int]] = {
    "colour": {c: i for i, c in enumerate(COLOUR_LETTERS)},
    "face": {f: f - 1 for f in range(1, 7)},
    "named": {v: i for i, v in enumerate(NAMED)},
}


class NotInTable(ValueError):
    """An engine action that the table has no index for (a bound of the table was too small)."""


@dataclass(frozen=True)
class _Span:
    """The indices of one verb: ``start`` and, per field, how many values it takes (mixed radix,
    first field most significant)."""

    verb: str
    start: int
    fields: tuple[tuple[str, Arg], ...]
    sizes: tuple[int, ...]

    @property
    def size(self) -> int:
        n = 1
        for k in self.sizes:
            n *= k
        return n


@lru_cache(maxsize=64)
def _layout(dice: int, hand: int, slots: int, choices: int) -> tuple[_Span, ...]:
    sizes = {"rolled": dice, "unused": dice, "held": hand * slots, "hand": hand, "middle": choices,
             "slot": slots, "colour": len(COLOUR_LETTERS), "face": 6, "named": len(NAMED)}
    verbs = [*ORDER, *(v for v in ACTIONS if v not in ORDER and v != "tick")]
    out: list[_Span] = []
    at = 1  # 0 is wait
    for verb in verbs:
        fields = ACTIONS[verb].args()
        for name, a in fields:
            if a.names not in sizes:
                raise TypeError(f"{verb}.{name}: the action table has no positions for {a.names!r}")
        span = _Span(verb, at, fields, tuple(
            (1 << dice) - 1 if a.many else sizes[a.names] for _, a in fields))
        out.append(span)
        at += span.size
    return tuple(out)


@lru_cache(maxsize=64)
def _by_verb(dice: int, hand: int, slots: int, choices: int) -> dict[str, _Span]:
    return {sp.verb: sp for sp in _layout(dice, hand, slots, choices)}


@dataclass(frozen=True)
class ActionTable:
    """The action templates of one game configuration, and the maps between them and actions.

    ``dice`` (R), ``hand`` (H), ``slots`` (S) and ``choices`` (T) are the bounds the table is built
    for; ``for_config`` derives them from the game so that no legal action falls outside. The
    templates come from the engine's action registry: each field of an action says what it names
    (``rules.actions.Arg.names``), and a verb takes one index per combination of its fields.
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
    @cached_property
    def spans(self) -> tuple[_Span, ...]:
        return _layout(self.dice, self.hand, self.slots, self.choices)

    def _span(self, verb: str) -> _Span:
        sp = _by_verb(self.dice, self.hand, self.slots, self.choices).get(verb)
        if sp is None:
            raise ValueError(f"{verb!r} is not a player's action")
        return sp

    def start(self, verb: str) -> int:
        """The first index of ``verb``'s templates."""
        return self._span(verb).start

    @cached_property
    def place0(self) -> int:
        return self.start("place")

    @property
    def defuse0(self) -> int:
        return self.start("defuse")

    @property
    def take0(self) -> int:
        return self.start("take")

    @property
    def give0(self) -> int:
        return self.start("give")

    @property
    def reroll0(self) -> int:
        return self.start("reroll")

    @property
    def return0(self) -> int:
        return self.start("return")

    @property
    def name0(self) -> int:
        return self.start("name")

    @property
    def recolour0(self) -> int:
        return self.start("recolour")

    @property
    def renumber0(self) -> int:
        return self.start("renumber")

    @property
    def flip0(self) -> int:
        return self.start("flip")

    @property
    def rethrow0(self) -> int:
        return self.start("rethrow")

    @cached_property
    def size(self) -> int:
        """How many templates (the ``n`` of the ``Discrete`` action space)."""
        last = self.spans[-1]
        return last.start + last.size

    # -- engine action -> index ------------------------------------------------------------------
    def indices(self, state: GameState, seat: int, actions: Sequence[Action]) -> list[int]:
        """The indices of ``seat``'s legal ``actions`` in ``state``, in order (what ``index`` gives
        each one, worked out in one pass: each kind of position, the roll's or the hand's, is looked
        up once, not once an action); ``NotInTable`` if one has no index."""
        out: list[int] = []
        where: dict[str, dict[Any, int]] = {}
        plans = self._plans
        dice, n_hand, slots, place0 = self.dice, self.hand, self.slots, self.place0
        rolled: dict[Any, int] | None = None
        hand: dict[Any, int] = {}
        for a in actions:
            if type(a) is Place and a.seat == seat:  # most of a turn's actions: written out
                if rolled is None:
                    rolled = where["rolled"] = self._where(state, seat, "rolled")
                    hand = where["hand"] = self._where(state, seat, "hand")
                r = rolled.get(a.die, dice)
                h = hand.get(a.card, n_hand)
                slot = a.slot
                if r < dice and h < n_hand and 0 <= slot < slots:
                    out.append(place0 + (r * n_hand + h) * slots + slot)
                    continue
            else:
                plan = plans.get(type(a))
                if plan is not None and a.seat == seat:
                    i = 0
                    for name, kind, n in plan[1]:
                        value = getattr(a, name)
                        if kind in _POSITIONS:
                            found = where.get(kind)
                            if found is None:
                                found = where[kind] = self._where(state, seat, kind)
                            p = found.get(value, -1)
                        elif kind == "slot":
                            p = value if type(value) is int else -1
                        else:
                            p = _VALUES[kind].get(value, -1)
                        if not 0 <= p < n:
                            break
                        i = i * n + p
                    else:
                        out.append(plan[0] + i)
                        continue
            out.append(self.index(state, a))  # what lies outside the table: index says why
        return out

    def _where(self, g: GameState, seat: int, kind: str) -> dict[Any, int]:
        """Position of every die or card of one kind, the first of a name as ``index`` finds it."""
        out: dict[Any, int] = {}
        if kind == "rolled":
            for r, d in enumerate(g.rolled):
                out.setdefault(d, r)
        elif kind == "unused":
            for u, d in enumerate(g.unused):
                out.setdefault(d, u)
        elif kind == "hand":
            for h, hc in enumerate(g.hands[seat]):
                out.setdefault(hc.card, h)
        elif kind == "held":
            for h, hc in enumerate(g.hands[seat]):  # past the table's hand: out of bounds
                for s, d in enumerate(hc.dice):
                    if d != EMPTY:
                        out.setdefault(d, h * self.slots + s)
        else:  # middle
            for j, card in enumerate(defusal.options(g)):
                out.setdefault(card, j)
        return out

    @cached_property
    def _plans(self) -> dict[type, tuple[int, tuple[tuple[str, str, int], ...]]]:
        """Action class -> its first index and, per field, its name, what it names and how many
        values it takes (the verbs whose fields all name positions or values; not ``rethrow``)."""
        out: dict[type, tuple[int, tuple[tuple[str, str, int], ...]]] = {}
        for sp in self.spans:
            if any(arg.many for _, arg in sp.fields):
                continue
            out[ACTIONS[sp.verb]] = (sp.start, tuple(
                (name, arg.names, n) for (name, arg), n in zip(sp.fields, sp.sizes)))
        return out

    def index(self, state: GameState, action: Action) -> int:
        """The index of a legal engine ``action`` in ``state``; ``NotInTable`` if it has none."""
        try:
            return self._index(state, action)
        except (ValueError, IndexError) as e:
            raise NotInTable(f"{action} has no index in {self}: {e}") from None

    def _index(self, g: GameState, a: Action) -> int:
        sp = self._span(a.verb)
        i = 0
        for (name, arg), n in zip(sp.fields, sp.sizes):
            i = i * n + self._bound(self._position(g, a.seat, arg, getattr(a, name)), n)
        return sp.start + i

    def _position(self, g: GameState, seat: int, arg: Arg, value: Any) -> int:
        kind = arg.names
        if arg.many:
            mask = 0
            for d in value:
                mask |= 1 << self._bound(g.rolled.index(d), self.dice)
            return mask - 1
        if kind == "rolled":
            return g.rolled.index(value)
        if kind == "unused":
            return g.unused.index(value)
        if kind == "held":
            for h, hc in enumerate(g.hands[seat]):
                if value in hc.dice:
                    return self._bound(h, self.hand) * self.slots + hc.dice.index(value)
            raise ValueError(f"die {value} is not on a card of seat {seat}")
        if kind == "hand":
            return self._hand_pos(g, seat, value)
        if kind == "middle":
            return defusal.options(g).index(value)
        if kind == "slot":
            return int(value)
        if kind == "colour":
            return COLOUR_LETTERS.index(value)
        if kind == "face":
            return int(value) - 1
        return NAMED.index(value)

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
    def _locate(self, i: int) -> tuple[_Span, list[int]]:
        for sp in self.spans:
            if sp.start <= i < sp.start + sp.size:
                k, pos = i - sp.start, []
                for n in reversed(sp.sizes):
                    k, p = divmod(k, n)
                    pos.append(p)
                return sp, pos[::-1]
        raise IndexError(f"action {i} outside 0..{self.size - 1}")

    def action(self, state: GameState, seat: int, index: int) -> Action | None:
        """The engine action that ``index`` names for ``seat`` in ``state``, stamped with the game
        time; ``None`` for ``wait`` or for an index that names nothing in this position (a die or
        card position that is empty now). The action may still be illegal: check it against the
        mask, or let ``GameState.apply`` judge it."""
        g = state
        i = int(index)
        if i == WAIT or not 0 <= i < self.size:
            return None
        sp, pos = self._locate(i)
        values: dict[str, Any] = {}
        try:
            for (name, arg), p in zip(sp.fields, pos):
                v = self._value(g, seat, arg, p)
                if v is None:
                    return None
                values[name] = v
        except IndexError:
            return None
        return ACTIONS[sp.verb](seat, g.time_ms, **values)

    def _value(self, g: GameState, seat: int, arg: Arg, p: int) -> Any:
        kind = arg.names
        if arg.many:
            mask = p + 1
            return tuple(sorted(g.rolled[r] for r in range(self.dice) if mask >> r & 1))
        if kind == "rolled":
            return g.rolled[p]
        if kind == "unused":
            return g.unused[p]
        if kind == "held":
            h, s = divmod(p, self.slots)
            die = g.hands[seat][h].dice[s]
            return None if die == EMPTY else die
        if kind == "hand":
            return g.hands[seat][p].card
        if kind == "middle":
            return defusal.options(g)[p]
        if kind == "slot":
            return p
        if kind == "colour":
            return COLOUR_LETTERS[p]
        if kind == "face":
            return p + 1
        return NAMED[p]

    def describe(self, index: int) -> str:
        """The template ``index`` stands for, in words (``place r1 h0 s2``)."""
        i = int(index)
        if i == WAIT:
            return "wait"
        sp, pos = self._locate(i)
        words = [sp.verb]
        for (_, arg), p in zip(sp.fields, pos):
            words.append(self._word(arg, p))
        return " ".join(words)

    def _word(self, arg: Arg, p: int) -> str:
        kind = arg.names
        if arg.many:
            return str([r for r in range(self.dice) if (p + 1) >> r & 1])
        if kind == "held":
            h, s = divmod(p, self.slots)
            return f"h{h} s{s}"
        letter = {"rolled": "r", "unused": "u", "hand": "h", "middle": "t", "slot": "s"}.get(kind)
        if letter is not None:
            return f"{letter}{p}"
        return {"colour": COLOUR_LETTERS, "named": NAMED}[kind][p] if kind != "face" else str(p + 1)


__all__ = ["ActionTable", "COLOUR_LETTERS", "DONE", "NAMED", "NotInTable", "ORDER", "REVEAL", "ROLL", "WAIT"]
