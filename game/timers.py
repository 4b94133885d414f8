"""Deadlines: scheduling them and firing the overdue ones (DESIGN.md, "Time is data").

Every pending deadline is a column (Game.deadline + deadline_kind, GameSeat.disconnect_deadline,
Table.countdown_deadline / rematch_deadline, Seat.inactive_deadline). Two things fire them:

* ``schedule(kind, obj_id, version, at)`` — called by the services when they set a column: with
  ``TIMERS_BACKEND == "celery"`` it sends ``game.tasks.fire_deadline`` with ``eta=at`` (on commit);
  with ``"ticker"`` it does nothing, the in-process ticker sweeps.
* ``sweep()`` — the safety net (Celery beat every second, or the ticker every 0.2 s): every row that
  is overdue by the DATABASE clock (``Now()``, the one clock all processes agree on) is fired.

Firing a row = one small transaction: lock the owning row with ``select_for_update(skip_locked=True)``
(Game for game deadlines, Table for table deadlines), re-check "still due, still the same version"
under the lock, and call the owning service inside that transaction. Two workers therefore never
fire the same row twice, and a duplicate / late / stale firing is a silent no-op. Whatever goes
wrong with one row is logged and never stops the sweep or the worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.db.models.functions import Now

logger = logging.getLogger("game.timers")

GAME_KINDS = ("turn", "check", "disconnect")
TABLE_KINDS = ("countdown", "rematch", "inactive")
KINDS = (*GAME_KINDS, *TABLE_KINDS, "heartbeat", "presence", "bot")



def heartbeat_timeout() -> timedelta:
    """A socket can vanish without a disconnect event: a seat whose last ping is older than this is gone."""
    return timedelta(seconds=getattr(settings, "TIMERS_HEARTBEAT_TIMEOUT", 25))


def bot_grace() -> timedelta:
    """Safety net for bot moves whose queued task was lost: a bot awaited this long is moved by the sweep."""
    return timedelta(seconds=getattr(settings, "TIMERS_BOT_GRACE", 4))


def lobby_heartbeats() -> bool:
    """Waiting-room seats are judged by Seat.last_seen too: the socket's pings refresh it every 10 s
    (lobby.services.touch_presence from the consumer's ping handler, and the room page's ping POST)."""
    return bool(getattr(settings, "TIMERS_LOBBY_HEARTBEATS", True))


# --------------------------------------------------------------------------------------------------
# Scheduling


def schedule(kind: str, obj_id: int, version: int | None, at: datetime | None, **extra) -> None:
    """Arrange for deadline ``kind`` of ``obj_id`` (set for ``version``) to fire at ``at``.

    Safe to call inside or outside a transaction (it defers to ``on_commit``); never raises: if the
    broker is down the sweep still fires the row, a little later.
    """
    if kind not in KINDS:
        logger.error("timers.schedule: unknown kind %r (obj %s)", kind, obj_id)
        return
    if at is None:
        return
    transaction.on_commit(lambda: _send(kind, obj_id, version, at, extra))


def _send(kind: str, obj_id: int, version: int | None, at: datetime, extra: dict) -> None:
    try:
        if kind == "bot":
            _send_bot(obj_id, extra.get("seat"), version, at)
            return
        if settings.TIMERS_BACKEND != "celery":
            return  # the ticker sweeps the columns
        from game.tasks import fire_deadline

        fire_deadline.apply_async(args=(kind, obj_id, version), eta=at, expires=at + timedelta(hours=1))
    except Exception:
        logger.warning("timers: could not schedule %s %s v%s at %s; the sweep will fire it",
                       kind, obj_id, version, at, exc_info=True)


def _send_bot(game_id: int, seat: int | None, version: int | None, at: datetime) -> None:
    if settings.TIMERS_BACKEND == "celery":
        from game.tasks import bot_move

        bot_move.apply_async(args=(game_id, seat, version), eta=at, expires=at + timedelta(minutes=10))
        return
    from django.utils import timezone

    delay = max(0.0, (at - timezone.now()).total_seconds())
    timer = threading.Timer(delay, _call_in_server, args=(run_bot_move, game_id, seat, version))
    timer.daemon = True
    timer.start()


# --------------------------------------------------------------------------------------------------
# Firing one deadline


@dataclass(frozen=True)
class Fired:
    kind: str
    obj_id: int
    version: int | None
    late_ms: float  # DB now() minus the deadline when the lock was taken, plus the time to commit the firing


def _service(module: str, name: str) -> Callable | None:
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        _warn_once(f"{module}.{name}", "timers: %s.%s is missing; %s deadlines cannot fire yet", module, name,
                   name)
        return None


_warned: set[str] = set()


def _warn_once(key: str, msg: str, *args) -> None:
    if key not in _warned:
        _warned.add(key)
        logger.warning(msg, *args)


def _is_refusal(exc: Exception) -> bool:
    """A ServiceError from any app: the service refused a stale/finished target (expected, quiet)."""
    from durak_site.errors import ServiceError

    return isinstance(exc, ServiceError)


def fire(kind: str, obj_id: int, version: int | None = None, *, wait: bool = False,
         _key: tuple | None = None) -> Fired | None:
    """Fire deadline ``kind`` of ``obj_id`` if it is still due (and still ``version``, when given).

    Returns what fired, or None for a no-op (not due yet, moved on, locked by another firer, gone).
    ``wait=False`` skips a row another transaction holds (the sweep); ``wait=True`` waits for it (an
    eta task, which then usually finds the game moved on). Never raises.
    """
    try:
        firer = _FIRERS[kind]
    except KeyError:
        logger.error("timers: unknown deadline kind %r for %s", kind, obj_id)
        return None
    started = time.monotonic()
    try:
        with transaction.atomic():
            result = firer(obj_id, version, not wait)
        if result is not None:  # lateness of the committed firing, not just of taking the lock
            result = replace(result, late_ms=result.late_ms + (time.monotonic() - started) * 1000.0)
        return result
    except Exception as exc:
        if _key is not None:
            _backoff.mark(_key)
        if _is_refusal(exc):
            logger.info("timers: %s %s v%s refused by the service: %s", kind, obj_id, version, exc)
            return None
        logger.exception("timers: firing %s %s v%s failed", kind, obj_id, version)
        if connection.needs_rollback or not connection.is_usable():
            _reset_connection()
        return None


def _locked(queryset, skip_locked: bool):
    if connection.features.has_select_for_update:
        queryset = queryset.select_for_update(skip_locked=skip_locked and
                                              connection.features.has_select_for_update_skip_locked)
    return queryset


def _late(db_now: datetime, deadline: datetime) -> float:
    return (db_now - deadline).total_seconds() * 1000.0


def _fire_game(kind: str):
    def firer(game_id: int, version: int | None, skip_locked: bool) -> Fired | None:
        from game.models import Game

        row = (_locked(Game.objects.filter(pk=game_id, status=Game.Status.PLAYING, deadline_kind=kind,
                                           deadline__lte=Now()), skip_locked)
               .annotate(db_now=Now()).values("version", "deadline", "db_now").first())
        if row is None:
            return None
        if version is not None and row["version"] != version:
            logger.debug("timers: %s of game %s was for v%s, game is at v%s", kind, game_id, version,
                         row["version"])
            return None
        func = _service("game.services", "fire_turn_deadline" if kind == "turn" else "fire_check_deadline")
        if func is None:
            return None
        late = _late(row["db_now"], row["deadline"])
        func(game_id, row["version"])
        return Fired(kind, game_id, row["version"], late)

    return firer


def _lock_parent(child_model, parent_model, seat_id: int, skip_locked: bool, **parent_filter):
    """The first step of every per-seat firing: the seat's game (or table) row, locked (skipped when
    another firer holds it), with its version. None when the seat is gone or its parent does not match."""
    parent_field = f"{parent_model._meta.model_name}_id"  # game_id / table_id
    parent_id = child_model.objects.filter(pk=seat_id).values_list(parent_field, flat=True).first()
    if parent_id is None:
        return None
    row = _locked(parent_model.objects.filter(pk=parent_id, **parent_filter), skip_locked).values("version").first()
    return None if row is None else (parent_id, row["version"])


def _fire_disconnect(seat_id: int, version: int | None, skip_locked: bool) -> Fired | None:
    from game.models import Game, GameSeat

    parent = _lock_parent(GameSeat, Game, seat_id, skip_locked, status=Game.Status.PLAYING)
    if parent is None:
        return None
    game_id, game_version = parent
    seat = (GameSeat.objects.filter(pk=seat_id, disconnect_deadline__lte=Now())
            .annotate(db_now=Now()).values("number", "disconnect_deadline", "db_now").first())
    if seat is None:
        return None
    func = _service("game.services", "fire_disconnect_deadline")
    if func is None:
        return None
    late = _late(seat["db_now"], seat["disconnect_deadline"])
    func(game_id, seat["number"])
    return Fired("disconnect", seat_id, game_version, late)


def _fire_heartbeat(seat_id: int, version: int | None, skip_locked: bool) -> Fired | None:
    """A seat still marked connected whose last ping is older than heartbeat_timeout(): it is gone."""
    from game.models import Game, GameSeat

    parent = _lock_parent(GameSeat, Game, seat_id, skip_locked, status=Game.Status.PLAYING)
    if parent is None:
        return None
    game_id, game_version = parent
    seat = (GameSeat.objects.select_related("player")
            .filter(pk=seat_id, connected=True, player__isnull=False,
                    last_heartbeat__lt=Now() - heartbeat_timeout()).first())
    if seat is None:
        return None
    func = _service("game.services", "set_connected")
    if func is None:
        return None
    logger.info("timers: game %s seat %s: no heartbeat since %s, treating as disconnected", game_id,
                seat.number, seat.last_heartbeat)
    func(game_id, seat.player, False)
    return Fired("heartbeat", seat_id, game_version, 0.0)


def _fire_table(kind: str):
    def firer(table_id: int, version: int | None, skip_locked: bool) -> Fired | None:
        from lobby.models import Table

        field = "countdown_deadline" if kind == "countdown" else "rematch_deadline"
        status = Table.Status.COUNTDOWN if kind == "countdown" else Table.Status.REMATCH
        row = (_locked(Table.objects.filter(pk=table_id, status=status, **{f"{field}__lte": Now()}),
                       skip_locked)
               .annotate(db_now=Now()).values("version", field, "db_now").first())
        if row is None:
            return None
        if version is not None and row["version"] != version:
            logger.debug("timers: %s of table %s was for v%s, table is at v%s", kind, table_id, version,
                         row["version"])
            return None
        func = _service("lobby.services", "fire_countdown" if kind == "countdown" else "fire_rematch_deadline")
        if func is None:
            return None
        late = _late(row["db_now"], row[field])
        func(table_id)
        return Fired(kind, table_id, row["version"], late)

    return firer


def _fire_inactive(seat_id: int, version: int | None, skip_locked: bool) -> Fired | None:
    from lobby.models import Seat, Table

    parent = _lock_parent(Seat, Table, seat_id, skip_locked)
    if parent is None:
        return None
    table_id, table_version = parent
    seat = (Seat.objects.filter(pk=seat_id, inactive_deadline__lte=Now())
            .annotate(db_now=Now()).values("number", "inactive_deadline", "db_now").first())
    if seat is None:
        return None
    func = _service("lobby.services", "fire_inactive_seat")
    if func is None:
        return None
    late = _late(seat["db_now"], seat["inactive_deadline"])
    func(table_id, seat["number"])
    return Fired("inactive", seat_id, table_version, late)


def _fire_presence(seat_id: int, version: int | None, skip_locked: bool) -> Fired | None:
    """Waiting room: a seat marked connected whose last ping is stale."""
    from lobby.models import Seat, Table

    parent = _lock_parent(Seat, Table, seat_id, skip_locked,
                          status__in=[Table.Status.WAITING, Table.Status.COUNTDOWN])
    if parent is None:
        return None
    table_id, table_version = parent
    seat = Seat.objects.filter(pk=seat_id, connected=True, player__isnull=False,
                               last_seen__lt=Now() - heartbeat_timeout()).values("player_id").first()
    if seat is None:
        return None
    func = _service("lobby.services", "set_presence")
    if func is None:
        return None
    func(table_id, seat["player_id"], False)
    return Fired("presence", seat_id, table_version, 0.0)


def _fire_bot(game_id: int, version: int | None, skip_locked: bool) -> Fired | None:
    """Safety net: the game awaits a bot-controlled seat and nobody made the bot move."""
    from game.models import Game

    row = _locked(Game.objects.filter(pk=game_id, status=Game.Status.PLAYING), skip_locked).values(
        "version", "deadline_seats").first()
    if row is None or (version is not None and row["version"] != version):
        return None
    seats = _awaited_bot_seats(game_id, row["deadline_seats"])
    if not seats:
        return None
    func = _service("game.services", "apply_bot_action")
    if func is None:
        return None
    func(game_id, seats[0], row["version"])
    return Fired("bot", game_id, row["version"], 0.0)


def _awaited_bot_seats(game_id: int, deadline_seats) -> list[int]:
    from django.db.models import Q

    from game.models import GameSeat

    if not deadline_seats:
        return []
    return list(GameSeat.objects.filter(game_id=game_id, number__in=list(deadline_seats))
                .filter(~Q(bot_level="") | ~Q(takeover_level=""))
                .order_by("number").values_list("number", flat=True))


_FIRERS: dict[str, Callable[[int, int | None, bool], Fired | None]] = {
    "turn": _fire_game("turn"),
    "check": _fire_game("check"),
    "disconnect": _fire_disconnect,
    "heartbeat": _fire_heartbeat,
    "countdown": _fire_table("countdown"),
    "rematch": _fire_table("rematch"),
    "inactive": _fire_inactive,
    "presence": _fire_presence,
    "bot": _fire_bot,
}


def run_bot_move(game_id: int, seat: int | None, version: int | None) -> None:
    """The scheduled bot move (Celery task or in-process timer): the service re-checks everything."""
    func = _service("game.services", "apply_bot_action")
    if func is None:
        return
    try:
        func(game_id, seat, version)
    except Exception as exc:
        if _is_refusal(exc):
            logger.info("timers: bot move %s seat %s v%s refused: %s", game_id, seat, version, exc)
        else:
            logger.exception("timers: bot move %s seat %s v%s failed", game_id, seat, version)


# --------------------------------------------------------------------------------------------------
# The sweep


class _Backoff:
    """Per process: a row that keeps failing, or that its service leaves due, is retried less and less often.

    A correct service moves the column or the version when it fires, so the next sweep sees a new key.
    """

    def __init__(self) -> None:
        self._seen: dict[tuple, tuple[int, float]] = {}
        self._lock = threading.Lock()

    def allowed(self, key: tuple) -> bool:
        with self._lock:
            entry = self._seen.get(key)
        if entry is None:
            return True
        count, last = entry
        return time.monotonic() - last >= min(0.5 * 2.0 ** (count - 1), 60.0)

    def mark(self, key: tuple) -> None:
        with self._lock:
            count, _ = self._seen.get(key, (0, 0.0))
            self._seen[key] = (count + 1, time.monotonic())
        if count + 1 in (2, 10):
            logger.warning("timers: %s is still due after %s firings; its service does not clear it", key,
                           count + 1)

    def prune(self) -> None:
        cutoff = time.monotonic() - 300
        with self._lock:
            for key in [k for k, (_, last) in self._seen.items() if last < cutoff]:
                del self._seen[key]


_backoff = _Backoff()


def _due_game_deadlines():
    from game.models import Game

    for pk, kind, version, deadline in (Game.objects.filter(status=Game.Status.PLAYING, deadline__lte=Now())
                                        .order_by("deadline")
                                        .values_list("pk", "deadline_kind", "version", "deadline")):
        yield (kind or "turn", pk, version, deadline)


def _due_disconnects():
    from game.models import Game, GameSeat

    for pk, deadline in (GameSeat.objects.filter(game__status=Game.Status.PLAYING, disconnect_deadline__lte=Now())
                         .order_by("disconnect_deadline").values_list("pk", "disconnect_deadline")):
        yield ("disconnect", pk, None, deadline)


def _due_heartbeats():
    from game.models import Game, GameSeat

    for pk, beat in (GameSeat.objects.filter(game__status=Game.Status.PLAYING, connected=True,
                                             player__isnull=False, last_heartbeat__lt=Now() - heartbeat_timeout())
                     .order_by().values_list("pk", "last_heartbeat")):
        yield ("heartbeat", pk, None, beat)


def _due_tables():
    from lobby.models import Table

    for pk, version, deadline in (Table.objects.filter(status=Table.Status.COUNTDOWN, countdown_deadline__lte=Now())
                                  .order_by().values_list("pk", "version", "countdown_deadline")):
        yield ("countdown", pk, version, deadline)
    for pk, version, deadline in (Table.objects.filter(status=Table.Status.REMATCH, rematch_deadline__lte=Now())
                                  .order_by().values_list("pk", "version", "rematch_deadline")):
        yield ("rematch", pk, version, deadline)


def _due_seats():
    from lobby.models import Seat, Table

    for pk, deadline in (Seat.objects.filter(inactive_deadline__lte=Now())
                         .order_by().values_list("pk", "inactive_deadline")):
        yield ("inactive", pk, None, deadline)
    if lobby_heartbeats():
        for pk, seen in (Seat.objects.filter(connected=True, player__isnull=False,
                                             table__status__in=[Table.Status.WAITING, Table.Status.COUNTDOWN],
                                             last_seen__lt=Now() - heartbeat_timeout())
                         .order_by().values_list("pk", "last_seen")):
            yield ("presence", pk, None, seen)


def _due_bots():
    """Bots awaited for longer than bot_grace(): their queued move was lost (e.g. a worker restart).
    The state changed at deadline - turn_seconds (every awaiting state restarts the turn timer)."""
    from django.db.models import DurationField, ExpressionWrapper, F, Q

    from game.models import Game

    turn_field = _game_turn_seconds_field()
    bot_games = (Game.objects.filter(status=Game.Status.PLAYING, deadline__isnull=False, deadline_kind="turn")
                 .filter(Q(seats__bot_level__gt="") | Q(seats__takeover_level__gt="")))
    if connection.vendor == "postgresql":  # narrow it in the database; SQLite (embedded) is small anyway
        bot_games = bot_games.filter(deadline__lte=Now() + ExpressionWrapper(
            F(turn_field) * timedelta(seconds=1), output_field=DurationField()) - bot_grace())
    bot_games = (bot_games.annotate(db_now=Now()).order_by().distinct()
                 .values_list("pk", "version", "deadline_seats", "deadline", turn_field, "db_now"))
    for pk, version, seats, deadline, turn_seconds, db_now in bot_games:
        changed = deadline - timedelta(seconds=turn_seconds or 30)
        if db_now - changed >= bot_grace() and _awaited_bot_seats(pk, seats):
            yield ("bot", pk, version, deadline)


_LISTERS = (_due_game_deadlines, _due_disconnects, _due_heartbeats, _due_tables, _due_seats, _due_bots)


def _due() -> list[tuple[str, int, int | None, object]]:
    """(kind, id, version, deadline) of every overdue row, oldest first per kind. A lister that fails
    (say a column a pending migration adds) is logged and skipped: the others still fire."""
    due: list[tuple[str, int, int | None, object]] = []
    for lister in _LISTERS:
        # inside someone's transaction a failed query must not poison it (a savepoint); else autocommit
        guard = transaction.atomic() if connection.in_atomic_block else contextlib.nullcontext()
        try:
            with guard:
                due.extend(lister())
        except Exception:
            key = f"lister:{lister.__name__}"
            if key not in _warned:
                _warned.add(key)
                logger.exception("timers: listing %s failed; the other deadlines still fire", lister.__name__)
            else:
                logger.debug("timers: %s failed", lister.__name__, exc_info=True)
            if not connection.is_usable():
                _reset_connection()
    return due


def _game_turn_seconds_field() -> str:
    """The turn timer the game runs with: frozen on the game when it has the column, else the table's."""
    from django.core.exceptions import FieldDoesNotExist

    from game.models import Game

    try:
        Game._meta.get_field("turn_seconds")
        return "turn_seconds"
    except FieldDoesNotExist:
        return "table__turn_seconds"


