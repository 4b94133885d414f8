"""Table arenas end to end on real tables and games: pods of 3 or 4 and two pairs seated from one
pool, a game played to the end and scored by the order of going out, a leaver, a no-show, a void,
berserk, the same table again only after a wait; bad settings refused."""

from __future__ import annotations

from datetime import timedelta

import pytest

from durak_site.clock import db_now
from durak_site.errors import ServiceError
from game import services as game_services
from game.models import Game
from lobby.models import Seat, Table
from tests.game.helpers import play_out
from tests.tournaments.helpers import join_all, resign, start
from tournaments import pairing, scoring, services
from tournaments.models import Entry, Tournament, TournamentGame, TournamentSeat

pytestmark = pytest.mark.django_db


def _entry(event, player_id) -> Entry:
    return Entry.objects.get(tournament=event, player_id=player_id)


def _table_arena(make_event, make_player, seats: int, players: int, **extra):
    event = make_event(fmt="arena", seats=seats, **extra)
    people = [make_player() for _ in range(players)]
    join_all(event, people)
    start(event)
    return event, people


def _deal(pairing_row: TournamentGame) -> Game:
    """Everybody at the table arrives («Готово» pressed for him) and the game is dealt."""
    for pid in pairing_row.player_ids():
        assert services.arrived(pid, pairing_row.table_id)
    return game_services.start_game(pairing_row.table_id)


def test_a_pod_of_three_is_seated_at_a_three_seat_table_of_its_players_only(make_event, make_player):
    event, people = _table_arena(make_event, make_player, 3, 4)
    assert services.arena_wave(event.pk) == 1
    pod = TournamentGame.objects.get(tournament=event)
    assert pod.size == 3 and len(set(pod.player_ids())) == 3
    table = Table.objects.get(pk=pod.table_id)
    assert table.seats_count == 3 and table.matched
    assert sorted(Seat.objects.filter(table=table).values_list("player_id", flat=True)) == sorted(pod.player_ids())
    assert not Seat.objects.filter(table=table, bot_level__gt="").exists()
    left_out = [p for p in people if p.pk not in pod.player_ids()]
    assert [_entry(event, p.pk).state for p in left_out] == ["waiting"]  # the fourth waits for more


def test_a_pod_game_played_to_the_end_scores_by_the_order_of_going_out(make_event, make_player):
    event, _people = _table_arena(make_event, make_player, 3, 3)
    services.arena_wave(event.pk)
    pod = TournamentGame.objects.get(tournament=event)
    game = play_out(_deal(pod).pk, seed=3)
    assert game.status == Game.Status.FINISHED
    pod.refresh_from_db()
    assert pod.status == TournamentGame.Status.FINISHED
    seats = {s.player_id: s for s in TournamentSeat.objects.filter(pairing=pod)}
    number = dict(game.seats.values_list("player_id", "number"))
    codes = {int(r["seat"]): r["outcome"] for r in game.result["outcomes"]}
    out = game.state["out"]
    if game.result.get("draw"):
        assert sorted(s.place for s in seats.values()) == [1, 2, 2]
    else:
        durak = next(pid for pid, n in number.items() if codes[n] == "durak")
        assert seats[durak].place == 3 and seats[durak].points == 0 and seats[durak].result == "L"
        first = next(pid for pid, n in number.items() if n == out[0])
        assert seats[first].place == 1 and seats[first].points == 2 and seats[first].result == "W"
    for pid, seat in seats.items():
        entry = _entry(event, pid)
        assert entry.score == seat.points == scoring.POD_POINTS[3][seat.place - 1]
        assert entry.games == 1 and entry.marks == seat.result and entry.state == Entry.State.WAITING
        assert sorted(entry.last_table) == sorted(set(seats) - {pid}) and entry.last_opponent_id is None
    assert Tournament.objects.get(pk=event.pk).next_wave_at is not None  # the pool asks for a wave


def test_the_same_table_alone_sits_again_only_after_its_wait(make_event, make_player):
    event, _people = _table_arena(make_event, make_player, 3, 3)
    services.arena_wave(event.pk)
    pod = TournamentGame.objects.get(tournament=event)
    resign(_deal(pod).pk, pod.player_a)
    assert services.arena_wave(event.pk) == 0  # the very same three, just back: they wait first
    due = Tournament.objects.get(pk=event.pk).next_wave_at
    assert due is not None and (due - db_now()).total_seconds() > pairing.REPEAT_AFTER - 5
    Entry.objects.filter(tournament=event).update(eligible_at=db_now() - timedelta(seconds=pairing.REPEAT_AFTER))
    assert services.arena_wave(event.pk) == 1


def test_a_leaver_at_a_table_of_four_is_the_durak_and_the_others_share_the_place_above(make_event, make_player):
    event, _people = _table_arena(make_event, make_player, 4, 4)
    services.arena_wave(event.pk)
    pod = TournamentGame.objects.get(tournament=event)
    leaver = pod.player_ids()[2]
    resign(_deal(pod).pk, TournamentSeat.objects.get(pairing=pod, player_id=leaver).player)
    seats = {s.player_id: s for s in TournamentSeat.objects.filter(pairing=pod)}
    assert seats.pop(leaver).place == 4 and _entry(event, leaver).abandons == 1
    assert {s.place for s in seats.values()} == {3} and {s.points for s in seats.values()} == {1}
    assert {_entry(event, pid).marks for pid in seats} == {"3"}


