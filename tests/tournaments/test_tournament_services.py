"""The services end to end on real tables and games: joining, pairing waves, a game's end scored,
pause and return, berserk, abandons, a moderator's removal and void, bad input refused unchanged."""

from __future__ import annotations

from datetime import UTC, timedelta

import pytest
from django.utils import translation

from durak_site.clock import db_now
from durak_site.errors import ServiceError
from game.models import Game
from lobby.models import Table
from tests.game.helpers import play_out
from tests.tournaments.helpers import begin, join_all, resign, start
from tournaments import services, standings
from tournaments.models import Entry, Tournament, TournamentGame

pytestmark = pytest.mark.django_db


def _entry(event, player):
    return Entry.objects.get(tournament=event, player=player)


def _pairing_of(event, player):
    from django.db.models import Q

    return TournamentGame.objects.get(Q(player_a=player) | Q(player_b=player), tournament=event,
                                      status=TournamentGame.Status.PENDING)


def test_bad_input_is_refused_and_changes_nothing(make_event, make_player):
    event = make_event()
    stranger = make_player()
    with pytest.raises(ServiceError) as exc:
        services.join(event.pk, stranger)  # a private event without its link
    assert exc.value.code == "tournament_private"
    with pytest.raises(ServiceError) as exc:
        services.create_private(stranger, name="x", starts_at=db_now() + timedelta(minutes=10))
    assert exc.value.code == "tournament_bad_name"
    with pytest.raises(ServiceError) as exc:
        services.create_private(stranger, name="Too soon", starts_at=db_now())
    assert exc.value.code == "tournament_bad_start"
    with pytest.raises(ServiceError) as exc:
        services.pause(event.pk, stranger)
    assert exc.value.code == "tournament_not_joined"
    assert Entry.objects.count() == 0 and Tournament.objects.count() == 1


def test_a_password_event_wants_its_password(make_event, make_player):
    event = make_event(password="дача")
    guest = make_player()
    with pytest.raises(ServiceError) as exc:
        services.join(event.pk, guest, code=event.invite_code, password="нет")
    assert exc.value.code == "tournament_password"
    services.join(event.pk, guest, code=event.invite_code, password="дача")
    assert _entry(event, guest).state == Entry.State.WAITING


def test_joining_a_finished_event_is_refused(make_event, make_player):
    event = make_event()
    players = [make_player() for _ in range(2)]
    join_all(event, players)
    start(event)
    services.fire_end(event.pk)
    with pytest.raises(ServiceError) as exc:
        services.join(event.pk, make_player(), code=event.invite_code)
    assert exc.value.code == "tournament_over"


def test_an_event_with_one_player_is_cancelled(make_event, make_player):
    event = make_event()
    join_all(event, [make_player()])
    assert start(event).status == Tournament.Status.CANCELLED


def test_the_first_wave_pairs_by_rating_and_makes_two_seat_tables_without_bots(make_event, make_player):
    from ratings.models import Rating

    event = make_event()
    players = [make_player() for _ in range(4)]
    for p, value in zip(players, (1500, 1100, 1400, 1200), strict=True):
        Rating.objects.update_or_create(player=p, defaults={"value": value})
    join_all(event, players)
    start(event)
    assert services.arena_wave(event.pk) == 2
    pairs = {frozenset((g.player_a_id, g.player_b_id)) for g in TournamentGame.objects.filter(tournament=event)}
    assert pairs == {frozenset((players[0].pk, players[2].pk)), frozenset((players[3].pk, players[1].pk))}
    for g in TournamentGame.objects.filter(tournament=event):
        table = Table.objects.get(pk=g.table_id)
        assert table.seats_count == 2 and table.disconnect_policy == "lose"
        assert not table.seats.exclude(bot_level="").exists()
    assert set(Entry.objects.filter(tournament=event).values_list("state", flat=True)) == {"playing"}
    assert services.arena_wave(event.pk) == 0  # nobody is paired twice


def test_a_game_to_the_end_scores_and_returns_both_to_the_pool(make_event, make_player):
    event = make_event()
    a, b = make_player(), make_player()
    join_all(event, [a, b])
    start(event)
    services.arena_wave(event.pk)
    pairing = _pairing_of(event, a)
    game = play_out(begin(pairing).pk, seed=5)
    pairing.refresh_from_db()
    assert pairing.status == TournamentGame.Status.FINISHED and pairing.game_id == game.pk
    results = {pairing.result_a, pairing.result_b}
    assert results in ({"W", "L"}, {"D"})
    ea, eb = _entry(event, a), _entry(event, b)
    assert ea.score + eb.score == (2 if results == {"W", "L"} else 2)
    assert ea.state == eb.state == Entry.State.WAITING
    assert ea.last_opponent_id == b.pk
    # never the same opponent twice in a row: alone together, they wait
    assert services.arena_wave(event.pk) == 0


