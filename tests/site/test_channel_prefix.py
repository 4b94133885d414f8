"""Redis pub/sub ignores the database number: two sites (or two test runs) on one Redis with
different REDIS_URL databases must still never hear each other's group messages."""

from __future__ import annotations

import asyncio
import os

import pytest
from channels_redis.pubsub import RedisPubSubChannelLayer

from durak_site.env import redis_channel_prefix

REDIS = os.environ.get("REDIS_URL")


def test_the_prefix_names_the_redis_database():
    assert redis_channel_prefix("redis://127.0.0.1:6379/3") != redis_channel_prefix("redis://127.0.0.1:6379/4")
    assert redis_channel_prefix("redis://127.0.0.1:6379") == redis_channel_prefix("redis://127.0.0.1:6379/0")


@pytest.mark.skipif(not REDIS, reason="needs Redis")
def test_layers_on_two_redis_databases_do_not_cross():
    base = REDIS.rsplit("/", 1)[0] if REDIS.count("/") > 2 else REDIS

    async def scenario() -> object:
        one = RedisPubSubChannelLayer(hosts=[f"{base}/14"], prefix=redis_channel_prefix(f"{base}/14"))
        two = RedisPubSubChannelLayer(hosts=[f"{base}/15"], prefix=redis_channel_prefix(f"{base}/15"))
        try:
            channel = await one.new_channel()
            await one.group_add("player-5", channel)
            await two.group_send("player-5", {"type": "session.ended", "reason": "banned"})
            await one.group_send("player-5", {"type": "own.news"})
            return (await asyncio.wait_for(one.receive(channel), 5))["type"]
        finally:
            await one.flush()
            await two.flush()

    assert asyncio.run(scenario()) == "own.news"
