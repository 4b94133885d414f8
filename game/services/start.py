"""A game starts: the lobby hands over a table's lineup (its countdown ran out, or now), the deal is
made and written, every seat's frame leaves after the commit."""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta
from typing import Any, cast

from django.db import transaction

from durak_site import realtime
from durak_site.clock import db_now
from durak_site.errors import ServiceError
from game import engine, frames, signals
from game.models import Game, GameSeat
from game.services import changes, sending
from lobby import services as lobby_services

log = logging.getLogger(__name__)


def fire_countdown(table_id: int, version: int | None = None) -> Game | None:
    """The 3-2-1 countdown ran out: deal the game (idempotent; lobby decides whether it is due)."""
    with transaction.atomic():
        lineup = lobby_services.take_countdown(table_id, version)
        if lineup is None:
            return None
        try:
            with transaction.atomic():
                return _deal(lineup)
        except ServiceError as exc:  # the game refused to start: back to the waiting room, saying why
            log.warning("the game at table %s could not start: %s", table_id, exc.code)
            lobby_services.start_failed(table_id, exc.message)
            return None


def start_game(table_id: int) -> Game:
    """Deal a game at `table_id` now from its seats (the countdown's end, tests, the dev harness)."""
    with transaction.atomic():
        return _deal(lobby_services.lineup_for_start(table_id))


def _deal(lineup: lobby_services.Lineup) -> Game:
    table_id = lineup.table_id
    if Game.objects.filter(table_id=table_id, status=Game.Status.PLAYING).exists():
        raise ServiceError("game_running")
    if len(lineup.seats) < 2:
        raise ServiceError("not_enough_players")
    rules = engine.Rules.from_dict(dict(lineup.rules))
    seed = secrets.randbits(63)
    bot_numbers = [i for i, s in enumerate(lineup.seats, start=1) if s.bot_level]
    try:
        state = engine.new_game(rules, players=len(lineup.seats), seed=seed, bot_seats=bot_numbers,
                                first_attacker=_first_attacker(table_id, len(lineup.seats)))
    except (engine.InvalidRules, engine.IllegalAction) as exc:
        raise ServiceError("bad_rules") from exc
    data = state.to_json()
    game = Game(table_id=table_id, number=Game.objects.filter(table_id=table_id).count() + 1, rules=rules.to_dict(), seed=str(seed),
                initial_state=data, state=data, version=0, turn_seconds=lineup.turn_seconds,
                disconnect_policy=lineup.disconnect_policy, rating_on=lineup.rated)
    game.db_now = db_now()
    changes.set_deadline(game, state)
    game.save()
    seats = GameSeat.objects.bulk_create([
        GameSeat(game=game, number=i, player_id=s.player_id, bot_level=s.bot_level,
                 connected=bool(s.bot_level or s.connected),
                 last_heartbeat=None if s.bot_level else game.db_now,
                 disconnected_at=None if (s.bot_level or s.connected) else game.db_now)
        for i, s in enumerate(lineup.seats, start=1)
    ])
    for gs in seats:
        if not gs.bot_level and not gs.connected:  # seated but not here: his absence clock starts now
            gs.disconnect_deadline = game.db_now + timedelta(seconds=frames.DISCONNECT_NOTICE_SECONDS)
            gs.save(update_fields=["disconnect_deadline"])
    lobby_services.mark_playing(table_id)
    realtime.send_on_commit([(realtime.table_group(table_id), {"type": "game.started", "game_id": game.pk})])
    sending.publish(game, state, frames.game_seats(game))
    return game


def _first_attacker(table_id: int, players: int) -> int | None:
    responses = signals.choose_first_attacker.send(sender=Game, table_id=table_id, players=players)
    for _receiver, seat in cast("list[tuple[Any, object]]", responses):
        if isinstance(seat, int) and 1 <= seat <= players:
            return seat
    return None
