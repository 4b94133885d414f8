"""The notification section of the profile and its endpoints: off without keys, every kind off
until switched on, a device subscribed by its browser's JSON, refusals worded."""

from __future__ import annotations

import json

import pytest

from notifications.models import NotificationSettings, PushSubscription
from tests.game.helpers import make_player
from tests.notifications.push_kit import Device, b64url

pytestmark = pytest.mark.django_db


def test_without_vapid_keys_the_section_says_notifications_are_off(client, settings):
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    client.force_login(make_player("Безключа"))
    page = client.get("/accounts/profile/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Уведомления на устройства на этом сервере пока не настроены" in page
    assert "data-push-enable" not in page
    refused = client.post("/notifications/subscribe/", "{}", content_type="application/json")
    assert refused.status_code == 400 and refused.json()["code"] == "push_off"


def test_every_kind_is_off_until_the_player_switches_it_on(client, push_service):
    player = make_player("Настройщик")
    client.force_login(player)
    page = client.get("/accounts/profile/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Allow notifications on this device" in page and " checked" not in page
    client.post("/notifications/settings/", {"your_turn": "on", "sound": "on"})
    row = NotificationSettings.objects.get(player=player)
    assert (row.your_turn, row.sound, row.invitation, row.match, row.vibrate) == (True, True, False, False, False)


def test_a_browser_subscription_is_kept_and_dropped_through_the_endpoints(client, push_service):
    player = make_player("Подписчик")
    client.force_login(player)
    device = Device(push_service.url("/push/a"))
    body = {"endpoint": device.endpoint, "keys": {"p256dh": device.p256dh, "auth": b64url(device.auth)}, "lang": "en"}
    answer = client.post("/notifications/subscribe/", json.dumps(body), content_type="application/json")
    assert answer.json() == {"ok": True, "devices": 1}
    assert PushSubscription.objects.get(player=player).lang == "en"
    bad = client.post("/notifications/subscribe/", json.dumps({**body, "keys": {"p256dh": "x", "auth": "y"}}),
                      content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")
    assert bad.status_code == 400 and bad.json()["message"] == "This browser's notification subscription cannot be used."
    client.post("/notifications/unsubscribe/", json.dumps({"endpoint": device.endpoint}), content_type="application/json")
    assert not PushSubscription.objects.filter(player=player).exists()
    assert client.get("/notifications/subscribe/").status_code == 405


def test_the_endpoints_want_a_signed_in_player(client, push_service):
    answer = client.post("/notifications/subscribe/", "{}", content_type="application/json")
    assert answer.status_code == 302 and "/accounts/" in answer["Location"]


def test_every_signed_in_page_carries_the_in_page_switches_in_the_users_one_query(client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from notifications import services

    player = make_player("Слышащий")
    services.set_switches(player, {"sound": True})
    client.force_login(player)
    with CaptureQueriesContext(connection) as queries:
        page = client.get("/tables/").content.decode()
    assert '<script id="in-page-alerts" type="application/json">{"sound": true, "vibrate": false}</script>' in page
    reads = [q["sql"] for q in queries.captured_queries if "notifications_notificationsettings" in q["sql"]]
    assert len(reads) == 1 and "accounts_player" in reads[0]  # joined to the user load
