"""Reports on letters and what moderators do with them.

A player reports a letter he received; the report copies the conversation around it (moderators
read only reported conversations, never the others, and the letters themselves may be trimmed away
by the time a moderator looks). He may block the writer with the same press. A moderator deletes
the letter (gone from both pages at once), mutes the writer (the table chat's mute, which holds for
letters too) or bans him (the accounts ban), or closes the report.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from chat import services as chat_services
from durak_site import ratelimit
from durak_site.errors import ServiceError
from social import notify, people

from ..models import REASON_LENGTH, Letter, Report
from .conversations import plain_text, require_player

REPORT_LIMIT = (5, 10 * 60)  # at most 5 reports in 10 minutes per reader ...
REPORT_DAILY_LIMIT = (20, 24 * 60 * 60)  # ... and 20 a day
BEFORE, AFTER = 10, 5  # letters copied into a report around the reported one


def _context(letter: Letter) -> list[dict[str, Any]]:
    """The letters around `letter`, as written, oldest first (the moderator's view)."""
    base = Letter.objects.filter(conversation_id=letter.conversation_id).select_related("author")
    before = list(base.filter(pk__lt=letter.pk).order_by("-pk")[:BEFORE])
    after = list(base.filter(pk__gt=letter.pk).order_by("pk")[:AFTER])
    return [{"id": m.pk, "author_id": m.author_id, "nick": m.author.nick, "text": m.text,
             "at": m.created_at.isoformat()} for m in [*reversed(before), letter, *after]]


def report(reporter: Any, letter_id: object, reason: object, block: bool = False) -> Report:
    """Report a letter of the other player in one of his conversations (once per letter), and
    block its writer if he asks. A letter he cannot see reads as gone."""
    require_player(reporter)
    reason = plain_text(reason) if isinstance(reason, str) else ""
    if not reason or len(reason) > REASON_LENGTH:
        raise ServiceError("letter_bad_reason", max=REASON_LENGTH)
    if type(letter_id) is not int:
        raise ServiceError("letter_not_found")
    letter = Letter.objects.select_related("conversation", "author").filter(pk=letter_id).first()
    if letter is None or reporter.pk not in (letter.conversation.low_id, letter.conversation.high_id):
        raise ServiceError("letter_not_found")
    if letter.author_id == reporter.pk:
        raise ServiceError("letter_own")
    if not (ratelimit.within("letter-report", reporter.pk, REPORT_LIMIT)
            and ratelimit.within("letter-report-day", reporter.pk, REPORT_DAILY_LIMIT)):
        raise ServiceError("letter_report_too_often")
    with transaction.atomic():
        found, _created = Report.objects.get_or_create(
            letter_id=letter.pk, reporter=reporter,
            defaults={"conversation": letter.conversation, "author": letter.author, "text": letter.text,
                      "reason": reason, "context": _context(letter)})
    if block:
        people.block(reporter, letter.author_id)
    return found


def _close(reports: Any, moderator: Any) -> int:
    return int(reports.filter(status=Report.Status.OPEN).update(status=Report.Status.CLOSED,
                                                               closed_at=timezone.now(), closed_by=moderator))


def delete_letter(report_id: int, moderator: Any) -> bool:
    """The reported letter is deleted for both players (their open pages drop it at once) and its
    reports close. False when it was gone already (the reports close all the same)."""
    with transaction.atomic():
        found = Report.objects.select_for_update().select_related("conversation").get(pk=report_id)
        conversation = found.conversation
        deleted = Letter.objects.filter(pk=found.letter_id).delete()[0] > 0
        _close(Report.objects.filter(letter_id=found.letter_id), moderator)
        if deleted:
            for player_id in (conversation.low_id, conversation.high_id):
                notify.tell(player_id, "letter_deleted", partner=conversation.other(player_id), id=found.letter_id)
    return deleted


def mute_author(report_id: int, moderator: Any, period: str, reason: str) -> None:
    """The writer cannot write letters, nor in any table chat, for `period` (chat.services.mute);
    his open reports close."""
    found = Report.objects.get(pk=report_id)
    with transaction.atomic():
        chat_services.mute(found.author_id, moderator, period, reason)
        _close(Report.objects.filter(author_id=found.author_id), moderator)


def ban_author(report_id: int, moderator: Any, reason: str) -> None:
    """The accounts ban (through the chat's moderation, which logs it); his open reports close."""
    found = Report.objects.get(pk=report_id)
    with transaction.atomic():
        chat_services.ban(found.author_id, moderator, reason)
        _close(Report.objects.filter(author_id=found.author_id), moderator)


def close_report(report_id: int, moderator: Any) -> None:
    _close(Report.objects.filter(pk=report_id), moderator)
