"""A change is saved: the next deadline is set, then the game goes on (one UPDATE) or ends
(game.services.finish), and its frames leave (game.services.sending)."""

from __future__ import annotations

from datetime import timedelta

from game import engine, frames
from game.models import Game
from game.services import finish, locking, sending


def set_deadline(game: Game, state: engine.GameState) -> None:
    """The next clock of a running game, by the database's time of its lock (`game.db_now`)."""
    now = game.db_now
    if state.result is not None or state.is_over():
        game.deadline, game.deadline_kind, game.deadline_seats = None, "", []
    elif state.in_check_phase():
        game.deadline = now + timedelta(seconds=frames.check_seconds())
        game.deadline_kind = Game.DeadlineKind.CHECK
        game.deadline_seats = []
    else:
        game.deadline_seats = engine.whose_turn(state)
        game.deadline = now + timedelta(seconds=frames.turn_seconds(game, game.deadline_seats))
        game.deadline_kind = Game.DeadlineKind.TURN


def save(game: Game, state: engine.GameState, seats: list[frames.SeatRow] | None = None) -> Game:
    """Inside the locked transaction, after events were appended: deadline, finish or write, publish."""
    game.state = state.to_json()
    set_deadline(game, state)
    if state.result is not None and game.status == Game.Status.PLAYING:
        return finish.finish(game, state, seats)
    locking.write_move(game)
    sending.publish(game, state, seats)
    return game
