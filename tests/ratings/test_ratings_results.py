"""Recording finished games: who is rated, ±15 deltas (docs/RULES.md#ratings), exactly once, and voiding."""

from __future__ import annotations

import pytest
from django.utils import translation
from ratings_factories import finished_game_row, make_player, make_table, play_finished_game

from durak_site.errors import ServiceError
from ratings import services
from ratings.models import GameRecord, PlayerGame, Rating, RatingChange, RatingVariant

pytestmark = pytest.mark.django_db


def values(*players) -> list[int]:
    return [Rating.objects.get(player=p).value for p in players]


def test_each_for_himself_durak_loses_15_and_everyone_else_wins_15():
    a, b, c = make_player(), make_player(), make_player()
    game = finished_game_row(make_table(seats_count=3), [a, b, c],
                             {"loser": 2, "losers": [2], "winners": [1, 3]})
    record = services.record_game_result(game)
    assert record.rated and record.unrated_reason == ""
    assert values(a, b, c) == [1015, 985, 1015]
    rows = {c.player_id: c for c in RatingChange.objects.filter(game=game)}
    assert rows[b.pk].delta == -15 and rows[b.pk].rating_after == 985 and rows[b.pk].outcome == "loss"
    assert rows[a.pk].delta == 15 and rows[a.pk].outcome == "win"
    r = Rating.objects.get(player=b)
    assert (r.games, r.wins, r.losses, r.draws) == (1, 0, 1, 0)
    assert r.last_played is not None


def test_pairs_both_partners_get_the_same_change():
    ps = [make_player() for _ in range(4)]
    game = finished_game_row(make_table(), ps, {"losers": [2, 4], "winners": [1, 3]}, rules={"pairs": True})
    services.record_game_result(game)
    assert values(*ps) == [1015, 985, 1015, 985]


def test_a_draw_changes_no_rating_but_counts_the_game():
    a, b = make_player(), make_player()
    game = finished_game_row(make_table(seats_count=2), [a, b], {"draw": True, "winners": [], "losers": []})
    services.record_game_result(game)
    assert values(a, b) == [1000, 1000]
    assert Rating.objects.get(player=a).draws == 1
    assert set(RatingChange.objects.filter(game=game).values_list("delta", "outcome")) == {(0, "draw")}


def test_a_player_who_left_loses_even_if_the_bot_on_his_seat_won():
    a, b, c = make_player(), make_player(), make_player()
    # seat 1 left; a bot finished his seat and went out first: the board says seat 3 is the durak
    game = finished_game_row(make_table(seats_count=3), [a, b, c],
                             {"loser": 3, "losers": [3], "winners": [1, 2], "left": [1]})
    services.record_game_result(game)
    assert values(a, b, c) == [985, 1015, 985]
    assert PlayerGame.objects.get(player=a).left


def test_an_automatic_move_on_a_timeout_is_not_a_loss_the_board_decides():
    ps = [make_player() for _ in range(4)]
    game = finished_game_row(make_table(), ps, {"losers": [2, 4], "winners": [1, 3], "timed_out": [3]},
                             rules={"pairs": True})
    services.record_game_result(game)
    assert values(*ps) == [1015, 985, 1015, 985]


def test_finishing_twice_pays_exactly_once():
    a, b = make_player(), make_player()
    game = finished_game_row(make_table(seats_count=2), [a, b], {"loser": 1, "losers": [1], "winners": [2]})
    first = services.record_game_result(game)
    second = services.record_game_result(game)
    assert first.pk == second.pk
    assert values(a, b) == [985, 1015]
    assert RatingChange.objects.filter(game=game).count() == 2
    assert Rating.objects.get(player=a).games == 1


