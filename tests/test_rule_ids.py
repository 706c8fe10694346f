"""Every rule ID cited in the project is defined in the rules reference, docs/rules.md.

**Definitions.** The reference defines an ID on a line that carries the anchor
``<a id="rule-SLUG"></a>`` next to the ID itself, as a heading (``### C.2.2 After the last bomb
<a id="rule-C-2-2"></a>``, ``## C. The turn <a id="rule-C"></a>``) or as a bold list item
(``1. <a id="rule-H-17-3"></a>**H-17.3** ...``). The slug is the ID with dots and spaces turned
into hyphens (``C.2 Step 3`` -> ``rule-C-2-step-3``), so the IDs can be linked as
``rules.md#rule-C-2-2``.

**Citations.** In the scanned files (``SCANNED``, the extensions in ``SUFFIXES``), these count:

* a dotted ID, ``[A-I].N(.N)*``: ``C.2``, ``C.2.2``, ``A.9.1``;
* a dashed ID, ``[A-Z]-NN(.N)`` with two digits and an optional item (and letter): ``G-28``,
  ``I-07``, ``H-17.6``, ``H-17.12b``; ``H-17.3/8/15`` cites H-17.3, H-17.8 and H-17.15;
* an ID followed by a step, ``C.2 Step 3`` or ``B.4 step 5``, which cites the step as well;
* a range, ``B.1-B.6``, ``B.3.2-B.5``, ``H-12 .. H-16``: both ends, and everything between when the
  ends differ only in their last number;
* after ``docs/rules.md`` (or ``RULES.md``, the specification the IDs come from), a list of IDs
  and section letters separated by commas, ``/``, "and", possibly with a gloss in brackets after
  an item and running on over comment lines: ``docs/rules.md A.9,\\nB, F, G``, ``docs/rules.md
  E)``, ``docs/rules.md H: ...``. Its bare letters cite sections.

An ID is a whole token: not after a letter, digit or dot, and not followed by a letter, digit or
``.digit``. So ``3.11``, ``v1.2``, ``K3``, ``Y4``, ``K/Y3``, ``S1/L1``, ``UTF-8`` and ``R-1`` are
not citations, and neither is a dotted name such as ``x.A.1``. The reference itself and this file
are not scanned.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "docs" / "rules.md"
#: the folders whose files are checked (those that do not exist are skipped)
SCANNED = ("src", "tests", "bench", "research", "scripts", "examples", "docs", "README.md")
SUFFIXES = {".py", ".js", ".toml", ".html", ".md"}
#: never scanned: the reference defines the IDs, this file quotes examples of the grammar
SKIPPED = {REFERENCE, Path(__file__).resolve()}
SKIPPED_DIRS = {"__pycache__", "node_modules", ".venv", "site", "build", "dist"}

DOT = r"[A-I]\.\d{1,2}(?:\.\d{1,2})*"
DASH = r"[A-Z]-\d{2}(?:\.\d{1,2}[a-z]?)?"
ID = rf"(?:{DOT}|{DASH})"
#: a whole-token ID, with an optional step and ``/N`` siblings of its last number
CITED = re.compile(
    rf"(?<![\w.])(?P<id>{ID})(?![\w]|\.\d)(?P<siblings>(?:/\d{{1,2}}[a-z]?(?![\w.]))*)"
    rf"(?:\s+(?P<step>[Ss]tep)\s+(?P<n>\d{{1,2}})\b)?"
)
RANGE = re.compile(rf"(?<![\w.])(?P<lo>{ID})\s*(?:\.\.|-|–|—|\bto\b)\s*(?P<hi>{ID})(?![\w]|\.\d)")
MARKER = re.compile(r"(?:docs/rules\.md|\bRULES\.md)(?:'s)?")
#: one item of the list after a marker: an ID (with a step) or a section letter
ITEM = re.compile(rf"(?P<id>{ID})(?:\s+[Ss]tep\s+\d{{1,2}})?(?![\w]|\.\d)|(?P<section>[A-I])(?![\w-]|\.\d)")
#: what may follow an item before the separator: a step, a gloss in brackets, [REC], #25, a range end
GLOSS = re.compile(r"(?:\s*(?:\([^()]*\)|\[[^\]]*\]|#\d+(?:-\d+)?|(?:\.\.|-|–)\s*(?:" + ID + r")))*")
#: a separator, running on over a line break and the next line's comment marker
SEPARATOR = re.compile(r"\s*(?:,|;|/|\band\b|\bor\b)(?:\s*\n\s*(?:#:?|//|\*|--)?)?\s*")
FIRST = re.compile(r"\s+")

#: a definition line of the reference: its anchor and the ID it names
ANCHOR = re.compile(r'<a id="rule-(?P<slug>[A-Za-z0-9-]+)"></a>')
DEFINED = re.compile(
    r"^(?:#{1,6}\s+|\s*(?:[-*]|\d+\.)\s+<a id=\"rule-[A-Za-z0-9-]+\"></a>\*\*)"
    rf"(?P<id>(?:{DOT}|0\.\d)(?:\s+[Ss]tep\s+\d{{1,2}})?|{DASH}|[A-I0](?=\.\s))"
)


def slug(rule_id: str) -> str:
    """The anchor of an ID: ``C.2 Step 3`` -> ``rule-C-2-step-3``."""
    return "rule-" + re.sub(r"[.\s]+", "-", normal(rule_id))


def normal(rule_id: str) -> str:
    """One spelling per ID: steps are written ``step``."""
    return re.sub(r"\s+[Ss]tep\s+", " step ", rule_id.strip())


# ---------------------------------------------------------------------------------- the reference
def definitions(text: str) -> list[tuple[int, str, str]]:
    """``(line, ID, anchor slug)`` for every definition in the reference."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        anchor = ANCHOR.search(line)
        if anchor is None:
            continue
        m = DEFINED.match(line)
        assert m, f"docs/rules.md:{n}: an anchor on a line that defines no ID: {line.strip()}"
        out.append((n, normal(m["id"]), "rule-" + anchor["slug"]))
    return out


