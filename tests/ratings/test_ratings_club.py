"""The Quartet club (docs/RULES.md#quartet-club): ten stored members; a full series in the top ten enters; the last member is
the candidate for elimination and any new player who finishes a series game takes his place; a
leaver is out for good."""

from __future__ import annotations

import importlib
import threading
import time

import pytest
from django.apps import apps
from django.db import connection, transaction
from django.urls import reverse
from ratings_factories import finished_game_row, make_player, make_table

from lobby.models import Seat
from ratings import services
from ratings.models import ClubStanding

pytestmark = pytest.mark.django_db

PAIRS = {"pairs": True}
ODD_WIN = {"losers": [2, 4], "winners": [1, 3]}
EVEN_WIN = {"losers": [1, 3], "winners": [2, 4]}
DRAW = {"draw": True}
BOTS = ["heuristic"] * 3


def quartet(length: int = 30, players=None):
    table = make_table(series_length=length, rules=PAIRS, preset="quartet")
    players = players or [make_player() for _ in range(4)]
    for n, p in enumerate(players, start=1):
        if not isinstance(p, str):
            Seat.objects.create(table=table, number=n, player=p)
    return table, players


def play(table, lineup, result, **kw):
    return services.record_game_result(finished_game_row(table, lineup, result, rules=PAIRS, **kw))


def solo(player, result=ODD_WIN, *, length: int = 30, games: int = 1, table=None):
    """``player`` at seat 1 with three bots: only he can change the club. Returns the table."""
    table = table or quartet(length, [player, *BOTS])[0]
    for _ in range(games):
        play(table, [player, *BOTS], result)
    return table


def club() -> list[ClubStanding]:
    return services.club_tables()[0]


def members() -> list:
    return [c.player for c in club()]


def full_club() -> list:
    """Ten members placed by full series (averages 10, 10, 5, 5, 0, 0, 0, 0, -5, -5) and two players
    who dropped out (-10, -10): three quartets of two-game series. Returns the members in club order."""
    for second in (ODD_WIN, EVEN_WIN, DRAW):
        table, ps = quartet(length=2)
        play(table, ps, ODD_WIN)
        play(table, ps, second)
    rows = club()
    assert [c.full_average for c in rows] == [10.0, 10.0, 5.0, 5.0, 0.0, 0.0, 0.0, 0.0, -5.0, -5.0]
    assert not any(c.club_newcomer for c in rows)
    return [c.player for c in rows]


def standing(player) -> ClubStanding:
    return ClubStanding.objects.get(player=player)


def test_the_club_is_stored_in_places_one_to_ten_with_the_last_one_the_candidate():
    order = full_club()
    rows = club()
    assert [c.club_place for c in rows] == list(range(1, 11))
    assert [c.candidate for c in rows] == [False] * 9 + [True]
    assert ClubStanding.objects.filter(in_club=True).count() == services.CLUB_SIZE
    assert standing(order[-1]).club_place == 10 and standing(order[0]).club_since is not None


def test_a_newcomer_after_one_game_takes_the_last_club_place():
    order = full_club()
    newbie = make_player("newbie")
    solo(newbie, EVEN_WIN)  # he even lost his only game: one кон is enough
    rows = club()
    assert [c.player for c in rows] == [*order[:9], newbie]
    assert rows[-1].club_newcomer and rows[-1].candidate and rows[-1].club_place == 10
    assert not any(c.club_newcomer for c in rows[:9])


def test_the_displaced_last_member_leaves_the_club():
    order = full_club()
    last = order[-1]
    solo(make_player())
    gone = standing(last)
    assert (gone.in_club, gone.club_place, gone.club_since, gone.club_newcomer) == (False, None, None, False)
    assert gone.full_series == 1 and gone.full_average == -5.0  # his results stay, only the membership goes
    assert last not in members()


def test_the_next_newcomer_takes_the_place_of_the_previous_one():
    order = full_club()
    first, second = make_player("first"), make_player("second")
    solo(first)
    solo(second)
    assert members() == [*order[:9], second]
    assert not standing(first).in_club
    solo(first)  # no longer a member, so a new player again: he takes the last place back
    assert members() == [*order[:9], first]


def test_the_member_at_the_last_place_who_plays_on_keeps_it():
    order = full_club()
    newbie = make_player()
    table = solo(newbie)
    solo(newbie, table=table, games=3)  # a member: no newcomer rule for him
    assert members() == [*order[:9], newbie]


def test_newcomers_join_the_end_while_the_club_has_free_places():
    table, ps = quartet()
    play(table, ps, ODD_WIN)
    rows = club()
    # the four of them join one after another, the lowest average first, so the best is the newest
    assert [c.player for c in rows] == [ps[1], ps[3], ps[0], ps[2]]
    assert all(c.club_newcomer for c in rows) and not any(c.candidate for c in rows)
    t2, others = quartet()
    play(t2, others, EVEN_WIN)
    assert members() == [ps[1], ps[3], ps[0], ps[2], others[0], others[2], others[1], others[3]]
    assert not any(c.candidate for c in club())  # eight members: nobody is about to drop out


