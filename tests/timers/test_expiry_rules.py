"""Every rule that happens because time passed, fired by the sweep (the same function Celery beat and the
in-process ticker run) over real services on a real database. Time passes by ageing a deadline column."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models.functions import Now
from timers_kit import (
    age_game,
    age_seat,
    age_table,
    awaited,
    legal,
    make_player,
    make_table,
    play,
    start_game,
    state_of,
)

from durak_site import deadlines
from game import services
from game.models import Game, GameEvent, GameSeat
from lobby import services as lobby
from lobby.models import Table

pytestmark = pytest.mark.django_db(transaction=True)


def db_now():
    return Table.objects.annotate(n=Now()).values_list("n", flat=True).first()


def timeout_events(game):
    return list(GameEvent.objects.filter(game=game, source="timeout").order_by("seq"))


# ------------------------------------------------------------------ countdown


def test_countdown_not_yet_due_fires_nothing():
    a, b = make_player(), make_player()
    table = make_table(a, b)
    lobby.set_ready(table.pk, a, True)
    lobby.set_ready(table.pk, b, True)
    table.refresh_from_db()
    assert table.status == Table.Status.COUNTDOWN
    assert timedelta(seconds=2) < table.countdown_deadline - db_now() <= timedelta(seconds=3)
    assert deadlines.sweep() == []
    assert not Game.objects.filter(table=table).exists()


def test_countdown_expiry_starts_the_game_with_a_running_turn_timer():
    a, b = make_player(), make_player()
    table, game = start_game(a, b, turn_seconds=60)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and table.countdown_deadline is None
    assert game.deadline_kind == "turn"
    assert timedelta(seconds=58) < game.deadline - db_now() <= timedelta(seconds=60)
    assert deadlines.sweep() == []  # nothing else is due


# ------------------------------------------------------------------ turn timer


def test_turn_timeout_leader_plays_his_lowest_non_trump_and_the_timer_restarts():
    a, b = make_player(), make_player()
    _, game = start_game(a, b)
    leader = awaited(game)[0]
    version = game.version
    age_game(game.pk)
    fired = deadlines.sweep()
    assert [(f.kind, f.obj_id, f.version) for f in fired] == [("turn", game.pk, version)]
    (event,) = timeout_events(game)
    assert event.seat == leader and event.action["type"] == "attack"
    state = state_of(game)
    assert game.version == version + 1 and game.status == Game.Status.PLAYING
    assert game.deadline_kind == "turn" and game.deadline - db_now() > timedelta(seconds=25)
    assert awaited(game) == [state.defender + 1]


def test_turn_timeout_defender_takes_the_cards():
    a, b = make_player(), make_player()
    _, game = start_game(a, b)
    players = {1: a, 2: b}
    leader = awaited(game)[0]
    play(game, players[leader], next(x for x in legal(game, leader) if x["type"] == "attack"))
    defender = awaited(game)[0]
    assert defender != leader
    age_game(game.pk)
    deadlines.sweep()
    (event,) = timeout_events(game)
    assert (event.seat, event.action) == (defender, {"type": "take"})


def test_turn_timeout_under_the_lose_rule_ends_the_game_and_the_attacker_loses():
    a, b = make_player(), make_player()
    _, game = start_game(a, b, timeout="lose")
    leader = awaited(game)[0]
    age_game(game.pk)
    deadlines.sweep()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.deadline is None
    assert game.result["loser"] == leader
    assert game.result["timed_out"] == [leader]
    assert Table.objects.get(pk=game.table_id).status == Table.Status.REMATCH


# ------------------------------------------------------------------ cheater check window


def test_cheater_check_window_of_4_s_closes_the_round():
    a, b = make_player(), make_player()
    _, game = start_game(a, b, cheater=True)
    players = {1: a, 2: b}
    for _ in range(20):  # lead, then the defender takes and the attacker passes: the round closes
        if game.deadline_kind == "check":
            break
        seat = awaited(game)[0]
        options = legal(game, seat)
        choice = next((x for x in options if x["type"] in ("take", "pass")), None) or \
            next(x for x in options if x["type"] == "attack")
        play(game, players[seat], choice)
        game.refresh_from_db()
    assert game.deadline_kind == "check"
    assert timedelta(seconds=3) < game.deadline - db_now() <= timedelta(seconds=4)
    version = game.version
    assert deadlines.sweep() == []  # the window is still open
    age_game(game.pk)
    fired = deadlines.sweep()
    assert [(f.kind, f.version) for f in fired] == [("check", version)]
    game.refresh_from_db()
    assert game.version == version + 1 and game.deadline_kind == "turn"
    assert GameEvent.objects.filter(game=game, action__type="end_check").count() == 1


# ------------------------------------------------------------------ rematch window


def test_rematch_window_of_30_s_closes_back_to_the_waiting_room():
    a, b = make_player(), make_player()
    table, game = start_game(a, b, disconnect_policy="lose")
    services.leave_game(game.pk, a)
    table.refresh_from_db()
    assert table.status == Table.Status.REMATCH
    assert timedelta(seconds=29) < table.rematch_deadline - db_now() <= timedelta(seconds=30)
    assert deadlines.sweep() == []
    age_table(table.pk, "rematch_deadline")
    assert [f.kind for f in deadlines.sweep()] == ["rematch"]
    table.refresh_from_db()
    assert table.status == Table.Status.WAITING and table.rematch_deadline is None


# ------------------------------------------------------------------ disconnects


def test_disconnect_under_the_lose_policy_loses_after_30_s():
    a, b = make_player(), make_player()
    _, game = start_game(a, b, disconnect_policy="lose")
    services.set_connected(game.pk, a, True)
    services.set_connected(game.pk, b, True)
    services.set_connected(game.pk, a, False)
    seat = GameSeat.objects.get(game=game, player=a)
    assert timedelta(seconds=14) < seat.disconnect_deadline - db_now() <= timedelta(seconds=15)  # the notice
    assert deadlines.sweep() == []
    age_seat(game.pk, seat.number, disconnected_at=Now() - timedelta(seconds=15.5))
    assert [f.kind for f in deadlines.sweep()] == ["disconnect"]
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING  # everyone was told; he still has until 30 s
    age_seat(game.pk, seat.number, disconnected_at=Now() - timedelta(seconds=30.5))
    assert [f.kind for f in deadlines.sweep()] == ["disconnect"]
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result["loser"] == seat.number and seat.number in game.result["left"]


def test_reconnect_within_the_grace_keeps_the_seat_and_the_game_goes_on():
    a, b = make_player(), make_player()
    _, game = start_game(a, b, disconnect_policy="lose")
    services.set_connected(game.pk, a, True)
    services.set_connected(game.pk, a, False)
    services.set_connected(game.pk, a, True)  # back after a moment (closed the tab, came back)
    seat = GameSeat.objects.get(game=game, player=a)
    assert seat.connected and seat.disconnect_deadline is None and seat.left_at is None
    age_game(game.pk, by=-20)  # 20 s later: still inside the turn
    assert deadlines.sweep() == []
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING


def test_disconnect_under_the_bot_policy_notice_then_bot_then_hand_back():
    a, b = make_player(), make_player()
    _, game = start_game(a, b, disconnect_policy="bot")
    services.set_connected(game.pk, a, True)
    services.set_connected(game.pk, a, False)
    seat = GameSeat.objects.get(game=game, player=a)
    assert timedelta(seconds=14) < seat.disconnect_deadline - db_now() <= timedelta(seconds=15)
    # 15 s: everyone sees "disconnected"; the bot comes 60 s later
    age_seat(game.pk, seat.number, disconnected_at=Now() - timedelta(seconds=15))
    assert [f.kind for f in deadlines.sweep()] == ["disconnect"]
    seat.refresh_from_db()
    assert not seat.takeover_level and not seat.connected
    assert timedelta(seconds=59) < seat.disconnect_deadline - db_now() <= timedelta(seconds=60)
    # 75 s: a bot plays his seat
    age_seat(game.pk, seat.number, disconnected_at=Now() - timedelta(seconds=75))
    assert [f.kind for f in deadlines.sweep()] == ["disconnect"]
    seat.refresh_from_db()
    assert seat.takeover_level and seat.disconnect_deadline is None and seat.left_at is None
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    # he returns: his seat and his hand are his again
    hand_before = state_of(game).to_json()
    services.set_connected(game.pk, a, True)
    seat.refresh_from_db()
    assert seat.connected and not seat.takeover_level
    game.refresh_from_db()
    assert state_of(game).to_json()["hands"] == hand_before["hands"]


def test_a_missed_disconnect_is_caught_by_the_stale_heartbeat():
    a, b = make_player(), make_player()
    _, game = start_game(a, b, disconnect_policy="lose")
    services.set_connected(game.pk, a, True)
    GameSeat.objects.filter(game=game, player=a).update(last_heartbeat=Now() - timedelta(seconds=26))
    assert [f.kind for f in deadlines.sweep()] == ["heartbeat"]
    seat = GameSeat.objects.get(game=game, player=a)
    assert not seat.connected and seat.disconnect_deadline is not None
    # a fresh ping (heartbeat) within the grace brings him back
    services.heartbeat(game.pk, a)
    seat.refresh_from_db()
    assert seat.connected and seat.disconnect_deadline is None


# ------------------------------------------------------------------ leaving


def test_leaving_under_the_lose_policy_ends_the_game_and_he_loses():
    a, b, c = make_player(), make_player(), make_player()
    _, game = start_game(a, b, c, disconnect_policy="lose")
    services.leave_game(game.pk, b)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result["loser"] == 2 and game.result["left"] == [2]


def test_leaving_a_pairs_game_under_the_lose_policy_makes_his_pair_lose():
    players = [make_player() for _ in range(4)]
    _, game = start_game(*players, pairs=True, disconnect_policy="lose")
    services.leave_game(game.pk, players[2])  # seat 3: pair 1 & 3 loses
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert sorted(game.result["losers"]) == [1, 3]
    assert sorted(game.result["winners"]) == [2, 4]


def test_leaving_under_the_bot_policy_a_bot_plays_on_and_he_is_recorded_as_the_loser():
    a, b, c = make_player(), make_player(), make_player()
    _, game = start_game(a, b, c, disconnect_policy="bot")
    services.leave_game(game.pk, a)
    seat = GameSeat.objects.get(game=game, player=a)
    assert seat.left_at is not None and seat.takeover_level
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    drive_to_the_end(game)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert 1 in game.result["left"]


def test_a_game_whose_every_human_left_is_finished_and_archived():
    a, b = make_player(), make_player()
    _, game = start_game(a, b, disconnect_policy="bot")
    services.leave_game(game.pk, a)
    services.leave_game(game.pk, b)
    game.refresh_from_db()
    assert game.status != Game.Status.PLAYING and game.finished_at is not None and game.deadline is None
    assert deadlines.sweep() == []


def test_a_game_whose_every_human_vanished_is_finished_by_the_timers():
    """Bot policy, both humans close their tabs for good: after 15 + 60 s bots play both seats, and a
    game with no human left at all must not be left running forever."""
    a, b = make_player(), make_player()
    _, game = start_game(a, b, disconnect_policy="bot")
    for p in (a, b):
        services.set_connected(game.pk, p, True)
        services.set_connected(game.pk, p, False)
    for number in (1, 2):
        age_seat(game.pk, number, disconnected_at=Now() - timedelta(seconds=75))
    deadlines.sweep()
    drive_to_the_end(game)
    game.refresh_from_db()
    assert game.status != Game.Status.PLAYING and game.deadline is None


# ------------------------------------------------------------------ bots


def test_a_bot_whose_queued_move_was_lost_is_moved_by_the_sweep():
    a = make_player()
    table = make_table(a)
    lobby.add_bot(table.pk, a, 2, "lowest")
    lobby.set_ready(table.pk, a, True)
    age_table(table.pk, "countdown_deadline")
    deadlines.sweep()
    game = Game.objects.get(table=table)
    for _ in range(10):
        if 2 in awaited(game):
            break
        age_game(game.pk)
        deadlines.sweep()
        game.refresh_from_db()
    assert 2 in awaited(game)
    version = game.version
    assert deadlines.sweep() == []  # queued moves get their moment first
    Game.objects.filter(pk=game.pk).update(deadline=Now() + timedelta(seconds=25))  # 5 s into a 30 s turn
    fired = deadlines.sweep()
    assert [(f.kind, f.version) for f in fired] == [("bot", version)]
    assert GameEvent.objects.filter(game=game, source="bot", seat=2).count() == 1


def drive_to_the_end(game, limit: int = 3000) -> None:
    """Let time run: bots move (as their queued tasks would), humans time out, until the game ends."""
    for _ in range(limit):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return
        bots = {s.number for s in GameSeat.objects.filter(game=game) if s.bot_controlled}
        turn = awaited(game)
        moved = False
        for seat in turn:
            if seat in bots and services.apply_bot_action(game.pk, seat, game.version) is not None:
                moved = True
                break
        if not moved:
            if game.deadline_kind == "check":
                bot_catch = [n for n in bots if legal(game, n)]
                if bot_catch and services.apply_bot_action(game.pk, bot_catch[0], game.version):
                    continue
            age_game(game.pk)
            deadlines.sweep()
    raise AssertionError("the game did not end")


def test_a_waiting_room_seat_whose_pings_stopped_counts_as_away():
    from lobby.models import Seat

    a, b = make_player(), make_player()
    table = make_table(a, b)
    lobby.set_presence(table.pk, a.pk, True)
    lobby.set_presence(table.pk, b.pk, True)
    assert deadlines.sweep() == []
    Seat.objects.filter(table=table, player=a).update(last_seen=Now() - timedelta(seconds=26))
    assert [f.kind for f in deadlines.sweep()] == ["presence"]
    seat = Seat.objects.get(table=table, player=a)
    assert not seat.connected and seat.inactive_deadline is not None  # freed later without penalty (docs/RULES.md#inactive-seat)
    assert Seat.objects.get(table=table, player=b).connected
    # the inactive deadline frees the seat when it runs out
    Seat.objects.filter(pk=seat.pk).update(inactive_deadline=Now())
    assert [f.kind for f in deadlines.sweep()] == ["inactive"]
    seat.refresh_from_db()
    assert seat.player_id is None
