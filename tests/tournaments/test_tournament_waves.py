"""Pairing waves against the moments around a game's end: a player whose game just ended is back in
the pool, but his table frees his seat only after the game's transaction commits (lobby's rematch
window, an on-commit hop). A wave in between must neither pause him nor lose him."""

from __future__ import annotations

import pytest
from django.db.models import Q
from django.test import TestCase

from game import services as game_services
from lobby.models import Seat
from tests.tournaments.helpers import begin, join_all, start
from tournaments import services
from tournaments.models import Entry, TournamentGame

pytestmark = pytest.mark.django_db


def _state(event, player) -> str:
    return Entry.objects.get(tournament=event, player=player).state


def _pending(event, player):
    return TournamentGame.objects.filter(Q(player_a=player) | Q(player_b=player), tournament=event,
                                         status=TournamentGame.Status.PENDING).first()


def test_a_wave_before_the_table_frees_his_seat_neither_pauses_nor_loses_the_winner(make_event, make_player):
    event = make_event()
    players = [make_player() for _ in range(4)]
    join_all(event, players)
    start(event)
    assert services.arena_wave(event.pk) == 2
    first, second = TournamentGame.objects.filter(tournament=event).order_by("pk")
    games = [begin(first), begin(second)]
    winner, loser = first.player_a, first.player_b
    with TestCase.captureOnCommitCallbacks(execute=False) as hops:
        game_services.leave_game(games[0].pk, loser)  # committed; the table's hop not run yet
    assert Seat.objects.filter(player=winner, in_game=True).exists()  # his seat still reads "in game"
    with TestCase.captureOnCommitCallbacks(execute=True):
        game_services.leave_game(games[1].pk, second.player_b)  # the other table is free at once
    services.arena_wave(event.pk)
    assert _state(event, winner) == Entry.State.WAITING  # not paused for a seat about to be freed
    for hop in hops:
        hop()
    services.arena_wave(event.pk)
    assert _pending(event, winner) is not None and _state(event, winner) == Entry.State.PLAYING
    assert not Entry.objects.filter(tournament=event, state=Entry.State.PAUSED).exists()
