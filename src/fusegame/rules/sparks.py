"""Spark cards (docs/rules.md A.4, C.2 Step 4, C.2.2, F.2): penalty cards that work like small bombs.

A player draws sparks for the dice they did not take (Step 4) and when a "draw a spark" fuse card
goes off; a complete spark is discarded (+2 points) and needs no replacement. An empty spark deck
is refilled from the discards, turned over (or shuffled, G-36); with every spark in play the
player gives up a die of their choice instead (G-37). Once no bomb is left in the middle, the
bombs still in front of the players are turned face down while the sparks are cleared (C.2.2).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fusegame.constraints import EMPTY
from fusegame.rules import moves, removals
from fusegame.rules.actions import Action, GiveUp
from fusegame.rules.decisions import Decision, Legal, Pending, Step, push
from fusegame.rules.events import Event
from fusegame.rules.games import Phase
from fusegame.rules.schema import Cards, DieTuple, DocContext, Part, SeatMap, Seats, Values, declared
from fusegame.rules.table import HandCard

if TYPE_CHECKING:
    from fusegame.rules.state import GameState


#: a spark deck still to be worked out once the whole document is read: every spark not placed elsewhere
#: (a marker compared by identity, never filled)
REST: list[str] = []


class SparkDeck(Cards):
    """The spark deck; in documents ``rest`` (the default) means every spark not placed elsewhere."""

    def read(self, raw: Any, where: str, ctx: DocContext) -> Any:
        return REST if raw == "rest" else super().read(raw, where, ctx)


NO_SPARKS = ("this game has no spark cards (they are in Countdown-style games and in FUSE with modules: "
             "[sparks])")


@dataclass
class Sparks(Part):
    """The spark cards not in front of the players, and the bombs turned face down."""

    deck: list[str] = declared(SparkDeck(("spark",), top_first=True, shown="size"), default_factory=list,
                               doc="spark_deck", view="spark_deck_size")
    discard: list[str] = declared(Cards(("spark",)), default_factory=list, doc="spark_discard",
                                  view="spark_discard")  #: face up, oldest first
    defused: list[str] = declared(Cards(("spark",), shown="size", placed=False), default_factory=list,
                                  doc="sparks_defused", view="sparks_defused")  #: a record, not a place
    #: hand bombs turned face down (C.2.2)
    duds: list[list[str]] = declared(Values(Cards(shown="ids")), default_factory=list, doc="duds",
                                     view="duds", per_player=True)

    @classmethod
    def create(cls, g: GameState) -> Sparks:
        return cls(duds=[[] for _ in range(g.players)])

    @classmethod
    def absent_message(cls, key: str) -> str:
        return NO_SPARKS

    def read_doc(self, doc: Mapping[str, Any], ctx: DocContext, stage: int) -> set[str]:
        if stage == 1:
            self.duds = [[] for _ in range(ctx.players)]
            if doc.get("spark_deck") is None:
                self.deck = REST  # resolved in after_doc
        return super().read_doc(doc, ctx, stage)

    def after_doc(self, g: GameState, ctx: DocContext, given: set[str], over: bool) -> None:
        if self.deck is REST:  # every spark card not in play, in catalogue order, the first on top
            self.deck = [s.id for s in g.config.playable.sparks
                         if not ctx.is_placed(s.id) and s.source != "scenario-padding"][::-1]
        if g.phase is Phase.SPARKS and ctx.data.get("spark_queue") is None:
            queue_draws(g, owed(g))  # Step 4: the sparks owed for dice not taken

    def write_doc(self, g: GameState, ctx: DocContext) -> dict[str, Any]:
        out: dict[str, Any] = {"spark_deck": self.deck[::-1]}
        out.update(super().write_doc(g, ctx))
        if g.phase is Phase.SPARKS:  # what is still owed (a document without it would draw Step 4's)
            item = g.pending("spark_draws")
            out["spark_queue"] = item.seats[:] if isinstance(item, SparkDraws) else []
        return out


Part.register(Sparks, "sparks", shown_when_absent=True)


def draw(g: GameState, seat: int, ev: list[Event]) -> dict[int, tuple[int, ...]]:
    """Give ``seat`` the top spark; turn the discards over when the deck is empty; with every
    spark in play, the player gives up a die of their choice instead (F.3, G-37). Returns that
    choice when one is owed."""
    sp = g.sparks
    if sp is not None and not sp.deck and sp.discard:
        pile = sp.discard[::-1]  # turned over: the oldest discard is the new top
        if g.config.shuffle_sparks:
            g.rng.shuffle(pile)
        sp.deck, sp.discard = pile, []
        if g.listening:
            ev.append(Event("sparks_turned_over", {"cards": len(pile)}))
    if sp is not None and sp.deck:
        card = sp.deck.pop()
        g.hands[seat].append(HandCard(card, g.bomb(card).shape.size))
        if g.listening:
            ev.append(Event("spark_drawn", {"seat": seat, "card": card}))
        return {}
    if g.listening:
        ev.append(Event("no_spark_left", {"seat": seat}))
    return removals.start(g, lambda c, n: True, removals.NO_SPARK, ev, (seat,))


@dataclass
class SparkDraws(Pending):
    """Sparks still to draw, in order. Players draw at the same time, so one who must give up a die
    instead (no spark left: ``owing``) does not hold up the others (I-11); a further spark of that
    player's waits until their choice is made. (Once one player finds no spark, every later draw
    finds none either, so skipping that player changes no one's card.)"""

    seats: list[int] = declared(Seats(), default_factory=list, doc="spark_queue", view=None)
    #: seats that found no spark and owe a die of their choice instead (seat -> the dice)
    owing: dict[int, tuple[int, ...]] = declared(SeatMap(DieTuple()), default_factory=dict, doc=None,
                                                 view=None)

    @classmethod
    def absent_message(cls, key: str) -> str:
        return "this game has no spark cards"

    def empty(self) -> bool:
        return not self.seats and not self.owing

    def merge(self, other: Pending) -> None:
        assert isinstance(other, SparkDraws)
        self.seats += other.seats
        self.owing.update(other.owing)

    def decisions(self, g: GameState) -> dict[int, Decision]:
        return {s: Decision("give_up", dice) for s, dice in sorted(self.owing.items())}

    def legal(self, g: GameState, seats: Sequence[int], at: int) -> Legal:
        return [GiveUp(s, at, d) for s in seats for d in self.owing.get(s, ())]

    def check(self, g: GameState, a: Action) -> None:
        removals.give_up_check(self.owing, a)

    def perform(self, g: GameState, a: Action, ev: list[Event]) -> None:
        assert isinstance(a, GiveUp)
        self.owing.pop(a.seat)
        removals.remove_die(g, a.seat, a.die, removals.NO_SPARK, ev)

    def run(self, g: GameState, ev: list[Event], chance: bool) -> bool:
        waiting: list[int] = []
        drew = False
        for seat in self.seats:
            if seat in self.owing:
                waiting.append(seat)
            else:
                self.owing.update(draw(g, seat, ev))
                drew = True
        self.seats = waiting
        if not self.seats and not self.owing:
            self.finish(g)
            return True
        return drew


