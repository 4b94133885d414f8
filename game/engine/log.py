"""How one logged event is applied: an engine action of a seat, or a server event.

A game's log (game/event_log.py keeps it in the database) mixes the seats' actions with the
server's own events: ``resign`` (leaving, losing on time; seat set), ``end_check`` (the cheater
check window closed; no seat) and ``set_bots`` (which seats a bot plays from now on; no seat).
Pure, so that the engine's post-game analysis replays a log exactly as the server did.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from game.engine.actions import apply_action
from game.engine.cheater import end_check
from game.engine.errors import IllegalAction
from game.engine.state import GameState
from game.engine.timeouts import resign, set_bot_seats

SERVER_EVENTS = frozenset({"resign", "end_check", "set_bots"})


def apply_event(state: GameState, seat: int | None, action: Mapping[str, Any]) -> GameState:
    """One logged event applied to ``state`` (a new state; IllegalAction if it does not apply)."""
    kind = action.get("type") if isinstance(action, dict) else None
    if kind == "end_check":
        return end_check(state)
    if kind == "set_bots":
        return set_bot_seats(state, action.get("seats") or [])
    if seat is None:
        raise IllegalAction("bad_action", f"server event of unknown type {kind!r}")
    if kind == "resign":
        return resign(state, seat, action.get("reason") or "resign")
    return apply_action(state, seat, action)
