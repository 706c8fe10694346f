"""The README and docs/: every link between them leads somewhere.

The bots' record moved from the README to docs/bots.md, and the two link to each other's sections
by anchor; a heading renamed or moved would leave a reader at the top of a long page.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation but ``-`` and ``_`` dropped,
    spaces turned to hyphens."""
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


def test_the_pages_link_to_each_other() -> None:
    # the split is only worth keeping if the README still leads into docs/bots.md and back
    readme = links(ROOT / "README.md")
    bots = links(ROOT / "docs" / "bots.md")
    assert sum(t.startswith("docs/bots.md#") for t in readme) >= 10
    assert any(t.startswith("../README.md#") for t in bots)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_link_leads_to_a_file_and_a_section_that_exist(page: Path) -> None:
    broken = []
    for target in links(page):
        path, _, fragment = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif fragment and dest.suffix == ".md" and fragment not in anchors(dest):
            broken.append(f"{target}: no such section")
    assert not broken, f"{page.name}: " + "; ".join(broken)


def test_a_heading_gets_the_anchor_github_gives_it() -> None:
    assert slug("Looking past the roll: `--policy search`") == "looking-past-the-roll---policy-search"
    assert slug("The team's cover of the dice") == "the-teams-cover-of-the-dice"
    assert slug("Open to the public: bad input, request rates, origins") == (
        "open-to-the-public-bad-input-request-rates-origins")
