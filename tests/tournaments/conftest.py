"""Tournament fixtures: players built as accounts would, events made and started through the services
(the clock moved by editing a deadline column, as the timers' tests do)."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest

_counter = itertools.count(1)


@pytest.fixture
def make_player(db):
    from accounts.models import Player

    def make(nick: str | None = None, **extra):
        return Player.objects.create_user(nick or f"t{next(_counter)}", **extra)

    return make


@pytest.fixture
def make_event(db, make_player):
    from durak_site.clock import db_now
    from tournaments import services

    def make(fmt="arena", creator=None, **extra):
        creator = creator or make_player()
        raw = {"name": "Вечерняя арена", "format": fmt, "starts_at": db_now() + timedelta(minutes=10), **extra}
        return services.create_private(creator, **raw)

    return make
