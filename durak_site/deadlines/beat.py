"""Celery beat's scheduler: it enqueues a deadline sweep when a deadline falls due, not on a fixed beat.

    celery -A durak_site beat        # CELERY_BEAT_SCHEDULER names this class; nothing else to pass

The ordinary entries of CELERY_BEAT_SCHEDULE (retention jobs) run as Celery's PersistentScheduler
runs them. On top of them every tick asks the ``Pacer`` whether a sweep is due and how long to
sleep: until the earliest pending deadline of any registered kind, at most TIMERS_SWEEP_SECONDS. A
sweep is one small message to the worker, sent TIMERS_SWEEP_LEAD_SECONDS ahead so that its trip
through the broker overlaps the wait (the worker holds it until the deadline); setting a deadline
publishes nothing. Beat keeps no deadline state that matters: killed and restarted, it reads the
columns again and the first decision is a full sweep.
"""

from __future__ import annotations

from typing import Any

from celery.beat import PersistentScheduler
from django.conf import settings

from durak_site.deadlines import tasks
from durak_site.deadlines.backoff import logger
from durak_site.deadlines.pacer import Pacer


class DeadlineScheduler(PersistentScheduler):
    """PersistentScheduler plus the deadline pacer (see the module docstring)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.pacer = Pacer(lead=settings.TIMERS_SWEEP_LEAD_SECONDS)

    def tick(self, *args, **kwargs) -> float:
        interval = super().tick(*args, **kwargs)
        due, wait = self.pacer.decide()
        if due:
            try:
                at = self.pacer.sweep_at
                sweep: dict[str, Any] = {"full": self.pacer.sweep_full}
                if at is not None:
                    sweep["not_before"] = at.isoformat()
                tasks.sweep_deadlines.apply_async(kwargs=sweep, expires=tasks.SWEEP_EXPIRES,
                                                  producer=self.producer)
            except Exception:
                logger.exception("deadlines: beat could not enqueue a sweep; retrying")
                self.pacer.retry()
                wait = self.pacer.poll
        return min(interval, wait)
