"""Firing one of the game's deadlines (and the waiting room's): the firer locks the owning row
(Game for game deadlines, Table for table deadlines) with ``skip_locked`` when the sweep asks,
re-checks "still due, still the same version" under the lock by the database clock, and calls the
owning service inside the registry's transaction (durak_site.deadlines.fire), as a view would. A
duplicate, late or stale firing is a silent no-op."""

from __future__ import annotations

from collections.abc import Callable

from django.db.models.functions import Now

from durak_site.deadlines import Fired, late_ms, locked
from game import services as game_services
from game.models import Game, GameSeat
from game.timers.base import awaited_bot_seats, heartbeat_timeout, logger, stale_heartbeat
from lobby import services as lobby_services
from lobby.models import Seat, Table

GAME_KINDS = ("turn", "check", "disconnect")
TABLE_KINDS = ("countdown", "rematch", "inactive")
KINDS = (*GAME_KINDS, *TABLE_KINDS, "heartbeat", "presence", "bot")


def _due_row(kind: str, model, pk: int, field: str, version: int | None, skip_locked: bool,
             **match) -> tuple[int, float] | None:
    """The preamble of firing a game's or a table's own deadline column: the row locked (skipped when
    another firer holds it) if it still matches and its `field` is due by the database clock; its
    version and how late the firing is. None when it is not due, gone, or moved past `version`."""
    row = (locked(model.objects.filter(pk=pk, **match, **{f"{field}__lte": Now()}), skip_locked)
           .annotate(db_now=Now()).values("version", field, "db_now").first())
    if row is None:
        return None
    if version is not None and row["version"] != version:
        name = model._meta.model_name
        logger.debug(f"timers: %s of {name} %s was for v%s, {name} is at v%s", kind, pk, version, row["version"])
        return None
    return row["version"], late_ms(row["db_now"], row[field])


def _fire_game(kind: str):
    def firer(game_id: int, version: int | None, skip_locked: bool) -> Fired | None:
        due = _due_row(kind, Game, game_id, "deadline", version, skip_locked, status=Game.Status.PLAYING,
                       deadline_kind=kind)
        if due is None:
            return None
        current, late = due
        func = game_services.fire_turn_deadline if kind == "turn" else game_services.fire_check_deadline
        func(game_id, current)
        return Fired(kind, game_id, current, late)

    return firer


def _lock_parent(child_model, parent_model, seat_id: int, skip_locked: bool, **parent_filter):
    """The first step of every per-seat firing: the seat's game (or table) row, locked (skipped when
    another firer holds it), with its version. None when the seat is gone or its parent does not match."""
    parent_field = f"{parent_model._meta.model_name}_id"  # game_id / table_id
    parent_id = child_model.objects.filter(pk=seat_id).values_list(parent_field, flat=True).first()
    if parent_id is None:
        return None
    row = locked(parent_model.objects.filter(pk=parent_id, **parent_filter), skip_locked).values("version").first()
    return None if row is None else (parent_id, row["version"])


def _due_seat(child_model, parent_model, seat_id: int, field: str, skip_locked: bool,
              **parent_filter) -> tuple[int, int, int, float] | None:
    """The preamble of firing a seat's own deadline column: its parent row locked (_lock_parent), and
    the seat if its `field` is due by the database clock: (parent id, parent version, seat number,
    how late), or None."""
    parent = _lock_parent(child_model, parent_model, seat_id, skip_locked, **parent_filter)
    if parent is None:
        return None
    seat = (child_model.objects.filter(pk=seat_id, **{f"{field}__lte": Now()})
            .annotate(db_now=Now()).values("number", field, "db_now").first())
    if seat is None:
        return None
    return (*parent, seat["number"], late_ms(seat["db_now"], seat[field]))


