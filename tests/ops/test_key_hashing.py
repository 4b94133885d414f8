"""Recovery keys are hashed with few PBKDF2 rounds; staff passwords keep Django's full cost.

A key is 140 random bits: no number of rounds makes guessing it more hopeless than it is, while the
default million rounds cost every sign-up and key login about a second of a web process's CPU. Staff
choose their passwords, which the full cost does protect.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.hashers import make_password
from django.test import RequestFactory

from accounts import keys, services
from accounts.hashers import RecoveryKeyHasher
from accounts.models import Player

pytestmark = pytest.mark.django_db

KEY_PREFIX = RecoveryKeyHasher.algorithm + "$"


@pytest.fixture
def real_hashers(settings):
    from durak_site import settings as site_settings

    settings.PASSWORD_HASHERS = site_settings.PASSWORD_HASHERS


def _restore(nick: str, key: str) -> Player:
    request = RequestFactory().post("/accounts/restore/", REMOTE_ADDR="10.9.8.7")
    return services.restore(request, nick, key)


def test_a_new_players_key_is_stored_with_the_key_hasher_and_logs_in(real_hashers):
    player, key = services.sign_up("hashA")
    stored = Player.objects.get(pk=player.pk).password
    assert stored.startswith(KEY_PREFIX)
    assert _restore("hashA", keys.display(key)).pk == player.pk
    assert Player.objects.get(pk=player.pk).password == stored  # a login does not re-hash it


def test_a_staff_password_keeps_the_full_cost(real_hashers):
    boss = Player.objects.create_superuser("hashBoss", password="a long staff passphrase 42")
    assert boss.password.startswith("pbkdf2_sha256$")
    assert boss.check_password("a long staff passphrase 42")


def test_a_key_stored_with_the_full_cost_is_rehashed_at_its_next_login(real_hashers):
    key = keys.generate()
    player = Player.objects.create_user("hashOld")
    Player.objects.filter(pk=player.pk).update(password=make_password(key, hasher="pbkdf2_sha256"))
    assert _restore("hashOld", key).pk == player.pk
    assert Player.objects.get(pk=player.pk).password.startswith(KEY_PREFIX)


def test_a_wrong_key_is_refused_and_an_unknown_nick_costs_the_same_hash(real_hashers):
    services.sign_up("hashB")
    with pytest.raises(services.ServiceError):
        _restore("hashB", keys.generate())
    hasher = RecoveryKeyHasher()
    calls = []
    original = RecoveryKeyHasher.encode
    RecoveryKeyHasher.encode = lambda self, *a, **k: calls.append(1) or original(self, *a, **k)
    try:
        with pytest.raises(services.ServiceError):
            _restore("nobodyHere", keys.generate())
    finally:
        RecoveryKeyHasher.encode = original
    assert calls, "an unknown nick must still pay for one key hash (timing tells nothing)"
    assert hasher.iterations < 100_000
