"""/healthz tells when the deadline sweeper stops: beat (with Celery) or the in-process ticker."""

from __future__ import annotations

import re
import time

import pytest
from django.core.cache import cache

from durak_site import deadlines, health

pytestmark = pytest.mark.django_db


@pytest.fixture
def celery_timers(settings):
    """A Celery site (beat + workers sweep) on this test's local cache; no Redis to ping."""
    settings.REDIS_URL = None
    settings.TIMERS_BACKEND = "celery"
    settings.HEALTHZ_CACHE_SECONDS = 0  # these tests change the answer between requests
    cache.delete(health.SWEEP_KEY)
    health._noted.update(at=0.0, here=False)
    health._worker_noted.clear()
    yield
    cache.delete_many([health.SWEEP_KEY, *(health.WORKER_KEY.format(queue=q) for q in health.celery_queues())])
    health._noted.update(at=0.0, here=False)
    health._worker_noted.clear()


def test_a_recent_sweep_is_healthy(client, celery_timers):
    deadlines.sweep()  # what a worker runs when beat sends the sweep
    response = client.get("/healthz")
    assert response.json()["timers"] == "ok"
    assert response.status_code == 503 and response.json()["workers"] == "error"  # no worker heard yet
    for queue in health.celery_queues():  # tests/ops/test_healthz_workers.py
        health.note_worker(queue)
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "timers": "ok", "workers": "ok"}


def test_a_stale_sweep_answers_503_with_the_reason(client, celery_timers):
    cache.set(health.SWEEP_KEY, time.time() - 30)  # beat stopped half a minute ago
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error" and body["timers"] == "error"
    assert re.search(r"the last deadline sweep was 3[0-2] s ago", body["reason"])  # 30 s and the request's own time


def test_no_sweep_ever_recorded_is_unhealthy_with_celery(client, celery_timers):
    response = client.get("/healthz")
    assert response.status_code == 503
    assert "no deadline sweep recorded" in response.json()["reason"]


def test_the_embedded_ticker_is_checked_in_the_process_that_runs_it(client, settings):
    settings.HEALTHZ_CACHE_SECONDS = 0
    settings.REDIS_URL = None
    settings.TIMERS_BACKEND = "ticker"
    health._noted.update(at=0.0, here=False)
    try:
        assert "timers" not in client.get("/healthz").json()  # a process without a ticker: nothing to check
        deadlines.sweep()  # this process sweeps: it runs the ticker
        assert client.get("/healthz").json()["timers"] == "ok"
        cache.set(health.SWEEP_KEY, time.time() - 10)  # its ticker thread died
        assert client.get("/healthz").status_code == 503
    finally:
        health._noted.update(at=0.0, here=False)
        cache.delete(health.SWEEP_KEY)


def test_a_liveness_probe_leaves_the_sweeper_out(client, celery_timers):
    """A container's probe restarts web processes that fail it: beat's stop must not restart them."""
    cache.set(health.SWEEP_KEY, time.time() - 30)
    assert client.get("/healthz").status_code == 503
    response = client.get("/healthz?process=1")
    assert response.status_code == 200 and "timers" not in response.json()
