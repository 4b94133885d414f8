"""Structured logs: ``LOG_FORMAT=json`` writes one JSON object per line, with the ids of what it is about.

Each line carries the request's, socket's or Celery task's id, the player's id and the table's and
game's ids when known, from a context variable that follows the request or socket into its threads
(asgiref copies context variables into ``sync_to_async`` threads). Only ids are carried: never a
recovery key, a session key or what a player wrote; the message itself is the code's own sentence.

Where the ids are set: an HTTP request by ``RequestContextMiddleware``; a socket by the realtime bridge
(``LoopBinder``: the socket's id and table) and by ``bind_socket`` once it has connected (its player,
and its game as it changes); a Celery task by ``durak_site.celery``.

The web server's access log goes through logging too (``AccessLog``, installed by durak_site.serve in
place of daphne's, which wrote plain lines to stdout), so under LOG_FORMAT=json every line is JSON;
a logged URL keeps its query's names but never their values (``?invite=<code>`` is a secret).
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import uuid
import weakref
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from django.http import HttpRequest, HttpResponse

IDS = ("request_id", "socket_id", "task_id", "player_id", "table_id", "game_id")

_context: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar("durak_log", default=None)
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{8,64}$")
_TABLE_SOCKET = re.compile(r"^/ws/tables/(\d{1,12})/")


def new_id() -> str:
    return uuid.uuid4().hex[:16]


def bind(**ids: Any) -> None:
    """Add ids to this context's log lines (a fresh set if the context had none)."""
    current = _context.get()
    if current is None:
        _context.set({key: value for key, value in ids.items() if value is not None})
    else:
        current.update({key: value for key, value in ids.items() if value is not None})


def clear() -> None:
    _context.set(None)


def current() -> dict[str, Any]:
    """The ids of this context now (a socket's player and game read live from the consumer)."""
    ids = dict(_context.get() or {})
    socket = ids.pop("_socket", None)
    consumer = socket() if socket is not None else None
    if consumer is not None:
        user = getattr(consumer, "user", None)
        if user is not None and getattr(user, "is_authenticated", False):
            ids["player_id"] = user.pk
        for key in ("table_id", "game_id"):
            value = getattr(consumer, key, None)
            if value is not None:
                ids[key] = value
    return {key: ids[key] for key in IDS if ids.get(key) is not None}


def bind_scope(scope: dict) -> None:
    """A socket's (or request's) start in the ASGI app: its id, and the table a table socket is at."""
    if scope.get("type") == "websocket":
        match = _TABLE_SOCKET.match(scope.get("path", ""))
        _context.set({"socket_id": new_id(), "table_id": int(match[1]) if match else None})
    elif scope.get("type") == "http":
        _context.set({})  # filled in by RequestContextMiddleware on its thread (the same dict)


async def bind_socket(consumer) -> None:
    """A table socket has connected (game.socket_hooks): its player, table and game from now on."""
    bind(_socket=weakref.ref(consumer))


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, the context's ids, the traceback."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update(current())
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            line.update(fields)
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


class RequestContextMiddleware:
    """An HTTP request's ids: the proxy's X-Request-ID when it looks like one (else a new id, sent
    back in the response), the signed-in player, and the table or game its URL names."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        given = request.headers.get("X-Request-ID", "")
        request_id = given if _REQUEST_ID.match(given) else new_id()
        ids = _context.get()
        if ids is None or "request_id" in ids:  # no ASGI scope bound one, or a thread's earlier request
            _context.set({"request_id": request_id})
        else:  # the set LoopBinder made for this request: Django's own "Not Found" line is logged outside
            ids["request_id"] = request_id  # this middleware, in the request's task, and sees it too
        response = self.get_response(request)
        response["X-Request-ID"] = request_id
        return response

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs) -> None:
        user = getattr(request, "user", None)
        bind(player_id=user.pk if user is not None and user.is_authenticated else None,
             table_id=view_kwargs.get("table_id"), game_id=view_kwargs.get("game_id"))


def redact_url(path: str) -> str:
    """The path with every query value replaced by ``*`` (invitation codes, tokens): names stay, so
    a line still tells what was asked."""
    base, sep, query = (path or "").partition("?")
    if not sep:
        return base
    parts = [part.split("=", 1)[0][:40] + "=*" if "=" in part else "*" for part in query.split("&")[:20]]
    return f"{base}?" + "&".join(parts)


access_log = logging.getLogger("durak_site.access")


class AccessLog:
    """Daphne's "action logger" (its access log) as log records of ``durak_site.access``: one line per
    HTTP response and socket event, through the configured formatter, with the URL redacted."""

    def __init__(self, stream=None) -> None:  # daphne hands it the stream it would have written to
        pass

    def __call__(self, protocol: str, action: str, details: dict) -> None:
        path = redact_url(str(details.get("path", "")))
        client = details.get("client") or "-"
        if protocol == "http" and action == "complete":
            status, size = details.get("status"), details.get("size")
            message = f"{details.get('method', '-')} {path} {status} {size}"
            fields = {"client": client, "method": details.get("method"), "path": path, "status": status,
                      "size": size}
        elif protocol == "websocket" and action in ("connecting", "rejected", "connected", "disconnected"):
            message = f"WS{action.upper()} {path}"
            fields = {"client": client, "path": path, "socket": action}
        else:
            return
        access_log.info(message, extra={"fields": fields})
