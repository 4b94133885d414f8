"""The Redis channel layer as configured survives a burst: hundreds of sockets joining groups and
being sent to at the same moment (a busy web process, or every socket of 200 tables at once).
redis-py 8 caps a pool at 100 connections and raises beyond it; settings lift that cap."""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import get_channel_layer
from django.conf import settings

pytestmark = pytest.mark.skipif("channels_redis" not in settings.CHANNEL_LAYERS["default"]["BACKEND"],
                                reason="the embedded in-memory layer has no connection pool")


async def test_five_hundred_simultaneous_group_operations_all_succeed():
    from channels.layers import channel_layers

    channel_layers.backends.clear()  # a layer (and pool) bound to this test's event loop
    layer = get_channel_layer()
    channels = [await layer.new_channel() for _ in range(500)]
    await asyncio.gather(*(layer.group_add(f"burst-{i % 50}", name) for i, name in enumerate(channels)))
    await asyncio.gather(*(layer.group_send(f"burst-{i}", {"type": "burst.frame", "n": i}) for i in range(50)),
                         *(layer.send(name, {"type": "burst.direct"}) for name in channels[:450]))
    received = await asyncio.gather(*(asyncio.wait_for(layer.receive(name), 10) for name in channels[:20]))
    assert all(message["type"] in ("burst.frame", "burst.direct") for message in received)
    await asyncio.gather(*(layer.group_discard(f"burst-{i % 50}", name) for i, name in enumerate(channels)))
    channel_layers.backends.clear()
