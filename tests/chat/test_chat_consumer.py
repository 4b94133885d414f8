"""Chat on the table socket: who reads, who writes, what everyone hears."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from chat import services
from chat.models import ChatSettings, Message
from game import services as game_services
from tests.chat.helpers import chat_socket, next_chat, no_chat
from tests.game.helpers import close_quietly, make_player, make_table, open_socket, receive_until

pytestmark = pytest.mark.django_db(transaction=True)


def _table(private: bool = False, spectators: str = "write", playing: bool = False):
    a, b, watcher = make_player(), make_player(), make_player()
    table = make_table(humans=[a, b])
    table.host, table.private = a, private
    table.save()
    ChatSettings.objects.create(table=table, spectators=spectators)
    if playing:
        game_services.start_game(table.pk)
    return table, a, b, watcher


async def test_players_chat_and_a_reconnect_gets_the_history_with_its_version():
    table, a, b, _w = await database_sync_to_async(_table)()
    comm_a, state_a = await chat_socket(table.pk, a)
    comm_b, _ = await chat_socket(table.pk, b)
    assert state_a["read"] and state_a["write"] and state_a["manage"] and state_a["messages"] == []
    await comm_a.send_json_to({"type": "chat_send", "text": "  Привет,\n всем!  "})
    got = await next_chat(comm_b, "chat")
    assert got["message"]["text"] == "Привет, всем!" and got["message"]["nick"] == a.nick
    assert got["version"] == state_a["version"] + 1
    await close_quietly(comm_b)
    comm_b, again = await chat_socket(table.pk, b)
    assert [m["text"] for m in again["messages"]] == ["Привет, всем!"] and again["version"] == got["version"]
    await close_quietly(comm_a)
    await close_quietly(comm_b)


async def test_reconnect_gets_only_the_last_50_messages():
    table, a, b, _w = await database_sync_to_async(_table)()

    def many():
        Message.objects.bulk_create(Message(table=table, author=a, text=str(i), shown=str(i)) for i in range(60))

    await database_sync_to_async(many)()
    comm, state = await chat_socket(table.pk, b)
    assert [m["text"] for m in state["messages"]] == [str(i) for i in range(10, 60)]
    await close_quietly(comm)


async def test_spectator_who_may_only_read_is_refused_with_a_code():
    table, a, _b, watcher = await database_sync_to_async(_table)(spectators="read")
    comm_w, state = await chat_socket(table.pk, watcher)
    assert state["read"] and not state["write"]
    await comm_w.send_json_to({"type": "chat_send", "text": "hi"})
    error = await next_chat(comm_w, "chat_error")
    assert error["code"] == "chat_read_only" and error["message"]
    assert not await database_sync_to_async(Message.objects.exists)()
    await close_quietly(comm_w)


async def test_hidden_chat_reaches_no_spectator_and_the_host_hiding_it_removes_him_live():
    table, a, _b, watcher = await database_sync_to_async(_table)()
    comm_a, _ = await chat_socket(table.pk, a)
    comm_w, state = await chat_socket(table.pk, watcher)
    assert state["read"]
    await comm_a.send_json_to({"type": "chat_settings", "spectators": "hidden"})
    hidden = await next_chat(comm_w, "chat_state")
    assert not hidden["read"] and "messages" not in hidden
    await comm_a.send_json_to({"type": "chat_send", "text": "secret plan"})
    await next_chat(comm_a, "chat")
    assert await no_chat(comm_w) == []
    await close_quietly(comm_a)
    await close_quietly(comm_w)


async def test_only_the_host_changes_the_chat_settings():
    table, _a, b, _w = await database_sync_to_async(_table)()
    comm_b, _ = await chat_socket(table.pk, b)
    await comm_b.send_json_to({"type": "chat_settings", "spectators": "hidden"})
    assert (await next_chat(comm_b, "chat_error"))["code"] == "chat_not_host"
    spectators = await database_sync_to_async(lambda: ChatSettings.objects.get(table=table).spectators)()
    assert spectators == "write"
    await close_quietly(comm_b)


async def test_private_tables_chat_never_reaches_a_stranger():
    """The stranger's socket is closed before anything is sent (4404, as for a missing table), so no
    message, reaction or chat state ever reaches him; the chat itself refuses him too."""
    table, a, _b, stranger = await database_sync_to_async(_table)(private=True)
    comm_a, _ = await chat_socket(table.pk, a)
    comm_s, _connected, _code = await open_socket(table.pk, stranger)
    closed = await comm_s.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4404}
    await comm_a.send_json_to({"type": "chat_send", "text": "only for us"})
    await next_chat(comm_a, "chat")
    rights = await database_sync_to_async(services.access)(table.pk, stranger)
    assert not rights.read
    with pytest.raises(services.ServiceError) as refused:
        await database_sync_to_async(services.post_message)(table.pk, stranger, "let me in", rights)
    assert refused.value.code == "chat_hidden"
    await close_quietly(comm_a)


async def test_muted_player_is_refused_with_the_reason_and_the_end():
    table, a, b, _w = await database_sync_to_async(_table)()
    moderator = await database_sync_to_async(make_player)()
    await database_sync_to_async(services.mute)(b.pk, moderator, "1h", "insults")
    comm_b, state = await chat_socket(table.pk, b)
    assert state["muted"]["reason"] == "insults" and state["muted"]["until"]
    await comm_b.send_json_to({"type": "chat_send", "text": "hello"})
    error = await next_chat(comm_b, "chat_error")
    assert error["code"] == "chat_muted" and "insults" in error["message"]
    await comm_b.send_json_to({"type": "chat_react", "key": "emoji_like"})
    assert (await next_chat(comm_b, "chat_error"))["code"] == "chat_muted"
    assert not await database_sync_to_async(Message.objects.exists)()
    await close_quietly(comm_b)


async def test_banned_player_cannot_write():
    """His socket keeps the session check of a move: the ban ends it, with the ban's words."""
    table, a, _b, _w = await database_sync_to_async(_table)()
    moderator = await database_sync_to_async(make_player)()
    comm_a, _ = await chat_socket(table.pk, a)
    await database_sync_to_async(services.ban)(a.pk, moderator, "cheating")
    await comm_a.send_json_to({"type": "chat_send", "text": "hello"})
    ended = await receive_until(comm_a, lambda f: f["type"] in ("error", "chat_error"))
    assert ended["code"] == "banned" and "cheating" in ended["message"]
    assert (await comm_a.receive_output(timeout=5))["code"] == 4403
    assert not await database_sync_to_async(Message.objects.exists)()
    # and the service refuses him whatever socket he comes through
    rights = await database_sync_to_async(services.access)(table.pk, a)
    with pytest.raises(services.ServiceError) as refused:
        await database_sync_to_async(services.post_message)(table.pk, a, "hello", rights)
    assert refused.value.code == "chat_banned" and "cheating" in refused.value.message


