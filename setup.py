"""Builds the engine twice over from one source: compiled with mypyc where it can be, plain Python
where not.

``pip install .`` and ``pip wheel .`` compile the modules in ``COMPILED`` to C extensions when mypyc
and a C compiler with Python's headers are at hand; ``pip install -e .`` (an editable install, so that
edits take effect at once) and ``FUSEGAME_PURE=1`` keep them plain. The ``.py`` files ship either way:
an extension module shadows its source, and ``fusegame.engine_kind()`` says which one runs.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import setup

#: the engine's centre and the simulator's loop: the modules the time goes into. Configuration and the
#: table of games stay plain (they take enum names as strings, which a compiled dataclass refuses).
COMPILED = [
    "constraints.py", "dice.py", "rng.py", "cards/model.py",
    "rules/actions.py", "rules/decisions.py", "rules/defusal.py", "rules/ending.py", "rules/errors.py",
    "rules/events.py", "rules/fuse_cards.py", "rules/moves.py", "rules/outcome.py", "rules/penalty.py",
    "rules/removals.py", "rules/roles.py", "rules/schema.py", "rules/setup.py", "rules/sparks.py",
    "rules/stacks.py", "rules/state.py", "rules/step3.py", "rules/table.py", "rules/turn.py",
    "rules/views.py", "sim/game.py", "sim/policies.py",
    # the team planner: its card models and its search over the roll
    "bots/value.py", "bots/team.py",
]


def _why_pure() -> str:
    """Why this build stays plain Python, or "" when it can compile."""
    if os.environ.get("FUSEGAME_PURE", "") not in ("", "0"):
        return "FUSEGAME_PURE is set"
    if "editable_wheel" in sys.argv or "develop" in sys.argv:
        return "an editable install runs the sources as they are"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc is not installed"
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if not shutil.which(cc):
        return f"no C compiler ({cc})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python headers (Python.h)"
    return ""


def _extensions() -> list[object]:
    if "egg_info" in sys.argv:  # pip asking what the build needs: no code is built at this step
        return []
    why = _why_pure()
    if why:
        print(f"fusegame: the plain Python engine ({why})", file=sys.stderr)
        return []
    from mypyc.build import mypycify

    print("fusegame: compiling the engine with mypyc", file=sys.stderr)
    return list(mypycify([f"src/fusegame/{m}" for m in COMPILED], opt_level="3", debug_level="0"))


setup(ext_modules=_extensions())
