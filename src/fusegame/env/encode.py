"""The fixed-size numeric observation of one seat: what that player may see, as a float vector.

It encodes the same public information as ``fusegame.observe.observation`` (never the deck order,
the spark deck's order, the faces of dice in the bag or the generator), with every value scaled
into [0, 1]. Seats are rotated so that the observing seat comes first; dice and cards are listed in
the orders the action table uses (``env.actions``). ``ObservationLayout.parts`` names every block.

Blocks, in order:

- ``globals``: the turn's step (one-hot), the head of the queue of pending decisions (one-hot),
  this seat's decision kind (one-hot in the order of ``rules.decision_kinds.KINDS``, then "none";
  a kind the table lacks is refused), whether this seat holds the initiative, the leader
  (relative seat, one-hot), players, turn, time left, deck size, bag size and the share of bag
  dice of each colour, fuse cards not gone off, score so far, spark deck/discard/in play/defused,
  the leader's active role ability (one-hot), the named colour or number (one-hot), ability uses,
  the Logistics bonus die;
- ``seats`` (each seat, this one first): dice taken / quota, quota, done, must take a card, must
  roll a 6, may act now, cards in hand, spark cards in hand, role ability (one-hot) and face up;
- ``cards`` (each seat's hand positions, then the cards one may take from the middle): present,
  spark, complete, points, size, layout (one-hot); per slot: filled, the die's colours (5 bits),
  its face / 6, the slot's icon (kind one-hot, then up to two alternatives of colours and faces:
  ``Y5``, ``Y|1``, the colour a ``!`` icon refuses), whether it goes first or last and the slots it
  rests on; the relations between slots (for each pair ``a < b``, one bit per relation kind,
  ``a > b`` written as ``b < a`` the other way round); and up to two clauses of up to two
  alternatives each (a group test over its member slots, or an equation: for each of up to three
  expressions, the slots added and subtracted and the constant / 24, and the operators between
  them). A split die fits a slot when one of its colours does (``!``: when neither is refused);
  the ``S`` icon takes only split dice. ``CARD_FEATURES`` names every feature;
- ``rolled`` (each position of the turn's roll): present, still in the middle, colours, face
  (one-hot), temporary colour, may be changed by the named colour/number, already changed;
- ``unused`` (each position of the dice nobody took): present, colours, face (one-hot).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from fusegame.cards.model import Ability, BombCard, Comparison, Group, GroupTest, Layout, PredKind, Rel
from fusegame.constraints import EMPTY
from fusegame.dice import COLOURS, type_colours, type_face
from fusegame.env.actions import NAMED, ActionTable
from fusegame.rules import defusal
from fusegame.rules.config import GameConfig
from fusegame.rules.decision_kinds import KINDS
from fusegame.rules.decisions import ORDER, Decision
from fusegame.rules.games import Phase
from fusegame.rules.state import GameState

PHASES = tuple(Phase)
_PHASE_INDEX = {ph: i for i, ph in enumerate(PHASES)}
#: the decision kinds, one-hot by their index in the declared table (``rules.decision_kinds``), then
#: one bit for "no decision"
DECISION_KINDS = tuple(KINDS)
_KIND_INDEX = {kind: i for i, kind in enumerate(DECISION_KINDS)}
ABILITIES = tuple(Ability)
#: The observation's version: ``fusegame/Fuse-v1`` and the PettingZoo environments ``fuse_v1``.
VERSION = 1
LAYOUTS = tuple(Layout)
PRED_KINDS = tuple(PredKind)
RELS = tuple(Rel)
GROUPS = tuple(Group)
OPS = ("=", "<", ">")
CARD_HEAD = 5 + len(LAYOUTS)  #: present, spark, complete, points, size, layout
#: a slot: filled, the die's colours (5) and face; its icon's kind and two alternatives of colours
#: (5) and faces (6); goes first, goes last
SLOT_FIXED = 7 + len(PRED_KINDS) + 2 * 11 + 2
CLAUSES, ALTERNATIVES, EXPRESSIONS = 2, 2, 3
ROLLED_WIDTH = 20
UNUSED_WIDTH = 12
SEAT_WIDTH = 8 + len(ABILITIES) + 2

Vector = npt.NDArray[np.float32]


def kind_index(kind: str) -> int:
    """A decision kind's place in the one-hot; ``ValueError`` for a kind the table lacks (an
    observation has no bucket for the unknown: add the kind to ``rules.decision_kinds``)."""
    i = _KIND_INDEX.get(kind)
    if i is None:
        raise ValueError(f"decision kind {kind!r} is not in rules.decision_kinds.KINDS")
    return i


def _colour_bits(colours: int) -> list[float]:
    return [1.0 if colours & c else 0.0 for c in COLOURS]


#: colour set (a bit mask) -> its five bits, ready to copy into a vector
_COLOUR_BITS = [np.array(_colour_bits(m), dtype=np.float32) for m in range(32)]


def slot_width(slots: int) -> int:
    """A slot's features on cards of at most ``slots`` slots (the slots it rests on, one bit each)."""
    return SLOT_FIXED + slots


