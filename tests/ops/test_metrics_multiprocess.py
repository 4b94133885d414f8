"""PROMETHEUS_MULTIPROC_DIR: the processes of one container add up; a dead process's open sockets go."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parents[2]


def run(directory: Path, code: str) -> str:
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "REDIS_URL")}
    env.update(PROMETHEUS_MULTIPROC_DIR=str(directory), DJANGO_SETTINGS_MODULE="durak_site.settings",
               PYTHONPATH=str(ROOT))
    script = "import django; django.setup()\nfrom durak_site import metrics\n" + code
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def value(text: str, name: str, **labels) -> float:
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and sample.labels == labels:
                return sample.value
    return 0.0


def test_two_processes_add_up_and_a_dead_ones_sockets_are_forgotten(tmp_path):
    run(tmp_path, "metrics.move_applied(False)\nmetrics.socket_opened()")  # exits with a socket "open"
    run(tmp_path, "metrics.move_applied(False)\nmetrics.move_applied(True)")
    text = run(tmp_path, "print(metrics.exposition(club=False).decode())")
    assert value(text, "durak_moves_applied_total", duplicate="false") == 2
    assert value(text, "durak_moves_applied_total", duplicate="true") == 1
    assert value(text, "durak_table_sockets_open") == 1  # its process is gone but its file is not
    text = run(tmp_path, "metrics.forget_dead_processes()\nprint(metrics.exposition(club=False).decode())")
    assert value(text, "durak_table_sockets_open") == 0
    assert value(text, "durak_moves_applied_total", duplicate="false") == 2  # counters stay
