"""What a socket is sent about a game: one redacted frame per viewer, never the state itself.

Each seat gets ``engine.view_for(state, seat)`` (its own hand only), everyone else the seat-less
spectator view. The public facts about the seats (nick, bot, presence and its clocks) come from the
GameSeat rows. Read-only: game.services decides when frames are sent.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple, cast

from django.conf import settings
from django.db import connection
from django.utils import timezone

from durak_site import realtime
from game import engine, move_log, protocol
from game.engine.hints import why_not
from game.models import Game, GameEvent, GameSeat
from game.protocol.table import BotPlayed, FrameView, GameResult, LogEntry, SeatFacts, State
from lobby.table_settings import TURN_SECONDS

DISCONNECT_NOTICE_SECONDS = 15  # docs/RULES.md#disconnect: after 15 s offline everyone sees it
DISCONNECT_TAKEOVER_SECONDS = 60  # docs/RULES.md#disconnect: then a bot plays his seat
DISCONNECT_LOSE_SECONDS = 30  # docs/RULES.md#disconnect: the "lose" policy's 30 s
BOT_PLAYED_TOLD_FOR = timedelta(minutes=10)  # a takeover that ended longer ago is old news


class SeatRow(NamedTuple):
    """The public facts of one game seat, read in one query with its player's nick."""

    number: int
    player_id: int | None
    nick: str
    bot_level: str
    takeover_level: str
    connected: bool
    disconnected_at: datetime | None
    left_at: datetime | None

    @property
    def bot_controlled(self) -> bool:
        return bool(self.bot_level or self.takeover_level)


SEATS_SQL = (
    "SELECT s.number, s.player_id, COALESCE(p.nick, ''), s.bot_level, s.takeover_level, s.connected, "
    f"s.disconnected_at, s.left_at FROM {GameSeat._meta.db_table} s "
    f"LEFT JOIN {GameSeat._meta.get_field('player').related_model._meta.db_table} p ON p.id = s.player_id "
    "WHERE s.game_id = %s ORDER BY s.number"
)


def game_seats(game: Game) -> list[SeatRow]:
    """Every seat of `game`, in one plain query (the hot path: every change publishes them)."""
    with connection.cursor() as cursor:
        cursor.execute(SEATS_SQL, [game.pk])
        rows = cursor.fetchall()
    return [SeatRow(n, pid, nick, bot, takeover, bool(on), _aware(off), _aware(left))
            for n, pid, nick, bot, takeover, on, off, left in rows]


# The same rows as one JSON array, as a subquery of a statement that reads the game row `{game}` (Postgres):
# a move reads its seats with its lock, one round trip fewer.
SEATS_JSON_SQL = (
    "(SELECT json_agg(json_build_array(fs.number, fs.player_id, COALESCE(fp.nick, ''), fs.bot_level, "
    "fs.takeover_level, fs.connected, fs.disconnected_at, fs.left_at) ORDER BY fs.number) "
    f"FROM {GameSeat._meta.db_table} fs "
    f"LEFT JOIN {GameSeat._meta.get_field('player').related_model._meta.db_table} fp ON fp.id = fs.player_id "
    "WHERE fs.game_id = {game}.id)"
)


def seats_from_json(rows: list[list]) -> list[SeatRow]:
    """SEATS_JSON_SQL's array as SeatRows (its times are ISO strings)."""
    return [SeatRow(n, pid, nick, bot, takeover, bool(on), _moment(off), _moment(left))
            for n, pid, nick, bot, takeover, on, off, left in rows]


def _moment(text: str | None) -> datetime | None:
    return _aware(datetime.fromisoformat(text)) if text is not None else None


