"""Chat tests run the table socket like the game tests: a fresh channel layer, no bots moving."""

from __future__ import annotations

import pytest

from tests.game.conftest import _fresh_channel_layer  # noqa: F401  (the same per-test layer)


@pytest.fixture(autouse=True)
def _quiet_table(settings):
    settings.BOT_SCHEDULER = "off"
    settings.TIMERS_BACKEND = "ticker"


@pytest.fixture(autouse=True)
def _fresh_cache():
    from django.core.cache import cache

    cache.clear()
