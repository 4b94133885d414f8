"""game.services: the one write path (version check, idempotent message ids, locking, replay)."""

from __future__ import annotations

import threading

import pytest
from django.conf import settings as dj_settings
from django.db import IntegrityError, connection
from django.test.utils import CaptureQueriesContext

from durak_site.errors import ServiceError
from game import engine, event_log, services
from game.models import Game, GameEvent, GameSeat
from tests.game.helpers import make_player, make_table, play_out_with_bots

pytestmark = pytest.mark.django_db(transaction=True)
POSTGRES = "postgresql" in dj_settings.DATABASES["default"]["ENGINE"]


@pytest.fixture(autouse=True)
def _no_auto_bots(settings):
    settings.BOT_SCHEDULER = "off"


def _two_humans(**kw):
    a, b = make_player(), make_player()
    table = make_table(humans=[a, b], **kw)
    game = services.start_game(table.pk)
    return a, b, table, game


def _mover(game):
    """(player, seat, legal actions) of the seat whose move is awaited."""
    seat = game.deadline_seats[0]
    gs = GameSeat.objects.select_related("player").get(game=game, number=seat)
    view = engine.view_for(engine.GameState.from_json(game.state), seat)
    return gs.player, seat, view["legal"]


def _snapshot(game_id):
    g = Game.objects.get(pk=game_id)
    return g.version, g.state, GameEvent.objects.filter(game_id=game_id).count(), g.deadline


def test_start_game_deals_from_the_table_seats_and_sets_the_first_deadline():
    a, b, table, game = _two_humans(turn_seconds=60)
    game.refresh_from_db()
    assert game.version == 0 and game.status == "playing"
    assert game.state == game.initial_state
    assert [(s.number, s.player_id) for s in game.seats.all()] == [(1, a.pk), (2, b.pk)]
    assert game.deadline_kind == "turn" and game.deadline_seats
    assert 55 < (game.deadline - game.started_at).total_seconds() < 65
    assert game.seed and int(game.seed) >= 0


def test_a_second_start_while_a_game_runs_is_refused():
    a, b, table, game = _two_humans()
    with pytest.raises(ServiceError) as err:
        services.start_game(table.pk)
    assert err.value.code == "game_running"


def test_a_legal_move_bumps_the_version_and_appends_one_event():
    a, b, table, game = _two_humans()
    player, seat, legal = _mover(game)
    after = services.apply_player_action(game.pk, player, 0, "m1", legal[0])
    assert after.version == 1
    ev = GameEvent.objects.get(game=game)
    assert (ev.seq, ev.seat, ev.action, ev.client_msg_id, ev.source) == (1, seat, legal[0], "m1", "player")
    assert event_log.replay_game(Game.objects.get(pk=game.pk)) == Game.objects.get(pk=game.pk).state


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the move's combined statements are Postgres'")
def test_a_move_is_the_lock_and_the_update_in_a_transaction(settings):
    """The lock reads the seats and the session generation, the update writes the event: no other round
    trip (each one costs the worker thread a wait for the GIL under load, docs/live-path-design.md)."""
    settings.BOT_SCHEDULER = "off"
    a, b, table, game = _two_humans()
    player, seat, legal = _mover(game)
    with CaptureQueriesContext(connection) as queries:
        services.apply_player_action(game.pk, player, 0, "m1", legal[0], session_generation=0)
    assert [q["sql"].split()[0] for q in queries.captured_queries] == ["BEGIN", "SELECT", "WITH", "COMMIT"]


def test_a_stale_version_is_refused_and_changes_nothing():
    a, b, table, game = _two_humans()
    player, seat, legal = _mover(game)
    services.apply_player_action(game.pk, player, 0, "m1", legal[0])
    before = _snapshot(game.pk)
    game = Game.objects.get(pk=game.pk)
    player2, seat2, legal2 = _mover(game)
    with pytest.raises(ServiceError) as err:
        services.apply_player_action(game.pk, player2, 0, "m2", legal2[0])
    assert err.value.code == "stale_version"
    assert _snapshot(game.pk) == before


def test_a_resent_message_id_is_applied_once_and_answered_again():
    a, b, table, game = _two_humans()
    player, seat, legal = _mover(game)
    first = services.apply_player_action(game.pk, player, 0, "same-id", legal[0])
    before = _snapshot(game.pk)
    again = services.apply_player_action(game.pk, player, 0, "same-id", legal[0])  # stale version, but a resend
    assert again.version == first.version == 1
    assert again.duplicate
    assert _snapshot(game.pk) == before


