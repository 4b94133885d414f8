"""Reads for pages: the words for outcomes and unrated reasons, a game's outcomes, a table's series
standings, the club's tables, the moderators' list of suspicious pairs; no writes."""

from __future__ import annotations

from datetime import timedelta
from itertools import combinations
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from game import outcomes
from lobby.models import Seat
from ratings import fairness, known_pairs
from ratings.models import ClubStanding, GameRecord, Outcome, PlayerGame, Series
from ratings.services.club import CLUB_SIZE

UNRATED_REASONS = {
    "rating_off": _("chosen in the search"),
    "bots": _("bots at the table"),
    "too_short": _("too short"),
    "shared_address": _("players on one address"),
    "pair_limit": _("the same two players' daily limit"),
    "provisional": _("a new account's first games"),
    "aborted": _("the game was aborted"),
    "voided": _("voided by a moderator"),
    # codes that games recorded under earlier rules carry
    "one_human": _("fewer than two people played"),
    "joined_late": _("somebody joined after the start"),
    "round_one": _("the game ended in the first round"),
}
OUTCOME_LABELS = {
    outcomes.WON: _("won"),
    outcomes.DURAK: _("the durak"),
    outcomes.DRAW: _("draw"),
    outcomes.LEFT: _("left the game"),
    outcomes.LOST_ON_TIME: _("lost on time"),
    outcomes.DID_NOT_RETURN: _("did not return in time"),
    outcomes.BANNED: _("banned"),
    outcomes.ABORTED: _("game aborted"),
}


def outcome_label(code: str) -> str:
    """The translated words for a game.outcomes code ("" for none)."""
    label = OUTCOME_LABELS.get(code)
    return str(label) if label is not None else ""


def unrated_label(code: str) -> str:
    """The translated sentence for an unrated reason code (the code itself if unknown)."""
    label = UNRATED_REASONS.get(code)
    return str(label) if label is not None else code


def game_outcomes(game: Any) -> dict[int, str]:
    """{seat: game.outcomes code}: the one record in Game.result, or decided from the game's rows
    for a game finished before it was kept."""
    return outcomes.stored(game.result) or outcomes.for_game(game, aborted=game.status == "aborted")


board_outcome = fairness.board_outcome


def seat_outcomes(game: Any) -> dict[int, str]:
    """{seat: win / loss / draw} of a finished game (the counters, the series, the replay's colours)."""
    return {n: fairness.board_outcome(code) for n, code in game_outcomes(game).items()}


def table_id_of(table: Any) -> int:
    return int(getattr(table, "pk", table))


def open_series(table_id: int, lock: bool = False) -> Series | None:
    qs = Series.objects.filter(table_id=table_id, finished=False, broken=False)
    if lock:
        qs = qs.select_for_update()
    return qs.order_by("-pk").first()


def next_first_attacker(table: Any) -> int | None:
    """The seat that leads the next game of a running series (docs/RULES.md#series), or None (engine's own rule):
    game.services.start_game passes it to engine.new_game(first_attacker=...)."""
    table_id = table_id_of(table)
    series = open_series(table_id)
    if series is None or series.games_played == 0 or series.next_leader_seat is None:
        return None
    planned = {n: pid for n, pid, _bot in series.lineup}
    now = {s.number: s.player_id for s in Seat.objects.filter(table_id=table_id)}
    if any(now.get(n) != pid for n, pid in planned.items() if pid is not None):
        return None  # other people sit down: a new series will start with the engine's rule
    return series.next_leader_seat


