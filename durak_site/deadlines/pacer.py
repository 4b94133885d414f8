"""When to sweep: at the next deadline, not on a fixed beat. The ``Pacer`` reads the earliest pending
deadline over every registered column (one statement, at least every TIMERS_SWEEP_SECONDS) and asks
for a sweep the moment one falls due, plus a full sweep every TIMERS_FULL_SWEEP_SECONDS for the
derived deadlines (stale heartbeats, the bot safety net, the search's periodic re-match) and retries."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import connection
from django.db.models.functions import Now
from django.utils.dateparse import parse_datetime

from durak_site import clock
from durak_site.deadlines import registry
from durak_site.deadlines.backoff import logger, reset_connection


def _as_datetime(value) -> datetime | None:
    """An aware datetime: Postgres hands one back; raw SQLite text or, depending on its version and
    the expression, a naive datetime, both in UTC (what Django stores)."""
    if value is None:
        return None
    if not isinstance(value, datetime):
        value = parse_datetime(str(value))
        if value is None:
            return None
    return value if value.tzinfo else value.replace(tzinfo=UTC)


# A moment no deadline holds: compiled in place of ``after``, so the statement is built once and
# ``after`` is put in its parameters' place on every poll.
_AFTER_MARK = datetime(1970, 1, 1, 0, 0, 0, 424242, tzinfo=UTC)
_statements: dict[tuple, tuple[str, list, list[int]]] = {}


def _statement(with_after: bool) -> tuple[str, list, list[int]] | None:
    """(SQL, parameters, where ``after`` goes in them) of the one poll statement, or None when no
    column is watched. Compiling a dozen querysets cost about four times running them, ten times a
    second; it is done once per registry state and connection (``pending()`` querysets are fixed
    filters: the database clock, not Python's, decides what is due)."""
    watched = [d for d in registry.registered() if d.watch is not None]
    key = (registry.generation(), connection.vendor, connection.alias, with_after)
    found = _statements.get(key)
    if found is not None or not watched:
        return found
    watches = [d.watch for d in watched if d.watch is not None]
    parts: list[str] = []
    params: list = []
    for pending, field in watches:
        queryset = pending().filter(**{f"{field}__isnull": False})
        if with_after:
            queryset = queryset.filter(**{f"{field}__gt": _AFTER_MARK})
        sql, sql_params = queryset.order_by(field).values(field)[:1].query.sql_with_params()
        parts.append(f"({sql})")
        params.extend(sql_params)
    compiler = watches[0][0]().none().query.get_compiler(connection=connection)
    now_sql, now_params = compiler.compile(Now())
    params.extend(now_params)
    marks = {_AFTER_MARK, connection.ops.adapt_datetimefield_value(_AFTER_MARK)}
    slots = [i for i, value in enumerate(params) if value in marks] if with_after else []
    found = (f"SELECT {', '.join(parts)}, {now_sql}", params, slots)
    _statements[key] = found
    return found


def next_deadline(after: datetime | None = None) -> tuple[datetime, datetime | None]:
    """(the DB's now, the earliest pending deadline later than ``after``, or None) in ONE statement:
    ``SELECT (earliest of column 1), (earliest of column 2), ..., now()``, each an index range scan
    with ``ORDER BY column LIMIT 1``: every watched column needs an index
    (tests/timers/test_watched_columns.py)."""
    statement = _statement(after is not None)
    if statement is None:
        return clock.db_now(), None
    sql, params, slots = statement
    if slots:
        params = list(params)
        value = connection.ops.adapt_datetimefield_value(after)
        for i in slots:
            params[i] = value
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        *values, now = cursor.fetchone()
    upcoming = [v for v in map(_as_datetime, values) if v is not None]
    db_now = _as_datetime(now)
    assert db_now is not None  # the database's NOW()
    return db_now, min(upcoming, default=None)


class Pacer:
    """Decides when a sweep is needed; beat's scheduler and the in-process ticker both follow it.

    ``decide()`` reads the earliest deadline not yet covered by a sweep. Due: sweep now (every deadline
    up to the DB's now is then covered). Not due: sleep until it, at most ``poll`` seconds (a deadline
    set meanwhile is seen within ``poll``). Every ``full_every`` seconds a sweep is asked for anyway: it
    fires the derived deadlines (heartbeats, presence, the bot safety net) and retries whatever an
    earlier sweep could not fire (row locked, worker killed, service error). Idle, it costs one query
    per ``poll`` and one sweep per ``full_every``; no broker message per move.

    With a ``lead`` (beat: the broker and the worker's pick-up take time) a sweep is asked for that
    long before its deadline, to run at ``sweep_at`` (DB time): the worker waits for it (``wait_for``).
    """

    def __init__(self, poll: float | None = None, full_every: float | None = None, lead: float = 0.0) -> None:
        self.poll = float(poll if poll is not None else settings.TIMERS_SWEEP_SECONDS)
        self.full_every = float(full_every if full_every is not None else settings.TIMERS_FULL_SWEEP_SECONDS)
        self.lead = timedelta(seconds=lead)
        self.covered: datetime | None = None  # every deadline <= this (DB time) has had its sweep
        self.sweep_at: datetime | None = None  # when the sweep last asked for should run (None: at once)
        self.sweep_full = True  # whether it is the full sweep (else the deadline columns only)
        self._last_full = -float("inf")  # monotonic

    def decide(self) -> tuple[bool, float]:
        """(sweep now?, seconds to wait before deciding again). Never raises."""
        full = time.monotonic() - self._last_full >= self.full_every
        self.sweep_at = None
        try:
            now, upcoming = next_deadline(self.covered)
        except Exception:
            logger.exception("deadlines: reading the next deadline failed")
            reset_connection()
            self.sweep_full = True
            if full:
                self._last_full = time.monotonic()
            return full, self.poll
        if full or (upcoming is not None and upcoming <= now + self.lead):
            at = now if full or upcoming is None or upcoming <= now else upcoming
            self.sweep_at = None if at == now else at
            self.sweep_full = full
            self.covered = at if self.covered is None else max(self.covered, at)
            if full:
                self._last_full = time.monotonic()
            return True, 0.0
        wait = self.poll if upcoming is None else (upcoming - self.lead - now).total_seconds()
        return False, max(0.0, min(wait, self.poll, self.full_every - (time.monotonic() - self._last_full)))

    def retry(self) -> None:
        """The sweep asked for was not sent (broker down): ask again at the next decision."""
        self.covered = None
        self._last_full = -float("inf")


def wait_for(at: datetime, at_most: float = 1.0) -> None:
    """A sweep that arrives before its deadline (beat's lead) waits for it by the DB's clock."""
    delay = (at - clock.db_now()).total_seconds()
    if 0 < delay <= at_most:
        time.sleep(delay)
