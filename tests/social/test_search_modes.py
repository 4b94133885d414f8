"""Quick play in every mode: cheater mode and pairs 2×2 are search choices like the others. A mode is
never open (nobody is dealt a mode he did not choose), a table the search makes plays its mode, pairs
seat four, bots fill the seats nobody comes for, and a rated pairs game moves each pair's ratings
together."""

from __future__ import annotations

import pytest

from social.matching import Candidate, groups, mode_of, modes_meet, table_settings
from tests.social.conftest import age

pytestmark = pytest.mark.django_db(transaction=True)


def c(i, **kw) -> Candidate:
    return Candidate(id=i, player_id=i, rating=1000, waited=0.0, **kw)


@pytest.mark.django_db(transaction=False)
def test_searches_of_different_modes_never_meet_even_with_everything_else_open():
    for a, b in (("classic", "cheater"), ("classic", "pairs"), ("cheater", "pairs")):
        assert not modes_meet(mode_of(c(1, mode=a)), mode_of(c(2, mode=b)))
        assert groups([c(1, mode=a, players=2), c(2, mode=b, players=2)]) == []
    [(group, fill)] = groups([c(1, mode="cheater", players=2), c(2, mode="cheater")])
    assert not fill and table_settings(group, fill)["preset"] == "cheater"


@pytest.mark.django_db(transaction=False)
def test_a_pairs_group_is_four_and_its_table_is_a_pairs_table_of_four_seats():
    queue = [c(i, mode="pairs", players=4) for i in range(1, 6)]
    [(group, fill)] = groups(queue)
    assert [g.id for g in group] == [1, 2, 3, 4] and not fill
    assert table_settings(group, fill) == {"preset": "pairs", "variant": "podkidnoy", "seats_count": 4,
                                           "deck_size": 36, "turn_seconds": 30, "rated": True}


def _rules(table_id):
    from lobby.models import Table

    return Table.objects.get(pk=table_id).rules


def test_two_cheater_searches_meet_at_a_cheater_table_and_a_classic_one_waits(make_player, online):
    from game import services as game_services
    from social import queue

    a, b, classic = make_player(), make_player(), make_player()
    online(a, b, classic)
    queue.join(classic, players="2", bot_fill="0", rated="0")
    queue.join(a, mode="cheater", players="2", bot_fill="0", rated="0")
    rb = queue.join(b, mode="cheater", players="2", bot_fill="0", rated="0")
    assert rb.status == "matched" and rb.mode == "cheater"
    assert queue.live_request(classic.pk).status == "waiting"  # nobody of his mode
    assert _rules(rb.table_id)["cheater"] is True and rb.table.preset == "cheater"
    for p in (a, b):
        queue.arrived(p.pk, rb.table_id)
    game = game_services.start_game(rb.table_id)
    assert game.rules["cheater"] is True


def test_four_pairs_searches_make_a_pairs_table_of_four(make_player, online):
    from lobby.models import Seat
    from social import queue

    players = [make_player() for _ in range(4)]
    online(*players)
    rows = [queue.join(p, mode="pairs", bot_fill="0", rated="0") for p in players]
    assert rows[0].players == 4  # pairs are four whatever was left open
    last = queue.live_request(players[-1].pk)
    assert last.status == "matched"
    table = last.table
    assert table.seats_count == 4 and _rules(table.pk)["pairs"] is True
    assert set(Seat.objects.filter(table=table).values_list("player_id", flat=True)) == {p.pk for p in players}


def test_a_pairs_search_alone_fills_with_bots_after_its_wait_and_its_game_is_unrated(make_player, online):
    from durak_site import deadlines
    from game import services as game_services
    from lobby.models import Seat
    from social import queue

    a, b = make_player(), make_player()
    online(a, b)
    ra = queue.join(a, mode="pairs", bot_fill="15", rated="1")
    queue.join(b, mode="pairs", bot_fill="15", rated="1", variant="perevodnoy")
    age(ra, 16)
    deadlines.sweep()
    ra.refresh_from_db()
    assert ra.status == "matched"
    seats = Seat.objects.filter(table_id=ra.table_id)
    assert seats.count() == 4 and seats.exclude(bot_level="").count() == 2
    assert _rules(ra.table_id)["pairs"] is True
    for p in (a, b):
        queue.arrived(p.pk, ra.table_id)
    game = game_services.start_game(ra.table_id)
    assert game.rules["pairs"] is True and game.rules["variant"] == "perevodnoy"