def sweep(limit: int = 500) -> list[Fired]:
    """Fire every overdue deadline (at most ``limit`` rows this call). Never raises."""
    fired: list[Fired] = []
    try:
        due = _due()
    except Exception:
        logger.exception("timers: the sweep could not list the overdue rows")
        _reset_connection()
        return fired
    for kind, obj_id, version, deadline in due[:limit]:
        key = (kind, obj_id, version, deadline)
        if not _backoff.allowed(key):
            continue
        result = fire(kind, obj_id, version, _key=key)
        if result is not None:
            fired.append(result)
            _note_fired(result)
            _backoff.mark(key)  # harmless when the service moved the row on (a new key next time)
    _backoff.prune()
    return fired


def _note_fired(result: Fired) -> None:
    level = logging.WARNING if result.late_ms > 2000 and result.kind in ("turn", "check", "countdown") else \
        logging.DEBUG
    logger.log(level, "timers: fired %s %s v%s, %.0f ms late", result.kind, result.obj_id, result.version,
               result.late_ms)


def _reset_connection() -> None:
    with contextlib.suppress(Exception):
        connection.close()


# --------------------------------------------------------------------------------------------------
# The in-process ticker (embedded default, and the daphne live server in tests)

_ticker: threading.Thread | None = None
_ticker_stop = threading.Event()


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """daphne's asyncio loop (twisted asyncioreactor), when this process is a running daphne server."""
    reactor = sys.modules.get("twisted.internet.reactor")
    loop = getattr(reactor, "_asyncioEventloop", None)
    if loop is not None and loop.is_running():
        return loop
    return None