def _aware(moment: datetime | None) -> datetime | None:
    """Plain SQL on SQLite (the embedded default) reads a naive UTC datetime."""
    if moment is None or timezone.is_aware(moment):
        return moment
    return timezone.make_aware(moment, UTC)


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def seat_facts(game: Game, seats: list[SeatRow], now: datetime | None = None) -> list[SeatFacts]:
    """Public facts about each seat: nick, bot, presence, and when an absence costs him what."""
    now = now or timezone.now()
    lose_policy = game.disconnect_policy == Game.DisconnectPolicy.LOSE
    out: list[SeatFacts] = []
    for s in seats:
        human = bool(s.player_id and not s.bot_level)
        absent = human and not s.connected and s.disconnected_at is not None and s.left_at is None
        gone = s.disconnected_at if absent else None  # set exactly when he is absent
        takeover_at: datetime | None = None
        lose_at: datetime | None = None
        if gone is not None and not s.takeover_level and game.status == Game.Status.PLAYING:
            if lose_policy:
                lose_at = gone + timedelta(seconds=DISCONNECT_LOSE_SECONDS)
            else:
                takeover_at = gone + timedelta(
                    seconds=DISCONNECT_NOTICE_SECONDS + DISCONNECT_TAKEOVER_SECONDS)
        out.append({
            "number": s.number,
            "nick": s.nick,
            "bot": bool(s.bot_level or s.takeover_level),
            "bot_level": s.bot_level or s.takeover_level or "",
            "takeover": bool(s.takeover_level),
            "connected": True if s.bot_level else s.connected,
            "away": bool(gone is not None and now - gone >= timedelta(seconds=DISCONNECT_NOTICE_SECONDS)),
            "takeover_at": _iso(takeover_at),
            "lose_at": _iso(lose_at),
            "left": s.left_at is not None,
        })
    return out


def deadline_seconds(game: Game) -> float | None:
    """The full length of the running deadline (the client draws its clock from it)."""
    if game.deadline is None or not game.deadline_kind:
        return None
    if game.deadline_kind == Game.DeadlineKind.CHECK:
        return check_seconds()
    return turn_seconds(game)


def check_seconds() -> float:
    """The cheater check window after a round's last card (settings.CHEATER_CHECK_SECONDS)."""
    return float(settings.CHEATER_CHECK_SECONDS)


def turn_seconds(game: Game, seats: list[int] | None = None) -> float:
    """The turn clock of a game (its table's setting; the default for a game recorded without one),
    halved when a seat it runs for (`seats`, else the running deadline's) halved its own clock."""
    full = float(game.turn_seconds or TURN_SECONDS.default)
    halved = game.halved_seats or ()
    running = game.deadline_seats if seats is None else seats
    return full / 2 if halved and any(s in halved for s in running or ()) else full


def frame(game: Game, state: engine.GameState, seat: int | None, seats: list[SeatFacts]) -> State:
    """The wire frame of `seat` (None: a spectator): game/protocol/table.py's `State`."""
    view = engine.view_for(state, seat)  # never the table's reads: only the bots' views carry them
    if not state.rules.memory_aid:
        # what the table rule turns off is not sent: only the client drew the aid, so a modified
        # client would have shown it anyway
        view["known"] = {}
        view["gone"] = []
    return {
        "type": "state",
        "game_id": game.pk,
        "table_id": game.table_id,
        "status": cast("Any", game.status),  # a Game.Status value
        "version": game.version,
        "seat": seat,
        "view": cast("FrameView", view),  # the view, its bots-only keys dropped above
        "hints": why_not(view) if seat is not None else {},
        "deadline": _iso(game.deadline),
        "deadline_kind": cast("Any", game.deadline_kind or None),  # a Game.DeadlineKind value
        "deadline_seconds": deadline_seconds(game),
        "deadline_seats": list(game.deadline_seats or []),
        "seats": seats,
        "result": cast("GameResult | None", game.result),  # game/services/finish.py writes it
    }


