"""Letters between friends: writing one, reading a conversation, unread counts.

Only friends write to each other. A letter's transaction first locks the pair's accepted
friendship rows (`SELECT … FOR UPDATE`): a block or an unfriending deletes those rows
(social.people), so it waits for a letter in flight or the letter waits for it and finds no friend
any more; a blocked player's letter never commits after the block, and so never arrives. Then the
writer's own advisory lock, under which his recent letters are counted, so parallel sends cannot
pass a limit. The news leaves after the commit on the recipient's `site-<id>` group
(social.notify: whichever socket his pages hold, and a push where he allowed one) and, to his own
other tabs, on the writer's.
"""

from __future__ import annotations

import unicodedata
from datetime import timedelta
from typing import Any

from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Case, Count, F, IntegerField, Q, Subquery, Sum, When
from django.urls import reverse
from django.utils import formats, timezone

from accounts.services import ensure_can_play
from chat import services as chat_services
from durak_site import profanity, realtime
from durak_site.errors import ServiceError
from social import notify, people
from social.models import Block, Friendship

from ..models import HISTORY, MAX_LENGTH, Conversation, Letter

BURST = (5, 10)  # at most 5 letters in any 10 s per writer ...
HOURLY = (60, 60 * 60)  # ... and 60 an hour
PREVIEW = 80  # characters of the newest letter kept for the list of conversations
WRITER_LOCK_CLASS = 0x4C657474  # pg_advisory_xact_lock(class, player id): one letter writer per player
RAW_LIMIT = MAX_LENGTH * 4  # characters read at all (longer is refused before any work)
UNREAD_KEY = "letters:unread:{}"  # his unread total in the shared cache, for the menu's badge


def plain_text(text: str) -> str:
    """Control and format characters dropped, whitespace folded (as the table chat does)."""
    kept = "".join(" " if ch.isspace() else ch for ch in text
                   if ch.isspace() or unicodedata.category(ch)[0] != "C")
    return " ".join(kept.split())


def clean_text(text: object) -> str:
    """Plain text of 1 to MAX_LENGTH characters, or the refusal that says what is wrong."""
    if not isinstance(text, str):
        raise ServiceError("letter_bad_text")
    if len(text) > RAW_LIMIT:
        raise ServiceError("letter_too_long", max=MAX_LENGTH)
    text = plain_text(text)
    if not text:
        raise ServiceError("letter_empty")
    if len(text) > MAX_LENGTH:
        raise ServiceError("letter_too_long", max=MAX_LENGTH)
    return text


def pair(a_id: int, b_id: int) -> tuple[int, int]:
    """The conversation's (low, high): its two players in id order."""
    return (a_id, b_id) if a_id < b_id else (b_id, a_id)


def conversation_of(a_id: int, b_id: int) -> Conversation | None:
    low, high = pair(a_id, b_id)
    return Conversation.objects.filter(low_id=low, high_id=high).first()


def payload(letter: Letter, nick: str) -> dict[str, Any]:
    """A letter as the page and the socket show it (the masked text only)."""
    return {"id": letter.pk, "author_id": letter.author_id, "nick": nick, "text": letter.shown,
            "at": letter.created_at.isoformat()}


def page_url(partner_id: int) -> str:
    return reverse("letters:conversation", args=[partner_id])


def require_player(player: Any) -> None:
    """Signed in and not banned (a session that outlived a ban writes nothing)."""
    if player is None or not getattr(player, "is_authenticated", False):
        raise ServiceError("login_required")
    ensure_can_play(player)


def _refuse_if_muted(player_id: int) -> None:
    """A moderator's chat mute holds here too: letters are chat between two."""
    mute = chat_services.active_mute(player_id)
    if mute is not None:
        until = formats.date_format(timezone.localtime(mute.until), "DATETIME_FORMAT")
        raise ServiceError("chat_muted", until=until, reason=mute.reason)


