"""The site socket's page hook: a tab on an event page hears its live standings; a player who
opens the table of his tournament pairing is marked ready there (as the quick-play search does)."""

from __future__ import annotations

import re

from . import announce, services
from .models import Tournament

EVENT_PATH = re.compile(r"^/tournaments/(\d{1,12})/$")
TABLE_PATH = re.compile(r"^/tables/(\d{1,12})/$")


def page_groups(player_id: int, path: str) -> list[str]:
    found = TABLE_PATH.match(path)
    if found:
        services.arrived(player_id, int(found.group(1)))
        return []
    found = EVENT_PATH.match(path)
    if found:
        event = Tournament.objects.filter(pk=int(found.group(1))).only("pk", "private", "created_by", "invite_code") \
            .first()
        if event is not None and (not event.private or _entrant_or_creator(event, player_id)):
            return [announce.group(event.pk)]
    return []


def _entrant_or_creator(event: Tournament, player_id: int) -> bool:
    return event.created_by_id == player_id or event.entries.filter(player_id=player_id).exists()
