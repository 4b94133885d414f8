"""docs/PROTOCOL.md's field tables, written from the registered definitions (game/protocol).

The document keeps its prose; each message's and each shape's table sits between markers

    <!-- schema: site,table out match -->  …  <!-- /schema -->

(sockets, direction, type; or ``shape <Name>`` for a nested object), and ``render`` rewrites what is
between them. `manage.py protocol_doc` writes the file; tests/site/test_protocol_doc.py fails when a
table differs from its definition, or a message has no table.
"""

from __future__ import annotations

import re
import types
from typing import Any, Literal, Union, get_args, get_origin, is_typeddict

from game.protocol.schema import IN, Spec, fields_of, refusal_of, specs

BLOCK = re.compile(r"(<!-- schema: (?P<key>[^>]+?) -->\n)(?P<body>.*?)(<!-- /schema -->)", re.DOTALL)


def key_of(spec: Spec) -> str:
    return f"{','.join(sorted(spec.sockets))} {spec.direction} {spec.name}"


def messages() -> list[Spec]:
    """Every registered message once (one carried on two sockets is one definition)."""
    seen: dict[str, Spec] = {}
    for spec in specs():
        seen.setdefault(key_of(spec), spec)
    return list(seen.values())


def documented(cls: type) -> bool:
    """A shape with a meaning for any field gets a table of its own; a bare one is written inline."""
    return any(any(isinstance(m, str) for m in meta) for _n, _h, _r, meta in fields_of(cls))


def anchor(cls: type) -> str:
    return f"shape-{cls.__name__.lower()}"


def _type(hint: Any) -> str:
    """A field's type in the document's words, nested shapes linked (or written inline)."""
    if hint is Any or hint is object:
        return "any"
    if hint is None or hint is type(None):
        return "null"
    if hint in (bool, int, float, str):
        return {bool: "bool", int: "int", float: "number", str: "str"}[hint]
    origin = get_origin(hint)
    if origin is Literal:
        return " \\| ".join(f'`"{v}"`' if isinstance(v, str) else f"`{v}`" for v in get_args(hint))
    if origin in (Union, types.UnionType):
        return " \\| ".join(_type(arm) for arm in get_args(hint))
    if origin is list:
        return f"list of {_type(get_args(hint)[0])}"
    if origin is dict:
        return f"object of {_type(get_args(hint)[1])}"
    if is_typeddict(hint):
        if documented(hint):
            return f"[{hint.__name__}](#{anchor(hint)})"
        inner = ", ".join(f"{n}{'' if r else '?'}: {_type(h)}" for n, h, r, _m in fields_of(hint))
        return f"{{{inner}}}"
    return repr(hint)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _meaning(meta: list[object]) -> str:
    return _cell(" ".join(m for m in meta if isinstance(m, str)))


def table(cls: type, direction: str | None = None) -> str:
    """The field table of a definition: field, type (optional ones marked), meaning; an incoming
    message's also the code a bad value gets."""
    incoming = direction == IN
    head = "| field | type | meaning |" + (" if bad |" if incoming else "")
    rule = "|---|---|---|" + ("---|" if incoming else "")
    rows = [head, rule]
    for name, hint, required, meta in fields_of(cls):
        kind = _type(hint) + ("" if required else " (optional)")
        row = f"| `{name}` | {kind} | {_meaning(meta)} |"
        if incoming:
            row += " |" if name == "type" else f" `{refusal_of(meta)}` |"
        rows.append(row)
    return "\n".join(rows) + "\n"


def shapes() -> list[type]:
    """Every documented nested shape the messages use, in the order first met."""
    found: dict[str, type] = {}

    def walk(hint: Any) -> None:
        if is_typeddict(hint):
            for _n, inner, _r, _m in fields_of(hint):
                visit(inner)
            return
        for arg in get_args(hint):
            visit(arg)

    def visit(hint: Any) -> None:
        if is_typeddict(hint):
            if documented(hint) and hint.__name__ not in found:
                found[hint.__name__] = hint
                walk(hint)
            elif not documented(hint):
                walk(hint)
            return
        for arg in get_args(hint):
            visit(arg)

    for spec in messages():
        walk(spec.cls)
    return list(found.values())


def blocks() -> dict[str, str]:
    """What belongs between each pair of markers, by key."""
    out: dict[str, str] = {}
    for spec in messages():
        doc = spec.doc
        out[key_of(spec)] = (f"{doc}\n\n" if doc else "") + table(spec.cls, spec.direction)
    for cls in shapes():
        doc = " ".join((cls.__doc__ or "").split())
        out[f"shape {cls.__name__}"] = (f'<a id="{anchor(cls)}"></a>\n**{cls.__name__}**: {doc}\n\n'
                                        + table(cls))
    return out


def render(text: str) -> tuple[str, list[str], list[str]]:
    """(the document with every table rewritten, keys with no table in it, markers of no definition)."""
    wanted = blocks()
    seen: set[str] = set()
    stale: list[str] = []

    def fill(match: re.Match[str]) -> str:
        key = match["key"]
        seen.add(key)
        if key not in wanted:
            stale.append(key)
            return match[0]
        return f"{match[1]}{wanted[key]}{match[4]}"

    new = BLOCK.sub(fill, text)
    return new, sorted(set(wanted) - seen), stale
