"""Deadlines: firing the overdue ones (DESIGN.md, "Time is data").

Every pending deadline is a column (Game.deadline + deadline_kind, GameSeat.disconnect_deadline,
Table.countdown_deadline / rematch_deadline, Seat.inactive_deadline). Setting one costs a move
nothing beyond its UPDATE: no broker message. ONE sweeper fires them: ``sweep()``. WHEN to sweep is
the ``Pacer``'s decision: it reads the earliest pending deadline (one indexed query, at least every
TIMERS_SWEEP_SECONDS) and asks for a sweep the moment one falls due, plus a full sweep every
TIMERS_FULL_SWEEP_SECONDS for the derived deadlines (stale heartbeats, bot safety net) and retries.
Celery beat's scheduler (game/beat.py) enqueues the sweeps it asks for and a worker runs them; the
in-process ticker (the embedded default and the test live server) runs them itself. Every row
overdue by the DATABASE clock (``Now()``, the one clock all processes agree on) is fired.

Firing a row = one small transaction: lock the owning row with ``select_for_update(skip_locked=True)``
(Game for game deadlines, Table for table deadlines), re-check "still due, still the same version"
under the lock, and call the owning service inside that transaction, as a view would. Two sweeps
therefore never fire the same row twice, a duplicate / late / stale firing is a silent no-op, and a
sweeper killed mid-way loses nothing: the row is still overdue for the next sweep. Whatever goes
wrong with one row is logged and never stops the sweep or the worker.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import DurationField, ExpressionWrapper, F, Q, QuerySet
from django.db.models.functions import Now
from django.utils.dateparse import parse_datetime

from durak_site import clock
from durak_site.errors import ServiceError
from game import services as game_services
from game.models import Game, GameSeat
from lobby import services as lobby_services
from lobby.models import Seat, Table

logger = logging.getLogger("game.timers")

GAME_KINDS = ("turn", "check", "disconnect")
TABLE_KINDS = ("countdown", "rematch", "inactive")
KINDS = (*GAME_KINDS, *TABLE_KINDS, "heartbeat", "presence", "bot")


def heartbeat_timeout() -> timedelta:
    """A socket can vanish without a disconnect event: a seat whose last ping is older than this is gone."""
    return timedelta(seconds=settings.TIMERS_HEARTBEAT_TIMEOUT)


def bot_grace() -> timedelta:
    """Safety net for bot moves whose queued task was lost: a bot awaited this long is moved by the sweep."""
    return timedelta(seconds=settings.TIMERS_BOT_GRACE)


def lobby_heartbeats() -> bool:
    """Waiting-room seats are judged by Seat.last_seen too: the socket's pings refresh it every 10 s
    (lobby.services.touch_presence from the consumer's ping handler, and the room page's ping POST)."""
    return bool(settings.TIMERS_LOBBY_HEARTBEATS)


# --------------------------------------------------------------------------------------------------
# Firing one deadline


@dataclass(frozen=True)
class Fired:
    kind: str
    obj_id: int
    version: int | None
    late_ms: float  # DB now() minus the deadline when the lock was taken, plus the time to commit the firing


_warned: set[str] = set()


def _is_refusal(exc: Exception) -> bool:
    """A ServiceError from any app: the service refused a stale/finished target (expected, quiet)."""
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
        row = (_locked(Game.objects.filter(pk=game_id, status=Game.Status.PLAYING, deadline_kind=kind,
                                           deadline__lte=Now()), skip_locked)
               .annotate(db_now=Now()).values("version", "deadline", "db_now").first())
        if row is None:
            return None
        if version is not None and row["version"] != version:
            logger.debug("timers: %s of game %s was for v%s, game is at v%s", kind, game_id, version,
                         row["version"])
            return None
        func = game_services.fire_turn_deadline if kind == "turn" else game_services.fire_check_deadline
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
    parent = _lock_parent(GameSeat, Game, seat_id, skip_locked, status=Game.Status.PLAYING)
    if parent is None:
        return None
    game_id, game_version = parent
    seat = (GameSeat.objects.filter(pk=seat_id, disconnect_deadline__lte=Now())
            .annotate(db_now=Now()).values("number", "disconnect_deadline", "db_now").first())
    if seat is None:
        return None
    late = _late(seat["db_now"], seat["disconnect_deadline"])
    game_services.fire_disconnect_deadline(game_id, seat["number"])
    return Fired("disconnect", seat_id, game_version, late)


def _fire_heartbeat(seat_id: int, version: int | None, skip_locked: bool) -> Fired | None:
    """A seat still marked connected whose last ping is older than heartbeat_timeout(): it is gone."""
    parent = _lock_parent(GameSeat, Game, seat_id, skip_locked, status=Game.Status.PLAYING)
    if parent is None:
        return None
    game_id, game_version = parent
    seat = (GameSeat.objects.select_related("player", "game")
            .filter(_stale_heartbeat(), pk=seat_id, connected=True, player__isnull=False, bot_level="").first())
    if seat is None:
        return None
    logger.info("timers: game %s seat %s: no heartbeat since %s, treating as disconnected", game_id,
                seat.number, seat.last_heartbeat)
    game_services.set_connected(game_id, seat.player, False, since=seat.last_heartbeat or seat.game.started_at)
    return Fired("heartbeat", seat_id, game_version, 0.0)


def _stale_heartbeat() -> Q:
    """No ping for heartbeat_timeout(); a seat that never pinged counts from the game's start."""
    cutoff = Now() - heartbeat_timeout()
    return Q(last_heartbeat__lt=cutoff) | Q(last_heartbeat__isnull=True, game__started_at__lt=cutoff)


