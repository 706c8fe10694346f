"""Links between Markdown pages, read as GitHub renders them: the anchors a page offers, the links
it makes, and those that lead nowhere. The product's pages (``tests/test_docs.py``) and the studies'
write-ups (``research/tests/test_writeups.py``) are checked with it."""

from __future__ import annotations

import re
from pathlib import Path

LINK = re.compile(r"\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation but ``-`` and ``_`` dropped,
    spaces turned to hyphens."""
    heading = re.sub(r"<[^>]+>", "", heading)  # an anchor in a heading is not part of its text
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


def broken_links(page: Path) -> list[str]:
    """Each link of ``page`` that leads to no file, or to no section of a Markdown page, with why."""
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
    return broken
