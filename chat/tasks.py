"""Celery tasks of the chat: the daily retention sweep (beat schedule in settings)."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(name="chat.tasks.purge_old_messages", ignore_result=True)
def purge_old_messages() -> int:
    """Delete messages past CHAT_RETENTION_DAYS (reported ones stay until their report is closed)."""
    return services.purge_old()