def test_per_variant_ratings_are_kept_in_their_own_rows():
    a, b = make_player(), make_player()
    t = make_table(seats_count=2)
    services.record_game_result(finished_game_row(t, [a, b], {"loser": 1, "losers": [1], "winners": [2]},
                                                  rules={"variant": "perevodnoy"}))
    services.record_game_result(finished_game_row(t, [a, b], {"loser": 2, "losers": [2], "winners": [1]}))
    va = {v.variant: v for v in RatingVariant.objects.filter(player=a)}
    assert va["perevodnoy"].value == 985 and va["podkidnoy"].value == 1015
    assert values(a) == [1000]
    assert Rating.objects.get(player=a).games == 2


def test_later_games_add_to_each_standing_and_a_void_takes_one_back_out():
    a, b = make_player(), make_player()
    t = make_table(seats_count=2)
    services.record_game_result(finished_game_row(t, [a, b], {"loser": 1, "losers": [1], "winners": [2]}))
    services.record_game_result(finished_game_row(t, [a, b], {"loser": 2, "losers": [2], "winners": [1]}))
    won = finished_game_row(t, [a, b], {"loser": 2, "losers": [2], "winners": [1]})
    services.record_game_result(won)
    services.record_game_result(finished_game_row(t, [a, b], {"draw": True, "winners": [], "losers": []}))

    def standing(row):
        return row.value, row.games, row.wins, row.losses, row.draws

    for rows in (Rating.objects, RatingVariant.objects.filter(variant="podkidnoy")):
        assert standing(rows.get(player=a)) == (1015, 4, 2, 1, 1)
        assert standing(rows.get(player=b)) == (985, 4, 1, 2, 1)
    assert list(RatingChange.objects.filter(player=a).order_by("pk").values_list("rating_after", flat=True)) == [
        985, 1000, 1015, 1015]
    services.void_game(won, make_player(is_staff=True), "farming")
    assert standing(Rating.objects.get(player=a)) == (1000, 3, 1, 1, 1)
    assert standing(RatingVariant.objects.get(player=b, variant="podkidnoy")) == (1000, 3, 1, 1, 1)


@pytest.mark.parametrize(("lineup", "kwargs", "reason"), [
    (["H", "heuristic"], {}, "bots"),
    (["H", "H", "random"], {}, "bots"),
    (["H"], {}, "bots"),
    (["H", "H"], {"final_round": 1}, "too_short"),
    (["H", "H"], {"bots_at_start": [2]}, "bots"),
])
def test_unrated_games_change_nothing_and_say_why(lineup, kwargs, reason):
    people = []
    seats = []
    for who in lineup:
        if who == "H":
            p = make_player()
            people.append(p)
            seats.append(p)
        else:
            seats.append(who)
    if len(seats) == 1:
        seats.append(None)  # an empty seat
    game = finished_game_row(make_table(seats_count=max(2, len(seats))), [s for s in seats if s is not None],
                             {"loser": 1, "losers": [1], "winners": [2]}, **kwargs)
    record = services.record_game_result(game)
    assert not record.rated and record.unrated_reason == reason
    assert str(services.unrated_label(reason)) != reason
    assert not RatingChange.objects.filter(game=game).exists()
    assert not Rating.objects.filter(player__in=people, games__gt=0).exists()
    assert PlayerGame.objects.filter(record=record).count() == len(people)  # still in their history


def test_a_bot_game_is_unrated_and_a_game_left_in_round_one_costs_only_the_leaver():
    a, b = make_player(), make_player()
    t = make_table(seats_count=3)
    game = play_finished_game(t, [a, b, "heuristic"], seed=3)
    assert services.record_game_result(game).unrated_reason == "bots"
    assert not RatingChange.objects.exists()
    left_early = play_finished_game(t, [a, b], seed=4, leave={1: 0})
    assert left_early.result["reason"] == "resign" and left_early.state["round"] == 1
    record = services.record_game_result(left_early)
    assert not record.rated and record.unrated_reason == "too_short"
    assert {c.player_id: c.delta for c in RatingChange.objects.all()} == {a.pk: -15}
    assert values(a) == [985] and not Rating.objects.filter(player=b).exists()


