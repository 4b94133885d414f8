"""The site socket: presence, a match pushed to both players, invitations answered on it, and every
kind of bad input answered with an error frame that changes nothing; flooding closes with 4429."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.testing import WebsocketCommunicator

from tests.security.kit import closed_with, signed_in, socket_for, sync

pytestmark = pytest.mark.django_db(transaction=True)


def _player(nick):
    from accounts.models import Player

    return Player.objects.create_user(nick)


async def _open(nick):
    player = await sync(_player)(nick)
    client = await sync(signed_in)(player)
    comm, ok = await socket_for(client, "/ws/site/")
    assert ok
    hello = await comm.receive_json_from(timeout=5)
    assert hello == {"type": "hello", "search": {"state": "idle"}}
    return player, client, comm


async def _until(comm, kind, timeout=5.0):
    while True:
        frame = await comm.receive_json_from(timeout=timeout)
        if frame.get("type") == kind:
            return frame


async def test_not_signed_in_closes_with_4401():
    from durak_site.asgi import application

    comm = WebsocketCommunicator(application, "/ws/site/", headers=[(b"origin", b"http://testserver")])
    connected, _ = await comm.connect(timeout=5)
    assert connected
    frames, code = await closed_with(comm)
    assert code == 4401


async def test_a_tab_is_online_while_open_and_a_search_on_the_socket_meets_the_other():
    from social import presence

    a, _ca, comm_a = await _open("Вера")
    b, _cb, comm_b = await _open("Глеб")
    assert await sync(presence.is_online)(a.pk)
    await comm_a.send_json_to({"type": "search", "choices": {"players": 2, "bot_fill": 0}})
    searching = await _until(comm_a, "search")
    assert searching["search"]["state"] == "searching"
    await comm_b.send_json_to({"type": "search", "choices": {"players": 2, "bot_fill": 0}})
    match_a = await _until(comm_a, "match")
    match_b = await _until(comm_b, "match")
    assert match_a["url"] == match_b["url"] and match_a["url"].startswith("/tables/")
    # arriving at the table page (the page message) presses «Готово» for him
    await comm_a.send_json_to({"type": "page", "path": match_a["url"]})
    await comm_b.send_json_to({"type": "page", "path": match_b["url"]})
    for comm in (comm_a, comm_b):  # each socket handles its messages in order: a pong means the page was handled
        await comm.send_json_to({"type": "ping"})
        await _until(comm, "pong")
    from lobby.models import Table

    table = await sync(Table.objects.get)(pk=match_a["table_id"])
    assert table.status == Table.Status.COUNTDOWN
    await comm_a.disconnect()
    assert not await sync(presence.is_online)(a.pk)
    await comm_b.disconnect()


async def test_an_invitation_reaches_the_guest_and_accepting_it_seats_him():
    from lobby import services as lobby_services
    from lobby.models import Seat
    from social import people

    host = await sync(_player)("Хозяин")
    table = await sync(lobby_services.create_table)(host, seats_count=4)
    guest, _c, comm = await _open("Гость")
    await sync(people.invite)(host, guest.pk)
    note = await _until(comm, "invitation")
    assert note["nick"] == "Хозяин" and note["expires_in"] == 60
    await comm.send_json_to({"type": "invitation", "id": note["id"], "accept": True})
    answered = await _until(comm, "invitation_answered")
    assert answered["accepted"] and answered["url"] == f"/tables/{table.pk}/"
    assert await sync(Seat.objects.filter(table=table, player=guest).exists)()
    # the same invitation again: refused, nothing changes
    await comm.send_json_to({"type": "invitation", "id": note["id"], "accept": True})
    error = await _until(comm, "error")
    assert error["code"] == "invitation_expired"
    await comm.disconnect()


BAD = [
    ("not json", "bad_json"),
    (json.dumps([1, 2]), "bad_message"),
    (json.dumps({"kind": "x"}), "bad_message"),
    (json.dumps({"type": "fly"}), "unknown_type"),
    (json.dumps({"type": "search", "choices": {"players": 9}}), "bad_seats"),
    (json.dumps({"type": "search", "choices": "all"}), "bad_message"),
    (json.dumps({"type": "search", "choices": {"evil": 1}}), "unknown_setting"),
    (json.dumps({"type": "invitation", "id": 999, "accept": True}), "invitation_not_found"),
    (json.dumps({"type": "invitation", "id": "x", "accept": "yes"}), "bad_message"),
    (json.dumps({"type": "page", "path": 5}), "bad_message"),
    (json.dumps({"type": "page", "path": "x" * 300}), "bad_message"),
    (json.dumps({"type": "ping", "pad": "x" * 2000}), "too_large"),
]


async def test_bad_input_gets_an_error_frame_and_changes_nothing():
    from social.models import Invitation, SearchRequest

    _p, _c, comm = await _open("Плохой")
    for text, code in BAD:
        await comm.send_to(text_data=text)
        frame = await _until(comm, "error")
        assert frame["code"] == code, text
        assert frame["message"]
    assert not await sync(SearchRequest.objects.exists)()
    assert not await sync(Invitation.objects.exists)()
    await comm.send_json_to({"type": "ping"})
    assert (await _until(comm, "pong"))["type"] == "pong"  # still open
    await comm.disconnect()


async def test_flooding_closes_with_4429():
    _p, _c, comm = await _open("Шумный")
    for _ in range(40):
        await comm.send_json_to({"type": "ping"})
    frames, code = await closed_with(comm)
    assert code == 4429
    assert frames[-1]["code"] == "flooding"


async def test_the_online_list_reaches_a_lobby_viewer_at_most_once_a_second_whatever_the_churn():
    import asyncio
    import time

    from social import presence

    viewer, _c, comm = await _open("Смотрящий")
    await comm.send_json_to({"type": "page", "path": "/tables/"})
    first = await _until(comm, "online")
    assert first["online"] == 1 and [p["nick"] for p in first["players"]] == ["Смотрящий"]
    others = [await sync(_player)(f"o{i}") for i in range(5)]

    async def churn() -> None:
        for _round in range(10):
            for p in others[:2]:
                await sync(presence.opened)(p.pk)
                await sync(presence.closed)(p.pk)
        for p in others:
            await sync(presence.opened)(p.pk)

    task = asyncio.ensure_future(churn())
    arrivals, last = [], None
    quiet_since = None
    while True:
        if await comm.receive_nothing(timeout=0.2):  # (a receive that times out would stop the app)
            if task.done():
                quiet_since = quiet_since or time.monotonic()
                if time.monotonic() - quiet_since > 2.0:
                    break
            continue
        quiet_since = None
        frame = await comm.receive_json_from(timeout=5)
        if frame["type"] == "online":
            arrivals.append(time.monotonic())
            last = frame
    await task
    gaps = [b - a for a, b in zip(arrivals, arrivals[1:], strict=False)]
    assert arrivals and all(g >= 0.9 for g in gaps), gaps  # 50 changes, never more than one a second
    assert last["online"] == 6  # the last one is the truth after the churn
    await comm.disconnect()


async def test_one_reading_of_the_online_list_serves_every_lobby_viewer(monkeypatch):
    from social import presence

    viewers = [await _open(f"Зритель{i}") for i in range(3)]
    for _p, _c, comm in viewers:
        await comm.send_json_to({"type": "page", "path": "/tables/"})
        await _until(comm, "online")
    reads = []
    real_summary = presence.summary
    monkeypatch.setattr(presence, "summary", lambda: reads.append(1) or real_summary())
    newcomer = await sync(_player)("Новенький")
    await sync(presence.opened)(newcomer.pk)

    frames = [await _until(comm, "online") for _p, _c, comm in viewers]
    assert all(f["online"] == 4 for f in frames) and frames[0] == frames[1] == frames[2]
    assert len(reads) == 1  # read once for all three, not once per viewer
    for _p, _c, comm in viewers:
        await comm.disconnect()


async def test_one_reading_of_the_queue_serves_every_waiting_page(monkeypatch):
    from social import queue, queue_news

    six = {"players": 6, "deck": 52, "bot_fill": 0}  # four of them never fill a table
    searchers = [await _open(f"Ждущий{i}") for i in range(3)]
    for _p, _c, comm in searchers:
        await comm.send_json_to({"type": "search", "choices": six})
        assert (await _until(comm, "search"))["search"]["state"] == "searching"
    await asyncio.sleep(1.2)  # the joins' own news has gone out
    for _p, _c, comm in searchers:
        while not await comm.receive_nothing(timeout=0.3):
            await comm.receive_json_from(timeout=1)
    reads = []
    real_read = queue_news._news.read
    monkeypatch.setattr(queue_news._news, "read", lambda: reads.append(1) or real_read())
    newcomer = await sync(_player)("Четвёртый")
    await sync(queue.join)(newcomer, **six)

    frames = [await _until(comm, "search") for _p, _c, comm in searchers]
    assert [f["search"]["others"] for f in frames] == [3, 3, 3]
    assert all(f["search"]["state"] == "searching" for f in frames)
    assert len(reads) == 1  # read once for all three, not once per page
    for _p, _c, comm in searchers:
        await comm.disconnect()


async def test_two_players_who_blocked_each_other_do_not_count_each_other_as_searching():
    """They can never be matched: each one's «Ищут игру с теми же настройками» leaves the other out,
    on the page and on the socket's news, while a third searcher still counts."""
    from social import people, queue
    from social.models import SearchRequest

    six = {"players": 6, "deck": 52, "bot_fill": 0}  # never filled: everyone keeps waiting
    (anna, _ca, comm_a), (boris, _cb, comm_b) = await _open("Анна_б"), await _open("Борис_б")
    await sync(people.block)(anna, boris.pk)
    for comm in (comm_a, comm_b):
        await comm.send_json_to({"type": "search", "choices": six})
        assert (await _until(comm, "search"))["search"]["state"] == "searching"
    rows = {r.player_id: r for r in await sync(lambda: list(SearchRequest.objects.filter(status="waiting")))()}
    assert await sync(queue.others_searching)(rows[anna.pk]) == 0
    assert await sync(queue.others_searching)(rows[boris.pk]) == 0
    third = await sync(_player)("Третий_б")
    await sync(queue.join)(third, **six)
    for comm in (comm_a, comm_b):
        frame = await _until(comm, "search")
        while frame["search"].get("others") != 1:
            frame = await _until(comm, "search")  # the join's own news, then the third's
        assert frame["search"]["others"] == 1
    for comm in (comm_a, comm_b):
        await comm.disconnect()