def atom_width(slots: int) -> int:
    """A clause's alternative: its kind (the four group tests, an equation), its member slots, and
    per expression the slots added, the slots subtracted and the constant; the operators."""
    return len(GROUPS) + 1 + slots + EXPRESSIONS * (2 * slots + 1) + (EXPRESSIONS - 1) * len(OPS)


def card_width(slots: int) -> int:
    pairs = slots * (slots - 1) // 2
    clauses = CLAUSES * ALTERNATIVES * atom_width(slots)
    return CARD_HEAD + slots * slot_width(slots) + pairs * len(RELS) + clauses


def _pair_index(a: int, b: int, slots: int) -> int:
    """The place of the pair ``a < b`` among all pairs of ``slots`` slots."""
    return a * slots - a * (a + 1) // 2 + (b - a - 1)


def card_features(card: BombCard, slots: int) -> Vector:
    """What never changes in a card's block: its kind, points, size and layout, each slot's icon,
    order and support, its relations and its clauses (``card_feature_names`` names them). Two
    cards with different rules or points never encode alike."""
    shape = card.shape
    out = np.zeros(card_width(slots), dtype=np.float32)
    out[0] = 1.0
    out[1] = float(card.kind == "spark")
    out[3] = min(card.points, 6) / 6
    out[4] = shape.size / slots
    out[5 + LAYOUTS.index(shape.layout)] = 1.0
    sw = slot_width(slots)
    for i, slot in enumerate(shape.slots[:slots]):
        o = CARD_HEAD + i * sw + 7
        pred = slot.pred
        out[o + PRED_KINDS.index(pred.kind)] = 1.0
        o += len(PRED_KINDS)
        alts = pred.alts if pred.kind is PredKind.ONE_OF else ((pred.colour, 0),) if pred.colour else ()
        for colour, face in alts[:2]:
            out[o:o + 5] = _COLOUR_BITS[colour]
            if face:
                out[o + 4 + face] = 1.0
            o += 11
        o = CARD_HEAD + i * sw + 7 + len(PRED_KINDS) + 22
        out[o] = float(slot.first)
        out[o + 1] = float(slot.last)
        for j in slot.supports:
            if j < slots:
                out[o + 2 + j] = 1.0
    o = CARD_HEAD + slots * sw
    for r in shape.relations:
        a, b, rel = r.a, r.b, r.rel
        if a > b:
            a, b = b, a
            rel = {Rel.LT: Rel.GT, Rel.GT: Rel.LT}.get(rel, rel)
        if b < slots:
            out[o + _pair_index(a, b, slots) * len(RELS) + RELS.index(rel)] = 1.0
    o += slots * (slots - 1) // 2 * len(RELS)
    aw = atom_width(slots)
    for c, clause in enumerate(shape.clauses[:CLAUSES]):
        for k, atom in enumerate(clause.alts[:ALTERNATIVES]):
            q = o + (c * ALTERNATIVES + k) * aw
            if isinstance(atom, GroupTest):
                out[q + GROUPS.index(atom.group)] = 1.0
                members = atom.members
            else:
                out[q + len(GROUPS)] = 1.0
                members = atom.slots
            for m in members:
                if m < slots:
                    out[q + len(GROUPS) + 1 + m] = 1.0
            if isinstance(atom, Comparison):
                e0 = q + len(GROUPS) + 1 + slots
                for x, expr in enumerate(atom.exprs[:EXPRESSIONS]):
                    e = e0 + x * (2 * slots + 1)
                    for sign, at, const in expr:
                        if at < 0:
                            out[e + 2 * slots] = min(abs(const), 24) / 24
                        elif at < slots:
                            out[e + (at if sign > 0 else slots + at)] = 1.0
                ops = e0 + EXPRESSIONS * (2 * slots + 1)
                for x, op in enumerate(atom.ops[:EXPRESSIONS - 1]):
                    out[ops + x * len(OPS) + OPS.index(op)] = 1.0
    return out


