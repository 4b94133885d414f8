"""Web Push end to end up to the push service: what reaches a device's endpoint, encrypted to the
keys the test made (RFC 8291), with the kind's TTL, Urgency and Topic, in the device's language;
and «Ваш ход» only while no tab of the player shows the table."""

from __future__ import annotations

import asyncio
import base64
import time

import pytest
from channels.db import database_sync_to_async

from notifications import services
from notifications.models import PushSubscription
from tests.game.helpers import close_quietly, make_player, make_table, open_socket
from tests.notifications.push_kit import Device

pytestmark = pytest.mark.django_db(transaction=True)


def subscribed(player, service, *, lang="ru", kinds=("your_turn", "invitation", "match", "friend_request",
                                                      "analysis_done", "event_start"), path="/push/"):
    device = Device(service.url(f"{path}{player.pk}-{lang}"))
    services.subscribe(player, device.endpoint, device.p256dh, base64.urlsafe_b64encode(
        device.auth).rstrip(b"=").decode(), lang)
    services.set_switches(player, {k: True for k in kinds})
    return device


def test_a_friend_request_arrives_encrypted_in_the_devices_language(push_service):
    from social import people

    asker, friend = make_player("Ира"), make_player("Олег")
    ru = subscribed(friend, push_service, lang="ru")
    en = subscribed(friend, push_service, lang="en")
    people.request_friend(asker, friend.pk)
    by_path = {r.path: r for r in push_service.wait_for(2)}
    russian = by_path[f"/push/{friend.pk}-ru"]
    message = ru.decrypt(russian.body)
    assert message["title"] == "Запрос в друзья" and message["body"] == "Ира хочет дружить с вами."
    assert message["url"] == "/people/"
    assert en.decrypt(by_path[f"/push/{friend.pk}-en"].body)["body"] == "Ира wants to be your friend."
    headers = russian.headers
    assert headers["ttl"] == str(24 * 60 * 60) and headers["urgency"] == "normal"
    assert headers["topic"] == f"friend-{asker.pk}" and headers["content-encoding"] == "aes128gcm"
    assert headers["authorization"].startswith("vapid t=")


def test_an_event_starting_reaches_its_player_in_the_words_the_tournament_gave(push_service):
    from social import notify

    player = make_player("Турнирный")
    device = subscribed(player, push_service, lang="en")
    notify.tell_many([player.pk], "tournament_soon", tournament=7, url="/tournaments/7/",
                     toast={"ru": "«Вечерний» начнётся через минуту.", "en": "“Evening” starts in a minute."},
                     starts_at="2030-01-01T18:00:00+00:00")  # the whole news, as tournaments/protocol.py declares it
    push = push_service.wait_for(1)[0]
    message = device.decrypt(push.body)
    assert message == {"title": "The event is starting", "body": "“Evening” starts in a minute.",
                       "url": "/tournaments/7/", "tag": "event-7", "vibrate": True}
    assert (push.headers["ttl"], push.headers["urgency"], push.headers["topic"]) == ("60", "high", "event-7")


def test_an_analysis_asked_for_is_told_when_done(push_service):
    from analysis import signals

    player = make_player("Аналитик")
    device = subscribed(player, push_service)
    signals.analysis_done.send(sender=None, game_id=42, player_id=player.pk)
    push = push_service.wait_for(1)[0]
    message = device.decrypt(push.body)
    assert message["title"] == "Разбор готов" and message["url"] == "/analysis/games/42/"
    assert (push.headers["urgency"], push.headers["topic"]) == ("low", "analysis-42")


def test_nothing_is_sent_for_a_kind_the_player_left_off_or_without_vapid_keys(push_service, settings):
    from social import people

    quiet = make_player("Тихоня")
    subscribed(quiet, push_service, kinds=("your_turn",))
    people.request_friend(make_player("Шумный"), quiet.pk)
    settings.VAPID_PRIVATE_KEY = ""
    people.request_friend(make_player("Второй"), quiet.pk)
    time.sleep(0.5)
    assert push_service.received == []


def test_a_subscription_the_push_service_calls_gone_is_removed(push_service):
    from social import people

    player = make_player("Ушедший")
    subscribed(player, push_service, path="/gone/")
    people.request_friend(make_player("Стучащий"), player.pk)
    push_service.wait_for(1)
    for _ in range(100):
        if not PushSubscription.objects.filter(player=player).exists():
            break
        time.sleep(0.02)
    assert not PushSubscription.objects.filter(player=player).exists()