_private = {"pid": None, "loop": None, "executor": None}
_private_lock = threading.Lock()


def _private_loop():
    """A per-process event loop thread plus one sync thread (re-made after a fork: prefork children)."""
    from concurrent.futures import ThreadPoolExecutor

    with _private_lock:
        loop = _private["loop"]
        if _private["pid"] != os.getpid() or loop is None or loop.is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="timers-loop", daemon=True).start()
            executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="timers-sync")
            _private.update(pid=os.getpid(), loop=loop, executor=executor)
        return _private["loop"], _private["executor"]


def call_on_loop(func: Callable, *args):
    """Run ``func(*args)`` (sync) as if under an ASGI server: in a sync thread whose async_to_sync calls
    go to ONE long-lived event loop — daphne's when this process is a server, else a private one.

    Why: the services broadcast with ``async_to_sync(channel_layer.group_send)``. Called from a plain
    thread, each call spins up a fresh event loop and a fresh Redis connection (channels-redis pools
    are per loop): ~50 ms per send on a busy box. On a persistent loop the pool is reused (~5 ms);
    that is most of a firing's cost. Inside a transaction (tests) or on the sync thread itself it is
    a plain call.
    """
    if connection.in_atomic_block or threading.current_thread().name.startswith("timers-sync"):
        return func(*args)
    from asgiref.sync import sync_to_async

    def call():
        try:
            return func(*args)
        finally:
            close_old_connections()

    loop = _server_loop()
    if loop is not None:
        runner = sync_to_async(call, thread_sensitive=True)
    else:
        loop, executor = _private_loop()
        runner = sync_to_async(call, thread_sensitive=False, executor=executor)

    async def run():
        return await runner()

    return asyncio.run_coroutine_threadsafe(run(), loop).result(timeout=300)


