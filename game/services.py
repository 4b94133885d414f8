"""The only writer of Game, GameSeat and GameEvent (DESIGN.md: one writer per table).

Every change runs in one transaction with the game row locked (select_for_update): check, apply
the engine, append a GameEvent, bump the version, set the next deadline. Only after commit
(transaction.on_commit) are frames broadcast (each seat its own redacted view, spectators the
seat-less view, never the state), timers scheduled and the next bot move queued.

Replay: ``replay_state(game)`` re-runs the engine from Game.initial_state over the GameEvents
(seq order) and must give Game.state exactly.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from datetime import timedelta
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models.functions import Now
from django.utils import timezone

from durak_site.clock import db_now
from game import engine
from game.errors import ServiceError
from game.models import Game, GameEvent, GameSeat

log = logging.getLogger(__name__)

ACTION_TYPES = {"attack", "defend", "transfer", "take", "pass", "swap_trump", "catch"}
MAX_ACTION_KEYS = 4
MAX_MSG_ID = 64
# server-side event kinds (GameEvent.action["type"]) that are not engine actions
SERVER_EVENTS = {"resign", "end_check", "set_bots"}

DISCONNECT_LOSE_SECONDS = 30  # 000: not back within 30 s -> he (his pair) loses
DISCONNECT_NOTICE_SECONDS = 15  # 004: after 15 s everyone sees "disconnected"
DISCONNECT_TAKEOVER_SECONDS = 60  # 004: after 60 s more a bot plays his seat
TAKEOVER_LEVEL = "heuristic"


# ---------------------------------------------------------------- groups and frames


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def seat_group(table_id: int, seat: int) -> str:
    return f"table-{table_id}-seat-{seat}"


def watch_group(table_id: int) -> str:
    return f"table-{table_id}-watch"


def _load_state(data: dict) -> engine.GameState:
    return engine.GameState.from_json(data)


def check_seconds() -> float:
    return float(getattr(settings, "CHEATER_CHECK_SECONDS", 4))


def seats_info(game: Game, seats: list[GameSeat] | None = None) -> list[dict]:
    """Public facts about each seat for the frame: nick, bot, connected, left."""
    if seats is None:
        seats = list(game.seats.select_related("player").order_by("number"))
    now = timezone.now()
    out = []
    for s in seats:
        away = bool(
            s.player_id and not s.connected and not s.bot_level and s.disconnected_at
            and now - s.disconnected_at >= timedelta(seconds=DISCONNECT_NOTICE_SECONDS)
        )
        out.append({
            "number": s.number,
            "nick": s.player.nick if s.player_id else "",
            "bot": bool(s.bot_level or s.takeover_level),
            "bot_level": s.bot_level or s.takeover_level or "",
            "takeover": bool(s.takeover_level),
            "connected": True if s.bot_level else s.connected,
            "away": away,
            "left": s.left_at is not None,
        })
    return out


def _frame(game: Game, state: engine.GameState, seat: int | None, seats: list[dict]) -> dict:
    return {
        "type": "state",
        "game_id": game.pk,
        "table_id": game.table_id,
        "status": game.status,
        "version": game.version,
        "seat": seat,
        "view": engine.view_for(state, seat),
        "deadline": game.deadline.isoformat() if game.deadline else None,
        "deadline_kind": game.deadline_kind or None,
        "deadline_seats": list(game.deadline_seats or []),
        "seats": seats,
        "result": game.result,
    }


def view_frame(game: Game, seat: int | None) -> dict:
    """The wire frame `seat` (None = spectator) sees now: its own redacted view only."""
    return _frame(game, _load_state(game.state), seat, seats_info(game))


def viewer_seat(game: Game, player) -> int | None:
    """The seat `player` owns in `game` (also after a bot took it over), or None."""
    if player is None or not getattr(player, "is_authenticated", False):
        return None
    return GameSeat.objects.filter(game=game, player=player).values_list("number", flat=True).first()


def current_game(table_id: int) -> Game | None:
    """The game a table page shows: the running one, else the last one while the rematch offer lasts."""
    game = Game.objects.filter(table_id=table_id, status=Game.Status.PLAYING).order_by("-pk").first()
    if game is not None:
        return game
    from lobby.models import Table

    status = Table.objects.filter(pk=table_id).values_list("status", flat=True).first()
    if status in (Table.Status.REMATCH, Table.Status.PLAYING):
        return Game.objects.filter(table_id=table_id).order_by("-pk").first()
    return None


def connect_info(table_id: int, player) -> dict | None:
    """What a socket at /ws/tables/<id>/ needs on connect; None if the table does not exist."""
    from lobby.models import Table

    table = Table.objects.filter(pk=table_id).only("pk", "version", "status").first()
    if table is None:
        return None
    game = current_game(table_id)
    info: dict[str, Any] = {"table_version": table.version, "game_id": None, "seat": None, "frame": None}
    if game is not None:
        seat = viewer_seat(game, player)
        info.update(game_id=game.pk, seat=seat, frame=view_frame(game, seat),
                    playing=game.status == Game.Status.PLAYING)
    return info


def _send_many(messages: list[tuple[str, dict]]) -> None:
    """group_send each (group, message) in one hop onto the event loop (one call per change, not per seat)."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return

    async def send_all() -> None:
        for group, message in messages:
            await layer.group_send(group, message)

    from game.bots import _main_loop

    loop = _main_loop()
    if loop is not None and not _in_loop_thread(loop):
        # inside the server (a sync_to_async thread): hand the sends to the event loop and return, so
        # the mover's ack is not held up by the broadcast; frames carry versions, receivers drop older ones
        future = asyncio.run_coroutine_threadsafe(send_all(), loop)
        future.add_done_callback(_log_send_failure)
        return
    try:
        async_to_sync(send_all)()
    except Exception:  # a broken layer must never undo a committed move
        log.exception("group_send of %d messages failed", len(messages))