async def test_an_invitation_expires_after_a_minute():
    from datetime import timedelta

    from durak_site.errors import ServiceError
    from lobby import services as lobby_services
    from social import people
    from social.models import Invitation

    host = await sync(_player)("Хозяйка2")
    guest = await sync(_player)("Гостья2")
    await sync(lobby_services.create_table)(host, seats_count=4)
    row = await sync(people.invite)(host, guest.pk)
    assert row.expires_at - row.created_at == timedelta(seconds=60)
    await sync(Invitation.objects.filter(pk=row.pk).update)(expires_at=row.created_at)
    with pytest.raises(ServiceError) as exc:
        await sync(people.answer)(guest, row.pk, True)
    assert exc.value.code == "invitation_expired"
    from durak_site import deadlines

    await sync(deadlines.sweep)()  # (or a live server's driver on the same database, before it)
    assert (await sync(Invitation.objects.get)(pk=row.pk)).status == Invitation.Status.EXPIRED


async def test_too_many_sockets_of_one_account_close_with_4408(settings):
    settings.SOCKETS_PER_ACCOUNT = 2
    player = await sync(_player)("Многовкладочный")
    client = await sync(signed_in)(player)
    first, _ = await socket_for(client, "/ws/site/")
    second, _ = await socket_for(client, "/ws/site/")
    third, _ = await socket_for(client, "/ws/site/")
    frames, code = await closed_with(third)
    assert code == 4408 and frames[-1]["code"] == "too_many_sockets"
    await first.disconnect()
    again, _ = await socket_for(client, "/ws/site/")
    assert (await again.receive_json_from(timeout=5))["type"] == "hello"  # a closed tab frees its place
    for comm in (second, again):
        await comm.disconnect()


