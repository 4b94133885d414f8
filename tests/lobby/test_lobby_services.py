"""Waiting-room rules enforced by lobby.services (no mocks: real DB, real engine Rules)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone, translation

from durak_site.errors import ServiceError
from game import services as game_services
from game.engine.rules import Rules
from lobby import services
from lobby.models import Seat, Table


def seat_map(table):
    return {s.number: (s.player.nick if s.player else (f"bot:{s.bot_level}" if s.bot_level else None))
            for s in Seat.objects.filter(table_id=table.pk).select_related("player")}


def refused(code, fn, *args, **kwargs):
    with pytest.raises(ServiceError) as info:
        fn(*args, **kwargs)
    assert info.value.code == code, (info.value.code, str(info.value))
    assert str(info.value)  # a message people can read
    return info.value


def snapshot(table):
    t = Table.objects.get(pk=table.pk)
    seats = list(Seat.objects.filter(table=t).order_by("number").values_list(
        "number", "player_id", "bot_level", "ready"))
    return (t.status, t.rules, t.seats_count, t.host_id, t.version, seats)


# ---------------------------------------------------------------- creating


def test_creating_a_table_seats_the_host_in_seat_one_with_engine_rules(host):
    table = services.create_table(host, seats_count=3, deck_size=52, variant="perevodnoy", turn_seconds=60)
    assert seat_map(table) == {1: "host", 2: None, 3: None}
    assert table.rules == Rules(deck_size=52, variant="perevodnoy").to_dict()
    assert Rules.from_dict(table.rules).variant == "perevodnoy"
    assert table.turn_seconds == 60 and table.status == Table.Status.WAITING
    assert len(table.invite_code) >= 16


@pytest.mark.parametrize("key", ["classic", "perevodnoy", "pairs", "cheater", "quartet"])
def test_every_preset_creates_a_valid_table(host, key):
    from lobby.presets import PRESETS

    table = services.create_table(host, preset=key)
    preset = PRESETS[key]
    Rules.from_dict(table.rules)
    for name, value in preset.rules.items():
        assert table.rules[name] == value
    if preset.seats_count:
        assert table.seats_count == preset.seats_count
    assert table.series_length == preset.series_length


def test_quartet_series_is_pairs_podkidnoy_with_thirty_games(host):
    table = services.create_table(host, preset="quartet")
    assert table.rules["pairs"] is True and table.rules["variant"] == "podkidnoy"
    assert table.rules["throw_in"] == "starter_first" and table.series_length == 30 and table.seats_count == 4


@pytest.mark.parametrize("bad", [
    {"deck_size": 40}, {"variant": "king"}, {"pairs": "yes"}, {"round_limit": 7}, {"trump_swap": "me"},
    {"seats_count": 7}, {"seats_count": 1}, {"turn_seconds": 45}, {"disconnect_policy": "never"},
    {"nonsense": 1}, {"deck_size": 24, "seats_count": 5}, {"pairs": True, "seats_count": 3},
    {"preset": "poker"},
])
def test_values_outside_the_allowed_set_are_refused_and_nothing_is_created(host, bad):
    with pytest.raises(ServiceError):
        services.create_table(host, **bad)
    assert not Table.objects.exists()


def test_banned_players_cannot_create_or_sit(make_player, table):
    villain = make_player("villain", banned_at=timezone.now(), ban_reason="cheating")
    refused("banned", services.create_table, villain)
    refused("banned", services.sit, table.pk, villain, 2)
    assert seat_map(table)[2] is None


# ---------------------------------------------------------------- seats


def test_sitting_in_a_taken_seat_is_refused_and_nothing_changes(table, make_player):
    a, b = make_player("anna"), make_player("boris")
    services.sit(table.pk, a, 2)
    before = snapshot(table)
    refused("seat_taken", services.sit, table.pk, b, 2)
    assert snapshot(table) == before


def test_a_seventh_seat_does_not_exist(host, make_player):
    table = services.create_table(host, seats_count=6)
    refused("no_such_seat", services.sit, table.pk, make_player(), 7)
    refused("no_such_seat", services.add_bot, table.pk, host, 7, "random")


def test_moving_seat_frees_the_old_one_and_clears_ready(table, make_player):
    a = make_player("anna")
    services.sit(table.pk, a, 2)
    services.set_ready(table.pk, a, True)
    services.sit(table.pk, a, 4)
    assert seat_map(table) == {1: "host", 2: None, 3: None, 4: "anna"}
    assert not Seat.objects.get(table=table, number=4).ready


def test_sitting_at_another_table_stands_you_up_from_the_first(table, make_player):
    a, other_host = make_player("anna"), make_player("olga")
    other = services.create_table(other_host)
    services.sit(table.pk, a, 2)
    services.sit(other.pk, a, 2)
    assert seat_map(table)[2] is None and seat_map(other)[2] == "anna"


def test_standing_up_in_the_waiting_room_frees_the_seat(table, make_player):
    a = make_player("anna")
    services.sit(table.pk, a, 3)
    services.stand(table.pk, a)
    assert seat_map(table)[3] is None


def test_acting_at_a_table_one_is_not_at_is_refused(table, make_player):
    stranger = make_player("stranger")
    before = snapshot(table)
    refused("not_seated", services.stand, table.pk, stranger)
    refused("not_seated", services.set_ready, table.pk, stranger, True)
    refused("not_rules_setter", services.update_rules, table.pk, stranger, deck_size=52)
    refused("not_host", services.add_bot, table.pk, stranger, 2, "random")
    assert snapshot(table) == before


# ---------------------------------------------------------------- bots


def test_host_adds_bots_up_to_seats_minus_one_and_they_are_ready(table, host):
    for n in (2, 3, 4):
        services.add_bot(table.pk, host, n, "heuristic")
    assert seat_map(table) == {1: "host", 2: "bot:heuristic", 3: "bot:heuristic", 4: "bot:heuristic"}
    assert all(s.ready for s in Seat.objects.filter(table=table, bot_level__gt=""))


def test_a_bot_in_a_full_table_is_refused(table, host, make_player):
    for n in (2, 3):
        services.add_bot(table.pk, host, n, "random")
    services.sit(table.pk, make_player("anna"), 4)
    before = snapshot(table)
    refused("table_full", services.add_bot, table.pk, host, 4, "random")
    assert snapshot(table) == before


def test_at_most_seats_minus_one_bots_one_seat_always_human(host):
    table = services.create_table(host, seats_count=3)
    services.add_bot(table.pk, host, 2, "lowest")
    services.add_bot(table.pk, host, 3, "lowest")
    refused("table_full", services.add_bot, table.pk, host, 1, "lowest")
    services.sit(table.pk, host, 1)  # already there: nothing changes
    assert seat_map(table) == {1: "host", 2: "bot:lowest", 3: "bot:lowest"}


def test_bot_limit_counts_bots_not_seats(host, make_player):
    table = services.create_table(host, seats_count=5)
    for n in (2, 3, 4, 5):
        services.add_bot(table.pk, host, n, "random")
    services.remove_bot(table.pk, host, 5)
    services.add_bot(table.pk, host, 5, "random")
    services.remove_bot(table.pk, host, 5)
    services.sit(table.pk, make_player("anna"), 5)
    services.stand(table.pk, host)  # anna remains, seat 1 free, 3 bots
    anna = Table.objects.get(pk=table.pk).host
    assert anna.nick == "anna"
    services.add_bot(table.pk, anna, 1, "random")  # 4 bots = seats-1
    services.stand(table.pk, anna)  # the last human leaves -> table closes
    assert Table.objects.get(pk=table.pk).status == Table.Status.CLOSED


def test_unknown_bot_level_is_refused(table, host):
    refused("bad_bot_level", services.add_bot, table.pk, host, 2, "genius")


def test_only_the_host_adds_or_removes_bots(table, host, make_player):
    a = make_player("anna")
    services.sit(table.pk, a, 2)
    refused("not_host", services.add_bot, table.pk, a, 3, "random")
    services.add_bot(table.pk, host, 3, "random")
    refused("not_host", services.remove_bot, table.pk, a, 3)
    refused("not_a_bot", services.remove_bot, table.pk, host, 2)
    services.remove_bot(table.pk, host, 3)
    assert seat_map(table)[3] is None


def test_last_human_leaving_a_table_with_bots_closes_it(table, host):
    services.add_bot(table.pk, host, 2, "random")
    services.stand(table.pk, host)
    t = Table.objects.get(pk=table.pk)
    assert t.status == Table.Status.CLOSED and t.closed_reason
    assert not Seat.objects.filter(table=t).exclude(bot_level="").exists()
    refused("table_closed", services.sit, t.pk, host, 1)


# ---------------------------------------------------------------- host and rules setter


def test_host_handover_goes_to_the_next_human_in_seat_order(table, host, make_player):
    a, b = make_player("anna"), make_player("boris")
    services.sit(table.pk, b, 2)
    services.sit(table.pk, a, 4)
    services.add_bot(table.pk, host, 3, "random")
    services.stand(table.pk, host)
    t = Table.objects.get(pk=table.pk)
    assert t.host == b and "boris" in t.notice
    services.sit(table.pk, host, 1)
    services.stand(table.pk, b)  # from seat 2 the next human clockwise is anna in seat 4
    assert Table.objects.get(pk=table.pk).host == a


def test_only_the_host_changes_rules_under_the_host_policy(table, host, make_player):
    a = make_player("anna")
    services.sit(table.pk, a, 2)
    refused("not_rules_setter", services.update_rules, table.pk, a, variant="perevodnoy")
    services.update_rules(table.pk, host, variant="perevodnoy")
    assert Table.objects.get(pk=table.pk).rules["variant"] == "perevodnoy"


def test_lowest_seat_human_sets_rules_under_the_000_policy(make_player):
    creator, a = make_player("creator"), make_player("anna")
    table = services.create_table(creator, rules_setter="lowest_seat")
    services.sit(table.pk, creator, 3)  # seat 1 is free again
    services.sit(table.pk, a, 2)
    services.update_rules(table.pk, a, deck_size=52)
    assert Table.objects.get(pk=table.pk).rules["deck_size"] == 52


def test_rule_change_resets_everyones_ready_and_tells_everyone(table, host, make_player):
    a = make_player("anna")
    services.sit(table.pk, a, 2)
    services.sit(table.pk, make_player("boris"), 3)
    services.set_ready(table.pk, a, True)
    services.set_ready(table.pk, host, True)
    v = Table.objects.get(pk=table.pk).version
    services.update_rules(table.pk, host, deck_size=52, turn_seconds=90)
    t = Table.objects.get(pk=table.pk)
    assert not Seat.objects.filter(table=t, player__isnull=False, ready=True).exists()
    assert t.version > v and "host" in t.notice and t.turn_seconds == 90 and t.rules["deck_size"] == 52


def test_bad_rule_change_is_refused_and_state_is_unchanged(table, host, make_player):
    a = make_player("anna")
    services.sit(table.pk, a, 2)
    services.set_ready(table.pk, a, True)
    before = snapshot(table)
    for bad in ({"deck_size": 40}, {"variant": None}, {"round_limit": 6.0}, {"seats_count": 7},
                {"turn_seconds": 0}, {"cheater": 1}, {"deck_size": 24, "seats_count": 5}, {"color": "red"}):
        with pytest.raises(ServiceError):
            services.update_rules(table.pk, host, **bad)
    assert snapshot(table) == before


def test_fewer_seats_cannot_drop_a_seated_player(table, host, make_player):
    services.sit(table.pk, make_player("anna"), 4)
    refused("seat_in_use", services.update_rules, table.pk, host, seats_count=3)
    services.update_rules(table.pk, host, seats_count=6)
    assert sorted(seat_map(table)) == [1, 2, 3, 4, 5, 6]


# ---------------------------------------------------------------- pairs


def test_pairs_can_be_chosen_only_with_four_seats_all_taken(table, host, make_player):
    services.sit(table.pk, make_player("anna"), 2)
    services.add_bot(table.pk, host, 3, "random")
    refused("pairs_need_four", services.update_rules, table.pk, host, pairs=True)
    services.add_bot(table.pk, host, 4, "random")
    services.update_rules(table.pk, host, pairs=True)
    assert Table.objects.get(pk=table.pk).rules["pairs"] is True


def test_pairs_need_a_four_seat_table(host):
    table = services.create_table(host, seats_count=5)
    error = refused("pairs_need_four_seats", services.update_rules, table.pk, host, pairs=True)
    with translation.override("ru"):
        assert "4" in error.message and not re.search("[a-zA-Z]", error.message)  # no engine English


def test_pairs_fall_back_to_each_for_himself_when_someone_stands_up(table, host, make_player):
    a = make_player("anna")
    services.sit(table.pk, a, 2)
    services.add_bot(table.pk, host, 3, "random")
    services.add_bot(table.pk, host, 4, "random")
    services.update_rules(table.pk, host, pairs=True)
    services.stand(table.pk, a)
    t = Table.objects.get(pk=table.pk)
    assert t.rules["pairs"] is False
    from django.utils.translation import gettext

    assert gettext("Pairs 2×2 switched off: a seat was vacated, so it is free-for-all now.") in t.notice_text()


def test_removing_a_bot_from_a_full_pairs_table_also_falls_back(table, host, make_player):
    services.sit(table.pk, make_player("anna"), 2)
    services.add_bot(table.pk, host, 3, "random")
    services.add_bot(table.pk, host, 4, "random")
    services.update_rules(table.pk, host, pairs=True)
    services.remove_bot(table.pk, host, 4)
    assert Table.objects.get(pk=table.pk).rules["pairs"] is False


def test_pairs_table_does_not_start_until_all_four_are_seated(host):
    table = services.create_table(host, preset="pairs")
    services.add_bot(table.pk, host, 2, "random")
    services.set_ready(table.pk, host, True)
    t = Table.objects.get(pk=table.pk)
    assert t.status == Table.Status.WAITING and t.rules["pairs"] is True
    services.add_bot(table.pk, host, 3, "random")
    services.add_bot(table.pk, host, 4, "random")
    assert Table.objects.get(pk=table.pk).status == Table.Status.COUNTDOWN


# ---------------------------------------------------------------- ready and countdown


def test_countdown_starts_when_two_are_seated_and_all_ready(table, host, make_player):
    a = make_player("anna")
    services.set_ready(table.pk, host, True)
    assert Table.objects.get(pk=table.pk).status == Table.Status.WAITING  # alone
    services.sit(table.pk, a, 3)
    services.set_ready(table.pk, a, True)
    t = Table.objects.get(pk=table.pk)
    assert t.status == Table.Status.COUNTDOWN
    left = (t.countdown_deadline - timezone.now()).total_seconds()
    assert 1.5 < left <= 3.5


def test_bots_are_always_ready_so_one_human_ready_starts_the_countdown(table, host):
    services.add_bot(table.pk, host, 2, "random")
    assert Table.objects.get(pk=table.pk).status == Table.Status.WAITING
    services.set_ready(table.pk, host, True)
    assert Table.objects.get(pk=table.pk).status == Table.Status.COUNTDOWN


def test_unready_cancels_the_countdown(table, host, make_player):
    a = make_player("anna")
    services.sit(table.pk, a, 2)
    services.set_ready(table.pk, a, True)
    services.set_ready(table.pk, host, True)
    services.set_ready(table.pk, a, False)
    t = Table.objects.get(pk=table.pk)
    assert t.status == Table.Status.WAITING and t.countdown_deadline is None
    assert "anna" in t.notice


def test_host_cancel_stops_the_countdown_and_clears_ready(table, host, make_player):
    a = make_player("anna")
    services.sit(table.pk, a, 2)
    services.set_ready(table.pk, a, True)
    refused("no_countdown", services.cancel_countdown, table.pk, host)
    services.set_ready(table.pk, host, True)
    refused("not_host", services.cancel_countdown, table.pk, a)
    services.cancel_countdown(table.pk, host)
    t = Table.objects.get(pk=table.pk)
    assert t.status == Table.Status.WAITING
    assert not Seat.objects.filter(table=t, ready=True, player__isnull=False).exists()


def test_a_newcomer_during_the_countdown_stops_it(table, host, make_player):
    services.add_bot(table.pk, host, 2, "random")
    services.set_ready(table.pk, host, True)
    services.sit(table.pk, make_player("anna"), 3)
    assert Table.objects.get(pk=table.pk).status == Table.Status.WAITING


def test_rule_change_during_the_countdown_stops_it(table, host):
    services.add_bot(table.pk, host, 2, "random")
    services.set_ready(table.pk, host, True)
    services.update_rules(table.pk, host, variant="perevodnoy")
    assert Table.objects.get(pk=table.pk).status == Table.Status.WAITING


def test_full_and_connected_start_policy_ignores_ready(host, make_player):
    table = services.create_table(host, seats_count=3, start_policy="full_connected")
    a, b = make_player("anna"), make_player("boris")
    services.sit(table.pk, a, 2)
    assert Table.objects.get(pk=table.pk).status == Table.Status.WAITING  # a seat is still free
    services.sit(table.pk, b, 3)  # full, and everyone just clicked on a live page
    assert Table.objects.get(pk=table.pk).status == Table.Status.COUNTDOWN
    services.set_presence(table.pk, a.pk, False)
    assert Table.objects.get(pk=table.pk).status == Table.Status.WAITING
    services.set_presence(table.pk, a.pk, True)
    assert Table.objects.get(pk=table.pk).status == Table.Status.COUNTDOWN
    assert not Seat.objects.filter(table=table, ready=True, player__isnull=False).exists()


def test_a_spectator_who_sits_down_counts_as_connected(table, make_player):
    a = make_player("anna")
    services.set_presence(table.pk, a.pk, True)  # his socket connected while he was only watching
    services.sit(table.pk, a, 2)
    assert Seat.objects.get(table=table, number=2).connected


def test_fire_countdown_before_the_deadline_or_at_a_stale_version_does_nothing(table, host):
    services.add_bot(table.pk, host, 2, "random")
    services.set_ready(table.pk, host, True)
    t = Table.objects.get(pk=table.pk)
    assert game_services.fire_countdown(t.pk) is None
    assert Table.objects.get(pk=t.pk).status == Table.Status.COUNTDOWN
    Table.objects.filter(pk=t.pk).update(countdown_deadline=timezone.now() - timedelta(seconds=1))
    assert game_services.fire_countdown(t.pk, version=t.version - 1) is None
    assert Table.objects.get(pk=t.pk).status == Table.Status.COUNTDOWN


def test_fire_countdown_after_a_cancel_does_nothing(table, host):
    services.add_bot(table.pk, host, 2, "random")
    services.set_ready(table.pk, host, True)
    services.cancel_countdown(table.pk, host)
    assert game_services.fire_countdown(table.pk) is None
    assert Table.objects.get(pk=table.pk).status == Table.Status.WAITING


def test_fire_countdown_starts_the_game_and_marks_the_table_playing(table, host):

    services.add_bot(table.pk, host, 2, "heuristic")
    services.set_ready(table.pk, host, True)
    Table.objects.filter(pk=table.pk).update(countdown_deadline=timezone.now() - timedelta(seconds=1))
    game = game_services.fire_countdown(table.pk)
    assert game is not None
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
    assert game_services.fire_countdown(table.pk) is None  # idempotent
    refused("game_running", services.sit, table.pk, host, 3)


# ---------------------------------------------------------------- presence, rematch, closing


def test_inactive_seat_is_freed_after_its_deadline_without_penalty(table, host, make_player):
    a = make_player("anna")
    services.sit(table.pk, a, 2)
    services.set_presence(table.pk, a.pk, True)
    services.set_presence(table.pk, a.pk, False)
    seat = Seat.objects.get(table=table, number=2)
    assert seat.inactive_deadline is not None and not seat.connected
    assert services.fire_inactive_seats(table.pk) == 0  # not due yet
    Seat.objects.filter(pk=seat.pk).update(inactive_deadline=timezone.now() - timedelta(seconds=1))
    assert services.fire_inactive_seats(table.pk) == 1
    assert seat_map(table)[2] is None


def test_reconnecting_clears_the_inactive_deadline(table, make_player):
    a = make_player("anna")
    services.sit(table.pk, a, 2)
    services.set_presence(table.pk, a.pk, False)
    services.set_presence(table.pk, a.pk, True)
    seat = Seat.objects.get(table=table, number=2)
    assert seat.connected and seat.inactive_deadline is None


def test_game_finished_opens_a_rematch_window_that_closes_back_to_waiting(table, host):
    services.add_bot(table.pk, host, 2, "random")
    Table.objects.filter(pk=table.pk).update(status=Table.Status.PLAYING)  # as after fire_countdown
    services.game_finished(table.pk)
    t = Table.objects.get(pk=table.pk)
    assert t.status == Table.Status.REMATCH and t.rematch_deadline is not None
    assert services.fire_rematch_deadline(t.pk) is None  # not yet due
    Table.objects.filter(pk=t.pk).update(rematch_deadline=timezone.now() - timedelta(seconds=1))
    services.fire_rematch_deadline(t.pk)
    assert Table.objects.get(pk=t.pk).status == Table.Status.WAITING


def test_ready_in_the_rematch_window_starts_a_new_countdown(table, host):
    services.add_bot(table.pk, host, 2, "random")
    Table.objects.filter(pk=table.pk).update(status=Table.Status.PLAYING)
    services.game_finished(table.pk)
    services.set_ready(table.pk, host, True)
    assert Table.objects.get(pk=table.pk).status == Table.Status.COUNTDOWN


def test_moderator_close_frees_seats_and_keeps_the_reason(table, host):
    services.add_bot(table.pk, host, 2, "random")
    services.close_table(table.pk, "rude table name")
    t = Table.objects.get(pk=table.pk)
    assert t.status == Table.Status.CLOSED and t.closed_reason == "rude table name"
    assert not Seat.objects.filter(table=t, player__isnull=False).exists()


# ---------------------------------------------------------------- quick play


def test_quick_play_sits_at_a_waiting_table_with_people(table, make_player):
    a = make_player("anna")
    got = services.quick_play(a)
    assert got.pk == table.pk and "anna" in seat_map(table).values()


def test_quick_play_creates_a_table_with_bots_when_none_is_open(make_player):
    a = make_player("anna")
    table = services.quick_play(a)
    bot = f"bot:{services.QUICK_PLAY_LEVEL}"
    assert seat_map(table) == {1: "anna", 2: bot, 3: bot, 4: bot}


def test_quick_play_starts_the_countdown_at_once_without_a_ready_click(make_player):
    table = services.quick_play(make_player("anna"))
    assert table.status == Table.Status.COUNTDOWN and table.countdown_deadline is not None


def test_quick_play_skips_private_tables(host, make_player):
    services.create_table(host, private=True)
    table = services.quick_play(make_player("anna"))
    assert table.host.nick == "anna"


def test_closing_a_table_mid_game_aborts_the_game(table, host):
    from game.models import Game

    services.add_bot(table.pk, host, 2, "heuristic")
    services.set_ready(table.pk, host, True)
    Table.objects.filter(pk=table.pk).update(countdown_deadline=timezone.now() - timedelta(seconds=1))
    game = game_services.fire_countdown(table.pk)
    services.close_table(table.pk, "cheating ring")
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABORTED
    t = Table.objects.get(pk=table.pk)
    assert t.status == Table.Status.CLOSED and t.closed_reason == "cheating ring"
