"""The in-process ticker (the embedded default, and the daphne live server in tests): a daemon
thread that sweeps whenever the pacer says so. With TIMERS_BACKEND "ticker" the site starts it on
the first request the process serves (``durak_site.realtime.when_serving``, in ``SiteConfig.ready()``);
with "celery", beat's scheduler (``beat.py``) is the one driver and no process runs a ticker."""

from __future__ import annotations

import threading

from durak_site.deadlines.backoff import logger, reset_connection
from durak_site.deadlines.pacer import Pacer
from durak_site.deadlines.sweep import sweep

_ticker: threading.Thread | None = None
_ticker_stop = threading.Event()


def run_paced(stop: threading.Event, pacer: Pacer | None = None) -> int:
    """Sweep whenever the pacer says so until ``stop`` is set; returns how many deadlines fired."""
    pacer = pacer or Pacer()
    total = 0
    while not stop.is_set():
        due, wait = pacer.decide()
        if due:
            try:
                total += len(sweep(full=pacer.sweep_full))
            except Exception:  # sweep() does not raise; never let the loop die anyway
                logger.exception("deadlines: ticker sweep failed")
                reset_connection()
        elif stop.wait(wait):
            break
    return total


def _tick_loop(pacer: Pacer) -> None:
    logger.info("deadlines: in-process ticker running (next deadline, re-read every %.2f s)", pacer.poll)
    try:
        run_paced(_ticker_stop, pacer)
    finally:
        reset_connection()  # this thread's own connection (the server-loop path closes its own)


def start_ticker(interval: float | None = None) -> threading.Thread:
    """Start (once per process) the daemon thread that sweeps when the pacer says (``interval``: its poll)."""
    global _ticker
    if _ticker is not None and _ticker.is_alive():
        return _ticker
    _ticker_stop.clear()
    _ticker = threading.Thread(target=_tick_loop, args=(Pacer(poll=interval),), name="timers-ticker",
                               daemon=True)
    _ticker.start()
    return _ticker


def stop_ticker(timeout: float = 5.0) -> None:
    global _ticker
    _ticker_stop.set()
    if _ticker is not None:
        _ticker.join(timeout)
    _ticker = None
