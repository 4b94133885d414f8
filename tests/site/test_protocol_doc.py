"""docs/PROTOCOL.md says what the schema says (game/protocol): every message in and out of the table and
the site socket has its field table, written from its definition and equal to it field by field;
every message a socket takes has its handler and every frame type the code builds is declared; every
close code and every error code is named."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Annotated, Literal, TypedDict

from durak_site import close_codes as server_close_codes
from durak_site.errors import CATALOGUE
from game import socket_hooks
from game.protocol import IN, OUT, TABLE, doc, schema

ROOT = Path(__file__).resolve().parents[2]
DOC_PATH = ROOT / "docs" / "PROTOCOL.md"
DOC = DOC_PATH.read_text(encoding="utf-8")
SITE = "site"
# modules (or packages) that build what a socket sends, or the channel-layer events it handles
SENDERS = ("game/consumers.py", "game/frames.py", "chat", "lobby/services", "accounts/sessions.py", "social",
           "tournaments", "notifications", "letters")
# helpers whose argument names the type of the frame they send: (function name, argument index)
FRAME_HELPERS = {"_event": 0, "tell": 1, "tell_many": 1}
EVENT_SENDERS = ("game/services",)  # also build engine actions with a "type": only their dotted events count
ROW = re.compile(r"^\| `(?P<name>[^`]+)` \| (?P<type>.*?) \| ")


def _blocks(text: str) -> dict[str, str]:
    return {m["key"]: m["body"] for m in doc.BLOCK.finditer(text)}


def test_every_message_and_shape_has_its_table_written_from_its_definition():
    rendered, missing, stale = doc.render(DOC)
    assert missing == [], f"messages with no table in docs/PROTOCOL.md: {missing} (run manage.py protocol_doc)"
    assert stale == [], f"tables of nothing declared: {stale}"
    assert rendered == DOC, "docs/PROTOCOL.md's tables differ from the schema: run manage.py protocol_doc"


def test_each_table_names_exactly_its_definitions_fields_with_their_optionality():
    """Field by field, read back from the document: the names in order, and which may be missing."""
    blocks = _blocks(DOC)
    checked = 0
    for spec in doc.messages():
        rows = [ROW.match(line) for line in blocks[doc.key_of(spec)].splitlines()]
        fields = [(m["name"], m["type"].endswith("(optional)")) for m in rows if m and m["name"] != "field"]
        assert fields == [(f.name, not f.required) for f in spec.fields], spec.name
        checked += 1
    assert checked >= 45  # both sockets, both directions, every app's


def test_a_field_added_to_a_definition_makes_its_table_stale(monkeypatch):
    """The check above can fail: a definition that grows a field no longer matches its table."""

    class Ack(TypedDict):
        type: Literal["ack"]
        id: Annotated[str, "the move's id"]
        version: Annotated[int, "the game's version after it"]
        duplicate: Annotated[bool, "the same id had been applied before (a resend after a reconnect): nothing "
                                   "was applied twice"]
        took_ms: Annotated[int, "a new field"]

    monkeypatch.setattr(schema, "_specs", dict(schema._specs))
    del schema._specs[(TABLE, OUT, "ack")]
    schema.register_out(Ack, sockets=(TABLE,))
    rendered, _missing, _stale = doc.render(DOC)
    assert rendered != DOC and "`took_ms`" in rendered and "`took_ms`" not in DOC


def test_every_message_a_socket_takes_has_a_handler_and_every_handler_a_definition():
    from game.consumers import HANDLERS as TABLE_HANDLERS
    from social.consumers import HANDLERS as SITE_HANDLERS

    table_in = {s.name for s in schema.specs(TABLE, IN)}
    site_in = {s.name for s in schema.specs(SITE, IN)}
    assert table_in == set(TABLE_HANDLERS) | set(socket_hooks._messages)
    assert site_in == set(SITE_HANDLERS)
    assert {"ping", "resync", "action", "chat_send", "visibility", "invitation"} <= table_in
    assert {"ping", "page", "search", "cancel", "invitation"} <= site_in


def _python_files(rel: str) -> list[Path]:
    path = ROOT / rel
    return sorted(path.rglob("*.py")) if path.is_dir() else [path] if path.exists() else []


def _strings(node: ast.AST) -> set[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    return set()


def _type_literals(tree: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if key is not None and _strings(key) == {"type"}:
                    found |= _strings(value)
    return found


def built_types() -> tuple[set[str], set[str]]:
    """(frame types, channel-layer event types) that the senders build: every ``"type": "<literal>"``
    in a dict, and the type named to a frame helper (`notify.tell(player, "match", ...)`)."""
    found: set[str] = set()
    events: set[str] = set()
    for rel in EVENT_SENDERS:
        for path in _python_files(rel):
            events |= {t for t in _type_literals(ast.parse(path.read_text(encoding="utf-8"))) if "." in t}
    for path in [p for rel in SENDERS for p in _python_files(rel)]:
        if "/management/" in path.as_posix() or "/migrations/" in path.as_posix():
            continue  # benchmarks play the client
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found |= _type_literals(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                at = FRAME_HELPERS.get(name)
                if at is not None and len(node.args) > at:
                    found |= _strings(node.args[at])
    events |= {t for t in found if "." in t}
    return found - events, events


def test_every_frame_type_the_code_builds_is_declared_and_every_event_documented():
    frames, events = built_types()
    declared = {s.name for s in schema.specs(direction=OUT)}
    assert {"pong", "ack", "state", "chat_state", "hello", "online", "match", "tournament_soon"} <= frames
    assert sorted(frames - declared) == []
    assert {"lobby.changed", "game.frame", "socket.hook", "session.ended"} <= events
    assert sorted(e for e in events | set(socket_hooks._events) if f"`{e}`" not in DOC) == []


def test_every_close_code_is_documented():
    assert sorted(c for c in server_close_codes.ALL.values() if f"| {c} |" not in DOC) == []


def test_every_error_code_is_documented():
    from accounts.sessions import BANNED, SESSION_ENDED

    assert sorted(n for n in {*CATALOGUE, SESSION_ENDED, BANNED} if f"`{n}`" not in DOC) == []
