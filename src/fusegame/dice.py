"""Colours, die types, the dice inventory and opposite faces.

A die has a *colour set* (one colour, or two for a split die) and a *face* (1-6). Colour sets are
bit masks over the five colours. For fast look-up tables every (colour set, face) pair has a small
integer *die type*: 15 colour sets (5 single, 10 split pairs) x 6 faces = 90 types.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations
from typing import Final

RED: Final = 1
BLUE: Final = 2
GREEN: Final = 4
YELLOW: Final = 8
BLACK: Final = 16
COLOURS: tuple[int, ...] = (RED, BLUE, GREEN, YELLOW, BLACK)
LETTERS: dict[int, str] = {RED: "R", BLUE: "B", GREEN: "G", YELLOW: "Y", BLACK: "K"}
NAMES: dict[int, str] = {RED: "red", BLUE: "blue", GREEN: "green", YELLOW: "yellow", BLACK: "black"}
BY_LETTER: dict[str, int] = {v: k for k, v in LETTERS.items()}
FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)

#: Colour sets in type order: the five single colours, then the ten split pairs.
COLOUR_SETS: tuple[int, ...] = COLOURS + tuple(a | b for a, b in combinations(COLOURS, 2))
SET_INDEX: dict[int, int] = {m: i for i, m in enumerate(COLOUR_SETS)}
N_TYPES: Final = len(COLOUR_SETS) * 6

#: Default opposite faces (1-6, 2-4, 3-5), as observed on the printed dice; configurable.
DEFAULT_OPPOSITE: dict[int, int] = {1: 6, 6: 1, 2: 4, 4: 2, 3: 5, 5: 3}


def die_type(colours: int, face: int) -> int:
    """The type index of a die with colour set ``colours`` showing ``face``."""
    return SET_INDEX[colours] * 6 + face - 1


def type_colours(t: int) -> int:
    return COLOUR_SETS[t // 6]


def type_face(t: int) -> int:
    return t % 6 + 1


def colours_text(colours: int) -> str:
    """``R`` for a red die, ``K/Y`` for a black/yellow split die."""
    text = _COLOURS_TEXT.get(colours)
    if text is None:  # (a view names every die in the bag: each set of colours is written once)
        text = _COLOURS_TEXT[colours] = "/".join(LETTERS[c] for c in COLOURS if colours & c)
    return text


_COLOURS_TEXT: dict[int, str] = {}


def parse_colours(text: str) -> int:
    mask = 0
    for part in text.split("/"):
        if part not in BY_LETTER:
            raise ValueError(f"unknown colour {part!r} (use R, B, G, Y, K)")
        if mask & BY_LETTER[part]:
            raise ValueError(f"{text!r} names {part} twice")
        mask |= BY_LETTER[part]
    if mask not in SET_INDEX:
        raise ValueError(f"{text!r} is not a colour set a die can have")
    return mask


def die_text(colours: int, face: int) -> str:
    """``Y5``, ``K/Y3``: the notation the rules use for a die."""
    return f"{colours_text(colours)}{face}"


#: ``TYPE_LABELS[t]``: the text of die type ``t`` (``Y5``, ``Y/K3``).
TYPE_LABELS: tuple[str, ...] = tuple(die_text(type_colours(t), type_face(t)) for t in range(N_TYPES))


@dataclass(frozen=True)
class DiceSet:
    """The physical dice of a game: one colour set per die, indexed by die id."""

    colours: tuple[int, ...]
    opposite: tuple[tuple[int, int], ...] = tuple(sorted(DEFAULT_OPPOSITE.items()))

    @classmethod
    def fuse(cls) -> DiceSet:
        """FUSE's 25 dice: five of each colour."""
        return cls(tuple(c for c in COLOURS for _ in range(5)))

    @classmethod
    def parse(cls, text: str) -> DiceSet:
        """Parse ``"5R 5B 5G 5Y 5K"`` or ``"4R 4B 4G 4Y 4K 1K/Y ..."``."""
        out: list[int] = []
        for item in text.split():
            m = re.fullmatch(r"(\d*)([RBGYK/]+)", item)
            if not m:
                raise ValueError(f"bad dice item {item!r} (write e.g. 5R or 1K/Y)")
            out.extend([parse_colours(m.group(2))] * int(m.group(1) or 1))
        return cls(tuple(out))

    def text(self) -> str:
        """Runs of equal dice in die-id order (``DiceSet.parse(d.text()) == d``)."""
        parts: list[str] = []
        i = 0
        while i < len(self.colours):
            j = i
            while j < len(self.colours) and self.colours[j] == self.colours[i]:
                j += 1
            parts.append(f"{j - i}{colours_text(self.colours[i])}")
            i = j
        return " ".join(parts)

    @property
    def types_in_play(self) -> int:
        """Bit mask of every die type these dice can show (used by the feasibility rule)."""
        mask = 0
        for cs in set(self.colours):
            for f in FACES:
                mask |= 1 << die_type(cs, f)
        return mask

    def opposite_face(self, face: int) -> int:
        return dict(self.opposite)[face]

    def __len__(self) -> int:
        return len(self.colours)
