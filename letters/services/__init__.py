"""The only writer of the letters app's rows; callers write `from letters import services`."""

from .conversations import (
    BURST,
    HOURLY,
    clean_text,
    conversation_of,
    conversations_of,
    history,
    mark_read,
    may_write,
    page_url,
    pair,
    payload,
    send,
    unread_badge,
    unread_by_partner,
    unread_total,
)
from .reports import (
    REPORT_DAILY_LIMIT,
    REPORT_LIMIT,
    ban_author,
    close_report,
    delete_letter,
    mute_author,
    report,
)

__all__ = [
    "BURST", "HOURLY", "REPORT_DAILY_LIMIT", "REPORT_LIMIT", "ban_author", "clean_text", "close_report",
    "conversation_of", "conversations_of", "delete_letter", "history", "mark_read", "may_write", "mute_author",
    "page_url", "pair", "payload", "report", "send", "unread_badge", "unread_by_partner", "unread_total",
]
