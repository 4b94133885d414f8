"""The shared-address rule reads every address an account used around the game (during it and in
the days before), not only its last one: one socket opened from elsewhere does not make a game
played from one address rated; an address given up long ago is forgotten."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone
from results_helpers import play_until, player, start

from accounts import services as accounts_services
from accounts.models import AddressUse
from ratings.models import GameRecord, Rating

pytestmark = pytest.mark.django_db

HOME, PHONE, OLD = "192.0.2.7", "198.51.100.9", "203.0.113.5"


def _established(*people) -> None:
    for p in people:
        Rating.objects.update_or_create(player=p, defaults={"games": 20})


def _play_whole_game(people, seed: int = 1) -> GameRecord:
    game_id = start(people)
    play_until(game_id, random.Random(seed), lambda: False)
    return GameRecord.objects.get(game_id=game_id)


def test_an_account_that_last_connected_from_elsewhere_still_shares_the_address():
    a, b = player("a", HOME), player("b", HOME)
    accounts_services.record_address(b.pk, PHONE)  # a sub-second socket from another network
    _established(a, b)
    record = _play_whole_game([a, b])
    assert (record.rated, record.unrated_reason, record.shared_address) == (False, "shared_address", True)


def test_an_address_used_during_the_game_counts():
    a, b = player("a", HOME), player("b", PHONE)
    _established(a, b)
    game_id = start([a, b])
    accounts_services.record_address(b.pk, HOME)  # b comes over to a's network mid-game
    accounts_services.record_address(b.pk, PHONE)
    play_until(game_id, random.Random(2), lambda: False)
    record = GameRecord.objects.get(game_id=game_id)
    assert (record.rated, record.unrated_reason) == (False, "shared_address")


def test_an_address_given_up_long_ago_is_forgotten(settings):
    a, b = player("a", HOME), player("b", OLD)
    accounts_services.record_address(b.pk, PHONE)
    long_ago = timezone.now() - timedelta(days=settings.RATINGS_SHARED_ADDRESS_DAYS + 1)
    AddressUse.objects.filter(player=b, address=OLD).update(first_at=long_ago, last_at=long_ago)
    accounts_services.record_address(a.pk, OLD)  # a now uses b's old address
    accounts_services.record_address(a.pk, HOME)
    _established(a, b)
    record = _play_whole_game([a, b], seed=3)
    assert record.shared_address is False and record.unrated_reason in ("", "too_short")


def test_the_history_is_kept_per_address_not_per_connection():
    a = player("a", HOME)
    for _ in range(5):
        accounts_services.record_address(a.pk, PHONE)
        accounts_services.record_address(a.pk, HOME)
    assert sorted(AddressUse.objects.filter(player=a).values_list("address", flat=True)) == [HOME, PHONE]
    a.refresh_from_db()
    assert a.last_address == HOME
