"""Celery tasks of the accounts: the address history's retention sweep (beat schedule in settings)."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(name="accounts.tasks.purge_old_addresses", ignore_result=True)
def purge_old_addresses() -> int:
    """Forget addresses unused for ADDRESS_RETENTION_DAYS (the ratings' window always stays)."""
    return services.purge_old_addresses()
