"""A game's end, whatever ends it (the board, everybody leaving, a moderator): one path.

Each seat's outcome and reason come from game.outcomes (the one record every page reads), the apps
above record it through game.signals.game_finished inside this transaction (ratings fills each
seat's rating change), the row is saved once and everyone sees the end. A game's end runs in the
hop of the move that ends it: every ORM statement costs the process a millisecond of CPU that
other tables' moves wait for, so the seats are read once and the row written once.
"""

from __future__ import annotations

import logging
from typing import Any, cast

from django.db import transaction
from django.utils import timezone

from game import engine, event_log, frames, outcomes, signals
from game.models import Game, GameSeat
from game.services import locking, sending

log = logging.getLogger(__name__)

# Game.result's board keys when the board decided nothing (the game stopped before its end)
NO_BOARD_RESULT: dict[str, Any] = {"loser": None, "losers": [], "winners": [], "draw": False}


def finish(game: Game, state: engine.GameState, seats: list[frames.SeatRow] | None = None,
           status: str = Game.Status.FINISHED, **facts: Any) -> Game:
    """End the locked game at `state` (its events appended): outcomes, the apps above told, the row
    saved (FINISH_FIELDS), the frames sent (with `seats`, as the frames read them, if the caller has
    them). `facts` go into Game.result (why a game stopped: ``reason``, ``by``)."""
    event_log.write(game)  # the receivers read the whole log
    game.state = state.to_json()
    game.status = status
    game.finished_at = timezone.now()
    finishing = outcomes.finishing_seats(game)
    stop_clocks(game, finishing)
    seat_facts = outcomes.seat_facts(game, finishing)
    decided = outcomes.decide(state.result or {}, seat_facts, aborted=status == Game.Status.ABORTED)
    game.result = dict(state.result or NO_BOARD_RESULT)
    game.result.update(
        outcomes=outcomes.outcome_rows(decided),
        left=[f.number for f in seat_facts if f.left],
        timed_out=sorted(n for n, o in decided.items() if o == outcomes.LOST_ON_TIME),
        rated=False, unrated_reason="",
        **facts,
    )
    _tell_finished(game, finishing)
    game.save(update_fields=locking.FINISH_FIELDS)
    sending.publish(game, state, seats)
    return game


def stop_clocks(game: Game, seats: list[GameSeat] | None = None) -> None:
    """An ended game's clocks all stop: its turn clock and every seat's disconnect clock (given its
    rows just read under the lock, only if one of them runs)."""
    game.deadline, game.deadline_kind, game.deadline_seats = None, "", []
    if seats is None or any(s.disconnect_deadline is not None for s in seats):
        GameSeat.objects.filter(game=game, disconnect_deadline__isnull=False).update(disconnect_deadline=None)
        for s in seats or ():
            s.disconnect_deadline = None


def _tell_finished(game: Game, seats: list[GameSeat]) -> None:
    """The apps above hear of the end inside this transaction (a savepoint: their failure must not
    keep the game from ending: it then ends unrated). A receiver answers with its record: ``rated``,
    ``unrated_reason``, ``seat_changes`` ({seat: (rating change, rating after)}) and
    ``win_withheld_seats`` (seats whose win counted nothing: the clock or a bot made most of their moves)."""
    game.rated, game.unrated_reason = False, ""
    changes: dict[str, Any] = {}
    withheld: list[int] = []
    try:
        with transaction.atomic():
            responses = signals.game_finished.send(sender=Game, game=game, seats=seats)
    except Exception:
        log.exception("a game_finished receiver failed for game %s; the game ends unrated", game.pk)
        game.unrated_reason = "rating failed"
    else:
        for _receiver, record in cast("list[tuple[Any, Any]]", responses):
            if record is not None:
                game.rated = bool(record.rated)
                game.unrated_reason = str(record.unrated_reason or "")[:100]
                changes = dict(record.seat_changes)
                withheld = list(getattr(record, "win_withheld_seats", None) or [])
    game.result = outcomes.with_ratings(game.result or {}, game.rated, game.unrated_reason, changes, withheld)


def abandon(game: Game, state: engine.GameState, seats: list[frames.SeatRow]) -> Game:
    """Every human left for good: the game is archived as aborted, never left hanging."""
    return finish(game, state, seats, status=Game.Status.ABORTED, reason="abandoned")


def abort_game(game_id: int, reason: str = "moderator") -> Game | None:
    """A moderator stops a running game: archived as aborted (unrated), everyone sees the end."""
    with transaction.atomic():
        game = locking.lock_playing(game_id)
        if game is None:
            return None
        return finish(game, sending.state_of(game), status=Game.Status.ABORTED, reason="aborted", by=reason[:100])


def on_table_closed(sender: Any, table_id: int, reason: str, **kwargs: Any) -> None:
    """A moderator is closing a table (lobby's table_closed signal): its running game stops too. The
    signal comes before the table row is locked: the game row first, the order a game's end keeps."""
    for game_id in Game.objects.filter(table_id=table_id, status=Game.Status.PLAYING).values_list("pk", flat=True):
        abort_game(game_id, reason)


def record_void(game_id: int) -> None:
    """Ratings voided this game's rating changes: its one record says so (unrated, "voided")."""
    with transaction.atomic():
        game = locking.locked_games().filter(pk=game_id).first()
        if game is None or game.result is None:
            return
        game.rated, game.unrated_reason = False, "voided"
        game.result = outcomes.with_ratings(game.result, False, "voided", {})
        game.save(update_fields=["rated", "unrated_reason", "result"])