async def test_deleted_message_disappears_from_every_socket():
    table, a, b, watcher = await database_sync_to_async(_table)()
    comms = [(await chat_socket(table.pk, p))[0] for p in (a, b, watcher)]
    await comms[0].send_json_to({"type": "chat_send", "text": "rude words"})
    sent = [await next_chat(c, "chat") for c in comms]
    moderator = await database_sync_to_async(make_player)()
    await database_sync_to_async(services.delete_message)(sent[0]["message"]["id"], moderator)
    for comm in comms:
        gone = await next_chat(comm, "chat_deleted")
        assert gone["id"] == sent[0]["message"]["id"] and gone["version"] > sent[0]["version"]
    comm_new, state = await chat_socket(table.pk, watcher)
    assert state["messages"] == []
    for comm in [*comms, comm_new]:
        await close_quietly(comm)


async def test_markup_arrives_as_the_text_written():
    table, a, b, _w = await database_sync_to_async(_table)()
    comm_a, _ = await chat_socket(table.pk, a)
    comm_b, _ = await chat_socket(table.pk, b)
    text = '<img src=x onerror="alert(1)"><b>hi</b> &amp; <a href="http://x">x</a>'
    await comm_a.send_json_to({"type": "chat_send", "text": text})
    assert (await next_chat(comm_b, "chat"))["message"]["text"] == text
    await close_quietly(comm_a)
    await close_quietly(comm_b)