def test_streaks_berserk_and_abandons_through_real_games(make_event, make_player):
    event = make_event()
    a, b, c = make_player(), make_player(), make_player()
    join_all(event, [a, b, c])
    start(event)
    Entry.objects.filter(tournament=event, player=c).update(state=Entry.State.PAUSED)
    for opponent in (b, c, b):
        Entry.objects.filter(tournament=event).exclude(player__in=(a, opponent)).update(state=Entry.State.PAUSED)
        Entry.objects.filter(tournament=event, player__in=(a, opponent)).update(state=Entry.State.WAITING,
                                                                                last_opponent=None)
        assert services.arena_wave(event.pk) == 1
        game = begin(_pairing_of(event, a))
        resign(game.pk, opponent)
    ea = _entry(event, a)
    assert ea.score == 2 + 2 + 4 and ea.streak == 3 and ea.marks == "WWW"
    eb = _entry(event, b)
    assert eb.abandons == 2 and eb.state == Entry.State.WITHDRAWN  # two games left: out


def test_berserk_halves_the_clock_before_the_first_move_only(make_event, make_player):
    event = make_event()
    a, b = make_player(), make_player()
    join_all(event, [a, b])
    start(event)
    services.arena_wave(event.pk)
    pairing = _pairing_of(event, a)
    game = begin(pairing)
    mover = game.deadline_seats[0]
    player_to_move = a if game.seats.get(number=mover).player_id == a.pk else b
    before = game.deadline
    services.berserk(event.pk, player_to_move)
    game.refresh_from_db()
    assert game.halved_seats == [mover]
    assert (before - game.deadline).total_seconds() == pytest.approx(event.turn_seconds / 2, abs=0.01)
    with pytest.raises(ServiceError) as exc:
        services.berserk(event.pk, player_to_move)
    assert exc.value.code == "berserk_twice"
    play_out(game.pk, seed=2)
    with pytest.raises(ServiceError) as exc:
        services.berserk(event.pk, player_to_move)
    assert exc.value.code == "berserk_not_playing"


def test_berserk_after_moving_is_refused(make_event, make_player):
    from game import engine
    from game import services as game_services
    from game.engine.bots import choose_action

    event = make_event()
    a, b = make_player(), make_player()
    join_all(event, [a, b])
    start(event)
    services.arena_wave(event.pk)
    game = begin(_pairing_of(event, a))
    state = engine.GameState.from_json(game.state)
    seat = engine.whose_turn(state)[0]
    mover = a if game.seats.get(number=seat).player_id == a.pk else b
    import random
    action = choose_action("heuristic", engine.view_for(state, seat), random.Random(1))
    game_services.apply_player_action(game.pk, mover, game.version, "x1", action)
    with pytest.raises(ServiceError) as exc:
        services.berserk(event.pk, mover)
    assert exc.value.code == "berserk_after_move"
    game.refresh_from_db()
    assert game.halved_seats == []


def test_pause_and_return_wait_longer_each_time(make_event, make_player):
    event = make_event()
    a, b = make_player(), make_player()
    join_all(event, [a, b])
    start(event)
    services.pause(event.pk, a)
    with pytest.raises(ServiceError) as exc:
        services.pause(event.pk, a)
    assert exc.value.code == "tournament_already_paused"
    assert services.arena_wave(event.pk) == 0  # a paused player is not paired
    entry = services.resume(event.pk, a)
    assert entry.eligible_at <= db_now()  # the first return: at once
    assert services.arena_wave(event.pk) == 1
    services.pause(event.pk, a)  # while playing: it starts when the game ends
    assert _entry(event, a).pause_after_game
    resign(begin(_pairing_of(event, a)).pk, b)
    assert _entry(event, a).state == Entry.State.PAUSED
    entry = services.resume(event.pk, a)
    assert (entry.eligible_at - db_now()).total_seconds() > services.return_wait(2).total_seconds() - 5
    assert services.return_wait(2) < services.return_wait(3) <= services.return_wait(30)


def test_a_no_show_is_paused_and_the_one_who_came_goes_back_to_the_pool(make_event, make_player):
    event = make_event()
    a, b = make_player(), make_player()
    join_all(event, [a, b])
    start(event)
    services.arena_wave(event.pk)
    pairing = _pairing_of(event, a)
    services.arrived(a.pk, pairing.table_id)
    TournamentGame.objects.filter(pk=pairing.pk).update(arrive_deadline=db_now() - timedelta(seconds=1))
    assert services.fire_no_shows() == 1
    assert _entry(event, a).state == Entry.State.WAITING
    eb = _entry(event, b)
    assert eb.state == Entry.State.PAUSED and eb.abandons == 1
    assert Table.objects.get(pk=pairing.table_id).status == Table.Status.CLOSED


