"""Chat on the table socket (game/socket_hooks.py): the message types, the connect resync and the
channel-layer events. Each socket checks its own access on connect and whenever the table's chat
settings or a mute change; only sockets that may read join the chat group, so nothing else hears it.

Client → server: {"type": "chat_send", "text"}, {"type": "chat_react", "key"},
{"type": "chat_report", "message_id", "reason"}, {"type": "chat_settings", "spectators"?, "profanity_filter"?},
{"type": "chat_sync"}.
Server → client: chat_state (resync), chat, chat_deleted, chat_reaction, chat_reported, chat_error.
"""

from __future__ import annotations

from django.utils import translation

from durak_site.db import in_thread
from durak_site.errors import ServiceError
from game import socket_hooks
from lobby.services import INVITES_KEY
from social import people

from . import protocol, services


def _invited(consumer) -> bool:
    session = consumer.scope.get("session")
    return session is not None and consumer.table_id in session.get(INVITES_KEY, [])


def _rights_now(consumer) -> services.Access:
    return services.access(consumer.table_id, consumer.user, _invited(consumer), consumer.seat)


def _state(consumer) -> dict:
    state = services.history(consumer.table_id)
    state["messages"] = [m for m in state["messages"] if m["author_id"] not in consumer.chat_blocked]
    state["muted"] = services.mute_notice(services.active_mute(consumer.user.pk))
    return state


async def sync(consumer) -> None:
    """(Re)check this socket's access, join or leave the chat group, and send the chat's state.

    The group is joined before the history is read, so a message written in between arrives live
    (the client drops what its state already holds by version) instead of falling in the gap."""
    rights = await in_thread(_rights_now)(consumer)
    consumer.chat_rights = rights
    # the players he blocked: their messages and reactions never reach him (they are not told)
    consumer.chat_blocked = await in_thread(people.blocked_by)(consumer.user.pk)
    group = services.chat_group(consumer.table_id)
    if rights.read:
        await consumer.join_group(group)
    else:
        await consumer.leave_group(group)
    frame = {"type": "chat_state", "read": rights.read, "write": rights.write, "manage": rights.manage,
             "me": consumer.user.pk}
    if rights.read:
        frame.update(await in_thread(_state)(consumer))
    await consumer.send_json(frame)


async def _error(consumer, exc: ServiceError) -> None:
    with translation.override(consumer.lang):
        message = exc.message
    await consumer.send_json({"type": "chat_error", "code": exc.code, "message": message})


def _rights(consumer) -> services.Access:
    return getattr(consumer, "chat_rights", services.NO_ACCESS)


async def _call(consumer, func, *args, **kwargs):
    """A chat service on the thread pool, like a move (durak_site.db.in_thread): it never queues
    behind the one thread-sensitive thread, nor pays a connection check on every call."""
    try:
        return await in_thread(func)(*args, **kwargs), None
    except ServiceError as exc:
        await _error(consumer, exc)
        return None, exc


# The socket checks its session before any hook message (game/consumers.py), as before a move.


async def on_send(consumer, content: dict) -> None:
    await _call(consumer, services.post_message, consumer.table_id, consumer.user, content.get("text"),
                _rights(consumer), consumer.seat)


async def on_react(consumer, content: dict) -> None:
    await _call(consumer, services.react, consumer.table_id, consumer.user, content.get("key"),
                _rights(consumer), consumer.seat)


async def on_report(consumer, content: dict) -> None:
    found, exc = await _call(consumer, services.report, content.get("message_id"), consumer.user,
                             content.get("reason"), consumer.table_id, _rights(consumer))
    if exc is None:
        await consumer.send_json({"type": "chat_reported", "message_id": found.message_id})


async def on_settings(consumer, content: dict) -> None:
    await _call(consumer, services.update_settings, consumer.table_id, consumer.user, _rights(consumer),
                spectators=content.get("spectators"), profanity_filter=content.get("profanity_filter"))


async def on_sync(consumer, content: dict) -> None:
    await sync(consumer)


async def forward(consumer, event: dict) -> None:
    """A chat frame for the group: only sockets that may still read it pass it on."""
    frame = event["frame"]
    author = frame.get("author_id") or (frame.get("message") or {}).get("author_id")
    if _rights(consumer).read and author not in getattr(consumer, "chat_blocked", ()):
        await consumer.send_json(frame)


async def recheck(consumer, event: dict) -> None:
    await sync(consumer)


def register() -> None:
    protocol.register()  # the messages' definitions (chat/protocol.py)
    socket_hooks.on_connect(sync)
    socket_hooks.on_role_change(sync)
    socket_hooks.register("chat_send", on_send)
    socket_hooks.register("chat_react", on_react)
    socket_hooks.register("chat_report", on_report)
    socket_hooks.register("chat_settings", on_settings)
    socket_hooks.register("chat_sync", on_sync)
    socket_hooks.register_event("chat_forward", forward)
    socket_hooks.register_event("chat_recheck", recheck)
