"""The dependency direction of docs/ARCHITECTURE.md, checked on every module's imports.

Calls go down (ratings → game → lobby → accounts); news goes up by signals and hooks. A module
that imports an app above its own, a cycle between any modules (of one app too), or an import
guarded against a part of the project "not written yet" fails here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounts", "lobby", "game", "ratings", "analysis", "social", "tournaments", "chat", "letters",
        "notifications")
# what each layer may import besides itself (game.engine is its own layer: a pure library)
ALLOWED: dict[str, set[str]] = {
    "game.engine": set(),
    "durak_site": set(),
    "accounts": {"durak_site"},
    "lobby": {"durak_site", "accounts", "game.engine"},
    "game": {"durak_site", "accounts", "lobby", "game.engine"},
    "ratings": {"durak_site", "accounts", "lobby", "game", "game.engine"},
    "analysis": {"durak_site", "accounts", "lobby", "game", "game.engine", "ratings"},
    "social": {"durak_site", "accounts", "lobby", "game", "ratings", "game.engine"},
    "tournaments": {"durak_site", "accounts", "lobby", "game", "ratings", "social", "game.engine"},
    "chat": {"durak_site", "accounts", "lobby", "game", "ratings", "social", "tournaments", "game.engine"},
    "letters": {"durak_site", "accounts", "lobby", "game", "ratings", "social", "tournaments", "chat", "game.engine"},
    "notifications": {"durak_site", "accounts", "lobby", "game", "ratings", "analysis", "social", "game.engine"},
}
# the wiring modules: they put every app together, so they may import any of them
WIRING = {"durak_site/urls.py", "durak_site/routing.py", "durak_site/asgi.py"}


def _layer(module: str) -> str | None:
    if module == "game.engine" or module.startswith("game.engine."):
        return "game.engine"
    top = module.split(".")[0]
    return top if top in (*APPS, "durak_site") else None


def _modules():
    for layer in (*APPS, "durak_site"):
        for path in (ROOT / layer).rglob("*.py"):
            rel = path.relative_to(ROOT).as_posix()
            if "/migrations/" in rel or rel in WIRING:
                continue
            yield rel, _layer(rel[:-3].replace("/", ".")), ast.parse(path.read_text(), rel)


def _imports(tree: ast.AST, package: str):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: within the module's own package
                yield node, package
            elif node.module:
                yield node, node.module
                for alias in node.names:
                    yield node, f"{node.module}.{alias.name}"


def test_every_import_goes_down_the_layers():
    wrong = []
    for rel, layer, tree in _modules():
        package = rel.rsplit("/", 1)[0].replace("/", ".")
        for node, name in _imports(tree, package):
            target = _layer(name)
            if target is None or target == layer:
                continue
            if target not in ALLOWED[layer]:
                wrong.append(f"{rel}:{node.lineno} ({layer}) imports {name} ({target})")
    assert not wrong, "imports against docs/ARCHITECTURE.md:\n" + "\n".join(sorted(set(wrong)))


def test_no_import_is_guarded_against_a_missing_part_of_the_project():
    guarded = []
    for rel, _layer_name, tree in _modules():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Try):
                continue
            catches_import_error = any(
                isinstance(h.type, ast.Name) and h.type.id in ("ImportError", "ModuleNotFoundError")
                for h in node.handlers)
            project_import = any(
                _layer(name) is not None
                for stmt in node.body for _n, name in _imports(ast.Module(body=[stmt], type_ignores=[]), ""))
            if catches_import_error and project_import:
                guarded.append(f"{rel}:{node.lineno}")
    assert not guarded, "imports of the project guarded by try/except ImportError:\n" + "\n".join(guarded)


def test_no_getattr_guard_looks_up_a_project_module():
    """`getattr(module, "name", None)` on a module of the project hides a rename until run time."""
    guarded = []
    for rel, _layer_name, tree in _modules():
        imported = {alias.asname or alias.name.split(".")[0]
                    for node in ast.walk(tree) if isinstance(node, ast.ImportFrom | ast.Import)
                    for alias in node.names
                    if _layer(getattr(node, "module", None) or alias.name) is not None}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr")
                    and node.args and isinstance(node.args[0], ast.Name) and node.args[0].id in imported):
                guarded.append(f"{rel}:{node.lineno} {node.func.id}({node.args[0].id}, …)")
    assert not guarded, "\n".join(guarded)


# ---------------------------------------------------------------------------- cycles between modules


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _runtime_imports(tree: ast.AST):
    """Every import statement run at some point (module level or inside a function: a deferred import
    only hides a cycle until run time), except those under ``if TYPE_CHECKING:``, which never run."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def import_graph(root: Path, files: list[Path]) -> dict[str, set[str]]:
    """module → the modules of ``files`` it imports: ``from a.b import c`` names a.b.c when that is a
    module, else a.b (a package's ``__init__``); relative imports resolved against the package."""
    names = {}
    for path in files:
        parts = list(path.relative_to(root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        names[path] = (".".join(parts), is_package)
    known = {name for name, _ in names.values()}

    def resolve(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for path, (module, is_package) in names.items():
        package = module if is_package else module.rpartition(".")[0]
        edges = graph.setdefault(module, set())
        for node in _runtime_imports(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                    base = ".".join([*anchor, *([base] if base else [])])
                targets = [f"{base}.{alias.name}" if base else alias.name for alias in node.names]
            for target in targets:
                resolved = resolve(target)
                if resolved is not None and resolved != module:
                    edges.add(resolved)
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(start: str) -> None:
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    cycles.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(cycles)


def _project_files() -> list[Path]:
    return [path for layer in (*APPS, "durak_site") for path in (ROOT / layer).rglob("*.py")
            if "/migrations/" not in path.relative_to(ROOT).as_posix()]


def test_no_import_cycle_between_modules_even_inside_one_app():
    """Inside an app too: a cycle that works only because every use is ``module.attr`` at call time,
    or because one side imports inside a function, breaks on the next innocent change. Imports
    under ``if TYPE_CHECKING:`` never run and do not count (the engine's type-only imports)."""
    cycles = import_cycles(import_graph(ROOT, _project_files()))
    assert not cycles, "import cycles:\n" + "\n".join(" ↔ ".join(group) for group in cycles)


def test_the_cycle_check_catches_a_planted_cycle(tmp_path):
    app = tmp_path / "app"
    (app / "services").mkdir(parents=True)
    (app / "__init__.py").write_text("")
    (app / "services" / "__init__.py").write_text("from .moves import move\nfrom .sending import send\n")
    (app / "services" / "moves.py").write_text("from app.services import sending\n\ndef move(): sending.send()\n")
    (app / "services" / "sending.py").write_text("def send():\n    from . import moves  # deferred\n")
    (app / "engine.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from app import rules\n")
    (app / "rules.py").write_text("from app import engine\n")
    (app / "clean.py").write_text("from app.services import moves\n")
    graph = import_graph(tmp_path, sorted(tmp_path.rglob("*.py")))
    assert import_cycles(graph) == [["app.services.moves", "app.services.sending"]]  # the deferred import counts
    (app / "engine.py").write_text("from app import rules\n")  # the same import, now at run time
    assert ["app.engine", "app.rules"] in import_cycles(import_graph(tmp_path, sorted(tmp_path.rglob("*.py"))))

# what a template may name: {% load lib %}, {% include/extends "app/…" %}, {% url "app:…" %}, {% static "app/…" %}
TEMPLATE_REFERENCES = re.compile(
    r"""\{%\s*(?:(?P<load>load)\s+(?P<libs>[^%]+)|(?:include|extends)\s+["'](?P<path>[^"']+)["']"""
    r"""|url\s+["'](?P<ns>[\w-]+):[^"']*["']|static\s+["'](?P<asset>[^"']+)["'])[^%]*%\}""")
TEMPLATE_LAYERS = ("accounts", "lobby", "game", "ratings")  # the layers whose pages others fill through registries


def _template_refs(text: str, libraries: dict[str, str]):
    """(reference, the app it names) for each reference to a project app in a template's text."""
    for m in TEMPLATE_REFERENCES.finditer(text):
        if m["load"]:
            libs = m["libs"].split()
            if "from" in libs:  # {% load tag from lib %}
                libs = libs[libs.index("from") + 1:]
            for lib in libs:
                yield f"load {lib}", _layer(libraries.get(lib, ""))
        else:
            name = m["path"] or m["asset"] or m["ns"]
            yield m.group(0), _layer(name.split("/")[0].split(":")[0])


def template_violations(layer: str, text: str) -> list[str]:
    from django.template import engines

    libraries = engines["django"].engine.libraries  # tag library name → module
    return [ref for ref, target in _template_refs(text, libraries)
            if target is not None and target != layer and target not in ALLOWED[layer]]


def test_no_template_of_accounts_the_lobby_or_the_game_names_an_app_above_it():
    """The accounts', lobby's, game's and ratings' pages name no app above them (chat, ratings, analysis):
    those fill the pages through accounts.pages', lobby.pages' and ratings.pages' registries. Tag libraries, includes, extends, URL names and static files count."""
    wrong = []
    for layer in TEMPLATE_LAYERS:
        for path in sorted((ROOT / layer / "templates").rglob("*.html")):
            for ref in template_violations(layer, path.read_text()):
                wrong.append(f"{path.relative_to(ROOT)}: {ref}")
    assert not wrong, "templates naming an app above their own:\n" + "\n".join(wrong)


def test_the_template_check_catches_each_kind_of_upward_reference():
    upward = ['{% include "chat/panel.html" %}', "{% load ratings_tags %}", "{% load i18n ratings_tags %}",
              '{% url "ratings:replay" 1 %}', "{% static 'chat/chat.css' %}", '{% extends "ratings/series.html" %}']
    for text in upward:
        assert template_violations("game", text), text
    fine = ['{% include "lobby/_bot_icon.html" %}', "{% load i18n static lobby_tags %}", '{% url "lobby:table" 1 %}',
            "{% static 'game/table.css' %}", '{% extends "base.html" %}', '{% include name %}']
    for text in fine:
        assert template_violations("game", text) == [], text
    assert template_violations("lobby", '{% url "game:detail" 1 %}')
