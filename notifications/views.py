"""The notification settings' endpoints: thin, each signed in, POST only and rate-limited."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from durak_site import ratelimit
from durak_site.errors import ServiceError

from . import services

BODY_LIMIT = 4096  # a subscription is a few hundred bytes


def _limited(request: HttpRequest) -> bool:
    return not ratelimit.within("push-changes", request.user.pk, (settings.PUSH_CHANGES_PER_MINUTE, 60))


def _json(request: HttpRequest) -> dict:
    if len(request.body) > BODY_LIMIT:
        raise ServiceError("too_large")
    try:
        body = json.loads(request.body or b"{}")
    except ValueError:
        raise ServiceError("bad_json") from None
    if not isinstance(body, dict):
        raise ServiceError("bad_message")
    return body


def _refusal(exc: ServiceError) -> JsonResponse:
    return JsonResponse({"ok": False, **exc.as_dict()}, status=400)


@login_required
@require_POST
def subscribe(request: HttpRequest) -> JsonResponse:
    """This browser's PushSubscription.toJSON(), plus the page's language."""
    try:
        if _limited(request):
            raise ServiceError("push_too_often")
        body = _json(request)
        raw_keys = body.get("keys")
        keys = raw_keys if isinstance(raw_keys, dict) else {}
        services.subscribe(request.user, body.get("endpoint"), keys.get("p256dh"), keys.get("auth"),
                           str(body.get("lang") or ""))
    except ServiceError as exc:
        return _refusal(exc)
    return JsonResponse({"ok": True, "devices": services.devices(request.user)})


@login_required
@require_POST
def unsubscribe(request: HttpRequest) -> JsonResponse:
    try:
        if _limited(request):
            raise ServiceError("push_too_often")
        services.unsubscribe(request.user, _json(request).get("endpoint"))
    except ServiceError as exc:
        return _refusal(exc)
    return JsonResponse({"ok": True, "devices": services.devices(request.user)})


@login_required
@require_POST
def save_settings(request: HttpRequest) -> HttpResponse:
    """The settings form (works without a script): each switch on when its box was ticked."""
    back = reverse("accounts:profile") + "#notifications"
    if _limited(request):
        messages.error(request, str(ServiceError("push_too_often")))
        return redirect(back)
    services.set_switches(request.user, {name: request.POST.get(name) == "on" for name in services.SWITCHES})
    messages.success(request, _("Notification settings saved."))
    return redirect(back)
