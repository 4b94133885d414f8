"""The only writer of the ratings models: game results, rating changes, voiding and series.

``record_game_result(game)`` runs on game.signals.game_finished, inside the transaction that finishes a
game; it is idempotent (a second call returns the first record and pays nothing). Everything that
pages read (ratings, counts, series scores, club averages and club membership) is kept in columns
here, so pages never scan the history.
"""

from __future__ import annotations

from datetime import timedelta
from itertools import combinations

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from game import outcomes
from game import services as game_services
from ratings import fairness
from ratings.errors import ServiceError
from ratings.models import (
    RATING_STEP,
    SERIES_STEP,
    START_RATING,
    VARIANTS,
    ClubStanding,
    GameRecord,
    Outcome,
    PlayerGame,
    Rating,
    RatingChange,
    RatingVariant,
    Series,
    SeriesEntry,
    SeriesGame,
)

UNRATED_REASONS = {
    "bots": _("bots at the table"),
    "too_short": _("too short"),
    "shared_address": _("players on one address"),
    "pair_limit": _("the same two players' daily limit"),
    "provisional": _("a new account's first games"),
    "aborted": _("the game was aborted"),
    "voided": _("voided by a moderator"),
    # codes of games recorded before issue 13
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


RATING_DELTA = {Outcome.WIN: RATING_STEP, Outcome.LOSS: -RATING_STEP, Outcome.DRAW: 0}
SERIES_DELTA = {Outcome.WIN: SERIES_STEP, Outcome.LOSS: -SERIES_STEP, Outcome.DRAW: 0}
CLUB_SIZE = 10


def unrated_label(code: str) -> str:
    """The translated sentence for an unrated reason code (the code itself if unknown)."""
    label = UNRATED_REASONS.get(code)
    return str(label) if label is not None else code


# ----------------------------------------------------------------------------- outcomes

def game_outcomes(game) -> dict[int, str]:
    """{seat: game.outcomes code}: the one record in Game.result, or decided from the game's rows
    for a game finished before it was kept."""
    return outcomes.stored(game.result) or outcomes.for_game(game, aborted=game.status == "aborted")


board_outcome = fairness.board_outcome


def seat_outcomes(game) -> dict[int, str]:
    """{seat: win / loss / draw} of a finished game (the counters, the series, the replay's colours)."""
    return {n: fairness.board_outcome(code) for n, code in game_outcomes(game).items()}


def _lock_ratings(player_ids: list[int], variant: str) -> tuple[dict, dict]:
    """Rating and RatingVariant rows of these players, created at 1000 if missing, locked in id order."""
    ids = sorted(set(player_ids))
    Rating.objects.bulk_create([Rating(player_id=i) for i in ids], ignore_conflicts=True)
    RatingVariant.objects.bulk_create([RatingVariant(player_id=i, variant=variant) for i in ids],
                                      ignore_conflicts=True)
    ratings = {r.player_id: r for r in Rating.objects.select_for_update().filter(player_id__in=ids)
               .order_by("player_id")}
    variants = {r.player_id: r for r in RatingVariant.objects.select_for_update()
                .filter(player_id__in=ids, variant=variant).order_by("player_id")}
    return ratings, variants


def _count(row, outcome: str, sign: int) -> None:
    field = {Outcome.WIN: "wins", Outcome.LOSS: "losses", Outcome.DRAW: "draws"}[outcome]
    setattr(row, field, max(0, getattr(row, field) + sign))
    row.games = max(0, row.games + sign)


# ----------------------------------------------------------------------------- recording

@transaction.atomic
def record_game_result(game, seats: list | None = None) -> GameRecord:
    """Record a finished game exactly once: rated or not (and why, ratings.fairness), every human's
    outcome and reason (game.outcomes), the rating changes and the series score (003). Returns the
    GameRecord with ``seat_changes`` ({seat: (change, rating after)}), which game.services copies
    into Game.result["outcomes"] for the result dialog and the header.

    Calling it again for the same game returns the first record and changes nothing. ``seats`` are
    the game's GameSeat rows with their players, when the caller has them (game.signals).
    """
    from game.models import Game  # noqa: PLC0415 (ratings depends on game, not the reverse)

    # The game row lock serialises two finishes of the same game (game.services already holds it).
    Game.objects.select_for_update().filter(pk=game.pk).values_list("pk", flat=True).first()
    existing = GameRecord.objects.filter(game_id=game.pk).first()
    if existing is not None:
        existing.seat_changes = _seat_changes(existing)
        return existing
    if not game.result:
        raise ServiceError("not_finished", _("This game has not finished yet."))

    rules = game.rules or {}
    variant = rules.get("variant") if rules.get("variant") in VARIANTS else VARIANTS[0]
    finished_at = game.finished_at = game.finished_at or timezone.now()
    seats = list(game.seats.select_related("player")) if seats is None else seats
    humans = [s for s in seats if s.player_id is not None and not s.bot_level]
    codes = game_outcomes(game)
    verdict = fairness.judge(game, humans, codes, seats)
    record = GameRecord.objects.create(
        game_id=game.pk, table_id=game.table_id, variant=variant, pairs=bool(rules.get("pairs")),
        rated=verdict.rated, unrated_reason=verdict.reason, draw=bool(game.result.get("draw")),
        shared_address=verdict.shared_address, finished_at=finished_at,
    )
    record.seat_changes = _pay(game, humans, codes, verdict.deltas, variant, finished_at)
    PlayerGame.objects.bulk_create([
        PlayerGame(record=record, player_id=s.player_id, seat=s.number, outcome=fairness.board_outcome(codes[s.number]),
                   reason=codes[s.number], delta=verdict.deltas.get(s.player_id, 0),
                   left=codes[s.number] in outcomes.LOST_BY_DEFAULT, finished_at=finished_at)
        for s in humans
    ])
    _record_series_game(game, seats, {n: fairness.board_outcome(c) for n, c in codes.items()}, finished_at)
    return record


def _pay(game, humans, codes: dict[int, str], deltas: dict[int, int], variant: str, when) -> dict:
    """Apply each rating change (overall and the variant's); {seat: (change, rating after)}."""
    paying = [s for s in humans if s.player_id in deltas]
    if not paying:
        return {}
    results = {s.player_id: (deltas[s.player_id], fairness.board_outcome(codes[s.number])) for s in paying}
    after = _add_results(Rating, {}, results, when)
    _add_results(RatingVariant, {"variant": variant}, results, when)
    RatingChange.objects.bulk_create([
        RatingChange(game_id=game.pk, player_id=p, delta=delta, rating_after=after[p], outcome=outcome)
        for p, (delta, outcome) in results.items()
    ])
    return {s.number: (deltas[s.player_id], after[s.player_id]) for s in paying}


COUNTERS = {Outcome.WIN: "wins", Outcome.LOSS: "losses", Outcome.DRAW: "draws"}


def _add_results(model, key: dict, results: dict[int, tuple[int, str]], when) -> dict[int, int]:
    """One statement per standing table: each player's row moved by his change, his game counted, a
    row created at START_RATING on his first game; {player: value after}. A game's end runs inside a
    move, where each ORM statement costs about a millisecond of the web process's CPU (the lock,
    the insert of missing rows and two saves per player were eight statements). Rows are written in
    player order, the order void_game locks them in."""
    table = connection.ops.quote_name(model._meta.db_table)
    conflict = ["player_id", *key]
    columns = [*conflict, "value", "games", *COUNTERS.values(), "last_played"]
    played = model._meta.get_field("last_played").get_db_prep_save(when, connection)
    params: list = []
    for player_id in sorted(results):
        delta, outcome = results[player_id]
        params += [player_id, *key.values(), START_RATING + delta, 1,
                   *(int(outcome == o) for o in COUNTERS), played]
    row = "(" + ", ".join(["%s"] * len(columns)) + ")"
    sql = (f"INSERT INTO {table} ({', '.join(columns)}) VALUES {', '.join([row] * len(results))} "
           f"ON CONFLICT ({', '.join(conflict)}) DO UPDATE SET "
           f"value = {table}.value + EXCLUDED.value - {START_RATING}, "
           + "".join(f"{c} = {table}.{c} + EXCLUDED.{c}, " for c in ("games", *COUNTERS.values()))
           + "last_played = EXCLUDED.last_played RETURNING player_id, value")
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return dict(cursor.fetchall())


def _seat_changes(record: GameRecord) -> dict:
    seats = dict(record.lines.values_list("player_id", "seat"))
    return {seats[c.player_id]: (c.delta, c.rating_after)
            for c in RatingChange.objects.filter(game_id=record.game_id, voided=False) if c.player_id in seats}


# ----------------------------------------------------------------------------- voiding

@transaction.atomic
def void_game(game, by, reason: str) -> GameRecord:
    """A moderator cancels a rated game's rating changes (each reversed, the reason kept)."""
    game_id = game if isinstance(game, int) else game.pk  # a Game or its id
    if by is None or not (by.is_staff or by.is_superuser):
        raise ServiceError("not_moderator", _("Only moderators can void a game's rating."))
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("reason_required", _("Give a reason for voiding the game's rating."))
    record = GameRecord.objects.select_for_update().filter(game_id=game_id).first()
    if record is None:
        raise ServiceError("not_recorded", _("This game has no recorded result, so there is nothing to void."))
    if record.voided_at is not None:
        raise ServiceError("already_voided", _("This game's rating was already voided on %(when)s: %(reason)s")
                           % {"when": timezone.localtime(record.voided_at).strftime("%Y-%m-%d %H:%M"),
                              "reason": record.void_reason})
    changes = list(RatingChange.objects.filter(game_id=game_id, voided=False))
    if not changes:  # an unrated game whose leaver paid nothing either
        raise ServiceError("unrated", _("This game was not rated (%(why)s), so there is nothing to void.")
                           % {"why": unrated_label(record.unrated_reason)})
    ratings, variant_rows = _lock_ratings([c.player_id for c in changes], record.variant)
    for c in changes:
        for row in (ratings[c.player_id], variant_rows[c.player_id]):
            row.value -= c.delta
            _count(row, c.outcome, -1)
            row.save()
    RatingChange.objects.filter(pk__in=[c.pk for c in changes]).update(voided=True)
    for c in changes:  # later points of each player's chart move by the reversed delta too
        if c.delta:
            RatingChange.objects.filter(player_id=c.player_id, pk__gt=c.pk).update(
                rating_after=F("rating_after") - c.delta)
    record.voided_at = timezone.now()
    record.voided_by = by
    record.void_reason = reason[:300]
    record.rated, record.unrated_reason = False, fairness.VOIDED
    record.save(update_fields=["voided_at", "voided_by", "void_reason", "rated", "unrated_reason"])
    game_services.record_void(game_id)  # the game's one record (result dialog, replay) says so too
    return record


# ----------------------------------------------------------------------------- series (003)

def _lineup(seats) -> list[list]:
    return sorted([[s.number, s.player_id, "" if s.player_id else (s.bot_level or "bot")] for s in seats])


def _table_id(table) -> int:
    return int(getattr(table, "pk", table))


def _open_series(table_id: int, lock: bool = False) -> Series | None:
    qs = Series.objects.filter(table_id=table_id, finished=False, broken=False)
    if lock:
        qs = qs.select_for_update()
    return qs.order_by("-pk").first()


def _record_series_game(game, seats, outcomes: dict[int, str], finished_at) -> None:
    """003, one game of a series, in the order of its rules: the game belongs to the table's open
    series of these players (or starts one); each player scores it; leaving breaks the series and
    excludes the leaver from the club; a complete series counts in full; the club is re-ranked; the
    winners choose who leads the next game."""
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
        _score_game(series, e, outcomes.get(e.seat, Outcome.DRAW), e.seat in left, club.get(e.player_id),
                    finished_at)
    complete = series.games_played >= series.length and not series.broken
    if complete:
        _complete_series(series, entries, club, finished_at)
    _rerank_club(members, club, complete, finished_at)
    _winners_choose_leader(series, game, outcomes)
    series.save()


def _series_length(table_id: int) -> int:
    from lobby.models import Table  # noqa: PLC0415

    return Table.objects.filter(pk=table_id).values_list("series_length", flat=True).first() or 1


def _series_for(game, seats, length: int) -> Series:
    """The table's open series if the same people play it, else a new one (other people break it)."""
    lineup = _lineup(seats)
    series = _open_series(game.table_id, lock=True)
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


def _lock_club_rows(entries) -> tuple[list[ClubStanding], dict[int, ClubStanding]]:
    """(the club's members in club order, {player id: ClubStanding} of this game's people), locked."""
    humans = sorted(e.player_id for e in entries if e.player_id)
    _lock_club()  # before any ClubStanding row: the membership below touches other players' rows
    ClubStanding.objects.bulk_create([ClubStanding(player_id=i) for i in humans], ignore_conflicts=True)
    rows = list(ClubStanding.objects.select_for_update().filter(Q(player_id__in=humans) | Q(in_club=True))
                .order_by("player_id"))
    human_ids = set(humans)
    members = sorted((c for c in rows if c.in_club), key=lambda c: (c.club_place or CLUB_SIZE + 1, c.player_id))
    return members, {c.player_id: c for c in rows if c.player_id in human_ids}


def _score_game(series: Series, e: SeriesEntry, outcome: str, left: bool, c: ClubStanding | None, when) -> None:
    """The losing pair pays 20, 10 to each winner (003); leaving breaks the series and the club."""
    points = SERIES_DELTA[outcome]
    e.games += 1
    e.score += points
    _count_series(e, outcome)
    if left:
        e.left = True
        series.broken = True  # 003: leaving before the game ends breaks the series
    e.save()
    if c is None:
        return
    c.games += 1
    c.score += points
    c.average = c.score / c.games
    c.last_played = when
    if left and not c.excluded:
        c.excluded = True  # 003: «в противном случае Вы исключаетесь из клуба»
        c.excluded_at = when


def _complete_series(series: Series, entries, club: dict[int, ClubStanding], when) -> None:
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


def _rerank_club(members: list[ClubStanding], club: dict[int, ClubStanding], complete: bool, when) -> None:
    before = {m.player_id: _membership(m) for m in members}
    _update_club(members, [club[i] for i in sorted(club)], complete, when)
    for c in club.values():
        c.save()
    others = [m for m in members if m.player_id not in club and _membership(m) != before[m.player_id]]
    if others:
        ClubStanding.objects.bulk_update(others, MEMBERSHIP_FIELDS)


def _winners_choose_leader(series: Series, game, outcomes: dict[int, str]) -> None:
    """003: the winners choose who of them leads next; until they do, the first of them out."""
    winners = sorted(n for n, o in outcomes.items() if o == Outcome.WIN)
    series.winner_seats = winners
    out_order = [n for n in ((game.state or {}).get("out") or []) if n in winners]
    series.next_leader_seat = (out_order[0] if out_order else winners[0]) if winners else None
    series.next_leader_chosen_by = None


# ----------------------------------------------------------------------------- the club (003)

CLUB_LOCK = 0x6475726B636C7562  # "durkclub": the key of the club's advisory lock on Postgres
MEMBERSHIP_FIELDS = ["in_club", "club_place", "club_since", "club_newcomer"]


def _lock_club() -> None:
    """One club, so one writer of its membership at a time: a transaction-level advisory lock on
    Postgres, taken before any ClubStanding row is locked (so two finishing games never deadlock
    over each other's players). SQLite lets only one transaction write at a time anyway."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [CLUB_LOCK])


def _membership(c: ClubStanding) -> tuple:
    return tuple(getattr(c, f) for f in MEMBERSHIP_FIELDS)


def _full_series_key(c: ClubStanding) -> tuple:
    return (-c.full_average, -c.full_games)


def _update_club(members: list[ClubStanding], played: list[ClubStanding], series_complete: bool, when) -> None:
    """Club membership after one series game (003, the Quartet's rule page), set on the rows in place.

    «Если Вы сыграли цикл из 30-ти конов, и Ваш результат оказался в десятке лучших, то Ваше имя
    заносится в таблицу лучших игроков. [...] Последний член клуба - кандидат на выбывание: любой
    новый игрок, сыгравший хотя бы кон, занимает его место в клубе. Нельзя покидать игру, если кон
    не сыгран до конца, в противном случае Вы исключаетесь из клуба.»

    The club is an ordered list of at most CLUB_SIZE (10) members, stored as ``in_club`` and
    ``club_place`` 1..10:

    * first the members placed by a full series, best full-series average first (more full-series
      games first on equal averages, then whoever was placed earlier);
    * then the newcomers (``club_newcomer``), who hold the last places in the order they came, the
      newest last. When the club is full, its last member is the candidate for elimination.

    ``members`` are the members before this game in club order; ``played`` the ClubStanding rows of
    the people who played it, their counts and averages already updated. In this order:

    1. Whoever left this game before it ended (``excluded``) is out of the club, for good: an
       excluded player never enters again by any rule. Nobody moves up into a freed place; the
       next entrant or newcomer fills it.
    2. If this game completed a series: each player of it who is already a member is placed by his
       full-series average from now on (a newcomer stops being one); each player of it who is not a
       member enters when his full-series average is among the ten best of the members placed by a
       full series and himself. While the club would have more than ten members, its last member
       drops out (a newcomer, if there is one, since newcomers hold the last places).
    3. Every player of this game who was not a member before it (and has not just entered by rule
       2) is a new player who has played a кон: he takes the place of the last member, who drops
       out of the club, and is then the last member himself (so the next newcomer takes his place).
       While the club has fewer than ten members nobody drops out: the newcomer joins at the end.
       When several new players finish the same game they come one after another, the lowest
       average result over all their series games first (then fewer games, then the earlier
       account), so in a full club the best of them holds the last place.

    Who is a member is decided before the game, so a last member who plays with new players is
    displaced by them even though he played too; a member who drops out returns only by these rules.
    """
    start = {m.player_id for m in members}
    newcomer = {m.player_id: m.club_newcomer for m in members}
    order = [m for m in members if not m.excluded]
    if series_complete:
        inside = {m.player_id for m in order}
        for c in played:
            if c.excluded:
                continue
            newcomer[c.player_id] = False
            if c.player_id not in inside:
                order.append(c)  # after the members: on an equal average the one placed earlier stays ahead
        ranked = sorted((m for m in order if not newcomer[m.player_id]), key=_full_series_key)
        order = ranked + [m for m in order if newcomer[m.player_id]]
        del order[CLUB_SIZE:]
    inside = {m.player_id for m in order}
    fresh = sorted((c for c in played if not c.excluded and c.player_id not in start and c.player_id not in inside),
                   key=lambda c: (c.average, c.games, c.player_id))
    for c in fresh:
        if len(order) >= CLUB_SIZE:
            order.pop()  # the candidate for elimination leaves
        newcomer[c.player_id] = True
        order.append(c)
    inside = {m.player_id for m in order}
    for place, m in enumerate(order, start=1):
        if not m.in_club:
            m.in_club = True
            m.club_since = when
        m.club_place = place
        m.club_newcomer = newcomer[m.player_id]
    for m in [*members, *played]:
        if m.player_id not in inside and m.in_club:
            m.in_club = False
            m.club_place = None
            m.club_since = None
            m.club_newcomer = False


def _count_series(entry: SeriesEntry, outcome: str) -> None:
    if outcome == Outcome.WIN:
        entry.wins += 1
    elif outcome == Outcome.LOSS:
        entry.losses += 1
    else:
        entry.draws += 1


def _table_playing(table_id: int) -> bool:
    from game.models import Game  # noqa: PLC0415

    return Game.objects.filter(table_id=table_id, status=Game.Status.PLAYING).exists()


@transaction.atomic
def choose_series_leader(table, by_player, seat: int) -> Series:
    """003: the winners' pair chooses which of them leads the next game of the series."""
    table_id = _table_id(table)
    series = _open_series(table_id, lock=True)
    if series is None or series.games_played == 0:
        raise ServiceError("no_series", _("No series is running at this table."))
    if _table_playing(table_id):
        raise ServiceError("game_running", _("The next game has already started."))
    if not series.winner_seats:
        raise ServiceError("no_winners", _("The last game was a draw: the lowest trump leads the next one."))
    mine = series.entries.filter(player_id=getattr(by_player, "pk", None), seat__in=series.winner_seats).first()
    if mine is None:
        raise ServiceError("not_winner", _("Only the winners of the last game choose who leads the next one."))
    if type(seat) is not int or seat not in series.winner_seats:
        raise ServiceError("bad_seat", _("The next game can only be led by one of the winners."))
    series.next_leader_seat = seat
    series.next_leader_chosen_by = by_player
    series.save(update_fields=["next_leader_seat", "next_leader_chosen_by"])
    return series


def on_game_finished(sender, game, seats=None, **kwargs) -> GameRecord:
    """game.signals.game_finished: the game's result is recorded (once)."""
    return record_game_result(game, seats)


def on_choose_first_attacker(sender, table_id: int, players: int, **kwargs) -> int | None:
    """game.signals.choose_first_attacker: in a running series the winners chose the next leader."""
    return next_first_attacker(table_id)


def next_first_attacker(table) -> int | None:
    """The seat that leads the next game of a running series (003), or None (engine's own rule):
    game.services.start_game passes it to engine.new_game(first_attacker=...)."""
    from lobby.models import Seat  # noqa: PLC0415

    table_id = _table_id(table)
    series = _open_series(table_id)
    if series is None or series.games_played == 0 or series.next_leader_seat is None:
        return None
    planned = {n: pid for n, pid, _bot in series.lineup}
    now = {s.number: s.player_id for s in Seat.objects.filter(table_id=table_id)}
    if any(now.get(n) != pid for n, pid in planned.items() if pid is not None):
        return None  # other people sit down: a new series will start with the engine's rule
    return series.next_leader_seat


# ----------------------------------------------------------------------------- reads for pages

def series_standings(table) -> dict | None:
    """The latest series of a table (running or just finished) for the between-games panel: two
    queries whatever the number of games."""
    table_id = _table_id(table)
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


def club_tables(limit_preliminary: int = 50) -> tuple[list, list]:
    """003: the club (its stored members in club order, see _update_club; when the club is full the
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


# ----------------------------------------------------------------------------- moderators

class SuspiciousPair:
    """Two accounts' recent games together, for the moderators' list."""

    def __init__(self, a, b) -> None:
        self.a, self.b = a, b
        self.games: list[GameRecord] = []
        self.a_wins = self.b_wins = self.shared = self.rated = 0

    @property
    def one_sided(self) -> bool:
        decided = self.a_wins + self.b_wins
        return decided >= 3 and max(self.a_wins, self.b_wins) >= 0.8 * decided


def suspicious_pairs(days: int = 7, min_games: int | None = None) -> list[SuspiciousPair]:
    """Pairs of accounts with many games together in the last `days`, one-sided results or a
    shared address: most suspicious first (shared address, then the most games). Two queries."""
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
        p.games.sort(key=lambda r: r.finished_at, reverse=True)
    return sorted(found, key=lambda p: (-p.shared, -len(p.games), p.a.pk, p.b.pk))
