"""`{% chat_strings %}`: the chat panel's words in the viewer's language, for chat.js."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

from chat import services
from durak_site.errors import CATALOGUE

register = template.Library()


def phrases() -> dict[str, str]:
    """The quick phrases, by key (the socket carries the key; each viewer reads his own language)."""
    return {
        "good_game": _("Good game!"),
        "wow": _("Well, you really did it"),
        "thanks": _("Thanks"),
        "good_luck": _("Good luck"),
        "oops": _("Oops"),
        "hurry": _("Your move, hurry up"),
    }


@register.simple_tag
def chat_strings() -> dict:
    return {
        "phrases": phrases(),
        "emoji": services.EMOJI,
        "errors": {code: str(text) for code, text in CATALOGUE.items() if code.startswith("chat_") and code != "chat_muted"},
        "title": _("Table chat"),
        "open": _("Chat"),
        "close": _("Close the chat"),
        "placeholder": _("Write a message…"),
        "send": _("Send"),
        "quick": _("Quick phrases and reactions"),
        "empty": _("No messages yet. Say hello!"),
        "report": _("Report"),
        "report_reason": _("Why are you reporting this message?"),
        "report_send": _("Send the report"),
        "report_cancel": _("Cancel"),
        "reported": _("Thank you: a moderator will look at it."),
        "hide_author": _("Hide this player's messages"),
        "show_author": _("Show this player's messages again"),
        "hidden_message": _("Message from a player you hid"),
        "muted": _("A moderator muted you in the chat until {until}. Reason: {reason}"),
        "read_only": _("Spectators may only read the chat at this table."),
        "hidden": _("The chat of this table is not shown to spectators."),
        "deleted": _("A moderator deleted a message."),
        "settings": _("Chat settings"),
        "spectators": _("Spectators"),
        "spectators_write": _("may write"),
        "spectators_read": _("may only read"),
        "spectators_hidden": _("do not see the chat"),
        "profanity": _("Mask swear words"),
        "chars_left": _("{n} characters left"),
        "new_messages": _("{n} new messages"),
        "offline": _("No connection: the message was not sent."),
    }
