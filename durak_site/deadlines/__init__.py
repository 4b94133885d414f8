"""Deadlines, for every app: one registry, one sweep, one pacer, one driver per deployment.

A deadline is a column (a row's moment); setting one costs nothing beyond the row's UPDATE (no
broker message). Each app registers its kinds in its ``AppConfig.ready()`` (``register_column`` or
``register``). The sweep fires every registered deadline that is overdue by the database clock; the
pacer decides when to sweep (at the earliest watched deadline, and a full sweep every
TIMERS_FULL_SWEEP_SECONDS); the driver runs the sweeps: Celery beat's ``DeadlineScheduler`` and a
worker when TIMERS_BACKEND is "celery", else the in-process ticker.

- ``registry``: ``register``, ``register_column``, ``Deadline``, ``Fired``, ``locked``, ``late_ms``;
- ``firing``: firing one deadline (``fire``), in its own transaction, never raising;
- ``sweep``: listing every overdue row and firing each (``sweep``);
- ``pacer``: when to sweep (``Pacer``, ``next_deadline``, ``wait_for``);
- ``ticker``: the in-process driver; ``beat`` and ``tasks``: the Celery driver.

Callers use this package's names: ``from durak_site import deadlines; deadlines.sweep()``.
"""

from durak_site.deadlines.firing import fire
from durak_site.deadlines.pacer import Pacer, next_deadline, wait_for
from durak_site.deadlines.registry import (
    Deadline,
    Due,
    Fired,
    get,
    late_ms,
    locked,
    register,
    register_column,
    registered,
    unregister,
)
from durak_site.deadlines.sweep import sweep
from durak_site.deadlines.ticker import run_paced, start_ticker, stop_ticker

__all__ = [
    "Deadline", "Due", "Fired", "Pacer", "fire", "get", "late_ms", "locked", "next_deadline", "register",
    "register_column", "registered", "run_paced", "start_ticker", "stop_ticker", "sweep", "unregister",
    "wait_for",
]
