"""Leaderboard, profiles, replays, the club table and the series leader choice (thin views)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import EmptyPage, PageNotAnInteger, Paginator
from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_POST

from durak_site.errors import ServiceError
from game import access
from game.models import Game, GameSeat
from lobby.models import Table
from ratings import services
from ratings.charts import NARROW, WIDE, rating_chart
from ratings.models import START_RATING, VARIANTS, GameRecord, PlayerGame, Rating, RatingChange, RatingVariant
from ratings.replay import ReplayError, replay, round_starts

PER_PAGE = 25
RECENT_GAMES = 15
CHART_POINTS = 200


def variant_labels() -> dict[str, str]:
    return {"podkidnoy": _("Podkidnoy"), "perevodnoy": _("Perevodnoy")}


def _competition_ranks(rows: list, first_rank: int, offset: int) -> None:
    """Same rating → same rank; the next different rating gets its position (1, 2, 2, 4)."""
    prev = None
    for k, row in enumerate(rows):
        if prev is None:
            row.rank = first_rank
        elif row.value == prev.value:
            row.rank = prev.rank
        else:
            row.rank = offset + k + 1
        prev = row


def _page_or_first(request, paginator: Paginator, problems: list[str], message: str):
    """The ?page= asked for; a page that does not exist gets `message` in `problems`, page 1 and 404."""
    raw_page = request.GET.get("page", "1")
    try:
        return paginator.page(raw_page), 200
    except (PageNotAnInteger, EmptyPage):
        problems.append(message % {"page": raw_page[:20], "last": paginator.num_pages})
        return paginator.page(1), 404


def leaderboard(request):
    labels = variant_labels()
    variant = request.GET.get("variant", "")
    problems = []
    if variant and variant not in VARIANTS:
        problems.append(_("There is no variant “%(variant)s”; showing all games.") % {"variant": variant[:30]})
        variant = ""
    base = RatingVariant.objects.filter(variant=variant) if variant else Rating.objects.all()
    qs = base.filter(games__gt=0).select_related("player").order_by("-value", "-games", "player__nick")
    page, status = _page_or_first(request, Paginator(qs, PER_PAGE), problems, _(
        "There is no page “%(page)s” of the leaderboard (pages 1 to %(last)s); here is the first page."))
    rows = list(page.object_list)
    if rows:
        offset = page.start_index() - 1
        first = 1 if offset == 0 else qs.filter(value__gt=rows[0].value).count() + 1
        _competition_ranks(rows, first, offset)
    mine = my_rank = None
    if request.user.is_authenticated:
        mine = base.filter(player=request.user, games__gt=0).first()
        if mine is not None:
            my_rank = qs.filter(value__gt=mine.value).count() + 1
    return render(request, "ratings/leaderboard.html", {
        "page": page, "rows": rows, "variant": variant, "variants": [(v, labels[v]) for v in VARIANTS],
        "variant_label": labels.get(variant, ""), "problems": problems, "mine": mine, "my_rank": my_rank,
        "mine_on_page": any(r.player_id == getattr(request.user, "pk", None) for r in rows),
    }, status=status)


def profile(request, nick: str):
    Player = get_user_model()
    player = get_object_or_404(Player.objects.select_related("rating"), nick__iexact=nick)
    try:
        rating = player.rating
    except Rating.DoesNotExist:
        rating = Rating(player=player)
    labels = variant_labels()
    variants = [v for v in player.variant_ratings.all() if v.games]
    for v in variants:
        v.label = labels.get(v.variant, v.variant)
    favourite = max(variants, key=lambda v: (v.games, v.variant == "podkidnoy")) if variants else None
    changes = list(RatingChange.objects.filter(player=player, voided=False).order_by("-pk")
                   .values_list("rating_after", "delta", "created_at")[:CHART_POINTS])
    changes.reverse()
    points = []
    if changes:
        first_after, first_delta, first_when = changes[0]
        points = [(first_after - first_delta, None)] + [(after, when) for after, _d, when in changes]
    chart = rating_chart(points, WIDE)
    chart_narrow = rating_chart(points, NARROW)
    lines = _game_lines(_lines_queryset(player)[:RECENT_GAMES + 1])
    more_games = len(lines) > RECENT_GAMES
    return render(request, "ratings/profile.html", {
        "player": player, "rating": rating, "variants": variants, "favourite": favourite, "chart": chart,
        "chart_pair": [c for c in (chart, chart_narrow) if c], "lines": lines[:RECENT_GAMES],
        "more_games": more_games, "start_rating": START_RATING,
        "win_percent": rating.win_percent,
    })


def _lines_queryset(player):
    """A player's PlayerGame rows newest first, with their game and its seats (2 queries per slice)."""
    seats_qs = GameSeat.objects.select_related("player").order_by("number")
    return (PlayerGame.objects.filter(player=player).order_by("-finished_at", "-pk")
            .select_related("record", "record__game")
            .defer("record__game__state", "record__game__initial_state", "record__game__rules")
            .prefetch_related(Prefetch("record__game__seats", queryset=seats_qs)))