def test_a_real_two_human_engine_game_is_rated():
    a, b = make_player(), make_player()
    game = play_finished_game(make_table(seats_count=2), [a, b], seed=11)
    record = services.record_game_result(game)
    assert record.rated
    assert sorted(values(a, b)) in ([985, 1015], [1000, 1000])


def test_recording_an_unfinished_game_is_refused():
    a, b = make_player(), make_player()
    game = play_finished_game(make_table(seats_count=2), [a, b], seed=2, stop_after_moves=5)
    with pytest.raises(ServiceError) as e:
        services.record_game_result(game)
    assert e.value.code == "not_finished"
    assert not GameRecord.objects.exists()


def test_a_moderator_voids_a_rated_game_and_the_reason_is_kept():
    mod = make_player(is_staff=True)
    a, b = make_player(), make_player()
    t = make_table(seats_count=2)
    g1 = finished_game_row(t, [a, b], {"loser": 1, "losers": [1], "winners": [2]})
    g2 = finished_game_row(t, [a, b], {"loser": 1, "losers": [1], "winners": [2]})
    services.record_game_result(g1)
    services.record_game_result(g2)
    assert values(a, b) == [970, 1030]
    record = services.void_game(g1, mod, "  collusion  ")
    assert record.void_reason == "collusion" and record.voided_by == mod
    assert values(a, b) == [985, 1015]
    assert Rating.objects.get(player=a).games == 1
    assert RatingVariant.objects.get(player=a).value == 985
    assert all(RatingChange.objects.filter(game=g1).values_list("voided", flat=True))
    # the later change's "rating after" moves with the reversal so the chart stays true
    assert RatingChange.objects.get(game=g2, player=a).rating_after == 985


def test_voiding_twice_an_unrated_game_or_without_rights_is_refused_and_changes_nothing():
    mod = make_player(is_staff=True)
    a, b = make_player(), make_player()
    t = make_table(seats_count=2)
    rated = finished_game_row(t, [a, b], {"loser": 1, "losers": [1], "winners": [2]})
    unrated = finished_game_row(t, [a, "heuristic"], {"loser": 1, "losers": [1], "winners": [2]})
    services.record_game_result(rated)
    services.record_game_result(unrated)
    with pytest.raises(ServiceError) as e:
        services.void_game(rated, a, "I lost")
    assert e.value.code == "not_moderator"
    with pytest.raises(ServiceError) as e:
        services.void_game(rated, mod, "   ")
    assert e.value.code == "reason_required"
    with pytest.raises(ServiceError) as e, translation.override("en"):
        services.void_game(unrated, mod, "x")
    with translation.override("en"):
        assert e.value.code == "unrated" and "bots at the table" in str(e.value.message)
    services.void_game(rated, mod, "first")
    with pytest.raises(ServiceError) as e:
        services.void_game(rated, mod, "second")
    assert e.value.code == "already_voided" and "first" in str(e.value.message)
    assert values(a, b) == [1000, 1000]
    assert GameRecord.objects.get(game=rated).void_reason == "first"


@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_finishes_pay_exactly_once():
    import threading

    from django.db import connection

    a, b = make_player(), make_player()
    game = finished_game_row(make_table(seats_count=2), [a, b], {"loser": 2, "losers": [2], "winners": [1]})
    start = threading.Barrier(4)
    records, errors = [], []

    def finish() -> None:
        try:
            start.wait()
            records.append(services.record_game_result(game).pk)
        except Exception as e:  # noqa: BLE001 (reported below)
            errors.append(e)
        finally:
            connection.close()

    threads = [threading.Thread(target=finish) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == [] and len(set(records)) == 1 and len(records) == 4
    assert values(a, b) == [1015, 985]
    assert RatingChange.objects.filter(game=game).count() == 2
    assert Rating.objects.get(player=a).games == 1