def test_an_engine_refusal_carries_the_engine_code_and_changes_nothing():
    a, b, table, game = _two_humans()
    player, seat, legal = _mover(game)
    other = b if player == a else a
    before = _snapshot(game.pk)
    with pytest.raises(ServiceError) as err:
        services.apply_player_action(game.pk, other, 0, "x1", {"type": "take"})
    assert err.value.code in ("not_your_turn", "nothing_to_take")
    hand = game.state["hands"][seat - 1]
    missing = next(c for c in engine.deck_cards(36) if c not in hand)
    with pytest.raises(ServiceError) as err:
        services.apply_player_action(game.pk, player, 0, "x2", {"type": "attack", "card": missing})
    assert err.value.code == "card_not_in_hand"
    assert str(err.value.message)
    assert _snapshot(game.pk) == before


@pytest.mark.parametrize("action", [
    None, [], "attack", {"type": 5}, {"type": "fly"}, {"type": "attack", "card": 7},
    {"type": "attack", "card": "7S", "seat": 2}, {"type": "attack", "card": "x" * 100},
])
def test_malformed_actions_are_refused_before_the_engine(action):
    a, b, table, game = _two_humans()
    player, seat, legal = _mover(game)
    before = _snapshot(game.pk)
    with pytest.raises(ServiceError) as err:
        services.apply_player_action(game.pk, player, 0, "bad", action)
    assert err.value.code in ("bad_action", "unknown_action")
    assert _snapshot(game.pk) == before


def test_bad_ids_and_versions_and_strangers_are_refused():
    a, b, table, game = _two_humans()
    player, seat, legal = _mover(game)
    stranger = make_player()
    for args, code in [((0, "", legal[0]), "bad_id"), ((0, "x" * 65, legal[0]), "bad_id"),
                       (("0", "ok", legal[0]), "bad_version"), ((True, "ok", legal[0]), "bad_version")]:
        with pytest.raises(ServiceError) as err:
            services.apply_player_action(game.pk, player, *args)
        assert err.value.code == code
    with pytest.raises(ServiceError) as err:
        services.apply_player_action(game.pk, stranger, 0, "s", legal[0])
    assert err.value.code == "not_seated"


