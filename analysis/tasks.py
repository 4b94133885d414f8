"""Celery task of the analysis queue (settings.CELERY_TASK_ROUTES): thin, like a view.

Run a worker for it apart from live play's: ``celery -A durak_site worker -Q analysis -c 1``.
"""

from __future__ import annotations

import logging

from celery import shared_task

from . import services

logger = logging.getLogger(__name__)


@shared_task(name=services.TASK, ignore_result=True, acks_late=True)
def analyse_game(analysis_id: int) -> None:
    """Analyse one game (services.run claims the row, so a duplicate delivery does nothing)."""
    try:
        services.run(analysis_id)
    except Exception:
        logger.exception("analyse_game(%r) failed", analysis_id)


@shared_task(name=services.AUTO_TASK, ignore_result=True, acks_late=True)
def auto_analyse_game(game_id: int) -> None:
    """A game just ended: analyse it if it is rated and one of its players asked for that."""
    try:
        services.auto_analyse(game_id)
    except Exception:
        logger.exception("auto_analyse_game(%r) failed", game_id)
