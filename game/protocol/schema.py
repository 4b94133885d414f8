"""The machinery of the sockets' schema: every message is a ``TypedDict``, registered under its socket
and direction; a message in is decoded through it, a frame out encoded by it.

A definition is the one source of a message's shape: mypy checks every frame built from it, the
socket decodes an incoming message with a checker compiled from it (once, at registration), tests
check every frame sent against it, and docs/PROTOCOL.md's field tables are generated from it
(``game/protocol/doc.py``). Field metadata rides in ``Annotated``: a plain string is the field's
meaning for the document, a ``Refuse(code)`` the catalogue's error (durak_site/errors.py) that an
incoming message with a bad value in that field gets (``bad_message`` by default).

Shapes are closed (a key the definition does not name is an error), except the top level of an
incoming message, whose unknown keys are ignored: an older server still serves a newer client.
Pure Python: no Django, no app.
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, NotRequired, Required, Union, get_args, get_origin, is_typeddict

TABLE = "table"  # the table socket (/ws/tables/<id>/, game/consumers.py)
IN, OUT = "in", "out"
BAD_MESSAGE = "bad_message"
UNKNOWN_TYPE = "unknown_type"

# Whether every frame encoded is checked against its definition first (the tests turn it on: a frame
# of an undeclared type or shape then fails where it is sent). Off in production: the definitions
# are checked by mypy where frames are built, and by the tests.
checking = False


@dataclass(frozen=True)
class Refuse:
    """``Annotated`` metadata: a bad value in this field of an incoming message is refused with `code`."""

    code: str


class Malformed(ValueError):
    """A value that does not fit its definition: where (a path of keys and indexes) and why."""

    def __init__(self, path: tuple[str | int, ...], problem: str) -> None:
        self.path, self.problem = path, problem
        super().__init__(f"{'.'.join(map(str, path)) or 'the message'}: {problem}")


class Refused(Exception):
    """An incoming message that its definition refuses: `code` is the catalogue's error; `spec` the
    definition, when the message's type was a known one (its refusals may go in a frame of their own)."""

    def __init__(self, code: str, detail: str = "", spec: Spec | None = None) -> None:
        self.code, self.detail, self.spec = code, detail, spec
        super().__init__(f"{code}: {detail}" if detail else code)


Check = Callable[[object, tuple[str | int, ...]], None]


@dataclass(frozen=True)
class FieldSpec:
    name: str
    hint: Any  # the field's type, Annotated stripped
    required: bool
    meaning: str
    refusal: str
    check: Check


@dataclass(frozen=True)
class Spec:
    """One registered message: its definition, socket(s), direction, and its compiled checks."""

    name: str  # the value of "type"
    cls: type
    sockets: tuple[str, ...]
    direction: str
    fields: tuple[FieldSpec, ...]
    owner: str  # the module that declares it (the document says where)
    error_frame: str = "error"  # an incoming message's refusal is told in a frame of this type
    keys: frozenset[str] = field(default_factory=frozenset)

    @property
    def doc(self) -> str:
        return " ".join((self.cls.__doc__ or "").split())


# ---------------------------------------------------------------- compiling a type into a check


def _strip(hint: Any) -> tuple[Any, list[object]]:
    """(the type, its Annotated metadata), NotRequired/Required peeled off."""
    meta: list[object] = []
    while True:
        origin = get_origin(hint)
        if origin is Annotated:
            hint, *extra = get_args(hint)
            meta.extend(extra)
        elif origin in (NotRequired, Required):
            (hint,) = get_args(hint)
        else:
            return hint, meta


def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls, include_extras=True)


def meaning_of(meta: Iterable[object]) -> str:
    return " ".join(m for m in meta if isinstance(m, str))


def refusal_of(meta: Iterable[object], default: str = BAD_MESSAGE) -> str:
    return next((m.code for m in meta if isinstance(m, Refuse)), default)


def _marked(hint: Any) -> bool | None:
    """True for Required[...], False for NotRequired[...] (at any depth of Annotated), else None."""
    while True:
        origin = get_origin(hint)
        if origin is Required:
            return True
        if origin is NotRequired:
            return False
        if origin is not Annotated:
            return None
        hint = get_args(hint)[0]


def fields_of(cls: type) -> list[tuple[str, Any, bool, list[object]]]:
    """(name, type, required, metadata) of each key of a TypedDict, in declaration order. Whether a
    key is required is read from its NotRequired/Required mark, else from the class's totality: under
    ``from __future__ import annotations`` Python 3.11 cannot see the marks itself."""
    required: frozenset[str] = getattr(cls, "__required_keys__", frozenset())
    out = []
    for name, hint in _hints(cls).items():
        bare, meta = _strip(hint)
        marked = _marked(hint)
        out.append((name, bare, name in required if marked is None else marked, meta))
    return out