def view_frame(game: Game, seat: int | None) -> State:
    """The frame `seat` sees now (one query for the seats; a seated viewer's also reads whether a
    bot played his seat, `bot_played`: this frame is read on a socket's (re)connect, never per move)."""
    out = frame(game, engine.GameState.from_json(game.state), seat, seat_facts(game, game_seats(game)))
    if game.status == Game.Status.PLAYING:
        out["log"] = cast("list[LogEntry]", move_log.history(game))  # the move log's recent moves: a reload or a return keeps them
    if seat is not None and game.status == Game.Status.PLAYING:
        out["bot_played"] = bot_played(game, seat)
    elif seat is not None and game.status == Game.Status.FINISHED:
        out["bot_played"] = bot_played(game, seat, finished_at=game.finished_at)
    return out


def bot_played(game: Game, seat: int, now: datetime | None = None,
               finished_at: datetime | None = None) -> BotPlayed | None:
    """The last stretch a bot played `seat` for its absent owner (004), from the log's set_bots
    events: {"since", "until" (None: still playing), "moves"} — so a player who comes back is told
    for how long and how many moves were made for him. None if there was none lately.

    Of a finished game (`finished_at`) the last stretch however old, and "finished": True when the
    bot was still in the seat at the end: it finished the game for him."""
    now = now or timezone.now()
    events = (GameEvent.objects.filter(game=game, seat__isnull=True, action__type="set_bots")
              .order_by("seq").values_list("seq", "action", "created_at"))
    start: tuple[int, datetime | None] | None = None
    last: tuple[tuple[int, datetime | None], tuple[int, datetime | None] | None] | None = None
    for seq, action, at in events:
        on = seat in ((action or {}).get("seats") or [])
        if on and start is None:
            start = (seq, _aware(at))
        elif not on and start is not None:
            last, start = (start, (seq, _aware(at))), None
    if start is not None:
        last = (start, None)
    if last is None:
        return None
    (since_seq, since), end = last
    if finished_at is not None:
        moves = GameEvent.objects.filter(game=game, seat=seat, source="bot", seq__gt=since_seq)
        if end is not None:
            moves = moves.filter(seq__lt=end[0])
        return {"since": _iso(since), "until": _iso(end[1] if end else _aware(finished_at)),
                "moves": moves.count(), "finished": end is None}
    if end is not None and end[1] is not None and now - end[1] > BOT_PLAYED_TOLD_FOR:
        return None
    moves = GameEvent.objects.filter(game=game, seat=seat, source="bot", seq__gt=since_seq)
    if end is not None:
        moves = moves.filter(seq__lt=end[0])
    return {"since": _iso(since), "until": _iso(end[1]) if end else None, "moves": moves.count()}


def messages(game: Game, state: engine.GameState, seats: list[SeatRow]) -> list[realtime.Message]:
    """Every seat's frame to its group, and the spectators' frame to theirs, each encoded to its wire
    text once here (on the worker thread, not on the loop that serves every socket)."""
    facts = seat_facts(game, seats)
    owners = {s.number: seat_viewer(s) for s in seats}
    viewers: list[tuple[str, int | None]] = [(realtime.seat_group(game.table_id, n), n) for n in range(1, state.n + 1)]
    viewers.append((realtime.watch_group(game.table_id), None))
    stamp = time.time()  # under the game's lock: a later change of the same version has a later stamp
    return [(group, {"type": "game.frame", "game_id": game.pk, "version": game.version, "seat": seat,
                     "stamp": stamp,
                     "viewer": owners.get(seat) if seat is not None else None,
                     "text": protocol.encode(protocol.TABLE, frame(game, state, seat, facts))})
            for group, seat in viewers]


def seat_viewer(seat: SeatRow) -> int | None:
    """The one player whose sockets may pass on `seat`'s private frame: its human owner until he
    leaves the game (a bot that stands in for him while he is away keeps it his). The socket checks
    this against its own player, so a frame queued on a seat group it has since left, or sent to
    a number someone else held in an earlier game, never reaches anyone else."""
    if seat.player_id is None or seat.bot_level or seat.left_at is not None:
        return None
    return seat.player_id
