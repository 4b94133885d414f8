"""/healthz: 200 when the database (and Redis, when configured) answer; 503 when Redis does not."""

from __future__ import annotations

import os

import pytest
import redis

pytestmark = pytest.mark.django_db

LOCAL_REDIS = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/15"


@pytest.fixture(autouse=True)
def _no_sweeper_here(settings, monkeypatch):
    """These are the database's and Redis' answers; the sweeper's age has tests of its own
    (tests/ops): here no sweeper is expected, as in a process of the embedded default that runs none."""
    from durak_site import health

    settings.TIMERS_BACKEND = "ticker"
    monkeypatch.setitem(health._noted, "here", False)


def test_database_ok_without_redis_is_healthy(client, settings):
    settings.REDIS_URL = None
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}
    assert response["Cache-Control"] == "no-store"


def test_reachable_redis_is_checked_and_healthy(client, settings):
    try:
        redis.Redis.from_url(LOCAL_REDIS, socket_connect_timeout=1).ping()
    except redis.RedisError:
        if os.environ.get("REDIS_URL"):
            raise
        pytest.skip("no Redis at 127.0.0.1:6379 (CI always has one)")
    settings.REDIS_URL = LOCAL_REDIS
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "redis": "ok"}


def test_unreachable_redis_makes_it_unhealthy(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "error", "database": "ok", "redis": "error",
                               "reason": "redis does not answer"}


def test_probes_from_internal_addresses_and_plain_http_get_the_real_answer(client, settings):
    settings.REDIS_URL = None
    settings.ALLOWED_HOSTS = ["durak.example.com"]
    settings.SECURE_SSL_REDIRECT = True
    response = client.get("/healthz", HTTP_HOST="10.1.2.3:8000")
    assert response.status_code == 200
    assert client.get("/", HTTP_HOST="10.1.2.3:8000").status_code == 400  # everything else stays guarded
