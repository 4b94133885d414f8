"""The analysis page, the request button's endpoint and the progress fragment (thin views)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.services import client_ip
from durak_site.errors import ServiceError
from game import access
from game.models import Game
from ratings.services import seat_outcomes

from . import describe, services
from .charts import chance_chart
from .models import Analysis

MAX_ID = 2**63 - 1
STATUS_CODES = {"analysis_login": 403, "analysis_not_over": 409, "analysis_private": 403,
                "analysis_too_often": 429, "analysis_queue_full": 429, "game_not_found": 404}


def _game(request, game_id: int) -> Game:
    """The game of the page, or 404: also a private table's game for a stranger, as its replay."""
    if not 0 < game_id <= MAX_ID:
        raise Http404
    game = get_object_or_404(Game.objects.select_related("table"), pk=game_id)
    if not access.may_view_game(game, request.user, access.invited_tables(request)):
        raise Http404
    return game


def _names(game: Game) -> dict[int, str]:
    return {s.number: (s.player.nick if s.player else _("Bot %(n)s") % {"n": s.number})
            for s in game.seats.select_related("player").order_by("number")}


def _row(r: dict, names: dict[int, str], replay_url: str) -> dict:
    """One judged decision as the page shows it (percentages, the moves as words and cards)."""
    return {
        **r, "name": names.get(r["seat"], r["seat"]),
        "played_move": describe.move(r["played"]), "best_move": describe.move(r.get("best")),
        "percent": round(100 * r["chance"]), "best_percent": round(100 * r["best_chance"]),
        "drop_points": round(100 * r["drop"]), "drop_hw_points": round(100 * r["drop_half_width"], 1),
        "mark_label": describe.MARK_LABELS.get(r["mark"], ""), "pattern_label": describe.pattern(r.get("pattern", "")),
        "link": f"{replay_url}#step-{r['step'] - 1}",
    }


def _seat_blocks(game: Game, result: dict, names: dict[int, str]) -> list[dict]:
    replay_url = reverse("ratings:replay", args=[game.pk])
    outcomes = seat_outcomes(game)
    blocks = []
    for key, figures in result["seats"].items():
        seat = int(key)
        judged = [r for r in result["decisions"] if r["seat"] == seat and r["kind"] == "judged" and r["by"] == "player"]
        rows = [_row(r, names, replay_url) for r in judged]
        turning = next((r for r in rows if r["step"] == figures["turning"]), None)
        if turning:
            turning["what"] = turning["pattern_label"] or _("better: %(move)s") % {
                "move": describe.move_text(turning.get("best"))}
        patterns = figures.get("patterns") or {}
        common = max(patterns, key=lambda p: (patterns[p], p)) if patterns else ""
        blocks.append({
            "seat": seat, "name": names.get(seat, seat), "figures": figures,
            "accuracy": round(100 * figures["accuracy"]) if figures["accuracy"] is not None else None,
            "lost": outcomes.get(seat) == "loss", "chart": chance_chart(judged, result["events"], figures["turning"]),
            "turning": turning, "marked": [r for r in rows if r["mark"]],
            "common_pattern": describe.pattern(common) if patterns.get(common, 0) >= 2 else "",
            "bot_moves": figures.get("bot_moves", 0),
            "marks": [(m, describe.MARK_LABELS[m], figures["marks"].get(m, 0)) for m in describe.MARK_LABELS],
            "not_judged": sum(1 for r in result["decisions"] if r["seat"] == seat and r["kind"] not in ("judged",)),
        })
    return blocks


def _page(request, game: Game, *, problem: str = "", status: int = 200):
    analysis = services.analysis_for(game)
    names = _names(game)
    can_request = False
    if request.user.is_authenticated:
        try:
            services.check_may_request(game, request.user)
            can_request = True
        except ServiceError:
            pass
    context = {"game": game, "analysis": analysis, "problem": problem, "can_request": can_request,
               "finished": game.status == Game.Status.FINISHED, "trump": (game.initial_state or {}).get("trump", ""),
               "replay_url": reverse("ratings:replay", args=[game.pk]),
               "draw": bool((game.result or {}).get("draw"))}
    if analysis and analysis.status == Analysis.Status.DONE and analysis.result:
        context["blocks"] = _seat_blocks(game, analysis.result, names)
        marks = analysis.result["marks"]  # (a jsonb column keeps no key order: the order is ours)
        context["thresholds"] = [(m, label, round(100 * marks[m])) for m, label in describe.MARK_LABELS.items()]
        context["target_points"] = round(100 * analysis.result["budget"]["target"])
    return render(request, "analysis/page.html", context, status=status)


@require_GET
def page(request, game_id: int):
    return _page(request, _game(request, game_id))


@require_POST
def request_view(request, game_id: int):
    game = _game(request, game_id)
    try:
        services.request_analysis(game.pk, request.user, address=client_ip(request))
    except ServiceError as e:
        return _page(request, game, problem=e.message, status=STATUS_CODES.get(e.code, 400))
    return redirect(reverse("analysis:page", args=[game.pk]), permanent=False)


@require_POST
def settings_view(request):
    """The profile's switch "analyse my rated games automatically" (auto=1 / auto=0)."""
    raw = request.POST.get("auto", "")
    try:
        services.set_auto(request.user, {"1": True, "0": False}.get(raw, raw))
    except ServiceError as e:
        messages.error(request, e.message)
        status = STATUS_CODES.get(e.code, 400)
        if not request.user.is_authenticated:
            return HttpResponse(e.message, status=status)
    else:
        messages.success(request, _("Saved."))
    return redirect(reverse("accounts:profile"))


@require_GET
def progress(request, game_id: int):
    """The progress bar alone (htmx polls it every second); a finished analysis reloads the page."""
    game = _game(request, game_id)
    client = str(request.user.pk) if request.user.is_authenticated else request.META.get("REMOTE_ADDR", "")
    if not services.allowed_to_poll(client):
        return HttpResponse(_("Too many requests; the page will try again."), status=429,
                            headers={"Retry-After": "5"})
    analysis = services.analysis_for(game)
    response = render(request, "analysis/_progress.html", {"game": game, "analysis": analysis})
    if analysis is None or analysis.status in (Analysis.Status.DONE, Analysis.Status.FAILED):
        response["HX-Refresh"] = "true"
    return response
