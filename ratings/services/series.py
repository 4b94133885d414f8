"""Series (docs/RULES.md#series): each game of a table's series scored, the series completed or broken, the club
re-ranked, and the winners' choice of who leads the next game."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q

from durak_site.errors import ServiceError
from game.models import Game
from lobby.models import Table
from ratings.models import SERIES_STEP, ClubStanding, Outcome, Series, SeriesEntry, SeriesGame
from ratings.services.club import CLUB_SIZE, MEMBERSHIP_FIELDS, lock_club, membership, update_club
from ratings.services.selectors import next_first_attacker, open_series, table_id_of

SERIES_DELTA: dict[str, int] = {Outcome.WIN: SERIES_STEP, Outcome.LOSS: -SERIES_STEP, Outcome.DRAW: 0}


def _lineup(seats: Any) -> list[list[Any]]:
    return sorted([[s.number, s.player_id, "" if s.player_id else (s.bot_level or "bot")] for s in seats])


def record_series_game(game: Any, seats: Any, outcomes: dict[int, str], finished_at: Any) -> None:
    """One game of a series, in the order of its rules (docs/RULES.md#series): the game belongs to the table's open
    series of these players (or starts one); each player scores it; leaving breaks the series and
    excludes the leaver from the club; a complete series counts in full; the club is re-ranked; the
    winners choose who leads the next game. A game a moderator stopped is no game of the series."""
    if (game.result or {}).get("reason") == "aborted":
        return
    length = _series_length(game.table_id)
    if length <= 1:
        return
    series = _series_for(game, seats, length)
    series.games_played += 1
    SeriesGame.objects.create(series=series, game_id=game.pk, number=series.games_played)
    entries = list(series.entries.select_for_update().order_by("seat"))
    members, club = _lock_club_rows(entries)
    left = set((game.result or {}).get("left") or [])
    for e in entries:
        own = club.get(e.player_id) if e.player_id is not None else None
        _score_game(series, e, outcomes.get(e.seat, Outcome.DRAW), e.seat in left, own,
                    finished_at)
    complete = series.games_played >= series.length and not series.broken
    if complete:
        _complete_series(series, entries, club, finished_at)
    _rerank_club(members, club, complete, finished_at)
    _winners_choose_leader(series, game, outcomes)
    series.save()


def _series_length(table_id: int) -> int:
    return Table.objects.filter(pk=table_id).values_list("series_length", flat=True).first() or 1


def _series_for(game: Any, seats: Any, length: int) -> Series:
    """The table's open series if the same people play it, else a new one (other people break it)."""
    lineup = _lineup(seats)
    series = open_series(game.table_id, lock=True)
    if series is not None and series.lineup == lineup:
        return series
    if series is not None:
        series.broken = True  # other people now: that series stops here, a new one starts
        series.save(update_fields=["broken"])
    series = Series.objects.create(table_id=game.table_id, length=length,
                                   pairs=bool((game.rules or {}).get("pairs")), lineup=lineup)
    SeriesEntry.objects.bulk_create([
        SeriesEntry(series=series, seat=s.number, player_id=s.player_id,
                    bot_level="" if s.player_id else (s.bot_level or "bot"))
        for s in seats
    ])
    return series


def _lock_club_rows(entries: Any) -> tuple[list[ClubStanding], dict[int, ClubStanding]]:
    """(the club's members in club order, {player id: ClubStanding} of this game's people), locked."""
    humans = sorted(e.player_id for e in entries if e.player_id)
    lock_club()  # before any ClubStanding row: the membership below touches other players' rows
    ClubStanding.objects.bulk_create([ClubStanding(player_id=i) for i in humans], ignore_conflicts=True)
    rows = list(ClubStanding.objects.select_for_update().filter(Q(player_id__in=humans) | Q(in_club=True))
                .order_by("player_id"))
    human_ids = set(humans)
    members = sorted((c for c in rows if c.in_club), key=lambda c: (c.club_place or CLUB_SIZE + 1, c.player_id))
    return members, {c.player_id: c for c in rows if c.player_id in human_ids}


def _score_game(series: Series, e: SeriesEntry, outcome: str, left: bool, c: ClubStanding | None, when: Any) -> None:
    """The losing pair pays 20, 10 to each winner (docs/RULES.md#series); leaving breaks the series and the club."""
    points = SERIES_DELTA[outcome]
    e.games += 1
    e.score += points
    _count_series(e, outcome)
    if left:
        e.left = True
        series.broken = True  # leaving before the game ends breaks the series (docs/RULES.md#series)
    e.save()
    if c is None:
        return
    c.games += 1
    c.score += points
    c.average = c.score / c.games
    c.last_played = when
    if left and not c.excluded:
        c.excluded = True  # docs/RULES.md#quartet-club: a leaver is excluded
        c.excluded_at = when


def _count_series(entry: SeriesEntry, outcome: str) -> None:
    if outcome == Outcome.WIN:
        entry.wins += 1
    elif outcome == Outcome.LOSS:
        entry.losses += 1
    else:
        entry.draws += 1


def _complete_series(series: Series, entries: Any, club: dict[int, ClubStanding], when: Any) -> None:
    """A cycle of the full length: each person's full-series average counts for the club."""
    series.finished = True
    series.finished_at = when
    for e in entries:
        if e.player_id:
            c = club[e.player_id]
            c.full_series += 1
            c.full_games += e.games
            c.full_score += e.score
            c.full_average = c.full_score / c.full_games


def _rerank_club(members: list[ClubStanding], club: dict[int, ClubStanding], complete: bool, when: Any) -> None:
    before = {m.player_id: membership(m) for m in members}
    update_club(members, [club[i] for i in sorted(club)], complete, when)
    for c in club.values():
        c.save()
    others = [m for m in members if m.player_id not in club and membership(m) != before[m.player_id]]
    if others:
        ClubStanding.objects.bulk_update(others, MEMBERSHIP_FIELDS)


def _winners_choose_leader(series: Series, game: Any, outcomes: dict[int, str]) -> None:
    """The winners choose who of them leads next (docs/RULES.md#series); until they do, the first of them out."""
    winners = sorted(n for n, o in outcomes.items() if o == Outcome.WIN)
    series.winner_seats = winners
    out_order = [n for n in ((game.state or {}).get("out") or []) if n in winners]
    series.next_leader_seat = (out_order[0] if out_order else winners[0]) if winners else None
    series.next_leader_chosen_by = None


def _table_playing(table_id: int) -> bool:
    return Game.objects.filter(table_id=table_id, status=Game.Status.PLAYING).exists()


@transaction.atomic
def choose_series_leader(table: Any, by_player: Any, seat: int) -> Series:
    """The winners' pair (docs/RULES.md#series) chooses which of them leads the next game of the series."""
    table_id = table_id_of(table)
    series = open_series(table_id, lock=True)
    if series is None or series.games_played == 0:
        raise ServiceError("no_series")
    if _table_playing(table_id):
        raise ServiceError("series_game_started")
    if not series.winner_seats:
        raise ServiceError("no_winners")
    by_id = getattr(by_player, "pk", None)
    mine = (series.entries.filter(player_id=by_id, seat__in=series.winner_seats).first()
            if by_id is not None else None)
    if mine is None:
        raise ServiceError("not_winner")
    if type(seat) is not int or seat not in series.winner_seats:
        raise ServiceError("bad_seat")
    series.next_leader_seat = seat
    series.next_leader_chosen_by = by_player
    series.save(update_fields=["next_leader_seat", "next_leader_chosen_by"])
    return series


def on_choose_first_attacker(sender: Any, table_id: int, players: int, **kwargs: Any) -> int | None:
    """game.signals.choose_first_attacker: in a running series the winners chose the next leader."""
    return next_first_attacker(table_id)