def card_feature_names(slots: int) -> list[tuple[str, str]]:
    """``(name, what it says)`` of every feature of a card's block, in order (the docs' table)."""
    names: list[tuple[str, str]] = [
        ("present", "a card is there"), ("spark", "a spark card"), ("complete", "every slot filled"),
        ("points", "its points / 6"), ("size", "its slots / the table's most")]
    names += [(f"layout.{x.value}", f"laid out as {x.value}") for x in LAYOUTS]
    for i in range(slots):
        sl = f"slot{i + 1}"
        names += [(f"{sl}.filled", "a die is on it")]
        names += [(f"{sl}.die.{c}", f"the die shows colour {c}") for c in "RBGYK"]
        names += [(f"{sl}.die.face", "the die's face / 6")]
        names += [(f"{sl}.icon.{k.name.lower()}", f"its icon is {k.value!r}") for k in PRED_KINDS]
        for a in (1, 2):
            names += [(f"{sl}.alt{a}.{c}", f"alternative {a} names colour {c}") for c in "RBGYK"]
            names += [(f"{sl}.alt{a}.{f}", f"alternative {a} names face {f}") for f in range(1, 7)]
        names += [(f"{sl}.first", "must be filled first"), (f"{sl}.last", "must be filled last")]
        names += [(f"{sl}.rests_on.{j + 1}", f"rests on slot {j + 1}") for j in range(slots)]
    for a in range(slots):
        for b in range(a + 1, slots):
            names += [(f"rel.{a + 1}.{b + 1}.{r.name.lower()}", f"slot {a + 1} {r.value} slot {b + 1}")
                      for r in RELS]
    for c in range(CLAUSES):
        for k in range(ALTERNATIVES):
            at = f"clause{c + 1}.alt{k + 1}"
            names += [(f"{at}.{g.name.lower()}", f"a group test: {g.value}") for g in GROUPS]
            names += [(f"{at}.equation", "an equation")]
            names += [(f"{at}.member.{m + 1}", f"slot {m + 1} takes part") for m in range(slots)]
            for x in range(EXPRESSIONS):
                names += [(f"{at}.expr{x + 1}.plus.{m + 1}", f"expression {x + 1} adds slot {m + 1}")
                          for m in range(slots)]
                names += [(f"{at}.expr{x + 1}.minus.{m + 1}", f"expression {x + 1} subtracts slot {m + 1}")
                          for m in range(slots)]
                names += [(f"{at}.expr{x + 1}.constant", f"expression {x + 1}'s constant / 24")]
            for x in range(EXPRESSIONS - 1):
                names += [(f"{at}.op{x + 1}.{op}", f"operator {x + 1} is {op}") for op in OPS]
    assert len(names) == card_width(slots)
    return names


#: Cards of a hand drawn in full beyond the starting hand (Countdown's spark cards pile up in front
#: of a player: bots' hands reached 10 cards at four players, random play's 16 solo); the cards past
#: them are counted in the ``seats`` block only.
EXTRA_HAND = 4


