"""The standing events: each active schedule row makes its events `ahead_minutes` before they
start (once per slot: a unique constraint). When is a deadline column, ScheduleRow.next_create_at
(tournaments/deadlines.py): each firing creates what is due and sets the row's next creation; an
edit in the admin makes the row due at once (``schedule_changed``)."""

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


HORIZON = timedelta(days=8)  # a row's next start is looked for this far ahead (a weekly row has one)


def _create_due(row: ScheduleRow, now: datetime) -> list[Tournament]:
    made = []
    for starts_at in slots(row, now, now + timedelta(minutes=row.ahead_minutes)):
        if Tournament.objects.filter(schedule=row, starts_at=starts_at).exists():
            continue
        event = create_scheduled(row, starts_at)
        if event is not None:
            made.append(event)
    return made


def next_creation(row: ScheduleRow, now: datetime) -> datetime | None:
    """When the row's next event not created yet is due to be: its start less `ahead_minutes`."""
    ahead = timedelta(minutes=row.ahead_minutes)
    upcoming = slots(row, now + ahead, now + ahead + HORIZON)
    return upcoming[0] - ahead if upcoming else None


def fire_schedule(row_id: int) -> None:
    """The registry's firing of ScheduleRow.next_create_at (the row locked): its due events made."""
    row = ScheduleRow.objects.filter(pk=row_id).first()
    if row is None:
        return
    now = db_now()
    _create_due(row, now)
    ScheduleRow.objects.filter(pk=row_id).update(next_create_at=next_creation(row, now) if row.active else None)


def schedule_changed(row_id: int) -> None:
    """A moderator saved the row: its creations are worked out again at once."""
    ScheduleRow.objects.filter(pk=row_id).update(next_create_at=db_now())


def create_ahead(now: datetime | None = None) -> list[Tournament]:
    """Every scheduled event due to be announced by now and not made yet."""
    now = now or db_now()
    made = []
    for row in ScheduleRow.objects.filter(active=True):
        made.extend(_create_due(row, now))
    return made
