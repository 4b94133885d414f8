"""The one clock every deadline is set and judged by: the database's.

Web processes, Celery workers and beat may run on hosts whose clocks disagree; the database is the
one thing they all share, so deadlines are computed from its now() and compared with it (timers).
"""

from __future__ import annotations

from datetime import datetime

from django.db import connection
from django.utils import timezone


def db_now() -> datetime:
    """The database's current time (one query on Postgres; the process clock on embedded SQLite,
    where the database lives in this process's host anyway)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT statement_timestamp()")
            return cursor.fetchone()[0]
    return timezone.now()
