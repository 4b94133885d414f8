"""The table's move log as a page opens it: the game's recent moves from its events.

The browser builds its log from the frames it receives, so a reload or a player's return would find
it empty, and his own seat's moves made meanwhile by a bot or the clock would read as his. The first
frame a socket sends carries the last moves instead, each in the public form the frames use
(`view.last`: seat, type, card, target, show, cheater, caught, penalty, closed) and marked with who
made it (`by`: "player", "bot" or "timeout"). Played cards are face up: nothing here is secret.
"""

from __future__ import annotations

from game import engine
from game.engine.events import last_event
from game.event_log import apply_event
from game.models import Game, GameEvent

HISTORY = 60  # moves the log keeps (game/static/game/movelog.js MAX)


def history(game: Game, limit: int = HISTORY) -> list[dict]:
    """The last `limit` moves, oldest first. The log is replayed from the deal (the one interpreter,
    game.event_log), so a move carries how its round closed, also when a later event closed it
    (cheater mode's check window): one entry per move, never the close twice."""
    if not game.initial_state:
        return []
    state = engine.GameState.from_json(game.initial_state)
    moves: list[dict] = []
    # only the events up to the frame's version: a move committed after the game row was read is not
    # public yet at that version, and the frame it rides on must show none of its cards
    events = (GameEvent.objects.filter(game=game, seq__lte=game.version).order_by("seq")
              .values_list("seat", "action", "source"))
    for seat, action, source in events.iterator():
        try:
            state = apply_event(state, seat, action or {})
        except engine.IllegalAction:
            break  # a log that does not replay: what came before is still true
        last = last_event(state.last)
        if not last or last.get("seat") is None:
            continue
        bare = {k: v for k, v in last.items() if k != "closed"}
        if moves and {k: v for k, v in moves[-1].items() if k not in ("closed", "by")} == bare:
            if "closed" in last:
                moves[-1]["closed"] = last["closed"]  # the same move, now with how its round closed
            continue
        moves.append({**last, "by": source if seat is not None else "player"})
    return moves[-limit:]
