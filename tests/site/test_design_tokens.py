"""One set of design tokens: colours are named once, in static/css/site.css's :root, and
every other stylesheet (each app's, and static/css/cards.css) uses them through var(--…). A colour
written as a literal anywhere else is a colour that the next restyle will miss."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOKENS = ROOT / "static" / "css" / "site.css"

COMMENT = re.compile(r"/\*.*?\*/", re.S)
# a declaration's value: after "prop:" up to ";" or "}" (selectors end in "{" and never match)
DECLARATION = re.compile(r"(?<![\w-])([\w-]+)\s*:\s*([^;{}]+)(?=[;}])")
HEX = re.compile(r"#[0-9a-fA-F]{3,8}\b")
COLOUR_FUNCTION = re.compile(r"\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\(\s*(?!var\()[^)]*\d")
NAMED = re.compile(r"(?<![\w-])(white|black|red|green|blue|yellow|orange|gray|grey|silver|maroon|navy|purple"
                   r"|pink|gold|brown|teal|olive|lime|aqua|fuchsia)(?![\w-])", re.I)


def stylesheets() -> list[Path]:
    """Every stylesheet of the site except the one that defines the tokens."""
    found = [*ROOT.glob("static/css/*.css"), *ROOT.glob("*/static/**/*.css")]
    return sorted(p for p in found if p != TOKENS and ".venv" not in p.parts and "staticfiles" not in p.parts)


def colour_literals(css: str) -> list[str]:
    found = []
    for prop, value in DECLARATION.findall(COMMENT.sub("", css)):
        for pattern in (HEX, COLOUR_FUNCTION, NAMED):
            found += [f"{prop}: {m.group(0)}" for m in pattern.finditer(value)]
    return found


def test_the_checker_finds_each_kind_of_literal():
    css = """.a { color: #fff; } .b:hover { background: rgba(0, 0, 0, .3) } .c { border: 1px solid white; }
             #deadbe { color: var(--ink); white-space: nowrap; box-shadow: 0 0 4px rgb(var(--shade-rgb) / .3); }
             .d { --local: #123456; } /* #abcdef in a comment */"""
    assert colour_literals(css) == ["color: #fff", "background: rgba(0, 0, 0, .3", "border: white",
                                    "--local: #123456"]


def test_no_stylesheet_but_site_css_writes_a_colour():
    sheets = stylesheets()
    assert {p.name for p in sheets} >= {"cards.css", "lobby.css", "table.css", "ratings.css", "chat.css"}
    problems = {str(p.relative_to(ROOT)): found for p in sheets if (found := colour_literals(p.read_text()))}
    assert not problems, problems


def test_every_variable_used_is_defined():
    """A var(--name) nobody defines silently falls back (var(--accent, #e0a526) hid a missing token):
    a name must come from site.css, its own sheet, or a script or template that sets it (--i, --r)."""
    defined = set(re.findall(r"(--[\w-]+)\s*:", TOKENS.read_text()))
    for sheet in stylesheets():
        defined |= set(re.findall(r"(--[\w-]+)\s*:", sheet.read_text()))
    for js in ROOT.glob("*/static/**/*.js"):
        defined |= set(re.findall(r"setProperty\(\s*[\"'](--[\w-]+)", js.read_text()))
    for html in [*ROOT.glob("templates/**/*.html"), *ROOT.glob("*/templates/**/*.html")]:
        defined |= set(re.findall(r"(--[\w-]+)\s*:", html.read_text()))
    for sheet in stylesheets():
        missing = set(re.findall(r"var\((--[\w-]+)", COMMENT.sub("", sheet.read_text()))) - defined
        assert not missing, (sheet.name, missing)
