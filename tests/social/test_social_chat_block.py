"""A block hides the blocked player's chat messages and reactions from the blocker only (he is not
told), live and in the history a reconnect reads."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from chat.models import ChatSettings
from tests.chat.helpers import chat_socket, next_chat, no_chat
from tests.game.helpers import close_quietly, make_player, make_table

pytestmark = pytest.mark.django_db(transaction=True)


def _setup():
    from social import people

    a, b, c = make_player(), make_player(), make_player()
    table = make_table(humans=[a, b, c])
    ChatSettings.objects.create(table=table)
    people.block(b, a.pk)
    return table, a, b, c


async def test_the_blocker_does_not_see_the_blocked_players_messages_and_others_do():
    table, a, b, c = await database_sync_to_async(_setup)()
    comm_a, _ = await chat_socket(table.pk, a)
    comm_b, _ = await chat_socket(table.pk, b)
    comm_c, _ = await chat_socket(table.pk, c)
    await comm_a.send_json_to({"type": "chat_send", "text": "гадость"})
    assert (await next_chat(comm_c, "chat"))["message"]["text"] == "гадость"
    assert (await next_chat(comm_a, "chat"))["message"]["text"] == "гадость"  # he sees his own: not told
    assert await no_chat(comm_b) == []
    await comm_c.send_json_to({"type": "chat_send", "text": "привет"})
    assert (await next_chat(comm_b, "chat"))["message"]["text"] == "привет"
    await close_quietly(comm_b)
    comm_b, state = await chat_socket(table.pk, b)
    assert [m["text"] for m in state["messages"]] == ["привет"]
    for comm in (comm_a, comm_b, comm_c):
        await close_quietly(comm)
