"""A seat halves its own turn clock (a tournament's berserk): allowed before that seat's first move.

The apps above decide who may ask (tournaments: a player of one of its games); the game keeps the
halved seats on the row (`Game.halved_seats`), so every later turn of that seat runs on half the
table's clock, and a turn of his that is running now loses half of the full clock at once.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction

from durak_site.errors import ServiceError
from game import frames
from game.models import Game, GameEvent, GameSeat
from game.services import locking, sending


def halve_turn_clock(game_id: int, player_id: int) -> int:
    """Halve `player_id`'s own clock in a running game; returns his seat. Refused once he has moved,
    twice, or when he has no seat in a running game (nothing changes)."""
    with transaction.atomic():
        game = locking.lock_playing(game_id)
        if game is None:
            raise ServiceError("game_finished")
        seat = GameSeat.objects.filter(game=game, player_id=player_id).values_list("number", flat=True).first()
        if seat is None:
            raise ServiceError("not_seated")
        halved = list(game.halved_seats or [])
        if seat in halved:
            raise ServiceError("berserk_twice")
        if GameEvent.objects.filter(game=game, seat=seat, source="player").exists():
            raise ServiceError("berserk_after_move")
        full = frames.turn_seconds(game, [])
        running = (game.deadline is not None and game.deadline_kind == Game.DeadlineKind.TURN
                   and seat in (game.deadline_seats or []) and not any(s in halved for s in game.deadline_seats))
        game.halved_seats = [*halved, seat]
        fields = ["halved_seats"]
        if running and game.deadline is not None:
            game.deadline = max(game.db_now, game.deadline - timedelta(seconds=full / 2))
            fields.append("deadline")
        game.save(update_fields=fields)
        transaction.on_commit(lambda: sending.republish(game.pk))
    return seat
