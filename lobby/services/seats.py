"""Seats of the waiting room: sitting down and standing up, bots, «Готово», presence, and the seats
freed after their player stayed away (docs/RULES.md#inactive-seat).

- The last human leaving a waiting table closes it (its bots go too): a table of bots only would
  sit in the lobby forever with nobody to press «Готово»; the leaver is never refused, so «Встать»
  always works (docs/RULES.md#waiting-room).
- The host is the creator; when he stands up the next human clockwise from his seat becomes host.
- When a full pairs table loses a player it falls back to free-for-all.
- Sitting down at another table stands you up from the waiting table you were at.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.db import models
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import Player
from durak_site.clock import db_now
from durak_site.errors import ServiceError
from game.engine.bots import BOTS, DEFAULT_LEVEL, LEVEL_BY_CODE
from lobby import guards
from lobby.models import Seat, Table
from lobby.services.countdown import clear_ready, settle
from lobby.services.locking import ensure_player_can_play, locked_table, require_seated
from lobby.services.notices import Notice, bump, then
from lobby.services.selectors import OPEN_STATUSES, humans, in_running_game, occupied, seat_of
from lobby.signals import matched_seat_left

INACTIVE_SECONDS = 120  # a disconnected seat in the waiting room is freed after this (docs/RULES.md#inactive-seat)
BOT_LEVELS = (*LEVEL_BY_CODE, *BOTS)  # the offered levels, and the engine bots saved tables may name


def stand_elsewhere(player: Any, except_table_id: Any = None) -> None:
    """Free the player's seats at other open tables (one table at a time); refuse during a game."""
    others = (Seat.objects.filter(player=player).exclude(table_id=except_table_id)
              .select_related("table").order_by("table_id"))
    for seat in others:
        if seat.table.status == Table.Status.PLAYING and in_running_game(seat.table, player):
            raise ServiceError("in_game", name=str(seat.table))
        if seat.table.status != Table.Status.CLOSED:
            stand(seat.table_id, player)  # inside the caller's transaction
        else:
            Seat.objects.filter(pk=seat.pk).update(player=None, ready=False)


def sit(table_id: Any, player: Any, number: Any) -> Table:
    """Take free seat ``number``; if already seated here this moves seats («Готово» is cleared)."""
    ensure_player_can_play(player)
    with locked_table(table_id, open_only=True) as locked:
        table, seats = locked.table, locked.seats
        target = _seat_numbered(seats, number)
        mine = seat_of(seats, player.pk)
        if mine is not None and mine.pk == target.pk:
            return table
        if not target.is_free:
            raise ServiceError("seat_taken", n=number)
        if mine is None:
            guards.check_seat(table.pk, player.pk)  # apps above the lobby: blocks, reliable players only
            stand_elsewhere(player, except_table_id=table.pk)
        moved = mine is not None
        if mine is not None:
            Seat.objects.filter(pk=mine.pk).update(player=None, ready=False, connected=False, inactive_deadline=None)
            mine.player_id, mine.player, mine.ready = None, None, False
        # sitting is a click on a live page: the player is present (his socket may have connected
        # while he was a spectator, when presence was not tracked); disconnect/stale sweeps correct it
        connected = True
        Seat.objects.filter(pk=target.pk).update(player=player, ready=False, connected=connected,
                                                 inactive_deadline=None, last_seen=db_now())
        target.player_id, target.player, target.ready, target.connected = player.pk, player, False, connected
        if table.host_id is None:
            table.host = player
        nick = player.nick

        def notice() -> str:
            said = _("%(nick)s moved to seat %(n)s.") if moved else _("%(nick)s sat down in seat %(n)s.")
            return said % {"nick": nick, "n": number}
        return settle(table, seats, notice, restart=True)


move_seat = sit


def stand(table_id: Any, player: Any) -> Table:
    """Leave the seat (free in the waiting room). The last human leaving closes the table. At a table
    the search made, before its first game, the social app hears of it (lobby.signals)."""
    with locked_table(table_id) as locked:
        before = locked.table.status
        table = _stand(locked.table, locked.seats, player)
    if table.matched and before in (Table.Status.WAITING, Table.Status.COUNTDOWN):
        matched_seat_left.send(sender=Table, table_id=table.pk, player_id=player.pk)
    return table


def _stand(table: Table, seats: list[Seat], player: Any) -> Table:
    if table.status == Table.Status.CLOSED:
        raise ServiceError("table_closed")
    if table.status == Table.Status.PLAYING and in_running_game(table, player):
        raise ServiceError("leave_at_the_table")
    seat = require_seated(seats, player)
    before = len(occupied(seats))
    Seat.objects.filter(pk=seat.pk).update(player=None, ready=False, connected=False, inactive_deadline=None)
    seat.player_id, seat.player, seat.ready, seat.connected = None, None, False, False
    return _after_leave(table, seats, before, {player.pk: seat.number},
                        lambda: _("%(nick)s stood up.") % {"nick": player.nick})