@pytest.mark.skipif(not POSTGRES, reason="row locks need Postgres")
def test_two_threads_acting_at_once_exactly_one_applies():
    a, b, table, game = _two_humans()
    player, seat, legal = _mover(game)
    assert len(legal) >= 2
    barrier = threading.Barrier(2)
    outcomes = []

    def act(i):
        from django.db import connection as conn

        try:
            barrier.wait()
            services.apply_player_action(game.pk, player, 0, f"t{i}", legal[i])
            outcomes.append("ok")
        except ServiceError as exc:
            outcomes.append(exc.code)
        finally:
            conn.close()

    threads = [threading.Thread(target=act, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["ok", "stale_version"]
    game = Game.objects.get(pk=game.pk)
    assert game.version == 1 and GameEvent.objects.filter(game=game).count() == 1


@pytest.mark.skipif(not POSTGRES, reason="row locks need Postgres")
def test_the_same_message_from_two_threads_is_applied_once():
    a, b, table, game = _two_humans()
    player, seat, legal = _mover(game)
    barrier = threading.Barrier(2)
    versions = []

    def act():
        from django.db import connection as conn

        try:
            barrier.wait()
            versions.append(services.apply_player_action(game.pk, player, 0, "dup", legal[0]).version)
        finally:
            conn.close()

    threads = [threading.Thread(target=act) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert versions == [1, 1]
    assert GameEvent.objects.filter(game=game).count() == 1


def test_a_failure_mid_transaction_leaves_nothing_half_written():
    a, b, table, game = _two_humans()
    player, seat, legal = _mover(game)
    # a corrupt log row where the next event must go: the insert fails after the engine applied the move
    GameEvent.objects.create(game=game, seq=1, seat=None, action={"type": "end_check"}, source="server")
    before = _snapshot(game.pk)
    with pytest.raises(IntegrityError):  # Django's: the row goes in with the game's UPDATE, which fails with it
        services.apply_player_action(game.pk, player, 0, "m1", legal[0])
    assert _snapshot(game.pk) == before
    assert not GameEvent.objects.filter(client_msg_id="m1").exists()


def test_a_change_whose_events_were_never_written_is_not_published():
    a, b, table, game = _two_humans()
    player, seat, legal = _mover(game)
    game = Game.objects.get(pk=game.pk)
    state = event_log.append(game, engine.GameState.from_json(game.state), seat, legal[0], source="player")
    with pytest.raises(RuntimeError, match="never written"):
        services.sending.publish(game, state)


def test_a_bot_move_carries_its_version_and_is_a_no_op_when_late():
    player = make_player()
    table = make_table(humans=[player], bots=["heuristic"])
    game = services.start_game(table.pk)
    game = Game.objects.get(pk=game.pk)
    if 2 not in game.deadline_seats:  # let the human open so the bot is awaited
        _, _, legal = _mover(game)
        services.apply_player_action(game.pk, player, 0, "open", legal[0])
        game = Game.objects.get(pk=game.pk)
    assert services.apply_bot_action(game.pk, 2, game.version + 5) is None
    assert services.apply_bot_action(game.pk, 1, game.version) is None  # a human's seat: never a bot move
    moved = services.apply_bot_action(game.pk, 2, game.version)
    assert moved is not None and moved.version == game.version + 1
    assert GameEvent.objects.get(game=game, seq=moved.version).source == "bot"
    assert services.apply_bot_action(game.pk, 2, game.version) is None  # the same move again: nothing


def test_turn_deadline_plays_the_automatic_move_once():
    a, b, table, game = _two_humans()
    game = Game.objects.get(pk=game.pk)
    seat = game.deadline_seats[0]
    services.fire_turn_deadline(game.pk, game.version)
    after = Game.objects.get(pk=game.pk)
    assert after.version == game.version + 1
    ev = GameEvent.objects.get(game=game, seq=after.version)
    assert ev.source == "timeout" and ev.seat == seat
    assert services.fire_turn_deadline(game.pk, game.version) is None
    assert Game.objects.get(pk=game.pk).version == after.version


def test_turn_deadline_with_timeout_lose_ends_the_game_and_records_the_timed_out_seat():
    a, b, table, game = _two_humans(rules={"timeout": "lose"})
    game = Game.objects.get(pk=game.pk)
    seat = game.deadline_seats[0]
    services.fire_turn_deadline(game.pk, game.version)
    game = Game.objects.get(pk=game.pk)
    assert game.status == "finished" and game.finished_at
    assert game.result["loser"] == seat and game.result["timed_out"] == [seat]
    assert game.deadline is None
    assert event_log.replay_game(game) == game.state


def test_leaving_under_the_lose_policy_ends_the_game_as_his_loss():
    a, b, table, game = _two_humans(disconnect_policy="lose")
    services.leave_game(game.pk, b)
    game = Game.objects.get(pk=game.pk)
    assert game.status == "finished"
    assert game.result["loser"] == 2 and game.result["left"] == [2] and 1 in game.result["winners"]
    with pytest.raises(ServiceError) as err:
        services.leave_game(game.pk, b)
    assert err.value.code == "game_finished"


def test_leaving_under_the_bot_policy_hands_his_seat_to_a_bot():
    a, b, c = make_player(), make_player(), make_player()
    table = make_table(humans=[a, b, c], disconnect_policy="bot")
    game = services.start_game(table.pk)
    services.leave_game(game.pk, b)
    game = Game.objects.get(pk=game.pk)
    assert game.status == "playing"
    gs = GameSeat.objects.get(game=game, number=2)
    assert gs.takeover_level == services.TAKEOVER_LEVEL == "master" and gs.left_at is not None
    assert 2 in game.state["bots"]
    with pytest.raises(ServiceError) as err:
        services.apply_player_action(game.pk, b, game.version, "late", {"type": "pass"})
    assert err.value.code == "left_game"


def test_everyone_leaving_under_the_bot_policy_archives_the_game():
    a, b = make_player(), make_player()
    table = make_table(humans=[a, b], disconnect_policy="bot")
    game = services.start_game(table.pk)
    services.leave_game(game.pk, a)
    services.leave_game(game.pk, b)
    game = Game.objects.get(pk=game.pk)
    assert game.status == "aborted" and sorted(game.result["left"]) == [1, 2]


def test_takeover_and_hand_back_switch_the_seat_between_bot_and_person():
    a, b = make_player(), make_player()
    table = make_table(humans=[a, b], disconnect_policy="bot")
    game = services.start_game(table.pk)
    services.takeover(game.pk, 2)
    assert GameSeat.objects.get(game=game, number=2).takeover_level
    assert Game.objects.get(pk=game.pk).state["bots"] == [2]
    services.hand_back(game.pk, b)
    assert GameSeat.objects.get(game=game, number=2).takeover_level == ""
    game = Game.objects.get(pk=game.pk)
    assert game.state["bots"] == []
    assert event_log.replay_game(game) == game.state


def test_a_disconnect_under_the_lose_policy_becomes_a_loss_only_after_the_deadline():
    from datetime import timedelta

    from django.utils import timezone

    a, b, table, game = _two_humans(disconnect_policy="lose")
    services.set_connected(game.pk, b, True)
    services.set_connected(game.pk, b, False)
    gs = GameSeat.objects.get(game=game, number=2)
    # first the 15 s notice everyone sees, then the loss at 30 s
    assert not gs.connected and 10 < (gs.disconnect_deadline - timezone.now()).total_seconds() <= 15
    assert services.fire_disconnect_deadline(game.pk, 2) is None  # not due yet
    GameSeat.objects.filter(pk=gs.pk).update(disconnect_deadline=timezone.now() - timedelta(seconds=1),
                                             disconnected_at=timezone.now() - timedelta(seconds=16))
    services.fire_disconnect_deadline(game.pk, 2)
    gs.refresh_from_db()
    assert Game.objects.get(pk=game.pk).status == "playing"
    assert 10 < (gs.disconnect_deadline - timezone.now()).total_seconds() <= 15  # the loss at 30 s
    GameSeat.objects.filter(pk=gs.pk).update(disconnect_deadline=timezone.now() - timedelta(seconds=1),
                                             disconnected_at=timezone.now() - timedelta(seconds=31))
    services.fire_disconnect_deadline(game.pk, 2)
    game = Game.objects.get(pk=game.pk)
    assert game.status == "finished" and game.result["loser"] == 2


def test_a_player_back_in_time_keeps_his_seat():
    a, b, table, game = _two_humans(disconnect_policy="lose")
    services.set_connected(game.pk, b, True)
    services.set_connected(game.pk, b, False)
    services.set_connected(game.pk, b, True)
    gs = GameSeat.objects.get(game=game, number=2)
    assert gs.connected and gs.disconnect_deadline is None
    assert services.fire_disconnect_deadline(game.pk, 2) is None
    assert Game.objects.get(pk=game.pk).status == "playing"


@pytest.mark.parametrize("rules,players,seed_hint", [
    ({}, 2, 1), ({"variant": "perevodnoy"}, 4, 3), ({"cheater": True}, 3, 4),
    ({"pairs": True, "trump_swap": "all"}, 4, 5),
])
def test_bots_play_whole_games_and_the_log_replays_to_the_same_state(rules, players, seed_hint):
    levels = ["heuristic", "random", "lowest"]
    table = make_table(bots=[levels[(i + seed_hint) % 3] for i in range(players)], rules=rules)
    game = services.start_game(table.pk)
    game = play_out_with_bots(game.pk)
    assert game.status == "finished" and game.finished_at and game.result is not None
    assert set(game.result) >= {"loser", "losers", "winners", "draw", "left", "timed_out"}
    events = list(GameEvent.objects.filter(game=game).order_by("seq"))
    assert [e.seq for e in events] == list(range(1, game.version + 1))
    assert event_log.replay_game(game) == game.state


def test_a_moderator_can_abort_a_running_game_and_it_is_archived_unrated():
    a, b, table, game = _two_humans()
    services.abort_game(game.pk, "moderator m")
    game = Game.objects.get(pk=game.pk)
    assert game.status == "aborted" and game.deadline is None and game.result["reason"] == "aborted"
    assert services.abort_game(game.pk) is None
    with pytest.raises(ServiceError) as err:
        services.apply_player_action(game.pk, a, game.version, "late", {"type": "pass"})
    assert err.value.code == "game_finished"


def test_the_admin_shows_games_with_seats_and_their_event_log(client):
    from accounts.models import Player

    a, b, table, game = _two_humans()
    player, seat, legal = _mover(game)
    services.apply_player_action(game.pk, player, 0, "m1", legal[0])
    staff = Player.objects.create_superuser("mod1", "pw")
    client.force_login(staff)
    assert client.get("/admin/game/game/").status_code == 200
    page = client.get(f"/admin/game/game/{game.pk}/change/")
    assert page.status_code == 200 and b"m1" in page.content
    client.post("/admin/game/game/", {"action": "abort_games", "_selected_action": [game.pk]})
    assert Game.objects.get(pk=game.pk).status == "aborted"


def test_a_finished_game_is_recorded_by_ratings_exactly_once():
    from ratings import models as ratings_models

    a, b, table, game = _two_humans(disconnect_policy="lose")
    services.leave_game(game.pk, a)
    game = Game.objects.get(pk=game.pk)
    assert game.status == "finished"
    assert ratings_models.GameRecord.objects.filter(game_id=game.pk).count() == 1
    from ratings import services as ratings_services

    ratings_services.record_game_result(game)
    assert ratings_models.GameRecord.objects.filter(game_id=game.pk).count() == 1


def test_a_games_end_writes_its_row_once_with_the_ratings_answer():
    """Outcomes, the ratings' answer and the final state go into one UPDATE of the game: at a game's
    end every ORM statement costs the web process about a millisecond of CPU."""
    a, b, table, game = _two_humans(disconnect_policy="lose")
    with CaptureQueriesContext(connection) as queries:
        services.leave_game(game.pk, a)
    updates = [q["sql"] for q in queries.captured_queries if q["sql"].startswith('UPDATE "game_game" ')]
    assert len(updates) == 1
    game = Game.objects.get(pk=game.pk)
    assert game.status == "finished" and not game.rated and game.unrated_reason == "too_short"
    assert game.result["unrated_reason"] == "too_short"  # round one: only the leaver pays
    assert [(r["outcome"], r["rating_change"], r["rating_after"]) for r in game.result["outcomes"]] == [
        ("left", -15, 985), ("won", None, None)]


def test_a_heartbeat_refreshes_presence_and_repairs_a_missed_connect():
    a, b, table, game = _two_humans()
    services.heartbeat(game.pk, a)  # not marked connected yet: the full path marks him
    gs = GameSeat.objects.get(game=game, player=a)
    assert gs.connected and gs.last_heartbeat is not None
    first = gs.last_heartbeat
    services.heartbeat(game.pk, a)
    assert GameSeat.objects.get(pk=gs.pk).last_heartbeat >= first
    assert Game.objects.get(pk=game.pk).version == 0


@pytest.mark.parametrize("end", ["abort", "leave"])
def test_an_ended_game_leaves_no_seat_deadline_pending(end):
    """A seat's disconnect clock belongs to a running game: the end stops it, as it stops the turn clock."""
    a, b, table, game = _two_humans(disconnect_policy="lose")
    services.set_connected(game.pk, b, True)
    services.set_connected(game.pk, b, False)
    assert GameSeat.objects.get(game=game, number=2).disconnect_deadline is not None
    if end == "abort":
        services.abort_game(game.pk, "moderator m")
    else:  # under the lose policy his opponent's leaving ends the game (services.finish)
        services.leave_game(game.pk, a)
    assert Game.objects.get(pk=game.pk).status != "playing"
    assert not GameSeat.objects.filter(game=game, disconnect_deadline__isnull=False).exists()


@pytest.mark.django_db(transaction=True)
def test_the_rematch_window_starts_with_the_players_who_were_at_the_game_present():
    """A seated player's heartbeats during a game go to his game seat, not the waiting room: the
    presence sweep then marked every seat gone in the rematch window, and the rematch was dealt
    with everyone disconnected and an absence clock running."""
    from datetime import timedelta

    from django.utils import timezone

    from game.models import GameSeat
    from lobby.models import Seat

    a, b = make_player(), make_player()
    table = make_table(humans=[a, b])
    game = services.start_game(table.pk)
    long_ago = timezone.now() - timedelta(minutes=10)
    Seat.objects.filter(table=table).update(connected=False, last_seen=long_ago)
    GameSeat.objects.filter(game=game).update(connected=True)
    services.leave_game(game.pk, b)  # policy "lose": the game ends
    seats = {s.player_id: s for s in Seat.objects.filter(table=table)}
    assert seats[a.pk].connected and seats[a.pk].last_seen > long_ago