Part.register(SparkDraws, "spark_draws", needs="sparks")


def queue_draws(g: GameState, seats: list[int]) -> None:
    """Queue spark draws for ``seats`` (in order; a seat may appear more than once)."""
    if seats:
        push(g, SparkDraws(seats))


def owed(g: GameState) -> list[int]:
    """Step 4's draws, the leader first (C.2 Step 4, G-27, G-28). Players with no cards left draw
    none. At 3 players and more (and epic games) a player draws one spark per die short of the
    base quota (``max(0, quota - taken)``: a Logistics leader's extra die is already counted).
    With 1-2 players the sparks drawn in all never exceed the rolled dice left untaken (less the
    one a Logistics leader who took no extra die returns free): each player's share of the roll
    is their quota (0 for a player with no cards left), the leader's share filled first, and the
    untaken dice go one per die of shortfall to the players short of their share, the leader's
    shortfall first (G-28). A die the bag could not give, or a die the leader took, draws no
    spark for anyone."""
    out: list[int] = []
    if g.players > 2:
        for k in range(g.players):
            seat = (g.leader + k) % g.players
            if g.hands[seat]:
                out += [seat] * max(0, g.quota - g.taken[seat])
        return out
    untaken = len(g.unused)
    roles = g.roles
    if untaken and roles is not None and roles.bonus_die and g.taken[g.leader] <= g.quota:
        untaken -= 1  # G-27: the Logistics leader took no extra die: one untaken die goes back free
    # the dice rolled this turn: each was taken (placed, whatever became of it since) or is untaken
    left = sum(g.taken) + len(g.unused)
    for k in range(g.players):
        seat = (g.leader + k) % g.players
        if not g.hands[seat]:
            continue  # not required to take dice: a share of 0 (C.2.2, C.2.3)
        share = min(g.quota, left)
        left -= share
        n = min(max(0, share - g.taken[seat]), untaken)
        untaken -= n
        out += [seat] * n
    return out


def defuse_spark(g: GameState, seat: int, hc: HandCard, ev: list[Event]) -> None:
    """A complete spark: its dice go back in the bag, the card to the discards (+2 points)."""
    sp = g.sparks
    assert sp is not None
    for d in hc.dice:
        insort(g.bag, d)
    g.hands[seat].remove(hc)
    sp.discard.append(hc.card)
    sp.defused.append(hc.card)
    if g.listening:
        ev.append(Event("spark_defused", {"seat": seat, "card": hc.card}))


def turn_down_hands(g: GameState, ev: list[Event]) -> None:
    """C.2.2: no bomb is left in the middle but sparks are in play: every unfinished bomb in front
    of a player is turned face down (it need not be defused) and its dice go back in the bag."""
    sp = g.sparks
    assert sp is not None
    for seat, hand in enumerate(g.hands):
        for hc in [h for h in hand if g.is_bomb(h.card) and not h.complete]:
            hand.remove(hc)
            for d in hc.dice:
                if d != EMPTY:
                    insort(g.bag, d)
            sp.duds[seat].append(hc.card)
            if g.listening:
                ev.append(Event("card_turned_down", {"seat": seat, "card": hc.card}))


class Step4(Step):
    """C.2 Step 4: the sparks owed for untaken dice are drawn; the untaken dice go back in the bag;
    the bag passes on."""

    def begin(self, g: GameState, ev: list[Event]) -> None:
        queue_draws(g, owed(g))

    def check(self, g: GameState, a: Action) -> None:
        moves.check_after_distribution(g, a)

    def perform(self, g: GameState, a: Action, ev: list[Event]) -> None:
        moves.perform(g, a, ev)

    def run(self, g: GameState, ev: list[Event], chance: bool) -> bool:
        for d in g.unused:  # C.2 Step 4: the untaken dice go back in the bag
            insort(g.bag, d)
        g.unused = []
        moves.end_turn(g, ev)
        return True


STEP = Step4()

__all__ = ["STEP", "SparkDraws", "Sparks", "Step4", "defuse_spark", "draw", "owed", "queue_draws",
           "turn_down_hands"]