def test_several_newcomers_of_one_game_in_a_full_club_leave_the_best_of_them_at_the_last_place():
    order = full_club()
    table, ps = quartet()
    play(table, ps, ODD_WIN)
    # each took the last place in turn (losers first); of the two winners the later account stays
    assert members() == [*order[:9], ps[2]]
    assert ClubStanding.objects.filter(in_club=True).count() == services.CLUB_SIZE


def test_the_last_member_who_plays_with_new_players_is_displaced_by_them():
    order = full_club()
    holder = make_player("holder")
    solo(holder)
    table, ps = quartet(players=[holder, make_player(), make_player(), make_player()])
    play(table, ps, ODD_WIN)  # he was a member before this game, so he is not a newcomer in it
    assert holder not in members()
    assert members() == [*order[:9], ps[2]]


def test_a_full_series_in_the_top_ten_enters_the_club():
    order = full_club()
    table, ps = quartet(length=2)
    play(table, ps, ODD_WIN)  # four new players: the last of them to come holds the last place
    assert members() == [*order[:9], ps[2]]
    play(table, ps, ODD_WIN)  # the series is complete: ps[0] and ps[2] averaged +10
    rows = club()
    placed = [c.player for c in rows if not c.club_newcomer]
    # by full-series average; on an equal average the players placed earlier stay ahead
    assert placed[:4] == [order[0], order[1], ps[2], ps[0]]
    assert placed[4:] == order[2:7]
    assert [c.full_average for c in rows if not c.club_newcomer] == [10.0] * 4 + [5.0, 5.0, 0.0, 0.0, 0.0]
    assert order[8] not in members() and order[9] not in members()  # the -5s dropped out from the end


def test_a_full_series_outside_the_top_ten_still_takes_the_last_place_as_a_new_player():
    order = full_club()
    table, ps = quartet(length=2)
    play(table, ps, ODD_WIN)
    play(table, ps, ODD_WIN)
    rows = club()
    # ps[1] and ps[3] averaged -10, below all ten, but each is a new player who played a кон
    assert rows[-1].player == ps[3] and rows[-1].club_newcomer and rows[-1].candidate
    assert ps[1] not in members() and order[7] not in members()
    assert [c.player for c in rows[:9]] == [order[0], order[1], ps[2], ps[0], *order[2:7]]


def test_a_newcomer_who_completes_a_full_series_is_placed_by_his_full_average():
    order = full_club()
    newbie = make_player()
    table = solo(newbie, length=2)
    assert members()[-1] == newbie
    solo(newbie, table=table)  # the series is complete at +10
    rows = club()
    assert [c.player for c in rows] == [order[0], order[1], newbie, *order[2:9]]
    assert not rows[2].club_newcomer and rows[2].full_average == 10.0
    assert rows[-1].player == order[8] and rows[-1].candidate


def test_a_leaver_is_removed_from_the_club_and_not_readmitted_as_newcomer():
    order = full_club()
    leaver = order[0]
    play(quartet(players=[leaver, *BOTS])[0], [leaver, *BOTS], {**EVEN_WIN, "left": [1]})
    assert standing(leaver).excluded and not standing(leaver).in_club
    assert members() == order[1:]  # nobody moves up into the freed place
    assert [c.club_place for c in club()] == list(range(1, 10))
    solo(leaver)  # a later series game: an excluded player is never a new player
    assert members() == order[1:]
    solo(leaver, length=2, games=2)  # nor does a full series bring him back
    assert leaver not in members() and standing(leaver).full_series == 2
    newbie = make_player()
    solo(newbie)  # the free place is taken without anybody dropping out
    assert members() == [*order[1:], newbie]


def test_a_non_member_who_leaves_never_enters_and_his_partners_still_do():
    table, ps = quartet()
    play(table, ps, {**ODD_WIN, "left": [2]})
    assert members() == [ps[3], ps[0], ps[2]]
    assert standing(ps[1]).excluded


def test_a_game_outside_a_series_changes_nothing_in_the_club():
    order = full_club()
    t = make_table(seats_count=2)
    services.record_game_result(finished_game_row(t, [make_player(), make_player()],
                                                  {"loser": 2, "losers": [2], "winners": [1]}))
    assert members() == order


def test_recording_a_series_game_takes_the_same_queries_with_a_full_club(django_assert_max_num_queries):
    def one_game():
        p = make_player()
        table, _ = quartet(players=[p, *BOTS])
        game = finished_game_row(table, [p, *BOTS], ODD_WIN, rules=PAIRS)
        return game

    game = one_game()
    with django_assert_max_num_queries(40) as empty:
        services.record_game_result(game)
    full_club()
    game = one_game()
    with django_assert_max_num_queries(len(empty.captured_queries) + 1):  # + the displaced member's row
        services.record_game_result(game)


