"""durak_site.realtime: frames reach every subscribed socket, in the order they were sent."""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer

from durak_site import realtime

pytestmark = pytest.mark.skipif(not isinstance(get_channel_layer(), RedisPubSubChannelLayer),
                                reason="the batched publisher serves the Redis pub/sub layer")


def test_a_burst_of_group_messages_arrives_whole_and_in_order():
    async def scenario() -> tuple[list[int], list[int]]:
        layer = get_channel_layer()
        one, two = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("table-9001-seat-1", one)
        await layer.group_add("table-9001-watch", two)
        await layer.group_add("table-9001-watch", one)
        sends = [realtime.send_now([("table-9001-seat-1", {"type": "game.frame", "version": v}),
                                    ("table-9001-watch", {"type": "game.frame", "version": v})])
                 for v in range(40)]
        await asyncio.gather(*sends)
        got_one = [(await asyncio.wait_for(layer.receive(one), 5))["version"] for _ in range(80)]
        got_two = [(await asyncio.wait_for(layer.receive(two), 5))["version"] for _ in range(40)]
        await layer.flush()
        return got_one, got_two

    got_one, got_two = asyncio.run(scenario())
    assert got_two == list(range(40))
    assert [v for i, v in enumerate(got_one) if i % 2 == 0] == list(range(40))  # seat frames in order
    assert sorted(got_one) == sorted(list(range(40)) * 2)