def _friends_locked(a_id: int, b_id: int) -> bool:
    """Inside a transaction: lock the pair's accepted friendship rows; whether there is one."""
    rows = list(Friendship.objects.select_for_update()
                .filter(Q(from_player_id=a_id, to_player_id=b_id) | Q(from_player_id=b_id, to_player_id=a_id),
                        accepted=True).order_by("pk").values_list("pk", flat=True))
    return bool(rows)


def _check_rate(author_id: int) -> None:
    """Inside the letter's transaction: the writer's lock, then his letters of the last 10 s and hour."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [WRITER_LOCK_CLASS, author_id])
    now = timezone.now()
    recent = Letter.objects.filter(author_id=author_id, created_at__gte=now - timedelta(seconds=HOURLY[1]))
    counts = recent.aggregate(
        hour=Count("id"),
        burst=Sum(Case(When(created_at__gte=now - timedelta(seconds=BURST[1]), then=1), default=0,
                       output_field=IntegerField())))
    if (counts["burst"] or 0) >= BURST[0]:
        raise ServiceError("letter_too_often")
    if (counts["hour"] or 0) >= HOURLY[0]:
        raise ServiceError("letter_too_many")


def send(author: Any, other_id: object, text: object) -> Letter:
    """Write `text` to a friend: stored as written and masked for showing, the conversation's unread
    count and preview moved, letters past HISTORY deleted; the recipient's sockets hear `letter`."""
    require_player(author)
    text = clean_text(text)
    other = people.find_player(other_id)
    if other.pk == author.pk:
        raise ServiceError("social_self")
    _refuse_if_muted(author.pk)
    with transaction.atomic():
        # a block deletes the friendship: no friend is the one refusal either side ever sees
        if not _friends_locked(author.pk, other.pk) or people.blocked_either_way(author.pk, other.pk):
            raise ServiceError("letter_not_friend")
        _check_rate(author.pk)
        low, high = pair(author.pk, other.pk)
        conversation, _created = Conversation.objects.get_or_create(low_id=low, high_id=high)
        shown = profanity.mask(text)[:MAX_LENGTH]
        letter = Letter.objects.create(conversation=conversation, author=author, text=text, shown=shown)
        unread_field = "low_unread" if other.pk == low else "high_unread"
        Conversation.objects.filter(pk=conversation.pk).update(
            **{unread_field: F(unread_field) + 1}, last_at=letter.created_at, last_author=author,
            last_shown=shown[:PREVIEW])
        kept = Letter.objects.filter(conversation=conversation).order_by("-id").values("id")[HISTORY - 1:HISTORY]
        Letter.objects.filter(conversation=conversation, id__lt=Subquery(kept)).delete()
        shown_letter = payload(letter, author.nick)
        unread = unread_total(other.pk)
        _remember_unread(other.pk, unread)
        notify.tell(other.pk, "letter", partner=author.pk, letter=shown_letter, unread=unread,
                    url=page_url(author.pk))
        # his other tabs show what he wrote (no push: that is the recipient's alone)
        realtime.send_on_commit([(notify.site_group(author.pk), notify.news_event(
            {"type": "letter", "partner": other.pk, "letter": shown_letter, "mine": True,
             "url": page_url(other.pk)}))])
    return letter


def history(viewer_id: int, other_id: int, after: int = 0) -> list[dict[str, Any]]:
    """The conversation's letters newer than `after` (its last HISTORY at most), oldest first,
    without those of a player the viewer blocked (they never reach him)."""
    conversation = conversation_of(viewer_id, other_id)
    if conversation is None:
        return []
    rows = Letter.objects.filter(conversation=conversation, id__gt=after).select_related("author")
    if Block.objects.filter(blocker_id=viewer_id, blocked_id=other_id).exists():
        rows = rows.filter(author_id=viewer_id)
    newest = list(rows.order_by("-id")[:HISTORY])
    return [payload(letter, letter.author.nick) for letter in reversed(newest)]


