"""The only writer of Game, GameSeat and GameEvent.

Every change is one transaction with the game row locked (``select_for_update``): check, apply the
engine through the event log (game.event_log.append: one event, one version), set the next
deadline column, save. The frames of the change are built under the lock and leave after the
commit (durak_site.realtime.send_on_commit); the next bot move is queued after the commit too.

Deadlines are columns only: the one sweeper (game.timers, run by Celery beat or the in-process
ticker) fires the due ones by calling the ``fire_*`` functions here, exactly as a view would.

Direction: game calls down into lobby (lock a table for a start, "the game finished") and
accounts; it tells the apps above it through game.signals.
"""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models.functions import Now
from django.utils import timezone

from accounts import sessions
from durak_site import realtime
from durak_site.clock import db_now
from game import bots, engine, event_log, frames, outcomes, signals
from game.engine.bots import TAKEOVER_LEVEL as ENGINE_TAKEOVER_LEVEL
from game.errors import ServiceError
from game.models import Game, GameEvent, GameSeat
from lobby import services as lobby_services

log = logging.getLogger(__name__)

ACTION_TYPES = frozenset({"attack", "defend", "transfer", "take", "pass", "swap_trump", "catch"})
MAX_ACTION_KEYS = 4
MAX_MSG_ID = 64
TAKEOVER_LEVEL = ENGINE_TAKEOVER_LEVEL  # 004: the bot that plays a disconnected seat (the strongest level)
SAVE_FIELDS = ["state", "version", "deadline", "deadline_kind", "deadline_seats", "status", "result", "finished_at"]
FINISH_FIELDS = [*SAVE_FIELDS, "rated", "unrated_reason"]


def check_seconds() -> float:
    return float(settings.CHEATER_CHECK_SECONDS)


# ---------------------------------------------------------------- reads for sockets and pages


def viewer_seat(game: Game, player) -> int | None:
    """The seat `player` owns in `game` (also while a bot stands in for him), or None; a player who
    left the game sees it as a spectator (his seat's hand is the bot's now)."""
    if player is None or not player.is_authenticated:
        return None
    return (GameSeat.objects.filter(game=game, player=player, left_at__isnull=True)
            .values_list("number", flat=True).first())


def current_game(table_id: int) -> Game | None:
    """The game a table page shows: the running one, else the last one while the rematch offer lasts."""
    game = Game.objects.filter(table_id=table_id, status=Game.Status.PLAYING).order_by("-pk").first()
    if game is not None:
        return game
    if lobby_services.shows_last_game(table_id):
        return Game.objects.filter(table_id=table_id).order_by("-pk").first()
    return None


def connect_info(table_id: int, player) -> dict | None:
    """What a socket at /ws/tables/<id>/ needs on (re)connect; None if the table does not exist."""
    table_version = lobby_services.table_version(table_id)
    if table_version is None:
        return None
    game = current_game(table_id)
    info: dict[str, Any] = {"table_version": table_version, "game_id": None, "seat": None, "frame": None,
                            "playing": False}
    if game is not None:
        seat = viewer_seat(game, player)
        info.update(game_id=game.pk, seat=seat, frame=frames.view_frame(game, seat),
                    playing=game.status == Game.Status.PLAYING)
    return info


def republish(game_id: int) -> None:
    """Send every viewer the current frame again: a committed change whose frames may have died
    with its process (found when its mover resends it after reconnecting elsewhere)."""
    game = Game.objects.filter(pk=game_id).defer("initial_state").first()
    if game is not None:
        realtime.send(frames.messages(game, _state(game), frames.game_seats(game)))


def game_version(game_id: int) -> int | None:
    """The version a game is at (a socket's heartbeat compares it with the last frame it sent)."""
    return Game.objects.filter(pk=game_id).values_list("version", flat=True).first()


# ---------------------------------------------------------------- after a change


