"""The only writer of chat models: who may read and write a table's chat, messages, reactions,
reports and the moderators' actions. Each change is one transaction; what the sockets must hear
leaves after the commit (durak_site.realtime), to the table's chat group only.
"""

from __future__ import annotations

import logging
import unicodedata
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import formats, timezone

from accounts import services as accounts_services
from accounts.models import Player
from durak_site import profanity, ratelimit, realtime
from durak_site.errors import ServiceError
from game import access as game_access
from game import services as game_services
from lobby.models import Seat, Table

from .models import MAX_LENGTH, ChatMute, ChatSettings, Message, ModerationLog, Report

log = logging.getLogger(__name__)

HISTORY = 50  # messages a socket gets on (re)connect
PLAYER_LIMIT = (5, 10)  # at most 5 messages in 10 s per player
TABLE_LIMIT = (20, 10)  # at most 20 messages in 10 s per table
REACTION_LIMIT = (3, 5)  # at most 3 reactions in 5 s per player
REPORT_LIMIT = (5, 10 * 60)  # at most 5 reports in 10 minutes per reader ...
REPORT_DAILY_LIMIT = (20, 24 * 60 * 60)  # ... and 20 a day
REASON_LENGTH = 300  # a report's reason (the report form's maxlength, Report.reason's max_length)
PHRASES = ("good_game", "wow", "thanks", "good_luck", "oops", "hurry")
EMOJI = {"like": "👍", "laugh": "😂", "wow": "😮", "sad": "😢", "angry": "😠", "clap": "👏"}
REACTIONS = frozenset(PHRASES) | frozenset(f"emoji_{key}" for key in EMOJI)
MUTE_PERIODS = {"15m": timedelta(minutes=15), "1h": timedelta(hours=1), "1d": timedelta(days=1),
                "7d": timedelta(days=7), "30d": timedelta(days=30)}


def chat_group(table_id: int) -> str:
    """The sockets that may read a table's chat (joined per socket after the access check)."""
    return f"table-{table_id}-chat"


@dataclass(frozen=True)
class Access:
    """What one viewer may do with one table's chat."""

    read: bool
    write: bool
    manage: bool  # the host: may change the chat settings
    player: bool  # seated at the table or in its game (not a spectator)


NO_ACCESS = Access(False, False, False, False)


def settings_for(table_id: int) -> ChatSettings:
    """A table's chat settings (the defaults, unsaved, until its chat is first written to)."""
    return ChatSettings.objects.filter(table_id=table_id).first() or ChatSettings(table_id=table_id)


def _locked_settings(table_id: int) -> ChatSettings:
    """Inside a transaction: the table's settings row, created if need be, locked."""
    found = ChatSettings.objects.select_for_update().filter(table_id=table_id).first()
    if found is None:
        ChatSettings.objects.get_or_create(table_id=table_id)  # a racing first writer may have made it
        found = ChatSettings.objects.select_for_update().get(table_id=table_id)
    return found


def access(table_id: int, user: Any, invited: bool = False, game_seat: int | None = None) -> Access:
    """A viewer's rights: private tables only for the host, seated players, invitees and staff;
    spectators as the table's setting says. `invited` = the session holds the table's invite."""
    if user is None or not user.is_authenticated:
        return NO_ACCESS
    table = Table.objects.filter(pk=table_id).values("private", "host_id").first()
    if table is None:
        return NO_ACCESS
    host = table["host_id"] == user.pk
    player = game_seat is not None or Seat.objects.filter(table_id=table_id, player=user).exists()
    if not player:
        game = game_services.current_game(table_id)
        player = game is not None and game_services.viewer_seat(game, user) is not None
    if table["private"] and not (host or player or game_access.may_open(table_id, user, [table_id] if invited else [])):
        return NO_ACCESS  # the table socket's own rule (game.access): a stranger sees nothing
    spectators = settings_for(table_id).spectators
    if player or host:
        return Access(True, True, host, player)
    read = spectators != ChatSettings.Spectators.HIDDEN or user.is_staff
    return Access(read, spectators == ChatSettings.Spectators.WRITE, False, False)


def _payload(message: Message) -> dict[str, Any]:
    return {"id": message.pk, "author_id": message.author_id, "nick": message.author.nick,
            "seat": message.seat, "text": message.shown, "at": message.created_at.isoformat()}