def test_two_pairs_are_seated_first_and_last_against_the_middle_and_score_by_their_pair(make_event, make_player):
    from ratings.models import Rating

    event = make_event(fmt="arena", seats=4, pairs=True)
    people = [make_player() for _ in range(4)]
    for k, p in enumerate(people):  # the first wave goes by rating: people[0] the best
        Rating.objects.update_or_create(player=p, defaults={"value": 1800 - 100 * k})
    join_all(event, people)
    start(event)
    services.arena_wave(event.pk)
    pod = TournamentGame.objects.get(tournament=event)
    assert pod.player_ids() == [people[0].pk, people[1].pk, people[3].pk, people[2].pk]
    assert Table.objects.get(pk=pod.table_id).rules["pairs"] is True
    game = play_out(_deal(pod).pk, seed=5)
    teams = {s.player_id: s for s in TournamentSeat.objects.filter(pairing=pod)}
    assert {s.team for s in teams.values()} == {1, 2}
    for team in (1, 2):
        mates = [s for s in teams.values() if s.team == team]
        assert len(mates) == 2 and len({s.result for s in mates}) == 1 and len({s.points for s in mates}) == 1
    if not game.result.get("draw"):
        assert sorted(s.points for s in teams.values()) == [0, 0, 2, 2]
    for pid, seat in teams.items():
        assert _entry(event, pid).score == seat.points and len(_entry(event, pid).last_table) == 3


def test_berserk_at_a_pod_marks_the_players_seat(make_event, make_player):
    event, _people = _table_arena(make_event, make_player, 3, 3)
    services.arena_wave(event.pk)
    pod = TournamentGame.objects.get(tournament=event)
    game = _deal(pod)
    third = TournamentSeat.objects.get(pairing=pod, number=3)
    services.berserk(event.pk, third.player)
    third.refresh_from_db()
    assert third.berserk and not TournamentSeat.objects.filter(pairing=pod, berserk=True).exclude(pk=third.pk).exists()
    assert Game.objects.get(pk=game.pk).halved_seats == [3]


def test_a_no_show_at_a_pod_sends_who_came_back_to_the_pool_and_pauses_who_did_not(make_event, make_player):
    event, _people = _table_arena(make_event, make_player, 4, 4)
    services.arena_wave(event.pk)
    pod = TournamentGame.objects.get(tournament=event)
    came, absent = pod.player_ids()[:3], pod.player_ids()[3]
    for pid in came:
        services.arrived(pid, pod.table_id)
    TournamentGame.objects.filter(pk=pod.pk).update(arrive_deadline=db_now() - timedelta(seconds=1))
    services.fire_no_show(pod.pk)
    assert TournamentGame.objects.get(pk=pod.pk).status == TournamentGame.Status.VOID
    assert {_entry(event, pid).state for pid in came} == {"waiting"}
    assert _entry(event, absent).state == "paused" and _entry(event, absent).abandons == 1


def test_voiding_a_pod_game_takes_it_out_of_every_seats_record(make_event, make_player):
    event, _people = _table_arena(make_event, make_player, 3, 3)
    services.arena_wave(event.pk)
    pod = TournamentGame.objects.get(tournament=event)
    play_out(_deal(pod).pk, seed=11)
    assert sum(Entry.objects.filter(tournament=event).values_list("score", flat=True)) > 0
    services.void_game(pod.pk)
    assert set(Entry.objects.filter(tournament=event).values_list("score", "games", "marks")) == {(0, 0, "")}


@pytest.mark.parametrize(("rules", "code"), [
    ({"fmt": "swiss", "seats": 3}, "tournament_swiss_heads_up"),
    ({"fmt": "arena", "seats": 3, "pairs": True}, "pairs_need_four_seats"),
    ({"fmt": "arena", "seats": 5}, "tournament_bad_seats"),
    ({"fmt": "arena", "seats": 4, "deck_size": 24, "variant": "perevodnoy"}, None),
])
def test_table_settings_an_event_cannot_have_are_refused(make_event, rules, code):
    if code is None:
        assert make_event(**rules).seats == 4  # 24 cards deal six to each of four
        return
    with pytest.raises(ServiceError) as exc:
        make_event(**rules)
    assert exc.value.code == code
    assert not Tournament.objects.exists()


def test_the_schedule_makes_table_arenas_and_its_form_refuses_what_an_event_cannot_have(db):
    from django.core.exceptions import ValidationError

    from tournaments.models import ScheduleRow

    bad = ScheduleRow(name="Ночная швейцарка", format="swiss", seats=3, times="21:00")
    with pytest.raises(ValidationError):
        bad.full_clean()
    row = ScheduleRow.objects.create(name="Арена на четверых", seats=4, pairs=True, every_minutes=60, ahead_minutes=90)
    made = services.create_ahead(db_now())
    assert made and all(e.seats == 4 and e.pairs and e.schedule_id == row.pk for e in made)
