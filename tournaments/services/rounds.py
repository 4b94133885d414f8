"""Swiss rounds: when each starts, pairing one, and finding it over.

A round starts at its stated time or when the last game of the round before ends, as the event
says (Tournament.round_minutes):

- 0: as soon as the round before is over, after a short break (ROUND_BREAK);
- N: round k at the start plus (k − 1)·N minutes, announced in advance. A round whose stated time
  comes while a game of the round before is still on starts when that game ends (nobody is ever
  seated twice, and nobody's game is cut short).

Either way the moment is a deadline column, Tournament.round_deadline (fired by lifecycle.fire_round):
set to the next stated time when a round starts, to "now + break" (or now, if the stated time has
passed) when the last game of a round ends, cleared when it falls due while a game is still on.
The last round's end ends the event.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction

from durak_site.clock import db_now

from .. import announce, pairing, scoring
from ..models import Entry, Tournament, TournamentGame
from .waves import one_network, seat_pair, send_to_tables

ROUND_BREAK = timedelta(seconds=15)  # between a Swiss round's last game and the next round (no stated times)


def stated_start(event: Tournament, round_number: int) -> datetime | None:
    """Round `round_number`'s stated time, or None when rounds follow each other as they end."""
    if not event.round_minutes:
        return None
    return event.starts_at + timedelta(minutes=event.round_minutes * (round_number - 1))


def _pending(event: Tournament) -> bool:
    return TournamentGame.objects.filter(tournament=event, status=TournamentGame.Status.PENDING).exists()


def swiss_round(event_id: int) -> int:
    """Start the Swiss' next round: pair everyone still in (by score, no rematch, a bye for the odd
    one); returns the games made. Called by the round's deadline; the event row is locked."""
    with transaction.atomic():
        event = Tournament.objects.select_for_update().filter(pk=event_id, status=Tournament.Status.RUNNING).first()
        if event is None or not event.is_swiss:
            return 0
        if event.current_round >= event.rounds:
            return 0
        now = db_now()
        round_number = event.current_round + 1
        rows = list(Entry.objects.select_for_update().select_related("player").filter(tournament=event)
                    .exclude(state__in=(Entry.State.WITHDRAWN, Entry.State.REMOVED)))
        met: dict[int, set[int]] = {}
        for a, b in TournamentGame.objects.filter(tournament=event, player_b__isnull=False).values_list(
                "player_a_id", "player_b_id"):
            met.setdefault(a, set()).add(b)
            met.setdefault(b, set()).add(a)
        avoid = one_network([r.player_id for r in rows], now)
        players = [pairing.SwissPlayer(r.player_id, r.score, r.rating, frozenset(met.get(r.player_id, ())),
                                       r.byes > 0, frozenset(avoid.get(r.player_id, ()))) for r in rows]
        pairs, byes = pairing.swiss(players)
        by_player = {r.player_id: r for r in rows}
        made = []
        for a, b in pairs:
            game = seat_pair(event, by_player[a].player, by_player[b].player, round_number, now)
            if game is None:  # one of them cannot play now: both lose nothing, the round goes on
                continue
            made.append(game)
        for pid in byes:
            TournamentGame.objects.create(tournament=event, round=round_number, player_a_id=pid,
                                          status=TournamentGame.Status.BYE, result_a=scoring.BYE,
                                          points_a=scoring.swiss(scoring.BYE), finished_at=now)
            entry = by_player[pid]
            entry.score += scoring.swiss(scoring.BYE)
            entry.byes += 1
            entry.marks += scoring.BYE
            entry.save(update_fields=["score", "byes", "marks"])
        playing = [pid for g in made for pid in g.player_ids()]
        Entry.objects.filter(tournament=event, player_id__in=playing).update(state=Entry.State.PLAYING)
        event.current_round = round_number
        event.round_deadline = stated_start(event, round_number + 1) if round_number < event.rounds else None
        event.save(update_fields=["current_round", "round_deadline"])
        send_to_tables(made)
        announce.changed(event.pk)
        check_round_over(event.pk)  # a round nobody could play (byes only) is over at once
    return len(made)


def check_round_over(event_id: int) -> None:
    """A Swiss round with no game left pending: the next round is due (after the break, or at its
    stated time, or now if that has passed), or the end after the last. Called where a game of the
    round ends (its result, a no-show, a moderator's void), after its pairing is written, in that
    transaction: the event's row lock orders two last games ending at once, so the second sees the
    first finished. Idempotent: a moment already due as soon is kept."""
    with transaction.atomic():
        event = Tournament.objects.select_for_update().filter(pk=event_id, status=Tournament.Status.RUNNING).first()
        if event is None or not event.is_swiss or event.current_round == 0 or _pending(event):
            return
        now = db_now()
        stated = stated_start(event, event.current_round + 1)
        if event.current_round >= event.rounds:
            due = now
        elif stated is not None:
            due = max(now, stated)
        else:
            due = now + ROUND_BREAK
        if event.round_deadline is not None and event.round_deadline <= due:
            return
        event.round_deadline = due
        event.save(update_fields=["round_deadline"])
        announce.changed(event.pk, next_round=due.isoformat())


def round_due(event_id: int) -> bool:
    """Tournament.round_deadline fell due (the event's row locked): True if the next round (or the
    end) may go ahead; a game of the round still on clears the column instead: its end sets it."""
    event = Tournament.objects.filter(pk=event_id, status=Tournament.Status.RUNNING).first()
    if event is None:
        return False
    if _pending(event):
        Tournament.objects.filter(pk=event_id).update(round_deadline=None)
        return False
    return True
