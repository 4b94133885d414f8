"""A table socket opens only from the site's own origin: scheme, host and port, not the host alone."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import override_settings

from tests.game.helpers import make_player, make_table, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


async def _connects(table_id: int, player, origin: str, host: str | None) -> bool:
    from django.conf import settings

    from durak_site.asgi import application

    cookie = await database_sync_to_async(session_cookie)(player)
    headers = [(b"origin", origin.encode()),
               (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode())]
    if host is not None:
        headers.append((b"host", host.encode()))
    comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    connected, _ = await comm.connect(timeout=5)
    await comm.disconnect()
    return connected


async def _table():
    def setup():
        player = make_player()
        return player, make_table(humans=[player], bots=["random"])
    return await database_sync_to_async(setup)()


@pytest.mark.parametrize(("origin", "host"), [
    ("http://127.0.0.1:9999", "127.0.0.1:8000"),  # another port on an allowed host
    ("https://127.0.0.1", "127.0.0.1"),  # another scheme than the site's
    ("ftp://localhost:1", "localhost:1"),
    ("http://localhost:8000", "127.0.0.1:8000"),  # an allowed host, but not the one the page came from
    ("http://evil.example", "evil.example"),  # not an allowed host at all
    ("null", "127.0.0.1:8000"),
    ("http://127.0.0.1:8000/path", "127.0.0.1:9000"),
])
async def test_a_socket_from_another_origin_is_refused(origin, host):
    player, table = await _table()
    assert not await _connects(table.pk, player, origin, host)


@pytest.mark.parametrize(("origin", "host"), [
    ("http://127.0.0.1:8000", "127.0.0.1:8000"),
    ("http://localhost", "localhost"),
    ("http://testserver", None),  # no Host header: the scheme's default port
])
async def test_a_socket_from_the_pages_own_origin_opens(origin, host):
    player, table = await _table()
    assert await _connects(table.pk, player, origin, host)


@override_settings(SECURE_SSL_REDIRECT=True)
async def test_behind_tls_only_the_https_origin_opens():
    player, table = await _table()
    assert await _connects(table.pk, player, "https://localhost", "localhost")
    assert not await _connects(table.pk, player, "http://localhost", "localhost")


@override_settings(CSRF_TRUSTED_ORIGINS=["https://play.example.com"], ALLOWED_HOSTS=["play.example.com"],
                   SECURE_SSL_REDIRECT=True)
async def test_a_trusted_origin_opens_with_its_exact_scheme_and_port():
    player, table = await _table()
    assert await _connects(table.pk, player, "https://play.example.com", "internal:8000")
    assert not await _connects(table.pk, player, "https://play.example.com:8443", "internal:8000")
