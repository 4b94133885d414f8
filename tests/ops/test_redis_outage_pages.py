"""While Redis does not answer (an outage, or the first requests after one) the lobby, the quick
search and a socket's handshake answer 503 with Retry-After (pages: the site's own page), not 500."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.test import Client

from tests.game.helpers import make_player

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
DEAD_REDIS = "redis://127.0.0.1:1/0"  # nothing listens on port 1


@pytest.fixture
def redis_down(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": DEAD_REDIS}}


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_lobby_answers_503_with_the_sites_page_and_retry_after(redis_down, language):
    client = Client(raise_request_exception=False)
    client.force_login(make_player("outage"))
    response = client.get("/tables/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 503
    assert response["Retry-After"] == "10"
    page = response.content.decode()
    assert {"ru": "Клуб скоро вернётся", "en": "The club will be back in a moment"}[language] in page
    assert 'http-equiv="refresh" content="10"' in page and "site.css" in page


def test_the_search_answers_503_too(redis_down):
    client = Client(raise_request_exception=False)
    client.force_login(make_player("outage"))
    search = client.post("/play/search/start/", {"variant": "podkidnoy", "players": "2"})
    assert search.status_code == 503 and search["Retry-After"] == "10"


def test_any_other_error_is_still_the_500_page(settings):
    from django.test import RequestFactory

    from durak_site.views import server_error

    try:
        raise KeyError("a bug")
    except KeyError:
        response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500 and "Retry-After" not in response


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.django_db(transaction=True)
def test_a_socket_handshake_during_an_outage_is_answered_503(transactional_db):
    import websockets
    from django.conf import settings

    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        pytest.skip("needs DATABASE_URL (Postgres): the web process shares the test database")
    from tests.timers.timers_kit import _database_url

    port = free_port()
    env = {**os.environ, "DATABASE_URL": _database_url(), "REDIS_URL": DEAD_REDIS, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "durak_site.serve", "-b", "127.0.0.1", "-p", str(port),
                             "durak_site.asgi:application"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None, "the web process did not start"
                time.sleep(0.2)
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/tables/", timeout=10)
            status = 200
        except urllib.error.HTTPError as e:
            status = e.code
        assert status == 503

        async def handshake() -> int:
            try:
                async with websockets.connect(f"ws://127.0.0.1:{port}/ws/tables/1/",
                                              origin=f"http://127.0.0.1:{port}", open_timeout=10):
                    return 101
            except websockets.exceptions.InvalidStatus as e:
                return e.response.status_code

        assert asyncio.run(handshake()) == 503
    finally:
        proc.terminate()
        proc.wait(15)