def history(table_id: int) -> dict[str, Any]:
    """The last messages (oldest first), the chat's version and settings: a socket's resync."""
    chat = settings_for(table_id)
    rows = list(Message.objects.filter(table_id=table_id, deleted_at__isnull=True)
                .select_related("author").order_by("-id")[:HISTORY])
    return {"version": chat.version, "messages": [_payload(m) for m in reversed(rows)],
            "settings": {"spectators": chat.spectators, "profanity_filter": chat.profanity_filter}}


def active_mute(player_id: int) -> ChatMute | None:
    return ChatMute.objects.filter(player_id=player_id, until__gt=timezone.now()).order_by("-until").first()


def mute_notice(mute: ChatMute | None) -> dict[str, Any] | None:
    if mute is None:
        return None
    return {"until": mute.until.isoformat(), "reason": mute.reason}


def _mute_error(until: Any, reason: str) -> ServiceError:
    until = formats.date_format(timezone.localtime(until), "DATETIME_FORMAT")
    return ServiceError("chat_muted", until=until, reason=reason)


def _plain(text: str) -> str:
    """Control and format characters dropped, whitespace folded."""
    kept = "".join(" " if ch.isspace() else ch for ch in text
                   if ch.isspace() or unicodedata.category(ch)[0] != "C")
    return " ".join(kept.split())


def clean_text(text: object) -> str:
    """Plain text of at most 200 characters: control and format characters go, whitespace folds."""
    if not isinstance(text, str):
        raise ServiceError("chat_bad_text")
    text = _plain(text)
    if not text:
        raise ServiceError("chat_empty")
    if len(text) > MAX_LENGTH:
        raise ServiceError("chat_too_long")
    return text


_P, _M, _C = Player._meta.db_table, Message._meta.db_table, ChatMute._meta.db_table
STANDING_SQL = (  # plain SQL: a message's hot path; the ORM spent ~0.9 ms of CPU building this query
    f"SELECT p.banned_at IS NOT NULL, p.ban_reason, "
    f"(SELECT m.id FROM {_C} m WHERE m.player_id = p.id AND m.until > %s ORDER BY m.until DESC LIMIT 1), "
    f"(SELECT COUNT(*) FROM {_M} WHERE author_id = p.id AND created_at >= %s), "
    f"(SELECT COUNT(*) FROM {_M} WHERE table_id = %s AND created_at >= %s) "
    f"FROM {_P} p WHERE p.id = %s")


WRITER_LOCK_CLASS = 0x43686174  # pg_advisory_xact_lock(class, player id): one chat writer per player


def _check_writer(user: Any, rights: Access, table_id: int | None = None) -> None:
    """Refuse a reader who may not write, a banned or muted player, and (for a message to
    `table_id`) one over the rate limits. One query: his ban, his mute and both counts.

    For a message this runs inside the writing transaction after the table's chat row lock (and, on
    Postgres, the writer's own advisory lock; SQLite's IMMEDIATE transactions are serial anyway), so
    the counts include every message that won the lock before: parallel sends cannot pass a limit."""
    if not rights.read:
        raise ServiceError("chat_hidden")
    if not rights.write:
        raise ServiceError("chat_read_only")
    if table_id is not None and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [WRITER_LOCK_CLASS, user.pk])
    now = timezone.now()
    at = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        cursor.execute(STANDING_SQL, [at(now), at(now - timedelta(seconds=PLAYER_LIMIT[1])), table_id,
                                      at(now - timedelta(seconds=TABLE_LIMIT[1])), user.pk])
        banned, ban_reason, mute_id, mine, busy = cursor.fetchone()
    if banned:
        user.ban_reason = ban_reason
        raise ServiceError("chat_banned", reason=accounts_services.ban_reason_of(user))
    if mute_id is not None:
        mute = ChatMute.objects.get(pk=mute_id)
        raise _mute_error(mute.until, mute.reason)
    if table_id is not None and mine >= PLAYER_LIMIT[0]:
        raise ServiceError("chat_too_often")
    if table_id is not None and busy >= TABLE_LIMIT[0]:
        raise ServiceError("chat_table_busy")


BUMP_SQL = (f"UPDATE {ChatSettings._meta.db_table} SET version = version + 1 WHERE table_id = %s "
            "RETURNING version, profanity_filter")


