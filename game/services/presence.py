"""Who is at the table: leaving («Выйти»), a ban, the socket's presence and heartbeat, the absence
clock (docs/RULES.md#disconnect: everyone is told, then he loses or a bot plays his seat) and a bot's takeover and
hand-back."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models.functions import Now

from accounts import sessions
from durak_site.errors import ServiceError
from game import engine, event_log, frames
from game.engine.bots import TAKEOVER_LEVEL as ENGINE_TAKEOVER_LEVEL
from game.models import Game, GameSeat
from game.services import changes, finish, locking, selectors, sending
from game.services.locking import SessionMoved
from lobby import services as lobby_services

TAKEOVER_LEVEL = ENGINE_TAKEOVER_LEVEL  # docs/RULES.md#disconnect: the bot that plays a disconnected seat (the strongest level)


def _bot_seats_event(game: Game, state: engine.GameState) -> tuple[engine.GameState, list[frames.SeatRow]]:
    seats = frames.game_seats(game)
    played = [s.number for s in seats if s.bot_controlled]
    return event_log.append(game, state, None, {"type": "set_bots", "seats": played}, source="server"), seats


def _resign(game: Game, state: engine.GameState, seat: int, source: str) -> engine.GameState:
    return event_log.append(game, state, seat, {"type": "resign", "reason": "resign"}, source=source)


def leave_game(game_id: int, player: Any) -> Game:
    """«Выйти» during a game. Policy "lose": the game ends, he (his pair) loses. Policy "bot": a
    bot takes his seat at once and he is recorded as the loser (Game.result["left"])."""
    with transaction.atomic():
        game = locking.lock(game_id)
        gs = GameSeat.objects.filter(game=game, player=player).first()
        if gs is None:
            raise ServiceError("not_seated")
        if game.status != Game.Status.PLAYING:
            raise ServiceError("game_finished")
        if gs.left_at is not None:
            raise ServiceError("left_game")
        return _leave_locked(game, gs, bot=game.disconnect_policy == Game.DisconnectPolicy.BOT)


def _leave_locked(game: Game, gs: GameSeat, bot: bool) -> Game:
    gs.left_at = game.db_now
    gs.disconnect_deadline = None
    lobby_services.player_left_game(game.table_id, gs.player_id)
    state = sending.state_of(game)
    if bot:
        gs.takeover_level = gs.takeover_level or TAKEOVER_LEVEL
        gs.save(update_fields=["left_at", "takeover_level", "disconnect_deadline"])
        state, seats = _bot_seats_event(game, state)
        if not any(s.player_id and not s.bot_level and s.left_at is None for s in seats):
            return finish.abandon(game, state, seats)
        return changes.save(game, state, seats)
    gs.save(update_fields=["left_at", "disconnect_deadline"])
    return changes.save(game, _resign(game, state, gs.number, "leave"))


def on_player_banned(sender: Any, player_id: int, **kwargs: Any) -> None:
    """accounts.signals.player_banned: in every running game of his a bot takes his seat, as for a
    leaver under the bot policy (he is recorded as having left); the others play on."""
    game_ids = list(GameSeat.objects.filter(player_id=player_id, left_at__isnull=True,
                                            game__status=Game.Status.PLAYING).values_list("game_id", flat=True))
    for game_id in game_ids:
        with transaction.atomic():
            game = locking.lock(game_id)
            gs = GameSeat.objects.filter(game=game, player_id=player_id).first()
            if game.status == Game.Status.PLAYING and gs is not None and gs.left_at is None:
                _leave_locked(game, gs, bot=True)


def takeover(game_id: int, seat: int, level: str = TAKEOVER_LEVEL) -> Game | None:
    """A bot starts playing a human's seat (docs/RULES.md#disconnect); his hand stays his."""
    with transaction.atomic():
        game = locking.lock_playing(game_id)
        if game is None:
            return None
        gs = GameSeat.objects.filter(game=game, number=seat).first()
        if gs is None or gs.bot_controlled:
            return None
        gs.takeover_level, gs.disconnect_deadline = level, None
        gs.save(update_fields=["takeover_level", "disconnect_deadline"])
        state, seats = _bot_seats_event(game, sending.state_of(game))
        return changes.save(game, state, seats)


def hand_back_locked(game: Game, state: engine.GameState, seat: int) -> tuple[engine.GameState, list[frames.SeatRow]]:
    """Under the lock: the bot stops playing `seat`, its player plays it again (the seats re-read)."""
    GameSeat.objects.filter(game=game, number=seat).update(takeover_level="")
    return _bot_seats_event(game, state)


def hand_back(game_id: int, player: Any) -> Game | None:
    """He is back (docs/RULES.md#disconnect): his seat and hand are his again, the bot stops."""
    with transaction.atomic():
        game = locking.lock_playing(game_id)
        if game is None:
            return None
        gs = GameSeat.objects.filter(game=game, player=player).first()
        if gs is None or not gs.takeover_level or gs.left_at is not None:
            return None
        state, seats = hand_back_locked(game, sending.state_of(game), gs.number)
        return changes.save(game, state, seats)


