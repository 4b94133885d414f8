"""The addresses a player used are forgotten ADDRESS_RETENTION_DAYS after their last use, never
inside the window the ratings' shared-address rule reads."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from accounts import services
from accounts.models import AddressUse


def _used(player, address: str, days_ago: float) -> None:
    services.record_address(player.pk, address)
    when = timezone.now() - timedelta(days=days_ago)
    AddressUse.objects.filter(player=player, address=address).update(first_at=when, last_at=when)


def test_addresses_unused_past_the_retention_are_forgotten(sign_up, settings):
    settings.ADDRESS_RETENTION_DAYS = 30
    player, _key = sign_up("Адресный")
    _used(player, "203.0.113.1", 31)
    _used(player, "203.0.113.2", 29)
    assert services.purge_old_addresses() == 1
    assert list(AddressUse.objects.filter(player=player).values_list("address", flat=True)) == ["203.0.113.2"]


def test_a_short_retention_still_keeps_what_the_ratings_window_reads(sign_up, settings):
    settings.ADDRESS_RETENTION_DAYS = 1
    player, _key = sign_up("Окно")
    inside = settings.RATINGS_SHARED_ADDRESS_DAYS
    _used(player, "203.0.113.3", inside)
    _used(player, "203.0.113.4", inside + 2)
    assert services.purge_old_addresses() == 1
    assert list(AddressUse.objects.filter(player=player).values_list("address", flat=True)) == ["203.0.113.3"]


def test_beat_runs_the_address_sweep():
    from accounts import tasks

    entries = {e["task"] for e in settings.CELERY_BEAT_SCHEDULE.values()}
    assert tasks.purge_old_addresses.name in entries
