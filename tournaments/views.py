"""The tournament pages: the list, an event (live standings, the pause screen, the podium), its
standings fragment (re-read once per socket news), creating a private event, and the player's
moves (join, pause, return, withdraw, berserk). Thin: every write goes through services; every POST
needs a signed-in player, is rate-limited, and is refused with the catalogue's sentence.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, ngettext, pgettext
from django.views.decorators.http import require_POST

from durak_site import ratelimit
from durak_site.errors import ServiceError
from lobby.rule_texts import RULE_LABELS

from . import selectors, services
from .models import (
    ARENA_MINUTES,
    DECKS,
    ROUND_MINUTES,
    SEATS,
    SWISS_ROUNDS,
    TURN_SECONDS,
    Format,
    Tournament,
    Variant,
)

POST_LIMIT = (30, 60)  # a player's tournament POSTs per minute


def _event(request: HttpRequest, event_id: int) -> Tournament:
    event = Tournament.objects.filter(pk=event_id).first()
    code = request.GET.get("code") or request.POST.get("code") or ""
    if event is None or not services.may_see(event, request.user, code):
        raise Http404
    return event


def _guarded(view):
    @login_required
    @require_POST
    def wrapped(request: HttpRequest, event_id: int) -> HttpResponse:
        back = _back(request, reverse("tournaments:detail", args=[event_id]))
        if not ratelimit.within("tournaments", request.user.pk, POST_LIMIT):
            exc = ServiceError("social_too_many")
        else:
            try:
                view(request, event_id)
                if request.headers.get("Accept", "").startswith("application/json"):
                    return JsonResponse({"ok": True})
                return redirect(back)
            except ServiceError as error:
                exc = error
        if request.headers.get("Accept", "").startswith("application/json"):
            return JsonResponse({"ok": False, **exc.as_dict()}, status=400)
        messages.error(request, str(exc))
        return redirect(back)

    return wrapped


def _back(request: HttpRequest, default: str) -> str:
    """Where a move's form came from (berserk at the table goes back to the table), if it is this site's."""
    wanted = request.POST.get("next", "")
    if wanted and url_has_allowed_host_and_scheme(wanted, allowed_hosts={request.get_host()},
                                                   require_https=request.is_secure()):
        return wanted
    return default


def index(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/index.html", {
        "upcoming": selectors.next_events(request.user, limit=20),
        "finished": selectors.recent_finished(limit=10),
    })


def detail(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(request, event_id)
    context = selectors.page(event, request.user)
    context["code"] = request.GET.get("code", "")
    context["words"] = _standings_words()
    return render(request, "tournaments/detail.html", context)


PLURAL_SAMPLES = (("zero", 0), ("one", 1), ("two", 2), ("few", 2), ("many", 5), ("other", 5))


def _standings_words() -> dict:
    """What standings.js writes, in the page's language: the same sentences as the fragment's, with
    {placeholders}; the count of players in each plural category (Intl.PluralRules picks one)."""
    return {
        "marks": {"W": pgettext("a win, one letter", "W"), "D": pgettext("a draw, one letter", "D"),
                  "L": pgettext("a loss, one letter", "L"), "B": pgettext("a bye, one letter", "B")},
        "fire": gettext("On fire: wins count double"), "berserk": gettext("Berserk"),
        "pause": pgettext("a paused player's mark", "pause"), "nobody": gettext("Nobody has joined yet."),
        "place": gettext("Your place: %(place)s · points: %(score)s") % {"place": "{place}", "score": "{score}"},
        "players": {cat: ngettext("%(n)s player", "%(n)s players", n) % {"n": "{n}"} for cat, n in PLURAL_SAMPLES},
    }


def standings_fragment(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(request, event_id)
    return render(request, "tournaments/_live.html", selectors.page(event, request.user))


@_guarded
def join(request: HttpRequest, event_id: int) -> None:
    services.join(event_id, request.user, code=request.POST.get("code", ""), password=request.POST.get("password", ""))


@_guarded
def pause(request: HttpRequest, event_id: int) -> None:
    services.pause(event_id, request.user)


@_guarded
def resume(request: HttpRequest, event_id: int) -> None:
    services.resume(event_id, request.user)


@_guarded
def withdraw(request: HttpRequest, event_id: int) -> None:
    services.withdraw(event_id, request.user)


@_guarded
def berserk(request: HttpRequest, event_id: int) -> None:
    services.berserk(event_id, request.user)


@login_required
def create(request: HttpRequest) -> HttpResponse:
    error = None
    if request.method == "POST":
        if not ratelimit.within("tournaments", request.user.pk, POST_LIMIT):
            error = str(ServiceError("social_too_many"))
        else:
            raw = {k: request.POST.get(k) for k in ("name", "format", "variant", "deck_size", "turn_seconds",
                                                     "minutes", "rounds", "round_minutes", "seats", "pairs",
                                                     "cheater")}
            try:
                raw["starts_at"] = _parse_start(request.POST.get("starts_at", ""))
                event = services.create_private(request.user, password=request.POST.get("password", ""), **raw)
                return redirect(f"{reverse('tournaments:detail', args=[event.pk])}?code={event.invite_code}")
            except ServiceError as exc:
                error = str(exc)
    return render(request, "tournaments/create.html", {
        "error": error, "formats": Format.choices, "variants": Variant.choices, "decks": DECKS,
        "timers": TURN_SECONDS, "lengths": ARENA_MINUTES, "rounds": SWISS_ROUNDS, "seats": SEATS,
        "round_minutes": ROUND_MINUTES, "form": request.POST,
        "cheater_label": RULE_LABELS["cheater"][0], "cheater_help": RULE_LABELS["cheater"][1],
    })


def _parse_start(value: str):
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise ServiceError("tournament_bad_start") from None
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment, timezone.get_current_timezone())
    return moment



