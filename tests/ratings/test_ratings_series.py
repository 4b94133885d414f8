"""Quartet series (docs/RULES.md#series): standings, the winners' choice of the next leader, the club and preliminary tables."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.test import RequestFactory
from django.urls import reverse
from ratings_factories import finished_game_row, make_player, make_table, play_finished_game

from durak_site.errors import ServiceError
from lobby.models import Seat, Table
from ratings import services
from ratings.models import ClubStanding, Series, SeriesEntry

pytestmark = pytest.mark.django_db

PAIRS = {"pairs": True}
ODD_WIN = {"losers": [2, 4], "winners": [1, 3]}
EVEN_WIN = {"losers": [1, 3], "winners": [2, 4]}


def quartet(length: int = 30, players=None):
    table = make_table(series_length=length, rules=PAIRS, preset="quartet")
    players = players or [make_player() for _ in range(4)]
    for n, p in enumerate(players, start=1):
        Seat.objects.create(table=table, number=n, player=p)
    return table, players


def play(table, players, result, **kw):
    return services.record_game_result(finished_game_row(table, players, result, rules=PAIRS, **kw))


def scores(table) -> dict[int, int]:
    series = Series.objects.filter(table=table).latest("pk")
    return {e.seat: e.score for e in series.entries.all()}


def test_each_series_game_pays_10_to_each_winner_and_takes_10_from_each_loser_a_draw_nothing():
    table, ps = quartet()
    play(table, ps, ODD_WIN)
    play(table, ps, ODD_WIN)
    play(table, ps, EVEN_WIN)
    play(table, ps, {"draw": True})
    assert scores(table) == {1: 10, 2: -10, 3: 10, 4: -10}
    st = services.series_standings(table)
    assert st["series"].games_played == 4 and st["running"]
    assert [e.rank for e in st["entries"]] == [1, 1, 3, 3]
    e1 = SeriesEntry.objects.get(series=st["series"], seat=1)
    assert (e1.wins, e1.losses, e1.draws, e1.games) == (2, 1, 1, 4)


def test_the_winners_choose_who_leads_the_next_game_and_start_game_gets_that_seat():
    table, ps = quartet()
    assert services.next_first_attacker(table) is None  # no series yet: the engine's rule
    play(table, ps, EVEN_WIN, out=[4, 2])
    assert services.next_first_attacker(table) == 4  # default: the winner who went out first
    with pytest.raises(ServiceError) as e:
        services.choose_series_leader(table, ps[0], 1)  # a loser may not choose
    assert e.value.code == "not_winner"
    with pytest.raises(ServiceError) as e:
        services.choose_series_leader(table, ps[1], 3)  # only a winner may lead
    assert e.value.code == "bad_seat"
    services.choose_series_leader(table.pk, ps[3], 2)
    assert services.next_first_attacker(table) == 2
    # somebody else sits down: the series will restart, so no leader is imposed
    other = make_player()
    Seat.objects.filter(table=table, number=2).update(player=other)
    assert services.next_first_attacker(table) is None


def test_after_a_draw_nobody_chooses_and_the_engine_rule_applies():
    table, ps = quartet()
    play(table, ps, {"draw": True})
    assert services.next_first_attacker(table) is None
    with pytest.raises(ServiceError) as e:
        services.choose_series_leader(table, ps[0], 1)
    assert e.value.code == "no_winners"


def test_the_chosen_leader_really_leads_the_next_engine_game():
    table, ps = quartet(length=3)
    play(table, ps, ODD_WIN)
    services.choose_series_leader(table, ps[2], 3)
    game = play_finished_game(table, ps, rules=PAIRS, seed=21, first_attacker=services.next_first_attacker(table))
    assert game.initial_state["leader"] == 3


def test_a_full_series_enters_the_club_table_and_the_unfinished_ones_the_preliminary_table():
    table, ps = quartet(length=3)
    for _ in range(3):
        play(table, ps, ODD_WIN)
    series = Series.objects.get(table=table)
    assert series.finished and services.next_first_attacker(table) is None
    t2, others = quartet(length=3)
    play(t2, others, EVEN_WIN)
    club, prelim = services.club_tables()
    assert [c.full_average for c in club[:4]] == [10.0, 10.0, -10.0, -10.0]
    assert {c.player for c in club[:2]} == {ps[0], ps[2]} and club[0].full_series == 1 and club[0].full_games == 3
    # the others played a game of a series: new players, they join the club's end (it has free places)
    assert {c.player for c in club[4:]} == set(others) and all(c.club_newcomer for c in club[4:])
    assert [p.player for p in prelim][:2] == sorted([others[1], others[3]], key=lambda p: p.nick)
    assert [p.average for p in prelim] == [10.0, 10.0, -10.0, -10.0]
    # a new game at the first table starts a new series
    play(table, ps, EVEN_WIN)
    assert Series.objects.filter(table=table).count() == 2


def test_the_club_table_keeps_only_the_top_ten_by_average():
    people = []
    for k in range(3):  # 12 players, three quartets with different fortunes
        table, ps = quartet(length=2)
        people += ps
        play(table, ps, ODD_WIN)
        play(table, ps, ODD_WIN if k == 0 else (EVEN_WIN if k == 1 else {"draw": True}))
    club, _prelim = services.club_tables()
    assert len(club) == services.CLUB_SIZE
    averages = [c.full_average for c in club]
    # 10 and -10 (won/lost both), 0 (one each), 5 and -5 (one win or loss and a draw)
    assert averages == [10.0, 10.0, 5.0, 5.0, 0.0, 0.0, 0.0, 0.0, -5.0, -5.0]
    assert {people[1].pk, people[3].pk}.isdisjoint(c.player_id for c in club)  # the -10s are out


def test_leaving_a_series_game_breaks_the_series_and_removes_the_player_from_the_club():
    table, ps = quartet(length=2)
    play(table, ps, ODD_WIN)
    play(table, ps, ODD_WIN)  # ps had a full series: all in the club
    t2 = make_table(series_length=2, rules=PAIRS)
    for n, p in enumerate(ps, start=1):
        Seat.objects.create(table=t2, number=n, player=p)
    play(t2, ps, {"losers": [1, 3], "winners": [2, 4], "left": [1]})
    standing = ClubStanding.objects.get(player=ps[0])
    assert standing.excluded
    club, prelim = services.club_tables()
    assert ps[0] not in [c.player for c in club] and ps[0] not in [p.player for p in prelim]
    series = Series.objects.filter(table=t2).get()
    assert series.broken and not series.finished
    assert services.next_first_attacker(t2) is None


def test_the_standings_fragment_renders_for_the_table_pages_and_the_winners_can_choose(client):
    table, ps = quartet()
    play(table, ps, ODD_WIN, out=[3])
    table.status = Table.Status.REMATCH
    table.save()
    request = RequestFactory().get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    request.user = ps[0]
    html = Template("{% load ratings_tags %}{% series_standings table %}").render(
        Context({"table": table, "user": ps[0], "request": request, "csrf_token": "tok"}))
    assert "game 1 of 30" in html or "1 из 30" in html
    assert 'name="seat" value="1"' in html and 'name="seat" value="3"' in html
    loser_html = Template("{% load ratings_tags %}{% series_standings table %}").render(
        Context({"table": table, "user": ps[1], "request": request}))
    assert 'name="seat"' not in loser_html
    empty = Template("{% load ratings_tags %}{% series_standings table %}").render(
        Context({"table": make_table(), "user": ps[1], "request": request}))
    assert empty.strip() == ""
    client.force_login(ps[2])
    resp = client.post(reverse("ratings:choose_leader", args=[table.pk]), {"seat": "1", "next": "/ratings/"})
    assert resp.status_code == 302 and resp["Location"] == "/ratings/"
    assert services.next_first_attacker(table) == 1
    client.force_login(ps[1])
    client.post(reverse("ratings:choose_leader", args=[table.pk]), {"seat": "2", "next": "/ratings/"})
    assert services.next_first_attacker(table) == 1  # a loser's choice changed nothing


def test_club_page_lists_both_tables(client):
    table, ps = quartet(length=1 + 1)
    html = client.get(reverse("ratings:club"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Nobody is in the club yet." in html and "No series games yet." in html
    play(table, ps, ODD_WIN)
    html = client.get(reverse("ratings:club"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    club_part, prelim_part = html.split('id="prelim-h"', 1)
    # after one game the four are newcomers in the club and, without a full series, in the preliminary table
    assert all(f">{p.nick}</a>" in club_part and f">{p.nick}</a>" in prelim_part for p in ps)
    assert "10.00" in prelim_part and "newcomer" in club_part


def test_start_game_deals_the_next_series_game_with_the_leader_the_winners_chose(settings):
    from game import services as game_services

    settings.BOT_SCHEDULER = "off"
    leaders = {}
    for chosen in (3, 1):  # two tables, so a deal that happens to give the same leader can't pass it
        table, ps = quartet(length=5)
        play(table, ps, ODD_WIN, out=[1, 3])
        services.choose_series_leader(table, ps[0], chosen)  # the winners' pair decides who leads (docs/RULES.md#series)
        leaders[chosen] = game_services.start_game(table.pk).initial_state["leader"]
    assert leaders == {3: 3, 1: 1}


@pytest.mark.parametrize("lang, bot, leads", [("ru", "Бот 2", "Следующую партию начинает Бот 2."),
                                              ("en", "Bot 2", "Bot 2 leads the next game.")])
def test_the_series_page_names_a_bot_by_its_seat_as_the_room_and_the_game_do(client, lang, bot, leads):
    players = [make_player() for _ in range(3)]
    table = make_table(series_length=3, rules=PAIRS, preset="quartet")
    for n, p in ((1, players[0]), (3, players[1]), (4, players[2])):
        Seat.objects.create(table=table, number=n, player=p)
    Seat.objects.create(table=table, number=2, bot_level="heuristic")
    lineup = [players[0], "heuristic", players[1], players[2]]
    services.record_game_result(finished_game_row(table, lineup, EVEN_WIN, rules=PAIRS))
    html = client.get(reverse("ratings:series", args=[table.pk]), HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    row = next(line for line in html.splitlines() if "<td>" in line and "(" in line and players[0].nick not in line
               and players[1].nick not in line and players[2].nick not in line)
    assert f"{bot} <small>" in row, row
    assert leads in html  # the winning pair's first seat, the bot, leads the next game


def test_a_game_a_moderator_stopped_is_no_game_of_the_series():
    table, ps = quartet()
    play(table, ps, ODD_WIN)
    stopped = finished_game_row(table, ps, {"reason": "aborted", "draw": False}, rules=PAIRS)
    stopped.status = stopped.Status.ABORTED
    stopped.save()
    services.record_game_result(stopped)
    series = Series.objects.filter(table=table).latest("pk")
    assert series.games_played == 1 and scores(table) == {1: 10, 2: -10, 3: 10, 4: -10}
