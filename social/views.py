"""The social pages: the search («Найти соперников»), friends, a player's card, invitations.

Thin: every write goes through queue.py or people.py. Every POST needs a signed-in player and
is refused (with the catalogue's sentence) when it cannot be done; nothing changes then.
"""

from __future__ import annotations

from typing import Any, cast
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import Player
from durak_site.errors import ServiceError
from lobby import guards
from ratings.models import START_RATING, Rating

from . import matching, party, people, presence, queue, reliability
from .models import Block, Invitation, SearchRequest

POSTS_PER_MINUTE = 30  # a player's social POSTs (search, friends, blocks, invitations) in any 60 s


def _rate_limited(request: HttpRequest) -> bool:
    """A simple per-player window in the shared cache: true when he is over POSTS_PER_MINUTE."""
    key = f"social:posts:{request.user.pk}"
    cache.add(key, 0, 60)
    try:
        return cache.incr(key) > POSTS_PER_MINUTE
    except ValueError:
        return False


def _refuse(request: HttpRequest, exc: ServiceError, back: str) -> HttpResponse:
    if request.headers.get("Accept", "").startswith("application/json"):
        return JsonResponse({"ok": False, **exc.as_dict()}, status=400)
    messages.error(request, str(exc))
    return redirect(back)


def _guarded(view):
    """login, POST, the rate limit, and a ServiceError turned into a message or a JSON refusal."""

    @login_required
    @require_POST
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        back = request.POST.get("back") or ""
        if not back.startswith("/") or back.startswith("//"):
            back = reverse("social:friends")
        if _rate_limited(request):
            return _refuse(request, ServiceError("social_too_many"), back)
        try:
            return view(request, *args, **kwargs) or redirect(back)
        except ServiceError as exc:
            return _refuse(request, exc, back)

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


# ---------------------------------------------------------------- the search


def _go(request_row: SearchRequest) -> HttpResponse:
    if request_row.status == SearchRequest.Status.MATCHED and request_row.table_id:
        return redirect("lobby:table", request_row.table_id)
    return redirect("social:search")


