"""A real Celery worker serving only the analysis queue (`celery -A durak_site worker -Q analysis`)
runs an analysis asked for through the services: live play's default queue never carries it."""

from __future__ import annotations

import time

import pytest
from django.conf import settings as django_settings

from analysis import services
from analysis.models import Analysis
from tests.ratings.ratings_factories import make_player, make_table, play_finished_game

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def analysis_worker(transactional_db):
    if not django_settings.REDIS_URL or django_settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        pytest.skip("needs REDIS_URL and DATABASE_URL (Postgres): a real Celery worker on the test database")
    from durak_site.celery import app
    from tests.timers.timers_kit import LOGS, CeleryProcesses

    app.control.purge()
    procs = CeleryProcesses(LOGS)
    procs.worker = procs._spawn(["worker", "-P", "solo", "-Q", "analysis", "-l", "info", "-n", procs.name,
                                 "--without-gossip", "--without-mingle", "--without-heartbeat"], "analysis-worker.log")
    deadline = time.monotonic() + 30
    while not app.control.ping(destination=[procs.name], timeout=0.5):
        assert procs.worker.poll() is None and time.monotonic() < deadline, "the analysis worker did not start"
    try:
        yield procs
    finally:
        procs.stop()


def test_the_analysis_task_is_routed_to_its_own_queue():
    from durak_site.celery import app

    assert app.amqp.router.route({}, services.TASK)["queue"].name == "analysis"
    assert app.amqp.router.route({}, "game.tasks.bot_move")["queue"].name != "analysis"


def test_a_worker_on_the_analysis_queue_runs_it(analysis_worker, settings):
    settings.ANALYSIS_RUNNER = "celery"
    vera, ivan = make_player("vera"), make_player("ivan")
    game = play_finished_game(make_table(seats_count=2), [vera, ivan], seed=4, leave={2: 30})
    a = services.request_analysis(game.pk, vera)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        a.refresh_from_db()
        if a.status in (Analysis.Status.DONE, Analysis.Status.FAILED):
            break
        time.sleep(0.5)
    assert a.status == Analysis.Status.DONE, (a.status, a.error)
    assert a.done == a.total > 0 and set(a.result["seats"]) == {"1", "2"}


def test_an_analysis_whose_worker_child_is_killed_runs_again_and_finishes(transactional_db, settings):
    """kill -9 of the prefork child mid-analysis: Celery's main process reports the lost worker, the
    analysis is queued again and the next child finishes it (it no longer stays «идёт» for good)."""
    if not django_settings.REDIS_URL or django_settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        pytest.skip("needs REDIS_URL and DATABASE_URL (Postgres): a real Celery worker on the test database")
    import os
    import signal
    import subprocess

    from durak_site.celery import app
    from tests.timers.timers_kit import LOGS, CeleryProcesses

    settings.ANALYSIS_RUNNER = "celery"
    app.control.purge()
    procs = CeleryProcesses(LOGS)
    procs.worker = procs._spawn(["worker", "-P", "prefork", "-c", "1", "-Q", "analysis", "-l", "info", "-n",
                                 procs.name, "--without-gossip", "--without-mingle"], "analysis-prefork.log")
    try:
        deadline = time.monotonic() + 30
        while not app.control.ping(destination=[procs.name], timeout=0.5):
            assert procs.worker.poll() is None and time.monotonic() < deadline, "the analysis worker did not start"
        vera, ivan = make_player("vera"), make_player("ivan")
        game = play_finished_game(make_table(seats_count=2), [vera, ivan], seed=4)
        a = services.request_analysis(game.pk, vera)
        deadline = time.monotonic() + 60
        while not Analysis.objects.filter(pk=a.pk, status=Analysis.Status.RUNNING, done__gte=1).exists():
            assert time.monotonic() < deadline, "the analysis did not start"
            time.sleep(0.02)
        children = subprocess.run(["pgrep", "-P", str(procs.worker.pid)], capture_output=True, text=True).stdout.split()
        assert len(children) == 1
        os.kill(int(children[0]), signal.SIGKILL)
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            a.refresh_from_db()
            if a.status in (Analysis.Status.DONE, Analysis.Status.FAILED):
                break
            time.sleep(0.5)
        assert (a.status, a.lost, a.attempt) == (Analysis.Status.DONE, 1, 2), (a.status, a.error)
        assert procs.worker.poll() is None
    finally:
        procs.stop()
