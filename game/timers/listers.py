"""Listing the game's (and the waiting room's) overdue deadlines by the DATABASE clock, oldest first:
each lister yields (row id, version or None, deadline) for one kind. ``pending`` says which rows'
column is still pending: what the listers read and the pacer watches."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import timedelta
from typing import Any, cast

from django.db import connection
from django.db.models import DurationField, ExpressionWrapper, F, Q, QuerySet
from django.db.models.functions import Now

from durak_site.deadlines import Due
from game.models import Game, GameSeat
from game.timers.base import (
    awaited_bot_seats,
    bot_grace,
    heartbeat_timeout,
    lobby_heartbeats,
    stale_heartbeat,
)
from lobby.models import Seat, Table
from lobby.table_settings import TURN_SECONDS


def pending_games() -> QuerySet:
    return Game.objects.filter(status=Game.Status.PLAYING)  # Game.deadline: the game_status_deadline index


def pending_disconnects() -> QuerySet:
    return GameSeat.objects.filter(game__status=Game.Status.PLAYING)


def pending_countdowns() -> QuerySet:
    return Table.objects.filter(status=Table.Status.COUNTDOWN)


def pending_rematches() -> QuerySet:
    return Table.objects.filter(status=Table.Status.REMATCH)


def pending_seats() -> QuerySet:
    return Seat.objects.all()


def _overdue(queryset: QuerySet, field: str) -> QuerySet:
    return queryset.filter(**{f"{field}__lte": Now()})


def game_deadlines(kind: str):
    def due() -> Iterator[Due]:
        yield from (_overdue(pending_games().filter(deadline_kind=kind), "deadline").order_by("deadline")
                    .values_list("pk", "version", "deadline"))

    return due


def disconnects() -> Iterator[Due]:
    for pk, deadline in (_overdue(pending_disconnects(), "disconnect_deadline").order_by("disconnect_deadline")
                         .values_list("pk", "disconnect_deadline")):
        yield (pk, None, deadline)


def tables(kind: str):
    field = f"{kind}_deadline"
    pending = pending_countdowns if kind == "countdown" else pending_rematches

    def due() -> Iterator[Due]:
        yield from _overdue(pending(), field).order_by(field).values_list("pk", "version", field)

    return due


def seats() -> Iterator[Due]:
    for pk, deadline in (_overdue(pending_seats(), "inactive_deadline").order_by("inactive_deadline")
                         .values_list("pk", "inactive_deadline")):
        yield (pk, None, deadline)


def heartbeats() -> Iterator[Due]:
    for pk, beat in (GameSeat.objects.filter(stale_heartbeat(), game__status=Game.Status.PLAYING, connected=True,
                                             player__isnull=False, bot_level="")
                     .order_by().values_list("pk", "last_heartbeat")):
        yield (pk, None, beat)


def presence() -> Iterator[Due]:
    if lobby_heartbeats():
        for pk, seen in (Seat.objects.filter(connected=True, player__isnull=False,
                                             table__status__in=[Table.Status.WAITING, Table.Status.COUNTDOWN],
                                             last_seen__lt=Now() - heartbeat_timeout())
                         .order_by().values_list("pk", "last_seen")):
            yield (pk, None, seen)


def bots() -> Iterator[Due]:
    """Bots awaited for longer than bot_grace(): their queued move was lost (e.g. a worker restart).
    The state changed at deadline - turn_seconds (every awaiting state restarts the turn timer)."""
    turn_field = "turn_seconds"
    bot_games = (Game.objects.filter(status=Game.Status.PLAYING, deadline__isnull=False, deadline_kind="turn")
                 .filter(Q(seats__bot_level__gt="") | Q(seats__takeover_level__gt="")))
    if connection.vendor == "postgresql":  # narrow it in the database; SQLite (embedded) is small anyway
        bot_games = bot_games.filter(deadline__lte=Now() + ExpressionWrapper(
            F(turn_field) * timedelta(seconds=1), output_field=DurationField()) - bot_grace())
    # spelt as a mapping: Game declares `db_now` (the locking statement's time) for the type checker
    bot_games = (bot_games.annotate(**{"db_now": Now()}).order_by().distinct()
                 .values_list("pk", "version", "deadline_seats", "deadline", turn_field, "db_now"))
    rows = cast("Iterable[tuple[Any, ...]]", bot_games)  # the turn field is named at run time
    for pk, version, deadline_seats, deadline, turn_seconds, db_now in rows:
        changed = deadline - timedelta(seconds=turn_seconds or TURN_SECONDS.default)
        if db_now - changed >= bot_grace() and awaited_bot_seats(pk, deadline_seats):
            yield (pk, version, deadline)
