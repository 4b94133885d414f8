"""The socket close codes are defined once on each side: durak_site/close_codes.py on the server,
the CLOSE object of static/site/socket.js in the browser, and the two lists are the same."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from durak_site import close_codes

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounts", "lobby", "game", "ratings", "analysis", "social", "chat", "durak_site")


def test_the_client_knows_exactly_the_codes_the_server_sends():
    js = (ROOT / "static" / "site" / "socket.js").read_text()
    body = re.search(r"export const CLOSE = Object\.freeze\(\{(.*?)\}\);", js, re.S).group(1)
    client = {name: int(code) for name, code in re.findall(r"(\w+): (\d+)", body)}
    assert client == close_codes.ALL


def test_no_socket_closes_with_a_number_of_its_own():
    """Every close(code=...) names a code of durak_site.close_codes, never a literal or a local constant."""
    wrong = []
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "/migrations/" in path.as_posix():
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Assign) and any(
                        isinstance(t, ast.Name) and t.id.startswith("CLOSE_") for t in node.targets):
                    wrong.append(f"{path.relative_to(ROOT)}:{node.lineno} defines a close code")
                if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "close":
                    for kw in node.keywords:
                        if kw.arg == "code" and isinstance(kw.value, ast.Constant):
                            wrong.append(f"{path.relative_to(ROOT)}:{node.lineno} closes with {kw.value.value}")
    assert not wrong, wrong
