"""Analyses run by hand here (ANALYSIS_RUNNER "off") with a small budget, so tests stay quick."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _small_analyses(settings) -> None:
    settings.ANALYSIS_RUNNER = "off"
    settings.ANALYSIS_BUDGET = {"min_worlds": 8, "max_worlds": 16, "batch": 8, "max_nodes": 5000}
    from django.core.cache import cache

    cache.clear()  # the rate limits count in the cache
