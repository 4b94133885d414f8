"""Playing over the table socket: own hands only, refusals as error frames, bad input, flooding."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from channels.db import database_sync_to_async

from game import engine, services
from game.models import Game, GameEvent
from tests.engine.scenario_kit import deck_for
from tests.game.helpers import close_quietly, drain, make_player, make_table, open_socket, receive_until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_auto_bots(settings):
    settings.BOT_SCHEDULER = "off"


def _setup(humans=2, bots=(), **kw):
    players = [make_player() for _ in range(humans)]
    table = make_table(humans=players, bots=bots, **kw)
    game = services.start_game(table.pk)
    return players, table, Game.objects.get(pk=game.pk)


def _state(game_id):
    g = Game.objects.get(pk=game_id)
    return g.version, g.state, GameEvent.objects.filter(game_id=game_id).count()


def _waiting_table_of_two():
    a, b = make_player(), make_player()
    table = make_table(humans=[a, b])
    table.status = "waiting"
    table.save()
    return a, b, table


async def _open_all(table, players):
    comms = []
    for p in players:
        comm, ok, _ = await open_socket(table.pk, p)
        assert ok
        first = await receive_until(comm, lambda f: f["type"] == "state")
        comms.append((comm, first))
    return comms


async def _close(*comms):
    for c in comms:
        await close_quietly(c)


async def test_each_socket_gets_only_its_own_hand_and_spectators_none():
    players, table, game = await database_sync_to_async(_setup)(humans=3)
    watcher = await database_sync_to_async(make_player)()
    comms = await _open_all(table, players + [watcher])
    for i, (_comm, frame) in enumerate(comms[:3]):
        assert frame["seat"] == i + 1
        assert sorted(frame["view"]["hand"]) == sorted(game.state["hands"][i])
        others = {c for j, h in enumerate(game.state["hands"]) if j != i for c in h}
        assert not others & set(json.dumps(frame).replace('"', " ").split()) - {game.state["trump_card"]}
    spectator = comms[3][1]
    assert spectator["seat"] is None and spectator["view"]["hand"] == [] and spectator["view"]["legal"] == []
    await _close(*(c for c, _ in comms))


async def test_a_move_reaches_every_socket_as_its_own_frame_and_the_mover_gets_an_ack():
    players, table, game = await database_sync_to_async(_setup)(humans=2)
    watcher = await database_sync_to_async(make_player)()
    comms = await _open_all(table, players + [watcher])
    mover = game.deadline_seats[0]
    comm, frame = comms[mover - 1]
    action = frame["view"]["legal"][0]
    await comm.send_json_to({"id": "a1", "version": frame["version"], "action": action})
    ack = await receive_until(comm, lambda f: f["type"] == "ack")
    assert ack == {"type": "ack", "id": "a1", "version": 1, "duplicate": False}
    for i, (c, _) in enumerate(comms):
        new = await receive_until(c, lambda f: f["type"] == "state" and f["version"] == 1)
        assert new["seat"] == (i + 1 if i < 2 else None)
        assert new["view"]["table"][0]["attack"] == action["card"]
    # the same message resent (e.g. after a reconnect) is answered once more and not applied again
    await comm.send_json_to({"id": "a1", "version": 0, "action": action})
    again = await receive_until(comm, lambda f: f["type"] == "ack")
    assert again["duplicate"] and again["version"] == 1
    assert (await database_sync_to_async(_state)(game.pk))[0] == 1
    await _close(*(c for c, _ in comms))


async def test_refused_moves_answer_an_error_frame_change_nothing_and_keep_the_socket_open():
    players, table, game = await database_sync_to_async(_setup)(humans=2)
    comms = await _open_all(table, players)
    mover = game.deadline_seats[0]
    waiting = 2 if mover == 1 else 1
    comm, frame = comms[waiting - 1]
    before = await database_sync_to_async(_state)(game.pk)
    hand = frame["view"]["hand"]
    await comm.send_json_to({"id": "w1", "version": 0, "action": {"type": "attack", "card": hand[0]}})
    err = await receive_until(comm, lambda f: f["type"] == "error")
    assert err["id"] == "w1" and err["code"] == "not_your_turn" and err["message"]
    assert await database_sync_to_async(_state)(game.pk) == before
    await comm.send_json_to({"type": "ping"})
    assert (await receive_until(comm, lambda f: f["type"] == "pong")) == {"type": "pong", "version": 0}
    await _close(*(c for c, _ in comms))


@pytest.mark.parametrize("payload,code", [
    ("{not json", "bad_json"),
    ("[1, 2]", "bad_message"),
    ('{"type": "dance"}', "unknown_type"),
    ('{"hello": 1}', "unknown_type"),
    ('{"id": 5, "version": 0, "action": {"type": "take"}}', "bad_id"),
    ('{"id": "' + "x" * 65 + '", "version": 0, "action": {"type": "take"}}', "bad_id"),
    ('{"id": "v", "version": "0", "action": {"type": "take"}}', "bad_version"),
    ('{"id": "a", "version": 0, "action": "take"}', "bad_action"),
    ('{"id": "a", "version": 0, "action": {"type": "take", "seat": 2}}', "bad_action"),
    ('{"id": "a", "version": 0, "action": {"type": "teleport"}}', "unknown_action"),
    ('{"id": "a", "version": 0, "action": {"type": "transfer", "card": "7C", "show": "yes"}}', "bad_action"),
    ('{"id": "big", "version": 0, "action": {"type": "take", "pad": "' + "x" * 3000 + '"}}', "too_large"),
])
async def test_bad_input_gets_a_clear_error_frame_and_nothing_changes(payload, code):
    players, table, game = await database_sync_to_async(_setup)(humans=2)
    comm, ok, _ = await open_socket(table.pk, players[0])
    await receive_until(comm, lambda f: f["type"] == "state")
    before = await database_sync_to_async(_state)(game.pk)
    await comm.send_to(text_data=payload)
    err = await receive_until(comm, lambda f: f["type"] == "error")
    assert err["code"] == code and err["message"]
    assert await database_sync_to_async(_state)(game.pk) == before
    await comm.send_json_to({"type": "ping"})
    await receive_until(comm, lambda f: f["type"] == "pong")
    await comm.disconnect(timeout=10)


async def test_a_stale_version_is_refused_and_the_current_frame_resent():
    players, table, game = await database_sync_to_async(_setup)(humans=2)
    comms = await _open_all(table, players)
    mover = game.deadline_seats[0]
    comm, frame = comms[mover - 1]
    action = frame["view"]["legal"][0]
    await comm.send_json_to({"id": "s1", "version": 7, "action": action})
    err = await receive_until(comm, lambda f: f["type"] == "error")
    assert err["code"] == "stale_version"
    fresh = await receive_until(comm, lambda f: f["type"] == "state")
    assert fresh["version"] == 0
    assert (await database_sync_to_async(_state)(game.pk))[0] == 0
    await _close(*(c for c, _ in comms))


def _deal(table, rules: dict, hands: list[list[str]], trump: str) -> Game:
    """Replace the dealt game with one from a known deck (the scenario needs particular hands)."""
    game = services.start_game(table.pk)
    state = engine.new_game(engine.Rules.from_dict(rules), len(hands), deck=deck_for(hands, trump)).to_json()
    Game.objects.filter(pk=game.pk).update(state=state, initial_state=state, deadline_seats=[1])
    return Game.objects.get(pk=game.pk)


async def test_a_transfer_by_showing_the_trump_is_accepted_over_the_socket():  # docs/RULES.md#transfer-by-showing-trump
    rules = {"variant": "perevodnoy", "transfer_by_showing_trump": True}
    players = [await database_sync_to_async(make_player)() for _ in range(2)]
    table = await database_sync_to_async(make_table)(humans=players, rules=rules)
    game = await database_sync_to_async(_deal)(table, rules, [["6C", "7S", "7H", "8D", "9S", "QD"],
                                                              ["7D", "7C", "10H", "JS", "KS", "9H"]], "AC")
    (first, _), (second, _) = await _open_all(table, players)
    await first.send_json_to({"id": "a1", "version": 0, "action": {"type": "attack", "card": "7S"}})
    frame = await receive_until(second, lambda f: f["type"] == "state" and f["version"] == 1)
    show = {"type": "transfer", "card": "7C", "show": True}
    assert show in frame["view"]["legal"]
    await second.send_json_to({"id": "t1", "version": 1, "action": show})
    ack = await receive_until(second, lambda f: f["type"] in ("ack", "error"))
    assert ack["type"] == "ack" and ack["version"] == 2, ack
    after = await receive_until(second, lambda f: f["type"] == "state" and f["version"] == 2)
    assert "7C" in after["view"]["hand"] and after["view"]["defender"] == 1 and after["view"]["shown"] == [2]
    event = await database_sync_to_async(GameEvent.objects.get)(game_id=game.pk, seq=2)
    assert event.action == show and event.seat == 2
    await _close(first, second)


def test_every_kind_of_action_the_engine_offers_passes_the_socket_validator():
    """The socket validator must never refuse a move the frame lists as legal (a refused legal move
    leaves the player stuck): random games under the settings that add action fields."""
    import random

    kinds: set[tuple[str, tuple[str, ...]]] = set()
    for seed, extra in enumerate([{"variant": "perevodnoy", "transfer_by_showing_trump": True},
                                  {"cheater": True, "trump_swap": "all"},
                                  {"variant": "perevodnoy", "cheater": True, "transfer_by_showing_trump": True,
                                   "trump_swap": "all", "pairs": True}] * 10):
        rng = random.Random(seed)
        state = engine.new_game(engine.Rules.from_dict(extra), 4, seed=seed)
        for _ in range(400):
            if state.result is not None:
                break
            moves = [(n, a) for n in range(1, 5) for a in engine.view_for(state, n)["legal"]]
            if not moves:
                state = engine.end_check(state)
                continue
            for _n, a in moves:
                assert services.validate_action(a) == a
                kinds.add((a["type"], tuple(sorted(a))))
            seat, action = rng.choice(moves)
            state = engine.apply_action(state, seat, action)
    assert ("transfer", ("card", "show", "type")) in kinds
    assert {k for k, _ in kinds} == services.ACTION_TYPES


async def test_a_spectator_cannot_act():
    players, table, game = await database_sync_to_async(_setup)(humans=2)
    watcher = await database_sync_to_async(make_player)()
    comm, ok, _ = await open_socket(table.pk, watcher)
    await receive_until(comm, lambda f: f["type"] == "state")
    await comm.send_json_to({"id": "sp", "version": 0, "action": {"type": "take"}})
    err = await receive_until(comm, lambda f: f["type"] == "error")
    assert err["code"] == "not_seated"
    await comm.disconnect(timeout=10)


async def test_error_messages_follow_the_socket_language():
    players, table, game = await database_sync_to_async(_setup)(humans=2)
    comm, ok, _ = await open_socket(table.pk, players[0], lang="en-US,en;q=0.9")
    await receive_until(comm, lambda f: f["type"] == "state")
    await comm.send_to(text_data="{oops")
    err = await receive_until(comm, lambda f: f["type"] == "error")
    assert err["message"] == "The message is not valid JSON."
    await comm.disconnect(timeout=10)


async def test_flooding_gets_an_error_then_close_4429_and_other_tables_are_unaffected():
    players, table, game = await database_sync_to_async(_setup)(humans=2)
    players2, table2, game2 = await database_sync_to_async(_setup)(humans=2)
    comm, ok, _ = await open_socket(table.pk, players[0])
    other, ok2, _ = await open_socket(table2.pk, players2[0])
    await receive_until(comm, lambda f: f["type"] == "state")
    await receive_until(other, lambda f: f["type"] == "state")
    for _ in range(30):
        await comm.send_json_to({"type": "ping"})
    outputs = []
    while True:
        out = await comm.receive_output(timeout=3)
        outputs.append(out)
        if out["type"] == "websocket.close":
            break
    assert outputs[-1] == {"type": "websocket.close", "code": 4429}
    texts = [json.loads(o["text"]) for o in outputs if o["type"] == "websocket.send"]
    assert {"type": "error", "id": None, "code": "flooding"}.items() <= texts[-1].items()
    await other.send_json_to({"type": "ping"})
    await receive_until(other, lambda f: f["type"] == "pong")
    await other.disconnect(timeout=10)


async def test_a_game_start_moves_sockets_from_the_waiting_room_to_their_seats():
    a, b, table = await database_sync_to_async(_waiting_table_of_two)()
    comm, ok, _ = await open_socket(table.pk, b)
    assert (await comm.receive_json_from(timeout=3))["type"] == "lobby"
    game = await database_sync_to_async(services.start_game)(table.pk)
    started = await receive_until(comm, lambda f: f["type"] == "game_started")
    assert started["game_id"] == game.pk
    frame = await receive_until(comm, lambda f: f["type"] == "state")
    assert frame["seat"] == 2 and len(frame["view"]["hand"]) == 6
    await drain(comm)
    await comm.disconnect(timeout=10)


def _a_move_lands_after_the_next_game_read(monkeypatch, players) -> list[int]:
    """The next `connect_info` that reads a game is followed at once by its first mover's move (as a
    bot's would be): the socket holds a frame one version old while it joins its group. Returns the
    list that gets the version the move made."""
    real_connect_info = services.connect_info
    made: list[int] = []

    def read_then_move(table_id, player):
        info = real_connect_info(table_id, player)
        if info and info["game_id"] and not made:
            game = Game.objects.get(pk=info["game_id"])
            mover = game.deadline_seats[0]
            action = engine.legal_actions(engine.GameState.from_json(game.state), mover)[0]
            made.append(services.apply_player_action(game.pk, players[mover - 1], game.version, "race-1",
                                                     action).version)
        return info

    monkeypatch.setattr(services, "connect_info", read_then_move)
    return made


async def test_a_move_committed_while_a_socket_joins_its_seat_still_reaches_it(monkeypatch):
    """At a game's start a socket reads its frame, then joins its seat's group. A move committed in
    between (a bot's first attack) was published before the socket listened and never came: the
    player sat at the first frame until a heartbeat noticed, and a test socket, which does not ping,
    for ever. The socket reads again once it listens."""
    a, b, table = await database_sync_to_async(_waiting_table_of_two)()
    comm, ok, _ = await open_socket(table.pk, b)
    assert (await comm.receive_json_from(timeout=3))["type"] == "lobby"
    made = _a_move_lands_after_the_next_game_read(monkeypatch, [a, b])
    await database_sync_to_async(services.start_game)(table.pk)
    await receive_until(comm, lambda f: f["type"] == "game_started")
    frame = await receive_until(comm, lambda f: f["type"] == "state" and f["version"] == 1)
    assert made == [1] and frame["seat"] == 2
    await drain(comm)
    await comm.disconnect(timeout=10)


async def test_a_spectator_who_opens_the_table_as_a_move_lands_gets_that_move(monkeypatch):
    """The same race on connect: the socket's first read comes before it joins the spectators' group."""
    players, table, game = await database_sync_to_async(_setup)(humans=2)
    watcher = await database_sync_to_async(make_player)()
    made = _a_move_lands_after_the_next_game_read(monkeypatch, players)
    comm, ok, _ = await open_socket(table.pk, watcher)
    assert ok
    frame = await receive_until(comm, lambda f: f["type"] == "state")
    assert made == [1] and frame["version"] == 1 and frame["seat"] is None
    await drain(comm)
    await comm.disconnect(timeout=10)


async def test_reconnecting_mid_game_restores_the_same_view():
    players, table, game = await database_sync_to_async(_setup)(humans=2)
    comms = await _open_all(table, players)
    mover = game.deadline_seats[0]
    comm, frame = comms[mover - 1]
    await comm.send_json_to({"id": "r1", "version": 0, "action": frame["view"]["legal"][0]})
    latest = await receive_until(comm, lambda f: f["type"] == "state" and f["version"] == 1)
    await comm.disconnect(timeout=10)
    again, ok, _ = await open_socket(table.pk, players[mover - 1])
    restored = await receive_until(again, lambda f: f["type"] == "state")
    assert restored["view"] == latest["view"] and restored["version"] == 1
    await asyncio.sleep(0)
    await _close(again, comms[2 - mover][0])


async def test_error_messages_are_russian_by_default():
    players, table, game = await database_sync_to_async(_setup)(humans=2)
    comm, ok, _ = await open_socket(table.pk, players[0])
    await receive_until(comm, lambda f: f["type"] == "state")
    await comm.send_to(text_data="{oops")
    err = await receive_until(comm, lambda f: f["type"] == "error")
    assert err["code"] == "bad_json"
    assert any("а" <= ch <= "я" for ch in err["message"].lower()), err["message"]
    await comm.disconnect(timeout=10)


async def test_a_heartbeat_that_overtakes_a_frame_on_its_way_does_not_get_it_twice(settings, monkeypatch):
    """Under load a socket's heartbeat can find the game a version ahead while that version's frame
    is still queued: it must wait for it, not resend the frame at once (a second read and frame)."""
    from game import consumers

    players, table, game = await database_sync_to_async(_setup)(humans=2)
    comms = await _open_all(table, players)
    for c, _ in comms:
        await drain(c, quiet=0.3)
    settings.REALTIME_HOLD_AFTER_COMMIT = 0.6  # the move's frames leave 0.6 s after its commit
    monkeypatch.setattr(consumers, "HEARTBEAT_EVERY", 0.0)  # every ping is a heartbeat
    mover = game.deadline_seats[0]
    comm, frame = comms[mover - 1]
    other = comms[2 - mover][0]
    await comm.send_json_to({"id": "a1", "version": frame["version"], "action": frame["view"]["legal"][0]})
    await receive_until(comm, lambda f: f["type"] == "ack")
    await other.send_json_to({"type": "ping"})  # its heartbeat finds version 1 while the frame is held
    states = [f["version"] for f in await drain(other, quiet=2.5) if f["type"] == "state"]
    assert states == [1]
    await _close(*(c for c, _ in comms))


def test_every_ping_the_client_sends_on_time_is_a_heartbeat():
    """The client pings every PING_EVERY_MS; a browser's interval timer fires a few ms early or late.
    With the server's heartbeat spacing equal to it, half the pings fell a millisecond short and were
    skipped: presence writes and the check for a missed frame came every 10 s, not 5."""
    import re
    from pathlib import Path

    from game import consumers

    js = (Path(consumers.__file__).parents[1] / "static" / "site" / "socket.js").read_text()
    ping_every = int(re.search(r"const PING_EVERY_MS = (\d+);", js).group(1)) / 1000
    assert ping_every - consumers.HEARTBEAT_EVERY >= 0.5


async def test_resending_an_applied_move_republishes_every_frame_once_then_only_the_senders():
    """A resent move's frames go to every viewer once (they may have died with a process); a socket
    resending it again and again made the server rebuild and send every viewer's frame each time."""
    players, table, game = await database_sync_to_async(_setup)(humans=2)
    comms = await _open_all(table, players)
    mover = game.deadline_seats[0]
    (comm, frame), (other, _) = comms[mover - 1], comms[2 - mover]
    action = frame["view"]["legal"][0]
    await comm.send_json_to({"id": "dup-1", "version": frame["version"], "action": action})
    await receive_until(other, lambda f: f["type"] == "state" and f["version"] == 1)
    for _ in range(10):
        await comm.send_json_to({"id": "dup-1", "version": 0, "action": action})
    acks = 0
    while acks < 10:
        acks += (await receive_until(comm, lambda f: f["type"] == "ack"))["duplicate"] is True
    resent = [f for f in await drain(other, quiet=0.5) if f["type"] == "state"]
    assert len(resent) <= 1
    await _close(comm, other)


async def test_of_two_frames_of_one_version_the_one_built_last_wins_whatever_the_arrival_order():
    """Presence changes publish frames without a new version; from two processes (a restart moving a
    player's socket) "disconnected" could arrive after "connected" and stay on screen."""
    from channels.layers import get_channel_layer

    from durak_site import realtime

    players, table, game = await database_sync_to_async(_setup)(humans=2)
    comms = await _open_all(table, players)
    (comm, frame), (other, _) = comms
    layer = get_channel_layer()
    group = realtime.seat_group(table.pk, 1)

    def event(stamp: float, marker: str) -> dict:
        return {"type": "game.frame", "game_id": game.pk, "version": frame["version"], "seat": 1,
                "viewer": players[0].pk, "stamp": stamp, "text": json.dumps({"type": "state", "marker": marker})}

    now = time.time()
    await layer.group_send(group, event(now + 2, "connected"))
    await layer.group_send(group, event(now + 1, "disconnected"))  # built first, arrives last
    got = [f["marker"] for f in await drain(comm, quiet=0.5) if "marker" in f]
    assert got == ["connected"]
    await _close(comm, other)
