"""The table socket's hooks for upper apps: their messages (declared in game/protocol, as an app
declares its own) and events reach them, and a failing hook is answered with an error while the
socket lives on."""

from __future__ import annotations

from typing import Literal, TypedDict

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from durak_site import realtime
from game import socket_hooks
from game.protocol import schema
from tests.game.helpers import close_quietly, make_player, make_table, open_socket, receive_until

pytestmark = pytest.mark.django_db(transaction=True)


class EchoIn(TypedDict):
    type: Literal["test_echo"]
    text: str


class BoomIn(TypedDict):
    type: Literal["test_boom"]


class Echoed(TypedDict):
    type: Literal["echoed"]
    text: str


class Evented(TypedDict):
    type: Literal["evented"]
    n: int


@pytest.fixture
def declared(monkeypatch):
    """The test's messages declared as an app declares its own, forgotten after the test."""
    monkeypatch.setattr(schema, "_specs", dict(schema._specs))
    schema.register_in(EchoIn, BoomIn)
    schema.register_out(Echoed, Evented)


async def test_a_registered_message_and_event_reach_their_hook_and_a_failing_hook_keeps_the_socket(monkeypatch,
                                                                                                 declared):
    async def echo(consumer, content):
        await consumer.send_json({"type": "echoed", "text": content.get("text")})

    async def boom(consumer, content):
        raise RuntimeError("a bug in an upper app")

    async def on_event(consumer, event):
        await consumer.send_json({"type": "evented", "n": event["n"]})

    monkeypatch.setitem(socket_hooks._messages, "test_echo", echo)
    monkeypatch.setitem(socket_hooks._messages, "test_boom", boom)
    monkeypatch.setitem(socket_hooks._events, "test_event", on_event)
    player = await database_sync_to_async(make_player)()
    table = await database_sync_to_async(make_table)(humans=[player], bots=["random"])
    comm, connected, _ = await open_socket(table.pk, player)
    assert connected
    await comm.send_json_to({"type": "test_echo", "text": "hi"})
    assert await receive_until(comm, lambda f: f["type"] == "echoed") == {"type": "echoed", "text": "hi"}
    await comm.send_json_to({"type": "test_boom"})
    error = await receive_until(comm, lambda f: f["type"] == "error")
    assert error["code"] == "internal_error"
    await get_channel_layer().group_send(realtime.table_group(table.pk),
                                         {"type": "socket.hook", "hook": "test_event", "n": 3})
    assert await receive_until(comm, lambda f: f["type"] == "evented") == {"type": "evented", "n": 3}
    await comm.send_json_to({"type": "ping"})
    assert (await receive_until(comm, lambda f: f["type"] == "pong"))["type"] == "pong"
    await comm.send_json_to({"type": "not_registered"})
    assert (await receive_until(comm, lambda f: f["type"] == "error"))["code"] == "unknown_type"
    await close_quietly(comm)