def quick_play(request: HttpRequest) -> HttpResponse:
    """`POST /tables/quick/` (the lobby delegates here): enter the search with his last choice."""
    try:
        row = queue.join(request.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
        return redirect("lobby:index")
    return _go(row)


def play(request: HttpRequest) -> HttpResponse:
    """«Играть» from the home page: logged out, a nick first (then back here, searching at once)."""
    if not request.user.is_authenticated:
        return redirect(f"{reverse('accounts:signup')}?{urlencode({'next': reverse('social:search') + '?start=1'})}")
    return search(request)


def _timer_text(row) -> str:
    """The search's one clock as the page first shows it (site.js ticks it on): the countdown to the
    bots when they are the fallback, else the wait so far."""
    if row is None:
        return ""
    waited = max(0, int((timezone.now() - row.queued_at).total_seconds()))
    if not row.bot_fill:
        return f"{waited // 60}:{waited % 60:02d}"
    left = max(0, row.bot_fill - waited)
    if not left:
        return _("bots are joining…")
    return _("bots join in {t}").replace("{t}", f"{left // 60}:{left % 60:02d}")


def search(request: HttpRequest) -> HttpResponse:
    """The waiting page: the choices, how many others search in his mode, a timer, «Отмена»."""
    if not request.user.is_authenticated:
        return redirect(f"{reverse('accounts:signup')}?next={reverse('social:search')}%3Fstart%3D1")
    row = queue.live_request(request.user.pk)
    if row is not None and row.status == SearchRequest.Status.MATCHED:
        return _go(row)
    choices = row.choices() if row is not None else queue.last_choices(request.user)
    me = request.user.pk
    party_state = party.state_for(me)
    return render(request, "social/search.html", {
        "row": row, "choices": choices, "party": party_state,
        "friends_online": [] if party_state else _online_friends(me), "others": queue.others_searching(row) if row else 0,
        "timer_text": _timer_text(row),
        "start": request.GET.get("start") == "1" and row is None,
        "modes": matching.MODES, "variants": [("", None), *[(v, None) for v in matching.VARIANTS]],
        "player_options": [0, *matching.PLAYERS], "decks": [0, *matching.DECKS],
        "timers": [0, *matching.TIMERS], "bot_fills": matching.BOT_FILLS,
    })


PARTY_FRIENDS_SHOWN = 20


def _online_friends(player_id: int) -> list:
    """His friends online now, by nick: whom he may invite into his party from the search page."""
    ids = people.friend_ids(player_id) & presence.online_ids()
    return list(Player.objects.filter(pk__in=ids).order_by("nick")[:PARTY_FRIENDS_SHOWN])


@_guarded
def search_start(request: HttpRequest) -> HttpResponse:
    raw: dict[str, Any] = {k: request.POST[k] for k in queue.DEFAULTS if k in request.POST}
    if request.POST.get("form") == "1":
        if "rated" not in raw:
            raw["rated"] = "0"  # an unticked box sends nothing
        if raw.get("mode") == matching.PAIRS_MODE:
            raw.pop("players", None)  # the form hides the number of players for pairs: always four
    return _go(queue.join(request.user, **raw))


@_guarded
def search_quick(request: HttpRequest) -> HttpResponse:
    """A quick-play button of one mode (the lobby's): his last choices in that mode."""
    return _go(queue.join(request.user, **queue.quick_choices(request.user, request.POST.get("mode"))))


@_guarded
def search_cancel(request: HttpRequest) -> HttpResponse:
    queue.cancel(request.user)
    return redirect("lobby:index")


def search_status(request: HttpRequest) -> JsonResponse:
    if not request.user.is_authenticated:
        return JsonResponse({"ok": False, **ServiceError("login_required").as_dict()}, status=403)
    return JsonResponse({"ok": True, "search": queue.status_for(request.user.pk)})


# ---------------------------------------------------------------- people


@login_required
def friends(request: HttpRequest) -> HttpResponse:
    me = cast(int, request.user.pk)  # login_required
    view = people.friends_view(me)
    online = presence.online_ids()
    ids = [p.pk for p in view["friends"]]
    states = presence.statuses(ids)
    rows = [{"player": p, "online": p.pk in online, **states[p.pk]} for p in view["friends"]]
    blocked = [b.blocked for b in Block.objects.filter(blocker_id=me).select_related("blocked")]
    invitations = (Invitation.objects.filter(guest_id=me, status=Invitation.Status.PENDING)
                   .select_related("host", "table"))
    return render(request, "social/friends.html", {
        "friends": rows, "incoming": view["incoming"], "outgoing": view["outgoing"], "blocked": blocked,
        "friends_only": people.invites_friends_only(me), "invitations": invitations,
        "party_invitations": party.pending_for(me), "sent_invitations": people.sent_by(me)})


def player(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's card: nick, rating, reliability, online status, and what you can do."""
    try:
        other = people.find_player(player_id)
    except ServiceError:
        raise Http404(str(ServiceError("player_not_found"))) from None
    me = request.user.pk if request.user.is_authenticated else None
    # where he is: to signed-in players he has not blocked (a block hides it; strangers see nothing)
    shown = me is not None and other.pk not in guards.hidden_players(me)
    state = presence.statuses([other.pk])[other.pk] if shown else {}
    code = reliability.mark(other.pk)
    return render(request, "social/player.html", {
        "other": other, "rating": Rating.objects.filter(player=other).values_list("value", flat=True).first()
        or START_RATING, "mark": code, "mark_label": reliability.label(code),
        "online": shown and presence.is_online(other.pk), "state": state,
        "relation": people.relation(me, other.pk) if me and me != other.pk else None})


@_guarded
def friend(request: HttpRequest, player_id: int) -> HttpResponse | None:
    op = request.POST.get("op")
    if op == "request":
        people.request_friend(request.user, player_id)
    elif op == "accept":
        people.accept_friend(request.user, player_id)
    elif op == "remove":
        people.remove_friend(request.user, player_id)
    else:
        raise ServiceError("bad_action")
    return None


@_guarded
def block(request: HttpRequest, player_id: int) -> HttpResponse | None:
    op = request.POST.get("op")
    if op == "block":
        people.block(request.user, player_id)
    elif op == "unblock":
        people.unblock(request.user, player_id)
    else:
        raise ServiceError("bad_action")
    return None


@_guarded
def invite(request: HttpRequest, player_id: int) -> HttpResponse | None:
    people.invite(request.user, player_id)
    if request.headers.get("Accept", "").startswith("application/json"):
        return JsonResponse({"ok": True})
    return None


@_guarded
def invitation(request: HttpRequest, invitation_id: int) -> HttpResponse | None:
    op = request.POST.get("op")
    if op not in ("accept", "decline"):
        raise ServiceError("bad_action")
    row = people.answer(request.user, invitation_id, op == "accept")
    if op == "accept":
        return redirect("lobby:table", row.table_id)
    return None


@_guarded
def invitation_withdraw(request: HttpRequest, invitation_id: int) -> HttpResponse | None:
    """The host takes back an invitation he sent (social.people.withdraw)."""
    people.withdraw(request.user, invitation_id)
    if request.headers.get("Accept", "").startswith("application/json"):
        return JsonResponse({"ok": True})
    return None


@_guarded
def preferences(request: HttpRequest) -> HttpResponse | None:
    value = request.POST.get("friends_only")
    if value not in ("0", "1"):
        raise ServiceError("bad_action")
    people.set_invites_friends_only(request.user, value == "1")
    return None


@_guarded
def reliable_only(request: HttpRequest, table_id: int) -> HttpResponse | None:
    value = request.POST.get("value")
    if value not in ("0", "1"):
        raise ServiceError("bad_action")
    people.set_reliable_only(request.user, table_id, value == "1")
    return None


def online(request: HttpRequest) -> HttpResponse:
    """Who is online: a page for a person (the whole list, searchable by nick), the lobby's online
    block as JSON for a script that asks for it (the socket sends the same). Nobody by name to a
    visitor who is not signed in, nobody who blocked the viewer (presence.summary_for)."""
    if "application/json" in request.headers.get("Accept", "") or request.GET.get("format") == "json":
        return JsonResponse({"ok": True, **presence.summary_for(request.user)})
    query = " ".join(request.GET.get("q", "").split())[:20]  # a nick is at most 20 characters
    players, matching_count = presence.online_people(query)
    if not request.user.is_authenticated:
        players, matching_count = [], 0
    else:
        hidden = guards.hidden_players(request.user.pk)
        shown = [p for p in players if p["id"] not in hidden]
        players, matching_count = shown, matching_count - (len(players) - len(shown))
    return render(request, "social/online.html", {
        "players": players, "query": query, "matching": matching_count,
        "summary": presence.summary_for(request.user), "limited": matching_count > len(players)})
