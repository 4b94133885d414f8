"""Letters' fixtures: players made friends (or not) through social.people, the only writer of
friendships; a fresh cache (the report limits count there) and channel layer per test."""

from __future__ import annotations

import itertools

import pytest

from tests.game.conftest import _fresh_channel_layer  # noqa: F401  (the same per-test layer)

_counter = itertools.count(1)


def make_player(nick: str | None = None):
    from accounts.models import Player

    return Player.objects.create_user(nick or f"l{next(_counter)}x{Player.objects.count()}")


def befriend(a, b) -> None:
    from social import people

    people.request_friend(a, b.pk)
    people.accept_friend(b, a.pk)


def age_letters(author, seconds: float) -> None:
    """Pretend the author's letters were written `seconds` earlier (the rate windows move on)."""
    from datetime import timedelta

    from django.db.models import F

    from letters.models import Letter

    Letter.objects.filter(author=author).update(created_at=F("created_at") - timedelta(seconds=seconds))


@pytest.fixture
def friends(db):
    """Two friends, Аня and Боря."""
    a, b = make_player("Аня"), make_player("Боря")
    befriend(a, b)
    return a, b


@pytest.fixture(autouse=True)
def _fresh_cache():
    from django.core.cache import cache

    cache.clear()
