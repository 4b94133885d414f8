"""The only writer of subscriptions and notification settings, and the one way to ask for a push.

A push is never sent from the thread that asked for it: `notify` queues it after the commit (a
Celery task with Redis, a background thread without), and the worker encrypts and posts it
(notifications.delivery).
"""

from __future__ import annotations

import base64
import logging
import threading
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import cache
from django.db import close_old_connections, transaction

from durak_site.celery import app as celery_app
from durak_site.errors import ServiceError

from . import kinds
from .models import NotificationSettings, PushSubscription

log = logging.getLogger(__name__)

MAX_DEVICES = 5  # subscriptions kept per player: a sixth device replaces his oldest
TASK = "notifications.tasks.send_push"  # the Celery task's registered name (notifications/tasks.py)
SWITCHES = (*kinds.KINDS, "sound", "vibrate")


def enabled() -> bool:
    """Web Push works only with both VAPID keys configured (docs/settings.md)."""
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


def runner() -> str:
    mode = getattr(settings, "PUSH_RUNNER", "") or ("celery" if settings.REDIS_URL else "local")
    return mode


def _key_bytes(value: object, size: int) -> bool:
    if not isinstance(value, str) or not 0 < len(value) < 200:
        return False
    try:
        return len(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))) == size
    except (ValueError, TypeError):
        return False


def _push_service(endpoint: object) -> bool:
    """Only a known push service's https address: the worker posts to it, so a player must not be
    able to point the server at any other host (settings.PUSH_SERVICE_HOSTS)."""
    if not isinstance(endpoint, str) or len(endpoint) > 1000:
        return False
    try:
        parts = urlsplit(endpoint)
        host = parts.hostname or ""
    except ValueError:
        return False
    return parts.scheme in settings.PUSH_ENDPOINT_SCHEMES and any(
        host == allowed or host.endswith("." + allowed) for allowed in settings.PUSH_SERVICE_HOSTS)


def subscribe(player: Any, endpoint: object, p256dh: object, auth: object, lang: str) -> PushSubscription:
    """Keep this browser's subscription for `player` (a browser that subscribed for someone else
    before is his now); at most MAX_DEVICES, the oldest dropped."""
    if not enabled():
        raise ServiceError("push_off")
    if not (_push_service(endpoint) and _key_bytes(p256dh, 65) and _key_bytes(auth, 16)):
        raise ServiceError("push_subscription_invalid")
    lang = lang if lang in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE
    row_values: dict[str, Any] = {"player": player, "p256dh": p256dh, "auth": auth, "lang": lang}
    with transaction.atomic():
        row, _created = PushSubscription.objects.update_or_create(endpoint=endpoint, defaults=row_values)
        kept = list(PushSubscription.objects.filter(player=player).order_by("-created_at", "-pk")
                    .values_list("pk", flat=True))
        if len(kept) > MAX_DEVICES:
            PushSubscription.objects.filter(pk__in=kept[MAX_DEVICES:]).delete()
    return row


def unsubscribe(player: Any, endpoint: object) -> None:
    if isinstance(endpoint, str):
        PushSubscription.objects.filter(player=player, endpoint=endpoint).delete()


def forget(subscription_id: int) -> None:
    """The push service answered 404/410: the browser dropped this subscription."""
    PushSubscription.objects.filter(pk=subscription_id).delete()


def settings_of(player: Any) -> NotificationSettings:
    row = NotificationSettings.objects.filter(player_id=player.pk).first()
    return row or NotificationSettings(player_id=player.pk)


def page_settings_of(player: Any) -> NotificationSettings:
    """`settings_of` for a page: the row loaded with `request.user` (accounts.backends.load_with_user
    in NotificationsConfig.ready) costs no query; read afresh when the user came without it."""
    if not NotificationSettings.player.field.remote_field.is_cached(player):
        return settings_of(player)
    try:
        return player.notification_settings  # type: ignore[no-any-return]
    except NotificationSettings.DoesNotExist:
        return NotificationSettings(player_id=player.pk)


def set_switches(player: Any, values: dict[str, bool]) -> NotificationSettings:
    """Store the switches given (names from SWITCHES; others are refused)."""
    unknown = set(values) - set(SWITCHES)
    if unknown or not all(isinstance(v, bool) for v in values.values()):
        raise ServiceError("bad_message")
    row, _created = NotificationSettings.objects.get_or_create(player_id=player.pk)
    for name, value in values.items():
        setattr(row, name, value)
    row.save()
    return row


def devices(player: Any) -> int:
    return PushSubscription.objects.filter(player=player).count()


def wants(player_id: int, kind: str) -> bool:
    return NotificationSettings.objects.filter(player_id=player_id, **{kind: True}).exists()


def notify(player_id: int, kind: str, data: dict[str, Any]) -> None:
    """Queue a push of `kind` to every device of the player, once the transaction commits. Nothing
    is queued when push is off, or the player has not asked for this kind."""
    if kind not in kinds.KINDS or not enabled():
        return
    transaction.on_commit(lambda: _queue(player_id, kind, data))


TURN_REPEAT = 10  # seconds: at most one «Ваш ход» per player and game in this time (one topic anyway)


def queue_now(player_id: int, kind: str, data: dict[str, Any]) -> None:
    """Outside any transaction (the turn dispatcher): queue at once, if he wants this kind; a
    «Ваш ход» at most once per TURN_REPEAT seconds per game."""
    if not enabled() or not wants(player_id, kind):
        return
    if kind == "your_turn" and not cache.add(f"push:turn:{player_id}:{data['game_id']}", 1, TURN_REPEAT):
        return
    _queue(player_id, kind, data)


def _queue(player_id: int, kind: str, data: dict[str, Any]) -> None:
    mode = runner()
    if mode == "celery":
        try:
            celery_app.send_task(TASK, args=(player_id, kind, data))
        except Exception:
            log.warning("could not queue a %s push for %s", kind, player_id, exc_info=True)
    elif mode == "local":
        threading.Thread(target=_send_in_thread, args=(player_id, kind, data), daemon=True,
                         name=f"push-{kind}-{player_id}").start()


_local_sender: Callable[[int, str, dict[str, Any]], object] | None = None


def send_locally_with(sender: Callable[[int, str, dict[str, Any]], object]) -> None:
    """The local runner's sender (``NotificationsConfig.ready()`` hands over the delivery, which
    imports this module)."""
    global _local_sender
    _local_sender = sender


def _send_in_thread(player_id: int, kind: str, data: dict[str, Any]) -> None:
    try:
        if _local_sender is not None:
            _local_sender(player_id, kind, data)
    except Exception:
        log.exception("push %s to %s failed", kind, player_id)
    finally:
        close_old_connections()