def _bump_version(table_id: int) -> tuple[int, bool]:
    """Inside a transaction: the chat's next version and whether it masks swearing, in one statement
    that takes the settings row lock (it orders the table's chat writes until the commit)."""
    for _attempt in range(2):
        with connection.cursor() as cursor:
            cursor.execute(BUMP_SQL, [table_id])
            row = cursor.fetchone()
        if row is not None:
            return row[0], bool(row[1])
        ChatSettings.objects.get_or_create(table_id=table_id)  # the table's first chat write
    raise RuntimeError(f"no chat settings row for table {table_id}")


def post_message(table_id: int, user: Any, text: object, rights: Access, seat: int | None = None) -> Message:
    """Write a message (masked if the table filters profanity) and send it to the chat group.

    The hot path of the chat: one transaction of three statements (the version bump, which takes the
    table's chat lock; the writer's standing and the rate counts; the INSERT), plus the writer's lock
    on Postgres; one group send after the commit. A refusal rolls the bump back."""
    text = clean_text(text)
    if not rights.read or not rights.write:
        _check_writer(user, rights)  # the plain refusals, without taking the table's lock
    with transaction.atomic():
        version, masks = _bump_version(table_id)
        _check_writer(user, rights, table_id)
        shown = profanity.mask(text) if masks else text
        message = Message.objects.create(table_id=table_id, author=user, text=text, shown=shown[:MAX_LENGTH],
                                         seat=seat)
        realtime.send_on_commit([(chat_group(table_id), _event("chat", message=_payload(message), version=version))])
    return message


def react(table_id: int, user: Any, key: object, rights: Access, seat: int | None = None) -> None:
    """A quick phrase or emoji floating over the sender's seat (not stored; rate-limited)."""
    if not isinstance(key, str) or key not in REACTIONS:
        raise ServiceError("chat_bad_reaction")
    _check_writer(user, rights)
    if not ratelimit.within("chat-react", user.pk, REACTION_LIMIT):
        raise ServiceError("chat_too_often")
    realtime.send([(chat_group(table_id), _event("chat_reaction", key=key, author_id=user.pk, nick=user.nick,
                                                 seat=seat))])


def _event(kind: str, **payload: Any) -> dict[str, Any]:
    """A channel-layer event that every socket in the chat group forwards as a frame of type `kind`."""
    return {"type": "socket.hook", "hook": "chat_forward", "frame": {"type": kind, **payload}}


def recheck_event() -> dict[str, Any]:
    """Every socket at the table re-checks its access (a setting or a mute changed) and resyncs."""
    return {"type": "socket.hook", "hook": "chat_recheck"}


def update_settings(table_id: int, user: Any, rights: Access, spectators: object = None,
                    profanity_filter: object = None) -> ChatSettings:
    if not rights.manage:
        raise ServiceError("chat_not_host")
    if spectators is not None and spectators not in ChatSettings.Spectators.values:
        raise ServiceError("chat_bad_setting")
    if profanity_filter is not None and not isinstance(profanity_filter, bool):
        raise ServiceError("chat_bad_setting")
    with transaction.atomic():
        chat = _locked_settings(table_id)
        if spectators is not None:
            chat.spectators = spectators
        if profanity_filter is not None:
            chat.profanity_filter = profanity_filter
        chat.version += 1
        chat.save()
        realtime.send_on_commit([(realtime.table_group(table_id), recheck_event())])
    return chat


# ---------------------------------------------------------------- reports and moderation


def report(message_id: object, user: Any, reason: object, table_id: int, rights: Access) -> Report:
    """A reader reports a message of this table (once per message)."""
    if not rights.read:
        raise ServiceError("chat_hidden")
    reason = _plain(reason) if isinstance(reason, str) else ""
    if not reason or len(reason) > REASON_LENGTH:
        raise ServiceError("chat_bad_reason")
    if type(message_id) is not int:
        raise ServiceError("chat_no_message")
    message = Message.objects.filter(pk=message_id, table_id=table_id, deleted_at__isnull=True).first()
    if message is None:
        raise ServiceError("chat_no_message")
    if message.author_id == user.pk:
        raise ServiceError("chat_own_message")
    if not (ratelimit.within("chat-report", user.pk, REPORT_LIMIT)
            and ratelimit.within("chat-report-day", user.pk, REPORT_DAILY_LIMIT)):
        raise ServiceError("chat_report_too_often")
    found, _created = Report.objects.get_or_create(message=message, reporter=user, defaults={"reason": reason})
    return found