def _in_loop_thread(loop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def _log_send_failure(future) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.error("group_send failed", exc_info=future.exception())


def _send(group: str, message: dict) -> None:
    _send_many([(group, message)])


def broadcast_game(game: Game, state: engine.GameState | None = None, seats: list[GameSeat] | None = None) -> None:
    """Send every seat its own frame and the spectators theirs (call after commit)."""
    if state is None:
        state = _load_state(game.state)
    info = seats_info(game, seats)
    messages = [
        (seat_group(game.table_id, s), {"type": "game.frame", "game_id": game.pk, "version": game.version,
                                        "frame": _frame(game, state, s, info)})
        for s in range(1, state.n + 1)
    ]
    messages.append((watch_group(game.table_id), {"type": "game.frame", "game_id": game.pk,
                                                  "version": game.version, "frame": _frame(game, state, None, info)}))
    _send_many(messages)


def _schedule_timer(kind: str, obj_id: int, version: int, at) -> None:
    try:
        from game import timers
    except ImportError:
        return
    schedule = getattr(timers, "schedule", None)
    if schedule is None:
        return
    try:
        schedule(kind, obj_id, version, at)
    except Exception:
        log.exception("timers.schedule(%s, %s, %s) failed", kind, obj_id, version)


def _after_commit(game: Game, state: engine.GameState, finished: bool) -> None:
    """Broadcast frames, schedule the deadline and the next bot move; for a finished game tell the lobby."""
    seats = list(game.seats.select_related("player").order_by("number"))
    broadcast_game(game, state, seats)
    if finished:
        try:
            from lobby import services as lobby_services
        except ImportError:
            return
        fn = getattr(lobby_services, "game_finished", None)
        if fn is not None:
            try:
                fn(game.table_id)
            except Exception:
                log.exception("lobby.services.game_finished(%s) failed", game.table_id)
        return
    if game.deadline is not None and game.deadline_kind:
        _schedule_timer(game.deadline_kind, game.pk, game.version, game.deadline)
    from game import bots

    bots.schedule_bot_moves(game, state, seats)


# ---------------------------------------------------------------- starting a game


def start_game(table_id: int) -> Game:
    """Deal a new game at `table_id` from its seats (humans and bots); broadcast on commit."""
    from lobby.models import Table

    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            raise ServiceError("table_not_found")
        if Game.objects.filter(table=table, status=Game.Status.PLAYING).exists():
            raise ServiceError("game_running")
        lobby_seats = [s for s in table.seats.order_by("number") if s.player_id or s.bot_level]
        if len(lobby_seats) < 2:
            raise ServiceError("not_enough_players")
        rules = engine.Rules.from_dict(dict(table.rules or {}))
        seed = secrets.randbits(63)
        bot_numbers = [i for i, s in enumerate(lobby_seats, start=1) if s.bot_level]
        first = _series_first_attacker(table, len(lobby_seats))
        try:
            state = engine.new_game(rules, players=len(lobby_seats), seed=seed, bot_seats=bot_numbers,
                                    first_attacker=first)
        except (engine.InvalidRules, engine.IllegalAction) as exc:
            raise ServiceError("bad_rules", str(exc)) from exc
        data = state.to_json()
        game = Game(
            table=table,
            number=table.games.count() + 1,
            rules=rules.to_dict(),
            seed=str(seed),
            initial_state=data,
            state=data,
            version=0,
            turn_seconds=table.turn_seconds,
        )
        _set_deadline(game, state, table.turn_seconds)
        game.save()
        GameSeat.objects.bulk_create([
            GameSeat(game=game, number=i, player_id=s.player_id, bot_level=s.bot_level,
                     connected=bool(s.bot_level or s.connected))
            for i, s in enumerate(lobby_seats, start=1)
        ])
        transaction.on_commit(lambda: _after_start(game, state))
    return game


def _series_first_attacker(table, players: int) -> int | None:
    """003: in a running series the winners' pair chooses who of them leads the next game; ratings
    keeps that choice. None lets the engine's own first-move rule decide."""
    from ratings import services as ratings_services

    seat = ratings_services.next_first_attacker(table)
    return seat if seat is not None and 1 <= seat <= players else None


def _after_start(game: Game, state: engine.GameState) -> None:
    _send(table_group(game.table_id), {"type": "game.started", "game_id": game.pk})
    _after_commit(game, state, finished=False)


# ---------------------------------------------------------------- the one write path


def _turn_seconds(game: Game) -> int:
    return game.turn_seconds or 30


def _now(game: Game):
    """The database's clock (durak_site.clock): read with the game row's lock when it was taken."""
    return getattr(game, "db_now", None) or db_now()


def _set_deadline(game: Game, state: engine.GameState, turn_seconds: int | None = None) -> None:
    now = _now(game)
    if state.result is not None or state.phase == "over":
        game.deadline, game.deadline_kind, game.deadline_seats = None, "", []
    elif state.phase == "check":
        game.deadline = now + timedelta(seconds=check_seconds())
        game.deadline_kind = Game.DeadlineKind.CHECK
        game.deadline_seats = []
    else:
        secs = turn_seconds if turn_seconds is not None else _turn_seconds(game)
        game.deadline = now + timedelta(seconds=secs)
        game.deadline_kind = Game.DeadlineKind.TURN
        game.deadline_seats = engine.whose_turn(state) if hasattr(engine, "whose_turn") else \
            engine.view_for(state, None)["turn"]


def _locked_games():
    """Game rows for update, each with the database's time of the locking statement (`db_now`):
    deadlines are set by that one clock, the one the timers judge them by."""
    return Game.objects.select_for_update().defer("initial_state").annotate(db_now=Now())


def _lock(game_id: int) -> Game:
    game = _locked_games().filter(pk=game_id).first()
    if game is None:
        raise ServiceError("game_not_found")
    return game


def _commit_change(game: Game, new_state: engine.GameState, *, seat: int | None, action: dict, source: str,
                   client_msg_id: str = "") -> Game:
    """Inside the locked transaction: append the event, bump the version, save, finish if over."""
    game.version += 1
    game.state = new_state.to_json()
    GameEvent.objects.create(game=game, seq=game.version, seat=seat, action=action, version=game.version,
                             client_msg_id=client_msg_id, source=source)
    _set_deadline(game, new_state)
    finished = new_state.result is not None
    if finished:
        _finish(game, new_state)
    game.save(update_fields=SAVE_FIELDS)
    transaction.on_commit(lambda: _after_commit(game, new_state, finished))
    return game


SAVE_FIELDS = ["state", "version", "deadline", "deadline_kind", "deadline_seats", "status", "result", "finished_at"]


def _finish(game: Game, state: engine.GameState, status: str = Game.Status.FINISHED) -> None:
    game.status = status
    game.finished_at = timezone.now()
    game.deadline, game.deadline_kind, game.deadline_seats = None, "", []
    result = dict(state.result or {})
    left = list(GameSeat.objects.filter(game=game, left_at__isnull=False).values_list("number", flat=True))
    timed_out = sorted(set(
        GameEvent.objects.filter(game=game, source="timeout", seat__isnull=False).values_list("seat", flat=True)
    ))
    result["left"] = left
    result["timed_out"] = timed_out
    game.result = result
    game.save(update_fields=SAVE_FIELDS)
    try:
        from ratings import services as ratings_services
    except ImportError:
        return
    record = getattr(ratings_services, "record_game_result", None)
    if record is None:
        return
    try:
        with transaction.atomic():  # a savepoint: a ratings failure must not keep the game from ending
            rec = record(game)
    except Exception:
        log.exception("ratings.record_game_result failed for game %s; the game ends unrated", game.pk)
        game.rated, game.unrated_reason = False, "rating failed"
    else:
        game.rated = bool(getattr(rec, "rated", False))
        game.unrated_reason = str(getattr(rec, "unrated_reason", "") or "")[:100]
    game.save(update_fields=["rated", "unrated_reason"])


def validate_action(action: Any) -> dict:
    """Shape check before the engine sees it: a small dict with a known type and string fields."""
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


def apply_player_action(game_id: int, player, client_version: int, client_msg_id: str, action: Any) -> Game:
    """A person's move. Refusals raise ServiceError (nothing changes); a resent message id is
    answered with the game as it is (the move is applied once)."""
    if not isinstance(client_msg_id, str) or not client_msg_id or len(client_msg_id) > MAX_MSG_ID:
        raise ServiceError("bad_id")
    if type(client_version) is not int:
        raise ServiceError("bad_version")
    action = validate_action(action)
    try:
        with transaction.atomic():
            game = _lock(game_id)
            gs = GameSeat.objects.filter(game=game, player=player).first()
            if gs is None:
                raise ServiceError("not_seated")
            if GameEvent.objects.filter(game=game, seat=gs.number, client_msg_id=client_msg_id).exists():
                game._duplicate = True
                return game
            if game.status != Game.Status.PLAYING:
                raise ServiceError("game_finished")
            if gs.left_at is not None:
                raise ServiceError("left_game")
            if client_version != game.version:
                raise ServiceError("stale_version")
            if gs.takeover_level:  # he is back and playing: his seat and hand are his again (004)
                _hand_back_locked(game, gs)
            state = _load_state(game.state)
            try:
                new_state = engine.apply_action(state, gs.number, action)
            except engine.IllegalAction as exc:
                raise ServiceError(exc.code) from exc
            return _commit_change(game, new_state, seat=gs.number, action=action, source="player",
                                  client_msg_id=client_msg_id)
    except IntegrityError:  # the same message id raced in from two sockets: it was applied once
        if not GameEvent.objects.filter(game_id=game_id, client_msg_id=client_msg_id,
                                        seat__in=GameSeat.objects.filter(game_id=game_id, player=player)
                                        .values("number")).exists():
            raise
        game = Game.objects.get(pk=game_id)
        game._duplicate = True
        return game


def apply_bot_action(game_id: int, seat: int, version: int) -> Game | None:
    """A bot seat's move at `version` (idempotent: nothing if the game moved on or it is not a bot)."""
    from game.engine.bots import choose_action

    with transaction.atomic():
        game = _locked_games().filter(pk=game_id).first()
        if game is None or game.status != Game.Status.PLAYING or game.version != version:
            return None
        gs = GameSeat.objects.filter(game=game, number=seat).first()
        if gs is None or not (gs.bot_level or gs.takeover_level):
            return None
        state = _load_state(game.state)
        view = engine.view_for(state, seat)
        if not view["legal"]:
            return None
        rng = random.Random(f"{game.seed}:{game.version}:{seat}")
        action = choose_action(gs.bot_level or gs.takeover_level, view, rng)
        if action is None:
            return None
        try:
            new_state = engine.apply_action(state, seat, action)
        except engine.IllegalAction:
            log.exception("bot %s at game %s seat %s chose an illegal move %r", gs.bot_level, game_id, seat, action)
            return None
        return _commit_change(game, new_state, seat=seat, action=action, source="bot")


# ---------------------------------------------------------------- deadlines


def _apply_timeout(game: Game, state: engine.GameState, seat: int) -> engine.GameState:
    action = engine.timeout_action(state, seat)
    if action.get("type") == "resign":
        new_state = engine.resign(state, seat, action.get("reason", "timeout"))
        ev = {"type": "resign", "reason": action.get("reason", "timeout")}
    else:
        new_state = engine.apply_action(state, seat, action)
        ev = action
    game.version += 1
    GameEvent.objects.create(game=game, seq=game.version, seat=seat, action=ev, version=game.version,
                             source="timeout")
    return new_state


def fire_turn_deadline(game_id: int, version: int) -> Game | None:
    """The turn clock ran out at `version`: the automatic move (or loss) for every awaited seat."""
    with transaction.atomic():
        game = _locked_games().filter(pk=game_id).first()
        if (game is None or game.status != Game.Status.PLAYING or game.version != version
                or game.deadline_kind != Game.DeadlineKind.TURN):
            return None
        state = _load_state(game.state)
        for seat in list(game.deadline_seats or []):
            if state.result is not None or state.phase != "play":
                break
            if seat not in engine.view_for(state, None)["turn"]:
                continue
            try:
                state = _apply_timeout(game, state, seat)
            except engine.IllegalAction:
                log.exception("timeout for game %s seat %s refused", game_id, seat)
        if game.version == version:  # nothing could be applied: keep the clock going, never a hot loop
            log.warning("turn deadline of game %s at version %s applied nothing; re-armed", game_id, version)
            _set_deadline(game, state)
            game.save(update_fields=["deadline", "deadline_kind", "deadline_seats"])
            transaction.on_commit(lambda: _schedule_timer(game.deadline_kind, game.pk, game.version, game.deadline))
            return None
        return _save_after_server_events(game, state)


def _save_after_server_events(game: Game, state: engine.GameState) -> Game:
    game.state = state.to_json()
    _set_deadline(game, state)
    finished = state.result is not None
    if finished:
        _finish(game, state)
    game.save(update_fields=SAVE_FIELDS)
    transaction.on_commit(lambda: _after_commit(game, state, finished))
    return game


def fire_check_deadline(game_id: int, version: int) -> Game | None:
    """The 4 s cheater check window ended at `version`: the round closes as pending."""
    with transaction.atomic():
        game = _locked_games().filter(pk=game_id).first()
        if (game is None or game.status != Game.Status.PLAYING or game.version != version
                or game.deadline_kind != Game.DeadlineKind.CHECK):
            return None
        state = _load_state(game.state)
        try:
            new_state = engine.end_check(state)
        except engine.IllegalAction:
            log.warning("end_check refused for game %s at version %s", game_id, version)
            return None
        return _commit_change(game, new_state, seat=None, action={"type": "end_check"}, source="server")


# ---------------------------------------------------------------- leaving, presence, takeover


def _table_policy(game: Game) -> str:
    from lobby.models import Table

    return Table.objects.filter(pk=game.table_id).values_list("disconnect_policy", flat=True).first() or "lose"


def _bot_seats_event(game: Game, state: engine.GameState) -> engine.GameState:
    seats = list(GameSeat.objects.filter(game=game).order_by("number"))
    bots = [s.number for s in seats if s.bot_level or s.takeover_level]
    new_state = engine.set_bot_seats(state, bots)
    game.version += 1
    GameEvent.objects.create(game=game, seq=game.version, seat=None, action={"type": "set_bots", "seats": bots},
                             version=game.version, source="server")
    return new_state


def _all_humans_gone(game: Game) -> bool:
    humans = GameSeat.objects.filter(game=game, bot_level="")
    return humans.exists() and not humans.filter(left_at__isnull=True).exists()


def _resign_locked(game: Game, state: engine.GameState, seat: int, source: str) -> engine.GameState:
    new_state = engine.resign(state, seat)
    game.version += 1
    GameEvent.objects.create(game=game, seq=game.version, seat=seat, action={"type": "resign", "reason": "resign"},
                             version=game.version, source=source)
    return new_state


def leave_game(game_id: int, player) -> Game:
    """«Выйти» during a game. Policy "lose": the game ends, he (his pair) loses. Policy "bot": a
    bot takes his seat at once and he is recorded as the loser (Game.result["left"])."""
    with transaction.atomic():
        game = _lock(game_id)
        gs = GameSeat.objects.filter(game=game, player=player).first()
        if gs is None:
            raise ServiceError("not_seated")
        if game.status != Game.Status.PLAYING:
            raise ServiceError("game_finished")
        if gs.left_at is not None:
            raise ServiceError("left_game")
        gs.left_at = timezone.now()
        gs.disconnect_deadline = None
        state = _load_state(game.state)
        if _table_policy(game) == "bot":
            gs.takeover_level = gs.takeover_level or TAKEOVER_LEVEL
            gs.save(update_fields=["left_at", "takeover_level", "disconnect_deadline"])
            state = _bot_seats_event(game, state)
            if _all_humans_gone(game):
                return _abandon(game, state)
        else:
            gs.save(update_fields=["left_at", "disconnect_deadline"])
            state = _resign_locked(game, state, gs.number, "leave")
        return _save_after_server_events(game, state)


def _abandon(game: Game, state: engine.GameState) -> Game:
    """Every human left for good: the game is archived as aborted, never left hanging."""
    game.state = state.to_json()
    _finish(game, state, status=Game.Status.ABORTED)
    game.result = {**(game.result or {}), "reason": "abandoned"}
    game.save(update_fields=SAVE_FIELDS)
    transaction.on_commit(lambda: _after_commit(game, state, True))
    return game


def takeover(game_id: int, seat: int, level: str = TAKEOVER_LEVEL) -> Game | None:
    """A bot starts playing a human's seat (004 disconnect rule); his hand stays his."""
    with transaction.atomic():
        game = _locked_games().filter(pk=game_id).first()
        if game is None or game.status != Game.Status.PLAYING:
            return None
        gs = GameSeat.objects.filter(game=game, number=seat).first()
        if gs is None or gs.bot_level or gs.takeover_level:
            return None
        gs.takeover_level = level
        gs.disconnect_deadline = None
        gs.save(update_fields=["takeover_level", "disconnect_deadline"])
        state = _bot_seats_event(game, _load_state(game.state))
        return _save_after_server_events(game, state)


def _hand_back_locked(game: Game, gs: GameSeat) -> engine.GameState:
    gs.takeover_level = ""
    gs.save(update_fields=["takeover_level"])
    state = _bot_seats_event(game, _load_state(game.state))
    game.state = state.to_json()
    return state


def hand_back(game_id: int, player) -> Game | None:
    """He is back (004): his seat and hand are his again, the bot stops."""
    with transaction.atomic():
        game = _locked_games().filter(pk=game_id).first()
        if game is None or game.status != Game.Status.PLAYING:
            return None
        gs = GameSeat.objects.filter(game=game, player=player).first()
        if gs is None or not gs.takeover_level or gs.left_at is not None:
            return None
        state = _hand_back_locked(game, gs)
        return _save_after_server_events(game, state)


def set_connected(game_id: int, player, connected: bool) -> None:
    """Presence of a seated human (socket connect/disconnect, heartbeats). A disconnect starts his
    disconnect deadline (policy "lose": 30 s; "bot": 15 s notice, then 60 s to a takeover); a
    reconnect clears it and hands a taken-over seat back."""
    changed = False
    back = False
    with transaction.atomic():
        game = _locked_games().filter(pk=game_id).first()
        if game is None:
            return
        now = game.db_now
        gs = GameSeat.objects.filter(game=game, player=player).first()
        if gs is None:
            return
        if connected:
            gs.last_heartbeat = now
            fields = ["last_heartbeat"]
            if not gs.connected:
                gs.connected, gs.disconnected_at, gs.disconnect_deadline = True, None, None
                fields += ["connected", "disconnected_at", "disconnect_deadline"]
                changed = True
            gs.save(update_fields=fields)
            back = bool(gs.takeover_level and gs.left_at is None and game.status == Game.Status.PLAYING)
        elif gs.connected:
            gs.connected = False
            gs.disconnected_at = now
            if game.status == Game.Status.PLAYING and gs.left_at is None and not gs.takeover_level:
                first = DISCONNECT_LOSE_SECONDS if _table_policy(game) == "lose" else DISCONNECT_NOTICE_SECONDS
                gs.disconnect_deadline = now + timedelta(seconds=first)
            gs.save(update_fields=["connected", "disconnected_at", "disconnect_deadline"])
            changed = True
            if gs.disconnect_deadline:
                deadline, gs_id = gs.disconnect_deadline, gs.pk
                transaction.on_commit(lambda: _schedule_timer("disconnect", gs_id, 0, deadline))
        if changed and not back:
            transaction.on_commit(lambda: broadcast_game(game))
    if back:
        hand_back(game_id, player)


def heartbeat(game_id: int, player) -> None:
    """A ping from a seated player's socket: he is here (a missed disconnect event is repaired).
    The common case (already marked connected) is one UPDATE without the game row lock."""
    fresh = GameSeat.objects.filter(game_id=game_id, player=player, connected=True, takeover_level="").update(
        last_heartbeat=timezone.now())
    if not fresh:
        set_connected(game_id, player, True)


def fire_disconnect_deadline(game_id: int, seat_number: int, *args: Any, **kwargs: Any) -> Game | None:
    """His disconnect deadline passed (idempotent: nothing if he is back or it is not due).
    Policy "lose": he (his pair) loses. Policy "bot": first the notice (everyone sees
    "disconnected"), then after 60 s more a bot takes his seat. "Due" is judged by the database's
    clock (the one the timers' sweep uses), so a worker whose clock lags never refuses a due firing."""
    with transaction.atomic():
        game = _locked_games().filter(pk=game_id).first()
        if game is None or game.status != Game.Status.PLAYING:
            return None
        now = game.db_now
        gs = GameSeat.objects.filter(game=game, number=seat_number).first()
        if (gs is None or gs.connected or gs.disconnect_deadline is None or gs.disconnect_deadline > now
                or gs.left_at is not None):
            return None
        if _table_policy(game) == "lose":
            gs.disconnect_deadline = None
            gs.left_at = now
            gs.save(update_fields=["disconnect_deadline", "left_at"])
            state = _resign_locked(game, _load_state(game.state), seat_number, "disconnect")
            return _save_after_server_events(game, state)
        takeover_at = (gs.disconnected_at or now) + timedelta(
            seconds=DISCONNECT_NOTICE_SECONDS + DISCONNECT_TAKEOVER_SECONDS)
        if now < takeover_at - timedelta(milliseconds=50):  # the notice stage
            gs.disconnect_deadline = takeover_at
            gs.save(update_fields=["disconnect_deadline"])
            gs_id = gs.pk
            transaction.on_commit(lambda: _schedule_timer("disconnect", gs_id, 0, takeover_at))
            transaction.on_commit(lambda: broadcast_game(game))
            return game
        gs.takeover_level = TAKEOVER_LEVEL
        gs.disconnect_deadline = None
        gs.save(update_fields=["takeover_level", "disconnect_deadline"])
        state = _bot_seats_event(game, _load_state(game.state))
        return _save_after_server_events(game, state)


# ---------------------------------------------------------------- replay


def replay_state(game: Game) -> dict:
    """Re-run the engine from initial_state over the event log; equals game.state for a sound log."""
    state = _load_state(game.initial_state)
    for ev in game.events.order_by("seq"):
        a = ev.action
        kind = a.get("type")
        if kind == "resign":
            state = engine.resign(state, ev.seat, a.get("reason", "resign"))
        elif kind == "end_check":
            state = engine.end_check(state)
        elif kind == "set_bots":
            state = engine.set_bot_seats(state, a["seats"])
        else:
            state = engine.apply_action(state, ev.seat, a)
    return state.to_json()


def abort_game(game_id: int, reason: str = "moderator") -> Game | None:
    """A moderator stops a running game: archived as aborted (unrated), everyone sees the end."""
    with transaction.atomic():
        game = _locked_games().filter(pk=game_id).first()
        if game is None or game.status != Game.Status.PLAYING:
            return None
        state = _load_state(game.state)
        game.status = Game.Status.ABORTED
        game.finished_at = timezone.now()
        game.deadline, game.deadline_kind, game.deadline_seats = None, "", []
        game.result = {"reason": "aborted", "by": reason[:100], "loser": None, "losers": [], "winners": [],
                       "draw": False, "left": [], "timed_out": []}
        game.unrated_reason = f"aborted: {reason}"[:100]
        game.save(update_fields=[*SAVE_FIELDS, "unrated_reason"])
        transaction.on_commit(lambda: _after_commit(game, state, True))
        return game