_call_in_server = call_on_loop


def close_loop_connections() -> None:
    """Close the database connection of this process's private sync thread (tests, before the test DB goes)."""
    executor = _private["executor"] if _private["pid"] == os.getpid() else None
    if executor is not None:
        executor.submit(_reset_connection).result(timeout=30)


def _tick_loop(interval: float) -> None:
    logger.info("timers: in-process ticker running every %.2f s", interval)
    try:
        while not _ticker_stop.wait(interval):
            try:
                _call_in_server(sweep)
            except Exception:
                logger.exception("timers: ticker sweep failed")
                _reset_connection()
    finally:
        _reset_connection()  # this thread's own connection (the server-loop path closes its own)


def start_ticker(interval: float | None = None) -> threading.Thread:
    """Start (once per process) the daemon thread that sweeps every ``interval`` seconds."""
    global _ticker
    if _ticker is not None and _ticker.is_alive():
        return _ticker
    interval = interval or float(getattr(settings, "TIMERS_TICK_SECONDS", 0.2))
    _ticker_stop.clear()
    _ticker = threading.Thread(target=_tick_loop, args=(interval,), name="timers-ticker", daemon=True)
    _ticker.start()
    return _ticker


def stop_ticker(timeout: float = 5.0) -> None:
    global _ticker
    _ticker_stop.set()
    if _ticker is not None:
        _ticker.join(timeout)
    _ticker = None


