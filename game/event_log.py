"""A game's append-only event log: the one way to append an event, the one way to replay them.

An event is either an engine action of a seat (``{"type": "attack", "card": "7H"}`` …) or a server
event: ``resign`` (leaving, losing on time or by disconnect; seat set), ``end_check`` (the cheater
check window closed; no seat) and ``set_bots`` (which seats a bot plays from now on; no seat).
``GameEvent.seq`` is the game's version after the event: appending bumps both together.

Used by the live server (game.services), the replay page (ratings.replay) and the tests.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import connection
from django.utils import timezone

from game import engine
from game.models import Game, GameEvent

SERVER_EVENTS = frozenset({"resign", "end_check", "set_bots"})


def apply_event(state: engine.GameState, seat: int | None, action: dict) -> engine.GameState:
    """One logged event applied to `state` (a new state; raises engine.IllegalAction if it does not apply)."""
    kind = action.get("type") if isinstance(action, dict) else None
    if kind == "end_check":
        return engine.end_check(state)
    if kind == "set_bots":
        return engine.set_bot_seats(state, action.get("seats") or [])
    if seat is None:
        raise engine.IllegalAction("bad_action", f"server event of unknown type {kind!r}")
    if kind == "resign":
        return engine.resign(state, seat, action.get("reason") or "resign")
    return engine.apply_action(state, seat, action)


def append(game: Game, state: engine.GameState, seat: int | None, action: dict, *, source: str,
           client_msg_id: str = "") -> engine.GameState:
    """Apply `action` to `state`, log it and bump `game.version` (the caller holds the game row lock
    and saves the game). Returns the new state; nothing is logged when the engine refuses."""
    new_state = apply_event(state, seat, action)
    game.version += 1
    values = {"game_id": game.pk, "seq": game.version, "seat": seat, "action": action, "client_msg_id": client_msg_id,
              "source": source, "created_at": timezone.now()}
    with connection.cursor() as cursor:  # plain SQL: a move's hot path (see game.services._write_move)
        cursor.execute(INSERT_SQL, [_FIELDS[name].get_db_prep_save(value, connection) for name, value in values.items()])
    return new_state


_FIELDS = {f.attname: f for f in GameEvent._meta.concrete_fields}
INSERT_SQL = (f"INSERT INTO {GameEvent._meta.db_table} (game_id, seq, seat, action, client_msg_id, source, created_at) "
              "VALUES (%s, %s, %s, %s, %s, %s, %s)")


def replay(initial_state: dict, events: Iterable[Any]) -> engine.GameState:
    """The state after `events` (objects with .seat and .action, in seq order) from `initial_state`."""
    state = engine.GameState.from_json(initial_state)
    for ev in events:
        state = apply_event(state, ev.seat, ev.action)
    return state


def replay_game(game: Game) -> dict:
    """Re-run a game's log from its deal: equals ``game.state`` for a sound log."""
    return replay(game.initial_state, game.events.order_by("seq")).to_json()
