"""Lobby pages (thin: every write goes through lobby.services)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Exists, OuterRef, Prefetch, Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.middleware import HtmxDetails

from accounts import services as accounts_services
from durak_site import ratelimit
from durak_site.errors import ServiceError
from game.engine.rules import RULE_CHOICES, Rules

from . import guards, pages, services
from .forms import FILTER_PLAYERS, FILTER_VARIANTS, TableSettingsForm
from .models import Seat, Table
from .presets import PRESETS
from .rule_texts import BOT_LEVELS, RULE_LABELS, TABLE_LABELS, value_label
from .table_settings import PRIVATE, TABLE_SETTINGS


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails  # django_htmx.middleware.HtmxMiddleware sets it

LIST_LIMIT = 60
INVITES_KEY = services.INVITES_KEY
VARIANT_NAMED_PRESETS = ("classic", "perevodnoy")  # their names already say the variant


# ---------------------------------------------------------------- helpers


def _summary(table: Table, viewer=None) -> dict:
    rules = {**Rules().to_dict(), **(table.rules or {})}
    preset = PRESETS.get(table.preset)
    seats = list(table.seats.all())
    return {
        "preset": preset.name if preset else _("custom rules"),
        "deck": value_label("deck_size", rules["deck_size"]),
        "variant": value_label("variant", rules["variant"]),
        # «Классический подкидной · подкидной» says it twice: a preset named after its variant
        "variant_in_name": bool(preset and preset.key in VARIANT_NAMED_PRESETS),
        "pairs": rules["pairs"],
        "pairs_in_name": bool(preset and preset.key == "pairs"),  # «Пара на пару 2×2 · … · пара на пару»
        "cheater": rules["cheater"],
        "memory_aid": rules["memory_aid"],
        "timer": table.turn_seconds,
        "humans": sum(1 for s in seats if s.player_id),
        "bots": sum(1 for s in seats if s.bot_level),
        "free": sum(1 for s in seats if s.is_free),
        "first_free": next((s.number for s in seats if s.is_free), None),  # «Сесть» in the list seats you here
        "seats": seats,
        "mine": bool(viewer is not None and viewer.is_authenticated
                     and any(s.player_id == viewer.pk for s in seats)),
    }


def _rows(table: Table) -> list[tuple]:
    """(label, value, help) for every setting of a table."""
    rules = {**Rules().to_dict(), **(table.rules or {})}
    preset = PRESETS.get(table.preset)
    rows = [
        (_("Preset"), preset.name if preset else _("custom rules"), preset.description if preset else ""),
        *[(s.label, s.label_of(getattr(table, s.key)), s.help) for s in TABLE_SETTINGS.values() if s is not PRIVATE],
    ]
    for key in RULE_CHOICES:
        label, help_text, _src = RULE_LABELS[key]
        rows.append((label, value_label(key, rules[key]), help_text))
    return rows


def _can_view(request: HttpRequest, table: Table) -> bool:
    if not table.private:
        return True
    code = request.GET.get("invite")
    if services.invite_code_ok(table, code):
        invites = set(request.session.get(INVITES_KEY, []))
        invites.add(table.pk)
        request.session[INVITES_KEY] = sorted(invites)
        return True
    if table.pk in request.session.get(INVITES_KEY, []):
        return True
    user = request.user
    return bool(user.is_authenticated and (user.pk == table.host_id or user.is_staff
                                           or table.seats.filter(player=user).exists()))


def _table_or_404(request: HttpRequest, table_id: int) -> Table:
    table = Table.objects.filter(pk=table_id).first()
    user = request.user
    if table is None or (user.is_authenticated and not user.is_staff and guards.table_hidden(table.pk, user.pk)):
        raise Http404(_("There is no such table."))  # one answer: a block is silent
    if not _can_view(request, table):
        raise Http404(_("This table is private: ask its host for the invite link."))
    return table


def _room_context(request: HttpRequest, table: Table, error: ServiceError | None = None) -> dict:
    seats = list(table.seats.select_related("player").order_by("number"))
    user = request.user
    me = next((s for s in seats if user.is_authenticated and s.player_id == user.pk), None)
    manager = user.is_authenticated and not table.matched and services.can_manage(table, user, seats)
    rules = {**Rules().to_dict(), **(table.rules or {})}
    blocker = services.start_blocker(table, seats) if table.status in services.OPEN_STATUSES else None
    bots = sum(1 for s in seats if s.bot_level)
    hidden = ({s.player_id for s in seats if s.player_id and s.player_id != getattr(user, "pk", None)}
              if services.names_hidden(table, seats) else set())
    invite_url = None
    if table.private and (manager or me is not None):
        invite_url = request.build_absolute_uri(reverse("lobby:table", args=[table.pk]) + f"?invite={table.invite_code}")
    return {
        "table": table,
        "seats": seats,
        "me": me,
        "manager": manager,
        "rules": rules,
        "summary": _summary(table),
        "blocker": blocker,
        "can_add_bot": manager and bots < table.seats_count - 1,
        "bot_levels": BOT_LEVELS.items(),
        "default_bot_level": services.DEFAULT_LEVEL,
        # the search or an event made a matched table and seated its players: its seat 1 created
        # nothing and nobody there sets the rules, so the room names no one for either
        "host_id": None if table.matched else table.host_id,
        "setter_id": None if table.matched else services.rules_setter_id(table, seats),
        "error": error,
        "invite_url": invite_url,
        "ready_locked": table.matched and table.status in (Table.Status.WAITING, Table.Status.COUNTDOWN),
        "hidden_players": hidden,  # a matched table's others, until everyone has arrived
        "server_now": services.db_now().isoformat(),
        "deadline": table.countdown_deadline.isoformat() if table.countdown_deadline else "",
        **_unrated_because(table, seats),
    }


def _unrated_because(table: Table, seats: list[Seat]) -> dict[str, str]:
    """Why the next game here will be unrated, as far as the room can tell before the start, and what
    the players can do about it (docs/RULES.md#ratings; the full rules, ratings.fairness, also judge
    its length, the pair's day and new accounts; the ratings app words the shared-address case)."""
    if not table.rated:
        return {"unrated_because": _("chosen in the search"), "unrated_help": ""}
    if any(s.bot_level for s in seats):
        return {"unrated_because": _("bots at the table"), "unrated_help": ""}
    notice = pages.rating_notice(sorted({s.player_id for s in seats if s.player_id}))
    why, help_text = notice or ("", "")
    return {"unrated_because": why, "unrated_help": help_text}


# ---------------------------------------------------------------- lobby list


def index(request: HtmxHttpRequest) -> HttpResponse:
    variant = request.GET.get("variant", "")
    players = request.GET.get("players", "")
    # a waiting table is listed only while a person at it has it open: his table socket keeps his
    # seat connected (an HTTP request does not), and the presence sweep clears it soon after
    someone_there = Exists(Seat.objects.filter(table=OuterRef("pk"), player__isnull=False, connected=True))
    tables = (Table.objects.exclude(status=Table.Status.CLOSED).filter(private=False)
              .filter(someone_there | Q(status__in=[Table.Status.PLAYING, Table.Status.REMATCH]))
              .exclude(matched=True, status=Table.Status.WAITING)  # its people are not told before they arrive
              .exclude(seats__player_id__in=guards.hidden_players(getattr(request.user, "pk", None)))
              .select_related("host")
              .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
              .annotate(free=Count("seats", filter=Q(seats__player__isnull=True, seats__bot_level="")))
              .order_by("status", "-free", "-created_at"))
    if variant in ("podkidnoy", "perevodnoy"):
        tables = tables.filter(rules__variant=variant)
    if players.isdigit():
        tables = tables.filter(seats_count=int(players))
    order: dict[str, int] = {Table.Status.WAITING: 0, Table.Status.COUNTDOWN: 1, Table.Status.REMATCH: 2, Table.Status.PLAYING: 3}
    rows = sorted(tables[:LIST_LIMIT], key=lambda t: (order.get(t.status, 9), -t.free, -t.created_at.timestamp()))
    context: dict[str, Any] = {
        "rows": [(t, _summary(t, request.user)) for t in rows],
        "variant": variant,
        "players": players,
        "variants": FILTER_VARIANTS,
        "player_options": FILTER_PLAYERS,
        "mine": None,
    }
    if request.user.is_authenticated:
        context["mine"] = (Seat.objects.filter(player=request.user, table__status__in=services.OPEN_STATUSES)
                           .select_related("table").first())
    if request.htmx:
        return render(request, "lobby/_table_list.html", context)
    return render(request, "lobby/index.html", context)


@require_POST
def quick_play(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        # After sign-up, come back to the lobby (a GET page), not to this POST-only URL.
        login_url = reverse(settings.LOGIN_URL)
        return redirect(f"{login_url}?{urlencode({'next': reverse('lobby:index')})}")
    delegated = pages.quick_play_page(request)  # the search for opponents, when an app above offers it
    if delegated is not None:
        return delegated
    try:
        table = services.quick_play(request.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
        return redirect("lobby:index")
    return redirect("lobby:table", table.pk)


@login_required
def create(request: HttpRequest) -> HttpResponse:
    form = TableSettingsForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            _check_table_allowance(request)
            table = services.create_table(request.user, **form.settings())
        except ServiceError as exc:
            form.add_error(None, str(exc))
            status = 429 if exc.code == "too_many_tables" else 200
        else:
            return redirect("lobby:table", table.pk)
    return render(request, "lobby/create.html", {"form": form, "presets": PRESETS.values()}, status=status)


def _check_table_allowance(request: HttpRequest) -> None:
    """New tables per player and per client address (a flood of tables fills the lobby)."""
    address = accounts_services.client_ip(request)
    if not (ratelimit.within("new-table", request.user.pk, settings.TABLE_LIMIT_PER_ACCOUNT)
            and ratelimit.within("new-table-address", address, settings.TABLE_LIMIT_PER_ADDRESS)):
        raise ServiceError("too_many_tables")


def join(request: HttpRequest, code: str) -> HttpResponse:
    table = Table.objects.filter(invite_code=code).exclude(status=Table.Status.CLOSED).first()
    if table is None or not services.invite_code_ok(table, code):
        raise Http404(_("This invite link is not valid any more."))
    return redirect(reverse("lobby:table", args=[table.pk]) + f"?invite={code}")


# ---------------------------------------------------------------- one table


def table(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _table_or_404(request, table_id)
    if table.status in (Table.Status.PLAYING, Table.Status.REMATCH):
        return pages.game_page(request, table)
    context = _room_context(request, table)
    context["ws_url"] = f"/ws/tables/{table.pk}/"
    context["room_config"] = {
        "ws_path": f"/ws/tables/{table.pk}/",
        "room_url": reverse("lobby:room", args=[table.pk]),
        "ping_url": reverse("lobby:ping", args=[table.pk]),
        "table_url": reverse("lobby:table", args=[table.pk]),
        "seated": context["me"] is not None,
        "strings": {"starting": _("Starting in"), "go": _("Dealing…"), "offline": _("Reconnecting…")},
    }
    return render(request, "lobby/table.html", context)


def room(request: HttpRequest, table_id: int) -> HttpResponse:
    """The waiting-room fragment (htmx). When a game runs, htmx is told to reload into the game table."""
    table = _table_or_404(request, table_id)
    if table.status in (Table.Status.PLAYING, Table.Status.REMATCH):
        response = HttpResponse(status=204)
        response["HX-Refresh"] = "true"
        return response
    return render(request, "lobby/_room.html", _room_context(request, table))


ACTIONS = {"sit", "stand", "add_bot", "remove_bot", "ready", "unready", "cancel"}


@require_POST
def act(request: HtmxHttpRequest, table_id: int) -> HttpResponse:
    """One waiting-room button. Answers with the fresh fragment (htmx) or a redirect."""
    table = _table_or_404(request, table_id)
    op = request.POST.get("op", "")
    error = None
    if not request.user.is_authenticated:
        error = ServiceError("login_required")
    elif op not in ACTIONS:
        error = ServiceError("bad_action")
    else:
        try:
            number = int(request.POST.get("seat", "0") or 0)
        except ValueError:
            number = 0
        user = request.user
        try:
            if op == "sit":
                services.sit(table.pk, user, number)
            elif op == "stand":
                services.stand(table.pk, user)
            elif op == "add_bot":
                services.add_bot(table.pk, user, number, request.POST.get("level", services.DEFAULT_LEVEL))
            elif op == "remove_bot":
                services.remove_bot(table.pk, user, number)
            elif op == "ready":
                services.set_ready(table.pk, user, True)
            elif op == "unready":
                services.set_ready(table.pk, user, False)
            elif op == "cancel":
                services.cancel_countdown(table.pk, user)
        except ServiceError as exc:
            error = exc
    table.refresh_from_db()
    if request.htmx:
        if table.status in (Table.Status.PLAYING, Table.Status.REMATCH):
            response = HttpResponse(status=204)
            response["HX-Refresh"] = "true"
            return response
        return render(request, "lobby/_room.html", _room_context(request, table, error))
    if error is not None:
        messages.error(request, str(error))
    if table.status == Table.Status.CLOSED and op == "stand":
        return redirect("lobby:index")
    return redirect("lobby:table", table.pk)


@require_POST
def ready(request: HttpRequest, table_id: int) -> HttpResponse:
    """«Готово» from the game table (rematch) — JSON answer; ready=0 takes it back."""
    table = _table_or_404(request, table_id)
    if not request.user.is_authenticated:
        return JsonResponse({"ok": False, "code": "login_required", "message": _("Sign in to play.")}, status=403)
    try:
        services.set_ready(table.pk, request.user, request.POST.get("ready", "1") != "0")
    except ServiceError as exc:
        return JsonResponse({"ok": False, **exc.as_dict()}, status=400)
    return JsonResponse({"ok": True})


@require_POST
def ping(request: HttpRequest, table_id: int) -> HttpResponse:
    """The waiting room's old HTTP heartbeat, answered for pages still open from before: presence is
    the table socket's alone (its pings), so a script's requests cannot keep a table listed."""
    return HttpResponse(status=204)


@login_required
def edit_rules(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _table_or_404(request, table_id)
    if table.status not in services.OPEN_STATUSES:
        return redirect("lobby:table", table.pk)
    form = TableSettingsForm.for_table(table, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.update_rules(table.pk, request.user, **form.settings(table))
        except ServiceError as exc:
            form.add_error(None, str(exc))
        else:
            return redirect("lobby:table", table.pk)
    return render(request, "lobby/edit_rules.html", {
        "form": form, "table": table, "presets": PRESETS.values(),
        "manager": not table.matched and services.can_manage(table, request.user)})


def table_rules(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _table_or_404(request, table_id)
    return render(request, "lobby/table_rules.html", {"table": table, "rows": _rows(table)})


def rules(request: HttpRequest) -> HttpResponse:
    defaults = Rules().to_dict()
    settings_rows = []
    for key in RULE_CHOICES:
        label, help_text, source = RULE_LABELS[key]
        settings_rows.append({
            "label": label, "help": help_text, "source": source,
            "default": value_label(key, defaults[key]),
            "values": [value_label(key, v) for v in RULE_CHOICES[key]],
        })
    preset_rows = []
    for p in PRESETS.values():
        changes = [f"{RULE_LABELS[k][0]}: {value_label(k, v)}" for k, v in p.rules.items()]
        if p.seats_count:
            changes.append(f"{TABLE_LABELS['seats_count'][0]}: {p.seats_count}")
        if p.series_length > 1:
            changes.append(f"{TABLE_LABELS['series_length'][0]}: {p.series_length}")
        preset_rows.append({"preset": p, "changes": changes})
    fair = {"min_rounds": settings.RATINGS_MIN_ROUNDS, "pair_games": settings.RATINGS_PAIR_GAMES_PER_DAY,
            "provisional_games": settings.RATINGS_PROVISIONAL_GAMES,
            "trust_games": settings.RATINGS_TRUST_OUTSIDE_GAMES, "trust_days": settings.RATINGS_TRUST_ACCOUNT_DAYS}  # docs/RULES.md#ratings, stated
    return render(request, "lobby/rules.html", {"settings_rows": settings_rows, "preset_rows": preset_rows,
                                                "table_rows": TABLE_LABELS.values(), "fair": fair})