SERVER_PROGRAMS = {"daphne", "uvicorn", "gunicorn", "hypercorn"}


def is_server_process(argv: list[str] | None = None, environ=None) -> bool:
    """Is this process serving the site (runserver's serving child, daphne, ...), not migrate/tests?"""
    argv = sys.argv if argv is None else argv
    environ = os.environ if environ is None else environ
    if not argv:
        return False
    program = os.path.basename(argv[0])
    if program in SERVER_PROGRAMS:
        return True
    if len(argv) > 1 and argv[1] == "runserver":
        # with the autoreloader only the child (RUN_MAIN=true) serves; the parent just watches files
        return environ.get("RUN_MAIN") == "true" or "--noreload" in argv
    return False


def maybe_start_ticker() -> bool:
    """Called from GameConfig.ready(): start the ticker where it belongs.

    TIMERS_TICKER=1 forces it on (e.g. a daphne process in tests even when Celery is configured),
    TIMERS_TICKER=0 forces it off; otherwise it runs in server processes when TIMERS_BACKEND is "ticker".
    """
    flag = os.environ.get("TIMERS_TICKER", "").strip().lower()
    if flag in {"0", "false", "no", "off"}:
        return False
    if flag in {"1", "true", "yes", "on"} or (settings.TIMERS_BACKEND == "ticker" and is_server_process()):
        start_ticker()
        return True
    return False