@pytest.mark.parametrize("choices", [{"player": 7}, {"match_now": False}, {"colour": "red"}])
async def test_an_unknown_search_key_gets_the_catalogues_error_and_no_traceback(choices, caplog):
    from social.models import SearchRequest

    _p, _c, comm = await _open("Жора")
    await comm.send_json_to({"type": "search", "choices": choices})
    frame = await _until(comm, "error")
    assert frame["code"] == "unknown_setting" and frame["message"]
    assert not [r for r in caplog.records if r.levelname == "ERROR" or r.exc_info]
    assert not await sync(SearchRequest.objects.exists)()
    await comm.disconnect()


async def test_opening_site_sockets_in_a_loop_is_limited_per_account():
    import time

    from game import socket_limits

    player = await sync(_player)("Зоя")
    client = await sync(signed_in)(player)
    count, window = socket_limits.CONNECTS
    refused = None
    started = time.monotonic()
    for k in range(count * 3):
        comm, ok = await socket_for(client, "/ws/site/")
        assert ok
        first = await comm.receive_json_from(timeout=5)
        if first["type"] == "error":
            refused = k
            assert first["code"] == "flooding"
            frames, code = await closed_with(comm)
            assert code == 4429
            break
        await comm.disconnect()
    # the burst, and what the bucket refilled while the loop ran
    refill = count / window * (time.monotonic() - started)
    assert refused is not None and count <= refused <= count + refill + 1


async def test_news_sent_as_soon_as_the_socket_is_open_reaches_it():
    """A page may act the moment its socket opens (the browser's `open`), before the hello: the
    socket is in its groups before the handshake completes, as a table's socket is."""
    from social import notify

    player = await sync(_player)("Роза")
    client = await sync(signed_in)(player)
    comm, ok = await socket_for(client, "/ws/site/")
    assert ok
    await sync(notify.tell)(player.pk, "search_ended", reason="partner")
    frames = [await comm.receive_json_from(timeout=5) for _ in range(2)]
    assert {"type": "search_ended", "reason": "partner"} in frames
    await comm.disconnect()
