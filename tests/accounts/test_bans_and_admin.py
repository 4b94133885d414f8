"""Bans block play and show the reason; moderators use the Django admin (search, ban, unban, reset key)."""

from __future__ import annotations

import re

import pytest
from django.contrib.admin.models import LogEntry
from django.core.management import call_command
from django.test import Client

from accounts import keys, services
from accounts.models import Player
from durak_site.errors import ServiceError

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/accounts/player/"


def english(client: Client) -> Client:
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    return client


def test_ensure_can_play_lets_a_normal_player_through(sign_up):
    player, _ = sign_up("Clean")
    services.ensure_can_play(player)


def test_ensure_can_play_refuses_a_banned_player_with_the_reason(sign_up, moderator):
    player, _ = sign_up("Cheat")
    services.ban(player, "abusive chat", by=moderator)
    with pytest.raises(ServiceError) as info:
        services.ensure_can_play(player)  # the stale object in hand still gets refused
    assert info.value.code == "banned"
    assert "abusive chat" in info.value.message
    assert info.value.as_dict()["code"] == "banned"


def test_ensure_can_play_refuses_anonymous_visitors():
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(ServiceError) as info:
        services.ensure_can_play(AnonymousUser())
    assert info.value.code == "login_required"


def test_unban_lets_the_player_play_again(sign_up, moderator):
    player, _ = sign_up("Forgiven")
    services.ban(player, "spam", by=moderator)
    services.unban(player, by=moderator)
    services.ensure_can_play(player)
    assert Player.objects.get(pk=player.pk).ban_reason == ""


@pytest.mark.parametrize(("reason", "code"), [("", "ban_reason_required"), ("   ", "ban_reason_required"),
                                              ("x" * 301, "ban_reason_length")])
def test_a_ban_needs_a_short_reason_and_changes_nothing_otherwise(sign_up, moderator, reason, code):
    player, _ = sign_up("Suspect")
    with pytest.raises(ServiceError) as info:
        services.ban(player, reason, by=moderator)
    assert info.value.code == code
    assert Player.objects.get(pk=player.pk).banned_at is None


def test_a_moderator_cannot_ban_himself(moderator):
    with pytest.raises(ServiceError) as info:
        services.ban(moderator, "oops", by=moderator)
    assert info.value.code == "ban_self"


def test_a_banned_player_still_logs_in_and_sees_why(sign_up, moderator):
    player, key = sign_up("Toxic")
    services.ban(player, "insulting other players", by=moderator)
    device = english(Client())
    assert device.post("/accounts/restore/", {"nick": "Toxic", "key": key}).status_code == 302
    home = device.get("/").content.decode()
    assert "Your account is banned." in home and "insulting other players" in home
    page = device.get("/accounts/banned/").content.decode()
    assert "Your account is banned: insulting other players" in page
    assert "cannot sit at tables" in page


def test_the_ban_notice_is_in_russian_by_default(sign_up, moderator, client):
    player, _ = sign_up("Грубиян")
    services.ban(player, "оскорбления", by=moderator)
    client.force_login(player)
    assert "Ваш аккаунт забанен: оскорбления" in client.get("/accounts/banned/").content.decode()


# --- admin ------------------------------------------------------------------------------------------------

def test_admin_pages_load_for_a_superuser(client, moderator, sign_up):
    sign_up("Searchable")
    client.force_login(moderator)
    assert client.get("/admin/").status_code == 200
    listing = client.get(CHANGELIST)
    assert listing.status_code == 200
    html = listing.content.decode()
    for column in ("column-nick", "column-date_joined", "column-last_seen", "column-is_banned_column"):
        assert column in html
    player = Player.objects.get(nick="Searchable")
    assert client.get(f"{CHANGELIST}{player.pk}/change/").status_code == 200


def test_admin_pages_load_for_a_staff_moderator_without_superuser_rights(client, sign_up):
    staff = Player.objects.create_user("Helper", password="pw-helper-123", is_staff=True)
    player, _ = sign_up("Someone")
    client.force_login(staff)
    assert client.get(CHANGELIST).status_code == 200
    change = client.get(f"{CHANGELIST}{player.pk}/change/")
    assert change.status_code == 200
    assert 'name="is_superuser"' not in change.content.decode()  # only superusers grant staff rights


