"""A private table is nonexistent for a stranger through every URL that takes a table, game or series
id, exactly as for an id that does not exist; its players, host and invite holders see it."""

from __future__ import annotations

import pytest
from django.test import Client

from game import services
from game.models import Game
from tests.game.helpers import make_player, make_table
from tests.security.kit import signed_in

pytestmark = pytest.mark.django_db(transaction=True)

NAME = "Secret table of friends"


@pytest.fixture(autouse=True)
def _no_bots(settings):
    settings.BOT_SCHEDULER = "off"


def _private_game(finished: bool = False):
    a, b, host = make_player(), make_player(), make_player()
    table = make_table(humans=[a, b])
    table.private, table.host, table.invite_code, table.name = True, host, "secret-invite-code", NAME
    table.save()
    game = services.start_game(table.pk)
    if finished:
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    return a, host, table, game


def _gets(table_id: int, game_id: int) -> dict[str, str]:
    return {"series": f"/ratings/series/{table_id}/", "game": f"/games/{game_id}/",
            "replay": f"/ratings/games/{game_id}/", "analysis": f"/analysis/games/{game_id}/",
            "analysis_progress": f"/analysis/games/{game_id}/progress/"}


def _posts(table_id: int, game_id: int) -> dict[str, tuple[str, dict]]:
    return {"leave": (f"/games/{game_id}/leave/", {}),
            "analyse": (f"/analysis/games/{game_id}/request/", {}),
            "leader": (f"/ratings/series/{table_id}/leader/", {"seat": "1"})}


@pytest.mark.parametrize("finished", [False, True])
@pytest.mark.parametrize("who", ["stranger", "anonymous"])
def test_a_stranger_gets_the_missing_ids_answer(who, finished):
    _a, _host, table, game = _private_game(finished)
    client = signed_in(make_player()) if who == "stranger" else Client()
    missing = _gets(987654, 987654)
    for key, url in _gets(table.pk, game.pk).items():
        answer = client.get(url)
        assert answer.status_code == client.get(missing[key]).status_code == 404, key
        assert NAME not in answer.content.decode(), key
    if who == "stranger":
        missing_posts = _posts(987654, 987654)
        for key, (url, data) in _posts(table.pk, game.pk).items():
            assert client.post(url, data).status_code == client.post(missing_posts[key][0], data).status_code == 404, key


@pytest.mark.parametrize("finished", [False, True])
def test_players_the_host_and_invite_holders_see_it(finished):
    a, host, table, game = _private_game(finished)
    invited = Client()
    assert invited.get(f"/tables/{table.pk}/?invite=secret-invite-code").status_code == 200
    for client in (signed_in(a), signed_in(host), invited):
        urls = _gets(table.pk, game.pk)
        assert client.get(urls["series"]).status_code == 200
        assert client.get(urls["game"]).status_code == 302
        assert client.get(urls["replay"]).status_code == 200


def test_a_former_player_still_sees_his_finished_game():
    a, _host, table, game = _private_game(finished=True)
    table.seats.filter(player=a).delete()  # he has left the table since
    client = signed_in(a)
    assert client.get(f"/ratings/games/{game.pk}/").status_code == 200
    assert client.get(f"/ratings/series/{table.pk}/").status_code == 200
