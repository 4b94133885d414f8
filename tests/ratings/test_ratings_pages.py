"""Leaderboard, profile and replay pages: ordering, ranks with ties, bad input, constant queries."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse
from django.utils import timezone
from ratings_factories import finished_game_row, make_player, make_table, play_finished_game

from ratings import services
from ratings.models import Rating, RatingVariant

pytestmark = pytest.mark.django_db


def win(table, winner, loser, **kw):
    return services.record_game_result(
        finished_game_row(table, [winner, loser], {"loser": 2, "losers": [2], "winners": [1]}, **kw))


def board_rows(html: str) -> list[tuple[str, str, str]]:
    """(rank, nick, rating) of every leaderboard row."""
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r'<td class="rank">(\d+)</td>\s*<td><a [^>]*>([^<]+)</a></td>\s*<td class="num strong">(-?\d+)',
                      body)


def test_leaderboard_orders_by_rating_with_competition_ranks_for_ties_and_the_viewer_rank(client):
    t = make_table(seats_count=2)
    ann, bob, cat, dan = (make_player(n) for n in ("ann", "bob", "cat", "dan"))
    win(t, ann, dan)
    win(t, ann, dan)  # ann 1030, dan 970
    win(t, bob, cat)
    win(t, cat, bob)  # bob 1000, cat 1000
    eve = make_player("eve")  # no games: not listed
    client.force_login(cat)
    html = client.get(reverse("ratings:leaderboard"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert board_rows(html) == [("1", "ann", "1030"), ("2", "bob", "1000"), ("2", "cat", "1000"), ("4", "dan", "970")]
    assert "Your place: <strong>#2</strong>" in html and "eve" not in html
    client.force_login(eve)
    assert "no rated games yet" in client.get(reverse("ratings:leaderboard"), HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_leaderboard_pages_keep_tied_ranks_across_the_page_break(client, settings):
    from ratings import views
    t = make_table(seats_count=2)
    players = [make_player(f"u{i:02d}") for i in range(views.PER_PAGE + 3)]
    # everyone plays one draw: all at 1000, all tied for first place
    for a, b in zip(players[::2], players[1::2], strict=False):
        services.record_game_result(finished_game_row(t, [a, b], {"draw": True}))
    if len(players) % 2:
        services.record_game_result(finished_game_row(t, [players[-1], players[0]], {"draw": True}))
    page2 = client.get(reverse("ratings:leaderboard") + "?page=2").content.decode()
    assert {r[0] for r in board_rows(page2)} == {"1"}


@pytest.mark.parametrize("page", ["0", "99", "abc", "-1", "1e9", "99999999999999999999999"])
def test_leaderboard_bad_page_numbers_show_a_clear_message_and_the_first_page(client, page):
    t = make_table(seats_count=2)
    win(t, make_player("ann"), make_player("bob"))
    resp = client.get(reverse("ratings:leaderboard"), {"page": page}, HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 404
    html = resp.content.decode()
    assert "There is no page" in html and "ann" in html


def test_leaderboard_speaks_russian_by_default(client):
    resp = client.get(reverse("ratings:leaderboard"))
    html = resp.content.decode()
    assert "Клуб «Квартет»" in html and "Все партии" in html and "Рейтинговых партий пока нет." in html


def test_leaderboard_variant_filter_uses_the_variant_ratings(client):
    t = make_table(seats_count=2)
    ann, bob = make_player("ann"), make_player("bob")
    win(t, ann, bob, rules={"variant": "perevodnoy"})
    win(t, bob, ann)
    win(t, bob, ann)
    html = client.get(reverse("ratings:leaderboard"), {"variant": "perevodnoy"}).content.decode()
    assert [r[1:] for r in board_rows(html)] == [("ann", "1015"), ("bob", "985")]
    html = client.get(reverse("ratings:leaderboard")).content.decode()
    assert [r[1:] for r in board_rows(html)] == [("bob", "1015"), ("ann", "985")]
    bad = client.get(reverse("ratings:leaderboard"), {"variant": "<script>"}, HTTP_ACCEPT_LANGUAGE="en")
    assert "There is no variant" in bad.content.decode() and "<script>" not in bad.content.decode()


def _many_ratings(n: int) -> None:
    """n players with distinct ratings in both tables (rows only the services write in production)."""
    players = [make_player(f"m{n}_{i}") for i in range(n)]
    now = timezone.now()
    Rating.objects.bulk_create([Rating(player=p, value=900 + 15 * (i % 20), games=5, wins=2, losses=3, last_played=now)
                                for i, p in enumerate(players)])
    RatingVariant.objects.bulk_create([RatingVariant(player=p, variant="podkidnoy", value=1000 + i, games=1, wins=1)
                                       for i, p in enumerate(players)])


@pytest.mark.parametrize("variant", ["", "podkidnoy"])
def test_leaderboard_query_count_does_not_grow_with_players(client, django_assert_max_num_queries, variant):
    viewer = make_player("viewer")
    _many_ratings(5)
    Rating.objects.create(player=viewer, value=990, games=3)
    RatingVariant.objects.create(player=viewer, variant="podkidnoy", value=990, games=3)
    client.force_login(viewer)
    url = reverse("ratings:leaderboard") + (f"?variant={variant}&page=1" if variant else "?page=1")
    with django_assert_max_num_queries(8) as few:
        assert client.get(url).status_code == 200
    _many_ratings(120)
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert client.get(url).status_code == 200
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert client.get(url.replace("page=1", "page=3")).status_code == 200


def test_profile_shows_stats_chart_and_recent_games_with_opponents_and_deltas(client):
    t = make_table(seats_count=2)
    ann, bob = make_player("ann"), make_player("bob")
    win(t, ann, bob)
    win(t, ann, bob, rules={"variant": "perevodnoy"})
    win(t, ann, bob, rules={"variant": "perevodnoy"})
    win(t, bob, ann)
    services.record_game_result(finished_game_row(make_table(seats_count=2), [ann, "heuristic"],
                                                  {"loser": 2, "losers": [2], "winners": [1]}))
    resp = client.get(reverse("ratings:profile", args=["ANN"]), HTTP_ACCEPT_LANGUAGE="en")
    html = resp.content.decode()
    assert resp.status_code == 200
    assert ">1030<" in html  # rating
    assert "<svg" in html and 'class="line"' in html and "Rating over time" in html
    assert "Perevodnoy" in html.split("Favourite variant", 1)[1][:200]
    assert html.count('class="rt-game ') == 5
    assert "+15" in html and "\u221215" in html and "unrated" in html
    assert "Opponents:" in html and re.search(r"Bot \d", html)  # a bot is named by its seat
    assert reverse("ratings:profile", args=["bob"]) in html


def test_profile_of_a_new_player_has_no_chart_and_an_unknown_nick_is_404(client):
    make_player("newbie")
    html = client.get(reverse("ratings:profile", args=["newbie"]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "the chart appears after the first one" in html and "<svg" not in html
    assert client.get(reverse("ratings:profile", args=["nobody"])).status_code == 404


def test_profile_query_count_does_not_grow_with_games(client, django_assert_max_num_queries):
    t = make_table(seats_count=3)
    ann, bob, cat = make_player("ann"), make_player("bob"), make_player("cat")
    win(t, ann, bob)
    url = reverse("ratings:profile", args=["ann"])
    with django_assert_max_num_queries(10) as few:
        client.get(url)
    for k in range(30):
        services.record_game_result(finished_game_row(
            t, [ann, bob, cat], {"loser": 1 + k % 3, "losers": [1 + k % 3],
                                 "winners": [s for s in (1, 2, 3) if s != 1 + k % 3]},
            rules={"variant": ("podkidnoy", "perevodnoy")[k % 2]}))
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert client.get(url).status_code == 200


@pytest.mark.parametrize(("rules", "players", "seed"), [
    ({}, 2, 5), ({"pairs": True}, 4, 6), ({"variant": "perevodnoy"}, 3, 7), ({"cheater": True}, 4, 8),
])
def test_replay_reproduces_the_final_state_and_shows_every_hand(client, rules, players, seed):
    people = [make_player() for _ in range(players)]
    game = play_finished_game(make_table(seats_count=players, rules=rules), people, seed=seed)
    services.record_game_result(game)
    resp = client.get(reverse("ratings:replay", args=[game.pk]))
    assert resp.status_code == 200
    ctx = resp.context
    assert ctx["reproduces"] is True
    assert len(ctx["frames"]) == game.events.count() + 1
    html = resp.content.decode()
    frames = json.loads(html.split('id="replay-frames" type="application/json">', 1)[1].split("</script>", 1)[0])
    deal = frames[0]
    assert deal["hands"] == {str(k): game.initial_state["hands"][k - 1] for k in range(1, players + 1)}
    assert frames[-1]["result"] == game.state["result"]
    assert [r["round"] for r in ctx["rounds"]] == list(range(1, game.state["round"] + 1))


def test_replay_of_a_left_game_reproduces_the_resignation(client):
    people = [make_player() for _ in range(3)]
    game = play_finished_game(make_table(seats_count=3), people, seed=9, leave={2: 30})
    resp = client.get(reverse("ratings:replay", args=[game.pk]))
    assert resp.context["reproduces"] is True
    assert resp.context["frames"][-1]["result"]["reason"] == "resign"


def test_replay_follows_a_bot_taking_a_seat_over_and_the_game_stays_rated(client):
    people = [make_player() for _ in range(3)]
    game = play_finished_game(make_table(seats_count=3, rules={"trump_swap": "bots"}), people, seed=14,
                              rules={"trump_swap": "bots"}, takeover={2: 10})
    assert game.state["bots"] == [2]
    record = services.record_game_result(game)
    assert record.rated  # a takeover bot (docs/RULES.md#disconnect) does not make a game unrated
    resp = client.get(reverse("ratings:replay", args=[game.pk]))
    assert resp.context["reproduces"] is True


def test_replay_of_an_unfinished_game_reveals_no_card_even_to_a_player_at_the_table(client):
    a, b = make_player(), make_player()
    game = play_finished_game(make_table(seats_count=2), [a, b], seed=12, stop_after_moves=6)
    client.force_login(a)
    resp = client.get(reverse("ratings:replay", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en")
    html = resp.content.decode()
    assert resp.status_code == 200
    assert "still being played" in html
    assert "replay-frames" not in html
    every_card = {c for hand in game.initial_state["hands"] for c in hand} | set(game.initial_state["stock"])
    shown = [c for c in every_card if re.search(rf"(?<![\w]){re.escape(c)}(?![\w])", html)]
    assert shown == []
    assert client.get(reverse("ratings:replay", args=[987654])).status_code == 404


def test_game_history_is_paginated_with_a_clear_message_for_bad_pages(client, django_assert_max_num_queries):
    from ratings import views
    t = make_table(seats_count=2)
    ann, bob = make_player("ann"), make_player("bob")
    for _ in range(views.PER_PAGE + 2):
        win(t, ann, bob)
    url = reverse("ratings:history", args=["ann"])
    with django_assert_max_num_queries(7):
        first = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert first.count('class="rt-game ') == views.PER_PAGE and "Page 1 of 2" in first
    second = client.get(url, {"page": 2}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert second.count('class="rt-game ') == 2
    bad = client.get(url, {"page": "x"}, HTTP_ACCEPT_LANGUAGE="en")
    assert bad.status_code == 404 and "There is no page" in bad.content.decode()
    profile = client.get(reverse("ratings:profile", args=["ann"])).content.decode()
    assert url in profile  # "All games" link once there are more than the recent ones


def test_replay_names_each_bot_by_its_seat_as_the_table_does(client):
    person = make_player()
    game = play_finished_game(make_table(seats_count=3), [person, "heuristic", "heuristic"], seed=3)
    resp = client.get(reverse("ratings:replay", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="ru")
    assert resp.context["seat_names"] == {"1": person.nick, "2": "Бот 2", "3": "Бот 3"}
    html = resp.content.decode()
    assert "Бот 2" in html and "Бот 3" in html
