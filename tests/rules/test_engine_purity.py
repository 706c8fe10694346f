"""The engine stays pure: no asyncio, no wall clock, no global random, no threads or sockets, no web
or UI library (DESIGN.md: "One pure engine, everything else at the edges").

Two independent checks:

1. the AST of every engine module file is scanned for imports (``import x``, ``from x import y``,
   relative imports, ``__import__("x")`` and ``importlib.import_module("x")``, at any depth);
2. the engine modules are imported in a fresh interpreter and ``sys.modules`` is checked. Standard
   library modules the engine uses on purpose (``tomllib`` pulls in ``datetime``, for instance) are
   imported first as a baseline, so only what the engine itself drags in is judged.
"""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import fusegame

PKG = Path(fusegame.__file__).resolve().parent
#: ``words`` too: the engine's own log lines (``str(event)``) are made there
ENGINE_PARTS = ("dice", "rng", "cards", "constraints", "rules", "record", "observe", "scenario", "words")

FORBIDDEN_STDLIB = {
    "asyncio", "time", "random", "datetime", "threading", "_thread", "socket", "selectors", "ssl",
    "secrets", "uuid", "multiprocessing", "concurrent", "subprocess", "signal", "sched", "http",
    "urllib", "tkinter", "curses",
}
FORBIDDEN_THIRD_PARTY = {
    "fastapi", "starlette", "uvicorn", "httpx", "requests", "aiohttp", "websockets", "flask", "django",
    "jinja2", "textual", "rich", "typer", "click", "prompt_toolkit", "matplotlib", "seaborn", "plotly",
    "pygame", "PyQt5", "PyQt6", "PySide6", "gymnasium", "gym", "pettingzoo", "pandas", "dask", "ray",
    "joblib", "anyio", "trio",
}
FORBIDDEN = FORBIDDEN_STDLIB | FORBIDDEN_THIRD_PARTY
#: the parts of the package that are edges, not engine: the engine must not import them
EDGE_PARTS = ("bots", "sim", "server", "web", "tui", "env", "cli")


def engine_files() -> list[Path]:
    files = [PKG / "__init__.py"]
    for part in ENGINE_PARTS:
        if (PKG / f"{part}.py").is_file():
            files.append(PKG / f"{part}.py")
        if (PKG / part).is_dir():
            files += sorted((PKG / part).rglob("*.py"))
    return files


def module_name(path: Path) -> str:
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(source: str, module: str, is_package: bool = False) -> list[tuple[str, int]]:
    """Every module name imported anywhere in ``source`` (with its line), relative ones resolved."""
    out: list[tuple[str, int]] = []
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            out.append((name, node.lineno))
            if node.module is None:  # "from . import x": x may be a module
                out += [(f"{name}.{alias.name}", node.lineno) for alias in node.names]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            f = node.func
            fname = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if fname in ("__import__", "import_module"):
                out.append((node.args[0].value, node.lineno))
    return out


def violations(source: str, module: str, is_package: bool = False) -> list[str]:
    bad = []
    for name, line in imports_of(source, module, is_package):
        top = name.split(".")[0]
        if top in FORBIDDEN:
            bad.append(f"{module}:{line} imports {name}")
        parts = name.split(".")
        if top == "fusegame" and len(parts) > 1 and parts[1] in EDGE_PARTS:
            bad.append(f"{module}:{line} imports {name} (an edge of the package, not the engine)")
    return bad


def test_engine_files_found() -> None:
    names = {module_name(f) for f in engine_files()}
    for required in ("fusegame", "fusegame.dice", "fusegame.rng", "fusegame.constraints",
                     "fusegame.cards.notation", "fusegame.rules.state"):
        assert required in names


@pytest.mark.parametrize("path", engine_files(), ids=lambda p: module_name(p))
def test_engine_module_imports_nothing_impure(path: Path) -> None:
    bad = violations(path.read_text("utf-8"), module_name(path), path.name == "__init__.py")
    assert not bad, "the engine must stay pure:\n" + "\n".join(bad)


