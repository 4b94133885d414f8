"""The cache's Redis connections are one bounded pool per process, whatever number of sockets."""

from __future__ import annotations

import pytest
import redis
from channels.db import database_sync_to_async
from django.conf import settings

from durak_site import redis_pool
from game import services
from tests.game.helpers import close_quietly, make_player, make_table, open_socket, receive_until

pytestmark = pytest.mark.django_db(transaction=True)

SOCKETS = 30


def _clients() -> int:
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        return len(client.client_list())
    finally:
        client.close()


async def test_many_table_sockets_share_the_process_cache_connections(settings):
    """Django keeps a cache object per async context: each socket's socket record opened connections
    of its own, and 300 sockets left 299 idle ones behind."""
    if not settings.REDIS_URL:
        pytest.skip("the cache is Redis only with REDIS_URL")
    settings.BOT_SCHEDULER = "off"
    players = await database_sync_to_async(lambda: [make_player(), make_player()])()
    table = await database_sync_to_async(make_table)(humans=players)
    await database_sync_to_async(services.start_game)(table.pk)
    before = await database_sync_to_async(_clients)()
    comms = []
    for _ in range(SOCKETS):
        watcher = await database_sync_to_async(make_player)()
        comm, ok, _code = await open_socket(table.pk, watcher)
        assert ok
        await receive_until(comm, lambda f: f["type"] == "state")
        comms.append(comm)
    during = await database_sync_to_async(_clients)()
    for comm in comms:
        await close_quietly(comm)
    assert during - before <= redis_pool.MAX_CONNECTIONS, (before, during)
    assert during - before < SOCKETS, (before, during)
