"""The way to a game and back: the 3-2-1 countdown started, kept or stopped after each change, the
lineup the game app deals, the table while its game runs, and the rematch window after it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import models
from django.utils.translation import gettext as _

from durak_site.clock import db_now
from lobby.models import Seat, Table
from lobby.services.locking import lock, locked_table
from lobby.services.notices import Notice, bump
from lobby.services.selectors import occupied, seats_of, start_blocker

COUNTDOWN_SECONDS = 3
REMATCH_SECONDS = 30


def _start_countdown(table: Table) -> None:
    table.status = Table.Status.COUNTDOWN
    table.countdown_deadline = db_now() + timedelta(seconds=COUNTDOWN_SECONDS)
    table.rematch_deadline = None


def _reevaluate(table: Table, seats: list[Seat], *, restart: bool = False) -> None:
    """Start, keep, restart or stop the countdown after a change (caller saves the table)."""
    blocker = start_blocker(table, seats)
    if table.status == Table.Status.COUNTDOWN:
        if blocker is not None:
            table.status = Table.Status.WAITING
            table.countdown_deadline = None
        elif restart:
            _start_countdown(table)
    elif table.status in (Table.Status.WAITING, Table.Status.REMATCH) and blocker is None:
        _start_countdown(table)


def settle(table: Table, seats: list[Seat], notice: Notice | None = None, *, restart: bool = False) -> Table:
    """The end of a waiting-room change: the countdown re-judged, the table saved and told."""
    _reevaluate(table, seats, restart=restart)
    bump(table, notice)
    return table


def clear_ready(seats: list[Seat]) -> None:
    """Every human's «Готово» off (one UPDATE, only if one is on)."""
    ids = [s.pk for s in seats if s.player_id is not None and s.ready]
    if ids:
        Seat.objects.filter(pk__in=ids).update(ready=False)
    for s in seats:
        if s.player_id is not None:
            s.ready = False


@dataclass(frozen=True)
class LineupSeat:
    number: int
    player_id: int | None
    bot_level: str
    connected: bool


@dataclass(frozen=True)
class Lineup:
    """Who sits where when a game is dealt, and the table settings the game freezes."""

    table_id: int
    rules: dict[str, Any]
    seats: list[LineupSeat]
    turn_seconds: int
    disconnect_policy: str
    rated: bool = True  # the table's «На рейтинг»


def _lineup(table: Table, seats: list[Seat]) -> Lineup:
    lineup = [LineupSeat(s.number, s.player_id, s.bot_level, bool(s.connected)) for s in occupied(seats)]
    return Lineup(table.pk, dict(table.rules or {}), lineup, table.turn_seconds, table.disconnect_policy,
                  table.rated)


def take_countdown(table_id: Any, version: Any = None) -> Lineup | None:
    """The countdown ran out (called by game.services.fire_countdown inside its transaction): the
    lineup to deal, with the table row locked; None when it is not due (idempotent) or a seat
    changed so that the game cannot start (the table goes back to waiting)."""
    try:
        table = Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        return None
    if table.status != Table.Status.COUNTDOWN or table.countdown_deadline is None:
        return None
    if version is not None and version != table.version:
        return None
    if table.countdown_deadline > db_now():
        return None
    seats = seats_of(table)
    if start_blocker(table, seats) is not None:
        table.status = Table.Status.WAITING
        table.countdown_deadline = None
        bump(table)
        return None
    return _lineup(table, seats)


def lineup_for_start(table_id: Any) -> Lineup:
    """The table's lineup now, row locked, without the countdown (tests and the dev harness)."""
    table = lock(table_id)
    return _lineup(table, seats_of(table))


def mark_playing(table_id: Any) -> None:
    """A game was dealt at the table (same transaction): seats are closed until it ends."""
    table = lock(table_id)
    seats = seats_of(table)
    Seat.objects.filter(table=table, inactive_deadline__isnull=False).update(inactive_deadline=None)
    Seat.objects.filter(table=table, player__isnull=False).update(in_game=True)
    table.status = Table.Status.PLAYING
    table.countdown_deadline = None
    table.rematch_deadline = None
    clear_ready(seats)
    bump(table, lambda: "")


def start_failed(table_id: Any, why: str) -> None:
    """The game refused to start (its rules cannot be dealt): back to the waiting room, saying why."""
    with locked_table(table_id) as locked:
        table = locked.table
        if table.status != Table.Status.COUNTDOWN:
            return
        table.status = Table.Status.WAITING
        table.countdown_deadline = None
        clear_ready(locked.seats)
        bump(table, lambda: _("The game could not start (%(why)s).") % {"why": why})


def player_left_game(table_id: Any, player_id: Any) -> None:
    """He left the running game for good («Выйти», or lost by disconnect): he may stand up now.

    Inside the game's transaction, the table row first, as every change of a seat takes it: that game
    ends holding this seat and, at COMMIT, checks its records' foreign keys to the table (a KEY SHARE
    on the row), while his socket's presence holds the table and waits for the seat. NO KEY UPDATE:
    the other writers of the table wait, its chat and records referencing it do not."""
    Table.objects.select_for_update(no_key=True).filter(pk=table_id).values_list("pk", flat=True).first()
    Seat.objects.filter(table_id=table_id, player_id=player_id).update(in_game=False)


def game_finished(table_id: Any, present: Sequence[int] = ()) -> Table | None:
    """Called by game.services after a game ends: open the 30 s rematch window (docs/RULES.md#rematch). It runs in
    the hop of the move that ended the game, so it writes only what changes (one seats UPDATE for the
    ready and in-game flags, only the table's changed columns). `present`: the players connected to
    the game as it ended; their waiting-room presence is fresh from now (the heartbeats during the
    game did not refresh it, and the presence sweep marked them gone before the rematch)."""
    with locked_table(table_id, missing_ok=True) as locked:
        if locked is None:
            return None
        table = locked.table
        if table.status != Table.Status.PLAYING:
            return table
        now = db_now()
        here = models.Q(player_id__in=list(present))
        (Seat.objects.filter(models.Q(ready=True) | models.Q(in_game=True) | here, table=table, player__isnull=False)
         .update(ready=False, in_game=False,
                 connected=models.Case(models.When(here, then=True), default=models.F("connected")),
                 last_seen=models.Case(models.When(here, then=now), default=models.F("last_seen")),
                 inactive_deadline=models.Case(models.When(here, then=None), default=models.F("inactive_deadline"))))
        table.status = Table.Status.REMATCH
        table.rematch_deadline = now + timedelta(seconds=REMATCH_SECONDS)
        bump(table, lambda: _("The game is over. Press “Ready” within 30 s for a rematch."),
              fields=["status", "rematch_deadline"])
        return table


def fire_rematch_deadline(table_id: Any, version: Any = None) -> Table | None:
    """The rematch window closed: back to the waiting room (idempotent)."""
    with locked_table(table_id, missing_ok=True) as locked:
        if locked is None:
            return None
        table = locked.table
        if table.status != Table.Status.REMATCH or table.rematch_deadline is None:
            return None
        if table.rematch_deadline > db_now():
            return None
        table.status = Table.Status.WAITING
        table.rematch_deadline = None
        clear_ready(locked.seats)
        bump(table, lambda: _("The rematch window closed; the table is waiting for players."))
        return table