def test_a_rated_pairs_match_played_to_the_end_moves_both_partners_alike(make_player, online):
    from game import services as game_services
    from game.models import GameSeat
    from ratings.models import GameRecord, RatingChange
    from social import queue
    from tests.social.test_search_promises import play_out

    players = [make_player() for _ in range(4)]
    online(*players)
    for p in players:
        row = queue.join(p, mode="pairs", bot_fill="0", rated="1")
    table_id = queue.live_request(players[0].pk).table_id
    assert row.table_id == table_id
    for p in players:
        queue.arrived(p.pk, table_id)
    game = play_out(game_services.start_game(table_id).pk)
    record = GameRecord.objects.get(game=game)
    assert record.rated is True and record.pairs is True
    seat_of = dict(GameSeat.objects.filter(game=game).values_list("player_id", "number"))
    changes = RatingChange.objects.filter(game=game).values_list("player_id", "delta", "outcome")
    delta = {seat_of[pid]: (d, outcome) for pid, d, outcome in changes}
    assert sorted(delta) == [1, 2, 3, 4]
    assert delta[1] == delta[3] and delta[2] == delta[4]  # partners share the result
    assert delta[1][0] == -delta[2][0]


def test_quick_play_in_a_mode_keeps_the_other_last_choices(make_player, online):
    from social import queue

    a = make_player()
    online(a)
    queue.join(a, players="3", deck="52", turn_seconds="60", rated="0", bot_fill="0")
    queue.cancel(a)
    assert queue.quick_choices(a, "cheater") == {"mode": "cheater", "variant": "", "players": 3, "deck": 52,
                                                 "turn_seconds": 60, "rated": False, "bot_fill": 0}
    assert queue.quick_choices(a, "pairs")["players"] == 4  # three players is no pairs game


def test_the_lobbys_mode_buttons_search_in_that_mode_and_a_bad_mode_changes_nothing(make_player, online, client):
    from social.models import SearchRequest

    a = make_player()
    online(a)
    client.force_login(a)
    page = client.get("/tables/").content.decode()
    assert 'action="/play/search/quick/"' in page and 'value="pairs"' in page
    answer = client.post("/play/search/quick/", {"mode": "dice"}, HTTP_ACCEPT="application/json")
    assert answer.status_code == 400 and answer.json()["code"] == "search_bad_mode"
    assert not SearchRequest.objects.exists()
    client.post("/play/search/quick/", {"mode": "pairs"})
    row = SearchRequest.objects.get(player=a)
    assert (row.mode, row.players, row.status) == ("pairs", 4, "waiting")


def test_the_search_form_ignores_the_hidden_number_of_players_for_pairs(make_player, online, client):
    from social.models import SearchRequest

    a = make_player()
    online(a)
    client.force_login(a)
    form = client.get("/play/search/").content.decode()
    assert 'name="mode" value="cheater"' in form
    client.post("/play/search/start/", {"form": "1", "mode": "pairs", "players": "3", "rated": "1"})
    assert SearchRequest.objects.get(player=a).players == 4


def test_the_count_of_others_searching_counts_only_the_same_mode(make_player, online):
    from social import queue

    a, b, c_ = make_player(), make_player(), make_player()
    online(a, b, c_)
    ra = queue.join(a, mode="cheater", players="4", bot_fill="0", rated="0")
    queue.join(b, mode="cheater", players="4", bot_fill="0", rated="0")
    queue.join(c_, mode="classic", players="4", bot_fill="0", rated="0")
    assert queue.others_searching(ra) == 1