def series_standings(table: Any) -> dict[str, Any] | None:
    """The latest series of a table (running or just finished) for the between-games panel: two
    queries whatever the number of games."""
    table_id = table_id_of(table)
    series = Series.objects.filter(table_id=table_id).order_by("-pk").first()
    if series is None:
        return None
    entries = list(series.entries.select_related("player").order_by("-score", "seat"))
    rank = 0
    prev = None
    for k, e in enumerate(entries, start=1):
        if e.score != prev:
            rank, prev = k, e.score
        e.rank = rank
        e.is_winner = e.seat in (series.winner_seats or [])
    leader = next((e for e in entries if e.seat == series.next_leader_seat), None)
    return {
        "series": series,
        "entries": entries,
        "leader": leader,
        "winner_entries": [e for e in sorted(entries, key=lambda x: x.seat) if e.is_winner],
        "running": not series.finished and not series.broken,
    }


def club_tables(limit_preliminary: int = 50) -> tuple[list[ClubStanding], list[ClubStanding]]:
    """The club (docs/RULES.md#quartet-club: its stored members in club order, see update_club; when the club is full the
    last member has ``candidate = True``, the candidate for elimination) and the preliminary table
    (every player without a full series who has not been excluded, newcomers in the club too, by
    average result, best first). Two queries."""
    club = list(ClubStanding.objects.filter(in_club=True).select_related("player")
                .order_by("club_place", "player_id")[:CLUB_SIZE])
    for k, row in enumerate(club, start=1):
        row.candidate = len(club) == CLUB_SIZE and k == len(club)
    prelim = list(ClubStanding.objects.filter(excluded=False, full_series=0, games__gt=0)
                  .select_related("player").order_by("-average", "-games", "player__nick")[:limit_preliminary])
    return club, prelim


class SuspiciousPair:
    """Two accounts' recent games together, for the moderators' list."""

    def __init__(self, a: Any, b: Any) -> None:
        self.a, self.b = a, b
        self.games: list[GameRecord] = []
        self.a_wins = self.b_wins = self.shared = self.rated = 0
        self.trust = ""  # what lets their games on one address be rated: known_pairs.MODERATOR / EVIDENCE

    @property
    def one_sided(self) -> bool:
        decided = self.a_wins + self.b_wins
        return decided >= 3 and max(self.a_wins, self.b_wins) >= 0.8 * decided


def suspicious_pairs(days: int = 7, min_games: int | None = None) -> list[SuspiciousPair]:
    """Pairs of accounts with many games together in the last `days`, one-sided results or a
    shared address: most suspicious first (shared address, then the most games). Two queries, and
    for each pair on one address what trusts it (a pair trusted on evidence from outside it is
    always listed: its games together are rated although one person may hold both accounts)."""
    min_games = settings.RATINGS_SUSPICIOUS_PAIR_GAMES if min_games is None else min_games
    since = timezone.now() - timedelta(days=days)
    records = {r.pk: r for r in GameRecord.objects.filter(finished_at__gte=since)}
    by_game: dict[int, list[PlayerGame]] = {}
    for line in PlayerGame.objects.filter(record_id__in=list(records)).select_related("player"):
        by_game.setdefault(line.record_id, []).append(line)
    pairs: dict[tuple[int, int], SuspiciousPair] = {}
    for game_id, lines in by_game.items():
        record = records[game_id]
        for x, y in combinations(sorted(lines, key=lambda ln: ln.player_id), 2):
            pair = pairs.setdefault((x.player_id, y.player_id), SuspiciousPair(x.player, y.player))
            pair.games.append(record)
            pair.a_wins += x.outcome == Outcome.WIN and y.outcome == Outcome.LOSS
            pair.b_wins += y.outcome == Outcome.WIN and x.outcome == Outcome.LOSS
            pair.shared += record.shared_address
            pair.rated += record.rated
    found = [p for p in pairs.values() if p.shared or len(p.games) >= min_games or p.one_sided]
    for p in found:
        if p.shared:
            p.trust = known_pairs.trust(p.a.pk, p.b.pk)
        p.games.sort(key=lambda r: r.finished_at, reverse=True)
    return sorted(found, key=lambda p: (-p.shared, -len(p.games), p.a.pk, p.b.pk))
