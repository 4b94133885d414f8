"""The browser's scripts as one set of ES modules: no import cycle between them, every import names a
module that exists, the page helpers (`$`, `fmt`, `toast`) defined once in static/site/page.js, and
every module loaded by a template as a module. The same spirit as test_architecture.py, for the JS."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[2]
NOT_SOURCE = {".venv", "staticfiles", "node_modules", "test-artifacts", ".git"}
PAGE_HELPERS = "site/page.js"
HELPERS = ("$", "fmt", "toast")

# import … from "x" / export … from "x" (over several lines), import "x", import("x")
IMPORT_FROM = re.compile(r"""^[ \t]*(?:import|export)\b[^;'"]*?\bfrom\s*["']([^"']+)["']""", re.M)
IMPORT_BARE = re.compile(r"""^[ \t]*import\s*["']([^"']+)["']""", re.M)
IMPORT_CALL = re.compile(r"""\bimport\(\s*["']([^"']+)["']\s*\)""")
NAME = r"(\$|fmt|toast)(?![\w$])"
DEFINITION = re.compile(rf"(?:\b(?:const|let|var)\s+{NAME}\s*=|\bfunction\s*{NAME}\s*\(|\bexport\s*\{{[^}}]*?(?<![\w$]){NAME}[^}}]*\}}(?!\s*from))")
SCRIPT_TAG = re.compile(r"""<script\b([^>]*)\bsrc="\{%\s*static(?:_url)?\s+['"]([^'"]+\.js)['"]\s*%\}"([^>]*)>""")


def source_files(root: Path, pattern: str) -> list[Path]:
    return sorted(path for top in root.iterdir() if top.is_dir() and top.name not in NOT_SOURCE
                  for path in top.rglob(pattern))


def static_modules(root: Path) -> dict[str, Path]:
    """Each script under a static/ folder by the path it is served at (after STATIC_URL)."""
    found: dict[str, Path] = {}
    for path in source_files(root, "*.js"):
        parts = path.relative_to(root).parts
        if "static" in parts:
            found["/".join(parts[parts.index("static") + 1:])] = path
    return found


def imports(text: str) -> list[str]:
    return [m.group(1) for rx in (IMPORT_FROM, IMPORT_BARE, IMPORT_CALL) for m in rx.finditer(text)]


def import_graph(modules: dict[str, Path]) -> tuple[nx.DiGraph, list[str]]:
    """The graph of served paths, and the imports that name no module of the set."""
    graph: nx.DiGraph = nx.DiGraph()
    unknown = []
    for url, path in modules.items():
        graph.add_node(url)
        for spec in imports(path.read_text()):
            if not spec.startswith("."):
                unknown.append(f"{url} imports {spec!r}: not a relative path to a module of the site")
                continue
            target = posixpath.normpath(posixpath.join(posixpath.dirname(url), spec))
            if target not in modules:
                unknown.append(f"{url} imports {spec!r}: no such module ({target})")
            graph.add_edge(url, target)
    return graph, unknown


def cycles(graph: nx.DiGraph) -> list[list[str]]:
    groups = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    return sorted(groups + [[n] for n in nx.nodes_with_selfloops(graph)])


def local_helpers(modules: dict[str, Path]) -> list[str]:
    """Definitions (or re-exports) of a page helper anywhere but static/site/page.js."""
    wrong = []
    for url, path in modules.items():
        if url == PAGE_HELPERS:
            continue
        text = path.read_text()
        for m in DEFINITION.finditer(text):
            name = next(g for g in m.groups() if g)
            line = text.count("\n", 0, m.start()) + 1
            wrong.append(f"{url}:{line} defines {name} (import it from static/{PAGE_HELPERS})")
    return wrong


def test_no_import_cycle_between_the_browser_modules():
    graph, _unknown = import_graph(static_modules(ROOT))
    found = cycles(graph)
    assert not found, "import cycles:\n" + "\n".join(" ↔ ".join(group) for group in found)


def test_every_import_names_a_module_of_the_site():
    _graph, unknown = import_graph(static_modules(ROOT))
    assert not unknown, "\n".join(unknown)


def test_the_page_helpers_are_defined_once_in_page_js():
    modules = static_modules(ROOT)
    assert PAGE_HELPERS in modules
    page = modules[PAGE_HELPERS].read_text()
    assert sorted({next(g for g in m.groups() if g) for m in DEFINITION.finditer(page)}) == sorted(HELPERS)
    wrong = local_helpers(modules)
    assert not wrong, "\n".join(wrong)


def test_every_module_a_template_loads_is_loaded_as_a_module():
    """A module loaded as a classic script fails on its first `import`; a classic script of the site
    (no import or export) may stay one."""
    modules = static_modules(ROOT)
    wrong = []
    for template in source_files(ROOT, "*.html"):
        for m in SCRIPT_TAG.finditer(template.read_text()):
            attrs, url = m.group(1) + m.group(3), m.group(2)
            source = modules.get(url)
            assert source is not None, f"{template.relative_to(ROOT)} loads {url}, which is not a script of the site"
            text = source.read_text()
            is_module = bool(imports(text)) or re.search(r"^\s*export\b", text, re.M)
            if is_module and 'type="module"' not in attrs:
                wrong.append(f"{template.relative_to(ROOT)} loads the module {url} as a classic script")
    assert not wrong, "\n".join(wrong)


def test_the_checks_catch_a_planted_cycle_and_a_local_helper(tmp_path):
    site = tmp_path / "static" / "site"
    game = tmp_path / "game" / "static" / "game"
    site.mkdir(parents=True)
    game.mkdir(parents=True)
    (site / "page.js").write_text("export const $ = (id) => document.getElementById(id);\n")
    (game / "view.js").write_text('import { $ } from "../site/page.js";\nimport {\n  line,\n} from "./log.js";\n')
    (game / "log.js").write_text("// import { x } from './gone.js';\nexport const line = () => import('./view.js');\n")
    (game / "clean.js").write_text('import "./view.js";\nconst fmt = (s) => s;\nexport { fmt };\n')
    (game / "cards.js").write_text("export function toast(t) {}\nconst $$ = 1;\nexport { label } from './view.js';\n")
    modules = static_modules(tmp_path)
    assert sorted(modules) == ["game/cards.js", "game/clean.js", "game/log.js", "game/view.js", "site/page.js"]
    graph, unknown = import_graph(modules)
    assert unknown == []  # the commented-out import is not read
    assert cycles(graph) == [["game/log.js", "game/view.js"]]  # the dynamic import counts
    assert local_helpers(modules) == [
        "game/cards.js:1 defines toast (import it from static/site/page.js)",
        "game/clean.js:2 defines fmt (import it from static/site/page.js)",
        "game/clean.js:3 defines fmt (import it from static/site/page.js)",
    ]
    (game / "clean.js").write_text('import "./gone.js";\n')
    assert import_graph(static_modules(tmp_path))[1] == ["game/clean.js imports './gone.js': no such module (game/gone.js)"]