def _game_lines(lines) -> list:
    """Decorate PlayerGame rows (from _lines_queryset) for _game_line.html."""
    labels = variant_labels()
    lines = list(lines)
    for line in lines:
        seats = list(line.record.game.seats.all())
        line.partner = None
        if line.record.pairs:
            line.partner = next((s for s in seats if s.number != line.seat and s.number % 2 == line.seat % 2), None)
        line.opponents = [s for s in seats if s.number != line.seat and s is not line.partner]
        line.variant_label = labels.get(line.record.variant, line.record.variant)
        withheld = line.record.unrated_reason == "provisional" and not line.delta and line.reason != "draw"
        line.counted = line.record.rated and not withheld  # his rating moved (a provisional opponent's did not move it)
        line.unrated_label = services.unrated_label(line.record.unrated_reason) if not line.counted else ""
        line.reason_label = services.outcome_label(line.reason) if line.reason not in ("won", "durak", "draw") else ""
    return lines


def history(request, nick: str):
    """Every game of a player, newest first, paginated (bad page numbers: a message and page 1)."""
    player = get_object_or_404(get_user_model(), nick__iexact=nick)
    problems: list[str] = []
    page, status = _page_or_first(request, Paginator(_lines_queryset(player), PER_PAGE), problems, _(
        "There is no page “%(page)s” of this history (pages 1 to %(last)s); here is the first page."))
    lines = _game_lines(page.object_list)
    return render(request, "ratings/history.html", {"player": player, "page": page, "lines": lines,
                                                    "problems": problems}, status=status)


