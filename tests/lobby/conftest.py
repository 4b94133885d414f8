"""Lobby fixtures: players and tables built through lobby.services (the only writer)."""

from __future__ import annotations

import itertools

import pytest

_counter = itertools.count(1)


@pytest.fixture
def make_player(db):
    from accounts.models import Player

    def make(nick: str | None = None, **extra):
        return Player.objects.create_user(nick or f"p{next(_counter)}", **extra)

    return make


@pytest.fixture
def host(make_player):
    return make_player("host")


@pytest.fixture
def table(host):
    from lobby import services

    return services.create_table(host, seats_count=4)
