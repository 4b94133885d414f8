"""The only writer of accounts models."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from .models import Player

LAST_SEEN_EVERY = timedelta(minutes=5)


def touch_last_seen(player: Player) -> None:
    now = timezone.now()
    if player.last_seen is None or now - player.last_seen > LAST_SEEN_EVERY:
        Player.objects.filter(pk=player.pk).update(last_seen=now)
        player.last_seen = now