def test_the_scanner_catches_every_import_form() -> None:
    src = textwrap.dedent("""
        import os, time
        from random import choice
        from fusegame.server import app
        def f():
            import asyncio.tasks
            __import__("socket")
            importlib.import_module("rich.console")
        from ..server import room
        from .. import tui
        from . import config
    """)
    bad = "\n".join(violations(src, "fusegame.rules.state"))
    for word in ("time", "random", "asyncio.tasks", "socket", "rich.console", "fusegame.server",
                 "fusegame.tui"):
        assert f"imports {word}" in bad, (word, bad)
    assert bad.count("imports fusegame.server (an edge") == 2  # absolute and relative
    assert "imports os" not in bad and "config" not in bad


def test_relative_imports_resolve() -> None:
    names = [n for n, _ in imports_of("from ..cards import model\nfrom .config import X\n",
                                      "fusegame.rules.state")]
    assert names == ["fusegame.cards", "fusegame.rules.config"]
    names = [n for n, _ in imports_of("from .state import X\n", "fusegame.rules", is_package=True)]
    assert names == ["fusegame.rules.state"]


def loaded_beyond(baseline: list[str], modules: list[str]) -> list[str]:
    """In a fresh interpreter: import ``baseline``, then ``modules``; the modules that the second
    step added to ``sys.modules``."""
    script = textwrap.dedent(f"""
        import importlib, json, sys
        for m in {baseline!r}:
            importlib.import_module(m)
        base = set(sys.modules)
        for m in {modules!r}:
            importlib.import_module(m)
        print(json.dumps(sorted(set(sys.modules) - base)))
    """)
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    return list(json.loads(res.stdout.strip().splitlines()[-1]))


def stdlib_submodules(source: str) -> set[str]:
    """The standard-library submodules taken by ``from package import module`` (``from importlib
    import resources`` takes ``importlib.resources``)."""
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and not node.level and node.module \
                and node.module.split(".")[0] in sys.stdlib_module_names:
            for alias in node.names:
                name = f"{node.module}.{alias.name}"
                with contextlib.suppress(ImportError, ValueError):
                    if importlib.util.find_spec(name) is not None:
                        out.add(name)
    return out


def engine_stdlib() -> list[str]:
    """The standard-library modules the engine imports on purpose (none of them forbidden), with
    the submodules it takes: what they load in turn is the standard library's business (for one,
    ``importlib.resources`` loads ``tempfile``, which loads ``random``, though the engine reads its
    packaged card data with it and never draws a random number)."""
    names = set()
    for f in engine_files():
        source = f.read_text("utf-8")
        names |= {n for n, _ in imports_of(source, module_name(f), f.name == "__init__.py")}
        names |= stdlib_submodules(source)
    return sorted({n for n in names if n.split(".")[0] in sys.stdlib_module_names
                   and n.split(".")[0] not in FORBIDDEN} - {"__future__"})


def test_importing_the_engine_loads_nothing_impure() -> None:
    stdlib = engine_stdlib()
    new = loaded_beyond(stdlib, sorted(module_name(f) for f in engine_files()))
    assert any(m.startswith("fusegame.rules") for m in new)
    bad = sorted(m for m in new if m.split(".")[0] in FORBIDDEN)
    assert not bad, f"importing the engine loads {bad} (beyond the standard modules it uses: {stdlib})"
    edges = sorted(m for m in new if m.startswith("fusegame.") and m.split(".")[1] in EDGE_PARTS)
    assert not edges, f"importing the engine loads edge modules {edges}"


def test_the_subprocess_check_would_notice() -> None:
    new = loaded_beyond(engine_stdlib(), ["fusegame.dice", "asyncio"])
    assert "asyncio" in new and "fusegame.dice" in new
