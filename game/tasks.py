"""Celery tasks: thin callers of the services, like views (the deadline sweep is
durak_site.deadlines.tasks).

A task never raises: a stale, duplicate or orphaned move is logged and dropped, so the worker
survives anything a task meets. Each task waits for the frames it produced to leave
(realtime.drain) before it returns, so an acked task has told the sockets.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from celery.signals import worker_process_init

from durak_site import realtime
from game import bots, services

logger = logging.getLogger("game.bots")


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
def _own_connection(**kwargs: Any) -> None:
    """A prefork child opens its own database connection (never one inherited from the parent)."""
    from django.db import connection

    connection.close()
