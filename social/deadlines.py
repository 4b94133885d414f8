"""The social layer's deadlines, registered with the site's one deadline registry
(durak_site.deadlines) in ``SocialConfig.ready()``; the one sweep fires them with every other app's.

- "arrival" (SearchRequest.arrive_deadline of a match): who has not arrived is dropped, the others go
  back to the queue. One firing per table: it locks the table's row, so two sweepers never handle
  one match twice.
- "invitation" (Invitation.expires_at): a pending invitation expires.
- "search_gone" (derived, full sweep): a search whose player closed every tab ends.
- "search_match" (derived, full sweep): the waiting searches are matched again, since rating
  windows widen and bot fills fall due with time alone.
"""

from __future__ import annotations

from collections.abc import Iterator

from django.db.models import Min
from django.db.models.functions import Now
from django.utils import timezone

from durak_site.deadlines import Deadline, Due, Fired, late_ms, locked, register, register_column
from lobby.models import Table

from . import people, queue
from .models import Invitation, SearchRequest


def _matched():
    return SearchRequest.objects.filter(status=SearchRequest.Status.MATCHED)


def _overdue_arrivals() -> Iterator[Due]:
    """One row per table whose match has an arrival time run out, the earliest first."""
    rows = (_matched().filter(arrive_deadline__lte=Now(), table__isnull=False).values("table_id")
            .annotate(first=Min("arrive_deadline")).order_by("first").values_list("table_id", "first"))
    for table_id, first in rows:
        yield (table_id, None, first)


def _fire_arrival(table_id: int, version: int | None, skip_locked: bool) -> Fired | None:
    if locked(Table.objects.filter(pk=table_id), skip_locked).values("pk").first() is None:
        return None  # another firer holds the table (or it is gone)
    first = (_matched().filter(table_id=table_id, arrive_deadline__lte=Now()).order_by("arrive_deadline")
             .annotate(db_now=Now()).values("arrive_deadline", "db_now").first())
    if first is None or not queue.fire_no_shows(table_id):
        return None
    return Fired("arrival", table_id, None, late_ms(first["db_now"], first["arrive_deadline"]))


def _pending_invitations():
    return Invitation.objects.filter(status=Invitation.Status.PENDING)


def _gone() -> Iterator[Due]:
    for pk, queued_at in queue.gone_searches().order_by("queued_at").values_list("pk", "queued_at"):
        yield (pk, None, queued_at)


def _fire_gone(request_id: int, version: int | None, skip_locked: bool) -> Fired | None:
    return Fired("search_gone", request_id, None, 0.0) if queue.leave_if_gone(request_id) else None


def _waiting() -> Iterator[Due]:
    """Matching is due whenever someone waits; keyed by the time of listing, so that a sweep's
    retry memory never holds the next full sweep's re-match back."""
    if SearchRequest.objects.filter(status=SearchRequest.Status.WAITING).exists():
        yield (0, None, timezone.now())


def _fire_match(_id: int, version: int | None, skip_locked: bool) -> Fired | None:
    made = queue.match()  # its own skip-locked matcher: two at once see disjoint requests
    return Fired("search_match", made, None, 0.0) if made else None


def register_deadlines() -> None:
    register(Deadline("arrival", _overdue_arrivals, _fire_arrival, watch=(_matched, "arrive_deadline")))
    register_column("invitation", _pending_invitations, "expires_at", people.expire_invitation)
    register(Deadline("search_gone", _gone, _fire_gone, derived=True))
    register(Deadline("search_match", _waiting, _fire_match, derived=True))
