"""Golden files: perft-style legal-action counts and one recorded playthrough, compared line by line.

The expected text lives in tests/golden/; scripts/regen_golden.py makes it (this test imports the
same generator, so the two can never drift apart). When a change of behaviour is intended, rerun
``python scripts/regen_golden.py`` and review the diff.
"""

from __future__ import annotations

import difflib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from fusegame.rules import Action, new_game

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"


def _load_regen() -> ModuleType:
    spec = importlib.util.spec_from_file_location("regen_golden", ROOT / "scripts" / "regen_golden.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("regen_golden", mod)
    spec.loader.exec_module(mod)
    return mod


regen = _load_regen()
FILES = ("legal_counts.txt", "playthrough_3p_standard.txt", "playthroughs_by_game.txt")


def compare(name: str, expected: str, actual: str) -> str | None:
    """None when equal, else a message naming the first differing line and showing a short diff."""
    if expected == actual:
        return None
    exp, act = expected.splitlines(), actual.splitlines()
    first = next((i for i, (e, a) in enumerate(zip(exp, act)) if e != a), min(len(exp), len(act)))
    msg = [f"tests/golden/{name} differs from what the engine does now, first at line {first + 1}:",
           f"  golden: {exp[first] if first < len(exp) else '<end of file>'}",
           f"  now:    {act[first] if first < len(act) else '<end of file>'}"]
    if exp[1:2] != act[1:2] and len(exp) > 1 and len(act) > 1 and "catalogue" in exp[1]:
        msg.append("  (the card catalogue changed: the golden file was made with another deck)")
    if len(exp) != len(act):
        msg.append(f"  ({len(exp)} lines in the golden file, {len(act)} now)")
    diff = list(difflib.unified_diff(exp, act, "golden", "now", n=2, lineterm=""))
    msg.append("diff (first 40 lines):")
    msg += ["  " + d for d in diff[:40]]
    msg.append("If the change is intended, run `python scripts/regen_golden.py` and review the diff.")
    return "\n".join(msg)


@pytest.fixture(scope="module")
def current() -> dict[str, str]:
    return regen.golden_files()


@pytest.mark.parametrize("name", FILES)
def test_golden_file(name: str, current: dict[str, str]) -> None:
    path = GOLDEN / name
    assert path.exists(), f"missing tests/golden/{name}: run `python scripts/regen_golden.py`"
    problem = compare(name, path.read_text("utf-8"), current[name])
    assert problem is None, problem


def test_regen_covers_every_golden_file(current: dict[str, str]) -> None:
    on_disk = {p.name for p in GOLDEN.glob("*.txt")}
    assert on_disk == set(current) == set(FILES)


def test_recorded_playthrough_replays_from_new_game() -> None:
    """The playthrough starts with ``chance=False`` + ``sample_chance``; replaying its actions on a
    plain ``new_game`` must reach the same final state (and the action lines parse back)."""
    config, actions, _ = regen.play_3p_standard()
    g = new_game(config, regen.PLAYTHROUGH_SEED)
    for a in actions:
        assert Action.parse(str(a)) == a
        g.apply(a)
    assert g.is_over
    g2 = new_game(config, regen.PLAYTHROUGH_SEED, chance=False)
    g2.sample_chance()
    for a in actions:
        g2.apply(a)
    assert g2 == g


def test_golden_action_lines_parse() -> None:
    """Every '> action' line of the recorded playthrough is valid action text."""
    lines = (GOLDEN / "playthrough_3p_standard.txt").read_text("utf-8").splitlines()
    acts = [ln[2:] for ln in lines if ln.startswith("> ")]
    assert acts
    for text in acts:
        assert str(Action.parse(text)) == text


def test_compare_message_is_helpful() -> None:
    msg = compare("x.txt", "# t\n# catalogue A\na\nb\nc\n", "# t\n# catalogue B\na\nB\nc\n")
    assert msg is not None
    assert "first at line 2" in msg and "catalogue changed" in msg and "regen_golden.py" in msg
    assert "-b" in msg and "+B" in msg
    assert compare("x.txt", "same\n", "same\n") is None
