"""The letters' pages: the list of conversations, one conversation, and its three POSTs (write,
read, report). Thin: every write goes through letters.services. A POST works without a script
(a redirect back, the refusal as a page message) and answers JSON to the page's script (Accept:
application/json); a refusal changes nothing and says why in the catalogue's words."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import Player
from durak_site import ratelimit
from durak_site.errors import ServiceError
from social import people

from . import services
from .models import HISTORY, MAX_LENGTH, REASON_LENGTH

POSTS_PER_MINUTE = 60  # a player's letters' POSTs of any kind (each write has its own tighter limits)


def _wants_json(request: HttpRequest) -> bool:
    return request.headers.get("Accept", "").startswith("application/json")


def _refuse(request: HttpRequest, exc: ServiceError, back: str) -> HttpResponse:
    if _wants_json(request):
        return JsonResponse({"ok": False, **exc.as_dict()}, status=400)
    messages.error(request, str(exc))
    return redirect(back)


def _me(request: HttpRequest) -> Player:
    return cast(Player, request.user)  # login_required


def _partner(player_id: int) -> Any:
    try:
        return people.find_player(player_id)
    except ServiceError:
        raise Http404(str(ServiceError("player_not_found"))) from None


def _posting(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Signed in, POST, within the per-player rate, a refusal answered in the caller's form."""

    @login_required
    @require_POST
    def wrapped(request: HttpRequest, player_id: int, *args: Any, **kwargs: Any) -> HttpResponse:
        back = services.page_url(player_id)
        if not ratelimit.within("letters-posts", request.user.pk, (POSTS_PER_MINUTE, 60)):
            return _refuse(request, ServiceError("social_too_many"), back)
        try:
            return view(request, player_id, *args, **kwargs)
        except ServiceError as exc:
            return _refuse(request, exc, back)

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


@login_required
def inbox(request: HttpRequest) -> HttpResponse:
    return render(request, "letters/inbox.html", {"rows": services.conversations_of(_me(request).pk),
                                                  "history": HISTORY})


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def conversation(request: HttpRequest, player_id: int) -> HttpResponse:
    """GET: the page (read on opening it); with Accept JSON, the letters after `?after=` (the
    script's catch-up after its socket came back). POST: write a letter."""
    if request.method == "POST":
        return write(request, player_id)
    other, me = _partner(player_id), _me(request).pk
    if other.pk == me:
        return redirect("letters:inbox")
    if _wants_json(request):
        try:
            after = max(0, int(request.GET.get("after", "0")))
        except ValueError:
            after = 0
        return JsonResponse({"ok": True, "letters": services.history(me, other.pk, after)})
    letters = services.history(me, other.pk)
    services.mark_read(request.user, other.pk)
    blank = {"id": 0, "text": "", "at": ""}  # the page's <template>s of a letter, filled by live.js
    return render(request, "letters/conversation.html", {
        "other": other, "me": me, "letters": letters, "can_write": services.may_write(me, other.pk),
        "history": HISTORY, "max_length": MAX_LENGTH, "reason_length": REASON_LENGTH,
        "relation": people.relation(me, other.pk),
        "blank_mine": {**blank, "author_id": me}, "blank_theirs": {**blank, "author_id": other.pk}})


@_posting
def write(request: HttpRequest, player_id: int) -> HttpResponse:
    letter = services.send(request.user, player_id, request.POST.get("text"))
    if _wants_json(request):
        return JsonResponse({"ok": True, "letter": services.payload(letter, _me(request).nick)})
    return redirect(services.page_url(player_id))


@_posting
def read(request: HttpRequest, player_id: int) -> HttpResponse:
    return JsonResponse({"ok": True, "unread": services.mark_read(request.user, player_id)})


@_posting
def report(request: HttpRequest, player_id: int, letter_id: int) -> HttpResponse:
    block = request.POST.get("block") == "1"
    services.report(request.user, letter_id, request.POST.get("reason"), block=block)
    if _wants_json(request):
        return JsonResponse({"ok": True, "blocked": block})
    messages.success(request, _("Thank you: the moderators will read the conversation."))
    return redirect(services.page_url(player_id))
