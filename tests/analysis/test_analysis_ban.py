"""A ban turns the banned player's automatic analyses off: the switch is off after the ban, he cannot
turn it on again, and a rated game of his that ends after the ban is not analysed for him."""

from __future__ import annotations

import pytest
from django.urls import reverse

from analysis import services
from analysis.models import Analysis, AnalysisSettings
from durak_site.errors import ServiceError
from tests.ratings.ratings_factories import make_player, make_table, play_finished_game

pytestmark = pytest.mark.django_db


def _ban(player):
    from accounts import services as accounts_services

    moderator = make_player("moderator")
    return accounts_services.ban(player, "farming", moderator)


def test_banning_turns_the_automatic_analysis_off(client):
    bad, other = make_player("bad"), make_player("other")
    services.set_auto(bad, True)
    services.set_auto(other, True)
    bad = _ban(bad)
    assert not services.auto_enabled(bad)
    assert AnalysisSettings.objects.get(player=bad).auto is False
    assert services.auto_enabled(other)  # nobody else's switch moves


def test_a_banned_player_cannot_turn_it_on_again_and_may_turn_it_off(client):
    bad = make_player("bad")
    bad = _ban(bad)
    with pytest.raises(ServiceError) as exc:
        services.set_auto(bad, True)
    assert exc.value.code == "banned"
    assert not services.auto_enabled(bad)
    assert services.set_auto(bad, False).auto is False
    client.force_login(bad)
    client.post(reverse("analysis:settings"), {"auto": "1"})
    assert not services.auto_enabled(bad)


def test_a_rated_game_ending_after_his_ban_is_not_analysed_for_him():
    bad, other = make_player("bad"), make_player("other")
    services.set_auto(bad, True)
    game = play_finished_game(make_table(seats_count=2), [bad, other], seed=4)
    type(game).objects.filter(pk=game.pk).update(rated=True)
    _ban(bad)
    AnalysisSettings.objects.filter(player=bad).update(auto=True)  # a switch the ban's hooks did not reach
    assert services.auto_analyse(game.pk) is False
    assert not Analysis.objects.filter(game=game).exists()
