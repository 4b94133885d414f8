"""A farming attempt (docs/RULES.md#ratings): B hosts, A sits, a few moves into round 2, B leaves.

Each defence is shown on its own: one address, a brand-new second account, the daily pair limit,
and too short a game."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse
from results_helpers import game, play_until, player, start, state

from game import services as game_services
from ratings.models import GameRecord, Rating

pytestmark = pytest.mark.django_db


def _farm(a, b, games: int = 3, rounds: int = 2) -> list[GameRecord]:
    records = []
    for k in range(games):
        game_id = start([b, a], policy="lose")
        play_until(game_id, random.Random(k), lambda gid=game_id: state(gid).round >= rounds)
        game_services.leave_game(game_id, b)
        records.append(GameRecord.objects.get(game_id=game_id))
    return records


def _value(p) -> int:
    row = Rating.objects.filter(player=p).first()
    return row.value if row is not None else 1000


def _established(*people) -> None:
    for p in people:
        Rating.objects.update_or_create(player=p, defaults={"games": 20})


def test_two_accounts_on_one_address_play_unrated():
    a, b = player("a", "192.0.2.7"), player("b", "192.0.2.7")
    _established(a, b)
    records = _farm(a, b)
    assert [(r.rated, r.unrated_reason, r.shared_address) for r in records] == [(False, "shared_address", True)] * 3
    assert (_value(a), _value(b)) == (1000, 1000)


def test_a_brand_new_second_account_does_not_move_its_opponents_rating():
    a, b = player("a", "192.0.2.1"), player("b", "198.51.100.2")
    _established(a)
    records = _farm(a, b)
    assert _value(a) == 1000  # +45 before
    assert _value(b) == 955  # the leaver still pays for leaving
    assert all(r.unrated_reason == "provisional" for r in records)
    result = game(records[0].game_id).result
    mine = next(row for row in result["outcomes"] if row["outcome"] == "won")
    assert mine["rating_change"] is None and result["unrated_reason"] == "provisional"


def test_his_history_says_the_game_did_not_count_for_him_and_why(client):
    a, b = player("a", "192.0.2.1"), player("b", "198.51.100.2")
    _established(a)
    _farm(a, b, games=1)
    page = client.get(reverse("ratings:history", args=["a"]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "unrated: a new account&#x27;s first games" in page or "unrated: a new account's first games" in page


def test_the_same_pair_earns_rating_a_limited_number_of_times_a_day(settings):
    settings.RATINGS_PAIR_GAMES_PER_DAY = 2
    a, b = player("a", "192.0.2.1"), player("b", "198.51.100.2")
    _established(a, b)
    records = _farm(a, b)
    assert [r.unrated_reason for r in records] == ["", "", "pair_limit"]
    assert (_value(a), _value(b)) == (1030, 970)


def test_leaving_in_the_first_round_costs_the_leaver_and_gains_the_other_nothing():
    a, b = player("a", "192.0.2.1"), player("b", "198.51.100.2")
    _established(a, b)
    records = _farm(a, b, games=2, rounds=1)
    assert [(r.rated, r.unrated_reason) for r in records] == [(False, "too_short")] * 2
    assert (_value(a), _value(b)) == (1000, 970)
