"""A change leaves: every viewer's frame built under the lock and sent after the commit, then the
bot seats it awaits are queued (or, at a game's end, the lobby opens its rematch window)."""

from __future__ import annotations

from django.db import transaction

from durak_site import realtime
from game import bots, engine, event_log, frames, turn_news
from game.models import Game
from lobby import services as lobby_services


def state_of(game: Game) -> engine.GameState:
    return engine.GameState.from_json(game.state)


def publish(game: Game, state: engine.GameState, seats: list[frames.SeatRow] | None = None) -> None:
    """Under the lock: build every viewer's frame now, send them after the commit, then queue bots."""
    event_log.assert_written(game)
    seats = seats if seats is not None else frames.game_seats(game)
    realtime.send_on_commit(frames.messages(game, state, seats))
    if game.status == Game.Status.PLAYING:
        awaited = bots.seats_to_move(state, seats)
        if awaited:
            game_id, version = game.pk, game.version
            transaction.on_commit(lambda: bots.schedule_moves(game_id, version, awaited))
        turn_news.announce(game, state, seats)  # the people awaited now (notifications)
    else:
        table_id = game.table_id
        # who was at the table as it ended: the lobby's presence of a seated player was not kept
        # during the game (his heartbeats went to his game seat), so the rematch window starts fresh
        present = [s.player_id for s in seats if s.player_id and s.connected and s.left_at is None]
        transaction.on_commit(lambda: lobby_services.game_finished(table_id, present))


def republish(game_id: int) -> None:
    """Send every viewer the current frame again: a committed change whose frames may have died
    with its process (found when its mover resends it after reconnecting elsewhere)."""
    game = Game.objects.filter(pk=game_id).defer("initial_state").first()
    if game is not None:
        realtime.send(frames.messages(game, state_of(game), frames.game_seats(game)))
