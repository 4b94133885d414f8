"""A game's append-only event log: the one way to append an event, the one way to replay them.

An event is either an engine action of a seat (``{"type": "attack", "card": "7H"}`` …) or a server
event: ``resign`` (leaving, losing on time or by disconnect; seat set), ``end_check`` (the cheater
check window closed; no seat) and ``set_bots`` (which seats a bot plays from now on; no seat).
``GameEvent.seq`` is the game's version after the event: appending bumps both together.

Used by the live server (game.services), the replay page (ratings.replay) and the tests.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, cast

from django.db import connection
from django.db.models import Field
from django.utils import timezone

from game import engine
from game.engine import log as engine_log
from game.engine.log import SERVER_EVENTS  # noqa: F401 (re-exported: callers read it here)
from game.models import Game, GameEvent


def apply_event(state: engine.GameState, seat: int | None, action: Mapping[str, Any]) -> engine.GameState:
    """One logged event applied to `state` (a new state; raises engine.IllegalAction if it does not apply)."""
    return engine_log.apply_event(state, seat, action)


def append(game: Game, state: engine.GameState, seat: int | None, action: Mapping[str, Any], *, source: str,
           client_msg_id: str = "") -> engine.GameState:
    """Apply `action` to `state`, bump `game.version` and queue the event's row on `game` (the caller
    holds the game row lock and saves the game, which writes the queued rows: `write` or
    `written_with`). Returns the new state; nothing is queued when the engine refuses."""
    new_state = apply_event(state, seat, action)
    game.version += 1
    values = (game.pk, game.version, seat, action, client_msg_id, source, timezone.now())
    _queued(game).append([field.get_db_prep_save(value, connection) for field, value in zip(_COLUMNS, values, strict=True)])
    return new_state


def write(game: Game) -> None:
    """Insert the rows `append` queued on `game` now (before a save that is not `written_with`'s)."""
    sql, params = _insert(game)
    if sql:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)


def written_with(game: Game, statement: str, params: list) -> tuple[str, list]:
    """`statement` (the UPDATE of the game row) with the queued rows inserted by the same statement, on
    Postgres: one round trip for a move instead of two. A clash on the unique message id still raises
    IntegrityError and writes neither."""
    if connection.vendor != "postgresql":
        write(game)
        return statement, params
    sql, rows = _insert(game)
    if not sql:
        return statement, params
    return f"WITH logged AS ({sql}) {statement}", [*rows, *params]


def assert_written(game: Game) -> None:
    """A change whose events were never written must not be published (a programming error)."""
    if _queued(game):
        raise RuntimeError(f"game {game.pk}: events appended but never written")


_QUEUE = "_event_log_queue"  # the rows appended to a Game instance and not written yet
_COLUMNS = [cast("Field[Any, Any]", GameEvent._meta.get_field(name))
            for name in ("game", "seq", "seat", "action", "client_msg_id", "source", "created_at")]
_ROW = "(" + ", ".join(["%s"] * len(_COLUMNS)) + ")"
INSERT_SQL = (f"INSERT INTO {GameEvent._meta.db_table} ({', '.join(str(f.column) for f in _COLUMNS)}) VALUES ")


def _queued(game: Game) -> list[list]:
    return game.__dict__.setdefault(_QUEUE, [])


def _insert(game: Game) -> tuple[str, list]:
    """(the INSERT of the queued rows, its parameters), and the queue emptied; ("", []) if none."""
    rows = _queued(game)
    if not rows:
        return "", []
    game.__dict__[_QUEUE] = []
    return INSERT_SQL + ", ".join([_ROW] * len(rows)), [value for row in rows for value in row]


def replay(initial_state: dict, events: Iterable[Any]) -> engine.GameState:
    """The state after `events` (objects with .seat and .action, in seq order) from `initial_state`."""
    state = engine.GameState.from_json(initial_state)
    for ev in events:
        state = apply_event(state, ev.seat, ev.action)
    return state


def seat_view(game_id: int, state: engine.GameState, seat: int, level: str) -> engine.View:
    """What a bot of ``level`` deciding for ``seat`` is given: the seat's view, and for a bot that
    reads the table (the expert) the table's reads too, replayed from the game's log, since the
    rules keep none (each move would pay for them; only these bots and the analysis use them)."""
    from game.engine.bots import needs_reads

    if not needs_reads(level):
        return engine.view_for(state, seat)
    row = Game.objects.filter(pk=game_id).values("initial_state").first()
    if row is None or not row["initial_state"]:
        return engine.view_for(state, seat)
    events = GameEvent.objects.filter(game_id=game_id).order_by("seq").values_list("seat", "action")
    try:
        _, reading = engine.read_table(engine.GameState.from_json(row["initial_state"]),
                                       [(seat_no, action) for seat_no, action in events])
    except engine.IllegalAction:
        return engine.view_for(state, seat)
    return engine.reading_view(state, seat, reading)


def replay_game(game: Game) -> dict:
    """Re-run a game's log from its deal: equals ``game.state`` for a sound log."""
    return replay(game.initial_state, game.events.order_by("seq")).to_json()
