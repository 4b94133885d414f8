"""Is the club alive: the database, Redis, the deadline sweeper (beat or the in-process ticker) and the
Celery workers of every queue.

A stopped beat stops every timer in the club (turns, countdowns, disconnects, bots' safety net) while
every page still answers, so /healthz checks the age of the last sweep. Every sweep records its wall
time in the shared cache (Redis when configured): a sweep run by any worker proves that beat sent it and
a worker ran it. Wall clocks of the hosts must agree (NTP) to within a fraction of SWEEP_STALE_SECONDS.

A worker that died (or hangs without consuming) stops its queue's tasks while beat keeps sending them:
every task a worker finishes, and every step of a running analysis, records its queue's heartbeat in
the shared cache (``note_worker``); beat sends the analysis queue a heartbeat task every
ANALYSIS_HEARTBEAT_SECONDS, so an idle analysis worker is heard too.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import cast

from django.conf import settings
from django.core.cache import cache
from django.db import connection

log = logging.getLogger(__name__)

SWEEP_KEY = "health:last-sweep"
SWEEP_STALE_SECONDS = 5.0  # a full sweep is asked for every TIMERS_FULL_SWEEP_SECONDS (1 s)
_NOTE_EVERY = 0.5  # s: a busy sweeper writes the key at most this often per process
_noted = {"at": 0.0, "here": False}  # "here": this process has swept (it runs the in-process ticker)
_noted_lock = threading.Lock()


def note_sweep() -> None:
    """A sweep ran in this process (a worker's task or the ticker). Never raises."""
    now = time.time()
    with _noted_lock:
        if now - _noted["at"] < _NOTE_EVERY:
            return
        _noted["at"] = now
        _noted["here"] = True
    try:
        cache.set(SWEEP_KEY, now, timeout=3600)
    except Exception:  # the cache down is reported by /healthz's Redis check
        log.warning("health: could not record the sweep time", exc_info=True)


WORKER_KEY = "health:worker:{queue}"
# a queue whose last heartbeat is older than this has no working worker: the default queue runs a
# sweep every second; the analysis queue gets beat's heartbeat task (or a running analysis' steps)
WORKER_STALE_SECONDS = {"celery": 10.0, "analysis": 60.0}
_worker_noted: dict[str, float] = {}


def note_worker(queue: str | None) -> None:
    """A worker served ``queue`` just now (a task finished, an analysis made a step). Never raises."""
    if not queue:
        return
    now = time.time()
    with _noted_lock:
        if now - _worker_noted.get(queue, 0.0) < _NOTE_EVERY:
            return
        _worker_noted[queue] = now
    try:
        cache.set(WORKER_KEY.format(queue=queue), now, timeout=3600)
    except Exception:  # the cache down is reported by /healthz's Redis check
        log.warning("health: could not record the %s worker's heartbeat", queue, exc_info=True)


def celery_queues() -> list[str]:
    """The queues workers must serve: Celery's default one and those of CELERY_TASK_ROUTES."""
    routed = {route["queue"] for route in getattr(settings, "CELERY_TASK_ROUTES", {}).values() if "queue" in route}
    return ["celery", *sorted(routed - {"celery"})]


def workers_expected() -> bool:
    return settings.TIMERS_BACKEND == "celery"


def worker_ages() -> dict[str, float | None]:
    """Seconds since each queue's last heartbeat (None: none recorded)."""
    keys = {queue: WORKER_KEY.format(queue=queue) for queue in celery_queues()}
    found = cache.get_many(list(keys.values()))
    now = time.time()
    return {queue: (None if found.get(key) is None else max(0.0, now - float(found[key])))
            for queue, key in keys.items()}


def check_workers() -> str | None:
    try:
        ages = worker_ages()
    except Exception:
        return "the workers' heartbeats cannot be read"
    dead = [f"{queue} ({'never' if age is None else f'{age:.0f} s ago'})" for queue, age in ages.items()
            if age is None or age > WORKER_STALE_SECONDS.get(queue, 60.0)]
    if dead:
        return "no Celery worker is serving the queue(s) " + ", ".join(dead) + ": is each worker running?"
    return None


def last_sweep_age() -> float | None:
    """Seconds since the last sweep anywhere in the club, or None when none was recorded."""
    at = cache.get(SWEEP_KEY)
    return None if at is None else max(0.0, time.time() - float(at))


def sweeper_expected() -> bool:
    """Where deadlines are swept for this site: always with Celery (beat + workers); in the embedded
    default by the process that runs the in-process ticker, known by its first sweep (a shell or a
    test runner runs none; a ticker that died after it is reported by the age)."""
    return settings.TIMERS_BACKEND == "celery" or bool(_noted["here"])


def check_database() -> str | None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as exc:  # any failure means unhealthy, whatever the driver raised
        log.warning("healthz: database check failed: %s", exc)
        return "database does not answer"
    return None


def check_redis() -> str | None:
    if not settings.REDIS_URL:
        return None
    try:
        import redis

        client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)
        try:
            client.ping()
        finally:
            client.close()
    except Exception as exc:
        log.warning("healthz: redis check failed: %s", exc)
        return "redis does not answer"
    return None


def check_sweeper() -> str | None:
    if not sweeper_expected():
        return None
    try:
        age = last_sweep_age()
    except Exception:
        return "the last sweep time cannot be read"
    if age is None:
        return "no deadline sweep recorded: is beat (or the ticker) running?"
    if age > SWEEP_STALE_SECONDS:
        return f"the last deadline sweep was {age:.0f} s ago: is beat (and a worker) running?"
    return None


def celery_queue_depth() -> dict[str, int] | None:
    """Tasks waiting in each queue (a Redis list per queue: the default ``celery`` and those of
    CELERY_TASK_ROUTES, e.g. ``analysis``); None without Celery."""
    if settings.TIMERS_BACKEND != "celery" or not settings.REDIS_URL:
        return None
    import redis

    queues = celery_queues()
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=2, socket_connect_timeout=2)
    try:
        return {queue: int(cast(int, client.llen(queue))) for queue in queues}  # a sync client
    finally:
        client.close()
