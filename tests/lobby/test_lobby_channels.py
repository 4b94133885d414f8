"""Two players on real table sockets (WebsocketCommunicator through the full ASGI app) see each
other's seat and ready changes, and presence follows the socket."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from game import services as game_services
from lobby import services
from lobby.models import Seat, Table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def _fresh_channel_layer():
    """pytest-asyncio gives every test its own loop; a cached channels-redis layer keeps locks bound to
    the previous test's loop, so each test gets a fresh layer instance."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


def _cookie_for(player) -> str:
    client = Client()
    client.force_login(player)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


async def _connect(table_id: int, player) -> WebsocketCommunicator:
    from durak_site.asgi import application

    cookie = await database_sync_to_async(_cookie_for)(player)
    comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/",
                                 headers=[(b"cookie", cookie.encode()), (b"origin", b"http://localhost"),
                                          (b"host", b"localhost")])
    connected, _code = await comm.connect(timeout=5)
    assert connected
    return comm


async def _lobby_frame_at_least(comm: WebsocketCommunicator, version: int, timeout: float = 5.0) -> dict:
    """Read frames until a lobby frame with version >= `version` arrives."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        left = end - loop.time()
        assert left > 0, f"no lobby frame with version >= {version}"
        frame = await comm.receive_json_from(timeout=left)
        if frame.get("type") == "lobby" and (frame.get("version") or 0) >= version:
            return frame


async def _wait_for(load, ok, timeout: float = 5.0):
    for _ in range(int(timeout / 0.1)):
        value = await database_sync_to_async(load)()
        if ok(value):
            return value
        await asyncio.sleep(0.1)
    return value


async def _version(table_id: int) -> int:
    return await database_sync_to_async(lambda: Table.objects.get(pk=table_id).version)()


async def test_two_players_see_each_others_seat_and_ready_changes(make_player):
    host = await database_sync_to_async(make_player)("wshost")
    anna = await database_sync_to_async(make_player)("wsanna")
    table = await database_sync_to_async(services.create_table)(host, seats_count=3)
    a = await _connect(table.pk, host)
    b = await _connect(table.pk, anna)
    try:
        await database_sync_to_async(services.sit)(table.pk, anna, 2)
        v = await _version(table.pk)
        assert (await _lobby_frame_at_least(a, v))["version"] >= v  # the host sees anna sit down
        await _lobby_frame_at_least(b, v)

        await database_sync_to_async(services.set_ready)(table.pk, host, True)
        v = await _version(table.pk)
        await _lobby_frame_at_least(b, v)  # anna sees the host's «Готово»

        await database_sync_to_async(services.set_ready)(table.pk, anna, True)
        v = await _version(table.pk)
        await _lobby_frame_at_least(a, v)
        status = await database_sync_to_async(lambda: Table.objects.get(pk=table.pk).status)()
        assert status == Table.Status.COUNTDOWN

        await database_sync_to_async(services.set_ready)(table.pk, anna, False)  # un-ready cancels
        v = await _version(table.pk)
        await _lobby_frame_at_least(a, v)
        status = await database_sync_to_async(lambda: Table.objects.get(pk=table.pk).status)()
        assert status == Table.Status.WAITING
    finally:
        await a.disconnect()
        await b.disconnect()


async def test_presence_follows_the_socket_in_the_waiting_room(make_player):
    host = await database_sync_to_async(make_player)("prhost")
    anna = await database_sync_to_async(make_player)("pranna")
    table = await database_sync_to_async(services.create_table)(host, seats_count=2)
    await database_sync_to_async(services.sit)(table.pk, anna, 2)
    watcher = await _connect(table.pk, host)
    b = await _connect(table.pk, anna)

    def seat2():
        return Seat.objects.get(table_id=table.pk, number=2)

    seat = await _wait_for(seat2, lambda s: s.connected)  # the consumer calls set_presence after accept
    assert seat.connected and seat.inactive_deadline is None
    v = await _version(table.pk)
    await _lobby_frame_at_least(watcher, v)  # the host sees anna's connected dot light up
    await b.disconnect()
    seat = await _wait_for(seat2, lambda s: not s.connected)
    assert not seat.connected and seat.inactive_deadline is not None
    await watcher.disconnect()


async def test_closing_one_of_two_tabs_keeps_the_waiting_room_seat_connected(make_player):
    host = await database_sync_to_async(make_player)("twhost")
    anna = await database_sync_to_async(make_player)("twanna")
    table = await database_sync_to_async(services.create_table)(host, seats_count=2)
    await database_sync_to_async(services.sit)(table.pk, anna, 2)
    first = await _connect(table.pk, anna)
    second = await _connect(table.pk, anna)
    # each socket's first frame comes after it was counted: only then are two tabs open (without
    # this wait the first could close before the second was counted, and count as the last one)
    await first.receive_json_from(timeout=5)
    await second.receive_json_from(timeout=5)

    def seat2():
        return Seat.objects.get(table_id=table.pk, number=2)

    await _wait_for(seat2, lambda s: s.connected)
    await first.disconnect()
    await asyncio.sleep(0.5)  # time for a (wrong) disconnect to be written
    seat = await database_sync_to_async(seat2)()
    assert seat.connected and seat.inactive_deadline is None
    await second.disconnect()  # the last tab: now she is gone
    seat = await _wait_for(seat2, lambda s: not s.connected)
    assert seat.inactive_deadline is not None


async def test_at_zero_everyone_at_the_table_is_told_the_game_started(make_player):
    from datetime import timedelta

    from django.utils import timezone

    host = await database_sync_to_async(make_player)("gshost")
    anna = await database_sync_to_async(make_player)("gsanna")
    table = await database_sync_to_async(services.create_table)(host, seats_count=3)
    await database_sync_to_async(services.sit)(table.pk, anna, 2)
    await database_sync_to_async(services.add_bot)(table.pk, host, 3, "random")
    a = await _connect(table.pk, host)
    b = await _connect(table.pk, anna)
    try:
        await database_sync_to_async(services.set_ready)(table.pk, host, True)
        await database_sync_to_async(services.set_ready)(table.pk, anna, True)

        def due():
            Table.objects.filter(pk=table.pk).update(countdown_deadline=timezone.now() - timedelta(seconds=1))
            return game_services.fire_countdown(table.pk)

        game = await database_sync_to_async(due)()
        assert game is not None
        for comm in (a, b):
            loop = asyncio.get_running_loop()
            end = loop.time() + 5
            while True:
                frame = await comm.receive_json_from(timeout=max(0.1, end - loop.time()))
                if frame.get("type") == "game_started":
                    assert frame["game_id"] == game.pk
                    break
        status = await database_sync_to_async(lambda: Table.objects.get(pk=table.pk).status)()
        assert status == Table.Status.PLAYING
    finally:
        await a.disconnect()
        await b.disconnect()
