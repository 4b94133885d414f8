"""Sweep the deadline columns in the foreground, forever: a stand-alone timer process without Celery.

    python manage.py run_ticker [--interval 0.2] [--once]

Several can run at once (rows are locked with skip_locked), alongside or instead of Celery beat.
"""

from __future__ import annotations

import signal
import threading

from django.core.management.base import BaseCommand

from game import timers


class Command(BaseCommand):
    help = "Fire overdue deadlines (turn, cheater check, countdown, rematch, disconnect) every interval."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--interval", type=float, default=0.2, help="seconds between sweeps (default 0.2)")
        parser.add_argument("--once", action="store_true", help="sweep once and exit")

    def handle(self, *args, interval: float, once: bool, **options) -> None:
        if once:
            fired = timers.sweep()
            self.stdout.write(f"fired {len(fired)} deadline(s)")
            return
        stop = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
        self.stdout.write(f"sweeping deadlines every {interval:.2f} s (Ctrl-C stops)")
        total = 0
        while not stop.wait(interval):
            try:
                total += len(timers.call_on_loop(timers.sweep))
            except Exception:  # sweep() does not raise; never let the loop die anyway
                timers.logger.exception("run_ticker: sweep failed")
                timers._reset_connection()
        self.stdout.write(f"stopped after firing {total} deadline(s)")
