"""A player's own moves in an event (pause, come back, berserk) and a moderator's (remove him).

A pause: not paired until he comes back. The first return is paired at once; each later one waits
RETURN_STEP more (capped at RETURN_CAP) before he is paired again (the rules page says so).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q

from durak_site.clock import db_now
from durak_site.errors import ServiceError
from game import services as game_services
from game.models import Game

from .. import announce
from ..models import Entry, Tournament, TournamentGame, TournamentSeat
from .waves import request_wave

log = logging.getLogger(__name__)

RETURN_STEP = timedelta(seconds=20)
RETURN_CAP = timedelta(minutes=2)
OUT = (Entry.State.WITHDRAWN, Entry.State.REMOVED)


def return_wait(pauses: int) -> timedelta:
    """How long a player who paused `pauses` times waits before his next pairing."""
    return min(RETURN_CAP, RETURN_STEP * max(0, pauses - 1))


def lock_event(event_id: int) -> None:
    """The event's row locked before any of its entries (docs/ARCHITECTURE.md, "Row-lock order"):
    a Swiss round and the end hold the row while they take every entry, so an entry held while
    waiting for the row would close a cycle. (A query for an entry also locks the event's row when
    it joins it, the entry's first, as ordering by the event does: so callers lock the entry alone,
    of=("self",).)"""
    Tournament.objects.select_for_update().filter(pk=event_id).values_list("pk", flat=True).first()


def _locked_entry(event_id: int, player: Any) -> Entry:
    if player is None or not player.is_authenticated:
        raise ServiceError("login_required")
    lock_event(event_id)
    entry = (Entry.objects.select_for_update(of=("self",)).select_related("tournament")
             .filter(tournament_id=event_id, player=player).first())
    if entry is None:
        raise ServiceError("tournament_not_joined")
    if entry.state in OUT:
        raise ServiceError("tournament_withdrawn")
    if entry.tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise ServiceError("tournament_over")
    return entry


def pause(event_id: int, player: Any) -> Entry:
    """«Пауза»: no new pairing until he comes back (asked during a game, it starts when it ends)."""
    with transaction.atomic():
        entry = _locked_entry(event_id, player)
        if entry.tournament.is_swiss:
            raise ServiceError("tournament_no_pause")
        if entry.state == Entry.State.PAUSED or entry.pause_after_game:
            raise ServiceError("tournament_already_paused")
        if entry.state == Entry.State.PLAYING:
            entry.pause_after_game = True
        else:
            entry.state = Entry.State.PAUSED
        entry.pauses += 1
        entry.save(update_fields=["state", "pause_after_game", "pauses"])
        announce.changed(event_id)
    return entry


def resume(event_id: int, player: Any) -> Entry:
    """«Вернуться»: back in the pool, paired once his return wait is over."""
    with transaction.atomic():
        entry = _locked_entry(event_id, player)
        if entry.pause_after_game:
            entry.pause_after_game = False
        elif entry.state == Entry.State.PAUSED:
            entry.state = Entry.State.WAITING
            entry.eligible_at = db_now() + return_wait(entry.pauses)
        else:
            raise ServiceError("tournament_not_paused")
        entry.save(update_fields=["state", "pause_after_game", "eligible_at"])
        if entry.state == Entry.State.WAITING:
            request_wave(event_id, entry.eligible_at)  # paired once his wait is over
        announce.changed(event_id)
    return entry


def berserk(event_id: int, player: Any) -> TournamentGame:
    """Berserk: his own turn clock halves for +1 on a win (scoring). Chosen at the table before the
    game is dealt (the waiting room, the 3-2-1), it is kept on the pairing and takes effect at the
    deal (``on_deal``); in the running game, before his first move, it takes effect at once."""
    if player is None or not player.is_authenticated:
        raise ServiceError("login_required")
    with transaction.atomic():
        pairing = (TournamentGame.objects.select_for_update().select_related("tournament")
                   .filter(TournamentGame.seating(player.pk), tournament_id=event_id, status=TournamentGame.Status.PENDING).first())
        if pairing is None or not pairing.tournament.is_arena or pairing.table_id is None:
            raise ServiceError("berserk_not_playing")
        game_id = (Game.objects.filter(table_id=pairing.table_id, status=Game.Status.PLAYING)
                   .values_list("pk", flat=True).first())
        pod_seat = TournamentSeat.objects.filter(pairing=pairing, player=player) if pairing.size > 2 else None
        field = "" if pod_seat is not None else f"berserk_{pairing.side(player.pk)}"
        chosen = pod_seat.filter(berserk=True).exists() if pod_seat is not None else getattr(pairing, field)
        if game_id is not None:
            game_services.halve_turn_clock(game_id, player.pk)
        elif chosen:
            raise ServiceError("berserk_twice")
        if pod_seat is not None:
            pod_seat.update(berserk=True)
        else:
            setattr(pairing, field, True)
            pairing.save(update_fields=[field])
        announce.changed(event_id)
    return pairing


def on_deal(sender: Any, table_id: int, players: int, **kwargs: Any) -> None:
    """game.signals.choose_first_attacker (a game is about to be dealt): a berserk chosen at this
    tournament table before the deal halves its player's clock once the deal commits, before the
    deal's frames leave (so before anyone can move). Chooses no leader."""
    pairing = (TournamentGame.objects.filter(table_id=table_id, status=TournamentGame.Status.PENDING)
               .filter(Q(berserk_a=True) | Q(berserk_b=True) | Q(size__gt=2)).first())
    if pairing is None:
        return None
    if pairing.size > 2:
        chosen = list(TournamentSeat.objects.filter(pairing=pairing, berserk=True).values_list("player_id", flat=True))
    else:
        chosen = [pid for pid, flag in ((pairing.player_a_id, pairing.berserk_a), (pairing.player_b_id, pairing.berserk_b))
                  if flag and pid is not None]
    if not chosen:
        return None
    transaction.on_commit(lambda: _halve_at_deal(table_id, chosen))
    return None


def _halve_at_deal(table_id: int, player_ids: list[int]) -> None:
    game_id = (Game.objects.filter(table_id=table_id, status=Game.Status.PLAYING)
               .values_list("pk", flat=True).first())
    for player_id in player_ids:
        if game_id is None:
            return
        try:
            game_services.halve_turn_clock(game_id, player_id)
        except ServiceError as exc:  # he moved already, or it is halved: nothing to do
            log.info("tournaments: berserk at table %s not applied at the deal: %s", table_id, exc.code)


def remove_player(event_id: int, player_id: int) -> Entry:
    """A moderator removes a player: his score is struck from the standings, his games stay."""
    with transaction.atomic():
        lock_event(event_id)
        entry = (Entry.objects.select_for_update(of=("self",))
                 .filter(tournament_id=event_id, player_id=player_id).first())
        if entry is None:
            raise ServiceError("tournament_not_joined")
        entry.state = Entry.State.REMOVED
        entry.save(update_fields=["state"])
        announce.changed(event_id)
    return entry
