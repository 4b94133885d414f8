"""The moderators' suspicious pairs (with "void"), the club's default disconnect policy, and the
waiting room saying before the start whether the game will be rated."""

from __future__ import annotations

import pytest
from django.urls import reverse
from results_helpers import player, table
from test_farming import _established, _farm, _value

from lobby.forms import TableSettingsForm
from lobby.models import Seat, Table
from ratings import services
from ratings.models import GameRecord

pytestmark = pytest.mark.django_db


def test_the_farming_pair_is_listed_for_moderators_who_void_a_game_there(client, settings):
    settings.RATINGS_SUSPICIOUS_PAIR_GAMES = 3
    a, b = player("a", "192.0.2.1"), player("b", "198.51.100.2")
    _established(a, b)
    records = _farm(a, b)
    player("c"), player("d")
    pairs = services.suspicious_pairs()
    assert [(p.a.nick, p.b.nick, len(p.games), p.one_sided) for p in pairs] == [("a", "b", 3, True)]
    mod = player("mod")
    mod.is_staff = mod.is_superuser = True
    mod.save()
    client.force_login(mod)
    url = reverse("admin:ratings_gamerecord_suspicious")
    page = client.get(url)
    assert page.status_code == 200 and "a — b" in page.content.decode()
    assert url in client.get(reverse("admin:ratings_gamerecord_changelist")).content.decode()
    client.post(url, {"game_id": str(records[0].game_id), "reason": "farming"})
    assert GameRecord.objects.get(pk=records[0].pk).voided_at is not None
    assert (_value(a), _value(b)) == (1030, 970)
    client.post(url, {"game_id": "x", "reason": "farming"})  # bad input: a message, nothing changes
    assert (_value(a), _value(b)) == (1030, 970)


def test_a_player_cannot_open_the_suspicious_pairs(client):
    client.force_login(player("p"))
    assert client.get(reverse("admin:ratings_gamerecord_suspicious")).status_code == 302


def test_new_tables_default_to_a_bot_playing_after_15_plus_60_s():
    assert Table.objects.create(name="x").disconnect_policy == "bot"
    assert TableSettingsForm().fields["disconnect_policy"].initial == "bot"


def test_the_waiting_room_says_whether_the_game_will_be_rated_and_why_not(client):
    a, b = player("a", "192.0.2.1"), player("b", "198.51.100.2")
    t = table([a, b])
    client.force_login(a)
    rated = client.get(reverse("lobby:room", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "will be rated" in rated
    c = player("c", "192.0.2.1")
    Seat.objects.filter(table=t, number=2).update(player=c)
    shared = client.get(reverse("lobby:room", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "unrated: players on one address" in shared
    Seat.objects.filter(table=t, number=2).update(player=None, bot_level="heuristic")
    bots = client.get(reverse("lobby:room", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "unrated: bots at the table" in bots


def test_the_rules_page_states_the_rating_rules(client, settings):
    settings.RATINGS_PAIR_GAMES_PER_DAY = 4
    page = client.get(reverse("lobby:rules"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="rating"' in page and "at most 4 games a day" in page
