"""The README, the front door, and docs/, the site built from it: what a newcomer reads first works.

The README is short and its Python example runs as written; every link in it and in the pages
leads to a file and a section that exist; every page of docs/ is in the site's navigation, so a
reader can reach it from the home page (``mkdocs build --strict`` in .ci/run checks the built
site's links and anchors as MkDocs makes them).
"""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest
import yaml

from doclinks import broken_links, links, slug

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def test_the_readme_is_a_front_door() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 300
    # the two commands that do everything on a fresh machine come first
    first_block = text.split("```", 2)[1]
    assert "pip install -e . && fuse serve" in first_block and "bash .ci/run" in first_block
    assert max(len(line) for line in text.splitlines() if not line.startswith("|")) <= 160


def test_the_readme_python_example_runs_as_written() -> None:
    failures, tried = doctest.testfile(str(ROOT / "README.md"), module_relative=False,
                                       optionflags=doctest.ELLIPSIS)
    assert tried >= 8
    assert failures == 0


def nav_pages(entries: object) -> set[str]:
    """Every page the site's navigation names, however deep."""
    found: set[str] = set()
    if isinstance(entries, str):
        found.add(entries)
    elif isinstance(entries, list):
        for e in entries:
            found |= nav_pages(e)
    elif isinstance(entries, dict):
        for v in entries.values():
            found |= nav_pages(v)
    return found


def test_every_page_is_reachable_from_the_home_page() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    nav = nav_pages(config["nav"])
    pages = {str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md")}
    assert pages - nav == set(), "pages missing from mkdocs.yml's nav"
    assert nav - pages == set(), "nav entries with no page"
    # the home page itself links every page, not only the navigation beside it
    linked = {t.partition("#")[0] for t in links(ROOT / "docs" / "index.md")}
    assert pages - {"index.md"} - linked == set(), "pages the home page does not link"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_leads_to_a_file_and_a_section_that_exist(page: Path) -> None:
    broken = broken_links(page)
    assert not broken, f"{page.name}: " + "; ".join(broken)


def test_a_heading_gets_the_anchor_github_gives_it() -> None:
    assert slug("Looking past the roll: `--policy search`") == "looking-past-the-roll---policy-search"
    assert slug("The team's cover of the dice") == "the-teams-cover-of-the-dice"
    assert slug('Readings this project chose <a id="rules-decisions"></a>') == "readings-this-project-chose"
    assert slug("Open to the public: bad input, request rates, origins") == (
        "open-to-the-public-bad-input-request-rates-origins")