def global_feature_names(players: int) -> list[tuple[str, str]]:
    """``(name, what it says)`` of the ``globals`` block, in order."""
    names = [(f"step.{ph.value}", f"the turn's step is {ph.value}") for ph in PHASES]
    names += [(f"queue.{q}", f"the first pending decision of the queue is {q}") for q in ORDER]
    names += [("queue.none", "no decision is pending in the queue")]
    names += [(f"decision.{k}", f"this seat's decision now is {k}") for k in DECISION_KINDS]
    names += [("decision.none", "this seat has no decision now"),
              ("initiative", "this seat is the one to act")]
    names += [(f"leader.{k}", f"the leader is {k} seats after this one") for k in range(players)]
    names += [("players", "players / 9"), ("turn", "turn / 100"), ("time_left", "the clock's share left"),
              ("deck", "cards in the deck / 120"), ("bag", "dice in the bag / all dice")]
    names += [(f"bag.{c}", f"dice in the bag showing colour {c} / all dice") for c in "RBGYK"]
    names += [("fuses_left", "fuse cards not gone off / all of them"), ("score", "points so far / 200"),
              ("sparks.deck", "spark deck / 30"), ("sparks.discard", "spark discard / 30"),
              ("sparks.in_play", "sparks in front of players / 30"),
              ("sparks.defused", "sparks defused / 30")]
    names += [(f"ability.{a.value}", f"the leader's role ability now is {a.value}") for a in ABILITIES]
    names += [("ability.none", "no role ability is active")]
    names += [(f"named.{x}", f"the colour or number named is {x}") for x in NAMED]
    names += [("ability_uses", "the ability's uses this turn / 3"),
              ("bonus_die", "the Logistics bonus die is out")]
    return names


def seat_feature_names() -> list[tuple[str, str]]:
    """``(name, what it says)`` of one seat's part of the ``seats`` block, in order."""
    names = [("taken", "dice taken this turn / its quota"), ("quota", "its quota / 4"),
             ("done", "said done"), ("must_take", "must take a card"), ("must_roll_six", "must roll a 6"),
             ("may_act", "may act now"), ("cards", "cards in hand / the most a hand can hold"),
             ("sparks", "spark cards in hand / the same")]
    names += [(f"role.{a.value}", f"its role ability is {a.value}") for a in ABILITIES]
    names += [("role.none", "no role card"), ("role.face_up", "its role card is face up")]
    return names


def rolled_feature_names() -> list[tuple[str, str]]:
    names = [("present", "a die of the roll"), ("free", "still in the middle")]
    names += [(f"colour.{c}", f"shows colour {c}") for c in "RBGYK"]
    names += [(f"face.{f}", f"shows {f}") for f in range(1, 7)]
    names += [(f"as.{c}", f"counts as colour {c} this turn") for c in "RBGYK"]
    names += [("eligible", "the named colour or number may change it"), ("changed", "a role changed it")]
    return names


def unused_feature_names() -> list[tuple[str, str]]:
    names = [("present", "a die nobody took")]
    names += [(f"colour.{c}", f"shows colour {c}") for c in "RBGYK"]
    names += [(f"face.{f}", f"shows {f}") for f in range(1, 7)]
    return names


