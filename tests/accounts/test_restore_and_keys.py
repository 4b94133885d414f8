"""Restore on another device with nick + key, one generic error, throttling; new key; log out."""

from __future__ import annotations

import time

import pytest
from django.test import Client
from django.urls import reverse

from accounts import keys, services
from accounts.models import Player

pytestmark = pytest.mark.django_db

GENERIC = "This nick and key do not match"


def english_client(ip: str = "10.0.0.1") -> Client:
    client = Client(REMOTE_ADDR=ip)
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    return client


def restore(client, nick, key):
    return client.post("/accounts/restore/", {"nick": nick, "key": key})


def test_nick_and_key_log_in_on_another_device(sign_up):
    player, key = sign_up("Маша")
    device = english_client()
    response = restore(device, "Маша", keys.display(key))
    assert response.status_code == 302 and response["Location"] == "/"
    assert int(device.session["_auth_user_id"]) == player.pk
    assert "Welcome back, Маша" in device.get("/").content.decode()


@pytest.mark.parametrize("typed", [
    lambda k: k.lower(),
    lambda k: " ".join(k[i:i + 4] for i in range(0, len(k), 4)),
    lambda k: keys.display(k).replace("0", "O").replace("1", "I"),
])
def test_typing_the_key_is_forgiving(sign_up, typed):
    _, key = sign_up("Typer")
    response = restore(english_client(), "typer", typed(key))
    assert response.status_code == 302


def test_the_nick_may_be_typed_in_any_case_even_cyrillic(sign_up):
    _, key = sign_up("Ёжик")
    assert restore(english_client(), "ёЖИК", key).status_code == 302


def test_wrong_key_unknown_nick_and_garbage_get_one_generic_error(sign_up):
    _, key = sign_up("Olga")
    device = english_client()
    bad_key = restore(device, "Olga", keys.generate())
    unknown = restore(device, "Nobody", key)
    garbage = restore(device, "Olga", "12345")
    for response in (bad_key, unknown, garbage):
        assert response.status_code == 400
        assert GENERIC in response.content.decode()
        assert "_auth_user_id" not in device.session
    assert bad_key.content.decode().count(GENERIC) == 1


def test_empty_fields_say_what_is_missing():
    response = english_client().post("/accounts/restore/", {"nick": "", "key": ""})
    html = response.content.decode()
    assert "Enter your nick." in html and "Enter your recovery key." in html


def test_failures_are_throttled_per_address_and_nick(sign_up, settings):
    _, key = sign_up("Target")
    guesser = english_client("10.1.0.1")
    for _ in range(settings.RESTORE_FAILURES_PER_ADDRESS_NICK):
        assert restore(guesser, "Target", keys.generate()).status_code == 400
    response = restore(guesser, "target", key)  # the right key, but from the failing address: too late
    assert response.status_code == 429
    assert "Too many failed attempts" in response.content.decode()
    assert "15 minutes" in response.content.decode()
    other_player_same_ip = restore(english_client("10.1.0.1"), "Other", keys.generate())
    assert other_player_same_ip.status_code == 400  # another nick from that address is not blocked yet


def test_strangers_failures_never_refuse_the_owners_key(sign_up, settings):
    """Wrong keys for a nick from other addresses never lock its owner out."""
    _, key = sign_up("Owner")
    for n in range(3 * settings.RESTORE_FAILURES_PER_ADDRESS_NICK):
        assert restore(english_client(f"10.2.0.{n}"), "Owner", keys.generate()).status_code == 400
    assert restore(english_client("10.2.9.9"), "owner", key).status_code == 302


def test_failures_are_throttled_per_address_across_nicks(sign_up, settings):
    settings.RESTORE_FAILURES_PER_ADDRESS = 4
    _, key = sign_up("Victim")
    attacker = english_client("192.0.2.7")
    for n in range(4):
        assert restore(attacker, f"guess{n}", keys.generate()).status_code == 400
    assert restore(attacker, "Victim", key).status_code == 429
    assert restore(english_client("192.0.2.8"), "Victim", key).status_code == 302


def test_the_throttle_window_ends(sign_up, settings, rf):
    settings.RESTORE_FAILURE_WINDOW = 3  # seconds
    _, key = sign_up("Patient")
    request = rf.post("/accounts/restore/", REMOTE_ADDR="10.9.9.1")
    for _ in range(settings.RESTORE_FAILURES_PER_ADDRESS_NICK):
        with pytest.raises(services.ServiceError):
            services.restore(request, "Patient", "nope")
    started = time.monotonic()
    with pytest.raises(services.ServiceError) as info:
        services.restore(request, "Patient", key)
    assert info.value.code == "throttled"
    time.sleep(max(0.0, 3.5 - (time.monotonic() - started)))
    assert restore(english_client("10.9.9.1"), "Patient", key).status_code == 302


def test_client_ip_trusts_forwarded_for_only_behind_configured_proxies(rf, settings):
    request = rf.get("/", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.5", REMOTE_ADDR="10.0.0.2")
    assert services.client_ip(request) == "10.0.0.2"
    settings.TRUSTED_PROXY_HOPS = 1
    assert services.client_ip(request) == "203.0.113.5"


def test_a_new_key_replaces_the_old_one_and_is_shown_once(sign_up, key_on_page):
    player, old = sign_up("Renew")
    device = english_client()
    assert restore(device, "Renew", old).status_code == 302
    other_device = english_client("10.0.0.9")
    assert restore(other_device, "Renew", old).status_code == 302

    response = device.post("/accounts/new-key/")
    assert response.status_code == 302 and response["Location"] == "/accounts/key/"
    shown = key_on_page(device.get("/accounts/key/"))
    assert shown and keys.normalize(shown) != old
    assert key_on_page(device.get("/accounts/key/")) is None

    assert device.get("/accounts/profile/").status_code == 200  # this device stays logged in
    assert other_device.get("/accounts/profile/").status_code == 302  # the other one is logged out
    assert restore(english_client("10.0.0.10"), "Renew", old).status_code == 400
    assert restore(english_client("10.0.0.11"), "Renew", shown).status_code == 302


def test_new_key_needs_a_post_and_a_login(client, sign_up):
    sign_up("Getter")
    assert client.get("/accounts/new-key/").status_code == 405
    response = client.post("/accounts/new-key/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/signup/")


def test_log_out_is_a_post_and_ends_the_session(sign_up):
    _, key = sign_up("Leaver")
    device = english_client()
    restore(device, "Leaver", key)
    assert device.get("/accounts/logout/").status_code == 405
    response = device.post("/accounts/logout/")
    assert response.status_code == 302
    assert "_auth_user_id" not in device.session
    assert device.get("/accounts/profile/").status_code == 302
    assert "You have logged out" in device.get("/").content.decode()


def test_profile_shows_nick_rating_key_and_logout(sign_up):
    _, key = sign_up("Profiler")
    device = english_client()
    restore(device, "Profiler", key)
    html = device.get("/accounts/profile/").content.decode()
    assert "Profiler" in html and "1000" in html
    # ratings' panels (accounts.pages): his rating among the facts, the link to his public page
    assert "<dt>Rating</dt><dd>1000</dd>" in html
    assert f'href="{reverse("ratings:profile", args=["Profiler"])}"' in html
    assert 'action="/accounts/new-key/"' in html and 'action="/accounts/logout/"' in html


def test_restore_writes_nothing_on_failure(sign_up):
    player, _ = sign_up("Still")
    before = Player.objects.get(pk=player.pk)
    restore(english_client(), "Still", keys.generate())
    after = Player.objects.get(pk=player.pk)
    assert (before.password, before.last_login) == (after.password, after.last_login)