def set_connected(game_id: int, player: Any, connected: bool, since: datetime | None = None) -> None:
    """Presence of a seated human (socket connect/disconnect, the heartbeat sweep). A disconnect
    starts his absence clock at `since` (the last sign of life; now by default): everyone is told
    after 15 s, then he loses (policy "lose", at 30 s) or a bot plays for him (policy "bot", at
    15 + 60 s). A reconnect stops the clock and hands a taken-over seat back."""
    with transaction.atomic():
        game = locking.locked_games().filter(pk=game_id).first()
        if game is None:
            return
        now = game.db_now
        gs = GameSeat.objects.filter(game=game, player=player).first()
        if gs is None:
            return
        if connected:
            fields = ["last_heartbeat"]
            gs.last_heartbeat = now
            changed = not gs.connected
            if changed:
                gs.connected, gs.disconnected_at, gs.disconnect_deadline = True, None, None
                fields += ["connected", "disconnected_at", "disconnect_deadline"]
            gs.save(update_fields=fields)
            if gs.takeover_level and gs.left_at is None and game.status == Game.Status.PLAYING:
                state, seats = hand_back_locked(game, sending.state_of(game), gs.number)
                changes.save(game, state, seats)
            elif changed:
                sending.publish(game, sending.state_of(game))
            return
        if not gs.connected:
            return
        gs.connected = False
        gs.disconnected_at = min(since or now, now)
        if game.status == Game.Status.PLAYING and gs.left_at is None and not gs.takeover_level:
            gs.disconnect_deadline = gs.disconnected_at + timedelta(seconds=frames.DISCONNECT_NOTICE_SECONDS)
        gs.save(update_fields=["connected", "disconnected_at", "disconnect_deadline"])
        sending.publish(game, sending.state_of(game))


def heartbeat(game_id: int, player: Any, session_generation: int | None = None) -> int | None:
    """A ping from a seated player's socket: he is here (a missed disconnect event is repaired).
    Returns the game's version, so the socket can tell it missed a frame. The common case (already
    marked connected) is one UPDATE without the game row lock, which also checks the socket's
    `session_generation`: if it moved, SessionMoved is raised and nothing is written."""
    version = locking.touch_heartbeat(game_id, player.pk, session_generation)
    if version is not None:
        return version
    if session_generation is not None and sessions.generation(player.pk) != session_generation:
        raise SessionMoved
    if connection.vendor != "postgresql" and GameSeat.objects.filter(
            game_id=game_id, player=player, connected=True, takeover_level="").update(
            last_heartbeat=Now()):  # SQLite (embedded): its RETURNING cannot read the joined game
        return selectors.game_version(game_id)
    set_connected(game_id, player, True)
    return selectors.game_version(game_id)


def fire_disconnect_deadline(game_id: int, seat_number: int) -> Game | None:
    """His absence clock reached its next step (idempotent: nothing if he is back or it is not due).
    Step 1, 15 s: everyone is told (and sees the countdown of step 2). Step 2: policy "lose" at 30 s,
    he (his pair) loses; policy "bot" at 15 + 60 s, a bot plays his seat until he returns."""
    with transaction.atomic():
        game = locking.lock_playing(game_id)
        if game is None:
            return None
        now = game.db_now
        gs = GameSeat.objects.filter(game=game, number=seat_number).first()
        if (gs is None or gs.connected or gs.disconnect_deadline is None or gs.disconnect_deadline > now
                or gs.left_at is not None or gs.takeover_level):
            return None
        since = gs.disconnected_at or now
        lose = game.disconnect_policy == Game.DisconnectPolicy.LOSE
        final_at = since + timedelta(seconds=frames.DISCONNECT_LOSE_SECONDS if lose else
                                     frames.DISCONNECT_NOTICE_SECONDS + frames.DISCONNECT_TAKEOVER_SECONDS)
        if now < final_at - timedelta(milliseconds=50):  # the notice step
            gs.disconnect_deadline = final_at
            gs.save(update_fields=["disconnect_deadline"])
            sending.publish(game, sending.state_of(game))
            return game
        gs.disconnect_deadline = None
        if lose:
            gs.left_at = now
            lobby_services.player_left_game(game.table_id, gs.player_id)
            gs.save(update_fields=["disconnect_deadline", "left_at"])
            return changes.save(game, _resign(game, sending.state_of(game), seat_number, "disconnect"))
        gs.takeover_level = TAKEOVER_LEVEL
        gs.save(update_fields=["takeover_level", "disconnect_deadline"])
        state, seats = _bot_seats_event(game, sending.state_of(game))
        return changes.save(game, state, seats)
