"""The rows of the search (SearchRequest) as the queue and the matcher both read and end them: a
player's live search, his rating for the queue, and ending waiting searches a party at a time.
Part of the search's writer with social/queue.py and social/matcher.py (nothing else writes them).
"""

from __future__ import annotations

from django.db.models import QuerySet

from durak_site.clock import db_now
from ratings.models import START_RATING, Rating

from .models import SearchRequest

ARRIVE_SECONDS = 10  # a matched player's time to open the table
LIVE = (SearchRequest.Status.WAITING, SearchRequest.Status.MATCHED)


def live_request(player_id: int) -> SearchRequest | None:
    return SearchRequest.objects.filter(player_id=player_id, status__in=LIVE).first()


def rating_of(player_id: int) -> int:
    return Rating.objects.filter(player_id=player_id).values_list("value", flat=True).first() or START_RATING


def end_waiting(requests: QuerySet[SearchRequest], status: str = SearchRequest.Status.CANCELLED) -> tuple[int, list[int]]:
    """End these waiting searches, and the waiting other half of each party among them: a party never
    waits by halves. The updates re-check «still waiting» on the locked row, so a matcher that took a
    party meanwhile wins whole. Returns (how many of these ended, the partners taken out with them)."""
    now = db_now()
    rows = list(requests.filter(status=SearchRequest.Status.WAITING).values_list("pk", "party_id"))
    if not rows:
        return 0, []
    pks = [pk for pk, _party in rows]
    n = SearchRequest.objects.filter(pk__in=pks, status=SearchRequest.Status.WAITING).update(
        status=status, finished_at=now)
    halves = (SearchRequest.objects.filter(party_id__in={p for _pk, p in rows if p}, status=SearchRequest.Status.WAITING)
              .exclude(pk__in=pks))
    partners = list(halves.values_list("player_id", flat=True))
    halves.update(status=SearchRequest.Status.CANCELLED, finished_at=now)
    return n, partners
