"""What to lay out for a game played with the box at a real table (docs/rules.md A.9, B.1-B.6, F).

The figures come from the same table of games and the same ``GameConfig`` the engine sets a game up
from, so the Ship's Computer's checklist can never disagree with a digital game of the same options.
The limits of a score counted at the table (how many bomb cards of each value a game can put on the
table, the fuse and spark cards there are) come from here too.

    >>> s = table_setup(GameConfig(players=3, difficulty="expert", game="countdown"))
    >>> s.deck, s.hand_size, s.row, s.face_down, s.roles
    (29, 2, 5, 18, 3)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fusegame.dice import colours_text
from fusegame.rules.config import GameConfig
from fusegame.rules.games import ROW_SIZE, Setup
from fusegame.rules.titles import game_title  # the one title the log and the server use

#: B.3.3: a solo hand shows at least this many different values.
SOLO_DISTINCT = 3


@dataclass(frozen=True)
class TableSetup:
    """The figures of one game's setup, and the most a game of it can score card by card."""

    game: str
    title: str
    players: int
    difficulty: str
    deck: int  #: bomb cards in the deck (A.9): FUSE's row and draw pile, Countdown's with the hands
    hands_in_deck: bool  #: the hands are dealt from that deck (Countdown-style) or before it (FUSE)
    hand_size: int  #: bomb cards dealt to each player (4 solo)
    hand_rule: dict[str, int]  #: {"limit": n}: a pair needs a card worth n or less; {"distinct": 3} solo
    row: int  #: face-up cards in the middle (0 in the stacks setup: one stack per level instead)
    face_down: int  #: bomb cards left face down once the hands and the row are out
    middle: int  #: bomb cards in the middle once the hands are out: the bombs to take to empty it
    fuse_cards: int
    fuse_range: tuple[int, int]  #: the fewest and most fuse cards the players may choose here
    fuse_from: str  #: the first difficulty with fuse cards
    sparks: int  #: spark cards in the spark deck (0: no sparks in this game)
    roles: int  #: role cards dealt, one each (0: no roles)
    dice: tuple[tuple[str, int], ...]  #: the bag: (colours, how many), split dice as "R/B"
    levels: dict[int, int] | None  #: advanced setups: bomb cards of each point value
    six_point_cards: bool
    bomb_values: tuple[int, ...]  #: the point values of the bomb cards in play
    max_bombs_by_value: dict[int, int]  #: the most bomb cards of each value a game can defuse
    max_bomb_points: int  #: the most bomb points a game can score
    time_limit_s: int

    @property
    def dice_total(self) -> int:
        return sum(n for _, n in self.dice)

    def to_dict(self) -> dict[str, Any]:
        """The setup as ``GET /api/computer/setup`` sends it (value-keyed maps with string keys)."""
        pair = "distinct" not in self.hand_rule
        return {
            "game": self.game, "title": self.title, "players": self.players, "difficulty": self.difficulty,
            "deck": self.deck, "hands_in_deck": self.hands_in_deck, "hand_size": self.hand_size,
            "hand_rule": {"kind": "pair", **self.hand_rule} if pair else {"kind": "solo", **self.hand_rule},
            "row": self.row, "face_down": self.face_down, "middle": self.middle,
            "fuse_cards": self.fuse_cards,
            "fuse_range": {"min": self.fuse_range[0], "max": self.fuse_range[1]}, "fuse_from": self.fuse_from,
            "sparks": self.sparks, "roles": self.roles,
            "dice": [{"colours": c, "count": n} for c, n in self.dice], "dice_total": self.dice_total,
            "levels": {str(v): n for v, n in self.levels.items()} if self.levels is not None else None,
            "six_point_cards": self.six_point_cards, "bomb_values": list(self.bomb_values),
            "max_bombs_by_value": {str(v): n for v, n in self.max_bombs_by_value.items()},
            "max_bomb_points": self.max_bomb_points, "time_limit_s": self.time_limit_s,
        }


def table_setup(config: GameConfig) -> TableSetup:
    """The setup of ``config``'s game for people with the box (B.1-B.6, F)."""
    spec = config.spec
    players = config.players
    hands = config.hand_size * players
    stacks = config.setup is Setup.STACKS
    row = 0 if stacks else ROW_SIZE
    # Countdown deals the hands from the built deck; FUSE deals them first, from the other cards
    in_play = config.deck_size + (0 if config.hands_in_deck else hands)
    face_down = 0 if stacks else config.deck_size - row - (hands if config.hands_in_deck else 0)
    values = sorted(b.points for b in config.playable.bombs)
    by_value: dict[int, int] = {}
    for v in values:
        by_value[v] = by_value.get(v, 0) + 1
    most = {v: min(n, in_play) for v, n in sorted(by_value.items())}
    dice: list[tuple[str, int]] = []
    for c in config.dice_set.colours:
        name = colours_text(c)
        if dice and dice[-1][0] == name:
            dice[-1] = (name, dice[-1][1] + 1)
        else:
            dice.append((name, 1))
    return TableSetup(
        game=config.game.value, title=game_title(config), players=players,
        difficulty=config.difficulty.value, deck=config.deck_size, hands_in_deck=config.hands_in_deck,
        hand_size=config.hand_size,
        hand_rule={"distinct": SOLO_DISTINCT} if players == 1 else {"limit": config.hand_limit},
        row=row, face_down=face_down, middle=config.middle_size, fuse_cards=config.fuse_count,
        fuse_range=config.fuse_range(),
        fuse_from=spec.fuse_cards.first.value,
        sparks=len(config.playable.sparks) if config.uses_sparks else 0,
        roles=players if config.uses_roles else 0, dice=tuple(dice),
        levels=config.counts_per_level() if config.setup is not Setup.STANDARD else None,
        six_point_cards=config.six_point_cards, bomb_values=tuple(sorted(by_value)),
        max_bombs_by_value=most, max_bomb_points=sum(values[-in_play:]),
        time_limit_s=config.time_limit or 600)


__all__ = ["TableSetup", "table_setup"]
