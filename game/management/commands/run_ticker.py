"""Sweep the deadline columns in the foreground, forever: a stand-alone timer process without Celery.

    python manage.py run_ticker [--interval 0.1] [--once]

It sweeps when the next deadline falls due (timers.Pacer, the same decisions as beat's scheduler),
re-reading the deadline columns at least every ``--interval`` seconds.

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
        parser.add_argument("--interval", type=float, default=None,
                            help="re-read the next deadline at least this often (default TIMERS_SWEEP_SECONDS)")
        parser.add_argument("--once", action="store_true", help="sweep once and exit")

    def handle(self, *args, interval: float | None, once: bool, **options) -> None:
        if once:
            fired = timers.sweep()
            self.stdout.write(f"fired {len(fired)} deadline(s)")
            return
        stop = threading.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
        pacer = timers.Pacer(poll=interval)
        self.stdout.write(f"sweeping deadlines as they fall due, re-read every {pacer.poll:.2f} s (Ctrl-C stops)")
        total = timers.run_paced(stop, pacer)
        self.stdout.write(f"stopped after firing {total} deadline(s)")
