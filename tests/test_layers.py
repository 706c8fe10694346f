"""The package's layers, read from the source: which modules may import which.

Every ``.py`` file under ``src/fusegame`` is parsed (not imported) and every ``import`` and
``from ... import`` in it is collected, those inside functions included, so that an import moved
into a function to dodge a cycle still counts. The rules:

* the rules layer (``fusegame.rules``) imports none of the layers above it;
* ``fusegame.web.legend`` and ``fusegame.web.svg`` do not import each other both ways (the legend
  draws with ``svg``; the symbols both use live in ``fusegame.web.symbols``);
* the bots (``fusegame.bots``) do not import the simulator (``fusegame.sim``).
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "fusegame"

#: the layers above the rules, which nothing under fusegame/rules may import
ABOVE_RULES = ("fusegame.observe", "fusegame.bots", "fusegame.sim", "fusegame.server", "fusegame.web",
               "fusegame.terminal", "fusegame.env")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in the file: ``from a.b import c`` gives both
    ``a.b`` and ``a.b.c`` (``c`` may be a module); relative imports are resolved."""
    name = _module_name(path)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                parent = ".".join(base + ([node.module] if node.module else []))
            else:
                parent = node.module or ""
            found.add(parent)
            found.update(f"{parent}.{alias.name}" for alias in node.names)
    return found


@cache
def _graph() -> dict[str, set[str]]:
    return {_module_name(p): _imports(p) for p in sorted(PACKAGE.rglob("*.py"))}


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def _offenders(importer: str, imported: tuple[str, ...]) -> list[str]:
    """``module -> import`` for each module under ``importer`` importing one under ``imported``."""
    return sorted(f"{m} -> {i}" for m, deps in _graph().items() if _within(m, importer)
                  for i in deps if any(_within(i, p) for p in imported))


def test_the_source_is_read() -> None:
    graph = _graph()
    assert "fusegame.rules.tabletop" in graph and "fusegame.web.svg" in graph
    # the reader sees imports inside functions too
    assert any(_within(i, "fusegame") for i in graph["fusegame.cli"])


def test_the_rules_import_no_layer_above_them() -> None:
    assert _offenders("fusegame.rules", ABOVE_RULES) == []


def test_the_legend_and_the_svg_do_not_import_each_other() -> None:
    legend_to_svg = _offenders("fusegame.web.legend", ("fusegame.web.svg",))
    svg_to_legend = _offenders("fusegame.web.svg", ("fusegame.web.legend",))
    assert not (legend_to_svg and svg_to_legend), (legend_to_svg, svg_to_legend)
    assert svg_to_legend == []  # the direction chosen: the legend draws with svg


def test_the_bots_do_not_import_the_simulator() -> None:
    # the simulator plays games with the bots, never the other way round
    assert _offenders("fusegame.bots", ("fusegame.sim",)) == []


def test_no_step_of_the_turn_imports_back_up_into_the_turn() -> None:
    # each step owns its check and perform and shares rules.moves; only the state, which puts the
    # steps together, imports the turn
    graph = _graph()
    into_turn = sorted(m for m, deps in graph.items() if "fusegame.rules.turn" in deps
                       and _within(m, "fusegame.rules"))
    assert into_turn == ["fusegame.rules.state"]
    # (the state only for its type, as every rule module does)
    assert not graph["fusegame.rules.moves"] & {"fusegame.rules." + m for m in (
        "turn", "penalty", "step3", "sparks", "defusal", "stacks")}
