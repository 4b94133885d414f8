"""Celery: the queue's periodic part (no-shows, players gone, widening windows, bot fills), run by
beat's entry `social-sweep` (CELERY_BEAT_SCHEDULE) every second."""

from __future__ import annotations

from celery import shared_task

from . import queue


@shared_task(name="social.tasks.sweep", ignore_result=True, expires=5)
def sweep() -> dict:
    return queue.sweep()
