"""The record of a person's open sockets at a table: a tab that closes is gone at once, a socket
whose process died stops counting once it has been silent, and a socket of this process that is
not open here never counts."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from game import socket_count

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()


def _from_another_process(table_id: int, player_id: int, socket_id: str, at: float) -> None:
    """What another web process's socket leaves in the shared record."""
    key = f"table-sockets:{table_id}:{player_id}"
    entries = cache.get(key) or {}
    entries[socket_id] = ("another-process", at)
    cache.set(key, entries, socket_count.TTL)


def test_closing_one_of_two_tabs_leaves_him_present_and_closing_both_does_not():
    assert socket_count.opened(1, 7, "tab-a", now=100.0) == 1
    assert socket_count.opened(1, 7, "tab-b", now=101.0) == 2
    assert socket_count.closed(1, 7, "tab-a", now=102.0) == 1
    assert socket_count.closed(1, 7, "tab-b", now=103.0) == 0


def test_a_socket_whose_process_died_stops_counting_once_silent():
    """kill -9 left its socket in the record: closing his one live tab still marked him gone only
    when the whole record expired, up to TTL seconds later."""
    _from_another_process(1, 7, "killed", at=100.0)
    socket_count.opened(1, 7, "live", now=101.0)
    assert socket_count.closed(1, 7, "live", now=100.0 + socket_count.STALE + 1) == 0


def test_a_socket_of_another_process_that_pings_keeps_him_present():
    _from_another_process(1, 7, "elsewhere", at=100.0)
    socket_count.opened(1, 7, "here", now=101.0)
    _from_another_process(1, 7, "elsewhere", at=110.0)  # it pinged
    assert socket_count.closed(1, 7, "here", now=112.0) == 1


def test_pings_keep_a_socket_counted_and_a_closed_socket_cannot_come_back_by_a_late_ping():
    socket_count.opened(1, 7, "tab", now=100.0)
    socket_count.alive(1, 7, "tab", now=120.0)
    assert socket_count.opened(1, 7, "other", now=125.0) == 2
    socket_count.closed(1, 7, "tab", now=126.0)
    socket_count.alive(1, 7, "tab", now=127.0)  # a heartbeat that was already on its way
    assert socket_count.closed(1, 7, "other", now=128.0) == 0
