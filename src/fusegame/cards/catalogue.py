"""Loading and validating card catalogues (TOML data files).

A catalogue file holds ``[[bomb]]``, ``[[fuse]]`` and (Countdown) ``[[spark]]`` and ``[[role]]``
tables::

    [[bomb]]
    id = "F01"
    points = 1
    notation = "% !=c % !=c % !=c %"
    name = "Rainbow fence"        # optional
    source = "photo"              # optional: photo, rulebook or designed

    [[fuse]]
    id = "FZ1"
    shows = "R"                   # a colour letter, a number, or several separated by spaces

    [[fuse]]
    id = "CZ8"
    effect = "spark"              # Countdown text cards: spark, lose-roles or roll-six
    text = "All players must draw a spark card."

    [[spark]]                     # Countdown spark card: requirements, no points
    id = "S01"
    notation = "G5"

    [[role]]
    id = "R1"
    ability = "cutter"            # see fusegame.cards.model.Ability
    name = "Cutter"
    text = "Before drawing, name a colour ..."

Every error names the file, the card and, for notation errors, the character position.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from fusegame.cards.model import Ability, BombCard, FuseCard, FuseEffect, RoleCard
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
    """The bomb, fuse, spark and role cards available to a game."""

    bombs: tuple[BombCard, ...]
    fuses: tuple[FuseCard, ...]
    origin: str = field(default="built-in", compare=False)
    sparks: tuple[BombCard, ...] = ()
    roles: tuple[RoleCard, ...] = ()

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
        """The cards of one set (``fuse`` or ``countdown``)."""
        return Catalogue(tuple(b for b in self.bombs if b.set == card_set),
                         tuple(f for f in self.fuses if f.set == card_set), self.origin,
                         tuple(s for s in self.sparks if s.set == card_set),
                         tuple(r for r in self.roles if r.set == card_set))

    def to_data(self) -> dict[str, Any]:
        """Plain data (the same shape as the TOML file), for embedding in game records."""
        data: dict[str, Any] = {
            "bomb": [{"id": b.id, "set": b.set, "points": b.points, "notation": b.notation,
                      **({"name": b.name} if b.name else {}), **({"name_es": b.name_es} if b.name_es else {}),
                      "source": b.source} for b in self.bombs],
            "fuse": [{"id": f.id, "set": f.set, "shows": f.symbol} if f.effect is FuseEffect.SYMBOL
                     else {"id": f.id, "set": f.set, "effect": f.effect.value, "text": f.text}
                     for f in self.fuses],
        }
        if self.sparks:
            data["spark"] = [{"id": s.id, "set": s.set, "notation": s.notation,
                              **({"name": s.name} if s.name else {}),
                              **({"name_es": s.name_es} if s.name_es else {}), "source": s.source}
                             for s in self.sparks]
        if self.roles:
            data["role"] = [{"id": r.id, "set": r.set, "ability": r.ability.value, "name": r.name,
                             "text": r.text} for r in self.roles]
        return data


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
    sparks: list[BombCard] = []
    roles: list[RoleCard] = []
    seen: set[str] = set()
    unknown = set(data) - {"bomb", "fuse", "spark", "role"}
    if unknown:
        raise CardDataError(file, None, f"unknown table(s) {sorted(unknown)} "
                                        "(expected [[bomb]], [[fuse]], [[spark]] and [[role]])")
    for kind in ("bomb", "fuse", "spark", "role"):
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
                fuses.append(_fuse_card(entry, cid, card_set, file))
                continue
            if kind == "role":
                roles.append(_role_card(entry, cid, card_set, file))
                continue
            points = entry.get("points", 0 if kind == "spark" else None)
            if kind == "spark" and points != 0:
                raise CardDataError(file, cid, "spark cards have no points (leave 'points' out)")
            if kind == "bomb" and (not isinstance(points, int) or not 1 <= points <= 6):
                raise CardDataError(file, cid, "'points' must be a whole number from 1 to 6")
            assert isinstance(points, int)
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
            (bombs if kind == "bomb" else sparks).append(
                BombCard(cid, card_set, points, shape, text, kind=kind, name=str(entry.get("name", "")),
                         source=str(entry.get("source", "designed")), name_es=str(entry.get("name_es", ""))))
    return Catalogue(tuple(bombs), tuple(fuses), file, tuple(sparks), tuple(roles))


def _fuse_card(entry: dict[str, Any], cid: str, card_set: str, file: str) -> FuseCard:
    effect = entry.get("effect", "symbol")
    try:
        eff = FuseEffect(effect)
    except ValueError:
        raise CardDataError(file, cid, f"unknown fuse effect {effect!r} (choose from "
                                       f"{', '.join(e.value for e in FuseEffect)})") from None
    if eff is not FuseEffect.SYMBOL:
        if "shows" in entry:
            raise CardDataError(file, cid, "a text fuse card shows no symbols (drop 'shows')")
        return FuseCard(cid, card_set, text=str(entry.get("text", "")), effect=eff)
    try:
        colours, numbers = parse_fuse_symbol(str(entry.get("shows", "")))
    except ValueError as e:
        raise CardDataError(file, cid, str(e)) from None
    return FuseCard(cid, card_set, colours, numbers)


def _role_card(entry: dict[str, Any], cid: str, card_set: str, file: str) -> RoleCard:
    ability = entry.get("ability")
    try:
        ab = Ability(ability)
    except ValueError:
        raise CardDataError(file, cid, f"unknown role ability {ability!r} (choose from "
                                       f"{', '.join(a.value for a in Ability)})") from None
    name = entry.get("name") or ab.value.replace("-", " ").title()
    return RoleCard(cid, card_set, ab, str(name), str(entry.get("text", "")))


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
    sparks: list[BombCard] = []
    roles: list[RoleCard] = []
    for name in ("fuse.toml", "countdown.toml"):
        res = resources.files("fusegame.cards").joinpath("data", name)
        if not res.is_file():
            continue
        data = tomllib.loads(res.read_text("utf-8"))
        cat = catalogue_from_data(data, f"fusegame/cards/data/{name}", default_set=name[:-5],
                                  check_completable=False)
        bombs += cat.bombs
        fuses += cat.fuses
        sparks += cat.sparks
        roles += cat.roles
    return Catalogue(tuple(bombs), tuple(fuses), "built-in", tuple(sparks), tuple(roles))
