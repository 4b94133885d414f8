"""Tournament test helpers: an event started, players joined, a pairing's game dealt or
resigned (played out: tests.game.helpers.play_out), through the services (the clock moved by editing a deadline column, as the timers' tests
do). A module of its own, imported by its package path: a bare `from conftest import` finds whichever
test folder's conftest was loaded last."""

from __future__ import annotations


def start(event):
    """The start falls due now and fires."""
    from durak_site.clock import db_now
    from tournaments import services
    from tournaments.models import Tournament

    Tournament.objects.filter(pk=event.pk).update(start_deadline=db_now())
    services.fire_start(event.pk)
    event.refresh_from_db()
    return event


def join_all(event, players):
    from tournaments import services

    for p in players:
        services.join(event.pk, p, code=event.invite_code)


def begin(pairing):
    """Both players arrive (ready) and the game is dealt; returns the Game."""
    from game import services as game_services
    from tournaments import services

    services.arrived(pairing.player_a_id, pairing.table_id)
    services.arrived(pairing.player_b_id, pairing.table_id)
    return game_services.start_game(pairing.table_id)


def resign(game_id: int, loser):
    """The fast end: the loser presses «Выйти» (his opponent wins)."""
    from django.test import TestCase

    from game import services as game_services

    with TestCase.captureOnCommitCallbacks(execute=True):
        game_services.leave_game(game_id, loser)
