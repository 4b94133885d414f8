"""The party's endpoints: invite a friend, answer an invitation, leave. Thin: every write goes through
social/party.py; login, POST only, the social POST limit and the catalogue's refusals come from
views._guarded (a JSON refusal to a script, a message on the page otherwise)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse

from durak_site.errors import ServiceError

from . import party
from .views import _guarded


def _wants_json(request: HttpRequest) -> bool:
    return request.headers.get("Accept", "").startswith("application/json")


@_guarded
def invite(request: HttpRequest, player_id: int) -> HttpResponse | None:
    party.invite(request.user, player_id)
    if _wants_json(request):
        return JsonResponse({"ok": True})
    return None


@_guarded
def invitation(request: HttpRequest, invitation_id: int) -> HttpResponse | None:
    op = request.POST.get("op")
    if op not in ("accept", "decline"):
        raise ServiceError("bad_action")
    party.answer(request.user, invitation_id, op == "accept")
    url = reverse("social:search") if op == "accept" else None
    if _wants_json(request):
        return JsonResponse({"ok": True, "url": url})
    return redirect(url) if url else None


@_guarded
def leave(request: HttpRequest) -> HttpResponse | None:
    party.leave(request.user)
    if _wants_json(request):
        return JsonResponse({"ok": True})
    return None
