"""HTTP hardening: admin login lock-out, staff password rules, the
proxy header trusted only behind a configured proxy, a Content-Security-Policy on every page, and the
moderators' session ending logged."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.test import Client

from accounts.models import Player

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def staff(db):
    return Player.objects.create_superuser("Staffer", password="a-long-staff-password-123")


def _admin_login(client: Client, password: str):
    return client.post("/admin/login/", {"username": "Staffer", "password": password, "next": "/admin/"})


def test_admin_login_locks_out_after_repeated_failures(staff, settings):
    attacker = Client(REMOTE_ADDR="198.51.100.4")
    assert _admin_login(attacker, "wrong-password").status_code == 200  # the form again
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        _admin_login(attacker, "wrong-password")
    locked = _admin_login(attacker, "a-long-staff-password-123")
    assert locked.status_code == 429
    assert "_auth_user_id" not in attacker.session
    # the lock-out is per (address, nick): the moderator at his own desk still gets in
    assert _admin_login(Client(REMOTE_ADDR="198.51.100.77"), "a-long-staff-password-123").status_code == 302


def test_staff_passwords_must_follow_the_rules(staff):
    for weak in ("12345678", "password", "staffer1"):
        with pytest.raises(ValidationError):
            validate_password(weak, staff)
    validate_password("correct horse battery staple 7", staff)


def test_a_forwarded_proto_header_is_ignored_without_a_trusted_proxy(rf, settings):
    assert settings.TRUSTED_PROXY_HOPS == 0
    request = rf.get("/", HTTP_X_FORWARDED_PROTO="https")
    assert not request.is_secure()


@pytest.mark.parametrize(("hops", "expected"), [("0", "None"), ("1", "('HTTP_X_FORWARDED_PROTO', 'https')")])
def test_the_proxy_header_is_trusted_only_with_trusted_proxy_hops(hops, expected):
    env = {**os.environ, "TRUSTED_PROXY_HOPS": hops, "DJANGO_SETTINGS_MODULE": "durak_site.settings"}
    out = subprocess.run([sys.executable, "-c", "from django.conf import settings; "
                          "print(settings.SECURE_PROXY_SSL_HEADER)"],
                         cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == expected


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/tables/", "/accounts/restore/", "/admin/login/"])
def test_every_page_sends_a_content_security_policy(client, path):
    policy = client.get(path)["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert directives["script-src"].startswith("'self'") and "'unsafe-inline'" not in directives["script-src"]
    assert directives["object-src"] == "'none'" and directives["frame-ancestors"] == "'none'"


def test_ending_a_players_sessions_from_the_admin_is_logged(staff, client):
    player = Player.objects.create_user("Noisy", password=None)
    client.force_login(staff)
    response = client.post("/admin/accounts/player/", {"action": "end_sessions", "_selected_action": [player.pk]})
    assert response.status_code == 302
    entry = LogEntry.objects.get(object_id=str(player.pk))
    assert entry.user_id == staff.pk and entry.is_change() and entry.get_change_message()
