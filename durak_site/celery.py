"""The Celery app: worker and beat run as their own processes in production (see Procfile).

    celery -A durak_site worker -l info     # the deadline sweeps, bot moves
    celery -A durak_site beat -l info       # THE one scheduler: a sweep when a deadline falls due

The beat schedule and its scheduler class live in settings (CELERY_BEAT_SCHEDULE,
CELERY_BEAT_SCHEDULER: durak_site.deadlines.beat.DeadlineScheduler reads the deadline columns and
enqueues the sweeps).

Operations (docs/operations.md): a worker started with METRICS_PORT serves /metrics on it, every
task's log lines carry its id (LOG_FORMAT=json), and every finished task records its queue's
heartbeat for /healthz. The broker's versions are pinned for surviving a Redis restart
(pyproject.toml, scripts/redis-restart-check).
"""

import os

from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")

app = Celery("durak_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def _serve_metrics(**kwargs) -> None:
    """The worker's main process serves the container's metrics (its prefork children write them)."""
    from django.conf import settings

    from durak_site import metrics

    metrics.forget_dead_processes()
    if settings.METRICS_PORT and settings.METRICS_ENABLED:
        metrics.serve_in_thread(settings.METRICS_PORT)


@task_prerun.connect
def _task_ids(task_id=None, **kwargs) -> None:
    from durak_site import logs

    logs.clear()
    logs.bind(task_id=task_id)


@task_postrun.connect
def _task_done(task=None, **kwargs) -> None:
    """A finished task is the worker's heartbeat for its queue (durak_site.health: /healthz, metrics)."""
    from durak_site import health, logs

    logs.clear()
    delivery = getattr(getattr(task, "request", None), "delivery_info", None) or {}
    health.note_worker(delivery.get("routing_key"))
