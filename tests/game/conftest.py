"""Fixtures for the live-play tests (helpers live in tests/game/helpers.py)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fast_bots(settings):
    """Bots move after 0-50 ms, on the event loop; no Celery worker and no ticker in these tests."""
    settings.BOT_DELAY_RANGE = (0.0, 0.05)
    settings.BOT_SCHEDULER = "loop"
    settings.TIMERS_BACKEND = "ticker"
    settings.CHEATER_CHECK_SECONDS = 0.05


@pytest.fixture(autouse=True)
def _fresh_channel_layer():
    """channels-redis binds its locks to the event loop that first used them; each test has its own loop."""
    from channels.layers import channel_layers

    channel_layers.backends = {}
    yield
    channel_layers.backends = {}
