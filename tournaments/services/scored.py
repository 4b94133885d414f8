"""What one game adds to a player's entry: a heads-up result (arena or Swiss), a place at a table
arena's table, or his pair's result; and where he goes after it (the pool, his pause, or out after
two abandons). Used when a game ends (results.py) and when the standings are replayed after a void.

A table's game is read from the game's own record: each seat's outcome (game.outcomes: the durak,
and who lost by leaving, the clock or a ban) and the order in which the seats went out (the engine's
``out``); scoring.pod_places turns them into places.
"""

from __future__ import annotations

from typing import Any

from game import outcomes

from .. import scoring
from ..models import Entry, Tournament, TournamentGame, TournamentSeat

ABANDONS_TO_WITHDRAW = 2
ABANDONED = frozenset({outcomes.LEFT, outcomes.DID_NOT_RETURN})
ENTRY_FIELDS = ["score", "games", "wins", "draws", "streak", "berserks", "marks", "opponents_rating",
                "last_opponent", "last_table", "abandons", "state", "pause_after_game", "eligible_at"]


def result_of(code: str) -> str:
    """A seat's outcome as a result letter: W, D or L."""
    if code == outcomes.WON:
        return scoring.WIN
    if code == outcomes.DRAW:
        return scoring.DRAW
    return scoring.LOSS


def _met(entry: Entry, opponents: list[Entry], table: list[Entry]) -> None:
    """Whom he met: the opponents' mean rating (the performance tie-break), his last opponent
    (heads-up) or the others at his last table."""
    if opponents:
        entry.opponents_rating += round(sum(o.rating for o in opponents) / len(opponents))
    entry.last_opponent_id = opponents[0].player_id if len(opponents) == 1 and not table else None
    entry.last_table = sorted(o.player_id for o in table if o.player_id != entry.player_id)


def after_game(entry: Entry, abandoned: bool, now: Any) -> None:
    """A playing entry whose game ended: withdrawn at his second abandon, else paused if he asked
    to be, else back in the pool."""
    entry.abandons += abandoned
    if entry.state == Entry.State.PLAYING:
        if entry.abandons >= ABANDONS_TO_WITHDRAW:
            entry.state = Entry.State.WITHDRAWN
        elif entry.pause_after_game:
            entry.state, entry.pause_after_game = Entry.State.PAUSED, False
        else:
            entry.state, entry.eligible_at = Entry.State.WAITING, now


def _add(entry: Entry, points: int, mark: str, win: bool, half: bool) -> None:
    entry.score += points
    entry.games += 1
    entry.wins += win
    entry.draws += half
    entry.marks = (entry.marks + mark)[-200:]


def apply_result(event: Tournament, entry: Entry, result: str, opponents: list[Entry], berserk: bool, moves: int,
                 table: list[Entry] | None = None) -> int:
    """A heads-up (or pairs) result added to an entry (not saved); returns the points it earned."""
    if event.is_arena:
        scored = scoring.arena(result, entry.streak, berserk, moves)
        points, entry.streak = scored.points, scored.streak
        entry.berserks += scored.berserk_bonus
        mark = result + ("*" if scored.berserk_bonus else "")
    else:
        points, mark = scoring.swiss(result), result
    _add(entry, points, mark, result == scoring.WIN, result == scoring.DRAW)
    _met(entry, opponents, table or [])
    return points


def apply_place(entry: Entry, place: int, size: int, table: list[Entry], berserk: bool, moves: int) -> tuple[int, str]:
    """A place at a table of `size` added to an entry (not saved); returns (points, mark). A middle
    place counts as a draw in the performance tie-break."""
    scored = scoring.pod(place, size, entry.streak, berserk, moves)
    entry.streak = scored.streak
    entry.berserks += scored.berserk_bonus
    mark = scoring.pod_mark(place, size)
    _add(entry, scored.points, mark + ("*" if scored.berserk_bonus else ""), place == 1, 1 < place < size)
    others = [o for o in table if o.player_id != entry.player_id]
    _met(entry, others, table)
    return scored.points, mark


def score_table(event: Tournament, pairing: TournamentGame, game: Any, codes: dict[int, str],
                seat_of: dict[int | None, int], entries: dict[int | None, Entry], now: Any) -> None:
    """A table arena's game is over: each seat's place (or his pair's result), points and entry."""
    seats = list(TournamentSeat.objects.filter(pairing=pairing).order_by("number"))
    table = [entries[s.player_id] for s in seats if s.player_id in entries]
    halved = set(game.halved_seats or ())
    state = game.state or {}
    numbers = [seat_of[s.player_id] for s in seats if s.player_id in seat_of]
    losers = {n for n in numbers if codes.get(n, outcomes.LEFT) in outcomes.LOSSES}
    places = scoring.pod_places(numbers, [int(n) for n in state.get("out") or []], losers,
                                bool((game.result or {}).get("draw")))
    for s in seats:
        number = seat_of.get(s.player_id, 0)
        code = codes.get(number, outcomes.LEFT)
        s.berserk = number in halved
        entry = entries.get(s.player_id)
        if event.pairs:
            s.result = result_of(code)
            opponents = [entries[o.player_id] for o in seats if o.team != s.team and o.player_id in entries]
            s.points = apply_result(event, entry, s.result, opponents, s.berserk, game.version, table) if entry else 0
        else:
            s.place = places.get(number, pairing.size)
            s.points, s.result = (apply_place(entry, s.place, pairing.size, table, s.berserk, game.version)
                                  if entry else (0, scoring.pod_mark(s.place, pairing.size)))
        if entry is not None:
            after_game(entry, code in ABANDONED, now)
            entry.save(update_fields=ENTRY_FIELDS)
    TournamentSeat.objects.bulk_update(seats, ["place", "result", "points", "berserk"])


def rescore_table(event: Tournament, pairing: TournamentGame, entries: dict[int | None, Entry]) -> None:
    """A table's counted game replayed onto entries (a void's recompute): the places it recorded."""
    seats = list(TournamentSeat.objects.filter(pairing=pairing).order_by("number"))
    table = [entries[s.player_id] for s in seats if s.player_id in entries]
    for s in seats:
        entry = entries.get(s.player_id)
        if entry is None:
            continue
        if event.pairs:
            opponents = [entries[o.player_id] for o in seats if o.team != s.team and o.player_id in entries]
            apply_result(event, entry, s.result, opponents, s.berserk, pairing.moves, table)
        elif s.place is not None:
            apply_place(entry, s.place, pairing.size, table, s.berserk, pairing.moves)
