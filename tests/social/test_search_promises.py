"""What a search promises, played to the end: the choices made in «Найти соперников» are the table's
and the game's (an unticked «На рейтинг» is an unrated game, its reason shown with the others)."""

from __future__ import annotations

import random

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def play_out(game_id: int, seed: int = 3):
    """Every awaited person moves like the heuristic bot, through the game server, to the end."""
    from game import engine
    from game import services as game_services
    from game.engine.bots import choose_action
    from game.models import Game, GameSeat

    rng = random.Random(seed)
    for k in range(2000):
        game = Game.objects.get(pk=game_id)
        if game.status != Game.Status.PLAYING:
            return game
        state = engine.GameState.from_json(game.state)
        seat = engine.whose_turn(state)[0]
        gs = GameSeat.objects.select_related("player").get(game=game, number=seat)
        action = choose_action("heuristic", engine.view_for(state, seat), rng) or engine.timeout_action(state, seat)
        game_services.apply_player_action(game_id, gs.player, game.version, f"m{k}", action)
    raise AssertionError("the game did not finish")


def matched_game(make_player, online, rated: str):
    """Two people search with these choices, are matched, arrive, and their game is dealt."""
    from game import services as game_services
    from social import queue

    a, b = make_player(), make_player()
    online(a, b)
    queue.join(a, players="2", bot_fill="0", rated=rated)
    rb = queue.join(b, players="2", bot_fill="0", rated=rated)
    assert rb.status == "matched"
    table = rb.table
    queue.arrived(a.pk, table.pk)
    queue.arrived(b.pk, table.pk)
    return a, b, table, game_services.start_game(table.pk)


def test_an_unrated_search_plays_an_unrated_game_that_moves_no_rating(make_player, online, client):
    from ratings.models import GameRecord, Rating, RatingChange

    a, b, table, game = matched_game(make_player, online, rated="0")
    table.refresh_from_db()
    assert table.rated is False
    assert game.rating_on is False
    game = play_out(game.pk)
    assert game.status == "finished"
    record = GameRecord.objects.get(game=game)
    assert record.rated is False and record.unrated_reason == "rating_off"
    assert not RatingChange.objects.filter(game=game).exists()
    assert not Rating.objects.filter(player__in=[a, b]).exclude(value=1000).exists()
    assert game.result["rated"] is False and game.result["unrated_reason"] == "rating_off"
    # the reason is worded where the other unrated reasons are, in both languages
    from django.utils import translation

    from ratings.services import unrated_label
    with translation.override("ru"):
        assert unrated_label("rating_off") == "так выбрано в поиске"
    with translation.override("en"):
        assert unrated_label("rating_off") == "chosen in the search"
    client.force_login(a)
    page = client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "unrated_rating_off" in page


def test_a_rated_search_still_plays_a_rated_game(make_player, online):
    from ratings.models import GameRecord

    _a, _b, table, game = matched_game(make_player, online, rated="1")
    table.refresh_from_db()
    assert table.rated is True and game.rating_on is True
    game = play_out(game.pk)
    assert GameRecord.objects.get(game=game).unrated_reason != "rating_off"


def test_the_waiting_room_of_an_unrated_match_says_the_game_will_be_unrated(make_player, online, client):
    from social import queue

    a, b = make_player(), make_player()
    online(a, b)
    queue.join(a, players="2", bot_fill="0", rated="0")
    rb = queue.join(b, players="2", bot_fill="0", rated="0")
    client.force_login(a)
    page = client.get(f"/tables/{rb.table_id}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Партия пойдёт без рейтинга: так выбрано в поиске." in page
