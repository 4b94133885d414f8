"""Firing one deadline: one small transaction in which the registered firer locks the owning row
(``skip_locked`` for the sweep), re-checks "still due, still the same version" by the database clock
and calls the owning service, as a view would. A duplicate, late or stale firing is a silent no-op;
whatever goes wrong is logged, never raised."""

from __future__ import annotations

import time
from dataclasses import replace

from django.db import connection, transaction

from durak_site.deadlines import registry
from durak_site.deadlines.backoff import backoff, logger, reset_connection
from durak_site.deadlines.registry import Fired
from durak_site.errors import ServiceError


def fire(kind: str, obj_id: int, version: int | None = None, *, wait: bool = False,
         _key: tuple | None = None) -> Fired | None:
    """Fire deadline ``kind`` of ``obj_id`` if it is still due (and still ``version``, when given).

    Returns what fired, or None for a no-op (not due yet, moved on, locked by another firer, gone).
    ``wait=False`` skips a row another transaction holds (the sweep); ``wait=True`` waits for it.
    Never raises.
    """
    deadline = registry.get(kind)
    if deadline is None:
        logger.error("deadlines: unknown deadline kind %r for %s", kind, obj_id)
        return None
    started = time.monotonic()
    try:
        with transaction.atomic():
            result = deadline.fire(obj_id, version, not wait)
        if result is not None:  # lateness of the committed firing, not just of taking the lock
            result = replace(result, late_ms=result.late_ms + (time.monotonic() - started) * 1000.0)
        return result
    except Exception as exc:
        if _key is not None:
            backoff.mark(_key)
        if isinstance(exc, ServiceError):  # the service refused a stale or finished target: expected, quiet
            logger.info("deadlines: %s %s v%s refused by the service: %s", kind, obj_id, version, exc)
            return None
        logger.exception("deadlines: firing %s %s v%s failed", kind, obj_id, version)
        if connection.needs_rollback or not connection.is_usable():
            reset_connection()
        return None