def _after_leave(table: Table, seats: list[Seat], before: int, left: Mapping[int | None, int],
                 notice: Notice) -> Table:
    """After humans left (``left``: player id -> the seat number they had): close, hand over, fall back."""
    people = humans(seats)
    if not people and table.status != Table.Status.PLAYING:
        Seat.objects.filter(table=table).update(player=None, bot_level="", ready=False, connected=False,
                                                inactive_deadline=None)
        table.status = Table.Status.CLOSED
        table.countdown_deadline = None
        table.rematch_deadline = None
        table.closed_reason = _("Everyone left the table.")
        table.host = None
        bump(table, lambda: _("Everyone left the table."))
        return table
    if table.host_id in left:
        new_host = _next_human(seats, left[table.host_id])
        table.host_id = new_host.player_id if new_host else None
        if new_host is not None and not table.matched:  # a matched table's seats made nothing: no one to name
            nick = new_host.player.nick if new_host.player else ""
            notice = then(notice, lambda: _("The host is now %(nick)s.") % {"nick": nick})
    fallback = _pairs_fallback(table, before, seats)
    if fallback:
        notice = then(notice, fallback)
        clear_ready(seats)
    return settle(table, seats, notice, restart=True)


def _pairs_fallback(table: Table, seats_before: int, seats: list[Seat]) -> Notice | None:
    """A full pairs table that lost a player goes back to free-for-all (docs/RULES.md#pairs-fallback); returns the notice."""
    rules = table.rules or {}
    if rules.get("pairs") and seats_before >= 4 and len(occupied(seats)) < 4:
        table.rules = {**rules, "pairs": False}
        return lambda: _("Pairs 2×2 switched off: a seat was vacated, so it is free-for-all now.")
    return None


def _seat_numbered(seats: list[Seat], number: Any) -> Seat:
    """Seat `number` of the table, or the refusal a person gets for a seat that does not exist."""
    target = next((s for s in seats if s.number == number), None)
    if target is None:
        raise ServiceError("no_such_seat", n=number)
    return target


def _next_human(seats: list[Seat], after_number: int) -> Seat | None:
    people = humans(seats)
    if not people:
        return None
    later = [s for s in people if s.number > after_number]
    return (later or people)[0]


def add_bot(table_id: Any, by: Any, number: Any, level: Any = DEFAULT_LEVEL) -> Table:
    if level not in BOT_LEVELS:
        raise ServiceError("bad_bot_level", level=level)
    with locked_table(table_id, by, open_only=True, manage="bots") as locked:
        table, seats = locked.table, locked.seats
        target = _seat_numbered(seats, number)
        if not target.is_free:
            if all(not s.is_free for s in seats):
                raise ServiceError("table_full")
            raise ServiceError("seat_taken", n=number)
        bots = [s for s in seats if s.bot_level]
        if len(bots) >= table.seats_count - 1:
            raise ServiceError("too_many_bots", n=table.seats_count - 1)
        Seat.objects.filter(pk=target.pk).update(bot_level=level, ready=True, connected=True)
        target.bot_level, target.ready, target.connected = level, True, True
        return settle(table, seats, lambda: _("A bot sat down in seat %(n)s.") % {"n": number}, restart=True)


def remove_bot(table_id: Any, by: Any, number: Any) -> Table:
    with locked_table(table_id, by, open_only=True, manage="bots") as locked:
        table, seats = locked.table, locked.seats
        target = _seat_numbered(seats, number)
        if not target.bot_level:
            raise ServiceError("not_a_bot", n=number)
        before = len(occupied(seats))
        Seat.objects.filter(pk=target.pk).update(bot_level="", ready=False, connected=False)
        target.bot_level, target.ready, target.connected = "", False, False
        notice = lambda: _("The bot in seat %(n)s left.") % {"n": number}  # noqa: E731
        fallback = _pairs_fallback(table, before, seats)
        if fallback:
            notice = then(notice, fallback)
            clear_ready(seats)
        return settle(table, seats, notice, restart=True)