@pytest.mark.parametrize("who", ["anonymous", "player"])
def test_admin_is_refused_to_everyone_else(client, sign_up, who):
    if who == "player":
        player, _ = sign_up("Curious")
        client.force_login(player)
    for url in ("/admin/", CHANGELIST):
        response = client.get(url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_admin_searches_players_by_nick(client, moderator, sign_up):
    for nick in ("Alpha", "Alphonse", "Beta"):
        sign_up(nick)
    client.force_login(moderator)
    html = client.get(CHANGELIST, {"q": "alph"}).content.decode()
    assert "Alpha" in html and "Alphonse" in html and ">Beta<" not in html


def test_admin_ban_asks_for_a_reason_then_bans(client, moderator, sign_up):
    one, _ = sign_up("Bad1")
    two, _ = sign_up("Bad2")
    english(client).force_login(moderator)
    data = {"action": "ban_players", "_selected_action": [one.pk, two.pk]}
    form = client.post(CHANGELIST, data)
    assert form.status_code == 200
    assert 'name="reason"' in form.content.decode()
    page = form.content.decode()  # the shared action page carries both players through to the second POST
    assert all(f'name="_selected_action" value="{p.pk}"' in page for p in (one, two)) and "cannot sit at tables" in page
    assert not Player.objects.filter(banned_at__isnull=False).exists()

    missing = client.post(CHANGELIST, {**data, "apply": "1", "reason": ""})
    assert "Give the reason for the ban" in missing.content.decode()
    assert not Player.objects.filter(banned_at__isnull=False).exists()

    done = client.post(CHANGELIST, {**data, "apply": "1", "reason": "collusion"}, follow=True)
    assert "Banned 2 players." in done.content.decode()
    assert set(Player.objects.filter(ban_reason="collusion").values_list("nick", flat=True)) == {"Bad1", "Bad2"}
    assert LogEntry.objects.filter(object_id=str(one.pk)).exists()


def test_admin_unban(client, moderator, sign_up):
    player, _ = sign_up("Released")
    services.ban(player, "temp", by=moderator)
    english(client).force_login(moderator)
    done = client.post(CHANGELIST, {"action": "unban_players", "_selected_action": [player.pk]}, follow=True)
    assert "Lifted the ban of 1 player." in done.content.decode()
    assert Player.objects.get(pk=player.pk).banned_at is None


def test_admin_reset_key_shows_a_working_new_key_once(client, moderator, sign_up):
    player, old = sign_up("Forgetful")
    client.force_login(moderator)
    response = client.post(CHANGELIST, {"action": "reset_recovery_keys", "_selected_action": [player.pk]})
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    shown = re.search(r'class="recovery-key"[^>]*>([0-9A-Z-]+)<', response.content.decode()).group(1)
    player.refresh_from_db()
    assert player.check_password(keys.normalize(shown))
    assert not player.check_password(old)
    assert shown not in client.get(CHANGELIST).content.decode()


def test_admin_cannot_add_players_and_only_superusers_delete(client, sign_up, moderator):
    staff = Player.objects.create_user("Helper2", password="pw", is_staff=True)
    player, _ = sign_up("Keep")
    client.force_login(staff)
    assert client.get(f"{CHANGELIST}add/").status_code == 403
    assert client.get(f"{CHANGELIST}{player.pk}/delete/").status_code == 403
    client.force_login(moderator)
    assert client.get(f"{CHANGELIST}{player.pk}/delete/").status_code == 200


def test_createsuperuser_makes_a_staff_account_with_a_nick(monkeypatch, client):
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "a-long-staff-password-123")
    call_command("createsuperuser", "--noinput", "--nick", "Boss")
    boss = Player.objects.get(nick="Boss")
    assert boss.is_staff and boss.is_superuser and boss.nick_skeleton == "boss"
    response = client.post("/admin/login/", {"username": "Boss", "password": "a-long-staff-password-123",
                                             "next": CHANGELIST})
    assert response.status_code == 302
    assert client.get(CHANGELIST).status_code == 200
