"""Berserk chosen at the table before the game is dealt (the waiting room, the 3-2-1): kept on the
pairing (at a table of 3 or 4, on the player's seat), it halves the player's clock at the deal; chosen twice it is refused; pressed at the table,
the player stays at the table."""

from __future__ import annotations

import pytest
from django.test import TestCase
from django.urls import reverse

from durak_site.errors import ServiceError
from tests.tournaments.helpers import begin, join_all, start
from tournaments import services
from tournaments.models import TournamentGame

pytestmark = pytest.mark.django_db


def _paired(make_event, make_player):
    event = make_event()
    a, b = make_player(), make_player()
    join_all(event, [a, b])
    start(event)
    services.arena_wave(event.pk)
    return event, a, b, TournamentGame.objects.get(tournament=event)


def test_berserk_in_the_waiting_room_halves_the_clock_at_the_deal(make_event, make_player):
    event, a, b, pairing = _paired(make_event, make_player)
    services.berserk(event.pk, a)
    pairing.refresh_from_db()
    assert (pairing.berserk_a if pairing.player_a_id == a.pk else pairing.berserk_b) is True
    with TestCase.captureOnCommitCallbacks(execute=True):
        game = begin(pairing)
    game.refresh_from_db()
    seat_a = game.seats.get(player=a).number
    assert game.halved_seats == [seat_a]  # his only, not his opponent's
    first_turn = (game.deadline - game.started_at).total_seconds()
    expected = event.turn_seconds / 2 if seat_a in game.deadline_seats else event.turn_seconds  # his: half
    assert first_turn == pytest.approx(expected, abs=1.5)


def test_berserk_chosen_twice_before_the_deal_is_refused_and_changes_nothing(make_event, make_player):
    event, a, b, pairing = _paired(make_event, make_player)
    services.berserk(event.pk, a)
    with pytest.raises(ServiceError) as exc:
        services.berserk(event.pk, a)
    assert exc.value.code == "berserk_twice"
    pairing.refresh_from_db()
    assert [pairing.berserk_a, pairing.berserk_b].count(True) == 1


def test_berserk_pressed_at_the_table_keeps_the_player_at_the_table(client, make_event, make_player):
    event, a, b, pairing = _paired(make_event, make_player)
    client.force_login(a)
    table = reverse("lobby:table", args=[pairing.table_id])
    page = client.get(table, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "t-berserk" in page and 'name="next"' in page
    resp = client.post(reverse("tournaments:berserk", args=[event.pk]), {"next": table})
    assert resp.status_code == 302 and resp.url == table
    page = client.get(table, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "t-berserk-on" in page and "your turn clock is halved" in page
    # a next that leaves the site is not followed
    resp = client.post(reverse("tournaments:berserk", args=[event.pk]), {"next": "https://example.com/"})
    assert resp.url == reverse("tournaments:detail", args=[event.pk])


@pytest.mark.parametrize("size", [3, 4])
def test_berserk_in_a_pods_waiting_room_halves_that_seats_clock_at_the_deal(make_event, make_player, size):
    """At a table of 3 or 4 the choice is kept on the player's TournamentSeat (the pairing's berserk_a /
    berserk_b are heads-up only), and the deal halves his clock and nobody else's."""
    from game import services as game_services
    from tournaments.models import TournamentSeat

    event = make_event(seats=size)
    people = [make_player() for _ in range(size)]
    join_all(event, people)
    start(event)
    services.arena_wave(event.pk)
    pod = TournamentGame.objects.get(tournament=event)
    assert pod.size == size
    last = TournamentSeat.objects.select_related("player").get(pairing=pod, number=size)
    assert services.arrived(last.player_id, pod.table_id)  # he sits in the waiting room first
    services.berserk(event.pk, last.player)
    last.refresh_from_db()
    pod.refresh_from_db()
    assert last.berserk and not (pod.berserk_a or pod.berserk_b)
    assert TournamentSeat.objects.filter(pairing=pod, berserk=True).count() == 1
    with pytest.raises(ServiceError) as exc:  # chosen once only
        services.berserk(event.pk, last.player)
    assert exc.value.code == "berserk_twice"
    for pid in pod.player_ids()[:-1]:  # the others come; the 3-2-1 runs out and the game is dealt
        assert services.arrived(pid, pod.table_id)
    with TestCase.captureOnCommitCallbacks(execute=True):
        game = game_services.start_game(pod.table_id)
    game.refresh_from_db()
    his = game.seats.get(player_id=last.player_id).number
    assert game.halved_seats == [his]  # his seat only
    if game.deadline_seats == [his]:  # his turn first: half the clock
        assert (game.deadline - game.started_at).total_seconds() == pytest.approx(event.turn_seconds / 2, abs=1.5)


def test_every_seat_of_a_pod_is_offered_berserk_in_the_waiting_room_and_sees_it_chosen(client, make_event,
                                                                                       make_player):
    """The table's bar and the event page read a pod's berserk from the player's seat: seats 3 and 4
    (neither the pairing's player_a nor player_b) get the button too, and after choosing see the mark."""
    from tournaments.models import TournamentSeat

    event = make_event(seats=4)
    people = [make_player() for _ in range(4)]
    join_all(event, people)
    start(event)
    services.arena_wave(event.pk)
    pod = TournamentGame.objects.get(tournament=event)
    table = reverse("lobby:table", args=[pod.table_id])
    detail = reverse("tournaments:detail", args=[event.pk]) + f"?code={event.invite_code}"
    for seat in TournamentSeat.objects.select_related("player").filter(pairing=pod).order_by("number"):
        client.force_login(seat.player)
        page = client.get(table, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert 'class="t-berserk"' in page and "t-berserk-on" not in page, seat.number
        assert client.post(reverse("tournaments:berserk", args=[event.pk]), {"next": table}).status_code == 302
        page = client.get(table, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert "t-berserk-on" in page and 'class="t-berserk"' not in page, seat.number
        page = client.get(detail, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert "Berserk: your turn clock is halved" in page, seat.number
    assert TournamentSeat.objects.filter(pairing=pod, berserk=True).count() == 4
    # a stranger watching the table is offered nothing
    client.force_login(make_player())
    assert "t-berserk" not in client.get(table, HTTP_ACCEPT_LANGUAGE="en").content.decode()