def _publish(game: Game, state: engine.GameState, seats: list[GameSeat] | None = None) -> None:
    """Under the lock: build every viewer's frame now, send them after the commit, then queue bots."""
    event_log.assert_written(game)
    seats = seats if seats is not None else frames.game_seats(game)
    realtime.send_on_commit(frames.messages(game, state, seats))
    if game.status == Game.Status.PLAYING:
        moves = bots.seats_to_move(state, seats)
        if moves:
            game_id, version = game.pk, game.version
            transaction.on_commit(lambda: bots.schedule_moves(game_id, version, moves, move_bot))
    else:
        table_id = game.table_id
        transaction.on_commit(lambda: lobby_services.game_finished(table_id))


def _set_deadline(game: Game, state: engine.GameState) -> None:
    now = game.db_now
    if state.result is not None or state.phase == "over":
        game.deadline, game.deadline_kind, game.deadline_seats = None, "", []
    elif state.phase == "check":
        game.deadline = now + timedelta(seconds=check_seconds())
        game.deadline_kind = Game.DeadlineKind.CHECK
        game.deadline_seats = []
    else:
        game.deadline = now + timedelta(seconds=game.turn_seconds or 30)
        game.deadline_kind = Game.DeadlineKind.TURN
        game.deadline_seats = engine.whose_turn(state)


def _save(game: Game, state: engine.GameState, seats: list | None = None) -> Game:
    """Inside the locked transaction, after events were appended: deadline, finish, save, publish."""
    game.state = state.to_json()
    _set_deadline(game, state)
    if state.result is not None and game.status == Game.Status.PLAYING:
        _finish(game, state)
        game.save(update_fields=FINISH_FIELDS)
    else:
        _write_move(game)
    _publish(game, state, seats)
    return game


MOVE_FIELDS = ("state", "version", "deadline", "deadline_kind", "deadline_seats")
MOVE_UPDATE_SQL = (f"UPDATE {Game._meta.db_table} SET " + ", ".join(f"{f} = %s" for f in MOVE_FIELDS)
                   + " WHERE id = %s")


def _write_move(game: Game) -> None:
    """The UPDATE of a move, as plain SQL (the ORM's query building was the largest CPU cost of a move,
    cProfile of the hot path; a move changes these five columns only), with the move's event rows
    inserted by the same statement."""
    values = [Game._meta.get_field(f).get_db_prep_save(getattr(game, f), connection) for f in MOVE_FIELDS]
    sql, params = event_log.written_with(game, MOVE_UPDATE_SQL, [*values, game.pk])
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


# The columns a move reads (initial_state, the largest, is never needed), the mover's seat and session
# generation, and on Postgres the game row locked with the statement's time and every seat for the
# frames: one round trip.
_MOVE_FIELDS = [f for f in Game._meta.concrete_fields if f.name != "initial_state"]
_MOVE_ATTNAMES = frozenset(f.attname for f in _MOVE_FIELDS)
_MOVE_COLUMNS = ", ".join(f"g.{f.column}" for f in _MOVE_FIELDS)
_PLAYERS = GameSeat._meta.get_field("player").related_model._meta.db_table
MOVE_LOCK_SQL = (f"SELECT {_MOVE_COLUMNS}, s.number, s.left_at, s.takeover_level, mp.session_generation, "
                 f"{{now}}, {{seats}} FROM {Game._meta.db_table} g "
                 f"JOIN {GameSeat._meta.db_table} s ON s.game_id = g.id AND s.player_id = %s "
                 f"JOIN {_PLAYERS} mp ON mp.id = s.player_id WHERE g.id = %s{{lock}}")
_POSTGRES_MOVE_LOCK_SQL = MOVE_LOCK_SQL.format(now="statement_timestamp()", lock=" FOR UPDATE OF g",
                                               seats=frames.SEATS_JSON_SQL.format(game="g"))
_SQLITE_MOVE_LOCK_SQL = MOVE_LOCK_SQL.format(now="NULL", lock="", seats="NULL")
_move_converters: dict[str, list] = {}  # per database vendor: [(column index, Col, converters)]


