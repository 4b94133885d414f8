"""Friends on one network: the shared-address rule keeps two accounts on one address unrated, but a
pair that has played enough unrated games together with even results, or that a moderator marked
as known, plays rated; the waiting room says so and what is left to do."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse
from django.utils import timezone
from results_helpers import play_until, player, start, table

from game.models import Game
from ratings.models import GameRecord, KnownPair, Outcome, PlayerGame, Rating

pytestmark = pytest.mark.django_db

HOME = "192.0.2.7"


@pytest.fixture(autouse=True)
def _two_games_earn_trust(settings):
    settings.RATINGS_KNOWN_PAIR_GAMES = 2


def _friends():
    a, b = player("anna", HOME), player("boris", HOME)
    for p in (a, b):
        Rating.objects.update_or_create(player=p, defaults={"games": 20})
    return a, b


def _past_game(a, b, winner, *, left=None) -> None:
    """TEST factory: a finished unrated game of the pair on one address, as ratings recorded it."""
    t = table([a, b])
    game = Game.objects.create(table=t, rules={}, seed="1", initial_state={}, state={},
                               status=Game.Status.FINISHED, finished_at=timezone.now())
    record = GameRecord.objects.create(game=game, table=t, variant="podkidnoy", rated=False,
                                       unrated_reason="shared_address", shared_address=True,
                                       finished_at=timezone.now())
    for seat, p in enumerate((a, b), start=1):
        PlayerGame.objects.create(record=record, player=p, seat=seat, finished_at=timezone.now(),
                                  outcome=Outcome.WIN if p == winner else Outcome.LOSS, left=p == left)


def _next_game(a, b, seed: int = 4) -> GameRecord:
    game_id = start([a, b])
    play_until(game_id, random.Random(seed), lambda: False)
    return GameRecord.objects.get(game_id=game_id)


def test_without_a_history_friends_on_one_address_play_unrated():
    a, b = _friends()
    _past_game(a, b, a)
    record = _next_game(a, b)
    assert (record.rated, record.unrated_reason) == (False, "shared_address")


def test_enough_even_unrated_games_together_make_the_pair_eligible():
    a, b = _friends()
    _past_game(a, b, a)
    _past_game(a, b, b)
    record = _next_game(a, b)
    assert record.rated and record.shared_address


@pytest.mark.parametrize("history", ["one_sided", "a_leaver"])
def test_suspicious_results_keep_the_pair_unrated(history):
    a, b = _friends()
    if history == "one_sided":
        _past_game(a, b, a)
        _past_game(a, b, a)
        _past_game(a, b, a)
    else:
        _past_game(a, b, a)
        _past_game(a, b, b)
        _past_game(a, b, a, left=b)
    record = _next_game(a, b)
    assert (record.rated, record.unrated_reason) == (False, "shared_address")


def test_a_moderator_marks_a_pair_as_known_in_the_admin(client):
    a, b = _friends()
    moderator = player("mod")
    moderator.is_staff = moderator.is_superuser = True
    moderator.save()
    client.force_login(moderator)
    answer = client.post(reverse("admin:ratings_knownpair_add"),
                         {"first": a.nick, "second": b.nick, "note": "brother and sister"})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    pair = KnownPair.objects.get()
    assert (pair.low_id, pair.high_id, pair.marked_by_id) == (a.pk, b.pk, moderator.pk)
    record = _next_game(a, b)
    assert record.rated and record.shared_address


def test_the_waiting_room_tells_friends_how_to_play_rated(client):
    a, b = _friends()
    t = table([a, b])
    client.force_login(a)
    room = client.get(reverse("lobby:room", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "unrated: players on one address" in room
    assert "2 unrated games together" in room and "moderator" in room
    ru = client.get(reverse("lobby:room", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "модератор" in ru
    KnownPair.objects.create(low=a, high=b)
    room = client.get(reverse("lobby:room", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "will be rated" in room


def test_the_rules_page_tells_friends_on_one_network_what_counts(client):
    page = client.get(reverse("lobby:rules"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Friends on one network play rated once they have played 2 unrated games together" in page
    ru = client.get(reverse("lobby:rules"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "сыграли вместе 2 нерейтинговые партии" in ru
