"""Defusing a complete card (docs/rules.md C.1.3, C.2 Step 3, C.2.2, E): its dice go back in the bag,
a bomb goes to the score pile and its owner takes a replacement from the row (or a stack), which
is refilled from the deck; a spark goes to the discards with no replacement. When the middle runs
out of bombs the game may be won at once (FUSE), the remaining bombs may be turned face down while
sparks are cleared, or the clock may stop mid-turn (Countdown, 1-2 players)."""

from __future__ import annotations

from bisect import insort
from dataclasses import dataclass
from typing import TYPE_CHECKING

from fusegame.rules import ending, fuse_cards, sparks
from fusegame.rules.actions import Action, TakeCard
from fusegame.rules.decisions import Pending, push
from fusegame.rules.events import Event
from fusegame.rules.games import Phase
from fusegame.rules.moves import check_pick, options, owes_pick
from fusegame.rules.schema import Count, Part, declared
from fusegame.rules.table import HandCard, Pick

if TYPE_CHECKING:
    from fusegame.rules.state import GameState


def complete(g: GameState, seat: int, hc: HandCard, ev: list[Event]) -> None:
    """A complete card is defused: a spark is discarded; a bomb waits for its owner to take a
    replacement (or, with the middle empty, is simply defused)."""
    if g.is_spark(hc.card):
        sparks.defuse_spark(g, seat, hc, ev)  # a spark never brings a lost role back
        middle_changed(g, ev)
        return
    # "until they defuse a bomb card": the role turns up as the defusal starts, before the
    # replacement is taken, so a leader may use it on this turn's dice straight away (G-46)
    g.hook("on_bomb_defused", seat, ev)
    if g.middle_has_bombs():
        g.picks.append(Pick(seat, hc.card))
        return
    defuse(g, seat, hc, ev)  # the endgame: nothing to take, the card is simply defused
    middle_changed(g, ev)


def defuse(g: GameState, seat: int, hc: HandCard, ev: list[Event]) -> None:
    for d in hc.dice:
        insort(g.bag, d)
    g.hands[seat].remove(hc)
    g.score_pile.append(hc.card)
    # and again as it ends: a "lose role ability" card turned over by an earlier player's
    # refill in the same Step 3 comes before this defusal is finished
    g.hook("on_bomb_defused", seat, ev)
    if g.listening:
        ev.append(Event("bomb_defused", {"seat": seat, "card": hc.card, "points": g.bomb(hc.card).points}))


def take(g: GameState, a: Action, ev: list[Event]) -> None:
    """The owner of a defused bomb takes its replacement."""
    assert isinstance(a, TakeCard)
    seat, card = a.seat, a.card
    i = next(i for i, p in enumerate(g.picks) if p.seat == seat)
    done = g.picks.pop(i)
    hc = g.hand_card(seat, done.card)
    assert hc is not None
    defuse(g, seat, hc, ev)
    if g.stacks is not None:
        g.stacks.take(card)
    else:
        g.row.remove(card)
    g.hands[seat].append(HandCard(card, g.bomb(card).shape.size))
    if g.listening:
        ev.append(Event("card_taken", {"seat": seat, "card": card}))
    if g.middle_has_bombs():
        if g.stacks is None:
            push(g, Refill(1))
        return
    if ending.wins_when_middle_empties(g):
        ending.win(g, ev)
        return
    for p in g.picks:  # nothing left to take: other complete cards are defused now
        other = g.hand_card(p.seat, p.card)
        assert other is not None
        defuse(g, p.seat, other, ev)
    g.picks.clear()
    middle_changed(g, ev)


def middle_changed(g: GameState, ev: list[Event]) -> None:
    """The middle has just emptied, or a card was defused with it empty: turn the hands face
    down if sparks still have to be cleared (C.2.2), and see whether the team has won."""
    if g.outcome is not None or g.middle_has_bombs():
        return
    if g.sparks_in_play() and not g.config.difficulty.top:
        sparks.turn_down_hands(g, ev)
    if not ending.saved(g):
        return
    if g.step3 is None:
        ending.win(g, ev)
    elif g.phase is Phase.DISTRIBUTE and g.step3.clock_stop is None:
        # E.2: the clock stops now; the turn's remaining dice may still be placed
        g.step3.clock_stop = g.time_ms
        if g.listening:
            ev.append(Event("clock_stopped", {"time_ms": g.time_ms}))


@dataclass
class Refill(Pending):
    """Row cards still to be turned over from the deck; a fuse card turned over goes off first,
    and another card is turned over in its place (A.5)."""

    count: int = declared(Count(), default=0, doc="refills", view=None)

    def empty(self) -> bool:
        return not self.count

    def merge(self, other: Pending) -> None:
        assert isinstance(other, Refill)
        self.count += other.count

    def run(self, g: GameState, ev: list[Event], chance: bool) -> bool:
        if not g.deck:
            self.finish(g)
            return True
        top = g.deck.pop()
        if g.is_fuse(top):
            fuse_cards.activate(g, top, ev)
        else:
            g.row.append(top)
            self.count -= 1
            if g.listening:
                ev.append(Event("card_revealed", {"card": top}))
            if not self.count:
                self.finish(g)
        return True


Part.register(Refill, "refill")


__all__ = ["Refill", "check_pick", "complete", "defuse", "middle_changed", "options", "owes_pick", "take"]