def compile_check(hint: Any, closed: bool = True) -> Check:
    """A function that raises Malformed unless a JSON value (as json.loads gives it) fits `hint`."""
    hint, _meta = _strip(hint)
    if hint is Any or hint is object:
        return _anything
    if hint is None or hint is type(None):
        return _exactly(None, "null")
    if hint is bool:
        return _of_type((bool,), "a boolean")
    if hint is int:
        return _of_type((int,), "an integer")
    if hint is float:
        return _of_type((int, float), "a number")
    if hint is str:
        return _of_type((str,), "a string")
    origin = get_origin(hint)
    if origin is Literal:
        return _one_of(get_args(hint))
    if origin in (Union, types.UnionType):
        return _any_of([compile_check(arm) for arm in get_args(hint)], describe(hint))
    if origin is list:
        (item,) = get_args(hint) or (Any,)
        return _list_of(compile_check(item))
    if origin is dict:
        _key, value = get_args(hint) or (str, Any)
        return _dict_of(compile_check(value))
    if hint is list:
        return _list_of(_anything)
    if hint is dict:
        return _dict_of(_anything)
    if is_typeddict(hint):
        return _shape(hint, closed)
    raise TypeError(f"no check for {hint!r}")


def _anything(value: object, path: tuple[str | int, ...]) -> None:
    return None


def _exactly(expected: object, name: str) -> Check:
    def check(value: object, path: tuple[str | int, ...]) -> None:
        if value is not expected:
            raise Malformed(path, f"expected {name}")
    return check


def _of_type(kinds: tuple[type, ...], name: str) -> Check:
    """Of one of `kinds` (a str enum's value is a str); a bool is no number here, as for the services."""
    numeric = bool not in kinds

    def check(value: object, path: tuple[str | int, ...]) -> None:
        if not isinstance(value, kinds) or (numeric and isinstance(value, bool)):
            raise Malformed(path, f"expected {name}, got {type(value).__name__}")
    return check


def _one_of(values: tuple[object, ...]) -> Check:
    def check(value: object, path: tuple[str | int, ...]) -> None:
        if not any(value == v and isinstance(value, type(v)) and isinstance(value, bool) == isinstance(v, bool)
                   for v in values):
            raise Malformed(path, f"expected one of {sorted(map(repr, values))}, got {value!r}"[:200])
    return check


def _any_of(arms: list[Check], name: str) -> Check:
    def check(value: object, path: tuple[str | int, ...]) -> None:
        for arm in arms:
            try:
                arm(value, path)
                return
            except Malformed:
                continue
        raise Malformed(path, f"expected {name}, got {value!r}"[:200])
    return check


def _list_of(item: Check) -> Check:
    def check(value: object, path: tuple[str | int, ...]) -> None:
        if not isinstance(value, (list, tuple)):  # a tuple is encoded as a list
            raise Malformed(path, f"expected a list, got {type(value).__name__}")
        for index, entry in enumerate(value):
            item(entry, (*path, index))
    return check


def _dict_of(item: Check) -> Check:
    def check(value: object, path: tuple[str | int, ...]) -> None:
        if not isinstance(value, dict):
            raise Malformed(path, f"expected an object, got {type(value).__name__}")
        for key, entry in value.items():
            if not isinstance(key, str):
                raise Malformed(path, f"a key that is not a string: {key!r}")
            item(entry, (*path, key))
    return check


def _shape(cls: type, closed: bool) -> Check:
    """A TypedDict's keys: the required ones there, no others (when closed), each value checked."""
    checks: dict[str, Check] = {}
    required: set[str] = set()
    for name, hint, needed, _meta in fields_of(cls):
        checks[name] = compile_check(hint)
        if needed:
            required.add(name)

    def check(value: object, path: tuple[str | int, ...]) -> None:
        if not isinstance(value, dict):
            raise Malformed(path, f"expected an object ({cls.__name__}), got {type(value).__name__}")
        missing = required.difference(value)
        if missing:
            raise Malformed(path, f"missing {sorted(missing)} ({cls.__name__})")
        for key, entry in value.items():
            inner = checks.get(key)
            if inner is None:
                if closed:
                    raise Malformed((*path, key), f"not a field of {cls.__name__}")
                continue
            inner(entry, (*path, key))
    return check


def describe(hint: Any) -> str:
    """A type as the document writes it: `str`, `int | null`, `list[Seat]`, `"state"`."""
    hint, _meta = _strip(hint)
    if hint is Any or hint is object:
        return "any"
    if hint is None or hint is type(None):
        return "null"
    if hint in (bool, int, float, str):
        return {bool: "bool", int: "int", float: "number", str: "str"}[hint]
    origin = get_origin(hint)
    if origin is Literal:
        return " \\| ".join(json.dumps(v) for v in get_args(hint))
    if origin in (Union, types.UnionType):
        return " \\| ".join(describe(arm) for arm in get_args(hint))
    if origin is list:
        return f"list[{describe((get_args(hint) or (Any,))[0])}]"
    if origin is dict:
        return f"{{str: {describe((get_args(hint) or (str, Any))[1])}}}"
    if hint is list:
        return "list"
    if hint is dict:
        return "object"
    if is_typeddict(hint):
        return str(hint.__name__)
    return repr(hint)


