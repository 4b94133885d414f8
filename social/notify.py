"""Personal news to a player's sockets (every tab of his, on any page): the group `site-<id>`.

A page holds one socket: the table socket on a table's pages (social joins it to this group through
game/socket_hooks.py, social/table_socket.py), the site socket on every other page. Both hear the
news as the table socket's hook event ``{"type": "socket.hook", "hook": "site_notify", "payload"}``
and pass the payload on as it is. Not the `player-<id>` group, which every socket of his hears for
its session's end only. Every event here is sent after the commit.
"""

from __future__ import annotations

from collections.abc import Callable

from durak_site import realtime
from game import protocol

from .protocol import SITE, InvitationAnswered

HOOK = "site_notify"  # the event's hook name on both sockets

# apps above social that also want the news (notifications pushes some kinds to his devices),
# registered in their ready(): listener(player_id, kind, data), called inside the transaction
_listeners: list[Callable[[int, str, dict], None]] = []


def on_news(listener: Callable[[int, str, dict], None]) -> None:
    if listener not in _listeners:
        _listeners.append(listener)


def site_group(player_id: int) -> str:
    return f"site-{player_id}"


ONLINE_GROUP = "site-online"  # every site socket that shows the online list (the lobby)


def news_event(payload: dict) -> dict:
    """The channel-layer event that brings `payload` (a frame with a "type", declared in
    social/protocol.py or by the app that sends it) to both kinds of socket. Checked against its
    definition here while the tests check frames: a wrong one fails where it is made."""
    if protocol.schema.checking:
        protocol.check_out(SITE, payload)
    return {"type": "socket.hook", "hook": HOOK, "payload": payload}


def _event(kind: str, data: dict) -> dict:
    return news_event({"type": kind, **data})


def tell(recipient_id: int, kind: str, **data) -> None:
    """`{"type": kind, ...}` reaches every socket of the player once the transaction commits."""
    realtime.send_on_commit([(site_group(recipient_id), _event(kind, data))])
    for listener in _listeners:
        listener(recipient_id, kind, data)


def tell_many(player_ids, kind: str, **data) -> None:
    player_ids = list(player_ids)
    realtime.send_on_commit([(site_group(pid), _event(kind, data)) for pid in player_ids])
    for listener in _listeners:
        for pid in player_ids:
            listener(pid, kind, data)


def invitation_answered(table_id: int, invitation_id: int, accept: bool) -> InvitationAnswered:
    """The frame that answers an `invitation` message, on either socket."""
    return {"type": "invitation_answered", "id": invitation_id, "accepted": accept,
            "url": f"/tables/{table_id}/" if accept else None}
