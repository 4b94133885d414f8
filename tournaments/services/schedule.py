"""The standing events: each active schedule row makes its events `ahead_minutes` before they
start (once per slot: a unique constraint), run by the sweep."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from durak_site.clock import db_now

from ..models import ScheduleRow, Tournament
from .events import create_scheduled


def _times(row: ScheduleRow) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for part in row.times.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            hour, minute = (int(x) for x in part.split(":"))
        except ValueError:
            continue
        if 0 <= hour < 24 and 0 <= minute < 60:
            out.append((hour, minute))
    return out


def slots(row: ScheduleRow, since: datetime, until: datetime) -> list[datetime]:
    """The row's start times in (since, until], in UTC."""
    out: list[datetime] = []
    day = since.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    while day <= until:
        if str(day.weekday()) in row.weekdays:
            if row.every_minutes:
                starts = [day + timedelta(minutes=m) for m in range(0, 24 * 60, row.every_minutes)]
            else:
                starts = [day.replace(hour=h, minute=m) for h, m in _times(row)]
            out.extend(s for s in starts if since < s <= until)
        day += timedelta(days=1)
    return sorted(out)


def create_ahead(now: datetime | None = None) -> list[Tournament]:
    """Every scheduled event due to be announced by now and not made yet."""
    now = now or db_now()
    made = []
    for row in ScheduleRow.objects.filter(active=True):
        for starts_at in slots(row, now, now + timedelta(minutes=row.ahead_minutes)):
            if Tournament.objects.filter(schedule=row, starts_at=starts_at).exists():
                continue
            event = create_scheduled(row, starts_at)
            if event is not None:
                made.append(event)
    return made