def _fire_table(kind: str):
    def firer(table_id: int, version: int | None, skip_locked: bool) -> Fired | None:
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
        func = game_services.fire_countdown if kind == "countdown" else lobby_services.fire_rematch_deadline
        late = _late(row["db_now"], row[field])
        func(table_id)
        return Fired(kind, table_id, row["version"], late)

    return firer


def _fire_inactive(seat_id: int, version: int | None, skip_locked: bool) -> Fired | None:
    parent = _lock_parent(Seat, Table, seat_id, skip_locked)
    if parent is None:
        return None
    table_id, table_version = parent
    seat = (Seat.objects.filter(pk=seat_id, inactive_deadline__lte=Now())
            .annotate(db_now=Now()).values("number", "inactive_deadline", "db_now").first())
    if seat is None:
        return None
    late = _late(seat["db_now"], seat["inactive_deadline"])
    lobby_services.fire_inactive_seats(table_id)
    return Fired("inactive", seat_id, table_version, late)


def _fire_presence(seat_id: int, version: int | None, skip_locked: bool) -> Fired | None:
    """Waiting room: a seat marked connected whose last ping is stale."""
    parent = _lock_parent(Seat, Table, seat_id, skip_locked,
                          status__in=[Table.Status.WAITING, Table.Status.COUNTDOWN])
    if parent is None:
        return None
    table_id, table_version = parent
    seat = Seat.objects.filter(pk=seat_id, connected=True, player__isnull=False,
                               last_seen__lt=Now() - heartbeat_timeout()).values("player_id").first()
    if seat is None:
        return None
    lobby_services.set_presence(table_id, seat["player_id"], False)
    return Fired("presence", seat_id, table_version, 0.0)


def _fire_bot(game_id: int, version: int | None, skip_locked: bool) -> Fired | None:
    """Safety net: the game awaits a bot-controlled seat and nobody made the bot move."""
    row = _locked(Game.objects.filter(pk=game_id, status=Game.Status.PLAYING), skip_locked).values(
        "version", "deadline_seats").first()
    if row is None or (version is not None and row["version"] != version):
        return None
    seats = _awaited_bot_seats(game_id, row["deadline_seats"])
    if not seats:
        return None
    game_services.apply_bot_action(game_id, seats[0], row["version"])
    return Fired("bot", game_id, row["version"], 0.0)


def _awaited_bot_seats(game_id: int, deadline_seats) -> list[int]:
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


def _pending() -> dict[str, QuerySet]:
    """Each deadline column and the rows whose value in it is still pending: one definition for what
    the column listers fire and what the pacer watches."""
    return {
        "deadline": Game.objects.filter(status=Game.Status.PLAYING),
        "disconnect_deadline": GameSeat.objects.filter(game__status=Game.Status.PLAYING),
        "countdown_deadline": Table.objects.filter(status=Table.Status.COUNTDOWN),
        "rematch_deadline": Table.objects.filter(status=Table.Status.REMATCH),
        "inactive_deadline": Seat.objects.all(),
    }


def _overdue(field: str) -> QuerySet:
    return _pending()[field].filter(**{f"{field}__lte": Now()})


