"""The studies' tests: ``python -m pytest research/`` from the repository root.

The studies are scripts (``python research/studies/NAME.py``), not a package: a script finds the
modules the studies share (``rollout``, ``gamefiles``, ``budget``) beside it, and so do these tests,
with ``research/studies`` put first on the module path here. ``load_study`` gives a study as a module
to call its parts. The product's suite (``python -m pytest``, the ``tests`` folder) never collects
anything from here.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

RESEARCH = Path(__file__).resolve().parent
STUDIES = RESEARCH / "studies"
ROOT = RESEARCH.parent

if str(STUDIES) not in sys.path:
    sys.path.insert(0, str(STUDIES))
# the product's test helpers that the studies' tests share (doclinks: the write-ups' links), after
# everything else so that none of them shadows a study's module
if str(ROOT / "tests") not in sys.path:
    sys.path.append(str(ROOT / "tests"))


def load_study(name: str) -> ModuleType:
    """``research/studies/NAME.py`` as a module (imported once, under its own name: its classes
    look their module up by name, and a process pool's workers import it so)."""
    return importlib.import_module(name)
