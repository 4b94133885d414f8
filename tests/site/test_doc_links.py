"""The documents hold together: every link between them reaches a file, every anchor a citation
names exists (code cites rules as ``docs/RULES.md#transfer``), and nothing points outside the
repository."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", ROOT / "game" / "engine" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CODE_DIRS = ("accounts", "analysis", "chat", "durak_site", "game", "lobby", "ratings", "social", "tests",
             "templates", "static", "scripts", "docker", ".ci")
CODE_SUFFIXES = {".py", ".js", ".html", ".css", ".md", ""}
LINK = re.compile(r"\]\(([^)\s]+)\)")
CITATION = re.compile(r"docs/([A-Za-z-]+\.md)#([a-z0-9-]+)")


def _anchors(path: Path) -> set[str]:
    """Explicit `<a id="…">` anchors and GitHub's heading slugs."""
    text = path.read_text(encoding="utf-8")
    found = set(re.findall(r'<a id="([^"]+)"', text))
    for heading in re.findall(r"^#+ (.+)$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        found.add(slug)
    return found


def _code_files():
    for top in CODE_DIRS:
        for path in (ROOT / top).rglob("*"):
            if path.is_file() and path.suffix in CODE_SUFFIXES and "locale" not in path.parts:
                yield path


def test_every_link_in_the_documents_reaches_a_file_and_its_anchor():
    broken = []
    for doc in DOCS:
        for target in LINK.findall(doc.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):
                continue
            file_part, _, anchor = target.partition("#")
            path = (doc.parent / file_part).resolve() if file_part else doc
            if not path.exists():
                broken.append(f"{doc.relative_to(ROOT)}: {target}")
            elif anchor and path.suffix == ".md" and anchor not in _anchors(path):
                broken.append(f"{doc.relative_to(ROOT)}: {target} (no such anchor)")
    assert broken == []


def test_every_cited_anchor_exists():
    """A citation such as ``docs/RULES.md#transfer`` in code, tests or documents names a real anchor."""
    anchors = {p.name: _anchors(p) for p in (ROOT / "docs").glob("*.md")}
    missing = []
    for path in [*_code_files(), *DOCS]:
        for name, anchor in CITATION.findall(path.read_text(encoding="utf-8", errors="replace")):
            if anchor not in anchors.get(name, set()):
                missing.append(f"{path.relative_to(ROOT)}: docs/{name}#{anchor}")
    assert missing == []


def test_nothing_points_outside_the_repository():
    outside = []
    for path in [*_code_files(), *DOCS]:
        if path == Path(__file__):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for pattern in ("rules-sources", "shared/DESIGN", "DESIGN.md", "/work/"):
            if pattern in text:
                outside.append(f"{path.relative_to(ROOT)}: {pattern}")
    assert outside == []


# Words that tell how the code was made rather than what it does: a ticket, a run, a machine.
MACHINE = "b" + "ox"  # (spelt apart, so this pattern does not match itself)
HISTORY = re.compile(rf"\bissue #?\d|\bthis {MACHINE}\b|\bsession \d+'s\b|'s {MACHINE}\b|"
                     rf"\bthe \d+(st|nd|rd|th) {MACHINE}\b|\bre-measured\b", re.IGNORECASE)


def test_the_repository_speaks_about_the_project_only():
    """No ticket numbers and no story of which run on which machine produced a figure: a test says
    the behaviour, a figure says its command, conditions and date (docs/benchmarks.md)."""
    found = []
    for path in [*_code_files(), *DOCS]:
        if path == Path(__file__):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if HISTORY.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:80]}")
    assert found == []
