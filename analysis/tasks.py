"""Celery tasks of the analysis queue (settings.CELERY_TASK_ROUTES): thin, like a view.

Run a worker for it apart from live play's: ``celery -A durak_site worker -Q analysis -c 1``.
"""

from __future__ import annotations

import logging
from typing import Any

from billiard.exceptions import WorkerLostError
from celery import shared_task
from celery.signals import task_failure

from . import queue, services

logger = logging.getLogger(__name__)

HEARTBEAT_TASK = "analysis.tasks.heartbeat"
SWEEP_TASK = "analysis.tasks.sweep"


# A dead child is not redelivered blindly (the claim would refuse its running row): the main process
# reports it (task_failure below) and queue.worker_lost queues the analysis again, or fails it.
@shared_task(name=queue.TASK, bind=True, ignore_result=True, acks_late=True, reject_on_worker_lost=False)
def analyse_game(self: Any, analysis_id: int | None = None) -> None:
    """One turn of the queue: run the most urgent queued analysis (``analysis_id`` names the row whose
    request sent this turn; a turn that finds nothing queued does nothing)."""
    try:
        queue.run(task_id=self.request.id or "")
    except Exception:
        logger.exception("analyse_game(%r) failed", analysis_id)


@shared_task(name=services.AUTO_TASK, bind=True, ignore_result=True, acks_late=True, reject_on_worker_lost=False)
def auto_analyse_game(self: Any, game_id: int) -> None:
    """A game just ended: queue its analysis if it is rated and one of its players asked for that."""
    try:
        services.auto_analyse(game_id, task_id=self.request.id or "")
    except Exception:
        logger.exception("auto_analyse_game(%r) failed", game_id)


@shared_task(name=HEARTBEAT_TASK, ignore_result=True)
def heartbeat() -> None:
    """Beat's sign of life for the analysis worker: finishing it records the queue's heartbeat
    (durak_site.celery's task_postrun), which /healthz and the metrics read."""


@shared_task(name=SWEEP_TASK, ignore_result=True)
def sweep() -> None:
    """Beat's repair of the analysis queue (runs on the default queue: a busy analysis worker must
    not delay it)."""
    queue.sweep()


@task_failure.connect
def _worker_lost(sender: Any = None, task_id: Any = None, exception: Any = None, **kwargs: Any) -> None:
    if getattr(sender, "name", "") in (queue.TASK, services.AUTO_TASK) and isinstance(exception, WorkerLostError):
        queue.worker_lost(task_id or "")