@dataclass(frozen=True)
class ObservationLayout:
    """Where each block of the vector lies, for one configuration (``hand``: the cards of each
    seat's hand drawn in full)."""

    players: int
    table: ActionTable
    hand: int = 0

    @property
    def global_width(self) -> int:
        return (len(PHASES) + len(ORDER) + 1 + len(DECISION_KINDS) + 1 + 1 + self.players
                + 4 + 5 + 2 + 1 + 4 + len(ABILITIES) + 1 + len(NAMED) + 2)

    @property
    def card_width(self) -> int:
        return card_width(self.table.slots)

    @property
    def parts(self) -> dict[str, tuple[int, int]]:
        """Block name -> (start, end) in the vector."""
        t = self.table
        widths = {
            "globals": self.global_width,
            "seats": self.players * SEAT_WIDTH,
            "cards": (self.players * self.hand + t.choices) * self.card_width,
            "rolled": t.dice * ROLLED_WIDTH,
            "unused": t.dice * UNUSED_WIDTH,
        }
        out, start = {}, 0
        for name, w in widths.items():
            out[name] = (start, start + w)
            start += w
        return out

    @property
    def size(self) -> int:
        return self.parts["unused"][1]

    def feature_names(self) -> list[str]:
        """The name of every feature of the vector, in order: ``globals.turn``,
        ``seats.1.done`` (seats counted from this one), ``cards.seat1.hand2.slot3.icon.number``,
        ``cards.middle1.rel.1.2.lt``, ``rolled.3.face.6``..."""
        t = self.table
        names = [f"globals.{n}" for n, _ in global_feature_names(self.players)]
        names += [f"seats.{k + 1}.{n}" for k in range(self.players) for n, _ in seat_feature_names()]
        card = [n for n, _ in card_feature_names(t.slots)]
        for k in range(self.players):
            for h in range(self.hand):
                names += [f"cards.seat{k + 1}.hand{h + 1}.{n}" for n in card]
        for j in range(t.choices):
            names += [f"cards.middle{j + 1}.{n}" for n in card]
        names += [f"rolled.{r + 1}.{n}" for r in range(t.dice) for n, _ in rolled_feature_names()]
        names += [f"unused.{u + 1}.{n}" for u in range(t.dice) for n, _ in unused_feature_names()]
        assert len(names) == self.size
        return names


class _View:
    """One seat's last observation and what each block was made from, so that the next one rewrites
    only the blocks that changed (``Encoder.encode``)."""

    __slots__ = ("out", "globals", "seats", "held", "drawn", "middle", "middle_blocks", "rolled", "unused")

    def __init__(self, players: int, hand: int, size: int, choices: int, dice: int) -> None:
        self.out = np.zeros(size, dtype=np.float32)
        self.globals: list[float] = []
        self.seats: list[float] = []
        #: the card and its dice (``HandCard.types``, compared by identity) at each hand position,
        #: and how many positions of each seat's hand hold a card
        self.held: list[tuple[str, tuple[int, ...]] | None] = [None] * (players * hand)
        self.drawn = [0] * players
        #: the cards one may take, and the vector written at each of their positions (None: empty)
        self.middle: list[str] | None = None
        self.middle_blocks: list[Vector | None] = [None] * choices
        #: what each die position of the roll and of the unused dice shows (None: empty)
        self.rolled: list[tuple[int, ...] | None] = [None] * dice
        self.unused: list[tuple[int, ...] | None] = [None] * dice


#: the head of the queue -> its place in the one-hot (anything else: the last place, "none")
_QUEUE_INDEX = {name: i for i, name in enumerate(ORDER)}
_ABILITY_INDEX: dict[Ability | None, int] = {a: i for i, a in enumerate(ABILITIES)}
_ABILITY_INDEX[None] = len(ABILITIES)
_NO_ROLE = [0.0] * len(ABILITIES) + [1.0, 0.0]