def _due_game_deadlines():
    for pk, kind, version, deadline in (_overdue("deadline").order_by("deadline")
                                        .values_list("pk", "deadline_kind", "version", "deadline")):
        yield (kind or "turn", pk, version, deadline)


def _due_disconnects():
    for pk, deadline in (_overdue("disconnect_deadline").order_by("disconnect_deadline")
                         .values_list("pk", "disconnect_deadline")):
        yield ("disconnect", pk, None, deadline)


def _due_heartbeats():
    for pk, beat in (GameSeat.objects.filter(_stale_heartbeat(), game__status=Game.Status.PLAYING, connected=True,
                                             player__isnull=False, bot_level="")
                     .order_by().values_list("pk", "last_heartbeat")):
        yield ("heartbeat", pk, None, beat)


def _due_tables():
    for kind in ("countdown", "rematch"):
        field = f"{kind}_deadline"
        for pk, version, deadline in _overdue(field).order_by().values_list("pk", "version", field):
            yield (kind, pk, version, deadline)


def _due_seats():
    for pk, deadline in _overdue("inactive_deadline").order_by().values_list("pk", "inactive_deadline"):
        yield ("inactive", pk, None, deadline)


def _due_presence():
    if lobby_heartbeats():
        for pk, seen in (Seat.objects.filter(connected=True, player__isnull=False,
                                             table__status__in=[Table.Status.WAITING, Table.Status.COUNTDOWN],
                                             last_seen__lt=Now() - heartbeat_timeout())
                         .order_by().values_list("pk", "last_seen")):
            yield ("presence", pk, None, seen)


def _due_bots():
    """Bots awaited for longer than bot_grace(): their queued move was lost (e.g. a worker restart).
    The state changed at deadline - turn_seconds (every awaiting state restarts the turn timer)."""
    turn_field = "turn_seconds"
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


# the deadline columns (what the pacer watches) ... and the derived deadlines only a full sweep lists
_COLUMN_LISTERS = (_due_game_deadlines, _due_disconnects, _due_tables, _due_seats)
_LISTERS = (*_COLUMN_LISTERS, _due_heartbeats, _due_presence, _due_bots)


def _due(full: bool = True) -> list[tuple[str, int, int | None, object]]:
    """(kind, id, version, deadline) of every overdue row, oldest first per kind (``full=False``: the
    deadline columns only). A lister that fails (say a column a pending migration adds) is logged and
    skipped: the others still fire."""
    due: list[tuple[str, int, int | None, object]] = []
    for lister in _LISTERS if full else _COLUMN_LISTERS:
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


def sweep(limit: int = 500, full: bool = True) -> list[Fired]:
    """Fire every overdue deadline (at most ``limit`` rows this call). ``full=False`` (the pacer's sweep
    at a column's deadline) skips the derived ones: stale heartbeats, presence, the bot safety net.
    Never raises."""
    fired: list[Fired] = []
    try:
        due = _due(full)
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
# When to sweep: at the next deadline, not on a fixed beat


def _as_datetime(value) -> datetime | None:
    """An aware datetime: Postgres hands one back; raw SQLite text or, depending on its version and
    the expression, a naive datetime, both in UTC (what Django stores)."""
    if value is None:
        return None
    if not isinstance(value, datetime):
        value = parse_datetime(str(value))
        if value is None:
            return None
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def next_deadline(after: datetime | None = None) -> tuple[datetime, datetime | None]:
    """(the DB's now, the earliest pending deadline later than ``after``, or None) in ONE statement:
    ``SELECT (earliest of column 1), (earliest of column 2), ..., now()``, each an index range scan
    with ``ORDER BY column LIMIT 1`` (the column indexes; game_status_deadline for Game.deadline)."""
    parts: list[str] = []
    params: list = []
    for field, queryset in _pending().items():
        queryset = queryset.filter(**{f"{field}__isnull": False})
        if after is not None:
            queryset = queryset.filter(**{f"{field}__gt": after})
        sql, sql_params = queryset.order_by(field).values(field)[:1].query.sql_with_params()
        parts.append(f"({sql})")
        params.extend(sql_params)
    compiler = Game.objects.none().query.get_compiler(connection=connection)
    now_sql, now_params = compiler.compile(Now())
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {', '.join(parts)}, {now_sql}", [*params, *now_params])
        *values, now = cursor.fetchone()
    pending = [v for v in map(_as_datetime, values) if v is not None]
    return _as_datetime(now), min(pending, default=None)


