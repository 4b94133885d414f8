"""Moves: a person's (checked here, the one authority on its shape), a bot's, and the automatic
ones of the turn clock and of the cheater check window's end.

Each is one transaction with the game row locked: check, apply the engine through the event log
(game.event_log.append: one event, one version), then game.services.changes.save.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import IntegrityError, transaction

from durak_site.errors import ServiceError
from game import bots, engine, event_log
from game.models import Game, GameEvent, GameSeat
from game.services import changes, locking, presence, selectors, sending
from game.services.locking import SessionMoved

log = logging.getLogger(__name__)

ACTION_TYPES = frozenset({"attack", "defend", "transfer", "take", "pass", "swap_trump", "catch"})
MAX_ACTION_KEYS = 4
MAX_MSG_ID = 64
# a resent move that was already applied meets one of these before its duplicate id is noticed
LATE_CODES = frozenset({"stale_version", "game_finished", "left_game"})


def validate_action(action: Any) -> dict[str, Any]:
    """Shape check before the engine sees it: a small dict with a known type and short string fields."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise ServiceError("bad_action")
    if action["type"] not in ACTION_TYPES:
        raise ServiceError("unknown_action")
    if len(action) > MAX_ACTION_KEYS:
        raise ServiceError("bad_action")
    for key, value in action.items():
        if key == "show":  # «переводной 2»: a transfer by showing the trump (engine contract: a bool)
            if type(value) is not bool:
                raise ServiceError("bad_action")
        elif key not in ("type", "card", "target") or not isinstance(value, str) or len(value) > 16:
            raise ServiceError("bad_action")
    return dict(action)


def validate_msg_id(client_msg_id: Any) -> str:
    """A client message id: 1–64 printable characters (it is stored and compared in the database)."""
    if (not isinstance(client_msg_id, str) or not client_msg_id or len(client_msg_id) > MAX_MSG_ID
            or not client_msg_id.isprintable()):
        raise ServiceError("bad_id")
    try:
        client_msg_id.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate
        raise ServiceError("bad_id") from exc
    return client_msg_id


class Applied:
    """The outcome of a person's move: the game's version now, and whether it was a resend."""

    __slots__ = ("game_id", "version", "duplicate")

    def __init__(self, game_id: int, version: int, duplicate: bool = False) -> None:
        self.game_id, self.version, self.duplicate = game_id, version, duplicate


def apply_player_action(game_id: int, player: Any, client_version: int, client_msg_id: str, action: Any,
                        session_generation: int | None = None) -> Applied:
    """A person's move. Refusals raise ServiceError (nothing changes); a resent message id is
    answered as a duplicate (the move is applied once). With `session_generation` (a socket's), a
    move of a player whose generation moved raises SessionMoved, unapplied.

    The cheap path: one statement locks the game row and reads the mover's seat, his session
    generation and every seat; one updates the game and inserts the event (its unique constraint
    catches a resent id).
    """
    client_msg_id = validate_msg_id(client_msg_id)
    if type(client_version) is not int:
        raise ServiceError("bad_version")
    action = validate_action(action)
    try:
        with transaction.atomic():
            locked = locking.lock_for_move(game_id, player.pk)
            if locked is None:
                raise ServiceError("not_seated" if Game.objects.filter(pk=game_id).exists() else "game_not_found")
            game, seat = locked.game, locked.seat_number
            if session_generation is not None and locked.session_generation != session_generation:
                raise SessionMoved
            if game.status != Game.Status.PLAYING:
                raise ServiceError("game_finished")
            if locked.seat_left is not None:
                raise ServiceError("left_game")
            if client_version != game.version:
                raise ServiceError("stale_version")
            state = sending.state_of(game)
            seats = locked.seats
            if locked.seat_takeover:  # he is back and playing: his seat and hand are his again (docs/RULES.md#disconnect)
                state, seats = presence.hand_back_locked(game, state, seat)
            try:
                state = event_log.append(game, state, seat, action, source="player", client_msg_id=client_msg_id)
            except engine.IllegalAction as exc:
                raise ServiceError(exc.code) from exc
            changes.save(game, state, seats)
            return Applied(game.pk, game.version)
    except ServiceError as exc:
        if exc.code in LATE_CODES:
            resent = _resent(game_id, player, client_msg_id)
            if resent is not None:
                return resent
        raise
    except IntegrityError:  # the unique (game, seat, message id): the same move raced in twice
        resent = _resent(game_id, player, client_msg_id)
        if resent is None:
            raise
        return resent


