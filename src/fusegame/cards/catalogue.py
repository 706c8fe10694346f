"""Loading and validating card catalogues (TOML data files).

A catalogue file holds ``[[bomb]]`` and ``[[fuse]]`` tables::

    [[bomb]]
    id = "F01"
    points = 1
    notation = "% !=c % !=c % !=c %"
    name = "Rainbow fence"        # optional
    source = "photo"              # optional: photo, rulebook or designed

    [[fuse]]
    id = "FZ1"
    shows = "R"                   # a colour letter, a number, or several separated by spaces

Every error names the file, the card and, for notation errors, the character position.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from fusegame.cards.model import BombCard, FuseCard
from fusegame.cards.notation import NotationError, parse
from fusegame.constraints import CompiledCard
from fusegame.dice import BY_LETTER, DiceSet

SETS = ("fuse", "countdown")


class CardDataError(ValueError):
    """Bad card data: ``file``, ``card_id`` and (for notation errors) ``pos`` say where."""

    def __init__(self, file: str, card_id: str | None, message: str, pos: int | None = None) -> None:
        where = file + (f": card {card_id}" if card_id else "")
        at = f" (notation character {pos + 1})" if pos is not None else ""
        super().__init__(f"{where}: {message}{at}")
        self.file, self.card_id, self.message, self.pos = file, card_id, message, pos


@dataclass(frozen=True)
class Catalogue:
    """The bomb and fuse cards available to a game."""

    bombs: tuple[BombCard, ...]
    fuses: tuple[FuseCard, ...]
    origin: str = field(default="built-in", compare=False)

    def bomb(self, card_id: str) -> BombCard:
        for b in self.bombs:
            if b.id == card_id:
                return b
        raise KeyError(card_id)

    def fuse(self, card_id: str) -> FuseCard:
        for f in self.fuses:
            if f.id == card_id:
                return f
        raise KeyError(card_id)

    def of_set(self, card_set: str) -> Catalogue:
        return Catalogue(tuple(b for b in self.bombs if b.set == card_set),
                         tuple(f for f in self.fuses if f.set == card_set), self.origin)

    def to_data(self) -> dict[str, Any]:
        """Plain data (the same shape as the TOML file), for embedding in game records."""
        return {
            "bomb": [{"id": b.id, "set": b.set, "points": b.points, "notation": b.notation,
                      **({"name": b.name} if b.name else {}), "source": b.source} for b in self.bombs],
            "fuse": [{"id": f.id, "set": f.set, "shows": f.symbol} for f in self.fuses],
        }


def parse_fuse_symbol(text: str) -> tuple[int, tuple[int, ...]]:
    colours, numbers = 0, []
    for part in text.split():
        if part in BY_LETTER:
            colours |= BY_LETTER[part]
        elif part.isdigit() and 1 <= int(part) <= 6:
            numbers.append(int(part))
        else:
            raise ValueError(f"fuse card shows {part!r}: use a colour letter (R B G Y K) or 1-6")
    if not colours and not numbers:
        raise ValueError("a fuse card must show at least one colour or number")
    return colours, tuple(numbers)


def catalogue_from_data(data: dict[str, Any], file: str = "<data>", default_set: str = "fuse",
                        check_completable: bool = True) -> Catalogue:
    """Build and validate a catalogue from parsed TOML/JSON data."""
    bombs: list[BombCard] = []
    fuses: list[FuseCard] = []
    seen: set[str] = set()
    unknown = set(data) - {"bomb", "fuse"}
    if unknown:
        raise CardDataError(file, None,
                            f"unknown table(s) {sorted(unknown)} (expected [[bomb]] and [[fuse]])")
    for kind in ("bomb", "fuse"):
        entries = data.get(kind, [])
        if not isinstance(entries, list):
            raise CardDataError(file, None, f"'{kind}' must be a list of tables ([[{kind}]])")
        for n, entry in enumerate(entries):
            if not isinstance(entry, dict):
                raise CardDataError(file, None, f"{kind} entry {n + 1} is not a table")
            cid = entry.get("id")
            if not isinstance(cid, str) or not cid:
                raise CardDataError(file, None, f"{kind} entry {n + 1} has no 'id'")
            if cid in seen:
                raise CardDataError(file, cid, "duplicate card id")
            seen.add(cid)
            card_set = entry.get("set", default_set)
            if card_set not in SETS:
                raise CardDataError(file, cid, f"unknown set {card_set!r} (fuse or countdown)")
            if kind == "fuse":
                try:
                    colours, numbers = parse_fuse_symbol(str(entry.get("shows", "")))
                except ValueError as e:
                    raise CardDataError(file, cid, str(e)) from None
                fuses.append(FuseCard(cid, card_set, colours, numbers))
                continue
            points = entry.get("points")
            if not isinstance(points, int) or not 1 <= points <= 6:
                raise CardDataError(file, cid, "'points' must be a whole number from 1 to 6")
            text = entry.get("notation")
            if not isinstance(text, str):
                raise CardDataError(file, cid, "missing 'notation'")
            try:
                shape = parse(text)
            except NotationError as e:
                raise CardDataError(file, cid, e.message, e.pos) from None
            if check_completable:
                dice = DiceSet.fuse() if not shape.requires_split_die else DiceSet.parse(
                    "4R 4B 4G 4Y 4K 1R/B 1B/G 1G/Y 1Y/K 1K/R")
                if CompiledCard(shape, dice.types_in_play).completion() is None:
                    raise CardDataError(file, cid, "this card can never be completed")
            bombs.append(BombCard(cid, card_set, points, shape, text, name=str(entry.get("name", "")),
                                  source=str(entry.get("source", "designed"))))
    return Catalogue(tuple(bombs), tuple(fuses), file)


def load_catalogue(path: str | Path) -> Catalogue:
    """Load and validate a catalogue file; raises ``CardDataError`` (never a bare traceback)."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as e:
        raise CardDataError(str(p), None, f"cannot read file: {e.strerror}") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise CardDataError(str(p), None, f"not valid TOML: {e}") from None
    return catalogue_from_data(data, str(p))


@cache
def builtin_catalogue() -> Catalogue:
    """The shipped (reconstructed) catalogue of every set."""
    bombs: list[BombCard] = []
    fuses: list[FuseCard] = []
    for name in ("fuse.toml", "countdown.toml"):
        res = resources.files("fusegame.cards").joinpath("data", name)
        if not res.is_file():
            continue
        data = tomllib.loads(res.read_text("utf-8"))
        cat = catalogue_from_data(data, f"fusegame/cards/data/{name}", default_set=name[:-5],
                                  check_completable=False)
        bombs += cat.bombs
        fuses += cat.fuses
    return Catalogue(tuple(bombs), tuple(fuses), "built-in")