# ---------------------------------------------------------------- the registry

_specs: dict[tuple[str, str, str], Spec] = {}


def type_of(cls: type) -> str:
    """The value of a definition's ``type`` key (its ``Literal["…"]``)."""
    hint, _meta = _strip(_hints(cls)["type"])
    (name,) = get_args(hint)
    return str(name)


def _spec(cls: type, sockets: tuple[str, ...], direction: str, owner: str, error_frame: str) -> Spec:
    fields = []
    for name, hint, required, meta in fields_of(cls):
        fields.append(FieldSpec(name, hint, required, meaning_of(meta), refusal_of(meta), compile_check(hint)))
    return Spec(type_of(cls), cls, sockets, direction, tuple(fields), owner, error_frame,
                frozenset(f.name for f in fields))


def register(cls: type, *, sockets: Iterable[str], direction: str, error_frame: str = "error") -> Spec:
    """Declare a message: its TypedDict (with a ``type: Literal["name"]`` key), the sockets it is
    carried on and its direction (IN: the browser sends it; OUT: the server does). An incoming
    message's refusal is told in an `error_frame` frame (the chat's are ``chat_error``)."""
    if direction not in (IN, OUT):
        raise ValueError(direction)
    where = tuple(sockets)
    spec = _spec(cls, where, direction, cls.__module__, error_frame)
    for socket in where:
        key = (socket, direction, spec.name)
        known = _specs.get(key)
        if known is not None and known.cls is not cls:
            raise ValueError(f"{direction} message {spec.name!r} of the {socket} socket is declared twice: "
                             f"{known.owner}.{known.cls.__name__} and {cls.__module__}.{cls.__name__}")
        _specs[key] = spec
    return spec


def register_in(*classes: type, sockets: Iterable[str] = (TABLE,), error_frame: str = "error") -> None:
    for cls in classes:
        register(cls, sockets=sockets, direction=IN, error_frame=error_frame)


def register_out(*classes: type, sockets: Iterable[str] = (TABLE,)) -> None:
    for cls in classes:
        register(cls, sockets=sockets, direction=OUT)


def specs(socket: str | None = None, direction: str | None = None) -> list[Spec]:
    """The registered messages (one entry per socket they are carried on), in registration order."""
    return [s for (sock, way, _name), s in _specs.items()
            if (socket is None or sock == socket) and (direction is None or way == direction)]


def spec(socket: str, direction: str, name: str) -> Spec | None:
    return _specs.get((socket, direction, name))


def accepts(socket: str, name: object) -> bool:
    return isinstance(name, str) and (socket, IN, name) in _specs


# ---------------------------------------------------------------- decoding and encoding


def decode(socket: str, content: object, kind: object = None) -> tuple[Spec, dict[str, Any]]:
    """The incoming message `content` (json.loads' result) as its definition (`kind`: its type, when
    the caller read it otherwise), or Refused with the catalogue's code: ``bad_message`` for a value
    that is no object, ``unknown_type`` for a type the socket does not take, else the refusal of the
    first field that does not fit. The message itself is returned (no copy): it fits."""
    if not isinstance(content, dict):
        raise Refused(BAD_MESSAGE, "not an object")
    name = content.get("type") if kind is None else kind
    found = _specs.get((socket, IN, name)) if isinstance(name, str) else None
    if found is None:
        raise Refused(UNKNOWN_TYPE, repr(name)[:60])
    for f in found.fields:
        if f.name == "type":
            continue
        value = content.get(f.name, _MISSING)
        if value is _MISSING:
            if f.required:
                raise Refused(f.refusal, f"missing {f.name}", found)
            continue
        try:
            f.check(value, (f.name,))
        except Malformed as exc:
            raise Refused(f.refusal, str(exc), found) from None
    return found, content


_MISSING = object()


def check_out(socket: str, frame: object) -> Spec:
    """Raise Malformed unless `frame` is a declared outgoing message of `socket` that fits its definition."""
    if not isinstance(frame, dict):
        raise Malformed((), f"a frame must be an object, got {type(frame).__name__}")
    name = frame.get("type")
    found = _specs.get((socket, OUT, name)) if isinstance(name, str) else None
    if found is None:
        raise Malformed(("type",), f"{name!r} is not a declared frame of the {socket} socket")
    missing = [f.name for f in found.fields if f.required and f.name not in frame]
    if missing:
        raise Malformed((), f"{name}: missing {missing}")
    checks = {f.name: f.check for f in found.fields}
    for key, value in frame.items():
        inner = checks.get(key)
        if inner is None:
            raise Malformed((key,), f"not a field of {name} ({found.owner}.{found.cls.__name__})")
        inner(value, (str(name), key))
    return found


def encode(socket: str, frame: object) -> str:
    """A frame's wire text (compact JSON). Checked against its definition first while `checking`."""
    if checking:
        check_out(socket, frame)
    return json.dumps(frame, separators=(",", ":"))