async def test_bad_chat_input_is_refused_and_changes_nothing():
    table, a, _b, _w = await database_sync_to_async(_table)()
    comm_a, _ = await chat_socket(table.pk, a)
    for content, code in [({"text": 5}, "chat_bad_text"), ({"text": "   "}, "chat_empty"),
                          ({"text": "я" * 201}, "chat_too_long"), ({}, "chat_bad_text")]:
        await comm_a.send_json_to({"type": "chat_send", **content})
        assert (await next_chat(comm_a, "chat_error"))["code"] == code
    await comm_a.send_json_to({"type": "chat_react", "key": "<script>"})
    assert (await next_chat(comm_a, "chat_error"))["code"] == "chat_bad_reaction"
    await comm_a.send_json_to({"type": "chat_report", "message_id": "1", "reason": "x"})
    assert (await next_chat(comm_a, "chat_error"))["code"] == "chat_no_message"
    await comm_a.send_json_to({"type": "chat_settings", "spectators": "everyone"})
    assert (await next_chat(comm_a, "chat_error"))["code"] == "chat_bad_setting"
    await comm_a.send_json_to({"type": "ping"})
    assert (await next_chat(comm_a, "pong"))["type"] == "pong"  # the socket lives on
    assert not await database_sync_to_async(Message.objects.exists)()
    await close_quietly(comm_a)


async def test_writing_too_often_is_refused_per_player_and_per_table(monkeypatch):
    table, a, b, watcher = await database_sync_to_async(_table)()
    comm_a, _ = await chat_socket(table.pk, a)
    for i in range(services.PLAYER_LIMIT[0]):
        await comm_a.send_json_to({"type": "chat_send", "text": f"m{i}"})
        await next_chat(comm_a, "chat")
    await comm_a.send_json_to({"type": "chat_send", "text": "one more"})
    error = await next_chat(comm_a, "chat_error")
    assert error["code"] == "chat_too_often" and "слишком часто" in error["message"].lower()
    monkeypatch.setattr(services, "TABLE_LIMIT", (services.PLAYER_LIMIT[0] + 1, 10))
    comm_b, _ = await chat_socket(table.pk, b)
    await comm_b.send_json_to({"type": "chat_send", "text": "b1"})
    await next_chat(comm_b, "chat")
    await comm_b.send_json_to({"type": "chat_send", "text": "b2"})
    assert (await next_chat(comm_b, "chat_error"))["code"] == "chat_table_busy"
    await close_quietly(comm_a)
    await close_quietly(comm_b)


async def test_reaction_floats_over_the_senders_game_seat_and_is_rate_limited():
    table, a, b, _w = await database_sync_to_async(_table)(playing=True)
    comm_a, _ = await chat_socket(table.pk, a)
    comm_b, _ = await chat_socket(table.pk, b)
    await comm_b.send_json_to({"type": "chat_react", "key": "emoji_clap"})
    got = await next_chat(comm_a, "chat_reaction")
    assert got["key"] == "emoji_clap" and got["seat"] == 2 and got["author_id"] == b.pk
    for _ in range(services.REACTION_LIMIT[0]):
        await comm_b.send_json_to({"type": "chat_react", "key": "thanks"})
    frames = [await receive for receive in [next_chat(comm_b, "chat_error", timeout=5)]]
    assert frames[0]["code"] == "chat_too_often"
    await close_quietly(comm_a)
    await close_quietly(comm_b)


async def test_profanity_is_masked_when_the_table_filters_it():
    table, a, b, _w = await database_sync_to_async(_table)()
    comm_a, _ = await chat_socket(table.pk, a)
    await comm_a.send_json_to({"type": "chat_send", "text": "ну ты сука"})
    assert (await next_chat(comm_a, "chat"))["message"]["text"] == "ну ты с***"
    await comm_a.send_json_to({"type": "chat_settings", "profanity_filter": False})
    await next_chat(comm_a, "chat_state")
    await comm_a.send_json_to({"type": "chat_send", "text": "ну ты сука"})
    assert (await next_chat(comm_a, "chat"))["message"]["text"] == "ну ты сука"
    await close_quietly(comm_a)


async def test_report_reaches_the_queue_once():
    table, a, b, _w = await database_sync_to_async(_table)()
    comm_a, _ = await chat_socket(table.pk, a)
    comm_b, _ = await chat_socket(table.pk, b)
    await comm_a.send_json_to({"type": "chat_send", "text": "bad"})
    msg = (await next_chat(comm_b, "chat"))["message"]
    for _ in range(2):
        await comm_b.send_json_to({"type": "chat_report", "message_id": msg["id"], "reason": "rude"})
        assert (await next_chat(comm_b, "chat_reported"))["message_id"] == msg["id"]
    await comm_a.send_json_to({"type": "chat_report", "message_id": msg["id"], "reason": "me"})
    assert (await next_chat(comm_a, "chat_error"))["code"] == "chat_own_message"
    from chat.models import Report

    assert await database_sync_to_async(Report.objects.filter(message_id=msg["id"]).count)() == 1
    await close_quietly(comm_a)
    await close_quietly(comm_b)
