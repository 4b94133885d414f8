"""/metrics: a bearer token (403 without it in production), the club's numbers, and an off switch."""

from __future__ import annotations

import time

import pytest
from django.core.cache import cache
from prometheus_client.parser import text_string_to_metric_families

from durak_site import health, metrics
from tests.game.helpers import make_player, make_table

pytestmark = pytest.mark.django_db

TOKEN = "s3cret-scrape-token-0123456789"


def samples(text: str) -> dict[tuple[str, tuple], float]:
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


@pytest.fixture
def production(settings):
    settings.DEBUG = False
    settings.METRICS_TOKEN = TOKEN
    settings.ALLOWED_HOSTS = ["durak.example.com"]
    settings.SECURE_SSL_REDIRECT = True


def test_without_the_token_production_answers_403(client, production):
    assert client.get("/metrics").status_code == 403
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 403
    assert client.get("/metrics", HTTP_AUTHORIZATION=TOKEN).status_code == 403  # no scheme


def test_production_without_a_configured_token_refuses_everyone(client, settings):
    settings.DEBUG = False
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 403


def test_prometheus_scrapes_by_internal_address_with_the_token(client, production):
    """Like /healthz: an internal address and plain HTTP, outside ALLOWED_HOSTS and the HTTPS redirect."""
    response = client.get("/metrics", HTTP_HOST="10.1.2.3:8000", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=0.0.4")
    assert "durak_moves_applied_total" in response.content.decode()


def test_the_club_numbers_are_read_at_scrape_time(client, production):
    a, b = make_player(), make_player()
    make_table(humans=[a, b])
    from game import services
    from lobby.models import Table

    services.start_game(Table.objects.get().pk)
    cache.set(health.SWEEP_KEY, time.time() - 3)
    text = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}").content.decode()
    got = samples(text)
    assert got[("durak_games", (("state", "playing"),))] == 1
    assert got[("durak_games", (("state", "finished"),))] == 0
    assert got[("durak_analyses", (("state", "queued"),))] == 0  # the analysis app's reader
    assert 2.5 < got[("durak_timers_last_sweep_age_seconds", ())] < 30
    cache.delete(health.SWEEP_KEY)


def test_switched_off_the_helpers_count_nothing_and_the_endpoint_is_gone(client, settings):
    settings.METRICS_ENABLED = False
    before = metrics.MOVES_REFUSED.labels("stale_version")._value.get()
    metrics.move_refused("stale_version")
    assert metrics.MOVES_REFUSED.labels("stale_version")._value.get() == before
    assert client.get("/metrics").status_code == 404
    settings.METRICS_ENABLED = True
    metrics.move_refused("stale_version")
    assert metrics.MOVES_REFUSED.labels("stale_version")._value.get() == before + 1


def test_the_worker_port_is_guarded_by_the_same_token(settings):
    import socket
    import urllib.error
    import urllib.request

    settings.DEBUG = False
    settings.METRICS_TOKEN = TOKEN
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    metrics.serve_in_thread(port, host="127.0.0.1")
    url = f"http://127.0.0.1:{port}/metrics"
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(url, timeout=5)
    assert refused.value.code == 403
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, timeout=5) as response:
        assert b"durak_deadlines_fired_total" in response.read()
