"""Pickling the compiled engine's frozen values, so that they can cross process boundaries.

Worker processes and Ray tasks send results (``GameResult``, ``Outcome``, actions, cards) back through
pickle. A frozen dataclass compiled by mypyc has no ``__dict__`` and refuses the attribute assignments
that pickle's default restore makes, so each one is registered here with a reducer that rebuilds it
attribute by attribute (``object.__setattr__``, as a frozen dataclass's own ``__init__`` does), or
through its ``__init__`` where the class writes its own (the actions). In the plain Python engine the
classes pickle by default and nothing is registered. Importing this module registers every frozen
value of the engine; ``fusegame.sim.parallel`` does so on both sides.
"""

from __future__ import annotations

import copyreg
import dataclasses
import importlib
from typing import Any

#: the engine's modules that define frozen values (the others hold mutable state or functions)
MODULES = (
    "fusegame.dice", "fusegame.cards.model", "fusegame.rules.actions", "fusegame.rules.decisions",
    "fusegame.rules.events", "fusegame.rules.fuse_cards", "fusegame.rules.outcome", "fusegame.rules.removals",
    "fusegame.rules.roles", "fusegame.rules.schema",
    "fusegame.sim.game", "fusegame.bots.team",
)


def _restore(cls: type[Any], names: tuple[str, ...], values: tuple[Any, ...]) -> Any:
    new: Any = cls.__new__  # the class's own: a compiled class refuses object.__new__
    obj = new(cls)
    for name, value in zip(names, values, strict=True):
        object.__setattr__(obj, name, value)
    return obj


def _reduce(obj: Any) -> tuple[Any, ...]:
    cls = type(obj)
    if not cls.__dataclass_params__.init:
        # a class that writes its own __init__ (the actions) takes every field in order; its
        # compiled __new__ runs that __init__, so it cannot be built empty and filled in
        return cls, tuple(getattr(obj, f.name) for f in dataclasses.fields(obj))
    names: tuple[str, ...] = tuple(cls.__mypyc_attrs__)
    names = tuple(n for n in names if n != "__dict__")
    return _restore, (type(obj), names, tuple(getattr(obj, n) for n in names))


def compiled_frozen_classes() -> list[type]:
    """The frozen dataclasses of ``MODULES`` that run compiled (none in the plain Python engine)."""
    out: list[type] = []
    for name in MODULES:
        module = importlib.import_module(name)
        for value in vars(module).values():
            if (isinstance(value, type) and value.__module__ == name and dataclasses.is_dataclass(value)
                    and value.__dataclass_params__.frozen  # type: ignore[attr-defined]
                    and hasattr(value, "__mypyc_attrs__")):
                out.append(value)
    return out


def register() -> None:
    """Give every compiled frozen value of the engine a reducer (idempotent)."""
    for cls in compiled_frozen_classes():
        copyreg.pickle(cls, _reduce)


register()
