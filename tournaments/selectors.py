"""Reads for the pages: the next events, an event's page context, a player's podiums."""

from __future__ import annotations

from django.db.models import Prefetch, Q

from . import scoring, standings
from .live import TOP, running, sides
from .models import Entry, Tournament, TournamentGame, TournamentSeat


def next_events(player=None, limit: int = 3) -> list[Tournament]:
    """Public events not finished yet, soonest first, with `joined` for this player."""
    events = list(Tournament.objects.filter(status__in=(Tournament.Status.SCHEDULED, Tournament.Status.RUNNING))
                  .filter(Q(private=False) | Q(created_by_id=getattr(player, "pk", None)))
                  .order_by("starts_at", "pk")[:limit])
    joined = set()
    if player is not None and player.is_authenticated:
        joined = set(Entry.objects.filter(player=player, tournament__in=events).values_list("tournament_id",
                                                                                            flat=True))
    for e in events:
        e.joined = e.pk in joined
        e.players = e.entries.exclude(state__in=(Entry.State.REMOVED, Entry.State.WITHDRAWN)).count()
    return events


def recent_finished(limit: int = 10) -> list[Tournament]:
    return list(Tournament.objects.filter(status=Tournament.Status.FINISHED, private=False)
                .order_by("-finished_at")[:limit])


def page(event: Tournament, player) -> dict:
    lines = standings.lines(event)
    mine = None
    entry = None
    if player is not None and player.is_authenticated:
        entry = Entry.objects.filter(tournament=event, player=player).first()
        mine = next((ln for ln in lines if ln.player_id == player.pk), None)
    top = lines[:TOP]
    current = None
    if entry is not None and entry.state == Entry.State.PLAYING:
        current = (TournamentGame.objects.filter(tournament=event, status=TournamentGame.Status.PENDING)
                   .filter(TournamentGame.seating(player.pk)).first())
    # a game's seats, for each player's place and points at a table of 3 or 4
    seats = Prefetch("seats", queryset=TournamentSeat.objects.select_related("player").order_by("number"))
    playing = [{"table_id": table, "sides": sides(nicks, event.pairs)} for table, *nicks in running(event)]
    my_games = []
    if entry is not None:
        my_games = list(TournamentGame.objects.filter(tournament=event).exclude(status=TournamentGame.Status.PENDING)
                        .filter(TournamentGame.seating(player.pk)).select_related("player_a", "player_b").prefetch_related(seats)
                        .order_by("-finished_at")[:30])
    return {"event": event, "lines": top, "mine": mine if mine is not None and mine not in top else None,
            "my_line": mine, "entry": entry, "current": current, "running": playing,
            "my_games": [_as_mine(event, g, player.pk) for g in my_games], "players": len(lines),
            "podium": event.podium}


def _as_mine(event: Tournament, game: TournamentGame, player_id: int) -> dict:
    """One of his games as his list shows it: the opponent, his result and what it earned him."""
    side = game.side(player_id)
    opponent = game.player_b if side == "a" else game.player_a
    points = getattr(game, f"points_{side}")
    return {"opponent": getattr(opponent, "nick", None), "result": getattr(game, f"result_{side}"),
            "points": scoring.display(points) if event.is_swiss else str(points), "game_id": game.game_id,
            "void": game.status == TournamentGame.Status.VOID, "round": game.round}


def podiums_of(player_id: int, limit: int = 5) -> list[Entry]:
    """His top-three finishes, newest first (his profile)."""
    return list(Entry.objects.filter(player_id=player_id, place__lte=3, tournament__status=Tournament.Status.FINISHED)
                .exclude(state=Entry.State.REMOVED).select_related("tournament")
                .order_by("-tournament__finished_at")[:limit])
