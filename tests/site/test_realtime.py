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


class _PipelineThatSwallowsACancel:
    """Stands in for redis-py's pipeline doing what redis-py 8.1's did now and then in the suite: a
    cancel that came while it executed is swallowed, and the block finishes normally (once per client;
    later cancels propagate)."""

    def __init__(self, client: _ClientThatSwallowsACancel) -> None:
        self.client = client

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc) -> bool:
        return False

    def publish(self, channel: str, data: bytes) -> None:
        pass

    async def execute(self) -> list:
        self.client.started.set()
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            if self.client.swallowed:
                raise
            self.client.swallowed = True
        return []


class _ClientThatSwallowsACancel:
    def __init__(self) -> None:
        self.started = asyncio.Event()
        self.swallowed = False

    def pipeline(self, transaction: bool) -> _PipelineThatSwallowsACancel:
        return _PipelineThatSwallowsACancel(self)


def test_a_cancelled_writer_stops_even_when_its_pipeline_swallowed_the_cancel():
    """A loop's end cancels its tasks and waits for them: a writer that went back to its queue after a
    swallowed cancel kept that wait (a test's teardown, the end of ``asyncio.run``) hanging for ever."""

    async def scenario() -> bool:
        publisher = realtime._Publisher(get_channel_layer())
        publisher.client = client = _ClientThatSwallowsACancel()
        sending = asyncio.ensure_future(publisher.publish([("table-9002-watch", {"type": "game.frame"})]))
        await asyncio.wait_for(client.started.wait(), 5)
        publisher.writer.cancel()
        done, _pending = await asyncio.wait([publisher.writer], timeout=2)
        stopped = publisher.writer in done
        publisher.writer.cancel()  # (without the fix it waits at its queue: a second cancel ends it)
        await asyncio.wait([publisher.writer, sending], timeout=2)
        return stopped

    assert asyncio.run(scenario())
