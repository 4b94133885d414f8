"""What a search promises, played to the end: the choices made in «Найти соперников» are the table's
and the game's (an unticked «На рейтинг» is an unrated game, its reason shown with the others)."""

from __future__ import annotations

import pytest

from tests.game.helpers import play_out

pytestmark = pytest.mark.django_db(transaction=True)


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
    game = play_out(game.pk, seed=3)
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
    game = play_out(game.pk, seed=3)
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


def test_a_matched_tables_settings_stay_the_searchs(make_player, online, client):
    """The host of a table the search made cannot change its rules, timer, series or leave policy,
    add a bot, hold the start or stop the countdown before the other arrives."""
    from durak_site.errors import ServiceError
    from lobby import services as lobby_services
    from lobby.models import Table
    from social import people, queue

    a, b = make_player(), make_player()
    online(a, b)
    queue.join(a, players="3", bot_fill="0", turn_seconds="30")
    c = make_player()
    online(c)
    queue.join(c, players="3", bot_fill="0", turn_seconds="30")
    rb = queue.join(b, players="3", bot_fill="0", turn_seconds="30")
    table = Table.objects.get(pk=rb.table_id)
    host = table.host
    before = (table.rules, table.turn_seconds, table.series_length, table.disconnect_policy, table.version)
    attempts = [
        lambda: lobby_services.update_rules(table.pk, host, turn_seconds=90),
        lambda: lobby_services.update_rules(table.pk, host, series_length=30),
        lambda: lobby_services.update_rules(table.pk, host, disconnect_policy="lose"),
        lambda: lobby_services.update_rules(table.pk, host, deck_size=52),
        lambda: people.set_reliable_only(host, table.pk, True),
    ]
    for attempt in attempts:
        with pytest.raises(ServiceError) as exc:
            attempt()
        assert exc.value.code == "matched_table_locked"
    queue.arrived(a.pk, table.pk)
    queue.arrived(b.pk, table.pk)
    queue.arrived(c.pk, table.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.COUNTDOWN
    for attempt in (lambda: lobby_services.cancel_countdown(table.pk, host),
                    lambda: lobby_services.set_ready(table.pk, host, False)):
        with pytest.raises(ServiceError) as exc:
            attempt()
        assert exc.value.code == "matched_table_locked"
    table.refresh_from_db()
    assert (table.rules, table.turn_seconds, table.series_length, table.disconnect_policy) == before[:4]
    assert table.status == Table.Status.COUNTDOWN
    client.force_login(host)
    room = client.get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "edit rules" not in room and 'value="unready"' not in room and 'value="cancel"' not in room


def test_a_bot_filled_match_keeps_its_bots(make_player, online):
    from lobby.models import Seat
    from social import queue
    from social.models import SearchRequest
    from tests.social.conftest import age, sweep_until

    a, b = make_player(), make_player()
    online(a, b)
    ra = queue.join(a, players="4", bot_fill="15")
    rb = queue.join(b, players="4", bot_fill="15")
    age(ra, 16)
    age(rb, 16)
    sweep_until(lambda: SearchRequest.objects.get(pk=ra.pk).table_id is not None)  # "search_match"
    ra.refresh_from_db()
    assert ra.table.matched
    assert Seat.objects.filter(table=ra.table).exclude(bot_level="").count() == 2
