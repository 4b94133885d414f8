"""The tournaments' deadlines, registered with the site's one deadline registry
(durak_site.deadlines) in ``TournamentsConfig.ready()``; the one sweep fires them with every other
app's (docs/ARCHITECTURE.md, "Deadlines").

- "tournament_warn", "tournament_start", "tournament_round", "tournament_end": the event's columns
  (a minute before the start, the start, a Swiss round's break over, the end);
- "tournament_no_show" (TournamentGame.arrive_deadline): a pairing whose players did not both arrive;
- "tournament_pairing" (derived, full sweep): every running event paired (an arena's wave, a Swiss
  round that is over); "tournament_schedule" (derived): the standing events created ahead of time;
  "tournament_reminder" (derived): the tabs of a paired player who has not come are told again.
"""

from __future__ import annotations

from collections.abc import Iterator

from django.utils import timezone

from durak_site.clock import db_now
from durak_site.deadlines import Deadline, Due, Fired, register, register_column

from . import services
from .models import Tournament, TournamentGame
from .services.waves import remind_unarrived


def _events(status: str):
    return lambda: Tournament.objects.filter(status=status)


def _running() -> Iterator[Due]:
    """Keyed by the time of listing: pairing is due at every full sweep, never held back by retries."""
    now = timezone.now()
    for pk in Tournament.objects.filter(status=Tournament.Status.RUNNING).order_by("pk").values_list("pk", flat=True):
        yield (pk, None, now)


def _fire_pairing(event_id: int, version: int | None, skip_locked: bool) -> Fired | None:
    fmt = Tournament.objects.filter(pk=event_id).values_list("format", flat=True).first()
    if fmt == "arena":
        return Fired("tournament_pairing", event_id, None, 0.0) if services.arena_wave(event_id) else None
    if fmt is not None:
        services.check_round_over(event_id)
    return None


def _schedule() -> Iterator[Due]:
    yield (0, None, timezone.now())


def _fire_schedule(_id: int, version: int | None, skip_locked: bool) -> Fired | None:
    created = services.create_ahead(db_now())
    return Fired("tournament_schedule", len(created), None, 0.0) if created else None


def _pending_pairings() -> Iterator[Due]:
    if TournamentGame.objects.filter(status=TournamentGame.Status.PENDING).exists():
        yield (0, None, timezone.now())


def _fire_reminder(_id: int, version: int | None, skip_locked: bool) -> Fired | None:
    told = remind_unarrived(db_now())
    return Fired("tournament_reminder", told, None, 0.0) if told else None


def register_deadlines() -> None:
    register_column("tournament_warn", lambda: Tournament.objects.all(), "warn_deadline", services.fire_warn)
    register_column("tournament_start", _events(Tournament.Status.SCHEDULED), "start_deadline", services.fire_start)
    register_column("tournament_round", _events(Tournament.Status.RUNNING), "round_deadline", services.fire_round)
    register_column("tournament_end", _events(Tournament.Status.RUNNING), "end_deadline", services.fire_end)
    register_column("tournament_no_show", lambda: TournamentGame.objects.filter(status=TournamentGame.Status.PENDING),
                    "arrive_deadline", lambda _pk: services.fire_no_shows())
    register(Deadline("tournament_pairing", _running, _fire_pairing, derived=True))
    register(Deadline("tournament_schedule", _schedule, _fire_schedule, derived=True))
    register(Deadline("tournament_reminder", _pending_pairings, _fire_reminder, derived=True))
