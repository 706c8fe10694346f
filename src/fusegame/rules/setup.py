"""Setting up a game (docs/rules.md B.1-B.6, F): roles, the bomb deck and the hands, the row or the
level stacks, the fuse cards, the spark deck and the first leader; then the first roll."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fusegame.rng import Rng
from fusegame.rules.config import ConfigError, GameConfig, Setup
from fusegame.rules.games import ROW_SIZE, Phase
from fusegame.rules.table import HandCard

if TYPE_CHECKING:
    from fusegame.rules.state import GameState


def new_game(config: GameConfig, seed: int, chance: bool = True) -> GameState:
    """Set up a game (docs/rules.md B.1-B.6, F) and roll the first turn's dice.

    The same config and seed always give the same game. ``chance=False`` stops before the first
    roll so that a solver can enumerate it.
    """
    from fusegame.rules.state import GameState

    g = GameState(config)
    g.rng = Rng(seed)
    rng = g.rng
    n = config.players
    playable = config.playable
    if g.roles is not None:  # B.4 step 1: one role per player, face up
        dealt = [r.id for r in playable.roles]
        rng.shuffle(dealt)
        g.roles.cards, g.roles.up = dealt[:n], [True] * n
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
            if g.stacks is None:  # the single deck
                deck = [c for lv in sorted(by_level) for c in by_level[lv]]
                rng.shuffle(deck)
                g.row = [deck.pop() for _ in range(ROW_SIZE)]  # G-11: the row is dealt from bombs only
                deck += fuses
                rng.shuffle(deck)
                g.deck = deck
            else:
                g.stacks.piles = by_level
                g.stacks.fuses = fuses
    if g.sparks is not None:
        g.sparks.deck = [s.id for s in playable.sparks]
        rng.shuffle(g.sparks.deck)
    g.leader = config.first_leader if config.first_leader is not None else rng.below(n)
    g.phase = Phase.ROLL
    g.settle(chance)
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
    """B.6: the chosen number of cards of each level, each pile shuffled (pool is shuffled). A count
    is never more than its level holds (``GameConfig.validate``); where the starting hands took so
    many of a level's cards that too few are left, the shortfall comes from the next lower chosen
    level, then from the lowest up, never from a level chosen to have no cards."""
    piles: dict[int, list[str]] = {lv: [c for c in pool if g.bomb(c).points == lv] for lv in config.levels}
    want = config.counts_per_level()
    out: dict[int, list[str]] = {}
    short = 0
    first_short = 0  # the first level the hands left short (for the message)
    for lv in sorted(want, reverse=True):
        if want[lv] <= 0:
            out[lv] = []
            continue
        n = want[lv] + short
        out[lv] = piles[lv][:n]
        short = n - len(out[lv])
        if short and not first_short:
            first_short = lv
    if short:  # hands took too many low cards: top up from the higher levels' spares
        for lv in sorted(want):
            if want[lv] <= 0:
                continue
            spare = [c for c in piles[lv] if c not in out[lv]][:short]
            out[lv] += spare
            short -= len(spare)
    if short:
        raise ConfigError(f"not enough bomb cards for the chosen level counts: the starting hands left "
                          f"level {first_short} {len(piles[first_short])} cards (the levels: "
                          f"{config.levels_text()})")
    return {lv: cards for lv, cards in out.items() if cards}
