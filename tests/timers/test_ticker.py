"""The embedded default: the same sweep driven by an in-process ticker (make run with no Redis, and the
daphne live server of the browser tests), started only where the site is served."""

from __future__ import annotations

import time
from io import StringIO

import pytest
from django.core.management import call_command
from timers_kit import age_game, make_player, make_table, start_game, wait_for

from game import timers
from game.models import Game, GameEvent
from lobby import services as lobby
from lobby.models import Table


@pytest.mark.parametrize(("argv", "environ", "expected"), [
    (["manage.py", "runserver"], {"RUN_MAIN": "true"}, True),  # the autoreloader's serving child
    (["manage.py", "runserver"], {}, False),  # the autoreloader's watcher: no second ticker
    (["manage.py", "runserver", "--noreload"], {}, True),
    (["/usr/bin/daphne", "durak_site.asgi:application"], {}, True),
    (["manage.py", "migrate"], {}, False),
    (["manage.py", "shell"], {}, False),
    (["/x/.venv/bin/pytest"], {}, False),
    (["/x/.venv/bin/celery", "-A", "durak_site", "worker"], {}, False),
])
def test_only_server_processes_run_the_ticker(argv, environ, expected):
    assert timers.is_server_process(argv, environ) is expected


def test_the_test_runner_itself_runs_no_ticker():
    assert timers.ticker._ticker is None or not timers.ticker._ticker.is_alive()


@pytest.mark.django_db(transaction=True)
def test_the_ticker_thread_fires_a_due_deadline_by_itself():
    a, b = make_player(), make_player()
    _, game = start_game(a, b)
    thread = timers.start_ticker(0.05)
    try:
        assert timers.start_ticker() is thread  # once per process
        age_game(game.pk)
        wait_for(lambda: GameEvent.objects.filter(game=game, source="timeout").exists(), timeout=5)
    finally:
        timers.stop_ticker()
    assert not thread.is_alive()


@pytest.mark.django_db(transaction=True)
def test_run_ticker_once_sweeps_from_the_command_line():
    a, b = make_player(), make_player()
    _, game = start_game(a, b)
    age_game(game.pk)
    out = StringIO()
    call_command("run_ticker", "--once", stdout=out)
    assert "fired 1 deadline" in out.getvalue()
    assert GameEvent.objects.filter(game=game, source="timeout").count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_live_server_fires_the_countdown_itself(asgi_live_server):
    """Browser tests need countdowns and turn timers to run inside the daphne process."""
    a, b = make_player(), make_player()
    table = make_table(a, b)
    lobby.set_ready(table.pk, a, True)
    lobby.set_ready(table.pk, b, True)
    t0 = time.monotonic()
    game = wait_for(lambda: Game.objects.filter(table=table).first(), timeout=10)
    assert time.monotonic() - t0 > 2  # after the 3 s countdown, not at once
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
    assert game.status == Game.Status.PLAYING
    age_game(game.pk)
    wait_for(lambda: GameEvent.objects.filter(game=game, source="timeout").exists(), timeout=5)
