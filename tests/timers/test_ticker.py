"""The embedded default: the same sweep driven by an in-process ticker (make run with no Redis, and the
daphne live server of the browser tests), started by the first request a process serves; with Celery,
beat is the one driver."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from timers_kit import (
    age_game,
    arrival_runs_out,
    invitation_status,
    make_invitation,
    make_match,
    make_player,
    make_table,
    searches_of,
    start_game,
    wait_for,
)

from durak_site import deadlines
from game.models import Game, GameEvent
from lobby import services as lobby
from lobby.models import Table

ROOT = Path(__file__).resolve().parents[2]


FIRST_REQUEST = """
import asyncio, threading
from durak_site.asgi import application

def ticking():
    return any(t.name == "timers-ticker" and t.is_alive() for t in threading.enumerate())

async def get(path):
    sent, asked = [], []
    async def receive():
        if asked:  # the body came: the client stays connected
            await asyncio.Event().wait()
        asked.append(1)
        return {"type": "http.request", "body": b"", "more_body": False}
    async def send(message):
        sent.append(message)
    scope = {"type": "http", "method": "GET", "path": path, "raw_path": path.encode(), "query_string": b"",
             "headers": [(b"host", b"127.0.0.1")], "scheme": "http", "server": ("127.0.0.1", 8000),
             "client": ("127.0.0.1", 5000), "asgi": {"version": "3.0"}, "http_version": "1.1", "root_path": ""}
    await application(scope, receive, send)
    return sent[0]["status"]

print("loaded", ticking())
print("status", asyncio.run(get("/no-such-page/")))
print("served", ticking())
"""


def _first_request(tmp_path, **env) -> dict[str, str]:
    """A fresh process loads the ASGI application, then serves one request; is the ticker running?"""
    environ = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    environ.update(DJANGO_SETTINGS_MODULE="durak_site.settings", LOG_LEVEL="ERROR",
                   DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", **env)
    done = subprocess.run([sys.executable, "-c", FIRST_REQUEST], cwd=ROOT, env=environ, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return dict(line.split(" ", 1) for line in done.stdout.splitlines())


def test_the_embedded_default_starts_its_ticker_with_the_first_request_it_serves(tmp_path):
    seen = _first_request(tmp_path)
    assert seen["loaded"] == "False"  # loading the application (as migrate or a shell would) starts nothing
    assert seen["status"] == "404"
    assert seen["served"] == "True"


def test_with_celery_no_process_runs_a_ticker(tmp_path):
    seen = _first_request(tmp_path, REDIS_URL="redis://127.0.0.1:6379/15")
    assert seen["loaded"] == "False" and seen["served"] == "False"


def test_the_test_runner_itself_runs_no_ticker():
    assert deadlines.ticker._ticker is None or not deadlines.ticker._ticker.is_alive()


@pytest.mark.django_db(transaction=True)
def test_the_ticker_thread_fires_a_due_deadline_by_itself():
    a, b = make_player(), make_player()
    _, game = start_game(a, b)
    thread = deadlines.start_ticker(0.05)
    try:
        assert deadlines.start_ticker() is thread  # once per process
        age_game(game.pk)
        wait_for(lambda: GameEvent.objects.filter(game=game, source="timeout").exists(), timeout=5)
    finally:
        deadlines.stop_ticker()
    assert not thread.is_alive()


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


@pytest.mark.django_db(transaction=True)
def test_the_ticker_fires_the_social_deadlines_its_app_registered():
    """The search's arrival time and an invitation's expiry ride on the same driver as the game's."""
    table_id = make_match()
    assert searches_of(table_id) == ["matched", "matched"]
    invitation = make_invitation()
    thread = deadlines.start_ticker(0.05)
    try:
        arrival_runs_out(table_id)
        wait_for(lambda: searches_of(table_id) == ["dropped", "dropped"], timeout=5)  # nobody came
        wait_for(lambda: invitation_status(invitation) == "expired", timeout=5)
    finally:
        deadlines.stop_ticker()
    assert not thread.is_alive()
