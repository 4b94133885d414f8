"""The profile: accuracy over the player's last analysed games with its trend and most frequent
mistake, and the switch "analyse my rated games automatically" (used when a rated game ends)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from analysis import services
from analysis.models import Analysis, AnalysisSettings, SeatAnalysis
from tests.ratings.ratings_factories import make_player, make_table, play_finished_game

pytestmark = pytest.mark.django_db


def _game(*lineup, seed=4):
    return play_finished_game(make_table(seats_count=len(lineup)), list(lineup), seed=seed)


def test_the_switch_is_saved_and_refuses_bad_input(client):
    vera = make_player("vera")
    url = reverse("analysis:settings")
    assert client.post(url, {"auto": "1"}).status_code == 403
    client.force_login(vera)
    assert client.get(url).status_code == 405
    client.post(url, {"auto": "yes please"})
    assert not AnalysisSettings.objects.exists()
    assert client.post(url, {"auto": "1"}).status_code == 302
    assert services.auto_enabled(vera)
    html = client.get(reverse("accounts:profile")).content.decode()
    assert "Остановить автоматический разбор" in html
    client.post(url, {"auto": "0"})
    assert not services.auto_enabled(vera)


def test_a_rated_game_is_analysed_automatically_only_for_a_player_who_asked():
    vera, ivan = make_player("vera"), make_player("ivan")
    unrated, rated, rated_too = _game(vera, ivan), _game(vera, ivan, seed=5), _game(vera, ivan, seed=6)
    type(rated).objects.filter(pk__in=[rated.pk, rated_too.pk]).update(rated=True)
    assert services.auto_analyse(rated.pk) is False  # nobody asked
    services.set_auto(ivan, True)
    assert services.auto_analyse(unrated.pk) is False  # not rated
    assert services.auto_analyse(rated.pk) is True
    assert Analysis.objects.get(game=rated).status == Analysis.Status.DONE
    assert services.auto_analyse(rated.pk) is False  # once


def test_the_profile_shows_accuracy_trend_and_the_frequent_mistake(client):
    vera, ivan = make_player("vera"), make_player("ivan")
    client.force_login(vera)
    assert "Ни одна ваша партия" in client.get(reverse("accounts:profile")).content.decode()
    for k in range(6):
        a = Analysis.objects.create(game=_game(vera, ivan, seed=20 + k), status=Analysis.Status.DONE)
        SeatAnalysis.objects.create(analysis=a, seat=1, player=vera, judged=10, accuracy=0.6 + 0.05 * k,
                                    patterns={"trump_instead_of_take": 1})
    summary = services.profile_summary(vera)
    assert summary == {"games": 6, "accuracy": round(100 * (0.6 + 0.05 * 2.5)), "trend": "up",
                       "pattern": "trump_instead_of_take"}
    html = client.get(reverse("accounts:profile")).content.decode()
    assert f"{summary['accuracy']}%" in html and "растёт" in html and "отбой козырем, когда лучше было взять" in html