def set_ready(table_id: Any, player: Any, ready: bool) -> Table:
    with locked_table(table_id, player, open_only=True, seated=True) as locked:
        table, seats, seat = locked.table, locked.seats, locked.seat
        assert seat is not None  # seated=True
        ready = bool(ready)
        if seat.ready == ready:
            return table
        if not ready and table.matched and table.status in (Table.Status.WAITING, Table.Status.COUNTDOWN):
            raise ServiceError("matched_table_locked")  # arriving was «Готово»; standing up is leaving
        Seat.objects.filter(pk=seat.pk).update(ready=ready)
        seat.ready = ready
        if ready:
            notice = lambda: _("%(nick)s is ready.") % {"nick": player.nick}  # noqa: E731
        elif table.status == Table.Status.COUNTDOWN:
            notice = lambda: _("%(nick)s is not ready: the start is cancelled.") % {"nick": player.nick}  # noqa: E731
        else:
            notice = lambda: _("%(nick)s is not ready.") % {"nick": player.nick}  # noqa: E731
        return settle(table, seats, notice)


def set_presence(table_id: Any, player_id: Any, connected: bool) -> Table | None:
    """Called by the table consumer on connect/disconnect. Spectators are ignored."""
    with locked_table(table_id, missing_ok=True) as locked:
        if locked is None:
            return None
        table, seats = locked.table, locked.seats
        seat = seat_of(seats, player_id)
        if seat is None or table.status == Table.Status.CLOSED:
            return table
        now = db_now()
        deadline = None
        if not connected and table.status in OPEN_STATUSES:
            deadline = now + timedelta(seconds=INACTIVE_SECONDS)
        if seat.connected == bool(connected) and seat.inactive_deadline == deadline:
            return table
        Seat.objects.filter(pk=seat.pk).update(connected=bool(connected), last_seen=now, inactive_deadline=deadline)
        seat.connected = bool(connected)
        seat.inactive_deadline = deadline
        settle(table, seats)
        return table


def touch_presence(table_id: Any, player_id: Any) -> None:
    """A heartbeat from the waiting-room page: keep the seat marked connected (cheap when it is)."""
    seat = Seat.objects.filter(table_id=table_id, player_id=player_id).only("pk", "connected").first()
    if seat is None:
        return
    if not seat.connected:
        set_presence(table_id, player_id, True)
        return
    Seat.objects.filter(pk=seat.pk).update(last_seen=db_now(), inactive_deadline=None)


def on_player_banned(sender: Any, player_id: int, **kwargs: Any) -> None:
    """accounts.signals.player_banned: his seats at waiting tables are freed (a running game's seat
    is the game app's: a bot takes it), so he can neither start a game nor invite from them."""
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        return
    for seat in Seat.objects.filter(player_id=player_id).select_related("table"):
        if seat.table.status == Table.Status.CLOSED or seat.in_game:
            continue
        try:
            stand(seat.table_id, player)
        except ServiceError:  # a game began meanwhile: the game app hands that seat to a bot
            continue


def fire_inactive_seat(table_id: Any, seat_number: Any = None) -> int:
    """Timers entry point for Seat.inactive_deadline (see fire_inactive_seats)."""
    return fire_inactive_seats(table_id)


def fire_inactive_seats(table_id: Any, version: Any = None) -> int:
    """Free, without penalty, seats that stayed disconnected past Seat.inactive_deadline (docs/RULES.md#inactive-seat).

    Stale deadlines (the player came back, or the game started) are cleared so they never fire again.
    """
    freed = 0
    with locked_table(table_id, missing_ok=True) as locked:
        if locked is None:
            return 0
        table = locked.table
        now = db_now()
        if table.status not in OPEN_STATUSES:
            Seat.objects.filter(table=table, inactive_deadline__isnull=False).update(inactive_deadline=None)
            return 0
        seats = locked.seats
        Seat.objects.filter(table=table, inactive_deadline__isnull=False).filter(
            models.Q(connected=True) | models.Q(player__isnull=True)).update(inactive_deadline=None)
        overdue = [s for s in seats if s.player_id and not s.connected and s.inactive_deadline
                   and s.inactive_deadline <= now]
        if not overdue:
            return 0
        before = len(occupied(seats))
        nicks: list[str] = []
        left: dict[int | None, int] = {}
        for s in overdue:
            nicks.append(s.player.nick if s.player else "")
            left[s.player_id] = s.number
            Seat.objects.filter(pk=s.pk).update(player=None, ready=False, inactive_deadline=None)
            s.player_id, s.player, s.ready, s.inactive_deadline = None, None, False, None
            freed += 1
        notice = lambda: ngettext("Seat freed: %(nicks)s was away too long.",  # noqa: E731
                                  "Seats freed: %(nicks)s were away too long.", len(nicks)) % {"nicks": ", ".join(nicks)}
        _after_leave(table, seats, before, left, notice)
    return freed
