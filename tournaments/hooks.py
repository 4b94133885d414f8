"""The site socket's page hook: a tab on an event page hears its live standings; a player who
opens the table of his tournament pairing is marked ready there (as the quick-play search does),
and a tab that (re)connects elsewhere while his table waits for him is sent there (a `match` told
while the tab was between pages would otherwise be lost)."""

from __future__ import annotations

import re

from . import announce, services
from .models import Tournament, TournamentGame

EVENT_PATH = re.compile(r"^/tournaments/(\d{1,12})/$")
TABLE_PATH = re.compile(r"^/tables/(\d{1,12})/$")


def page_groups(player_id: int, path: str) -> list[str]:
    found = TABLE_PATH.match(path)
    if found and services.arrived(player_id, int(found.group(1))):
        return []
    services.remind_table(player_id, int(found.group(1)) if found else None)
    found = EVENT_PATH.match(path)
    if found:
        event = Tournament.objects.filter(pk=int(found.group(1))).only("pk", "private", "created_by", "invite_code") \
            .first()
        if event is not None and (not event.private or _entrant_or_creator(event, player_id)):
            return [announce.group(event.pk)]
    return []


def _entrant_or_creator(event: Tournament, player_id: int) -> bool:
    return event.created_by_id == player_id or event.entries.filter(player_id=player_id).exists()


def _pending_players(table_id: int) -> list[int] | None:
    found = TournamentGame.objects.filter(table_id=table_id, status=TournamentGame.Status.PENDING).first()
    return found.player_ids() if found is not None else None


def seat_guard(table_id: int, player_id: int) -> str | None:
    """A tournament table seats its own players only."""
    players = _pending_players(table_id)
    return "tournament_table_locked" if players is not None and player_id not in players else None