def surrounding(message: Message, around: int = 5) -> list[Message]:
    """The conversation around a message (deleted ones included) for the moderator."""
    base = Message.objects.filter(table_id=message.table_id).select_related("author")
    before = list(base.filter(pk__lt=message.pk).order_by("-pk")[:around])
    after = list(base.filter(pk__gt=message.pk).order_by("pk")[:around])
    return [*reversed(before), message, *after]


def _log(moderator: Any, action: str, player_id: int | None, message: Message | None = None, detail: str = "") -> None:
    ModerationLog.objects.create(moderator=moderator, action=action, player_id=player_id, message=message,
                                 detail=detail[:300])


def delete_message(message_id: int, moderator: Any) -> Message:
    """Delete a message live for everyone; its open reports close."""
    with transaction.atomic():
        message = Message.objects.select_for_update().get(pk=message_id)
        if message.deleted_at is None:
            message.deleted_at, message.deleted_by = timezone.now(), moderator
            message.save(update_fields=["deleted_at", "deleted_by"])
            chat = _locked_settings(message.table_id)
            chat.version += 1
            chat.save(update_fields=["version"])
            _log(moderator, ModerationLog.Action.DELETE, message.author_id, message, message.text)
            realtime.send_on_commit([(chat_group(message.table_id),
                                      _event("chat_deleted", id=message.pk, version=chat.version))])
        _close_reports(Report.objects.filter(message=message), moderator)
    return message


def mute(player_id: int, moderator: Any, period: str, reason: str, message: Message | None = None) -> ChatMute:
    """Mute a player's chat for a period, with a reason he sees; his tables hear it at once."""
    if period not in MUTE_PERIODS:
        raise ServiceError("chat_bad_period")
    reason = (reason or "").strip()
    if not reason or len(reason) > 300:
        raise ServiceError("chat_bad_reason")
    with transaction.atomic():
        until = timezone.now() + MUTE_PERIODS[period]
        muted = ChatMute.objects.create(player_id=player_id, until=until, reason=reason, by=moderator)
        _log(moderator, ModerationLog.Action.MUTE, player_id, message, f"{period}: {reason}")
        if message is not None:
            _close_reports(Report.objects.filter(message__author_id=player_id, message__table_id=message.table_id),
                           moderator)
        tables = _recent_tables(player_id, message)
        realtime.send_on_commit([(realtime.table_group(t), recheck_event()) for t in tables])
    return muted


def ban(player_id: int, moderator: Any, reason: str, message: Message | None = None) -> None:
    """The existing accounts ban, logged here too; he can no longer write anywhere."""
    player = Player.objects.get(pk=player_id)
    with transaction.atomic():
        accounts_services.ban(player, reason, by=moderator)
        _log(moderator, ModerationLog.Action.BAN, player_id, message, reason)
        if message is not None:
            _close_reports(Report.objects.filter(message__author_id=player_id), moderator)
        realtime.send_on_commit([(realtime.table_group(t), recheck_event()) for t in _recent_tables(player_id, message)])


def close_report(report_id: int, moderator: Any) -> None:
    with transaction.atomic():
        found = Report.objects.select_for_update().get(pk=report_id)
        if found.status == Report.Status.OPEN:
            _close_reports(Report.objects.filter(pk=found.pk), moderator)
            _log(moderator, ModerationLog.Action.CLOSE, found.message.author_id, found.message, found.reason)


def _close_reports(reports: Any, moderator: Any) -> None:
    reports.filter(status=Report.Status.OPEN).update(status=Report.Status.CLOSED, closed_at=timezone.now(),
                                                     closed_by=moderator)


def _recent_tables(player_id: int, message: Message | None) -> set[int]:
    since = timezone.now() - timedelta(days=1)
    tables = set(Message.objects.filter(author_id=player_id, created_at__gte=since)
                 .values_list("table_id", flat=True).distinct())
    tables |= set(Seat.objects.filter(player_id=player_id).values_list("table_id", flat=True))
    if message is not None:
        tables.add(message.table_id)
    return tables


# ---------------------------------------------------------------- retention


def purge_old(days: int | None = None) -> int:
    """Delete messages older than the retention period, keeping those with an open report."""
    days = settings.CHAT_RETENTION_DAYS if days is None else days
    cutoff = timezone.now() - timedelta(days=days)
    old = Message.objects.filter(created_at__lt=cutoff).exclude(Q(reports__status=Report.Status.OPEN))
    _total, by_model = old.delete()
    ChatMute.objects.filter(until__lt=cutoff).delete()
    return by_model.get(Message._meta.label, 0)
