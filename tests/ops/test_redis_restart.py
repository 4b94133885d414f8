"""A Redis restart mid-game: the Procfile's worker, analysis worker and beat reconnect, the game's
turn timer fires again and the analyses asked for before the outage finish (scripts/redis-restart-check
against a private redis-server, on the test database)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings as django_settings

from tests.timers.timers_kit import _database_url

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "test-artifacts" / "redis-restart"

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def test_workers_beat_timers_and_queued_analyses_survive_redis_restarts(transactional_db):
    if django_settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        pytest.skip("needs DATABASE_URL (Postgres): the script's processes share the test database")
    if not shutil.which("redis-server"):
        pytest.skip("needs redis-server for a private Redis")
    shutil.rmtree(LOGS, ignore_errors=True)
    env = {**os.environ, "DATABASE_URL": _database_url()}
    env.pop("REDIS_URL", None)  # the script runs its own
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "redis-restart-check"), "--restarts", "2",
                           "--logs", str(LOGS)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert "restart 1: every process runs; turn timer fired" in out
    assert "restart 2: every process runs; turn timer fired" in out
    assert "analyses asked for before the restarts: 2 done" in out
