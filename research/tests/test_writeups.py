"""The write-ups in research/: every link in them leads to a file and a section that exist, and every
study script and write-up is in the index (research/README.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

RESEARCH = Path(__file__).resolve().parents[1]
PAGES = sorted(RESEARCH.glob("*.md"))
LINK = re.compile(r"\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it (as tests/test_docs.py reads the product's pages)."""
    text = re.sub(r"[^\w\- ]", "", heading.replace("`", "").strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors a page offers: its headings (a repeated one numbered) and its ``<a id>``s."""
    text = page.read_text(encoding="utf-8")
    found = set(re.findall(r'<a id="([^"]+)"', text))
    seen: dict[str, int] = {}
    in_code = False
    for line in text.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        m = None if in_code else re.match(r"^#{1,6} (.*)", line)
        if m:
            s = slug(m.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            found.add(s if n == 0 else f"{s}-{n}")
    return found


def links(page: Path) -> list[str]:
    text = page.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # code blocks hold no links
    return [t for t in LINK.findall(text) if not t.startswith(("http://", "https://", "mailto:"))]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_link_leads_to_a_file_and_a_section_that_exist(page: Path) -> None:
    broken = []
    for target in links(page):
        path, _, fragment = target.partition("#")
        if path.startswith("/"):
            broken.append(f"{target}: links are relative to the page")
            continue
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif fragment and dest.suffix == ".md" and fragment not in anchors(dest):
            broken.append(f"{target}: no such section")
    assert not broken, f"{page.name}: " + "; ".join(broken)


def test_the_index_names_every_study_and_write_up() -> None:
    index = (RESEARCH / "README.md").read_text(encoding="utf-8")
    studies = [p for p in sorted((RESEARCH / "studies").glob("*.py"))]
    missing = [f"studies/{p.name}" for p in studies if f"studies/{p.name}" not in index]
    missing += [p.name for p in PAGES if p.name != "README.md" and f"]({p.name})" not in index]
    assert not missing, f"research/README.md does not name {', '.join(missing)}"


def test_a_heading_gets_the_anchor_github_gives_it() -> None:
    assert slug("The roll-out search: `rollout`") == "the-roll-out-search-rollout"
    assert slug("The team's cover of the dice") == "the-teams-cover-of-the-dice"