@pytest.mark.django_db(transaction=True)
def test_two_series_games_finishing_at_once_change_the_club_one_after_the_other():
    if connection.vendor != "postgresql":
        pytest.skip("row locks and the club's advisory lock need Postgres")
    order = full_club()
    first, second = make_player("first"), make_player("second")
    games = {}
    for p in (first, second):
        table, _ = quartet(players=[p, *BOTS])
        games[p] = finished_game_row(table, [p, *BOTS], ODD_WIN, rules=PAIRS)
    first_in, release, second_done = threading.Event(), threading.Event(), threading.Event()
    errors = []

    def finish(player, before=None, after=None):
        try:
            with transaction.atomic():
                services.record_game_result(games[player])
                if before:
                    before.set()
                    release.wait(10)  # keep the first transaction open while the second one tries
            if after:
                after.set()
        except Exception as e:  # noqa: BLE001 (reported by the main thread)
            errors.append(e)
        finally:
            connection.close()

    a = threading.Thread(target=finish, args=(first,), kwargs={"before": first_in})
    a.start()
    assert first_in.wait(10)
    b = threading.Thread(target=finish, args=(second,), kwargs={"after": second_done})
    b.start()
    time.sleep(0.5)
    assert not second_done.is_set()  # it waits for the club, it does not read a half-changed one
    release.set()
    a.join(10)
    b.join(10)
    assert not errors
    assert members() == [*order[:9], second]  # the second newcomer displaced the first one
    assert ClubStanding.objects.filter(in_club=True).count() == services.CLUB_SIZE


def test_the_migration_seats_the_old_top_ten_by_full_series_average():
    order = full_club()
    table, ps = quartet(length=2)
    play(table, ps, ODD_WIN)
    play(table, ps, ODD_WIN)
    ClubStanding.objects.update(in_club=False, club_place=None, club_since=None, club_newcomer=False)
    migration = importlib.import_module("ratings.migrations.0003_club_membership")
    migration.seat_the_current_top_ten(apps, None)
    rows = club()
    assert [c.full_average for c in rows] == [10.0] * 4 + [5.0, 5.0, 0.0, 0.0, 0.0, 0.0]
    assert {order[0], order[1], ps[0], ps[2]} == {c.player for c in rows[:4]}
    assert [c.club_place for c in rows] == list(range(1, 11)) and not any(c.club_newcomer for c in rows)


# ----------------------------------------------------------------------------- the club page

CANDIDATE = '<span class="rt-tag candidate">%s</span>'
NEWCOMER = '<span class="rt-tag new">%s</span>'


def club_html(client, lang: str = "ru") -> str:
    return client.get(reverse("ratings:club"), HTTP_ACCEPT_LANGUAGE=lang).content.decode()


def test_the_club_page_marks_the_candidate_for_elimination_and_the_newcomer(client):
    order = full_club()
    newbie = make_player("novichok")
    solo(newbie)
    html = club_html(client)
    assert html.count(CANDIDATE % "кандидат на выбывание") == 1 and html.count(NEWCOMER % "новичок") == 1
    body = html.split('id="club-h"', 1)[1].split("</table>", 1)[0]
    rows = body.split("<tr class=")[1:]
    assert len(rows) == 10 and ">novichok</a>" in rows[-1] and CANDIDATE % "кандидат на выбывание" in rows[-1]
    assert "candidate" in rows[-1].split(">", 1)[0] and "newcomer" in rows[-1].split(">", 1)[0]
    assert not any("candidate" in r or "newcomer" in r for r in rows[:9])
    assert all(f">{o.nick}</a>" in body for o in order[:9]) and f">{order[9].nick}</a>" not in body
    english = club_html(client, "en")
    assert CANDIDATE % "candidate for elimination" in english and NEWCOMER % "newcomer" in english
    assert "The club has 10 places." in english


def test_the_club_page_marks_no_candidate_while_there_are_free_places(client):
    table, ps = quartet()
    assert "В клубе пока никого нет." in club_html(client)
    play(table, ps, ODD_WIN)
    html = club_html(client)
    assert 'class="rt-tag candidate"' not in html and html.count(NEWCOMER % "новичок") == 4
    assert "В клубе 6 свободных мест" in html
    english = club_html(client, "en")
    assert "The club has 6 free places" in english and 'class="rt-tag candidate"' not in english


def test_club_page_query_count_does_not_grow_with_members(client, django_assert_max_num_queries):
    viewer = make_player("viewer")
    client.force_login(viewer)
    table, ps = quartet()
    play(table, ps, ODD_WIN)
    with django_assert_max_num_queries(10) as few:
        assert client.get(reverse("ratings:club")).status_code == 200
    full_club()
    for _ in range(3):
        solo(make_player())
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert client.get(reverse("ratings:club")).status_code == 200