def _converters() -> list:
    """What the ORM would apply to each game column read by MOVE_LOCK_SQL (JSON decoding, SQLite's
    booleans and times), worked out once per database vendor."""
    found = _move_converters.get(connection.vendor)
    if found is None:
        found = []
        for index, field in enumerate(_MOVE_FIELDS):
            col = field.get_col(Game._meta.db_table)
            converters = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
            if converters:
                found.append((index, col, converters))
        _move_converters[connection.vendor] = found
    return found


def _lock_for_move(game_id: int, player_id: int) -> Game | None:
    """The game row locked for a move, with the mover's seat (seat_number, seat_left, seat_takeover),
    his session generation and, on Postgres, every seat as the frames need them (`locked_seats`; None
    elsewhere). A plain cursor and ``Game.from_db``: Django's raw-query machinery (column lookups and
    per-row model resolution) was a fifth of the move's CPU in the worker (py-spy)."""
    postgres = connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute(_POSTGRES_MOVE_LOCK_SQL if postgres else _SQLITE_MOVE_LOCK_SQL, [player_id, game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    count = len(_MOVE_FIELDS)
    values = list(row[:count])
    for index, col, converters in _converters():
        for convert in converters:
            values[index] = convert(values[index], col, connection)
    game = Game.from_db(connection.alias, _MOVE_ATTNAMES, values)
    game.seat_number, game.seat_left, game.seat_takeover, game.mover_generation, locked_at, seat_rows = row[count:]
    game.db_now = locked_at if postgres else timezone.now()
    game.locked_seats = frames.seats_from_json(seat_rows) if postgres else None
    return game


def _stop_clocks(game: Game, seats: list[GameSeat] | None = None) -> None:
    """An ended game's clocks all stop: its turn clock and every seat's disconnect clock (given its
    rows just read under the lock, only if one of them runs)."""
    game.deadline, game.deadline_kind, game.deadline_seats = None, "", []
    if seats is None or any(s.disconnect_deadline is not None for s in seats):
        GameSeat.objects.filter(game=game, disconnect_deadline__isnull=False).update(disconnect_deadline=None)
        for s in seats or ():
            s.disconnect_deadline = None


def _finish(game: Game, state: engine.GameState, status: str = Game.Status.FINISHED) -> None:
    """End the game: each seat's outcome and reason from game.outcomes (the one record every page
    reads), then the apps above record it (ratings fills each seat's rating change). The caller
    saves the row once (FINISH_FIELDS): at a game's end every ORM statement costs the process a
    millisecond of CPU that other tables' moves wait for."""
    event_log.write(game)  # the receivers read the whole log
    game.status = status
    game.finished_at = timezone.now()
    seats = outcomes.finishing_seats(game)
    _stop_clocks(game, seats)
    facts = outcomes.seat_facts(game, seats)
    decided = outcomes.decide(state.result or {}, facts, aborted=status == Game.Status.ABORTED)
    game.result = dict(state.result or {})
    game.result.update(
        outcomes=outcomes.outcome_rows(decided),
        left=[f.number for f in facts if f.left],
        timed_out=sorted(n for n, o in decided.items() if o == outcomes.LOST_ON_TIME),
        rated=False, unrated_reason="",
    )
    _tell_finished(game, seats)


def _tell_finished(game: Game, seats: list[GameSeat]) -> None:
    """The apps above hear of the end inside this transaction (a savepoint: their failure must not
    keep the game from ending: it then ends unrated). A receiver answers with its record: ``rated``,
    ``unrated_reason`` and ``seat_changes`` ({seat: (rating change, rating after)})."""
    game.rated, game.unrated_reason = False, ""
    changes: dict = {}
    try:
        with transaction.atomic():
            responses = signals.game_finished.send(sender=Game, game=game, seats=seats)
    except Exception:
        log.exception("a game_finished receiver failed for game %s; the game ends unrated", game.pk)
        game.unrated_reason = "rating failed"
    else:
        for _receiver, record in responses:
            if record is not None:
                game.rated = bool(record.rated)
                game.unrated_reason = str(record.unrated_reason or "")[:100]
                changes = dict(record.seat_changes)
    game.result = outcomes.with_ratings(game.result, game.rated, game.unrated_reason, changes)


def record_void(game_id: int) -> None:
    """Ratings voided this game's rating changes: its one record says so (unrated, "voided")."""
    with transaction.atomic():
        game = _locked_games().filter(pk=game_id).first()
        if game is None or game.result is None:
            return
        game.rated, game.unrated_reason = False, "voided"
        game.result = outcomes.with_ratings(game.result, False, "voided", {})
        game.save(update_fields=["rated", "unrated_reason", "result"])


# ---------------------------------------------------------------- locking


def _locked_games():
    """Game rows for update, each with the database's time of the locking statement (`db_now`):
    deadlines are set by that one clock, the one the timers judge them by."""
    return Game.objects.select_for_update(of=("self",)).defer("initial_state").annotate(db_now=Now())


def _lock(game_id: int) -> Game:
    game = _locked_games().filter(pk=game_id).first()
    if game is None:
        raise ServiceError("game_not_found")
    return game


def _lock_playing(game_id: int) -> Game | None:
    game = _locked_games().filter(pk=game_id).first()
    return game if game is not None and game.status == Game.Status.PLAYING else None


def _state(game: Game) -> engine.GameState:
    return engine.GameState.from_json(game.state)


# ---------------------------------------------------------------- starting a game


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
                disconnect_policy=lineup.disconnect_policy)
    game.db_now = db_now()
    _set_deadline(game, state)
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
    _publish(game, state, frames.game_seats(game))
    return game


def _first_attacker(table_id: int, players: int) -> int | None:
    for _receiver, seat in signals.choose_first_attacker.send(sender=Game, table_id=table_id, players=players):
        if isinstance(seat, int) and 1 <= seat <= players:
            return seat
    return None


# ---------------------------------------------------------------- a person's move


def validate_action(action: Any) -> dict:
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


class SessionMoved(Exception):
    """The mover's session generation is not the one his socket knew: a session of his ended since.
    Nothing was applied; the socket checks its session, then resends the move or closes."""


def apply_player_action(game_id: int, player, client_version: int, client_msg_id: str, action: Any,
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
            game = _lock_for_move(game_id, player.pk)
            if game is None:
                raise ServiceError("not_seated" if Game.objects.filter(pk=game_id).exists() else "game_not_found")
            if session_generation is not None and game.mover_generation != session_generation:
                raise SessionMoved
            seat = game.seat_number
            if game.status != Game.Status.PLAYING:
                raise ServiceError("game_finished")
            if game.seat_left is not None:
                raise ServiceError("left_game")
            if client_version != game.version:
                raise ServiceError("stale_version")
            state = _state(game)
            seats = game.locked_seats
            if game.seat_takeover:  # he is back and playing: his seat and hand are his again (004)
                state, seats = _hand_back_locked(game, state, seat)
            try:
                state = event_log.append(game, state, seat, action, source="player", client_msg_id=client_msg_id)
            except engine.IllegalAction as exc:
                raise ServiceError(exc.code) from exc
            _save(game, state, seats)
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


# a resent move that was already applied meets one of these before its duplicate id is noticed
LATE_CODES = frozenset({"stale_version", "game_finished", "left_game"})


def _resent(game_id: int, player, client_msg_id: str) -> Applied | None:
    """A refused or clashing move whose id was already applied: the client resent it (a reconnect)."""
    if not GameEvent.objects.filter(game_id=game_id, client_msg_id=client_msg_id,
                                    seat__in=GameSeat.objects.filter(game_id=game_id, player=player)
                                    .values("number")).exists():
        return None
    return Applied(game_id, game_version(game_id) or 0, duplicate=True)


# ---------------------------------------------------------------- bots


def apply_bot_action(game_id: int, seat: int, version: int, action: dict | None = None) -> Game | None:
    """A bot seat's move at `version` (idempotent: nothing if the game moved on or a person plays the
    seat). `action` is the bot's decision made off the web process; None decides here."""
    with transaction.atomic():
        game = _lock_playing(game_id)
        if game is None or game.version != version:
            return None
        gs = GameSeat.objects.filter(game=game, number=seat).first()
        if gs is None or not gs.bot_controlled:
            return None
        state = _state(game)
        if action is None:
            action = bots.decide(gs.bot_level or gs.takeover_level, engine.view_for(state, seat),
                                 bots.rng_seed(game.seed, game.version, seat))
            if action is None:
                return None
        try:
            state = event_log.append(game, state, seat, action, source="bot")
        except engine.IllegalAction:
            log.exception("bot %s at game %s seat %s chose an illegal move %r", gs.bot_level, game_id, seat, action)
            return None
        return _save(game, state)


def move_bot(game_id: int, seat: int, version: int) -> Game | None:
    """A queued bot move: decide outside any lock from the seat's own view, then apply it."""
    found = bot_view(game_id, seat, version)
    if found is None:
        return None
    level, view, seed = found
    action = bots.decide(level, view, seed)
    return None if action is None else apply_bot_action(game_id, seat, version, action)


def bot_view(game_id: int, seat: int, version: int) -> tuple[str, dict, str] | None:
    """(level, the seat's view, rng seed) for a bot that must move at `version`, or None."""
    row = (GameSeat.objects.filter(game_id=game_id, number=seat, game__status=Game.Status.PLAYING,
                                   game__version=version)
           .values("bot_level", "takeover_level", "game__state", "game__seed").first())
    if row is None or not (row["bot_level"] or row["takeover_level"]):
        return None
    view = engine.view_for(engine.GameState.from_json(row["game__state"]), seat)
    if not view["legal"]:
        return None
    return row["bot_level"] or row["takeover_level"], view, bots.rng_seed(row["game__seed"], version, seat)


# ---------------------------------------------------------------- deadlines


def fire_turn_deadline(game_id: int, version: int) -> Game | None:
    """The turn clock ran out at `version`: the automatic move (or loss) for every awaited seat."""
    with transaction.atomic():
        game = _lock_playing(game_id)
        if game is None or game.version != version or game.deadline_kind != Game.DeadlineKind.TURN:
            return None
        state = _state(game)
        for seat in list(game.deadline_seats or []):
            if state.result is not None or state.phase != "play":
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
            _set_deadline(game, state)
            game.save(update_fields=["deadline", "deadline_kind", "deadline_seats"])
            return None
        return _save(game, state)


def fire_check_deadline(game_id: int, version: int) -> Game | None:
    """The cheater check window ended at `version`: the round closes as pending."""
    with transaction.atomic():
        game = _lock_playing(game_id)
        if game is None or game.version != version or game.deadline_kind != Game.DeadlineKind.CHECK:
            return None
        try:
            state = event_log.append(game, _state(game), None, {"type": "end_check"}, source="server")
        except engine.IllegalAction:
            log.warning("end_check refused for game %s at version %s", game_id, version)
            return None
        return _save(game, state)


# ---------------------------------------------------------------- leaving, presence, takeover


def _bot_seats_event(game: Game, state: engine.GameState) -> tuple[engine.GameState, list[GameSeat]]:
    seats = frames.game_seats(game)
    played = [s.number for s in seats if s.bot_controlled]
    return event_log.append(game, state, None, {"type": "set_bots", "seats": played}, source="server"), seats


def _resign(game: Game, state: engine.GameState, seat: int, source: str) -> engine.GameState:
    return event_log.append(game, state, seat, {"type": "resign", "reason": "resign"}, source=source)


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
        return _leave_locked(game, gs, bot=game.disconnect_policy == Game.DisconnectPolicy.BOT)


def _leave_locked(game: Game, gs: GameSeat, bot: bool) -> Game:
    gs.left_at = game.db_now
    gs.disconnect_deadline = None
    lobby_services.player_left_game(game.table_id, gs.player_id)
    state = _state(game)
    if bot:
        gs.takeover_level = gs.takeover_level or TAKEOVER_LEVEL
        gs.save(update_fields=["left_at", "takeover_level", "disconnect_deadline"])
        state, seats = _bot_seats_event(game, state)
        if not any(s.player_id and not s.bot_level and s.left_at is None for s in seats):
            return _abandon(game, state, seats)
        return _save(game, state, seats)
    gs.save(update_fields=["left_at", "disconnect_deadline"])
    return _save(game, _resign(game, state, gs.number, "leave"))


def on_player_banned(sender, player_id: int, **kwargs) -> None:
    """accounts.signals.player_banned: in every running game of his a bot takes his seat, as for a
    leaver under the bot policy (he is recorded as having left); the others play on."""
    game_ids = list(GameSeat.objects.filter(player_id=player_id, left_at__isnull=True,
                                            game__status=Game.Status.PLAYING).values_list("game_id", flat=True))
    for game_id in game_ids:
        with transaction.atomic():
            game = _lock(game_id)
            gs = GameSeat.objects.filter(game=game, player_id=player_id).first()
            if game.status == Game.Status.PLAYING and gs is not None and gs.left_at is None:
                _leave_locked(game, gs, bot=True)


def _abandon(game: Game, state: engine.GameState, seats: list[GameSeat]) -> Game:
    """Every human left for good: the game is archived as aborted, never left hanging."""
    game.state = state.to_json()
    _finish(game, state, status=Game.Status.ABORTED)
    game.result = {**(game.result or {}), "reason": "abandoned"}
    game.save(update_fields=FINISH_FIELDS)
    _publish(game, state, seats)
    return game


def takeover(game_id: int, seat: int, level: str = TAKEOVER_LEVEL) -> Game | None:
    """A bot starts playing a human's seat (004 disconnect rule); his hand stays his."""
    with transaction.atomic():
        game = _lock_playing(game_id)
        if game is None:
            return None
        gs = GameSeat.objects.filter(game=game, number=seat).first()
        if gs is None or gs.bot_controlled:
            return None
        gs.takeover_level, gs.disconnect_deadline = level, None
        gs.save(update_fields=["takeover_level", "disconnect_deadline"])
        state, seats = _bot_seats_event(game, _state(game))
        return _save(game, state, seats)


def _hand_back_locked(game: Game, state: engine.GameState, seat: int) -> tuple[engine.GameState, list[GameSeat]]:
    GameSeat.objects.filter(game=game, number=seat).update(takeover_level="")
    return _bot_seats_event(game, state)


def hand_back(game_id: int, player) -> Game | None:
    """He is back (004): his seat and hand are his again, the bot stops."""
    with transaction.atomic():
        game = _lock_playing(game_id)
        if game is None:
            return None
        gs = GameSeat.objects.filter(game=game, player=player).first()
        if gs is None or not gs.takeover_level or gs.left_at is not None:
            return None
        state, seats = _hand_back_locked(game, _state(game), gs.number)
        return _save(game, state, seats)


def set_connected(game_id: int, player, connected: bool, since: datetime | None = None) -> None:
    """Presence of a seated human (socket connect/disconnect, the heartbeat sweep). A disconnect
    starts his absence clock at `since` (the last sign of life; now by default): everyone is told
    after 15 s, then he loses (policy "lose", at 30 s) or a bot plays for him (policy "bot", at
    15 + 60 s). A reconnect stops the clock and hands a taken-over seat back."""
    with transaction.atomic():
        game = _locked_games().filter(pk=game_id).first()
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
                state, seats = _hand_back_locked(game, _state(game), gs.number)
                _save(game, state, seats)
            elif changed:
                _publish(game, _state(game))
            return
        if not gs.connected:
            return
        gs.connected = False
        gs.disconnected_at = min(since or now, now)
        if game.status == Game.Status.PLAYING and gs.left_at is None and not gs.takeover_level:
            gs.disconnect_deadline = gs.disconnected_at + timedelta(seconds=frames.DISCONNECT_NOTICE_SECONDS)
        gs.save(update_fields=["connected", "disconnected_at", "disconnect_deadline"])
        _publish(game, _state(game))


_SEATS = GameSeat._meta.db_table
HEARTBEAT_SQL = (f"UPDATE {_SEATS} SET last_heartbeat = CURRENT_TIMESTAMP FROM {Game._meta.db_table} g, {_PLAYERS} p "
                 f"WHERE g.id = {_SEATS}.game_id AND g.id = %s AND {_SEATS}.player_id = %s AND {_SEATS}.connected "
                 f"AND {_SEATS}.takeover_level = '' AND p.id = {_SEATS}.player_id "
                 f"AND p.session_generation = COALESCE(%s, p.session_generation) RETURNING g.version")


def heartbeat(game_id: int, player, session_generation: int | None = None) -> int | None:
    """A ping from a seated player's socket: he is here (a missed disconnect event is repaired).
    Returns the game's version, so the socket can tell it missed a frame. The common case (already
    marked connected) is one UPDATE without the game row lock, which also checks the socket's
    `session_generation`: if it moved, SessionMoved is raised and nothing is written."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(HEARTBEAT_SQL, [game_id, player.pk, session_generation])
            row = cursor.fetchone()
        if row is not None:
            return row[0]
    if session_generation is not None and sessions.generation(player.pk) != session_generation:
        raise SessionMoved
    if connection.vendor != "postgresql" and GameSeat.objects.filter(
            game_id=game_id, player=player, connected=True, takeover_level="").update(
            last_heartbeat=Now()):  # SQLite (embedded): its RETURNING cannot read the joined game
        return game_version(game_id)
    set_connected(game_id, player, True)
    return game_version(game_id)


def fire_disconnect_deadline(game_id: int, seat_number: int) -> Game | None:
    """His absence clock reached its next step (idempotent: nothing if he is back or it is not due).
    Step 1, 15 s: everyone is told (and sees the countdown of step 2). Step 2: policy "lose" at 30 s,
    he (his pair) loses; policy "bot" at 15 + 60 s, a bot plays his seat until he returns."""
    with transaction.atomic():
        game = _lock_playing(game_id)
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
            _publish(game, _state(game))
            return game
        gs.disconnect_deadline = None
        if lose:
            gs.left_at = now
            lobby_services.player_left_game(game.table_id, gs.player_id)
            gs.save(update_fields=["disconnect_deadline", "left_at"])
            return _save(game, _resign(game, _state(game), seat_number, "disconnect"))
        gs.takeover_level = TAKEOVER_LEVEL
        gs.save(update_fields=["takeover_level", "disconnect_deadline"])
        state, seats = _bot_seats_event(game, _state(game))
        return _save(game, state, seats)


# ---------------------------------------------------------------- moderators


def abort_game(game_id: int, reason: str = "moderator") -> Game | None:
    """A moderator stops a running game: archived as aborted (unrated), everyone sees the end."""
    with transaction.atomic():
        game = _lock_playing(game_id)
        if game is None:
            return None
        state = _state(game)
        game.status = Game.Status.ABORTED
        game.finished_at = timezone.now()
        _stop_clocks(game)
        game.result = {"reason": "aborted", "by": reason[:100], "loser": None, "losers": [], "winners": [],
                       "draw": False, "left": [], "timed_out": []}
        game.result["outcomes"] = outcomes.outcome_rows(outcomes.for_game(game, aborted=True))
        game.result = outcomes.with_ratings(game.result, False, "aborted", {})
        game.rated, game.unrated_reason = False, "aborted"
        game.save(update_fields=[*SAVE_FIELDS, "rated", "unrated_reason"])
        _publish(game, state)
        return game


def on_table_closed(sender, table_id: int, reason: str, **kwargs) -> None:
    """A moderator closed a table (lobby's table_closed signal): its running game stops too."""
    for game_id in Game.objects.filter(table_id=table_id, status=Game.Status.PLAYING).values_list("pk", flat=True):
        abort_game(game_id, reason)
