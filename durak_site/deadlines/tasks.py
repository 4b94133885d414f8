"""The sweep as a Celery task: beat's DeadlineScheduler (``beat.py``) enqueues it and a worker runs
it. Registered with the worker by CELERY_IMPORTS (durak_site is not an app whose tasks Celery
discovers). It never raises: the worker survives anything a firing meets. It waits for the frames
the firings produced to leave (realtime.drain) before it returns, so an acked sweep has told the sockets."""

from __future__ import annotations

from datetime import datetime

from celery import shared_task

from durak_site import realtime
from durak_site.deadlines.backoff import logger
from durak_site.deadlines.pacer import wait_for
from durak_site.deadlines.sweep import sweep

SWEEP_TASK = "durak_site.deadlines.sweep"
SWEEP_EXPIRES = 2.0  # s: an older sweep is dropped unrun (after an outage, one sweep does the backlog)


@shared_task(name=SWEEP_TASK, ignore_result=True)
def sweep_deadlines(limit: int = 500, not_before: str | None = None, full: bool = True) -> int:
    """Enqueued by beat just before a deadline falls due (to run ``not_before``, an ISO DB time; the
    watched columns only), and every TIMERS_FULL_SWEEP_SECONDS (full): fire everything overdue."""
    try:
        if not_before:
            wait_for(datetime.fromisoformat(not_before))
        return len(sweep(limit, full=full))
    except Exception:
        logger.exception("deadlines: sweep_deadlines failed")
        return 0
    finally:
        realtime.drain()
