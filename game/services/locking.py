"""The hot path's SQL: the game row locked for a change, a move's one UPDATE, a heartbeat's.

A move is one transaction of two statements: ``lock_for_move`` locks the game row and reads the
mover's seat, his session generation and (on Postgres) every seat for the frames; ``write_move``
updates the game row and inserts the move's queued events. Plain cursors: the ORM's query building
was the largest CPU cost of a move (cProfile of the hot path), Django's raw-query machinery (column
lookups and per-row model resolution) a fifth of it in the worker (py-spy).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from django.db import connection
from django.db.models import Field, QuerySet
from django.db.models.functions import Now
from django.utils import timezone

from durak_site.errors import ServiceError
from game import event_log, frames
from game.models import Game, GameSeat

# the columns a move writes (its UPDATE changes these only)
MOVE_WRITTEN_FIELDS = ("state", "version", "deadline", "deadline_kind", "deadline_seats")
# the columns a move reads: every one but initial_state, the largest, never needed by a move
MOVE_READ_FIELDS = [f for f in Game._meta.concrete_fields if f.name != "initial_state"]
# the columns a change saves, and a game's end (which also writes the rating facts)
SAVE_FIELDS = ["state", "version", "deadline", "deadline_kind", "deadline_seats", "status", "result", "finished_at"]
FINISH_FIELDS = [*SAVE_FIELDS, "rated", "unrated_reason"]

_GAMES = Game._meta.db_table
_SEATS = GameSeat._meta.db_table
_PLAYERS = GameSeat._meta.get_field("player").related_model._meta.db_table

MOVE_UPDATE_SQL = (f"UPDATE {_GAMES} SET " + ", ".join(f"{f} = %s" for f in MOVE_WRITTEN_FIELDS)
                   + " WHERE id = %s")

_MOVE_READ_ATTNAMES = frozenset(f.attname for f in MOVE_READ_FIELDS)
_MOVE_READ_COLUMNS = ", ".join(f"g.{f.column}" for f in MOVE_READ_FIELDS)
MOVE_LOCK_SQL = (f"SELECT {_MOVE_READ_COLUMNS}, s.number, s.left_at, s.takeover_level, mp.session_generation, "
                 f"{{now}}, {{seats}} FROM {_GAMES} g "
                 f"JOIN {_SEATS} s ON s.game_id = g.id AND s.player_id = %s "
                 f"JOIN {_PLAYERS} mp ON mp.id = s.player_id WHERE g.id = %s{{lock}}")
_POSTGRES_MOVE_LOCK_SQL = MOVE_LOCK_SQL.format(now="statement_timestamp()", lock=" FOR UPDATE OF g",
                                               seats=frames.SEATS_JSON_SQL.format(game="g"))
_SQLITE_MOVE_LOCK_SQL = MOVE_LOCK_SQL.format(now="NULL", lock="", seats="NULL")
_move_converters: dict[str, list[Any]] = {}  # per database vendor: [(column index, Col, converters)]

HEARTBEAT_SQL = (f"UPDATE {_SEATS} SET last_heartbeat = CURRENT_TIMESTAMP FROM {_GAMES} g, {_PLAYERS} p "
                 f"WHERE g.id = {_SEATS}.game_id AND g.id = %s AND {_SEATS}.player_id = %s AND {_SEATS}.connected "
                 f"AND {_SEATS}.takeover_level = '' AND p.id = {_SEATS}.player_id "
                 f"AND p.session_generation = COALESCE(%s, p.session_generation) RETURNING g.version")


class SessionMoved(Exception):
    """The player's session generation is not the one his socket knew: a session of his ended since.
    Nothing was applied; the socket checks its session, then resends the move or closes."""


@dataclass(slots=True)
class LockedMove:
    """The game row locked for a person's move, with what the move checks about its mover."""

    game: Game  # `db_now` set: the locking statement's time (Postgres), else now
    seat_number: int
    seat_left: datetime | None
    seat_takeover: str  # the bot level playing his seat while he was away, "" if none
    session_generation: int
    seats: list[frames.SeatRow] | None  # every seat as the frames need them (Postgres); None: read them when needed


def _converters() -> list[Any]:
    """What the ORM would apply to each game column read by MOVE_LOCK_SQL (JSON decoding, SQLite's
    booleans and times), worked out once per database vendor."""
    found = _move_converters.get(connection.vendor)
    if found is None:
        found = []
        for index, field in enumerate(MOVE_READ_FIELDS):
            col = field.get_col(_GAMES)
            converters = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
            if converters:
                found.append((index, col, converters))
        _move_converters[connection.vendor] = found
    return found


def lock_for_move(game_id: int, player_id: int) -> LockedMove | None:
    """The game row locked for a move of `player_id`, or None if he has no seat in it: one
    statement, a plain cursor into ``Game.from_db``."""
    postgres = connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute(_POSTGRES_MOVE_LOCK_SQL if postgres else _SQLITE_MOVE_LOCK_SQL, [player_id, game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    count = len(MOVE_READ_FIELDS)
    values = list(row[:count])
    for index, col, converters in _converters():
        for convert in converters:
            values[index] = convert(values[index], col, connection)
    game = Game.from_db(connection.alias, _MOVE_READ_ATTNAMES, values)
    seat_number, seat_left, seat_takeover, generation, locked_at, seat_rows = row[count:]
    game.db_now = locked_at if postgres else timezone.now()
    return LockedMove(game=game, seat_number=seat_number, seat_left=seat_left, seat_takeover=seat_takeover,
                      session_generation=generation,
                      seats=frames.seats_from_json(seat_rows) if postgres else None)


def write_move(game: Game) -> None:
    """The UPDATE of a move (its five columns), with the move's queued event rows inserted by the
    same statement."""
    values = [cast("Field[Any, Any]", Game._meta.get_field(f)).get_db_prep_save(getattr(game, f), connection) for f in MOVE_WRITTEN_FIELDS]
    sql, params = event_log.written_with(game, MOVE_UPDATE_SQL, [*values, game.pk])
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def touch_heartbeat(game_id: int, player_id: int, session_generation: int | None) -> int | None:
    """Postgres: a connected seat's heartbeat in one UPDATE without the game row lock, checking the
    session generation; the game's version, or None if it did not apply (not connected, taken over,
    another session, or not Postgres)."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute(HEARTBEAT_SQL, [game_id, player_id, session_generation])
        row = cursor.fetchone()
    return None if row is None else row[0]


def locked_games() -> QuerySet[Game]:
    """Game rows for update, each with the database's time of the locking statement (`db_now`):
    deadlines are set by that one clock, the one the timers judge them by."""
    # spelt as a mapping: Game declares `db_now` (the attribute the rows carry) for the type checker
    return Game.objects.select_for_update(of=("self",)).defer("initial_state").annotate(**{"db_now": Now()})


def lock(game_id: int) -> Game:
    """The game row locked; ServiceError if there is no such game."""
    game = locked_games().filter(pk=game_id).first()
    if game is None:
        raise ServiceError("game_not_found")
    return game


def lock_playing(game_id: int) -> Game | None:
    """The game row locked if the game is running, else None (a late firing does nothing)."""
    game = locked_games().filter(pk=game_id).first()
    return game if game is not None and game.status == Game.Status.PLAYING else None
