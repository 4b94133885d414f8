"""/healthz and the metrics tell when no worker serves a Celery queue (a worker that died, or hangs
after a broker outage): every finished task and every step of an analysis is its queue's heartbeat."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest
from django.core.cache import cache
from prometheus_client.parser import text_string_to_metric_families

from durak_site import health
from durak_site.celery import _task_done

pytestmark = pytest.mark.django_db


@pytest.fixture
def celery_site(settings):
    """A Celery site on this test's local cache, its sweeper fresh: only the workers are in question."""
    settings.REDIS_URL = None
    settings.TIMERS_BACKEND = "celery"
    settings.HEALTHZ_CACHE_SECONDS = 0  # these tests change the answer between requests
    settings.METRICS_TOKEN = "t0ken-for-the-scrape-0123456789"
    keys = [health.WORKER_KEY.format(queue=q) for q in health.celery_queues()]
    cache.delete_many(keys)
    health._worker_noted.clear()
    cache.set(health.SWEEP_KEY, time.time())
    yield
    cache.delete_many([*keys, health.SWEEP_KEY])
    health._worker_noted.clear()


def finished(queue: str) -> None:
    """What Celery's task_postrun tells durak_site.celery when a task of ``queue`` ends."""
    _task_done(task=SimpleNamespace(request=SimpleNamespace(delivery_info={"routing_key": queue})))


def test_a_finished_task_on_each_queue_makes_the_workers_healthy(client, celery_site):
    assert health.celery_queues() == ["celery", "analysis"]
    finished("celery")
    finished("analysis")
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "timers": "ok", "workers": "ok"}


def test_a_queue_whose_worker_went_silent_answers_503_naming_it(client, celery_site):
    finished("celery")
    cache.set(health.WORKER_KEY.format(queue="analysis"), time.time() - 300)  # died five minutes ago
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["workers"] == "error" and body["timers"] == "ok"
    assert "analysis (300 s ago)" in body["reason"] and "celery" not in body["reason"].split("queue(s)")[1]


def test_a_queue_never_served_is_reported(client, celery_site):
    finished("analysis")
    body = client.get("/healthz").json()
    assert body["status"] == "error" and "celery (never)" in body["reason"]


def test_the_liveness_probe_leaves_the_workers_out(client, celery_site):
    assert client.get("/healthz").status_code == 503
    response = client.get("/healthz?process=1")
    assert response.status_code == 200 and "workers" not in response.json()


def test_the_metrics_give_each_queue_heartbeat_age(client, celery_site):
    finished("celery")
    cache.set(health.WORKER_KEY.format(queue="analysis"), time.time() - 90)
    text = client.get("/metrics", HTTP_AUTHORIZATION="Bearer t0ken-for-the-scrape-0123456789").content.decode()
    ages = {s.labels["queue"]: s.value for family in text_string_to_metric_families(text)
            for s in family.samples if s.name == "durak_celery_worker_heartbeat_age_seconds"}
    assert ages["celery"] < 5 and 85 < ages["analysis"] < 120
