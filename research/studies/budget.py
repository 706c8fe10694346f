"""How many dice a win needs against how many dice the clock lets a table roll.

A bomb is defused only when every slot holds a die, so a won game has placed at least one die per
slot of every card it had to defuse: the bombs of the deck and the row, and at the top level
(FUSE's Insane, Countdown's Heroic) the cards in front of the players too. Under the simulator's
pace the dice a table can roll before the clock runs out depend only on the player count and on
whether a Logistics Specialist leads some turns. Together they bound what any policy can do: a
deal that needs more dice than the clock gives cannot be won at that pace (``dice_budget.py``
beside this module prints both for every table; research/pace.md, "What the clock allows").
(It was ``fusegame.sim.budget`` until the studies moved to research/.)
"""

from __future__ import annotations

from fusegame.cards.model import Ability
from fusegame.rules.config import dice_per_turn
from fusegame.rules.games import Difficulty
from fusegame.rules.state import GameState
from fusegame.sim.game import Pace


def dice_needed(g: GameState) -> int:
    """The slots of the bombs a win of this deal must defuse (sparks, which need not be
    defused, and fuse cards aside), from the state at the start of the game."""
    level: Difficulty = g.config.difficulty
    cards = list(g.deck) + list(g.row)
    if level.top:
        cards += [hc.card for hand in g.hands for hc in hand]
    return sum(g.bomb(c).shape.size for c in cards
               if c in g.compiled and not (g.sparks is not None and g.is_spark(c)))


def logistics_seat(g: GameState) -> int | None:
    """The seat dealt the Logistics Specialist, if any (it leads with one more die)."""
    if g.roles is None:
        return None
    for seat, role in enumerate(g.roles.cards):
        if role and g.role(role).ability is Ability.LOGISTICS_SPECIALIST:
            return seat
    return None


def dice_rollable(players: int, limit_ms: int, pace: Pace, bonus_seat: int | None = None) -> int:
    """The most dice a table can roll before the clock runs out, as the simulator plays: a turn
    is played only if it starts before ``limit_ms``, and starting it charges ``pace.turn_ms`` of
    its dice. A turn rolls at most ``dice_per_turn`` dice, one more when ``bonus_seat`` leads (the
    leader passing to the left from seat 0; the best case: that role never turned down). Turns
    that roll fewer dice (the bag running short) are charged less and may let one more turn in, so
    the bound is taken over every number of turns ``T``: at most the turns' dice, and at most what
    the clock leaves for dice once ``T`` turns have paid their fixed time."""
    fixed_ms = pace.turn_seconds * 1000
    die_ms = pace.die_seconds * 1000
    if fixed_ms <= 0 and die_ms <= 0:
        raise ValueError("a pace that takes no time lets a table roll without end")
    best = cap = turns = leader = 0
    while True:
        turns += 1
        if turns * fixed_ms >= limit_ms:  # even a turn that rolls nothing starts too late
            return best
        cap += dice_per_turn(players) + (1 if leader == bonus_seat else 0)
        by_clock = cap if die_ms <= 0 else int((limit_ms - 1 - turns * fixed_ms) // die_ms)
        best = max(best, min(cap, by_clock))
        if die_ms > 0 and cap >= by_clock:  # more turns only leave less time for dice
            return best
        leader = (leader + 1) % players


def slowest_pace(players: int, limit_ms: int, need: int, bonus_seat: int | None = None,
                 die_seconds: float = 1.0) -> float:
    """The most seconds a turn (plus ``die_seconds`` a die) at which the clock still lets the table
    roll ``need`` dice; 0.0 when no pace does (``die_seconds`` must be above 0)."""
    if die_seconds <= 0:
        raise ValueError("the slowest pace is sought with some seconds a die")
    lo, hi = 0.0, 120.0
    if dice_rollable(players, limit_ms, Pace(turn_seconds=lo, die_seconds=die_seconds),
                     bonus_seat) < need:
        return 0.0
    for _ in range(40):
        mid = (lo + hi) / 2
        if dice_rollable(players, limit_ms, Pace(turn_seconds=mid, die_seconds=die_seconds),
                         bonus_seat) >= need:
            lo = mid
        else:
            hi = mid
    return lo


__all__ = ["dice_needed", "dice_rollable", "logistics_seat", "slowest_pace"]
