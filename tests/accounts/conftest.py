"""Accounts fixtures: players made through the services, a fresh throttle window per test."""

from __future__ import annotations

import re
import uuid

import pytest


@pytest.fixture(autouse=True)
def _own_throttle_counters(settings) -> None:
    """Each test counts restore failures under its own cache prefix (the cache may be a shared Redis)."""
    settings.RESTORE_THROTTLE_PREFIX = f"test-restore-{uuid.uuid4().hex}"


@pytest.fixture
def sign_up(db):
    """sign_up(nick) -> (player, key) through accounts.services (the only writer)."""
    from accounts import services

    return services.sign_up


KEY_RE = re.compile(r'id="recovery-key"[^>]*>([0-9A-Z-]+)<')


@pytest.fixture
def key_on_page():
    """key_on_page(response) -> the recovery key shown on the page, or None."""

    def find(response) -> str | None:
        match = KEY_RE.search(response.content.decode())
        return match.group(1) if match else None

    return find


@pytest.fixture
def moderator(db):
    from accounts.models import Player

    return Player.objects.create_superuser("Модер_Главный", password="moderator-password-123")
