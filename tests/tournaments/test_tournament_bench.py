"""`manage.py bench_pairing --pods N` prints a table arena's wave (tables of 3, of 4, pairs 2×2) on a
line of its own above the last line, which stays `pairing: N players, X ms per wave (median)`."""

from __future__ import annotations

import io
import re

from django.core.management import call_command


def _run(*args: str) -> list[str]:
    out = io.StringIO()
    call_command("bench_pairing", "--players", "40", "--waves", "1", "--swiss", "0", *args, stdout=out)
    return out.getvalue().splitlines()


def test_the_pod_mode_prints_its_line_above_the_last_pairing_line():
    lines = _run("--pods", "42")
    assert re.fullmatch(r"pairing: 40 players, \d+\.\d ms per wave \(median\)", lines[-1])
    pods = [ln for ln in lines if ln.startswith("pods:")]
    assert len(pods) == 1 and lines.index(pods[0]) < len(lines) - 1
    found = re.fullmatch(r"pods: 42 players, tables of 3: (\d+) tables, (\d+) seated, rank spread median \d+, "
                         r"[\d.]+ ms; tables of 4: (\d+) tables, (\d+) seated, rank spread median \d+, [\d.]+ ms; "
                         r"pairs 2x2: (\d+) tables, (\d+) seated, rank spread median \d+, [\d.]+ ms per wave "
                         r"\(median\)", pods[0])
    assert found, pods[0]
    t3, s3, t4, s4, tp, sp = map(int, found.groups())
    assert s3 == 3 * t3 and s4 == 4 * t4 and sp == 4 * tp
    assert 39 <= s3 <= 42 and 36 <= s4 <= 42 and 36 <= sp <= 42  # nearly everybody seated


def test_without_pods_no_pod_line():
    assert not any(ln.startswith("pods:") for ln in _run())
