"""Each process holds a fixed, known number of database connections whatever the concurrency, and a
request that cannot get one in time is told the server is busy (503), not that it broke."""

from __future__ import annotations

import concurrent.futures
import urllib.request

import pytest
from django.db import OperationalError, connection
from django.test import RequestFactory
from psycopg_pool import PoolTimeout

from durak_site.env import DEFAULT_POOL_SIZE
from durak_site.views import server_error
from tests.conftest import daphne_server

CLIENTS, PAGE_LOADS = 10, 57


def _connections_to_this_database() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()")
        return cursor.fetchone()[0]


@pytest.fixture(scope="module")
def web_process(django_db_setup, django_db_blocker):
    """A daphne process of its own for this module, stopped after it: the session's live server
    (tests/conftest.py) runs the in-process ticker, which would fire every later test's deadlines."""
    with daphne_server(django_db_blocker, static=False) as host:
        yield f"http://{host}"


@pytest.mark.django_db(transaction=True)
def test_a_burst_of_anonymous_page_loads_leaves_no_more_connections_than_the_pool_holds(web_process):
    """Under ASGI each request's sync code runs in a thread of its own: with persistent connections
    each left one open behind it (57 loads from 10 clients: 28 more connections), and a burst of
    them took Postgres to its limit for everyone."""
    if connection.vendor != "postgresql":
        pytest.skip("the connection pool is Postgres'")
    before = _connections_to_this_database()

    def load(_n: int) -> int:
        with urllib.request.urlopen(f"{web_process}/tables/", timeout=30) as response:
            return response.status

    with concurrent.futures.ThreadPoolExecutor(CLIENTS) as clients:
        statuses = set(clients.map(load, range(PAGE_LOADS)))
    assert statuses == {200}
    after = _connections_to_this_database()
    assert after - before <= DEFAULT_POOL_SIZE, (before, after)


def test_a_request_that_waited_too_long_for_a_connection_gets_503_with_retry_after():
    request = RequestFactory().get("/tables/")
    try:
        try:
            raise PoolTimeout("couldn't get a connection after 10.00 sec")
        except PoolTimeout as exc:
            raise OperationalError(str(exc)) from exc
    except OperationalError:
        response = server_error(request)
    assert response.status_code == 503 and response["Retry-After"] == "5"


def test_any_other_error_is_a_plain_500():
    request = RequestFactory().get("/tables/")
    try:
        raise ValueError("boom")
    except ValueError:
        response = server_error(request)
    assert response.status_code == 500
