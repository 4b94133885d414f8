"""A push service per test, and the server's Web Push configured to reach it."""

from __future__ import annotations

import pytest

from tests.notifications.push_kit import PushService, vapid_keys


@pytest.fixture
def push_service(settings):
    public, private = vapid_keys()
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = public, private
    settings.VAPID_SUBJECT = "mailto:ops@durak.invalid"
    settings.PUSH_RUNNER = "local"  # a background thread, as the embedded default sends
    settings.PUSH_ENDPOINT_SCHEMES = ("http", "https")
    settings.PUSH_SERVICE_HOSTS = ("127.0.0.1",)
    service = PushService()
    yield service
    service.close()
