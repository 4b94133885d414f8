"""The dependency direction of docs/ARCHITECTURE.md, checked on every module's imports.

Calls go down (ratings → game → lobby → accounts); news goes up by signals and hooks. A module
that imports an app above its own, a cycle between apps, or an import guarded against a part of
the project "not written yet" fails here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounts", "lobby", "game", "ratings", "analysis", "social", "tournaments", "chat", "notifications")
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
