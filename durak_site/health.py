"""Is the club alive: the database, Redis, and the deadline sweeper (beat or the in-process ticker).

A stopped beat stops every timer in the club (turns, countdowns, disconnects, bots' safety net) while
every page still answers, so /healthz checks the age of the last sweep. Every sweep records its wall
time in the shared cache (Redis when configured): a sweep run by any worker proves that beat sent it and
a worker ran it. Wall clocks of the hosts must agree (NTP) to within a fraction of SWEEP_STALE_SECONDS.
"""

from __future__ import annotations

import logging
import threading
import time

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


def last_sweep_age() -> float | None:
    """Seconds since the last sweep anywhere in the club, or None when none was recorded."""
    at = cache.get(SWEEP_KEY)
    return None if at is None else max(0.0, time.time() - float(at))


def sweeper_expected() -> bool:
    """Where deadlines are swept for this site: always with Celery (beat + workers); in the embedded
    default by the process that runs the in-process ticker, known by its first sweep (a shell or a
    test runner runs none; a ticker that died after it is reported by the age)."""
    return settings.TIMERS_BACKEND == "celery" or _noted["here"]


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

    queues = ["celery", *sorted({route["queue"] for route in getattr(settings, "CELERY_TASK_ROUTES", {}).values()
                                 if "queue" in route} - {"celery"})]
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=2, socket_connect_timeout=2)
    try:
        return {queue: int(client.llen(queue)) for queue in queues}
    finally:
        client.close()
