"""Extension points of the table socket for apps above game (chat, social), registered in their ready().

The game app never imports those apps: they add message types, callbacks run when a socket has
connected, has closed and beats, and channel-layer events (sent as ``{"type": "socket.hook", "hook":
name, ...}``), and the socket calls them with itself. A failing hook is logged and answered with an
error; it never closes the socket. So a table page needs no second socket: social carries the site's
news (presence, invitations, a match found) on this one.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger(__name__)

Handler = Callable[[Any, dict], Awaitable[None]]
ConnectHook = Callable[[Any], Awaitable[None]]

_messages: dict[str, Handler] = {}
_events: dict[str, Handler] = {}
_connect: list[ConnectHook] = []
_role_changed: list[ConnectHook] = []
_disconnect: list[ConnectHook] = []
_heartbeat: list[Callable[[Any], None]] = []


def register(message_type: str, handler: Handler) -> None:
    """Client messages of `message_type` go to `handler(consumer, content)`, decoded through the
    message's definition, which the app registers with game.protocol too (else: `unknown_type`)."""
    _messages[message_type] = handler


def register_event(name: str, handler: Handler) -> None:
    """Channel-layer events ``{"type": "socket.hook", "hook": name}`` go to `handler(consumer, event)`."""
    _events[name] = handler


def on_connect(hook: ConnectHook) -> None:
    """`hook(consumer)` runs once the socket has joined its table and sent its first frame."""
    if hook not in _connect:
        _connect.append(hook)


def on_role_change(hook: ConnectHook) -> None:
    """`hook(consumer)` runs when the socket's player became or stopped being the host, a seated
    player or a player of the game: rights that were granted for the old role are re-checked."""
    if hook not in _role_changed:
        _role_changed.append(hook)


def on_disconnect(hook: ConnectHook) -> None:
    """`hook(consumer)` runs once the socket has closed (after a connect hook of the same app ran, or
    not: a hook keeps its own note of what it did on connect)."""
    if hook not in _disconnect:
        _disconnect.append(hook)


def on_heartbeat(hook: Callable[[Any], None]) -> None:
    """`hook(consumer)` runs at each of the socket's heartbeats (every few seconds while its page
    pings). It is synchronous and must not wait: work it starts runs as its own task."""
    if hook not in _heartbeat:
        _heartbeat.append(hook)


def handles(message_type: object) -> bool:
    return isinstance(message_type, str) and message_type in _messages


async def _guarded(consumer, what: str, call: Awaitable[None]) -> None:
    try:
        await call
    except Exception:
        log.exception("socket hook %s failed", what)
        await consumer._error(None, "internal_error")


async def message(consumer, content: dict) -> None:
    await _guarded(consumer, content["type"], _messages[content["type"]](consumer, content))


async def event(consumer, event: dict) -> None:
    handler = _events.get(event.get("hook", ""))
    if handler is not None:
        await _guarded(consumer, event["hook"], handler(consumer, event))


async def connected(consumer) -> None:
    for hook in _connect:
        await _guarded(consumer, getattr(hook, "__name__", "connect"), hook(consumer))


async def role_changed(consumer) -> None:
    for hook in _role_changed:
        await _guarded(consumer, getattr(hook, "__name__", "role_changed"), hook(consumer))


async def disconnected(consumer) -> None:
    for hook in _disconnect:
        await _guarded(consumer, getattr(hook, "__name__", "disconnect"), hook(consumer))


def heartbeat(consumer) -> None:
    for hook in _heartbeat:
        try:
            hook(consumer)
        except Exception:
            log.exception("socket hook %s failed", getattr(hook, "__name__", "heartbeat"))
