"""Tournament news over the site socket: the event page's tabs join `tournament-<id>` (through
social's page hook) and hear `tournament` {"id"} after every committed change of the standings; a
player hears his own news (paired, a minute to the start) in his `site-<id>` group.

The page fetches the standings fragment once per news (at most once a second), never on a timer.
"""

from __future__ import annotations

from durak_site import realtime
from social import notify


def group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def changed(tournament_id: int, **data) -> None:
    """Every open page of the event re-reads the standings once this transaction commits."""
    payload = {"type": "tournament", "id": tournament_id, **data}
    realtime.send_on_commit([(group(tournament_id), notify.news_event(payload))])


def tell(player_ids, kind: str, **data) -> None:
    notify.tell_many(list(player_ids), kind, **data)
