"""A tournament game's end scored (game.signals.game_finished, inside the finishing transaction),
no-shows, and a moderator's void (the standings recomputed from the games that count).

The receiver keeps to few statements (the game's finishing hop runs it): the pairing row locked,
its entries written, the pairing written (what each entry gets: scored.py). It returns None: the
game's rating is ratings' record.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from durak_site.clock import db_now
from durak_site.errors import ServiceError
from game import outcomes
from lobby import services as lobby_services
from lobby.models import Seat, Table

from .. import announce, scoring
from ..models import Entry, Tournament, TournamentGame
from .rounds import check_round_over
from .scored import (
    ABANDONED,
    ABANDONS_TO_WITHDRAW,
    ENTRY_FIELDS,
    after_game,
    apply_result,
    rescore_table,
    result_of,
    score_table,
)
from .waves import WAVE_GATHER, request_wave

log = logging.getLogger(__name__)

def on_game_finished(sender: Any, game: Any, seats: Any = None, **kwargs: Any) -> None:
    """game.signals.game_finished: a tournament table's game scores its pairing (once)."""
    pairing = (TournamentGame.objects.select_for_update().select_related("tournament")
               .filter(table_id=game.table_id, status=TournamentGame.Status.PENDING).first())
    if pairing is None:
        return None
    event = pairing.tournament
    seat_of: dict[int | None, int] = {s.player_id: s.number for s in (seats if seats is not None else game.seats.all())}
    codes = outcomes.stored(game.result) or {}
    entries: dict[int | None, Entry] = {e.player_id: e for e in Entry.objects.select_for_update().filter(
        tournament=event, player_id__in=pairing.player_ids())}
    now = db_now()
    pairing.game_id = game.pk
    pairing.finished_at = now
    pairing.moves = game.version
    if game.status == "aborted" or event.status != Tournament.Status.RUNNING:
        pairing.status = TournamentGame.Status.VOID
        for entry in entries.values():
            if entry.state == Entry.State.PLAYING:
                entry.state, entry.eligible_at = Entry.State.WAITING, now
            entry.abandons += codes.get(seat_of.get(entry.player_id, 0), "") in ABANDONED
            entry.save(update_fields=["state", "eligible_at", "abandons"])
    elif pairing.size > 2:
        pairing.status = TournamentGame.Status.FINISHED
        score_table(event, pairing, game, codes, seat_of, entries, now)
    else:
        pairing.status = TournamentGame.Status.FINISHED
        halved = set(game.halved_seats or ())
        for side, mine, theirs in (("a", pairing.player_a_id, pairing.player_b_id),
                                   ("b", pairing.player_b_id, pairing.player_a_id)):
            seat = seat_of.get(mine, 0)  # 0: no seat (no code)
            code = codes.get(seat, outcomes.LEFT)
            result = result_of(code)
            berserk = seat in halved
            own = entries.get(mine)
            points = 0
            if own is not None:
                opponent = entries.get(theirs)
                points = apply_result(event, own, result, [opponent] if opponent else [], berserk, game.version)
                after_game(own, code in ABANDONED, now)
                own.save(update_fields=ENTRY_FIELDS)
            setattr(pairing, f"result_{side}", result)
            setattr(pairing, f"points_{side}", points)
            setattr(pairing, f"berserk_{side}", berserk)
    pairing.save()
    _next_pairing(event, now + WAVE_GATHER)
    announce.changed(event.pk)
    return None


def _next_pairing(event: Tournament, at: Any) -> None:
    """A game of the event is over (in its transaction): an arena's pool has players back, a Swiss
    round may be over."""
    if event.is_arena:
        request_wave(event.pk, at)
    else:
        check_round_over(event.pk)


def fire_no_shows(now: Any = None) -> int:
    """Every pairing whose players did not both arrive in time (the game never started)."""
    now = now or db_now()
    handled = 0
    for pk in TournamentGame.objects.filter(status=TournamentGame.Status.PENDING, arrive_deadline__lte=now) \
            .values_list("pk", flat=True):
        try:
            handled += _fire_no_show(pk, now)
        except Exception:
            log.exception("tournaments: no-show of pairing %s not handled; retrying", pk)
    return handled


def fire_no_show(pairing_id: int) -> None:
    """The registry's firing of TournamentGame.arrive_deadline: this pairing's no-show."""
    _fire_no_show(pairing_id, db_now())


