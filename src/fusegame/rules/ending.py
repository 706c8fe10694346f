"""How a game ends, decided in one place (docs/rules.md E): lost when the clock reaches 0:00 or the bag
is empty when dice must be drawn; won when the ship is saved: no bomb card left in the middle, no
spark in play, and at Insane and Heroic no bomb card in front of a player either."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fusegame.rules.events import Event
from fusegame.rules.games import Phase
from fusegame.rules.outcome import Outcome, Termination, score

if TYPE_CHECKING:
    from fusegame.rules.state import GameState


def clock_ms(g: GameState) -> int:
    """The game time the clock shows: stopped at a mid-turn save (Countdown, E.2)."""
    stop = g.step3.clock_stop if g.step3 is not None else None
    return g.time_ms if stop is None else stop


def clock_stopped(g: GameState) -> bool:
    return g.step3 is not None and g.step3.clock_stop is not None


def time_is_up(g: GameState, ev: list[Event]) -> bool:
    """E.1: at 0:00 the team loses, unless the ship was saved mid-turn and the clock stopped."""
    limit = g.config.time_limit
    if limit is not None and g.time_ms >= limit * 1000 and not clock_stopped(g):
        g.time_ms = limit * 1000
        end(g, False, Termination.TIME_UP, ev)
        return True
    return False


def bag_is_empty(g: GameState, ev: list[Event]) -> bool:
    """E.1: dice must be drawn and the bag is empty: the team loses."""
    if g.bag:
        return False
    end(g, False, Termination.BAG_EMPTY, ev)
    return True


def saved(g: GameState) -> bool:
    """No bomb left in the middle, no spark in play, and (Insane/Heroic) no card in hand."""
    if g.middle_has_bombs() or g.sparks_in_play():
        return False
    if not g.config.difficulty.top:
        return True
    return not any(g.is_bomb(hc.card) for hand in g.hands for hc in hand)


def wins_when_middle_empties(g: GameState) -> bool:
    """E.1: in FUSE taking the last bomb from the middle wins at once (fuse cards left below it
    are never turned over, G-23), unless the hands (Insane) or sparks must be cleared too."""
    return g.step3 is None and not g.config.difficulty.top and not g.sparks_in_play()


def win(g: GameState, ev: list[Event]) -> None:
    end(g, True, Termination.BOMBS_DEFUSED, ev)


def end(g: GameState, won: bool, reason: Termination, ev: list[Event]) -> None:
    limit = g.config.time_limit
    left = None if limit is None else max(0, limit * 1000 - clock_ms(g))
    # A card is defused the moment its last die goes on (C.1.3, G-24); one still waiting for
    # its owner to take a replacement when the game ends scores all the same.
    pending = [p.card for p in g.picks]
    points = sum(g.bomb(c).points for c in g.score_pile + pending)
    defused_sparks = len(g.sparks.defused) if g.sparks is not None else 0
    g.outcome = Outcome(won, reason, score(won, left, points, len(g.fuses_activated), defused_sparks),
                        left, g.config.official)
    g.phase = Phase.OVER
    if g.listening:
        ev.append(Event("game_won" if won else "game_lost",
                        {"reason": reason.value, "score": g.outcome.score.total}))