class Pacer:
    """Decides when a sweep is needed; beat's scheduler and the in-process ticker both follow it.

    ``decide()`` reads the earliest deadline not yet covered by a sweep. Due: sweep now (every deadline
    up to the DB's now is then covered). Not due: sleep until it, at most ``poll`` seconds (a deadline
    set meanwhile is seen within ``poll``). Every ``full_every`` seconds a sweep is asked for anyway: it
    fires the derived deadlines (heartbeats, presence, the bot safety net) and retries whatever an
    earlier sweep could not fire (row locked, worker killed, service error). Idle, it costs one query
    per ``poll`` and one sweep per ``full_every``; no broker message per move.

    With a ``lead`` (beat: the broker and the worker's pick-up take time) a sweep is asked for that
    long before its deadline, to run at ``sweep_at`` (DB time): the worker waits for it (``wait_for``).
    """

    def __init__(self, poll: float | None = None, full_every: float | None = None, lead: float = 0.0) -> None:
        self.poll = float(poll if poll is not None else settings.TIMERS_SWEEP_SECONDS)
        self.full_every = float(full_every if full_every is not None else settings.TIMERS_FULL_SWEEP_SECONDS)
        self.lead = timedelta(seconds=lead)
        self.covered: datetime | None = None  # every deadline <= this (DB time) has had its sweep
        self.sweep_at: datetime | None = None  # when the sweep last asked for should run (None: at once)
        self.sweep_full = True  # whether it is the full sweep (else the deadline columns only)
        self._last_full = -float("inf")  # monotonic

    def decide(self) -> tuple[bool, float]:
        """(sweep now?, seconds to wait before deciding again). Never raises."""
        full = time.monotonic() - self._last_full >= self.full_every
        self.sweep_at = None
        try:
            now, upcoming = next_deadline(self.covered)
        except Exception:
            logger.exception("timers: reading the next deadline failed")
            _reset_connection()
            self.sweep_full = True
            if full:
                self._last_full = time.monotonic()
            return full, self.poll
        if full or (upcoming is not None and upcoming <= now + self.lead):
            at = now if full or upcoming <= now else upcoming
            self.sweep_at = None if at == now else at
            self.sweep_full = full
            self.covered = at if self.covered is None else max(self.covered, at)
            if full:
                self._last_full = time.monotonic()
            return True, 0.0
        wait = self.poll if upcoming is None else (upcoming - self.lead - now).total_seconds()
        return False, max(0.0, min(wait, self.poll, self.full_every - (time.monotonic() - self._last_full)))

    def retry(self) -> None:
        """The sweep asked for was not sent (broker down): ask again at the next decision."""
        self.covered = None
        self._last_full = -float("inf")


def wait_for(at: datetime, at_most: float = 1.0) -> None:
    """A sweep that arrives before its deadline (beat's lead) waits for it by the DB's clock."""
    delay = (at - clock.db_now()).total_seconds()
    if 0 < delay <= at_most:
        time.sleep(delay)


# --------------------------------------------------------------------------------------------------
# The in-process ticker (embedded default, and the daphne live server in tests)

_ticker: threading.Thread | None = None
_ticker_stop = threading.Event()


def run_paced(stop: threading.Event, pacer: Pacer | None = None) -> int:
    """Sweep whenever the pacer says so until ``stop`` is set; returns how many deadlines fired."""
    pacer = pacer or Pacer()
    total = 0
    while not stop.is_set():
        due, wait = pacer.decide()
        if due:
            try:
                total += len(sweep(full=pacer.sweep_full))
            except Exception:  # sweep() does not raise; never let the loop die anyway
                logger.exception("timers: ticker sweep failed")
                _reset_connection()
        elif stop.wait(wait):
            break
    return total


def _tick_loop(pacer: Pacer) -> None:
    logger.info("timers: in-process ticker running (next deadline, re-read every %.2f s)", pacer.poll)
    try:
        run_paced(_ticker_stop, pacer)
    finally:
        _reset_connection()  # this thread's own connection (the server-loop path closes its own)


def start_ticker(interval: float | None = None) -> threading.Thread:
    """Start (once per process) the daemon thread that sweeps when the pacer says (``interval``: its poll)."""
    global _ticker
    if _ticker is not None and _ticker.is_alive():
        return _ticker
    _ticker_stop.clear()
    _ticker = threading.Thread(target=_tick_loop, args=(Pacer(poll=interval),), name="timers-ticker",
                               daemon=True)
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
