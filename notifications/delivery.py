"""The worker's side of a push: word the message in each device's language, encrypt it to that
device's keys (RFC 8291, aes128gcm) and post it to its push service (pywebpush), with the kind's
TTL, Urgency and Topic. A subscription the push service says is gone (404, 410) is deleted.
"""

from __future__ import annotations

import json
import logging

from django.conf import settings
from django.utils import translation
from pywebpush import WebPushException, webpush

from . import kinds, services
from .models import PushSubscription

log = logging.getLogger(__name__)

GONE = {404, 410}


def send(player_id: int, kind: str, data: dict) -> int:
    """Post one message of `kind` to each of the player's devices; how many the services accepted."""
    if not services.enabled() or not services.wants(player_id, kind):
        return 0
    if kind == "your_turn" and not _still_worth_it(player_id, data):
        return 0
    accepted = 0
    for sub in PushSubscription.objects.filter(player_id=player_id):
        with translation.override(sub.lang):
            message = kinds.message(kind, data)
        try:
            webpush(
                subscription_info={"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}},
                data=json.dumps(message.payload(), ensure_ascii=False),
                vapid_private_key=settings.VAPID_PRIVATE_KEY,
                vapid_claims={"sub": settings.VAPID_SUBJECT},
                ttl=message.ttl,
                headers={"Urgency": message.urgency, "Topic": message.topic},
                timeout=settings.PUSH_TIMEOUT,
            )
            accepted += 1
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", None)
            if status in GONE:
                services.forget(sub.pk)
            else:
                log.warning("push %s to subscription %s refused: %s", kind, sub.pk, status or exc)
        except Exception as exc:  # an unreachable push service must not stop the other devices
            log.warning("push %s to subscription %s failed: %r", kind, sub.pk, exc)
    return accepted


def _still_worth_it(player_id: int, data: dict) -> bool:
    """A «Ваш ход» that waited in the queue: not if a tab of his shows the table by now."""
    from . import visibility

    return not visibility.table_visible(player_id, data["table_id"])
