"""Celery task of a push: thin, like a view (notifications.delivery does the work)."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task

from . import delivery, services

logger = logging.getLogger(__name__)


@shared_task(name=services.TASK, ignore_result=True, acks_late=True)
def send_push(player_id: int, kind: str, data: dict[str, Any]) -> None:
    try:
        delivery.send(player_id, kind, data)
    except Exception:
        logger.exception("send_push(%r, %r) failed", player_id, kind)
