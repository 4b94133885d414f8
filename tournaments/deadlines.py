"""The tournaments' deadlines, registered with the site's one deadline registry
(durak_site.deadlines) in ``TournamentsConfig.ready()``; the one pacer fires them with every other
app's (docs/ARCHITECTURE.md, "Deadlines"). Every one is a column: nothing here runs on every sweep.

- "tournament_warn", "tournament_start", "tournament_round", "tournament_end": the event's columns
  (a minute before the start, the start, a Swiss round due, the end);
- "tournament_wave" (Tournament.next_wave_at): a running arena's next pairing wave;
- "tournament_no_show" (TournamentGame.arrive_deadline): a pairing whose players did not both arrive;
- "tournament_reminder" (TournamentGame.remind_at): the tabs of a paired player who has not come
  are told again;
- "tournament_schedule" (ScheduleRow.next_create_at): a standing event created ahead of its start.
"""

from __future__ import annotations

from durak_site.deadlines import register_column

from . import services
from .models import Format, ScheduleRow, Tournament, TournamentGame


def _events(status: str):
    return lambda: Tournament.objects.filter(status=status)


def _running_arenas():
    return Tournament.objects.filter(status=Tournament.Status.RUNNING, format=Format.ARENA)


def _pending_pairings():
    return TournamentGame.objects.filter(status=TournamentGame.Status.PENDING)


def register_deadlines() -> None:
    register_column("tournament_warn", lambda: Tournament.objects.all(), "warn_deadline", services.fire_warn)
    register_column("tournament_start", _events(Tournament.Status.SCHEDULED), "start_deadline", services.fire_start)
    register_column("tournament_round", _events(Tournament.Status.RUNNING), "round_deadline", services.fire_round)
    register_column("tournament_end", _events(Tournament.Status.RUNNING), "end_deadline", services.fire_end)
    register_column("tournament_wave", _running_arenas, "next_wave_at", services.fire_wave)
    register_column("tournament_no_show", _pending_pairings, "arrive_deadline", services.fire_no_show)
    register_column("tournament_reminder", _pending_pairings, "remind_at", services.fire_reminder)
    register_column("tournament_schedule", lambda: ScheduleRow.objects.filter(active=True), "next_create_at",
                    services.fire_schedule)
