"""A player's push subscriptions (one per device's browser) and what he wants to be told.

Written only by notifications.services.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class PushSubscription(models.Model):
    """One browser's push channel (its endpoint and the keys its messages are encrypted to)."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=120)  # the browser's public key (base64url, 65 bytes)
    auth = models.CharField(max_length=40)  # the shared authentication secret (base64url, 16 bytes)
    lang = models.CharField(max_length=8, default="ru")  # the language of the page that subscribed
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")
        indexes = [models.Index(fields=["player", "created_at"], name="push_player_created")]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.endpoint[:60]}"


class NotificationSettings(models.Model):
    """What a player asked to be told. Everything is off until he switches it on."""

    player = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                  related_name="notification_settings")
    your_turn = models.BooleanField(default=False)
    invitation = models.BooleanField(default=False)
    match = models.BooleanField(default=False)
    friend_request = models.BooleanField(default=False)
    analysis_done = models.BooleanField(default=False)
    event_start = models.BooleanField(default=False)  # a tournament he joined starts in a minute
    letter = models.BooleanField(default=False)  # a friend's private message (the letters app)
    sound = models.BooleanField(default=False)  # in the page: a chime for «Ваш ход» and a match found
    vibrate = models.BooleanField(default=False)  # in the page: a short vibration for the same

    class Meta:
        verbose_name = _("notification settings")
        verbose_name_plural = _("notification settings")

    def __str__(self) -> str:
        return str(self.player_id)
