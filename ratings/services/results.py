"""A finished game's result recorded once (rated or not, and why), the rating changes paid, and a
moderator's voiding of them.

``record_game_result(game)`` runs on game.signals.game_finished, inside the transaction that finishes a
game; it is idempotent (a second call returns the first record and pays nothing). Everything that
pages read (ratings, counts, series scores, club averages and club membership) is kept in columns
here, so pages never scan the history.
"""

from __future__ import annotations

from typing import Any

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from durak_site.errors import ServiceError
from game import outcomes
from game import services as game_services
from game.models import Game
from ratings import fairness
from ratings.models import (
    RATING_STEP,
    START_RATING,
    VARIANTS,
    GameRecord,
    Outcome,
    PlayerGame,
    Rating,
    RatingChange,
    RatingVariant,
)
from ratings.services.selectors import game_outcomes, unrated_label
from ratings.services.series import record_series_game

RATING_DELTA: dict[str, int] = {Outcome.WIN: RATING_STEP, Outcome.LOSS: -RATING_STEP, Outcome.DRAW: 0}


def _lock_ratings(player_ids: list[int], variant: str) -> tuple[dict[int, Rating], dict[int, RatingVariant]]:
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


def _count(row: Any, outcome: str, sign: int) -> None:
    fields: dict[str, str] = {Outcome.WIN: "wins", Outcome.LOSS: "losses", Outcome.DRAW: "draws"}
    field = fields[outcome]
    setattr(row, field, max(0, getattr(row, field) + sign))
    row.games = max(0, row.games + sign)


@transaction.atomic
def record_game_result(game: Any, seats: list[Any] | None = None) -> GameRecord:
    """Record a finished game exactly once: rated or not (and why, ratings.fairness), every human's
    outcome and reason (game.outcomes), the rating changes and the series score (docs/RULES.md#series). Returns the
    GameRecord with ``seat_changes`` ({seat: (change, rating after)}), which game.services copies
    into Game.result["outcomes"] for the result dialog and the header.

    Calling it again for the same game returns the first record and changes nothing. ``seats`` are
    the game's GameSeat rows with their players, when the caller has them (game.signals).
    """
    # The game row lock serialises two finishes of the same game (game.services already holds it).
    Game.objects.select_for_update().filter(pk=game.pk).values_list("pk", flat=True).first()
    existing = GameRecord.objects.filter(game_id=game.pk).first()
    if existing is not None:
        existing.seat_changes = _seat_changes(existing)
        return existing
    if not game.result:
        raise ServiceError("not_finished")

    rules = game.rules or {}
    variant = str(rules["variant"]) if rules.get("variant") in VARIANTS else VARIANTS[0]
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
    record.win_withheld_seats = sorted(s.number for s in humans if s.player_id in verdict.win_withheld)
    PlayerGame.objects.bulk_create([
        PlayerGame(record=record, player_id=s.player_id, seat=s.number, outcome=fairness.board_outcome(codes[s.number]),
                   reason=codes[s.number], delta=verdict.deltas.get(s.player_id, 0),
                   left=codes[s.number] in outcomes.LOST_BY_DEFAULT, finished_at=finished_at)
        for s in humans
    ])
    record_series_game(game, seats, {n: fairness.board_outcome(c) for n, c in codes.items()}, finished_at)
    return record


def _pay(game: Any, humans: Any, codes: dict[int, str], deltas: dict[int, int], variant: str, when: Any) -> dict[int, tuple[int, int]]:
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


def _add_results(model: Any, key: dict[str, Any], results: dict[int, tuple[int, str]], when: Any) -> dict[int, int]:
    """One statement per standing table: each player's row moved by his change, his game counted, a
    row created at START_RATING on his first game; {player: value after}. A game's end runs inside a
    move, where each ORM statement costs about a millisecond of the web process's CPU (the lock,
    the insert of missing rows and two saves per player were eight statements). Rows are written in
    player order, the order void_game locks them in."""
    table = connection.ops.quote_name(model._meta.db_table)
    conflict = ["player_id", *key]
    columns = [*conflict, "value", "games", *COUNTERS.values(), "last_played"]
    played = model._meta.get_field("last_played").get_db_prep_save(when, connection)
    params: list[Any] = []
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


def _seat_changes(record: GameRecord) -> dict[int, tuple[int, int]]:
    seats = dict(record.lines.values_list("player_id", "seat"))
    return {seats[c.player_id]: (c.delta, c.rating_after)
            for c in RatingChange.objects.filter(game_id=record.game_id, voided=False) if c.player_id in seats}


@transaction.atomic
def void_game(game: Any, by: Any, reason: str) -> GameRecord:
    """A moderator cancels a rated game's rating changes (each reversed, the reason kept)."""
    game_id = game if isinstance(game, int) else game.pk  # a Game or its id
    if by is None or not (by.is_staff or by.is_superuser):
        raise ServiceError("not_moderator")
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("reason_required")
    record = GameRecord.objects.select_for_update().filter(game_id=game_id).first()
    if record is None:
        raise ServiceError("not_recorded")
    if record.voided_at is not None:
        raise ServiceError("already_voided", reason=record.void_reason,
                           when=timezone.localtime(record.voided_at).strftime("%Y-%m-%d %H:%M"))
    changes = list(RatingChange.objects.filter(game_id=game_id, voided=False))
    if not changes:  # an unrated game whose leaver paid nothing either
        raise ServiceError("unrated", why=unrated_label(record.unrated_reason))
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


def on_game_finished(sender: Any, game: Any, seats: Any = None, **kwargs: Any) -> GameRecord:
    """game.signals.game_finished: the game's result is recorded (once)."""
    return record_game_result(game, seats)
