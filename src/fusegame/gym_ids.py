"""The Gymnasium ids of FUSE, registered as soon as both ``fusegame`` and ``gymnasium`` are imported,
in either order, so that ``gymnasium.make("fusegame/Fuse-v1")`` works after ``import fusegame``.

``import fusegame`` never imports Gymnasium itself (the server and the command line have no use for
it, and it would double their start-up): where Gymnasium is already imported the ids are registered
at once; where it is installed but not yet imported, a finder waits for its import and registers
them right after it. ``gymnasium.make("fusegame.env:fusegame/Fuse-v1")`` works too (the module part
imports ``fusegame.env``, which registers them).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType
from typing import Any

#: The single-seat environment, by observation version (``fusegame.env.encode.VERSION``).
GYM_ID = "fusegame/Fuse-v1"
ENTRY_POINT = "fusegame.env.single:FuseGymEnv"


def register(gymnasium: Any) -> None:
    """Register the ids with ``gymnasium`` (the module), once."""
    if GYM_ID not in gymnasium.registry:
        gymnasium.register(id=GYM_ID, entry_point=ENTRY_POINT)


class _AfterGymnasium(importlib.abc.MetaPathFinder):
    """Registers the ids once Gymnasium's own import has run."""

    def find_spec(self, name: str, path: Any = None, target: ModuleType | None = None
                  ) -> importlib.machinery.ModuleSpec | None:
        if name != "gymnasium":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        loader = spec.loader if spec is not None else None
        if spec is None or loader is None or not hasattr(loader, "exec_module"):
            return spec
        run = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run(module)
            register(module)

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def watch() -> None:
    """Register now, or right after Gymnasium is imported; nothing where it is not installed."""
    if "gymnasium" in sys.modules:
        register(sys.modules["gymnasium"])
    elif any(isinstance(f, _AfterGymnasium) for f in sys.meta_path):
        return
    elif importlib.util.find_spec("gymnasium") is not None:
        sys.meta_path.insert(0, _AfterGymnasium())
