"""The suite's order is part of its correctness: the session's live server runs the in-process ticker,
which fires every test's deadlines from the moment it starts, so tests that fire deadlines
themselves (tests/timers) must all run before the first test that starts it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def collected(*paths: str) -> list[str]:
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *paths],
                         cwd=ROOT, capture_output=True, text=True, timeout=120, check=True).stdout
    return [line for line in out.splitlines() if "::" in line]


def test_tests_of_the_session_live_server_run_after_the_timers_tests():
    items = collected("tests/game/test_protocol.py", "tests/timers/test_pacer.py")
    live = items.index("tests/game/test_protocol.py::test_every_frame_of_a_live_game_fits_its_definition")
    timers = [i for i, name in enumerate(items) if name.startswith("tests/timers/")]
    assert timers and max(timers) < live
