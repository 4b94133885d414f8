"""The site's news on the table socket: a table page holds no site socket, so its table socket
counts the tab for presence, hears the player's personal news, answers an invitation, and arriving
at a matched table on it presses «Готово»."""

from __future__ import annotations

import asyncio
from typing import Literal, TypedDict

import pytest

from tests.game.helpers import close_quietly, make_player, make_table, open_socket, receive_until
from tests.security.kit import sync

pytestmark = pytest.mark.django_db(transaction=True)


async def _presence_sockets(player_id: int) -> int:
    from social.models import Presence

    return await sync(lambda: Presence.objects.filter(pk=player_id).values_list("sockets", flat=True).first() or 0)()


async def _sockets_become(player_id: int, count: int) -> int:
    """The connect and close hooks run after the frames a test waits for: look for a few seconds."""
    for _ in range(50):
        if await _presence_sockets(player_id) == count:
            break
        await asyncio.sleep(0.1)
    return await _presence_sockets(player_id)


async def test_a_table_socket_counts_the_tab_hears_an_invitation_and_answers_it():
    from lobby import services as lobby_services
    from lobby.models import Seat
    from social import people, presence

    guest = await sync(make_player)()
    host = await sync(make_player)()
    watched = await sync(make_table)(bots=["random", "random"])
    comm, connected, _ = await open_socket(watched.pk, guest)  # he watches a game
    assert connected
    await receive_until(comm, lambda f: f["type"] in ("state", "lobby"))
    assert await _sockets_become(guest.pk, 1) == 1
    assert await sync(presence.is_online)(guest.pk)
    table = await sync(lobby_services.create_table)(host, seats_count=4)
    await sync(people.invite)(host, guest.pk)
    note = await receive_until(comm, lambda f: f["type"] == "invitation")
    assert note["nick"] == host.nick and note["expires_in"] == 60
    # a malformed answer is refused on this socket too, and it lives on
    await comm.send_json_to({"type": "invitation", "id": note["id"], "accept": "yes"})
    assert (await receive_until(comm, lambda f: f["type"] == "error"))["code"] == "bad_message"
    await comm.send_json_to({"type": "invitation", "id": note["id"], "accept": True})
    answered = await receive_until(comm, lambda f: f["type"] == "invitation_answered")
    assert answered == {"type": "invitation_answered", "id": note["id"], "accepted": True,
                        "url": f"/tables/{table.pk}/"}
    assert await sync(Seat.objects.filter(table=table, player=guest).exists)()
    await comm.send_json_to({"type": "invitation", "id": note["id"], "accept": True})
    assert (await receive_until(comm, lambda f: f["type"] == "error"))["code"] == "invitation_expired"
    await close_quietly(comm)
    assert await _sockets_become(guest.pk, 0) == 0
    assert not await sync(presence.is_online)(guest.pk)


async def test_arriving_at_the_matched_table_on_its_socket_presses_ready():
    from lobby.models import Table
    from social import queue
    from social.models import SearchRequest

    a, b = await sync(make_player)(), await sync(make_player)()
    await sync(queue.join)(a, players=2, bot_fill=0, rated=False)
    second = await sync(queue.join)(b, players=2, bot_fill=0, rated=False)
    assert second.status == SearchRequest.Status.MATCHED
    table_id = second.table_id
    sockets = []
    for player in (a, b):
        comm, connected, _ = await open_socket(table_id, player)
        assert connected
        sockets.append(comm)
        await receive_until(comm, lambda f: f["type"] in ("state", "lobby"))
    await _sockets_become(b.pk, 1)
    statuses = await sync(lambda: sorted(SearchRequest.objects.filter(table_id=table_id)
                                         .values_list("status", flat=True)))()
    assert statuses == [SearchRequest.Status.SEATED, SearchRequest.Status.SEATED]
    assert (await sync(Table.objects.get)(pk=table_id)).status in (Table.Status.COUNTDOWN, Table.Status.PLAYING)
    for comm in sockets:
        await close_quietly(comm)


class Standings(TypedDict):
    type: Literal["standings"]
    n: int


async def test_the_page_hooks_hear_the_table_page_and_their_group_news_reaches_the_table_socket(monkeypatch):
    from channels.layers import get_channel_layer

    from game.protocol import schema
    from social import notify, site_hooks
    from social.protocol import BOTH

    monkeypatch.setattr(schema, "_specs", dict(schema._specs))
    schema.register_out(Standings, sockets=BOTH)  # as an app above social declares its news

    heard = []

    def hook(player_id, path):
        heard.append((player_id, path))
        return ["test-page-group"]

    monkeypatch.setattr(site_hooks, "_hooks", [hook])
    player = await sync(make_player)()
    table = await sync(make_table)(humans=[player], bots=["random"])
    comm, connected, _ = await open_socket(table.pk, player)
    assert connected
    await _sockets_become(player.pk, 1)
    assert heard == [(player.pk, f"/tables/{table.pk}/")]
    await get_channel_layer().group_send("test-page-group", notify.news_event({"type": "standings", "n": 1}))
    assert await receive_until(comm, lambda f: f["type"] == "standings") == {"type": "standings", "n": 1}
    await close_quietly(comm)