@pytest.fixture(scope="module")
def reference() -> list[tuple[int, str, str]]:
    return definitions(REFERENCE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def defined(reference: list[tuple[int, str, str]]) -> set[str]:
    return {rule_id for _, rule_id, _ in reference}


# ------------------------------------------------------------------------------------ citations
def _siblings(rule_id: str, tail: str) -> list[str]:
    """``H-17.3`` with ``/8/15`` -> ``H-17.8``, ``H-17.15``."""
    stem = re.sub(r"\d{1,2}[a-z]?$", "", rule_id)
    return [stem + n for n in tail.split("/") if n]


def _between(lo: str, hi: str) -> list[str]:
    """The IDs strictly between the ends of a range whose ends differ only in their last number."""
    a, b = re.fullmatch(r"(.*?)(\d+)", lo), re.fullmatch(r"(.*?)(\d+)", hi)
    if a is None or b is None or a[1] != b[1] or int(a[2]) >= int(b[2]):
        return []
    width = len(a[2]) if a[1].endswith("-") else 0  # G-01: two digits
    return [f"{a[1]}{k:0{width}d}" for k in range(int(a[2]) + 1, int(b[2]))]


def citations(text: str) -> list[tuple[int, str, str]]:
    """``(line, kind, ID)`` for every citation in ``text``; kind is ``id`` or ``section``."""
    starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line_of(pos: int) -> int:
        lo, hi = 0, len(starts)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if starts[mid] <= pos else (lo, mid)
        return lo + 1

    out: list[tuple[int, str, str]] = []
    for m in CITED.finditer(text):
        n = line_of(m.start())
        out.append((n, "id", m["id"]))
        out += [(n, "id", s) for s in _siblings(m["id"], m["siblings"])]
        if m["step"]:
            out.append((n, "id", normal(f"{m['id']} step {m['n']}")))
    for m in RANGE.finditer(text):
        out += [(line_of(m.start()), "id", s) for s in _between(m["lo"], m["hi"])]
    for m in MARKER.finditer(text):
        pos = m.end()
        gap = FIRST.match(text, pos)
        if gap is None:
            continue
        pos = gap.end()
        while True:
            item = ITEM.match(text, pos)
            if item is None:
                break
            if item["section"]:
                out.append((line_of(item.start()), "section", item["section"]))
            pos = GLOSS.match(text, item.end()).end()  # type: ignore[union-attr]
            sep = SEPARATOR.match(text, pos)
            if sep is None:
                break
            pos = sep.end()
    return out


def scanned_files() -> list[Path]:
    out = []
    for top in SCANNED:
        base = ROOT / top
        for p in sorted(base.rglob("*")) if base.is_dir() else [base]:
            if (p.suffix in SUFFIXES and p.is_file() and p.resolve() not in SKIPPED
                    and not SKIPPED_DIRS & set(p.relative_to(ROOT).parts)):
                out.append(p)
    return out


@pytest.fixture(scope="module")
def cited() -> list[tuple[str, int, str, str]]:
    """``(file, line, kind, ID)`` over the scanned files."""
    out = []
    for p in scanned_files():
        text = p.read_text(encoding="utf-8", errors="replace")
        rel = p.relative_to(ROOT).as_posix()
        out += [(rel, n, kind, rule_id) for n, kind, rule_id in citations(text)]
    return out


# -------------------------------------------------------------------------------------- the tests
def test_the_reference_defines_the_rules(reference: list[tuple[int, str, str]], defined: set[str]) -> None:
    """The definitions are found, so the other tests cannot pass by finding none."""
    assert len(reference) >= 200, f"only {len(reference)} definitions parsed in docs/rules.md"
    assert set("ABCDEFGHI") <= defined  # the sections
    for rule_id in ("A.9.2", "B.3.4", "B.4 step 5", "C.2 Step 3", "C.2.2", "D.6.4", "E.3", "F.4",
                    "G-01", "G-28", "G-53", "H-01", "H-17", "H-17.12b", "I-11", "I-24"):
        assert normal(rule_id) in defined, rule_id


def test_each_rule_is_defined_once_under_its_own_anchor(reference: list[tuple[int, str, str]]) -> None:
    ids = Counter(rule_id for _, rule_id, _ in reference)
    slugs = Counter(s for _, _, s in reference)
    assert not [i for i, k in ids.items() if k > 1], "IDs defined twice"
    assert not [s for s, k in slugs.items() if k > 1], "anchors used twice"
    wrong = [f"docs/rules.md:{n}: {rule_id} has anchor {s}, expected {slug(rule_id)}"
             for n, rule_id, s in reference if s != slug(rule_id)]
    assert not wrong, "\n".join(wrong)


def test_numbered_rules_have_no_gaps(defined: set[str]) -> None:
    """Under each parent the items run 1, 2, 3, ... (G-01 to G-53, A.1 to A.10, B.4 step 1 to 8)."""
    children: dict[str, set[int]] = defaultdict(set)
    for rule_id in defined:
        m = re.fullmatch(r"(.*?[.\- ])(\d+)[a-z]?", rule_id)
        if m:
            children[m[1]].add(int(m[2]))
    gaps = {parent: sorted(set(range(1, max(ns) + 1)) - ns) for parent, ns in children.items()
            if set(range(1, max(ns) + 1)) - ns}
    assert not gaps, f"missing numbers: {gaps}"
    assert max(children["G-"]) == 53 and max(children["H-"]) == 17 and max(children["I-"]) == 24


def test_links_inside_the_reference_resolve(reference: list[tuple[int, str, str]]) -> None:
    text = REFERENCE.read_text(encoding="utf-8")
    anchors = {s for _, _, s in reference} | set(re.findall(r'<a id="([^"]+)"></a>', text))
    heading_slugs = {"readings-this-project-chose"}
    broken = sorted({t for t in re.findall(r"\]\(#([^)]+)\)", text) if t not in anchors | heading_slugs})
    assert not broken, f"links to missing anchors: {broken}"


def test_cited_rule_ids_are_defined(cited: list[tuple[str, int, str, str]], defined: set[str]) -> None:
    missing = [f"{f}:{n}: {rule_id}" for f, n, kind, rule_id in cited
               if kind == "id" and normal(rule_id) not in defined]
    assert not missing, "cited but not defined in docs/rules.md:\n" + "\n".join(missing)


def test_cited_sections_are_defined(cited: list[tuple[str, int, str, str]], defined: set[str]) -> None:
    missing = [f"{f}:{n}: section {s}" for f, n, kind, s in cited if kind == "section" and s not in defined]
    assert not missing, "cited but not defined in docs/rules.md:\n" + "\n".join(missing)


def test_the_scan_finds_citations(cited: list[tuple[str, int, str, str]]) -> None:
    """The citations are found (so a broken scan cannot pass), in the engine and in its tests."""
    files = {f for f, *_ in cited}
    assert len(cited) >= 300 and len(files) >= 40, (len(cited), len(files))
    assert any(f.startswith("src/fusegame/rules/") for f in files)
    assert any(f.startswith("tests/rules/") for f in files)
    assert any(kind == "section" for _, _, kind, _ in cited)


# ---------------------------------------------------------------------------------- the grammar
def _ids(text: str) -> list[tuple[str, str]]:
    return sorted({(kind, rule_id) for _, kind, rule_id in citations(text)})


@pytest.mark.parametrize(("text", "expected"), [
    ("(docs/rules.md C.2.2, E)", [("id", "C.2.2"), ("section", "E")]),
    ("docs/rules.md A.9,\nB, F, G).", [("id", "A.9"), ("section", "B"), ("section", "F"), ("section", "G")]),
    ("# docs/rules.md A.9.2 (3 players, Expert: 29), B.4 (hands of 2, a row of 5),\n"
     "# the spark deck), B.5 (1 to 10)",
     [("id", "A.9.2"), ("id", "B.4"), ("id", "B.5")]),
    ("(quota 3, docs/rules.md H: \"use a 1-2 player game\")", [("section", "H")]),
    ("docs/rules.md's worked examples (H-01 .. H-04)",
     [("id", "H-01"), ("id", "H-02"), ("id", "H-03"), ("id", "H-04")]),
    ("(docs/rules.md B.1-B.3, F)", [("id", "B.1"), ("id", "B.2"), ("id", "B.3"), ("section", "F")]),
    ("docs/rules.md A.9.2, B.3.2-B.5, C.2", [("id", "A.9.2"), ("id", "B.3.2"), ("id", "B.5"), ("id", "C.2")]),
    ("G-38, G-43, H-17.3/8/15)", [("id", "G-38"), ("id", "G-43"), ("id", "H-17.15"), ("id", "H-17.3"),
                                  ("id", "H-17.8")]),
    ("# D.9 / H-17.12b: a die", [("id", "D.9"), ("id", "H-17.12b")]),
    ("(docs/rules.md C.2 Step 4, F.2)", [("id", "C.2"), ("id", "C.2 step 4"), ("id", "F.2")]),
    ("B.4 step 1, F.2:", [("id", "B.4"), ("id", "B.4 step 1"), ("id", "F.2")]),
    ("(D.2 #25, #29-30)", [("id", "D.2")]),
    ("the rules specification's reading G-39,", [("id", "G-39")]),
    ("(RULES.md I)", [("section", "I")]),
    # not citations
    ("Python 3.11, v1.2.3, version 0.4.1", []),
    ("dice K3, Y4, K/Y3, R/B and slots S1/L1", []),
    ("UTF-8 JSON, 2^R-1, FNV-1a", []),
    ("x.A.1 and A.1b and E.1x", []),
    ("docs/rules.md writes S1/L1 for slot 0", []),
])
def test_citation_grammar(text: str, expected: list[tuple[str, str]]) -> None:
    assert _ids(text) == sorted(expected)
