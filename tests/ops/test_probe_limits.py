"""Anonymous traffic cannot starve the monitors: /healthz and /metrics limit each address on its
own, an authenticated scrape is never limited, and /healthz shares one answer a second instead of
refusing (a failed liveness probe would restart a healthy process)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

TOKEN = "probe-limit-token-0123456789abcdef"
FLOODERS = ["203.0.113.1", "203.0.113.2", "203.0.113.3", "203.0.113.4"]


@pytest.fixture
def production(settings):
    settings.DEBUG = False
    settings.REDIS_URL = None
    settings.TIMERS_BACKEND = "ticker"
    settings.METRICS_TOKEN = TOKEN
    from durak_site import views

    views._probes.buckets.clear()
    yield
    views._probes.buckets.clear()


def flood(client, path: str, rounds: int = 60) -> list[int]:
    return [client.get(path, REMOTE_ADDR=address).status_code for _ in range(rounds) for address in FLOODERS]


def test_four_anonymous_flooders_leave_the_liveness_probe_answered(client, production):
    statuses = flood(client, "/healthz?process=1")
    assert 429 in statuses  # each flooder runs out of its own allowance
    probe = [client.get("/healthz?process=1", REMOTE_ADDR="10.0.0.9").status_code for _ in range(15)]
    assert probe == [200] * 15


def test_the_token_scrape_is_never_limited(client, production):
    assert set(flood(client, "/metrics")) == {403, 429}
    for address in (*FLOODERS, "10.0.0.10"):
        for _ in range(30):  # even from a flooder's address
            response = client.get("/metrics", REMOTE_ADDR=address, HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
            assert response.status_code == 200


def test_one_address_is_limited_whatever_endpoint_it_hammers(client, production):
    statuses = [client.get("/healthz", REMOTE_ADDR="198.51.100.5").status_code for _ in range(40)]
    assert statuses[:20] == [200] * 20 and statuses[-1] == 429
    assert client.get("/metrics", REMOTE_ADDR="198.51.100.5").status_code == 429


def test_the_checks_run_once_a_second_however_many_ask(client, production, django_assert_num_queries):
    client.get("/healthz")  # the answer of this second
    with django_assert_num_queries(0):  # the database check is not run again within the second
        for address in ("10.0.0.1", "10.0.0.2", "10.0.0.3"):
            assert client.get("/healthz", REMOTE_ADDR=address).status_code == 200
