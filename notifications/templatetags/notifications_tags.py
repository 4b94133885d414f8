"""What the notification settings section and the table page's client need to know."""

from __future__ import annotations

from django import template
from django.conf import settings

from .. import services

register = template.Library()


@register.simple_tag
def notification_settings(player) -> dict:
    row = services.settings_of(player)
    return {"enabled": services.enabled(), "public_key": settings.VAPID_PUBLIC_KEY,
            "devices": services.devices(player), "max_devices": services.MAX_DEVICES,
            "switches": {name: getattr(row, name) for name in services.SWITCHES}}


@register.simple_tag
def in_page_alerts(player) -> dict:
    """The in-page sound and vibration for «Ваш ход» and a match found (on every signed-in page:
    social's site panel, so read from the row that came with the user)."""
    row = services.page_settings_of(player)
    return {"sound": row.sound, "vibrate": row.vibrate}
