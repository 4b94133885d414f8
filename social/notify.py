"""Personal news to a player's site sockets (every tab of his, on any page): the group `site-<id>`.

Not the `player-<id>` group: the table socket listens there for its session's end only, and an
event type it has no handler for would close it. Every event here is sent after the commit.
"""

from __future__ import annotations

from collections.abc import Callable

from durak_site import realtime

# apps above social that also want the news (notifications pushes some kinds to his devices),
# registered in their ready(): listener(player_id, kind, data), called inside the transaction
_listeners: list[Callable[[int, str, dict], None]] = []


def on_news(listener: Callable[[int, str, dict], None]) -> None:
    if listener not in _listeners:
        _listeners.append(listener)


def site_group(player_id: int) -> str:
    return f"site-{player_id}"


ONLINE_GROUP = "site-online"  # every site socket that shows the online list (the lobby)


def tell(recipient_id: int, kind: str, **data) -> None:
    """`{"type": kind, ...}` reaches every site socket of the player once the transaction commits."""
    realtime.send_on_commit([(site_group(recipient_id), {"type": "site.notify", "payload": {"type": kind, **data}})])
    for listener in _listeners:
        listener(recipient_id, kind, data)


def tell_many(player_ids, kind: str, **data) -> None:
    player_ids = list(player_ids)
    realtime.send_on_commit([(site_group(pid), {"type": "site.notify", "payload": {"type": kind, **data}})
                             for pid in player_ids])
    for listener in _listeners:
        for pid in player_ids:
            listener(pid, kind, data)
