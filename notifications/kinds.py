"""What each kind of notification says, how long it is worth delivering and how urgent it is.

The texts are worded in the subscribing device's language when sent, and never name a card.
A kind's topic makes the push service (and the device, as the notification's tag) replace an
older undelivered message of the same topic instead of stacking it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _


@dataclass(frozen=True)
class Message:
    title: str
    body: str
    url: str
    topic: str  # at most 32 characters of the URL-safe base64 alphabet (RFC 8030)
    ttl: int  # seconds the push service keeps it for an offline device
    urgency: str  # very-low, low, normal, high (RFC 8030)
    vibrate: bool = False

    def payload(self) -> dict[str, Any]:
        return {"title": self.title, "body": self.body, "url": self.url, "tag": self.topic, "vibrate": self.vibrate}


KINDS = ("your_turn", "invitation", "match", "friend_request", "analysis_done", "event_start", "letter")


def your_turn(data: dict) -> Message:
    seconds = data.get("seconds")
    if seconds:
        body = ngettext("%(n)s second left to move.", "%(n)s seconds left to move.", seconds) % {"n": seconds}
    else:
        body = _("The table is waiting for your move.")
    return Message(title=_("Your turn"), body=body, url=reverse("lobby:table", args=[data["table_id"]]),
                   topic=f"turn-{data['game_id']}", ttl=max(1, int(seconds or 60)), urgency="high", vibrate=True)


def invitation(data: dict) -> Message:
    return Message(title=_("An invitation to a table"),
                   body=_("%(nick)s invites you to play.") % {"nick": data.get("nick", "")},
                   url=reverse("social:friends"), topic=f"invite-{data.get('id', 0)}",
                   ttl=int(data.get("expires_in") or 300), urgency="high", vibrate=True)


def match(data: dict) -> Message:
    return Message(title=_("Opponents found"), body=_("Your game is about to start: come to the table."),
                   url=data.get("url") or reverse("lobby:table", args=[data["table_id"]]),
                   topic=f"match-{data.get('table_id', 0)}", ttl=10, urgency="high", vibrate=True)


def friend_request(data: dict) -> Message:
    return Message(title=_("A friend request"),
                   body=_("%(nick)s wants to be your friend.") % {"nick": data.get("nick", "")},
                   url=reverse("social:friends"), topic=f"friend-{data.get('player_id', 0)}",
                   ttl=24 * 60 * 60, urgency="normal")


def analysis_done(data: dict) -> Message:
    return Message(title=_("The analysis is ready"), body=_("The analysis of your game is done: see your mistakes."),
                   url=reverse("analysis:page", args=[data["game_id"]]), topic=f"analysis-{data['game_id']}",
                   ttl=24 * 60 * 60, urgency="low")


def event_start(data: dict) -> Message:
    """The tournaments app words its own notice in every language (its name is the event's)."""
    raw = data.get("toast")
    toast = raw if isinstance(raw, dict) else {}
    body = toast.get(get_language()) or _("An event you joined starts in a minute.")
    return Message(title=_("The event is starting"), body=body, url=str(data.get("url") or "/"),
                   topic=f"event-{data.get('tournament', 0)}", ttl=60, urgency="high", vibrate=True)


def letter(data: dict) -> Message:
    """A friend's private message (the letters app tells it through social): who and its start."""
    raw = data.get("letter")
    letter_data = raw if isinstance(raw, dict) else {}
    text = str(letter_data.get("text", ""))
    return Message(title=_("A message from a friend"),
                   body=_("%(nick)s: %(text)s") % {"nick": letter_data.get("nick", ""),
                                                   "text": text if len(text) <= 120 else text[:119] + "…"},
                   url=str(data.get("url") or "/"), topic=f"letter-{data.get('partner', 0)}",
                   ttl=24 * 60 * 60, urgency="normal")


WORDING = {"your_turn": your_turn, "invitation": invitation, "match": match, "friend_request": friend_request,
           "analysis_done": analysis_done, "event_start": event_start, "letter": letter}


def message(kind: str, data: dict) -> Message:
    """The message of `kind` in the active language."""
    return WORDING[kind](data)