def game_replay(request, game_id: int):
    game = get_object_or_404(Game.objects.select_related("table"), pk=game_id)
    if not access.may_view_game(game, request.user, access.invited_tables(request)):
        raise Http404  # a private table's game: as if it did not exist
    seats = list(game.seats.select_related("player").order_by("number"))
    # Over = finished, or aborted (every human left): only then may every hand be shown.
    context = {"game": game, "seats": seats, "finished": game.status != Game.Status.PLAYING,
               "aborted": game.status == Game.Status.ABORTED}
    if not context["finished"]:
        # An unfinished game shows no card at all (not even the viewer's own: the table page does that).
        return render(request, "ratings/replay.html", context)
    record = GameRecord.objects.filter(game=game).first()
    deltas = {c.player_id: c for c in RatingChange.objects.filter(game=game)}
    codes = services.game_outcomes(game)
    for s in seats:
        s.outcome = services.board_outcome(codes[s.number]) if s.number in codes else None
        code = codes.get(s.number, "")  # the badge already says «Победа»/«Ничья»: no «Победа победа»
        s.reason_label = services.outcome_label(code) if code not in ("won", "draw") else ""
        s.change = deltas.get(s.player_id) if s.player_id else None
    events = list(game.events.order_by("seq").only("seq", "seat", "action"))
    try:
        frames, final = replay(game.initial_state, events)
    except (ReplayError, ValueError) as e:
        context["replay_error"] = str(e)
        return render(request, "ratings/replay.html", context)
    context.update({
        "record": record,
        "unrated_label": services.unrated_label(record.unrated_reason) if record and not record.rated else "",
        "frames": frames,
        "rounds": round_starts(frames),
        "reproduces": final.to_json() == game.state,
        "seat_names": {str(s.number): (s.player.nick if s.player else _("Bot %(n)s") % {"n": s.number})
                       for s in seats},  # a bot is named by its seat, as at the table
        "replay_labels": {
            "attack": _("attacks with"), "defend": _("covers"), "with_card": pgettext("replay: covers 6♣ with 10♥", "with"),
            "game_over": _("the game is over"), "transfer": _("transfers with"),
            "take": _("takes the cards"), "pass": _("passes"), "swap_trump": _("swaps the trump for"),
            "catch": _("catches"), "resign": _("leaves the game"), "end_check": _("the round closes"),
            "set_bot_seats": _("a bot takes a seat over"), "set_bots": _("seats played by bots now"), "deal": _("The deal"), "round": _("Round"),
            "step": _("Step"), "of": _("of"), "stock": _("Stock"), "discard": _("Discard"),
            "attacker": _("attacks"), "defender": _("defends"), "out": _("out"), "play": _("Play"),
            "pause": _("Pause"), "draw": _("Draw"), "winner": _("won"), "loser": _("lost"), "trump": _("Trump"),
            "empty_hand": _("no cards"), "taking": _("takes"),
            "throw_in": _("throws in"), "round_begins": _("round {n} begins"),
        },
    })
    return render(request, "ratings/replay.html", context)


def _ranks_by(rows: list, key) -> None:
    """Competition ranks (1, 2, 2, 4) by ``key`` over rows already sorted best first."""
    prev = None
    for k, row in enumerate(rows, start=1):
        row.rank = prev.rank if prev is not None and key(row) == key(prev) else k
        prev = row


def club(request):
    club_rows, prelim = services.club_tables()  # the club comes in its stored order (places 1..10)
    _ranks_by(prelim, lambda r: r.average)
    return render(request, "ratings/club.html", {
        "club": club_rows, "prelim": prelim, "club_size": services.CLUB_SIZE,
        "free_places": services.CLUB_SIZE - len(club_rows),
        "has_newcomers": any(r.club_newcomer for r in club_rows),
    })


def series(request, table_id: int):
    """The standings of a table's latest series on their own page (spectators, links from the lobby)."""
    if not access.may_view_table(table_id, request.user, access.invited_tables(request)):
        raise Http404  # a private table: as if it did not exist
    table = get_object_or_404(Table, pk=table_id)
    return render(request, "ratings/series.html", {"table": table})


@require_POST
@login_required
def choose_leader(request, table_id: int):
    if not access.may_view_table(table_id, request.user, access.invited_tables(request)):
        raise Http404  # a private table: as if it did not exist
    raw = request.POST.get("seat", "")
    try:
        seat = int(raw)
    except ValueError:
        seat = raw
    try:
        services.choose_series_leader(table_id, request.user, seat)
    except ServiceError as e:
        messages.error(request, e.message)
    else:
        messages.success(request, _("Saved: that player leads the next game."))
    nxt = request.POST.get("next", "")
    if nxt and url_has_allowed_host_and_scheme(nxt, allowed_hosts={request.get_host()},
                                               require_https=request.is_secure()):
        return redirect(nxt)
    try:
        return redirect(reverse("lobby:table", args=[table_id]))
    except NoReverseMatch as e:
        raise Http404 from e
