"""The site socket's connect limit holds for an account across web processes: two real daphne
processes share one allowance through Redis, so a deployment of N processes does not give an account
N times the sockets a second."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from django.conf import settings

from tests.conftest import daphne_server
from tests.game.helpers import make_player, session_cookie

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not settings.REDIS_URL, reason="processes share the limit through Redis only"),
]


@pytest.fixture(scope="module")
def two_processes(django_db_setup, django_db_blocker):
    with daphne_server(django_db_blocker) as first, daphne_server(django_db_blocker) as second:
        yield first, second


async def _open_until_refused(hosts: tuple[str, str], cookie: str, tries: int) -> int | None:
    """Opens and closes site sockets, alternating between the processes; the index of the first one
    refused as flooding, or None."""
    import websockets

    for k in range(tries):
        host = hosts[k % 2]
        async with websockets.connect(f"ws://{host}/ws/site/", origin=f"http://{host}", open_timeout=10,
                                      additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"}) as ws:
            first = json.loads(await asyncio.wait_for(ws.recv(), timeout=10))
            if first["type"] == "error":
                assert first["code"] == "flooding"
                return k
            assert first["type"] == "hello"
    return None


def test_an_account_opening_site_sockets_on_two_processes_meets_one_limit(two_processes):
    from game import socket_limits

    cookie = session_cookie(make_player("Двухпроцессный"))
    count, window = socket_limits.CONNECTS
    started = time.monotonic()
    refused = asyncio.run(_open_until_refused(two_processes, cookie, count * 3))
    refill = count / window * (time.monotonic() - started)
    # one allowance: the burst and what it refilled while the loop ran, not a burst on each process
    assert refused is not None and count <= refused <= count + refill + 1
