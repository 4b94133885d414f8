"""The chat in the waiting room: the same table socket before the game, the same rules, and the
conversation carries on into the game."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from chat import services
from chat.models import ChatSettings
from game import services as game_services
from lobby import services as lobby_services
from lobby.models import Seat, Table
from tests.chat.helpers import chat_socket, next_chat, no_chat
from tests.game.helpers import close_quietly, make_player, open_socket, receive_until

pytestmark = pytest.mark.django_db(transaction=True)


def _room(private: bool = False, spectators: str = "read"):
    """A waiting table of three seats: two players seated, the third free; no game."""
    a, b, visitor = make_player(), make_player(), make_player()
    table = Table.objects.create(name="room", host=a, seats_count=3, private=private, status=Table.Status.WAITING)
    Seat.objects.bulk_create([Seat(table=table, number=1, player=a), Seat(table=table, number=2, player=b),
                              Seat(table=table, number=3)])
    ChatSettings.objects.create(table=table, spectators=spectators)
    return table, a, b, visitor


async def test_players_chat_in_the_waiting_room_and_the_game_keeps_the_conversation():
    table, a, b, visitor = await database_sync_to_async(_room)()
    comm_a, state_a = await chat_socket(table.pk, a)
    comm_b, _ = await chat_socket(table.pk, b)
    comm_v, state_v = await chat_socket(table.pk, visitor)
    assert state_a["read"] and state_a["write"] and state_a["manage"]
    assert state_v["read"] and not state_v["write"]  # a visitor of the room is a spectator

    await comm_a.send_json_to({"type": "chat_send", "text": "Кто готов?"})
    for comm in (comm_a, comm_b, comm_v):
        assert (await next_chat(comm, "chat"))["message"]["text"] == "Кто готов?"
    await comm_v.send_json_to({"type": "chat_send", "text": "я тоже хочу"})
    assert (await next_chat(comm_v, "chat_error"))["code"] == "chat_read_only"

    # he sits down: his socket re-checks (the page asks when his seat appears) and he may write
    await database_sync_to_async(lobby_services.sit)(table.pk, visitor, 3)
    await comm_v.send_json_to({"type": "chat_sync"})
    seated = await next_chat(comm_v, "chat_state")
    assert seated["write"] and [m["text"] for m in seated["messages"]] == ["Кто готов?"]
    await comm_v.send_json_to({"type": "chat_send", "text": "я готов"})
    assert (await next_chat(comm_a, "chat"))["message"]["text"] == "я готов"

    # the game starts: the page reloads into the game table, whose socket has the same conversation
    game = await database_sync_to_async(game_services.start_game)(table.pk)
    await receive_until(comm_b, lambda f: f["type"] == "game_started")
    for comm in (comm_a, comm_b, comm_v):
        await close_quietly(comm)
    comm_b, in_game = await chat_socket(table.pk, b)
    assert [m["text"] for m in in_game["messages"]] == ["Кто готов?", "я готов"]
    assert in_game["version"] == seated["version"] + 1
    await comm_b.send_json_to({"type": "chat_send", "text": "удачи"})
    assert (await next_chat(comm_b, "chat"))["message"]["seat"] is not None  # now he has a game seat
    assert game.table_id == table.pk
    await close_quietly(comm_b)


async def test_the_room_keeps_the_chat_rules_hidden_private_and_muted():
    table, a, b, visitor = await database_sync_to_async(_room)(private=True, spectators="hidden")
    comm_a, _ = await chat_socket(table.pk, a)
    # a private table's room: a stranger's socket is closed before any chat reaches it
    comm_s, _connected, _code = await open_socket(table.pk, visitor)
    assert await comm_s.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}
    # a muted player in the room is refused with the reason
    moderator = await database_sync_to_async(make_player)()
    await database_sync_to_async(services.mute)(b.pk, moderator, "1h", "flood")
    comm_b, state_b = await chat_socket(table.pk, b)
    assert state_b["muted"]["reason"] == "flood"
    await comm_b.send_json_to({"type": "chat_send", "text": "hi"})
    error = await next_chat(comm_b, "chat_error")
    assert error["code"] == "chat_muted" and "flood" in error["message"]
    await close_quietly(comm_a)
    await close_quietly(comm_b)


async def test_a_hidden_chat_reaches_no_visitor_of_a_public_room():
    table, a, _b, visitor = await database_sync_to_async(_room)(spectators="hidden")
    comm_a, _ = await chat_socket(table.pk, a)
    comm_v, state_v = await chat_socket(table.pk, visitor)
    assert not state_v["read"] and "messages" not in state_v
    await comm_a.send_json_to({"type": "chat_send", "text": "только для своих"})
    await next_chat(comm_a, "chat")
    assert await no_chat(comm_v) == []
    await close_quietly(comm_a)
    await close_quietly(comm_v)


def test_the_room_page_carries_the_chat_panel_outside_what_htmx_refreshes(client):
    """lobby.pages.register_table_panel: the chat registers its panel; the room's fragment (the
    htmx refresh) does not hold it, so a refresh never wipes the conversation; a closed table has none."""
    table, a, _b, _v = _room()
    client.force_login(a)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert 'id="chat"' in page and "chat/chat.js" in page and 'id="chat-strings"' in page
    assert page.index('id="room"') < page.index('id="chat"')
    assert 'id="chat"' not in client.get(f"/tables/{table.pk}/room/").content.decode()
    Table.objects.filter(pk=table.pk).update(status=Table.Status.CLOSED)
    assert 'id="chat"' not in client.get(f"/tables/{table.pk}/").content.decode()


async def announcements_gone_out() -> None:
    """The sockets' arrival sets off the online list's and the queue's announcements, which read the
    database when they leave, up to a second later, on the same executor threads: let them leave
    before counting a chat message's statements."""
    from social import presence, queue_news

    for _ in range(100):
        if all(not a.task or a.task[0].done() for a in (presence._online, queue_news._news)):
            return
        await asyncio.sleep(0.05)


async def test_a_message_to_a_full_room_costs_the_same_few_statements_whatever_the_sockets():
    """The fan-out is one group send that each socket forwards from memory: no socket reads the
    database for a message (bench_chat measures the same on 50 tables)."""
    from chat.management.commands.bench_chat import QueryCounter

    table, a, b, visitor = await database_sync_to_async(_room)(spectators="write")
    comms = [(await chat_socket(table.pk, p))[0] for p in (a, b, visitor, visitor)]
    for comm in comms:  # answered only once the socket has finished connecting (its last write)
        await comm.send_json_to({"type": "no_such_type"})
        await next_chat(comm, "error")
    await announcements_gone_out()
    # the sockets' database hops run on the loop's executor threads (asyncio_N); a daemon another test
    # left in this process (an analysis thread, a ticker) must not count
    with QueryCounter(thread_prefix="asyncio_") as counter:
        await comms[2].send_json_to({"type": "chat_send", "text": "всем привет"})
        for comm in comms:
            await next_chat(comm, "chat")
        assert await no_chat(comms[0], 0.3) == []
        statements = counter.count
    # the session's generation, the writer's standing, the version bump, the INSERT; on Postgres also the
    # writer's own lock, which keeps the rate limits under parallel sends
    writer_lock = await database_sync_to_async(lambda: connection.vendor == "postgresql")()
    assert statements == 4 + writer_lock
    for comm in comms:
        await close_quietly(comm)