def test_moderators_remove_a_player_and_void_a_game(make_event, make_player):
    event = make_event()
    a, b = make_player(), make_player()
    join_all(event, [a, b])
    start(event)
    services.arena_wave(event.pk)
    pairing = _pairing_of(event, a)
    resign(begin(pairing).pk, b)
    assert _entry(event, a).score == 2
    services.void_game(pairing.pk)
    assert _entry(event, a).score == 0 and _entry(event, a).games == 0
    services.remove_player(event.pk, b.pk)
    assert [ln.player_id for ln in standings.lines(event)] == [a.pk]


def test_the_end_writes_places_and_the_podium_and_later_games_do_not_count(make_event, make_player):
    event = make_event()
    players = [make_player() for _ in range(4)]
    join_all(event, players)
    start(event)
    services.arena_wave(event.pk)
    first = _pairing_of(event, players[0])
    winner = players[0]
    loser = first.player_b if first.player_a_id == winner.pk else first.player_a
    resign(begin(first).pk, loser)
    late = TournamentGame.objects.filter(tournament=event, status="pending").get()
    late_game = begin(late)
    services.fire_end(event.pk)
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    assert event.podium[0]["player_id"] == winner.pk
    resign(late_game.pk, late.player_a)
    late.refresh_from_db()
    assert late.status == TournamentGame.Status.VOID
    assert _entry(event, winner).place == 1
    assert Game.objects.filter(pk=late_game.pk, status="finished").exists()


def test_a_swiss_of_seven_over_three_rounds_gives_one_bye_a_round(make_event, make_player):
    event = make_event(fmt="swiss", rounds=3)
    players = [make_player() for _ in range(7)]  # the creator is not in: seven, so one bye a round
    join_all(event, players)
    start(event)
    for round_number in (1, 2, 3):
        event.refresh_from_db()
        assert event.current_round == round_number
        games = list(TournamentGame.objects.filter(tournament=event, round=round_number))
        assert sum(g.status == "bye" for g in games) == 1 and len(games) == 4
        for g in games:
            if g.status == "pending":
                play_out(begin(g).pk, seed=g.pk)  # played to the end: nobody abandons
        services.check_round_over(event.pk)
        Tournament.objects.filter(pk=event.pk).update(round_deadline=db_now())
        services.fire_round(event.pk)
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    met = [frozenset((g.player_a_id, g.player_b_id)) for g in TournamentGame.objects.filter(
        tournament=event, player_b__isnull=False)]
    assert len(met) == len(set(met)) == 9  # no rematch across the rounds
    byes = list(TournamentGame.objects.filter(tournament=event, status="bye").values_list("player_a_id", flat=True))
    assert len(byes) == len(set(byes)) == 3
    assert sum(Entry.objects.filter(tournament=event).values_list("score", flat=True)) == 2 * 12  # 9 games, 3 byes
    assert len(event.podium) == 3


def test_the_schedule_creates_each_event_once_ahead(db):
    from datetime import datetime

    from tournaments.models import ScheduleRow

    ScheduleRow.objects.create(name="Часовая арена", every_minutes=60, ahead_minutes=90)
    now = datetime(2026, 3, 2, 10, 15, tzinfo=UTC)
    made = services.create_ahead(now)
    assert [e.starts_at.hour for e in made] == [11]
    assert services.create_ahead(now) == []
    assert Tournament.objects.get().start_deadline == made[0].starts_at


def test_a_tournament_table_keeps_its_rules_and_seats_its_two_players_only(make_event, make_player):
    from lobby import services as lobby_services

    event = make_event()
    a, b = make_player(), make_player()
    join_all(event, [a, b])
    start(event)
    services.arena_wave(event.pk)
    pairing = _pairing_of(event, a)
    host = pairing.player_a
    for change in (lambda: lobby_services.update_rules(pairing.table_id, host, deck_size=52),
                   lambda: lobby_services.add_bot(pairing.table_id, host, 2)):
        with pytest.raises(ServiceError) as exc:
            change()
        assert exc.value.code == "matched_table_locked"
        for lang, maker in (("ru", "турнир"), ("en", "tournament")):  # not «made by the search» alone
            with translation.override(lang):
                assert maker in str(exc.value), str(exc.value)
    lobby_services.stand(pairing.table_id, pairing.player_b)
    with pytest.raises(ServiceError) as exc:
        lobby_services.sit(pairing.table_id, make_player(), 2)
    assert exc.value.code == "tournament_table_locked"
    assert Table.objects.get(pk=pairing.table_id).rules["deck_size"] == event.deck_size
