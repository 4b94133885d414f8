"""The table socket's handshake: who may connect and what he sees first."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async

from game import services
from tests.game.helpers import make_player, make_table, open_socket, receive_until

pytestmark = pytest.mark.django_db(transaction=True)


async def test_anonymous_socket_is_closed_with_4401():
    table = await database_sync_to_async(make_table)(bots=["random", "random"])
    comm, connected, _ = await open_socket(table.pk)
    assert connected
    out = await comm.receive_output(timeout=2)
    assert out == {"type": "websocket.close", "code": 4401}


async def test_unknown_table_is_closed_with_4404():
    player = await database_sync_to_async(make_player)()
    comm, connected, _ = await open_socket(999999, player)
    assert connected
    out = await comm.receive_output(timeout=2)
    assert out == {"type": "websocket.close", "code": 4404}


async def test_foreign_origin_is_refused():
    player = await database_sync_to_async(make_player)()
    table = await database_sync_to_async(make_table)(humans=[player], bots=["random"])
    comm, connected, _ = await open_socket(table.pk, player, origin=b"http://evil.example")
    assert not connected


async def test_waiting_table_sends_the_lobby_version_and_answers_ping():
    def setup():
        player = make_player()
        table = make_table(humans=[player], bots=["random"])
        table.status = "waiting"
        table.version = 7
        table.save()
        return player, table

    player, table = await database_sync_to_async(setup)()
    comm, connected, _ = await open_socket(table.pk, player)
    assert connected
    # read after his arrival was written: the version that shows him present (7 + 1)
    assert await comm.receive_json_from(timeout=3) == {"type": "lobby", "version": 8}
    await comm.send_json_to({"type": "ping"})
    # (the lobby may bump its version for the presence change first)
    assert await receive_until(comm, lambda f: f["type"] not in ("lobby", "chat_state")) == {"type": "pong", "version": None}
    await comm.disconnect(timeout=10)


async def test_seated_player_gets_his_own_hand_on_connect_and_spectator_none(settings):
    settings.BOT_SCHEDULER = "off"

    def setup():
        a, b, watcher = make_player(), make_player(), make_player()
        table = make_table(humans=[a, b])
        game = services.start_game(table.pk)
        return a, b, watcher, table, game

    a, b, watcher, table, game = await database_sync_to_async(setup)()
    comm_a, ok, _ = await open_socket(table.pk, a)
    assert ok
    frame = await comm_a.receive_json_from(timeout=3)
    assert frame["type"] == "state" and frame["seat"] == 1 and frame["game_id"] == game.pk
    assert sorted(frame["view"]["hand"]) == sorted(game.state["hands"][0])
    comm_w, ok, _ = await open_socket(table.pk, watcher)
    frame_w = await comm_w.receive_json_from(timeout=3)
    assert frame_w["seat"] is None and frame_w["view"]["hand"] == []
    await comm_a.disconnect(timeout=10)
    await comm_w.disconnect(timeout=10)


async def test_closing_one_of_two_tabs_keeps_the_game_seat_connected_and_the_last_one_starts_the_clock(settings):
    from game.models import GameSeat

    settings.BOT_SCHEDULER = "off"
    a, b = await database_sync_to_async(make_player)(), await database_sync_to_async(make_player)()
    table = await database_sync_to_async(make_table)(humans=[a, b])
    game = await database_sync_to_async(services.start_game)(table.pk)
    first, ok1, _ = await open_socket(table.pk, b)
    second, ok2, _ = await open_socket(table.pk, b)
    assert ok1 and ok2
    await receive_until(first, lambda f: f["type"] == "state")
    await receive_until(second, lambda f: f["type"] == "state")

    def seat():
        return GameSeat.objects.get(game_id=game.pk, number=2)

    await first.disconnect()
    await asyncio.sleep(0.5)  # time for a (wrong) disconnect to be written
    gs = await database_sync_to_async(seat)()
    assert gs.connected and gs.disconnect_deadline is None
    await second.disconnect()
    for _ in range(50):
        gs = await database_sync_to_async(seat)()
        if not gs.connected:
            break
        await asyncio.sleep(0.1)
    assert not gs.connected and gs.disconnect_deadline is not None
