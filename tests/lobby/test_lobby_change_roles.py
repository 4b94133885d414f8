"""A waiting-room change tells the table's sockets who holds which role after it, so a socket whose
player's role stayed as it was needs no database read to know that (game/consumers.py)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from durak_site import realtime
from game.consumers import TableConsumer
from lobby import services

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def _fresh_channel_layer():
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


async def test_a_waiting_room_change_names_the_host_the_seated_and_privacy(make_player):
    host = await database_sync_to_async(make_player)("rolehost")
    anna = await database_sync_to_async(make_player)("roleanna")
    table = await database_sync_to_async(services.create_table)(host, seats_count=3, private=True)
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(realtime.table_group(table.pk), channel)

    version = (await database_sync_to_async(services.sit)(table.pk, anna, 2)).version
    event = await layer.receive(channel)
    while event["version"] < version:  # the table's creation may be told after the listening began
        event = await layer.receive(channel)

    assert event["type"] == "lobby.changed"
    assert event["host"] == host.pk and event["private"] is True
    assert anna.pk in event["seated"]


def _socket(player_id: int, role: tuple[bool, bool]) -> TableConsumer:
    consumer = TableConsumer()
    consumer.user = SimpleNamespace(pk=player_id)
    consumer.role = role
    return consumer


def _event(host: int | None, seated: list[int], private: bool = False) -> dict:
    return {"type": "lobby.changed", "version": 3, "host": host, "seated": seated, "private": private}


async def test_a_socket_rereads_its_role_only_when_the_change_touched_it():
    seated = _socket(5, (False, True))
    assert seated._same_role(_event(host=6, seated=[5, 6], private=True))  # someone else's change
    assert not seated._same_role(_event(host=6, seated=[6]))  # he stood up
    assert not seated._same_role(_event(host=5, seated=[5, 6]))  # he became the host

    spectator = _socket(7, (False, False))
    assert spectator._same_role(_event(host=6, seated=[5, 6]))
    assert not spectator._same_role(_event(host=6, seated=[5, 6, 7]))  # he sat down
    # at a private table a spectator's right rests on an invite or a game seat: checked every time
    assert not spectator._same_role(_event(host=6, seated=[5, 6], private=True))
    # an event that does not say who holds what (or a socket that never learnt its role)
    assert not spectator._same_role({"type": "lobby.changed", "version": 4})
    assert not _socket(5, None)._same_role(_event(host=6, seated=[5, 6]))
