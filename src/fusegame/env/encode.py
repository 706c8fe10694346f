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
  spark, complete, points, size, and per slot: filled, the die's colours (5 bits), its face / 6,
  the colours and the faces the slot's own icon accepts (5 + 6 bits; relations with neighbours
  and equations are not encoded: the action mask says where a die may go now);
- ``rolled`` (each position of the turn's roll): present, still in the middle, colours, face
  (one-hot), temporary colour, may be changed by the named colour/number, already changed;
- ``unused`` (each position of the dice nobody took): present, colours, face (one-hot).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from fusegame.cards.model import Ability
from fusegame.constraints import EMPTY
from fusegame.dice import COLOURS, N_TYPES, type_colours, type_face
from fusegame.env.actions import NAMED, ActionTable
from fusegame.rules import defusal
from fusegame.rules.config import GameConfig
from fusegame.rules.decision_kinds import KINDS
from fusegame.rules.decisions import ORDER
from fusegame.rules.games import Phase
from fusegame.rules.state import GameState

PHASES = tuple(Phase)
#: the decision kinds, one-hot by their index in the declared table (``rules.decision_kinds``), then
#: one bit for "no decision"
DECISION_KINDS = tuple(KINDS)
_KIND_INDEX = {kind: i for i, kind in enumerate(DECISION_KINDS)}
ABILITIES = tuple(Ability)
CARD_HEAD = 5  #: present, spark, complete, points, size
SLOT_WIDTH = 18  #: filled, colours 5, face, accepted colours 5, accepted faces 6
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


@dataclass(frozen=True)
class ObservationLayout:
    """Where each block of the vector lies, for one configuration."""

    players: int
    table: ActionTable

    @property
    def global_width(self) -> int:
        return (len(PHASES) + len(ORDER) + 1 + len(DECISION_KINDS) + 1 + 1 + self.players
                + 4 + 5 + 2 + 1 + 4 + len(ABILITIES) + 1 + len(NAMED) + 2)

    @property
    def card_width(self) -> int:
        return CARD_HEAD + self.table.slots * SLOT_WIDTH

    @property
    def parts(self) -> dict[str, tuple[int, int]]:
        """Block name -> (start, end) in the vector."""
        t = self.table
        widths = {
            "globals": self.global_width,
            "seats": self.players * SEAT_WIDTH,
            "cards": (self.players * t.hand + t.choices) * self.card_width,
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


class Encoder:
    """Builds the observation vector of any seat of games with one configuration."""

    def __init__(self, config: GameConfig, table: ActionTable) -> None:
        self.config = config
        self.table = table
        self.layout = ObservationLayout(config.players, table)
        self.size = self.layout.size
        self._cards: dict[str, Vector] = {}
        self._n_dice = len(config.dice_set)

    def _static(self, g: GameState, card: str) -> Vector:
        """The part of a card's block that never changes: present, spark, points, size and what
        each slot's icon accepts (remembered per card)."""
        hit = self._cards.get(card)
        if hit is None:
            b = g.bomb(card)
            hit = np.zeros(self.layout.card_width, dtype=np.float32)
            hit[0] = 1.0
            hit[1] = float(g.is_spark(card))
            hit[3] = min(b.points, 6) / 6
            hit[4] = b.shape.size / self.table.slots
            for s, pred in enumerate(g.card_rules(card).pred[:self.table.slots]):
                cols, faces = 0, 0
                for t in range(N_TYPES):
                    if pred >> t & 1:
                        cols |= type_colours(t)
                        faces |= 1 << (type_face(t) - 1)
                p = CARD_HEAD + s * SLOT_WIDTH
                hit[p + 7:p + 12] = _colour_bits(cols)
                hit[p + 12:p + 18] = [1.0 if faces >> f & 1 else 0.0 for f in range(6)]
            self._cards[card] = hit
        return hit

    def encode(self, g: GameState, seat: int, initiative: bool) -> Vector:
        """The observation of ``seat`` (``initiative``: this seat is the one to act next)."""
        t = self.table
        n = g.players
        out = np.zeros(self.size, dtype=np.float32)
        parts = self.layout.parts
        acts = g.to_act()
        # -- globals
        v: list[float] = [0.0] * self.layout.global_width
        i = 0
        v[i + PHASES.index(g.phase)] = 1.0
        i += len(PHASES)
        head = g.queue[0].name if g.queue else None
        v[i + (ORDER.index(head) if head in ORDER else len(ORDER))] = 1.0
        i += len(ORDER) + 1
        dec = acts.get(seat)
        v[i + (kind_index(dec.kind) if dec is not None else len(DECISION_KINDS))] = 1.0
        i += len(DECISION_KINDS) + 1
        v[i] = 1.0 if initiative else 0.0
        i += 1
        v[i + (g.leader - seat) % n] = 1.0
        i += n
        cfg = g.config
        limit = cfg.time_limit
        v[i] = n / 9
        v[i + 1] = min(g.turn, 100) / 100
        v[i + 2] = 1.0 if limit is None else max(0.0, 1 - g.time_ms / (limit * 1000))
        v[i + 3] = min(len(g.deck), 120) / 120
        i += 4
        bag = g.bag
        v[i] = len(bag) / self._n_dice
        i += 1
        colours = g.dice.colours
        for k, c in enumerate(COLOURS):
            v[i + k] = sum(1 for d in bag if colours[d] & c) / self._n_dice
        i += 5
        v[i] = (cfg.fuse_count - len(g.fuses_activated)) / max(1, cfg.fuse_count)
        i += 1
        points = sum(g.bomb(c).points for c in g.score_pile)
        v[i] = min(points, 200) / 200
        i += 1
        sp = g.sparks
        if sp is not None:
            v[i] = min(len(sp.deck), 30) / 30
            v[i + 1] = min(len(sp.discard), 30) / 30
            v[i + 2] = min(g.sparks_in_play(), 30) / 30
            v[i + 3] = min(len(sp.defused), 30) / 30
        i += 4
        ro = g.roles
        ability = g.active_ability()
        v[i + (ABILITIES.index(ability) if ability is not None else len(ABILITIES))] = 1.0
        i += len(ABILITIES) + 1
        if ro is not None and ro.named:
            v[i + NAMED.index(ro.named)] = 1.0
        i += len(NAMED)
        if ro is not None:
            v[i] = min(ro.uses, 3) / 3
            v[i + 1] = 1.0 if ro.bonus_die else 0.0
        out[parts["globals"][0]:parts["globals"][1]] = v
        # -- seats
        picking = {p.seat for p in g.picks}
        six = g.pending("roll_six")
        must_roll: set[int] = set(getattr(six, "seats", ())) if six is not None else set()
        base = parts["seats"][0]
        for k in range(n):
            s = (seat + k) % n
            q = g.seat_quota(s)
            row = [min(g.taken[s], q) / max(1, q), q / 4, float(g.done[s]), float(s in picking),
                   float(s in must_roll), float(s in acts), len(g.hands[s]) / t.hand,
                   sum(1 for hc in g.hands[s] if g.is_spark(hc.card)) / t.hand]
            role_bits = [0.0] * (len(ABILITIES) + 2)
            if ro is not None and s < len(ro.cards) and ro.cards[s]:
                role_bits[ABILITIES.index(g.role(ro.cards[s]).ability)] = 1.0
                role_bits[len(ABILITIES) + 1] = float(ro.up[s])
            else:
                role_bits[len(ABILITIES)] = 1.0
            out[base + k * SEAT_WIDTH: base + (k + 1) * SEAT_WIDTH] = row + role_bits
        # -- cards
        cw = self.layout.card_width
        base = parts["cards"][0]
        faces = g.faces
        for k in range(n):
            s = (seat + k) % n
            for h, hc in enumerate(g.hands[s][:t.hand]):
                self._card(g, hc.card, hc.dice, hc.complete, out, base + (k * t.hand + h) * cw)
        middle = defusal.options(g)
        for j, card in enumerate(middle[:t.choices]):
            self._card(g, card, None, False, out, base + (n * t.hand + j) * cw)
        # -- rolled dice
        base = parts["rolled"][0]
        free = set(g.free)
        temp = ro.temp if ro is not None else {}
        eligible = set(ro.eligible) if ro is not None else set()
        changed = set(ro.changed) if ro is not None else set()
        for r, d in enumerate(g.rolled[:t.dice]):
            o = base + r * ROLLED_WIDTH
            out[o] = 1.0
            out[o + 1] = float(d in free)
            out[o + 2:o + 7] = _COLOUR_BITS[colours[d]]
            out[o + 6 + faces[d]] = 1.0
            if d in temp:
                out[o + 13:o + 18] = _COLOUR_BITS[temp[d]]
            out[o + 18] = float(d in eligible)
            out[o + 19] = float(d in changed)
        # -- unused dice
        base = parts["unused"][0]
        for u, d in enumerate(g.unused[:t.dice]):
            o = base + u * UNUSED_WIDTH
            out[o] = 1.0
            out[o + 1:o + 6] = _COLOUR_BITS[colours[d]]
            out[o + 5 + faces[d]] = 1.0
        return out

    def _card(self, g: GameState, card: str, dice: list[int] | None, complete: bool, out: Vector,
              o: int) -> None:
        out[o:o + self.layout.card_width] = self._static(g, card)
        out[o + 2] = float(complete)
        if dice is None:
            return
        colours, faces = g.dice.colours, g.faces
        for s, d in enumerate(dice[:self.table.slots]):
            if d != EMPTY:
                p = o + CARD_HEAD + s * SLOT_WIDTH
                out[p] = 1.0
                out[p + 1:p + 6] = _COLOUR_BITS[colours[d]]
                out[p + 6] = faces[d] / 6


__all__ = ["DECISION_KINDS", "Encoder", "ObservationLayout", "Vector", "kind_index"]
