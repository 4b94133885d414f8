"""An event's clock: the warning a minute before, the start, the Swiss rounds, the end and podium.

Each is a deadline column on Tournament with a firing function here (lock, re-check, act),
registered with the site's deadline registry (tournaments/deadlines.py), with the arenas' waves
(waves.py), the pairings' reminders and the tables' no-shows (results.py).
"""

from __future__ import annotations

import contextlib
import logging
from datetime import timedelta

from django.db import transaction
from django.db.models import F
from django.utils import translation
from django.utils.translation import gettext as _

from durak_site.clock import db_now
from durak_site.errors import ServiceError
from lobby import services as lobby_services
from lobby.models import Table

from .. import announce, standings
from ..models import Entry, Tournament, TournamentGame
from . import entries, results, rounds

log = logging.getLogger(__name__)

PODIUM = 3


def fire_warn(event_id: int) -> bool:
    with transaction.atomic():
        event = (Tournament.objects.select_for_update(skip_locked=True)
                 .filter(pk=event_id, warn_deadline__isnull=False).first())
        if event is None:
            return False
        Tournament.objects.filter(pk=event.pk).update(warn_deadline=None)
        if event.status == Tournament.Status.SCHEDULED:
            players = Entry.objects.filter(tournament=event, state=Entry.State.WAITING).values_list("player_id",
                                                                                                    flat=True)
            toast = {}
            for lang in ("ru", "en"):
                with translation.override(lang):
                    toast[lang] = _("“%(name)s” starts in a minute.") % {"name": event.name}
            announce.tell(players, "tournament_soon", tournament=event.pk, toast=toast,
                          url=f"/tournaments/{event.pk}/", starts_at=event.starts_at.isoformat())
    return True


def fire_start(event_id: int) -> bool:
    """The start: an arena opens its pool (the sweep pairs it), a Swiss starts its first round. An
    event nobody (or one player) joined is cancelled."""
    with transaction.atomic():
        event = (Tournament.objects.select_for_update(skip_locked=True)
                 .filter(pk=event_id, status=Tournament.Status.SCHEDULED, start_deadline__isnull=False).first())
        if event is None:
            return False
        now = db_now()
        event.start_deadline = None
        event.warn_deadline = None
        if Entry.objects.filter(tournament=event, state__in=(Entry.State.WAITING, Entry.State.PAUSED)).count() < 2:
            event.status = Tournament.Status.CANCELLED
            event.finished_at = now
        else:
            event.status = Tournament.Status.RUNNING
            if event.is_arena:
                event.ends_at = event.end_deadline = now + timedelta(minutes=event.minutes)
                event.next_wave_at = now  # the first wave, by rating
                Entry.objects.filter(tournament=event, state=Entry.State.WAITING).update(eligible_at=now)
            else:
                event.round_deadline = now
        event.save()
        announce.changed(event.pk)
    if event.status == Tournament.Status.RUNNING and event.is_swiss:
        rounds.swiss_round(event.pk)
    return True


def fire_round(event_id: int) -> bool:
    """A Swiss round is due (its stated time, or the break after the round before): the next round,
    or the end after the last; not while a game of the round is still on (rounds.round_due)."""
    if not rounds.round_due(event_id):
        return False
    event = Tournament.objects.get(pk=event_id)
    if event.current_round >= event.rounds:
        return fire_end(event_id)
    rounds.swiss_round(event_id)
    return True


def fire_end(event_id: int) -> bool:
    """The end: final places and the podium; games still running no longer count."""
    with transaction.atomic():
        event = Tournament.objects.select_for_update().filter(pk=event_id, status=Tournament.Status.RUNNING).first()
        if event is None:
            return False
        event.status = Tournament.Status.FINISHED
        event.end_deadline = event.round_deadline = event.next_wave_at = None
        event.finished_at = db_now()
        event.save()
        _void_unstarted(event)
        write_places(event)
        Entry.objects.filter(tournament=event, state__in=(Entry.State.WAITING, Entry.State.PLAYING)).update(
            state=Entry.State.WAITING)
        announce.changed(event.pk, finished=True)
    return True


def _void_unstarted(event: Tournament) -> None:
    """Pairings whose game had not begun at the end count for nobody; their tables close."""
    for pairing in TournamentGame.objects.filter(tournament=event, status=TournamentGame.Status.PENDING,
                                                 table__status__in=(Table.Status.WAITING, Table.Status.COUNTDOWN)):
        TournamentGame.objects.filter(pk=pairing.pk).update(status=TournamentGame.Status.VOID, finished_at=db_now())
        with contextlib.suppress(ServiceError):
            lobby_services.close_table(pairing.table_id, _("The tournament is over."))


def write_places(event: Tournament) -> None:
    """Final places on the entries and the podium on the event (again after a void)."""
    lines = standings.lines(event)
    for line in lines:
        Entry.objects.filter(tournament=event, player_id=line.player_id).update(place=line.place)
    event.podium = [{"place": ln.place, "player_id": ln.player_id, "nick": ln.nick, "score": ln.shown}
                    for ln in lines[:PODIUM] if ln.games or ln.score]
    Tournament.objects.filter(pk=event.pk).update(podium=event.podium, version=F("version") + 1)


def void_game(pairing_id: int) -> Tournament:
    """A moderator voids a game; a finished event's places and podium follow."""
    with transaction.atomic():
        event = results.void_game(pairing_id)
        event.refresh_from_db()
        if event.status == Tournament.Status.FINISHED:
            write_places(event)
    return event


def remove_player(event_id: int, player_id: int) -> None:
    """A moderator removes a player: struck from the standings (and a finished event's podium)."""
    with transaction.atomic():
        entries.remove_player(event_id, player_id)
        event = Tournament.objects.get(pk=event_id)
        if event.status == Tournament.Status.FINISHED:
            write_places(event)
