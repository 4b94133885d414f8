"""Reads of an event's standings (no writes): the order, each line's marks, the tie-breaks.

Arena order: score, then performance (docs/TOURNAMENTS.md), then rating at joining. Swiss order:
score, then Buchholz, then Sonneborn–Berger, then rating. Removed players are struck: not listed.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import scoring
from .models import Entry, Tournament, TournamentGame

STRUCK = (Entry.State.REMOVED,)


@dataclass
class Line:
    place: int
    player_id: int
    nick: str
    score: int
    shown: str  # the score as people read it
    games: int
    streak: int
    on_fire: bool
    berserks: int
    marks: str
    state: str
    tiebreak: int
    tiebreak2: int = 0
    rating: int = 0


def _swiss_games(tournament: Tournament) -> list[scoring.SwissGame]:
    out = []
    for a, b, ra, rb in (TournamentGame.objects.filter(tournament=tournament)
                         .filter(status__in=(TournamentGame.Status.FINISHED, TournamentGame.Status.BYE))
                         .values_list("player_a_id", "player_b_id", "result_a", "result_b")):
        out.append(scoring.SwissGame(a, b, ra or scoring.BYE))
        if b is not None:
            out.append(scoring.SwissGame(b, a, rb))
    return out


def lines(tournament: Tournament) -> list[Line]:
    rows = list(Entry.objects.filter(tournament=tournament).exclude(state__in=STRUCK)
                .values_list("player_id", "player__nick", "score", "games", "wins", "draws", "streak", "berserks",
                             "opponents_rating", "marks", "state", "rating"))
    out: list[Line] = []
    if tournament.is_swiss:
        games = _swiss_games(tournament)
        scores = {r[0]: r[2] for r in rows}
        for pid, nick, score, n, _w, _d, streak, berserks, _opp, marks, state, rating in rows:
            out.append(Line(0, pid, nick, score, scoring.display(score), n, streak, False, berserks, marks, state,
                            scoring.buchholz(pid, games, scores), scoring.sonneborn_berger(pid, games, scores),
                            rating))
    else:
        for pid, nick, score, n, wins, draws, streak, berserks, opp, marks, state, rating in rows:
            out.append(Line(0, pid, nick, score, str(score), n, streak, scoring.on_fire(streak), berserks, marks,
                            state, scoring.performance(opp, n, wins, draws), 0, rating))
    out.sort(key=lambda ln: (-ln.score, -ln.tiebreak, -ln.tiebreak2, -ln.rating, ln.player_id))
    for place, line in enumerate(out, start=1):
        line.place = place
    return out


def ranks(tournament: Tournament) -> dict[int, int]:
    """{player id: place} (the arena pairer's order)."""
    return {line.player_id: line.place for line in lines(tournament)}
