"""The live standings frame: read once per committed change for every open page of the event (the
order of every player, the top lines, the lines of the players whose games just finished, the games
in progress), and sent to the event's group after the commit."""

from __future__ import annotations

import asyncio
import json
import threading
import time

import pytest
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer

from tests.tournaments.helpers import begin, join_all, resign, start
from tournaments import announce, live, services
from tournaments.models import TournamentGame


def _paired_and_one_game_over(make_event, make_player, players=4):
    event = make_event()
    people = [make_player() for _ in range(players)]
    join_all(event, people)
    start(event)
    services.arena_wave(event.pk)
    pairings = list(TournamentGame.objects.filter(tournament=event).order_by("pk"))
    first = pairings[0]
    loser_id = first.player_b_id
    loser = next(p for p in people if p.pk == loser_id)
    resign(begin(first).pk, loser)
    return event, people, first, pairings[1:]


@pytest.mark.django_db
def test_the_frame_orders_every_player_and_carries_the_finished_game_and_the_games_in_progress(make_event,
                                                                                                 make_player):
    event, people, over, running = _paired_and_one_game_over(make_event, make_player)
    frame = live.frame(event.pk)
    assert frame is not None
    assert sorted(frame["order"]) == sorted(p.pk for p in people)
    assert frame["order"][0] == over.player_a_id  # the winner leads
    assert frame["players"] == 4 and frame["status"] == "running"
    lines = {ln["id"]: ln for ln in frame["lines"]}
    assert lines[over.player_a_id]["shown"] == "2" and lines[over.player_a_id]["marks"] == "W"
    assert lines[over.player_b_id]["marks"] == "L"
    assert frame["recent"] == [over.table_id]
    assert [g[0] for g in frame["running"]] == [g.table_id for g in running]


@pytest.mark.django_db
def test_below_the_top_only_the_players_of_a_game_just_over_are_sent_whole(make_event, make_player):
    event, people, over, _running = _paired_and_one_game_over(make_event, make_player, players=2 * live.TOP + 2)
    frame = live.frame(event.pk)
    sent = {ln["id"] for ln in frame["lines"]}
    assert len(frame["order"]) == 2 * live.TOP + 2
    assert sent == set(frame["order"][:live.TOP]) | {over.player_a_id, over.player_b_id}


@pytest.mark.django_db
def test_no_frame_for_an_event_that_does_not_exist():
    assert live.frame(987654) is None and live.news(987654) is None


@pytest.mark.django_db
def test_the_frame_is_sent_as_one_string_with_what_the_moment_adds(make_event, make_player):
    event, _people, _over, _running = _paired_and_one_game_over(make_event, make_player)
    sent = live.news(event.pk, {"finished": True})
    assert set(sent) == {"type", "id", "standings"} and sent["id"] == event.pk
    body = json.loads(sent["standings"])
    assert body["finished"] is True and body["order"] == live.frame(event.pk)["order"]


@pytest.mark.skipif(not isinstance(get_channel_layer(), RedisPubSubChannelLayer),
                    reason="the frame crosses processes through the Redis layer")
@pytest.mark.django_db(transaction=True)
def test_a_finished_game_sends_the_new_standings_to_the_event_group_after_its_commit(make_event, make_player):
    event = make_event()
    a, b = make_player(), make_player()
    join_all(event, [a, b])
    start(event)
    services.arena_wave(event.pk)
    pairing = TournamentGame.objects.get(tournament=event)
    game = begin(pairing)
    loser = a if pairing.player_b_id == a.pk else b

    async def scenario() -> list[dict]:
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add(announce.group(event.pk), channel)
        done = threading.Event()

        def finish():
            from game import services as game_services

            game_services.leave_game(game.pk, loser)  # commits: the frame leaves afterwards
            done.set()

        await asyncio.to_thread(finish)
        got = []
        while not got or not got[-1].get("recent"):
            payload = (await asyncio.wait_for(layer.receive(channel), 10))["payload"]
            got.append({**payload, **json.loads(payload["standings"])})
        await layer.flush()
        return got

    frames = asyncio.run(scenario())
    last = frames[-1]
    assert last["type"] == "tournament" and last["id"] == event.pk
    assert last["recent"] == [pairing.table_id] and last["order"][0] != loser.pk


@pytest.mark.skipif(not isinstance(get_channel_layer(), RedisPubSubChannelLayer),
                    reason="the frame crosses processes through the Redis layer")
@pytest.mark.django_db(transaction=True)
def test_changes_within_a_second_share_frames_the_last_change_included(make_event, make_player):
    event = make_event()
    join_all(event, [make_player() for _ in range(2)])
    late = make_player()

    async def scenario() -> list[dict]:
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add(announce.group(event.pk), channel)

        def burst():
            for _ in range(4):  # four changes committed within a second (no transaction: each at once)
                announce.changed(event.pk)
                time.sleep(announce.SPACING / 5)
            services.join(event.pk, late, code=event.invite_code)  # and one more, the last

        await asyncio.to_thread(burst)
        got = []
        with pytest.raises(TimeoutError):
            while True:
                payload = (await asyncio.wait_for(layer.receive(channel), announce.SPACING + 1.5))["payload"]
                got.append(json.loads(payload["standings"]))
        await layer.flush()
        return got

    frames = asyncio.run(scenario())
    assert 1 <= len(frames) <= 2  # the first, and one for whatever came while it was read and held
    assert late.pk in frames[-1]["order"] and frames[-1]["players"] == 3


@pytest.mark.django_db(transaction=True)
def test_a_worker_waiting_for_its_sends_waits_for_the_frame_not_for_the_hold(make_event, make_player, monkeypatch):
    from durak_site import realtime

    event = make_event()
    join_all(event, [make_player()])
    monkeypatch.setattr(announce, "SPACING", 60.0)  # the hold after a frame outlasts any wait below
    announce.changed(event.pk)  # committed at once (no transaction): its frame is being sent
    assert realtime.drain(timeout=10) == 0  # a sweep task's end: nothing left in flight
    announce._reading.pop(event.pk, None)  # its hold would outlast the test
