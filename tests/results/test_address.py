"""The table socket records the address a player connects from (shared-address games are unrated)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as dj_settings

from accounts.models import Player
from tests.game.helpers import make_player, make_table, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


async def _connect(table_id: int, player, client: tuple[str, int], extra: list | None = None) -> None:
    from durak_site.asgi import application  # builds the whole ASGI stack (and freezes gc) on import

    cookie = await database_sync_to_async(session_cookie)(player)
    headers = [(b"origin", b"http://testserver"),
               (b"cookie", f"{dj_settings.SESSION_COOKIE_NAME}={cookie}".encode()), *(extra or [])]
    comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    comm.scope["client"] = client
    connected, _code = await comm.connect(timeout=5)
    assert connected
    await comm.receive_json_from(timeout=3)
    await comm.disconnect(timeout=10)


async def _address(player) -> str:
    return await database_sync_to_async(lambda: Player.objects.get(pk=player.pk).last_address)()


async def test_the_socket_records_the_client_address_of_the_player():
    player = await database_sync_to_async(make_player)()
    table = await database_sync_to_async(make_table)(humans=[player], bots=["random"])
    await _connect(table.pk, player, ("203.0.113.9", 5555))
    assert await _address(player) == "203.0.113.9"


async def test_behind_a_trusted_proxy_the_forwarded_address_counts(settings):
    settings.TRUSTED_PROXY_HOPS = 1
    player = await database_sync_to_async(make_player)()
    table = await database_sync_to_async(make_table)(humans=[player], bots=["random"])
    await _connect(table.pk, player, ("10.0.0.1", 5555), [(b"x-forwarded-for", b"1.2.3.4, 198.51.100.7")])
    assert await _address(player) == "198.51.100.7"
