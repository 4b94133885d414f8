"""Celery tasks: thin callers of the timers and the services, like views.

A task never raises: a stale, duplicate, early or orphaned firing is logged and dropped, so the
worker survives anything a task meets. Each task waits for the frames it produced to leave
(realtime.drain) before it returns, so an acked task has told the sockets.
"""

from __future__ import annotations

import logging
from datetime import datetime

from celery import shared_task
from celery.signals import worker_process_init

from durak_site import realtime
from game import bots, services, timers

logger = logging.getLogger("game.timers")

SWEEP_EXPIRES = 2.0  # s: an older sweep is dropped unrun (after an outage, one sweep does the backlog)


@shared_task(name="game.tasks.sweep_deadlines", ignore_result=True)
def sweep_deadlines(limit: int = 500, not_before: str | None = None, full: bool = True) -> int:
    """Beat's DeadlineScheduler (game/beat.py) enqueues this just before a deadline falls due (to run
    ``not_before``, an ISO DB time; the deadline columns only), and every TIMERS_FULL_SWEEP_SECONDS
    (full): fire everything overdue."""
    try:
        if not_before:
            timers.wait_for(datetime.fromisoformat(not_before))
        return len(timers.sweep(limit, full=full))
    except Exception:
        logger.exception("timers: sweep_deadlines failed")
        return 0
    finally:
        realtime.drain()


@shared_task(name=bots.BOT_MOVE_TASK, ignore_result=True, acks_late=True)
def bot_move(game_id: int, seat: int, version: int) -> None:
    """A bot's move, queued by game.bots after the change that made it awaited: the decision is made
    here, in the worker, never in a web process."""
    try:
        services.move_bot(game_id, seat, version)
    except Exception:
        logger.exception("bot_move(%r, %r, %r) failed", game_id, seat, version)
    finally:
        realtime.drain()


@worker_process_init.connect
def _own_connection(**kwargs) -> None:
    """A prefork child opens its own database connection (never one inherited from the parent)."""
    from django.db import connection

    connection.close()
