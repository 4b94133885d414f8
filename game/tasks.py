"""Celery tasks of the timers: thin callers of game.timers (which calls the owning services).

A timer task never raises: a stale, duplicate, early or orphaned firing is logged and dropped, so
the worker survives anything a task meets (deleted games, finished games, a broken row).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from celery.signals import worker_process_init, worker_ready
from django.db.models.functions import Now

from game import timers

logger = logging.getLogger("game.timers")

# An eta task can arrive a little early by the database clock (clock skew between hosts):
# it re-queues itself for the remainder this many times, then leaves the row to the sweep.
MAX_EARLY_RETRIES = 3


@shared_task(name="game.tasks.fire_deadline", ignore_result=True, acks_late=True)
def fire_deadline(kind: str, obj_id: int, version: int | None, early_retries: int = 0) -> bool:
    """Fire deadline ``kind`` of ``obj_id`` scheduled for ``version`` (an eta task from timers.schedule)."""
    try:
        return timers.call_on_loop(_fire_deadline, kind, obj_id, version, early_retries)
    except Exception:  # never kill the worker (timers.fire already swallows; this is belt and braces)
        logger.exception("timers: fire_deadline(%r, %r, %r) failed", kind, obj_id, version)
        return False


def _fire_deadline(kind: str, obj_id: int, version: int | None, early_retries: int) -> bool:
    try:
        fired = timers.fire(kind, obj_id, version, wait=True)
        if fired is not None:
            timers._note_fired(fired)
            return True
        remaining = _early_by(kind, obj_id, version)
        if remaining is not None and early_retries < MAX_EARLY_RETRIES:
            fire_deadline.apply_async(args=(kind, obj_id, version, early_retries + 1),
                                      countdown=remaining.total_seconds() + 0.005)
        return False
    except Exception:  # never kill the worker (timers.fire already swallows; this is belt and braces)
        logger.exception("timers: fire_deadline(%r, %r, %r) failed", kind, obj_id, version)
        return False


def _early_by(kind: str, obj_id: int, version: int | None) -> timedelta | None:
    """How long until the (still pending) deadline by the database clock, when this task came too early.

    None when there is nothing pending for this firing any more (it moved on, finished, was deleted).
    """
    remaining = _pending_for(kind, obj_id, version)
    return None if remaining is None else max(remaining, timedelta(0))


def _pending_for(kind: str, obj_id: int, version: int | None) -> timedelta | None:
    try:
        if kind in ("turn", "check"):
            from game.models import Game

            row = (Game.objects.filter(pk=obj_id, status=Game.Status.PLAYING, deadline_kind=kind,
                                       deadline__isnull=False, **({"version": version} if version is not None else {}))
                   .annotate(db_now=Now()).values("deadline", "db_now").first())
            if row:
                return row["deadline"] - row["db_now"]
        elif kind in ("countdown", "rematch"):
            from lobby.models import Table

            field = f"{kind}_deadline"
            status = Table.Status.COUNTDOWN if kind == "countdown" else Table.Status.REMATCH
            row = (Table.objects.filter(pk=obj_id, status=status, **{f"{field}__isnull": False},
                                        **({"version": version} if version is not None else {}))
                   .annotate(db_now=Now()).values(field, "db_now").first())
            if row:
                return row[field] - row["db_now"]
        elif kind == "disconnect":
            from game.models import GameSeat

            row = (GameSeat.objects.filter(pk=obj_id, disconnect_deadline__isnull=False,
                                           game__status="playing")
                   .annotate(db_now=Now()).values("disconnect_deadline", "db_now").first())
            if row:
                return row["disconnect_deadline"] - row["db_now"]
        elif kind == "inactive":
            from lobby.models import Seat

            row = (Seat.objects.filter(pk=obj_id, inactive_deadline__isnull=False)
                   .annotate(db_now=Now()).values("inactive_deadline", "db_now").first())
            if row:
                return row["inactive_deadline"] - row["db_now"]
    except Exception:
        logger.exception("timers: could not check whether %s %s was early", kind, obj_id)
    return None


@shared_task(name="game.tasks.sweep_deadlines", ignore_result=True)
def sweep_deadlines(limit: int = 500) -> int:
    """Celery beat runs this every second: fire everything overdue whose eta task was lost."""
    try:
        return len(timers.call_on_loop(timers.sweep, limit))
    except Exception:
        logger.exception("timers: sweep_deadlines failed")
        return 0


@shared_task(name="game.tasks.bot_move", ignore_result=True, acks_late=True)
def bot_move(game_id: int, seat: int | None, version: int | None) -> None:
    """A bot's move, scheduled by the game services with timers.schedule("bot", game_id, version, at, seat=n)."""
    try:
        timers.call_on_loop(timers.run_bot_move, game_id, seat, version)
    except Exception:
        logger.exception("timers: bot_move(%r, %r, %r) failed", game_id, seat, version)


@worker_ready.connect
def _warm_up_imports(**kwargs) -> None:
    """Import the services (and the engine) before the first deadline rather than during it."""
    try:
        import game.services  # noqa: F401
        import lobby.services  # noqa: F401
    except Exception:
        logger.warning("timers: warm-up imports failed (the first task will do them)", exc_info=True)


@worker_process_init.connect
def _warm_up_child(**kwargs) -> None:
    """A prefork child: imports plus its own database connection (never one inherited from the parent)."""
    _warm_up_imports()
    try:
        from django.db import connection

        connection.ensure_connection()
    except Exception:
        logger.warning("timers: could not open the database connection early", exc_info=True)