def _resent(game_id: int, player: Any, client_msg_id: str) -> Applied | None:
    """A refused or clashing move whose id was already applied: the client resent it (a reconnect)."""
    if not GameEvent.objects.filter(game_id=game_id, client_msg_id=client_msg_id,
                                    seat__in=GameSeat.objects.filter(game_id=game_id, player=player)
                                    .values("number")).exists():
        return None
    return Applied(game_id, selectors.game_version(game_id) or 0, duplicate=True)


# ---------------------------------------------------------------- bots


def apply_bot_action(game_id: int, seat: int, version: int, action: engine.Action | None = None) -> Game | None:
    """A bot seat's move at `version` (idempotent: nothing if the game moved on or a person plays the
    seat). `action` is the bot's decision made off the web process; None decides here."""
    with transaction.atomic():
        game = locking.lock_playing(game_id)
        if game is None or game.version != version:
            return None
        gs = GameSeat.objects.filter(game=game, number=seat).first()
        if gs is None or not gs.bot_controlled:
            return None
        state = sending.state_of(game)
        if action is None:
            level = gs.bot_level or gs.takeover_level
            action = bots.decide(level, event_log.seat_view(game_id, state, seat, level),
                                 bots.rng_seed(game.seed, game.version, seat))
            if action is None:
                return None
        try:
            state = event_log.append(game, state, seat, action, source="bot")
        except engine.IllegalAction:
            log.exception("bot %s at game %s seat %s chose an illegal move %r", gs.bot_level, game_id, seat, action)
            return None
        return changes.save(game, state)


def move_bot(game_id: int, seat: int, version: int) -> Game | None:
    """A queued bot move: decide outside any lock from the seat's own view, then apply it."""
    found = bot_view(game_id, seat, version)
    if found is None:
        return None
    level, view, seed = found
    action = bots.decide(level, view, seed)
    return None if action is None else apply_bot_action(game_id, seat, version, action)


def bot_view(game_id: int, seat: int, version: int) -> tuple[str, engine.View, str] | None:
    """(level, the seat's view, rng seed) for a bot that must move at `version`, or None."""
    row = (GameSeat.objects.filter(game_id=game_id, number=seat, game__status=Game.Status.PLAYING,
                                   game__version=version)
           .values("bot_level", "takeover_level", "game__state", "game__seed").first())
    if row is None or not (row["bot_level"] or row["takeover_level"]):
        return None
    level = row["bot_level"] or row["takeover_level"]
    view = event_log.seat_view(game_id, engine.GameState.from_json(row["game__state"]), seat, level)
    if not view["legal"]:
        return None
    return level, view, bots.rng_seed(row["game__seed"], version, seat)


# ---------------------------------------------------------------- the clocks' automatic moves


def fire_turn_deadline(game_id: int, version: int) -> Game | None:
    """The turn clock ran out at `version`: the automatic move (or loss) for every awaited seat."""
    with transaction.atomic():
        game = locking.lock_playing(game_id)
        if game is None or game.version != version or game.deadline_kind != Game.DeadlineKind.TURN:
            return None
        state = sending.state_of(game)
        for seat in list(game.deadline_seats or []):
            if state.result is not None or not state.in_play():
                break
            if seat not in engine.whose_turn(state):
                continue
            action = engine.timeout_action(state, seat)
            if action.get("type") == "resign":
                action = {"type": "resign", "reason": action.get("reason", "timeout")}
            try:
                state = event_log.append(game, state, seat, action, source="timeout")
            except engine.IllegalAction:
                log.exception("timeout for game %s seat %s refused", game_id, seat)
        if game.version == version:  # nothing could be applied: keep the clock going, never a hot loop
            log.warning("turn deadline of game %s at version %s applied nothing; re-armed", game_id, version)
            changes.set_deadline(game, state)
            game.save(update_fields=["deadline", "deadline_kind", "deadline_seats"])
            return None
        return changes.save(game, state)


def fire_check_deadline(game_id: int, version: int) -> Game | None:
    """The cheater check window ended at `version`: the round closes as pending."""
    with transaction.atomic():
        game = locking.lock_playing(game_id)
        if game is None or game.version != version or game.deadline_kind != Game.DeadlineKind.CHECK:
            return None
        try:
            state = event_log.append(game, sending.state_of(game), None, {"type": "end_check"}, source="server")
        except engine.IllegalAction:
            log.warning("end_check refused for game %s at version %s", game_id, version)
            return None
        return changes.save(game, state)
