"""What the firings, the sweep and the pacer share: the pending deadline columns, the rules of the
derived deadlines (a stale heartbeat, a bot nobody moved), and the sweep's memory of rows that
keep failing."""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from datetime import timedelta

from django.conf import settings
from django.db import connection
from django.db.models import Q, QuerySet
from django.db.models.functions import Now

from game.models import Game, GameSeat
from lobby.models import Seat, Table

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


def pending() -> dict[str, QuerySet]:
    """Each deadline column and the rows whose value in it is still pending: one definition for what
    the column listers fire and what the pacer watches."""
    return {
        "deadline": Game.objects.filter(status=Game.Status.PLAYING),
        "disconnect_deadline": GameSeat.objects.filter(game__status=Game.Status.PLAYING),
        "countdown_deadline": Table.objects.filter(status=Table.Status.COUNTDOWN),
        "rematch_deadline": Table.objects.filter(status=Table.Status.REMATCH),
        "inactive_deadline": Seat.objects.all(),
    }


class Backoff:
    """Per process: a row that keeps failing, or that its service leaves due, is retried less and less often.

    A correct service moves the column or the version when it fires, so the next sweep sees a new key.
    """

    def __init__(self) -> None:
        self._seen: dict[tuple, tuple[int, float]] = {}
        self._lock = threading.Lock()

    def allowed(self, key: tuple) -> bool:
        with self._lock:
            entry = self._seen.get(key)
        if entry is None:
            return True
        count, last = entry
        return time.monotonic() - last >= min(0.5 * 2.0 ** (count - 1), 60.0)

    def mark(self, key: tuple) -> None:
        with self._lock:
            count, _ = self._seen.get(key, (0, 0.0))
            self._seen[key] = (count + 1, time.monotonic())
        if count + 1 in (2, 10):
            logger.warning("timers: %s is still due after %s firings; its service does not clear it", key,
                           count + 1)

    def prune(self) -> None:
        cutoff = time.monotonic() - 300
        with self._lock:
            for key in [k for k, (_, last) in self._seen.items() if last < cutoff]:
                del self._seen[key]


backoff = Backoff()


def reset_connection() -> None:
    with contextlib.suppress(Exception):
        connection.close()