def _fire_no_show(pk: int, now: Any) -> int:
    with transaction.atomic():
        pairing = (TournamentGame.objects.select_for_update(skip_locked=True).select_related("tournament")
                   .filter(pk=pk, status=TournamentGame.Status.PENDING, arrive_deadline__lte=now).first())
        if pairing is None:
            return 0
        table = Table.objects.filter(pk=pairing.table_id).first() if pairing.table_id is not None else None
        if table is not None and table.status in (Table.Status.PLAYING, Table.Status.REMATCH):
            TournamentGame.objects.filter(pk=pk).update(arrive_deadline=None)  # it began: the game's end scores it
            return 0
        ready = set(Seat.objects.filter(table_id=pairing.table_id or 0, ready=True).values_list("player_id", flat=True))
        event = pairing.tournament
        entries: dict[int | None, Entry] = {e.player_id: e for e in Entry.objects.select_for_update().filter(
            tournament=event, player_id__in=pairing.player_ids())}
        if event.is_swiss and len(ready) == 1:  # a missed round is lost; the one who came wins it
            for side, mine, theirs in (("a", pairing.player_a_id, pairing.player_b_id),
                                       ("b", pairing.player_b_id, pairing.player_a_id)):
                result = scoring.WIN if mine in ready else scoring.LOSS
                entry = entries[mine]
                opponent = entries.get(theirs)
                points = apply_result(event, entry, result, [opponent] if opponent else [], False, 0)
                after_game(entry, mine not in ready, now)
                entry.save(update_fields=ENTRY_FIELDS)
                setattr(pairing, f"result_{side}", result)
                setattr(pairing, f"points_{side}", points)
            pairing.status = TournamentGame.Status.FINISHED
        else:
            pairing.status = TournamentGame.Status.VOID
            for pid, entry in entries.items():
                if entry.state != Entry.State.PLAYING:
                    continue
                if pid in ready:
                    entry.state, entry.eligible_at = Entry.State.WAITING, now
                else:
                    entry.abandons += 1
                    entry.state = (Entry.State.WITHDRAWN if entry.abandons >= ABANDONS_TO_WITHDRAW
                                   else Entry.State.WAITING if event.is_swiss else Entry.State.PAUSED)
                entry.save(update_fields=["state", "eligible_at", "abandons"])
        pairing.finished_at = now
        pairing.save()
        _next_pairing(event, now)
        if pairing.table_id:
            with contextlib.suppress(ServiceError):
                lobby_services.close_table(pairing.table_id, _("Not every player came to this tournament table."))
        announce.changed(event.pk)
        announce.tell([p for p in (pairing.player_a_id, pairing.player_b_id) if p not in ready], "tournament_absent",
                      tournament=event.pk)
    return 1


def void_game(pairing_id: int) -> Tournament:
    """A moderator voids a tournament game: it counts for nobody and the standings are recomputed."""
    with transaction.atomic():
        pairing = TournamentGame.objects.select_for_update().filter(pk=pairing_id).first()
        if pairing is None or pairing.status not in (TournamentGame.Status.FINISHED, TournamentGame.Status.BYE):
            raise ServiceError("tournament_game_not_found")
        pairing.status = TournamentGame.Status.VOID
        pairing.save(update_fields=["status"])
        recompute(pairing.tournament_id)
    return pairing.tournament


def recompute(event_id: int) -> None:
    """Every entry's score, streak and marks replayed from the games that count, in their order."""
    event = Tournament.objects.select_for_update().get(pk=event_id)
    entries: dict[int | None, Entry] = {e.player_id: e for e in Entry.objects.select_for_update().filter(tournament=event)}
    for e in entries.values():
        e.score = e.games = e.wins = e.draws = e.streak = e.berserks = e.opponents_rating = e.byes = 0
        e.marks = ""
    games = (TournamentGame.objects.filter(tournament=event)
             .filter(status__in=(TournamentGame.Status.FINISHED, TournamentGame.Status.BYE))
             .order_by("finished_at", "pk"))
    for g in games:
        if g.status == TournamentGame.Status.BYE:
            e = entries[g.player_a_id]
            e.score += scoring.swiss(scoring.BYE)
            e.byes += 1
            e.marks += scoring.BYE
            continue
        if g.size > 2:
            rescore_table(event, g, entries)
            continue
        for mine, theirs, result, berserk in ((g.player_a_id, g.player_b_id, g.result_a, g.berserk_a),
                                               (g.player_b_id, g.player_a_id, g.result_b, g.berserk_b)):
            opponent = entries.get(theirs)
            apply_result(event, entries[mine], result, [opponent] if opponent else [], berserk, g.moves)
    Entry.objects.bulk_update(list(entries.values()), ["score", "games", "wins", "draws", "streak", "berserks",
                                                        "marks", "opponents_rating", "byes"])
    Tournament.objects.filter(pk=event.pk).update(version=F("version") + 1)
    announce.changed(event.pk)

