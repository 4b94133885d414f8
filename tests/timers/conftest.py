"""Fixtures of the timers tests (helpers live in timers_kit.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.conf import settings as django_settings
from timers_kit import LOGS, CeleryProcesses


@pytest.fixture(autouse=True)
def _timers_settings(request, settings):
    """Deterministic by default: no automatic bot moves, and (outside the Celery tests) no eta tasks sent
    to a broker nobody reads: the tests call sweep() / fire() themselves."""
    settings.BOT_SCHEDULER = "off"
    if request.node.get_closest_marker("celery") is None:
        settings.TIMERS_BACKEND = "ticker"
    else:
        settings.TIMERS_BACKEND = "celery"
    yield


@pytest.fixture
def celery_processes(transactional_db) -> Iterator[CeleryProcesses]:
    """A purged queue, beat (the one scheduler) and a running worker (tests kill and restart the worker)."""
    if not django_settings.REDIS_URL or django_settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        pytest.skip("needs REDIS_URL and DATABASE_URL (Postgres): a real Celery worker on the test database")
    from durak_site.celery import app

    app.control.purge()
    procs = CeleryProcesses(LOGS)
    procs.start_beat()
    procs.start_worker()
    try:
        yield procs
    finally:
        procs.stop()
