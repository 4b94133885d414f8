"""The web server's access log: through logging (JSON under LOG_FORMAT=json, like every line the
web process writes), and a logged URL never carries a query value such as an invitation code."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from durak_site.logs import redact_url

ROOT = Path(__file__).resolve().parents[2]
CODE = "Inv1teC0deS3cret"


def test_query_values_are_left_out_of_a_logged_url():
    assert redact_url("/tables/7/") == "/tables/7/"
    assert redact_url(f"/tables/7/?invite={CODE}") == "/tables/7/?invite=*"
    assert redact_url(f"/x?a=1&invite={CODE}&b") == "/x?a=*&invite=*&*"
    assert CODE not in redact_url(f"/x?{CODE}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as e:
        return e.code


@pytest.mark.django_db(transaction=True)
def test_every_line_of_the_web_process_is_json_and_no_invitation_code_is_logged(transactional_db):
    from django.conf import settings

    port = free_port()
    env = {**os.environ, "LOG_FORMAT": "json", "PYTHONUNBUFFERED": "1"}
    if not settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        from tests.timers.timers_kit import _database_url

        env["DATABASE_URL"] = _database_url()
    proc = subprocess.Popen([sys.executable, "-m", "durak_site.serve", "-b", "127.0.0.1", "-p", str(port),
                             "durak_site.asgi:application"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                statuses = [get(f"http://127.0.0.1:{port}/healthz?process=1&invite={CODE}")]
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None, "the web process did not start"
                time.sleep(0.2)
        statuses.append(get(f"http://127.0.0.1:{port}/no-such-page/?invite={CODE}"))
        assert statuses == [200, 404]
        time.sleep(0.5)
    finally:
        proc.terminate()
        output, _ = proc.communicate(timeout=15)
    lines = [line for line in output.splitlines() if line.strip()]
    assert CODE not in output
    parsed = [json.loads(line) for line in lines]  # every line: a JSON object
    access = [line for line in parsed if line["logger"] == "durak_site.access"]
    assert [(line["path"], line["status"]) for line in access] == [
        ("/healthz?process=*&invite=*", 200), ("/no-such-page/?invite=*", 404)]
