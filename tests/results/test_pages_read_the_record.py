"""The history and the replay say each seat's outcome in words, from the game's one record."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse
from results_helpers import away_since, play_until, player, seat_of, start, state

from game import services as game_services

pytestmark = pytest.mark.django_db


def test_the_history_and_the_replay_say_who_did_not_return(client):
    tester, other = player("tester", "10.0.0.1"), player("other", "10.0.0.2")
    game_id = start([tester, other], policy="lose")
    play_until(game_id, random.Random(5), lambda: state(game_id).round >= 2)
    away_since(game_id, tester, 40)
    game_services.fire_disconnect_deadline(game_id, seat_of(game_id, tester))
    history = client.get(reverse("ratings:history", args=["tester"]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "did not return in time" in history and ("−15" in history or "-15" in history)
    replay = client.get(reverse("ratings:replay", args=[game_id]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "did not return in time" in replay and "resign" not in replay.split("<ul class=\"rt-players\">")[1][:800]
    ru = client.get(reverse("ratings:history", args=["tester"]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "неявка после обрыва связи" in ru
