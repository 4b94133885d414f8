"""The one sweep: every registered deadline overdue by the DATABASE clock (``Now()``, the one clock
all processes agree on) is fired, oldest first per kind, kinds in the order they were registered. A
sweeper killed mid-way loses nothing: the row is still overdue for the next sweep. Whatever goes
wrong with one row or one lister is logged and never stops the sweep."""

from __future__ import annotations

import contextlib
import logging

from django.db import connection, transaction

from durak_site import metrics
from durak_site.deadlines import registry
from durak_site.deadlines.backoff import backoff, logger, reset_connection
from durak_site.deadlines.firing import fire
from durak_site.deadlines.registry import Fired

_warned: set[str] = set()


def _due(full: bool = True) -> list[tuple[str, int, int | None, object]]:
    """(kind, id, version, deadline) of every overdue row (``full=False``: the watched columns only,
    not the derived deadlines). A lister that fails (say a column a pending migration adds) is logged
    and skipped: the others still fire."""
    due: list[tuple[str, int, int | None, object]] = []
    for deadline in registry.registered():
        if deadline.derived and not full:
            continue
        # inside someone's transaction a failed query must not poison it (a savepoint); else autocommit
        guard = transaction.atomic() if connection.in_atomic_block else contextlib.nullcontext()
        try:
            with guard:
                due.extend((deadline.kind, *item) for item in deadline.due())
        except Exception:
            key = f"lister:{deadline.kind}"
            if key not in _warned:
                _warned.add(key)
                logger.exception("deadlines: listing %s failed; the other deadlines still fire", deadline.kind)
            else:
                logger.debug("deadlines: listing %s failed", deadline.kind, exc_info=True)
            if not connection.is_usable():
                reset_connection()
    return due


def sweep(limit: int = 500, full: bool = True) -> list[Fired]:
    """Fire every overdue deadline (at most ``limit`` rows this call). ``full=False`` (the pacer's sweep
    at a column's deadline) skips the derived ones. Never raises."""
    fired: list[Fired] = []
    try:
        due = _due(full)
    except Exception:
        logger.exception("deadlines: the sweep could not list the overdue rows")
        reset_connection()
        return fired
    for kind, obj_id, version, deadline in due[:limit]:
        key = (kind, obj_id, version, deadline)
        if not backoff.allowed(key):
            continue
        result = fire(kind, obj_id, version, _key=key)
        if result is not None:
            fired.append(result)
            _note_fired(result)
            backoff.mark(key)  # harmless when the service moved the row on (a new key next time)
    backoff.prune()
    metrics.sweep_done()
    return fired


def _note_fired(result: Fired) -> None:
    metrics.deadline_fired(result.kind, result.late_ms)
    level = logging.WARNING if result.late_ms > 2000 else logging.DEBUG
    logger.log(level, "deadlines: fired %s %s v%s, %.0f ms late", result.kind, result.obj_id, result.version,
               result.late_ms)
