"""The one sweeper: every row overdue by the DATABASE clock (``Now()``, the one clock all processes
agree on) is fired, oldest first per kind. A sweeper killed mid-way loses nothing: the row is still
overdue for the next sweep. Whatever goes wrong with one row is logged and never stops the sweep."""

from __future__ import annotations

import contextlib
import logging
from datetime import timedelta

from django.db import connection, transaction
from django.db.models import DurationField, ExpressionWrapper, F, Q, QuerySet
from django.db.models.functions import Now

from durak_site import metrics
from game.models import Game, GameSeat
from game.timers.base import (
    awaited_bot_seats,
    backoff,
    bot_grace,
    heartbeat_timeout,
    lobby_heartbeats,
    logger,
    pending,
    reset_connection,
    stale_heartbeat,
)
from game.timers.firings import Fired, fire
from lobby.models import Seat, Table

_warned: set[str] = set()


def _overdue(field: str) -> QuerySet:
    return pending()[field].filter(**{f"{field}__lte": Now()})


def _due_game_deadlines():
    for pk, kind, version, deadline in (_overdue("deadline").order_by("deadline")
                                        .values_list("pk", "deadline_kind", "version", "deadline")):
        yield (kind or "turn", pk, version, deadline)


def _due_disconnects():
    for pk, deadline in (_overdue("disconnect_deadline").order_by("disconnect_deadline")
                         .values_list("pk", "disconnect_deadline")):
        yield ("disconnect", pk, None, deadline)


def _due_heartbeats():
    for pk, beat in (GameSeat.objects.filter(stale_heartbeat(), game__status=Game.Status.PLAYING, connected=True,
                                             player__isnull=False, bot_level="")
                     .order_by().values_list("pk", "last_heartbeat")):
        yield ("heartbeat", pk, None, beat)


def _due_tables():
    for kind in ("countdown", "rematch"):
        field = f"{kind}_deadline"
        for pk, version, deadline in _overdue(field).order_by().values_list("pk", "version", field):
            yield (kind, pk, version, deadline)


def _due_seats():
    for pk, deadline in _overdue("inactive_deadline").order_by().values_list("pk", "inactive_deadline"):
        yield ("inactive", pk, None, deadline)


def _due_presence():
    if lobby_heartbeats():
        for pk, seen in (Seat.objects.filter(connected=True, player__isnull=False,
                                             table__status__in=[Table.Status.WAITING, Table.Status.COUNTDOWN],
                                             last_seen__lt=Now() - heartbeat_timeout())
                         .order_by().values_list("pk", "last_seen")):
            yield ("presence", pk, None, seen)


def _due_bots():
    """Bots awaited for longer than bot_grace(): their queued move was lost (e.g. a worker restart).
    The state changed at deadline - turn_seconds (every awaiting state restarts the turn timer)."""
    turn_field = "turn_seconds"
    bot_games = (Game.objects.filter(status=Game.Status.PLAYING, deadline__isnull=False, deadline_kind="turn")
                 .filter(Q(seats__bot_level__gt="") | Q(seats__takeover_level__gt="")))
    if connection.vendor == "postgresql":  # narrow it in the database; SQLite (embedded) is small anyway
        bot_games = bot_games.filter(deadline__lte=Now() + ExpressionWrapper(
            F(turn_field) * timedelta(seconds=1), output_field=DurationField()) - bot_grace())
    bot_games = (bot_games.annotate(db_now=Now()).order_by().distinct()
                 .values_list("pk", "version", "deadline_seats", "deadline", turn_field, "db_now"))
    for pk, version, seats, deadline, turn_seconds, db_now in bot_games:
        changed = deadline - timedelta(seconds=turn_seconds or 30)
        if db_now - changed >= bot_grace() and awaited_bot_seats(pk, seats):
            yield ("bot", pk, version, deadline)


# the deadline columns (what the pacer watches) ... and the derived deadlines only a full sweep lists
_COLUMN_LISTERS = (_due_game_deadlines, _due_disconnects, _due_tables, _due_seats)
_LISTERS = (*_COLUMN_LISTERS, _due_heartbeats, _due_presence, _due_bots)


def _due(full: bool = True) -> list[tuple[str, int, int | None, object]]:
    """(kind, id, version, deadline) of every overdue row, oldest first per kind (``full=False``: the
    deadline columns only). A lister that fails (say a column a pending migration adds) is logged and
    skipped: the others still fire."""
    due: list[tuple[str, int, int | None, object]] = []
    for lister in _LISTERS if full else _COLUMN_LISTERS:
        # inside someone's transaction a failed query must not poison it (a savepoint); else autocommit
        guard = transaction.atomic() if connection.in_atomic_block else contextlib.nullcontext()
        try:
            with guard:
                due.extend(lister())
        except Exception:
            key = f"lister:{lister.__name__}"
            if key not in _warned:
                _warned.add(key)
                logger.exception("timers: listing %s failed; the other deadlines still fire", lister.__name__)
            else:
                logger.debug("timers: %s failed", lister.__name__, exc_info=True)
            if not connection.is_usable():
                reset_connection()
    return due


def sweep(limit: int = 500, full: bool = True) -> list[Fired]:
    """Fire every overdue deadline (at most ``limit`` rows this call). ``full=False`` (the pacer's sweep
    at a column's deadline) skips the derived ones: stale heartbeats, presence, the bot safety net.
    Never raises."""
    fired: list[Fired] = []
    try:
        due = _due(full)
    except Exception:
        logger.exception("timers: the sweep could not list the overdue rows")
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
    level = logging.WARNING if result.late_ms > 2000 and result.kind in ("turn", "check", "countdown") else \
        logging.DEBUG
    logger.log(level, "timers: fired %s %s v%s, %.0f ms late", result.kind, result.obj_id, result.version,
               result.late_ms)
