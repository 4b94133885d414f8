"""What the game's firings and listers share: the rules of the derived deadlines (a stale heartbeat,
a bot nobody moved)."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.db.models.functions import Now

from game.models import GameSeat

logger = logging.getLogger("game.timers")


def heartbeat_timeout() -> timedelta:
    """A socket can vanish without a disconnect event: a seat whose last ping is older than this is gone."""
    return timedelta(seconds=settings.TIMERS_HEARTBEAT_TIMEOUT)


def bot_grace() -> timedelta:
    """Safety net for bot moves whose queued task was lost: a bot awaited this long is moved by the sweep."""
    return timedelta(seconds=settings.TIMERS_BOT_GRACE)


def lobby_heartbeats() -> bool:
    """Waiting-room seats are judged by Seat.last_seen too: the socket's pings refresh it every 10 s
    (lobby.services.touch_presence from the consumer's ping handler, and the room page's ping POST)."""
    return bool(settings.TIMERS_LOBBY_HEARTBEATS)


def stale_heartbeat() -> Q:
    """No ping for heartbeat_timeout(); a seat that never pinged counts from the game's start."""
    cutoff = Now() - heartbeat_timeout()
    return Q(last_heartbeat__lt=cutoff) | Q(last_heartbeat__isnull=True, game__started_at__lt=cutoff)


def awaited_bot_seats(game_id: int, deadline_seats) -> list[int]:
    if not deadline_seats:
        return []
    return list(GameSeat.objects.filter(game_id=game_id, number__in=list(deadline_seats))
                .filter(~Q(bot_level="") | ~Q(takeover_level=""))
                .order_by("number").values_list("number", flat=True))