def may_write(player_id: int, other_id: int) -> bool:
    """Whether the page offers the form (the send re-checks under its lock)."""
    return people.are_friends(player_id, other_id) and not people.blocked_either_way(player_id, other_id)


def mark_read(player: Any, other_id: object) -> int:
    """He has read his conversation with `other_id`: its unread count is zero; his other tabs hear
    `letters_read` with his new total. Returns the total."""
    if player is None or not getattr(player, "is_authenticated", False):
        raise ServiceError("login_required")
    other = people.find_player(other_id)
    low, high = pair(player.pk, other.pk)
    field = "low_unread" if player.pk == low else "high_unread"
    with transaction.atomic():
        changed = Conversation.objects.filter(low_id=low, high_id=high, **{f"{field}__gt": 0}).update(**{field: 0})
        total = unread_total(player.pk)
        _remember_unread(player.pk, total)
        if changed:
            notify.tell(player.pk, "letters_read", partner=other.pk, unread=total)
    return total


def _unblocked(player_id: int) -> Q:
    """Conversations whose other player he has not blocked (their letters never reach him)."""
    blocked = Block.objects.filter(blocker_id=player_id).values("blocked_id")
    return ~Q(low_id__in=blocked, high_id=player_id) & ~Q(high_id__in=blocked, low_id=player_id)


def _remember_unread(player_id: int, total: int) -> None:
    """Once the transaction commits: the menu's badge reads his total from the shared cache, so
    no page pays a statement for it (no key: none unread). Written with every letter, every read
    and every page that counts them from the rows, so a block or a lost cache mends itself there."""
    key = UNREAD_KEY.format(player_id)
    transaction.on_commit(lambda: cache.set(key, total, None) if total else cache.delete(key))


def unread_badge(player_id: int) -> int:
    """The menu's count: the shared cache's, kept by the writers above."""
    try:
        return int(cache.get(UNREAD_KEY.format(player_id)) or 0)
    except (TypeError, ValueError):
        return 0


def unread_total(player_id: int) -> int:
    """Letters he has not read, over every conversation (one statement on partial indexes)."""
    found = (Conversation.objects.filter(Q(low_id=player_id, low_unread__gt=0)
                                         | Q(high_id=player_id, high_unread__gt=0))
             .filter(_unblocked(player_id))
             .aggregate(n=Sum(Case(When(low_id=player_id, then=F("low_unread")), default=F("high_unread")))))
    return int(found["n"] or 0)


def unread_by_partner(player_id: int) -> dict[int, int]:
    """{other player's id: letters from him not read yet}, for the friends page."""
    rows = (Conversation.objects.filter(Q(low_id=player_id, low_unread__gt=0) | Q(high_id=player_id, high_unread__gt=0))
            .filter(_unblocked(player_id)).values_list("low_id", "high_id", "low_unread", "high_unread"))
    found = {(high if low == player_id else low): (low_n if low == player_id else high_n)
             for low, high, low_n, high_n in rows}
    _remember_unread(player_id, sum(found.values()))
    return found


def conversations_of(player_id: int) -> list[dict[str, Any]]:
    """His conversations, the newest letter first: the other player, unread count and a preview."""
    rows = (Conversation.objects.filter(Q(low_id=player_id) | Q(high_id=player_id), last_at__isnull=False)
            .filter(_unblocked(player_id)).select_related("low", "high").order_by("-last_at")[:HISTORY])
    out: list[dict[str, Any]] = []
    unread = 0
    for c in rows:
        mine = c.low_id == player_id
        unread += c.low_unread if mine else c.high_unread
        out.append({"other": c.high if mine else c.low, "unread": c.low_unread if mine else c.high_unread,
                    "last_at": c.last_at, "preview": c.last_shown, "last_mine": c.last_author_id == player_id})
    if len(rows) < HISTORY:  # every conversation was read: the badge's total can be mended
        _remember_unread(player_id, unread)
    return out
