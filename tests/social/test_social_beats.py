"""A site socket's heartbeat: he stays online, the beats of one moment share one write, and a session
that ended without its message (the number on his row moved) closes the socket at its next beat."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.security.kit import closed_with, sync
from tests.social.test_social_socket import _open

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _every_ping_beats(monkeypatch):
    from social import consumers

    monkeypatch.setattr(consumers, "BEAT_EVERY", 0.0)


def _seen_long_ago(player_id: int) -> None:
    from durak_site.clock import db_now
    from social.models import Presence

    Presence.objects.filter(pk=player_id).update(seen_at=db_now() - timedelta(hours=1))


async def _pong(comm) -> None:
    await comm.send_json_to({"type": "ping"})
    assert (await comm.receive_json_from(timeout=5))["type"] == "pong"


async def test_the_beats_of_one_moment_share_one_write_and_keep_every_tab_online(monkeypatch):
    from social import presence

    tabs = [await _open(f"Пульс{i}") for i in range(3)]
    for player, _c, _comm in tabs:
        await sync(_seen_long_ago)(player.pk)
        assert not await sync(presence.is_online)(player.pk)
    writes = []
    real = presence.beat_many
    monkeypatch.setattr(presence, "beat_many", lambda ids: writes.append(sorted(ids)) or real(ids))

    for _p, _c, comm in tabs:
        await _pong(comm)
    for _ in range(40):
        if writes:
            break
        await comm.receive_nothing(timeout=0.1)

    assert writes == [sorted(p.pk for p, _c, _comm in tabs)]
    for player, _c, comm in tabs:
        assert await sync(presence.is_online)(player.pk)
        await comm.disconnect()


def _end_session_silently(player_id: int, session_key: str) -> None:
    """What a lost message would leave: the session gone and the number moved, the sockets not told."""
    from importlib import import_module

    from django.conf import settings
    from django.db.models import F

    from accounts.models import Player

    import_module(settings.SESSION_ENGINE).SessionStore(session_key).delete()
    Player.objects.filter(pk=player_id).update(session_generation=F("session_generation") + 1)


async def test_a_session_that_ended_unannounced_closes_the_socket_at_its_next_beat():
    from django.conf import settings

    player, client, comm = await _open("Пропавший")
    await sync(_end_session_silently)(player.pk, client.cookies[settings.SESSION_COOKIE_NAME].value)

    await comm.send_json_to({"type": "ping"})
    frames, code = await closed_with(comm)

    assert code == 4401
    assert [f["type"] for f in frames] == ["pong", "error"] and frames[1]["code"] == "session_ended"


async def test_a_beat_with_the_session_standing_keeps_the_socket_open():
    _player_row, _client, comm = await _open("Живой")
    await _pong(comm)
    assert await comm.receive_nothing(timeout=1.5)  # the batch was written; nothing closed it
    await _pong(comm)
    await comm.disconnect()
