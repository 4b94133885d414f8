"""Fixtures for the live-play tests (helpers live in tests/game/helpers.py)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fast_bots(settings):
    """Bots move after 0-50 ms, on the event loop; no Celery worker and no ticker in these tests."""
    settings.BOT_DELAY_RANGE = (0.0, 0.05)
    settings.BOT_SCHEDULER = "local"
    settings.TIMERS_BACKEND = "ticker"
    settings.CHEATER_CHECK_SECONDS = 0.05


@pytest.fixture(autouse=True)
def _fresh_channel_layer(settings):
    """channels-redis binds its locks to the event loop that first used them; each test has its own loop.

    redis-py 8 reads with a 5 s socket timeout by default, exactly channels-redis' 5 s BZPOPMIN: on a
    busy machine the read times out and the consumer dies. Give the socket more room (see the note to
    foundation in .notes/requests.md; production settings need the same)."""
    from channels.layers import channel_layers

    layer = settings.CHANNEL_LAYERS["default"]
    if layer["BACKEND"].startswith("channels_redis"):
        hosts = [h if isinstance(h, dict) else {"address": h} for h in layer["CONFIG"]["hosts"]]
        layer = {**layer, "CONFIG": {**layer["CONFIG"], "hosts": [{**h, "socket_timeout": 30} for h in hosts]}}
        settings.CHANNEL_LAYERS = {**settings.CHANNEL_LAYERS, "default": layer}
    channel_layers.backends = {}
    yield
    channel_layers.backends = {}