class Encoder:
    """Builds the observation vector of any seat of games with one configuration.

    It keeps each seat's last vector and rewrites only the blocks whose inputs changed since (a
    step changes a die or a card, seldom the whole table); every call returns a new array, equal
    to what a fresh encoder gives for the same position."""

    def __init__(self, config: GameConfig, table: ActionTable) -> None:
        self.config = config
        self.table = table
        self.hand = min(table.hand, config.hand_size + EXTRA_HAND)
        self.layout = ObservationLayout(config.players, table, self.hand)
        self.size = self.layout.size
        self._cards: dict[str, Vector] = {}
        self._n_dice = len(config.dice_set)
        self._fuses = config.fuse_count
        # asked at every step: worked out once
        self._parts = self.layout.parts
        self._global_width = self.layout.global_width
        self._card_width = self.layout.card_width
        self._slot_width = slot_width(table.slots)
        #: a die type -> its features on a slot (filled, colours, face); EMPTY: none
        self._slot_rows: dict[int, Vector] = {}
        self._views: dict[int, _View] = {}
        #: the bag's last contents and their share of each colour; the score pile's and its points
        self._bag: tuple[tuple[int, ...], list[float]] = ((), [0.0] * 5)
        self._pile: tuple[tuple[str, ...], int] = ((), 0)
        #: the dice's colours and, for each colour, the set of dice that show it (bits)
        self._colour_sets: tuple[tuple[int, ...] | None, list[int]] = (None, [])
        self._die_bits: list[int] = []
        self._rows: dict[tuple[int, ...], Vector] = {}
        self._sparks = frozenset(c.id for c in config.catalogue.sparks)
        # where the globals' parts start
        self._g_queue = len(PHASES)
        self._g_decision = self._g_queue + len(ORDER) + 1
        self._g_initiative = self._g_decision + len(DECISION_KINDS) + 1
        self._at_cards = self._parts["cards"][0]
        self._at_rolled = self._parts["rolled"][0]
        self._at_unused = self._parts["unused"][0]

    def _static(self, g: GameState, card: str) -> Vector:
        """The part of a card's block that never changes (``card_features``, remembered per card)."""
        hit = self._cards.get(card)
        if hit is None:
            hit = self._cards[card] = card_features(g.bomb(card), self.table.slots)
        return hit

    def _count_bag(self, g: GameState, bag: tuple[int, ...]) -> list[float]:
        """The share of all dice that lie in ``bag`` and show each colour, remembered with the bag
        (it changes once a roll): the bag as a bit set of dice, each colour's dice counted in it."""
        colours = g.dice.colours
        if colours is not self._colour_sets[0]:
            self._colour_sets = (colours, [sum(1 << d for d, cs in enumerate(colours) if cs & c)
                                           for c in COLOURS])
            self._die_bits = [1 << d for d in range(len(colours))]
        held = sum(map(self._die_bits.__getitem__, bag))
        if held.bit_count() == len(bag):
            shares = [(held & dice).bit_count() / self._n_dice for dice in self._colour_sets[1]]
        else:  # a die listed twice (never in a game): counted as often as it is listed
            shares = [sum(1 for d in bag if colours[d] & c) / self._n_dice for c in COLOURS]
        self._bag = (bag, shares)
        return shares

    def _count_points(self, g: GameState, pile: tuple[str, ...]) -> int:
        """The points of the cards of the score pile ``pile``, remembered with the pile."""
        self._pile = (pile, sum(g.bomb(c).points for c in pile))
        return self._pile[1]

    def encode(self, g: GameState, seat: int, initiative: bool,
               acts: dict[int, Decision] | None = None) -> Vector:
        """The observation of ``seat`` (``initiative``: this seat is the one to act next;
        ``acts``: ``g.to_act()`` when the caller has it)."""
        t = self.table
        n = g.players
        if acts is None:
            acts = g.to_act()
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = _View(n, self.hand, self.size, t.choices, t.dice)
        out = view.out
        # -- globals
        v: list[float] = [0.0] * self._global_width
        v[_PHASE_INDEX[g.phase]] = 1.0
        queue = g.queue
        v[self._g_queue + (_QUEUE_INDEX.get(queue[0].name, len(ORDER)) if queue else len(ORDER))] = 1.0
        dec = acts.get(seat)
        v[self._g_decision + (kind_index(dec.kind) if dec is not None else len(DECISION_KINDS))] = 1.0
        i = self._g_initiative
        if initiative:
            v[i] = 1.0
        i += 1
        v[i + (g.leader - seat) % n] = 1.0
        i += n
        limit = g.config.time_limit
        bag = g.bag
        v[i] = n / 9
        v[i + 1] = min(g.turn, 100) / 100
        v[i + 2] = 1.0 if limit is None else max(0.0, 1 - g.time_ms / (limit * 1000))
        v[i + 3] = min(len(g.deck), 120) / 120
        v[i + 4] = len(bag) / self._n_dice
        if bag:
            in_bag = tuple(bag)
            v[i + 5:i + 10] = self._bag[1] if in_bag == self._bag[0] else self._count_bag(g, in_bag)
        i += 10
        v[i] = (self._fuses - len(g.fuses_activated)) / max(1, self._fuses)
        if g.score_pile:
            pile = tuple(g.score_pile)
            points = self._pile[1] if pile == self._pile[0] else self._count_points(g, pile)
            v[i + 1] = min(points, 200) / 200
        i += 2
        sp = g.sparks
        if sp is not None:
            v[i] = min(len(sp.deck), 30) / 30
            v[i + 1] = min(len(sp.discard), 30) / 30
            v[i + 2] = min(g.sparks_in_play(), 30) / 30
            v[i + 3] = min(len(sp.defused), 30) / 30
        i += 4
        ro = g.roles
        if ro is None:
            v[i + len(ABILITIES)] = 1.0
        else:
            v[i + _ABILITY_INDEX[g.active_ability()]] = 1.0
            i += len(ABILITIES) + 1
            if ro.named:
                v[i + NAMED.index(ro.named)] = 1.0
            i += len(NAMED)
            v[i] = min(ro.uses, 3) / 3
            v[i + 1] = 1.0 if ro.bonus_die else 0.0
        if v != view.globals:
            out[:self._global_width] = v
            view.globals = v
        # -- seats
        picking = {p.seat for p in g.picks} if g.picks else ()
        six = g.pending("roll_six") if queue else None
        must_roll = getattr(six, "seats", ()) if six is not None else ()
        rows: list[float] = []
        hands = g.hands
        taken, done = g.taken, g.done
        sparks = self._sparks
        per_table = t.hand
        for k in range(n):
            s = (seat + k) % n
            q = g.seat_quota(s)
            hand = hands[s]
            rows += [min(taken[s], q) / max(1, q), q / 4, 1.0 if done[s] else 0.0,
                     1.0 if s in picking else 0.0, 1.0 if s in must_roll else 0.0,
                     1.0 if s in acts else 0.0, len(hand) / per_table,
                     sum(1 for hc in hand if hc.card in sparks) / per_table if sparks and hand else 0.0]
            if ro is not None and s < len(ro.cards) and ro.cards[s]:
                role_bits = [0.0] * (len(ABILITIES) + 2)
                role_bits[ABILITIES.index(g.role(ro.cards[s]).ability)] = 1.0
                role_bits[len(ABILITIES) + 1] = float(ro.up[s])
                rows += role_bits
            else:
                rows += _NO_ROLE
        if rows != view.seats:
            out[self._global_width:self._global_width + len(rows)] = rows
            view.seats = rows
        # -- cards: a card's block is written when another card lies there, its slots when other dice do
        cw = self._card_width
        base = self._at_cards
        seen = view.held
        per_hand = self.hand
        drawn = view.drawn
        for k in range(n):
            hand = hands[(seat + k) % n]
            at = k * per_hand
            m = min(len(hand), per_hand)
            for h in range(m):
                hc = hand[h]
                was = seen[at + h]
                if was is not None and was[1] is hc.types and was[0] == hc.card:
                    continue
                card, types = hc.card, hc.types
                o = base + (at + h) * cw
                if was is None or was[0] != card:
                    out[o:o + cw] = self._static(g, card)
                    self._dice_on(out, o, types, None)
                else:
                    self._dice_on(out, o, types, was[1])
                seen[at + h] = (card, types)
            if drawn[k] > m:  # the positions that held cards and hold none now
                out[base + (at + m) * cw:base + (at + drawn[k]) * cw] = 0.0
                seen[at + m:at + drawn[k]] = [None] * (drawn[k] - m)
            drawn[k] = m
        middle = defusal.options(g)
        if middle != view.middle:
            view.middle = middle[:]
            written = view.middle_blocks
            at = n * per_hand
            for j in range(t.choices):
                block = self._static(g, middle[j]) if j < len(middle) else None
                if block is not written[j]:
                    o = base + (at + j) * cw
                    if block is None:
                        out[o:o + cw] = 0.0
                    else:
                        out[o:o + cw] = block
                    written[j] = block
        # -- rolled dice
        colours = g.dice.colours
        faces = g.faces
        rolled = g.rolled
        shown = view.rolled
        if rolled or shown[0] is not None:
            base = self._at_rolled
            free = g.free
            temp = ro.temp if ro is not None else {}
            eligible = ro.eligible if ro is not None else []
            changed = ro.changed if ro is not None else []
            for r in range(t.dice):
                key: tuple[int, ...] | None = None
                if r < len(rolled):
                    d = rolled[r]
                    if ro is None:
                        key = (colours[d], faces[d], d in free, -1, False, False)
                    else:
                        key = (colours[d], faces[d], d in free, temp.get(d, -1), d in eligible, d in changed)
                if key != shown[r]:
                    o = base + r * ROLLED_WIDTH
                    out[o:o + ROLLED_WIDTH] = 0.0 if key is None else self._rolled_row(key)
                    shown[r] = key
        # -- unused dice
        unused = g.unused
        gone = view.unused
        if unused or gone[0] is not None:
            base = self._at_unused
            for u in range(t.dice):
                key = None
                if u < len(unused):
                    d = unused[u]
                    key = (-1, colours[d], faces[d])
                if key != gone[u]:
                    o = base + u * UNUSED_WIDTH
                    out[o:o + UNUSED_WIDTH] = 0.0 if key is None else self._rolled_row(key)
                    gone[u] = key
        return out.copy()

    def _rolled_row(self, key: tuple[int, ...]) -> Vector:
        """A die's features: of the roll for ``(colours, face, free, temporary colour or -1,
        eligible, changed)``, unused for ``(-1, colours, face)`` (remembered: a few hundred)."""
        hit = self._rows.get(key)
        if hit is None:
            if key[0] < 0:
                _, colours, face = key
                hit = np.zeros(UNUSED_WIDTH, dtype=np.float32)
                hit[0] = 1.0
                hit[1:6] = _COLOUR_BITS[colours]
                hit[5 + face] = 1.0
            else:
                colours, face, free, temp, eligible, changed = key
                hit = np.zeros(ROLLED_WIDTH, dtype=np.float32)
                hit[0] = 1.0
                hit[1] = float(free)
                hit[2:7] = _COLOUR_BITS[colours]
                hit[6 + face] = 1.0
                if temp >= 0:
                    hit[13:18] = _COLOUR_BITS[temp]
                hit[18] = float(eligible)
                hit[19] = float(changed)
            self._rows[key] = hit
        return hit

    @property
    def state_size(self) -> int:
        """The global state's length: the observation of seat 0, then who holds the initiative."""
        return self.size + self.config.players + 1

    def state(self, g: GameState, holder: int | None) -> Vector:
        """The whole public table for a centralised critic (PettingZoo's ``state()``): seat 0's
        observation (every seat's cards, dice and counts are public in FUSE) and a one-hot of the
        seat that holds the initiative (``holder``; the last bit: none)."""
        out = np.zeros(self.state_size, dtype=np.float32)
        out[:self.size] = self.encode(g, 0, holder == 0)
        out[self.size + (holder if holder is not None else self.config.players)] = 1.0
        return out

    def _dice_on(self, out: Vector, o: int, types: tuple[int, ...], before: tuple[int, ...] | None) -> None:
        """Write the dice of ``types`` on the slots of the card whose block starts at ``o``: every
        die over the card's features (``before`` None), or the slots whose die is not the one of
        ``before`` (the same card with other dice)."""
        out[o + 2] = 0.0 if EMPTY in types else 1.0
        sw = self._slot_width
        rows = self._slot_rows
        for s, t in enumerate(types[:self.table.slots]):
            if before is None:
                if t == EMPTY:
                    continue
            elif before[s] == t:
                continue
            row = rows.get(t)
            if row is None:
                row = rows[t] = np.zeros(7, dtype=np.float32)
                if t != EMPTY:
                    row[0] = 1.0
                    row[1:6] = _COLOUR_BITS[type_colours(t)]
                    row[6] = type_face(t) / 6
            p = o + CARD_HEAD + s * sw
            out[p:p + 7] = row


__all__ = ["DECISION_KINDS", "VERSION", "Encoder", "ObservationLayout", "Vector", "card_feature_names",
           "card_features", "card_width", "global_feature_names", "kind_index", "rolled_feature_names",
           "seat_feature_names", "unused_feature_names"]
