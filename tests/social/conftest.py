"""Social fixtures: players built as accounts would, searches through social.queue (the only writer)."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest

_counter = itertools.count(1)


@pytest.fixture
def make_player(db):
    from accounts.models import Player

    def make(nick: str | None = None, **extra):
        return Player.objects.create_user(nick or f"s{next(_counter)}", **extra)

    return make


@pytest.fixture
def online():
    """Mark players as having a tab open (the site socket does this on connect)."""
    from social import presence

    def mark(*players):
        for p in players:
            presence.opened(p.pk)

    return mark


def age(request_row, seconds: float) -> None:
    """Pretend the search was queued `seconds` ago (the window widens, bot fill falls due)."""
    from social.models import SearchRequest

    SearchRequest.objects.filter(pk=request_row.pk).update(
        queued_at=request_row.queued_at - timedelta(seconds=seconds))


@pytest.fixture(autouse=True)
def _online_list_forgotten_after_each_test():
    """The lobby's online block is cached for a second; a test's rows are rolled back or flushed,
    so its cached list must not reach the next test (which would see players that do not exist)."""
    yield
    from django.core.cache import cache

    from social.presence import SUMMARY_KEY

    cache.delete(SUMMARY_KEY)


def sweep_until(predicate, timeout: float = 5.0) -> None:
    """Run the deadline sweep until ``predicate()`` holds. The sweep is the driver's work whichever
    process gets to a row first: a session live server's ticker sweeps this database too, and a row
    it holds locked is skipped here."""
    import time

    from durak_site import deadlines

    end = time.monotonic() + timeout
    while True:
        deadlines.sweep()
        if predicate():
            return
        if time.monotonic() > end:
            raise AssertionError(f"the sweep did not bring {predicate} about within {timeout} s")
        time.sleep(0.05)
