"""Admin: read-only rating lists and the moderators' "void game rating" action with a reason."""

from __future__ import annotations

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse
from ratings_factories import finished_game_row, make_player, make_table

from ratings import services
from ratings.models import GameRecord, Rating, RatingChange

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator():
    return make_player("mod", is_staff=True, is_superuser=True)


def _rated_game():
    a, b = make_player(), make_player()
    game = finished_game_row(make_table(seats_count=2), [a, b], {"loser": 1, "losers": [1], "winners": [2]})
    services.record_game_result(game)
    return game, a, b


def test_rating_lists_are_read_only_for_moderators(client, moderator):
    game, a, _b = _rated_game()
    client.force_login(moderator)
    assert client.get(reverse("admin:ratings_rating_changelist")).status_code == 200
    assert client.get(reverse("admin:ratings_ratingchange_changelist")).status_code == 200
    assert client.get(reverse("admin:ratings_gamerecord_changelist")).status_code == 200
    assert client.get(reverse("admin:ratings_rating_add")).status_code == 403
    change = RatingChange.objects.filter(game=game).first()
    url = reverse("admin:ratings_ratingchange_change", args=[change.pk])
    client.post(url, {"delta": 100})
    assert RatingChange.objects.get(pk=change.pk).delta == change.delta


def test_void_action_asks_for_a_reason_then_reverses_the_changes(client, moderator):
    game, a, b = _rated_game()
    client.force_login(moderator)
    url = reverse("admin:ratings_gamerecord_changelist")
    data = {"action": "void_rating", ACTION_CHECKBOX_NAME: [str(game.pk)]}
    page = client.post(url, data, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200 and b'name="reason"' in page.content
    assert Rating.objects.get(player=a).value == 985  # nothing yet
    page = client.post(url, {**data, "apply": "1", "reason": ""}, HTTP_ACCEPT_LANGUAGE="en")
    assert b'name="reason"' in page.content  # a reason is required
    assert Rating.objects.get(player=a).value == 985
    client.post(url, {**data, "apply": "1", "reason": "collusion reported"}, follow=True)
    assert Rating.objects.get(player=a).value == 1000 and Rating.objects.get(player=b).value == 1000
    assert GameRecord.objects.get(game=game).void_reason == "collusion reported"
    resp = client.post(url, {**data, "apply": "1", "reason": "again"}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "already voided" in resp.content.decode()
    assert GameRecord.objects.get(game=game).void_reason == "collusion reported"


def test_players_cannot_open_the_ratings_admin(client):
    game, a, _b = _rated_game()
    client.force_login(a)
    resp = client.post(reverse("admin:ratings_gamerecord_changelist"),
                       {"action": "void_rating", ACTION_CHECKBOX_NAME: [str(game.pk)], "apply": "1", "reason": "x"})
    assert resp.status_code == 302 and "/login/" in resp["Location"]
    assert Rating.objects.get(player=a).value == 985


def test_moderators_see_club_membership_in_the_club_standings_list(client, moderator):
    from lobby.models import Seat

    table = make_table(series_length=30, rules={"pairs": True})
    ps = [make_player() for _ in range(4)]
    for n, p in enumerate(ps, start=1):
        Seat.objects.create(table=table, number=n, player=p)
    services.record_game_result(finished_game_row(table, ps, {"losers": [2, 4], "winners": [1, 3]},
                                                  rules={"pairs": True}))
    client.force_login(moderator)
    url = reverse("admin:ratings_clubstanding_changelist")
    html = client.get(url + "?in_club__exact=1", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert all(p.nick in html for p in ps) and "club_place" in html
    assert client.get(reverse("admin:ratings_clubstanding_add")).status_code == 403
