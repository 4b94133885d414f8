"""Celery: the tournaments' periodic part (deadlines, no-shows, arena pairing waves, the schedule),
run by beat's entry `tournaments-sweep` (CELERY_BEAT_SCHEDULE) every second."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(name="tournaments.tasks.sweep", ignore_result=True, expires=5)
def sweep() -> dict:
    return services.sweep()