def _fire_disconnect(seat_id: int, version: int | None, skip_locked: bool) -> Fired | None:
    due = _due_seat(GameSeat, Game, seat_id, "disconnect_deadline", skip_locked, status=Game.Status.PLAYING)
    if due is None:
        return None
    game_id, game_version, number, late = due
    game_services.fire_disconnect_deadline(game_id, number)
    return Fired("disconnect", seat_id, game_version, late)


def _fire_heartbeat(seat_id: int, version: int | None, skip_locked: bool) -> Fired | None:
    """A seat still marked connected whose last ping is older than heartbeat_timeout(): it is gone."""
    parent = _lock_parent(GameSeat, Game, seat_id, skip_locked, status=Game.Status.PLAYING)
    if parent is None:
        return None
    game_id, game_version = parent
    seat = (GameSeat.objects.select_related("player", "game")
            .filter(stale_heartbeat(), pk=seat_id, connected=True, player__isnull=False, bot_level="").first())
    if seat is None:
        return None
    logger.info("timers: game %s seat %s: no heartbeat since %s, treating as disconnected", game_id,
                seat.number, seat.last_heartbeat)
    game_services.set_connected(game_id, seat.player, False, since=seat.last_heartbeat or seat.game.started_at)
    return Fired("heartbeat", seat_id, game_version, 0.0)


def _fire_table(kind: str):
    def firer(table_id: int, version: int | None, skip_locked: bool) -> Fired | None:
        field = "countdown_deadline" if kind == "countdown" else "rematch_deadline"
        status = Table.Status.COUNTDOWN if kind == "countdown" else Table.Status.REMATCH
        due = _due_row(kind, Table, table_id, field, version, skip_locked, status=status)
        if due is None:
            return None
        current, late = due
        func = game_services.fire_countdown if kind == "countdown" else lobby_services.fire_rematch_deadline
        func(table_id)
        return Fired(kind, table_id, current, late)

    return firer


def _fire_inactive(seat_id: int, version: int | None, skip_locked: bool) -> Fired | None:
    due = _due_seat(Seat, Table, seat_id, "inactive_deadline", skip_locked)
    if due is None:
        return None
    table_id, table_version, _number, late = due
    lobby_services.fire_inactive_seats(table_id)
    return Fired("inactive", seat_id, table_version, late)


def _fire_presence(seat_id: int, version: int | None, skip_locked: bool) -> Fired | None:
    """Waiting room: a seat marked connected whose last ping is stale."""
    parent = _lock_parent(Seat, Table, seat_id, skip_locked,
                          status__in=[Table.Status.WAITING, Table.Status.COUNTDOWN])
    if parent is None:
        return None
    table_id, table_version = parent
    seat = Seat.objects.filter(pk=seat_id, connected=True, player__isnull=False,
                               last_seen__lt=Now() - heartbeat_timeout()).values("player_id").first()
    if seat is None:
        return None
    lobby_services.set_presence(table_id, seat["player_id"], False)
    return Fired("presence", seat_id, table_version, 0.0)


def _fire_bot(game_id: int, version: int | None, skip_locked: bool) -> Fired | None:
    """Safety net: the game awaits a bot-controlled seat and nobody made the bot move."""
    row = locked(Game.objects.filter(pk=game_id, status=Game.Status.PLAYING), skip_locked).values(
        "version", "deadline_seats").first()
    if row is None or (version is not None and row["version"] != version):
        return None
    seats = awaited_bot_seats(game_id, row["deadline_seats"])
    if not seats:
        return None
    game_services.apply_bot_action(game_id, seats[0], row["version"])
    return Fired("bot", game_id, row["version"], 0.0)


FIRERS: dict[str, Callable[[int, int | None, bool], Fired | None]] = {
    "turn": _fire_game("turn"),
    "check": _fire_game("check"),
    "disconnect": _fire_disconnect,
    "heartbeat": _fire_heartbeat,
    "countdown": _fire_table("countdown"),
    "rematch": _fire_table("rematch"),
    "inactive": _fire_inactive,
    "presence": _fire_presence,
    "bot": _fire_bot,
}
