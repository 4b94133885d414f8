"""docs/PROTOCOL.md names every message the table and the site socket accept, every frame it sends, every close
code and every error code. The names are collected from the code (the consumer's dispatch, the
socket hook registry, the ``"type": ...`` literals of what is sent), so a type added without a line
in the document fails here."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from durak_site import close_codes as server_close_codes
from durak_site.errors import CATALOGUE
from game import socket_hooks

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
CONSUMERS = (ROOT / "game" / "consumers.py", ROOT / "social" / "consumers.py")  # the table and the site socket
# modules (or packages) that build what a table socket sends, or the channel-layer events it handles
SENDERS = ("game/consumers.py", "game/frames.py", "chat/socket.py", "chat/services.py", "chat/services",
           "lobby/services.py", "lobby/services", "accounts/sessions.py", "social", "letters")
# helpers whose argument names the type of the frame they send: (function name, argument index)
FRAME_HELPERS = {"_event": 0, "tell": 1, "tell_many": 1}
# modules that also send channel-layer events (a type with a dot) among other dicts with a "type"
EVENT_SENDERS = ("game/services.py", "game/services")  # a module, or the package it became
# names a message type is read into in the consumer's dispatch
KIND_NAMES = {"kind", "message_type", "msg_type"}
DISPATCH_NAME = re.compile(r"dispatch|handler|message", re.IGNORECASE)


def _strings(node: ast.AST) -> set[str]:
    """The string constants of a node: itself, or the items of a tuple, list or set literal."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return {e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
    return set()


def _is_type_read(node: ast.AST) -> bool:
    """`kind` (a name the type was read into) or `content.get("type")` / `content["type"]`."""
    if isinstance(node, ast.Name):
        return node.id in KIND_NAMES
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
        return bool(node.args) and _strings(node.args[0]) == {"type"}
    if isinstance(node, ast.Subscript):
        return _strings(node.slice) == {"type"}
    return False


def accepted_types() -> set[str]:
    """Message types the table socket dispatches: compared with the message's type in the consumer,
    keys of a dispatch table there, and the types apps register through game.socket_hooks."""
    found: set[str] = set()
    for node in (n for path in CONSUMERS for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))):
        if isinstance(node, ast.Compare) and _is_type_read(node.left):
            for comparator in node.comparators:
                found |= _strings(comparator)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            if any(DISPATCH_NAME.search(n) for n in names) and isinstance(node.value, ast.Dict):
                for key in node.value.keys:
                    if key is not None:
                        found |= _strings(key)
    found |= set(socket_hooks._messages)
    return found


def _type_literals(tree: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if key is not None and _strings(key) == {"type"}:
                    found |= _strings(value)
    return found


def _python_files(rel: str) -> list[Path]:
    path = ROOT / rel
    return sorted(path.rglob("*.py")) if path.is_dir() else [path] if path.exists() else []


def sent_types() -> set[str]:
    """Every ``"type": "<literal>"`` in a dict the senders build (frames and channel-layer events),
    the chat frames named through its event helper, and the registered hook events."""
    found: set[str] = set()
    for rel in EVENT_SENDERS:
        for path in _python_files(rel):
            found |= {t for t in _type_literals(ast.parse(path.read_text(encoding="utf-8"))) if "." in t}
    for path in [p for rel in SENDERS for p in _python_files(rel)]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found |= _type_literals(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                at = FRAME_HELPERS.get(name)
                if at is not None and len(node.args) > at:
                    found |= _strings(node.args[at])
    found |= set(socket_hooks._events)
    return found


def close_codes() -> set[int]:
    """Every close code the server sends: the one list in durak_site/close_codes.py (no socket closes
    with another: tests/site/test_close_codes.py)."""
    return set(server_close_codes.ALL.values())


def _undocumented(names) -> list:
    return sorted(n for n in names if f"`{n}`" not in DOC)


def test_the_collectors_find_the_known_types():
    """A collector that silently found nothing would make the checks below pass for nothing."""
    assert {"ping", "resync", "action", "chat_send", "search", "invitation"} <= accepted_types()
    assert {"pong", "ack", "error", "lobby", "state", "game_started", "chat_state", "chat", "hello", "match",
            "friend_request"} <= sent_types()
    assert {4401, 4403, 4404, 4429, 4012} <= close_codes()
    assert _undocumented({"no_such_frame_type"}) == ["no_such_frame_type"]


def test_every_accepted_message_type_is_documented():
    assert _undocumented(accepted_types()) == []


def test_every_sent_frame_and_event_type_is_documented():
    assert _undocumented(sent_types()) == []


def test_every_close_code_is_documented():
    assert sorted(c for c in close_codes() if f"| {c} |" not in DOC) == []


def test_every_error_code_is_documented():
    from accounts.sessions import BANNED, SESSION_ENDED

    assert _undocumented({*CATALOGUE, SESSION_ENDED, BANNED}) == []
