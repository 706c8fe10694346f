"""The write-ups in research/: every link in them leads to a file and a section that exist, and every
study script and write-up is in the index (research/README.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from doclinks import broken_links, slug

RESEARCH = Path(__file__).resolve().parents[1]
PAGES = sorted(RESEARCH.glob("*.md"))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_link_leads_to_a_file_and_a_section_that_exist(page: Path) -> None:
    broken = broken_links(page)
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