def test_a_player_keeps_at_most_five_devices_and_bad_subscriptions_are_refused(push_service):
    from durak_site.errors import ServiceError

    player = make_player("Многорукий")
    devices = [subscribed(player, push_service, path=f"/d{i}/") for i in range(7)]
    kept = set(PushSubscription.objects.filter(player=player).values_list("endpoint", flat=True))
    assert kept == {d.endpoint for d in devices[2:]}
    for endpoint in ("http://169.254.169.254/latest", "https://evil.example/push", "not a url"):
        with pytest.raises(ServiceError) as refused:
            services.subscribe(player, endpoint, devices[0].p256dh, "AAAAAAAAAAAAAAAAAAAAAA", "ru")
        assert refused.value.code == "push_subscription_invalid"


def _turn_of(game_id: int) -> tuple[int, list[int]]:
    from game.models import Game

    game = Game.objects.get(pk=game_id)
    return game.version, list(game.deadline_seats)


def _bot_moves_until_seat_awaited(game_id: int, seat: int) -> None:
    """Make the bot move (or the person pass/take) until `seat` is awaited after a change."""
    from game import engine
    from game import services as game_services
    from game.models import Game

    for _ in range(60):
        game = Game.objects.get(pk=game_id)
        awaited = list(game.deadline_seats)
        if seat not in awaited:
            game_services.apply_bot_action(game_id, awaited[0], game.version)
            if seat in _turn_of(game_id)[1]:
                return
            continue
        # his turn already: he moves (the first legal move), which hands the turn on
        state = engine.GameState.from_json(game.state)
        action = engine.view_for(state, seat)["legal"][0]
        player = game.seats.get(number=seat).player
        game_services.apply_player_action(game_id, player, game.version, f"m{game.version}", action)
    raise AssertionError("the seat was never awaited")


async def _until_visible(player_id: int, table_id: int, visible: bool) -> None:
    """The socket's report is handled on the thread pool: wait until the server has it."""
    from notifications import visibility

    for _ in range(100):
        if await database_sync_to_async(visibility.table_visible)(player_id, table_id) == visible:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"the visibility report ({visible}) never reached the server")


async def test_your_turn_goes_only_while_no_tab_of_his_shows_the_table(push_service, settings):
    settings.BOT_SCHEDULER = "off"  # the test moves the bot
    settings.TIMERS_BACKEND = "ticker"
    from game import services as game_services

    player = await database_sync_to_async(make_player)("Мечтатель")
    table = await database_sync_to_async(make_table)([player], bots=("random",), turn_seconds=30)
    game = await database_sync_to_async(game_services.start_game)(table.pk)
    comm, connected, _code = await open_socket(table.pk, player)
    assert connected
    await comm.send_json_to({"type": "visibility", "visible": True})
    await _until_visible(player.pk, table.pk, True)
    await asyncio.sleep(0.3)  # the deal's news (nobody in view then) has been dealt with
    # he switches «Ваш ход» on with the table in front of him (the deal, before, told nobody)
    device = await database_sync_to_async(subscribed)(player, push_service, kinds=("your_turn",))
    for _ in range(3):  # three turns of his while the table is on his screen: nothing is pushed
        await database_sync_to_async(_bot_moves_until_seat_awaited)(game.pk, 1)
    await asyncio.sleep(0.5)
    assert push_service.received == [], "a push went while the table was visible"

    await comm.send_json_to({"type": "visibility", "visible": False})  # the tab went to the background
    await _until_visible(player.pk, table.pk, False)
    await database_sync_to_async(_bot_moves_until_seat_awaited)(game.pk, 1)
    received = await database_sync_to_async(push_service.wait_for)(1)
    await close_quietly(comm)
    push = received[0]
    message = device.decrypt(push.body)
    assert message["title"] == "Ваш ход"
    assert message["url"] == f"/tables/{table.pk}/"
    seconds = int(push.headers["ttl"])
    assert 20 <= seconds <= 30 and message["body"] in {f"На ход осталось {seconds} секунд.",
                                                       f"На ход осталось {seconds} секунды.",
                                                       f"На ход осталась {seconds} секунда."}
    assert push.headers["topic"] == f"turn-{game.pk}" and push.headers["urgency"] == "high"
    suits = ("♠", "♥", "♦", "♣", "пик", "черв", "бубн", "треф", "туз", "корол", "дам", "валет")
    assert not any(word in message["title"] + message["body"] for word in suits), "a push names a card"


def test_a_bad_visibility_report_is_refused_and_changes_nothing(push_service):
    from notifications import visibility

    assert not visibility.table_visible(1, 1)
    visibility.report(1, 1, "socket-a", True)
    visibility.report(1, 1, "socket-b", True)
    visibility.report(1, 1, "socket-a", False)
    assert visibility.table_visible(1, 1)  # the other tab still shows it
    visibility.report(1, 1, "socket-b", False)
    assert not visibility.table_visible(1, 1)
