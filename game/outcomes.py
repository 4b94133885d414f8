"""The one place that decides each seat's outcome of a game, and why (docs/RULES.md#outcomes).

The engine's result says who is out and who is the durak by the board; the server knows what the
board cannot: who pressed «Выйти», who did not come back under the "lose" disconnect policy, who
lost on time under the "lose" timeout policy, who was banned. Everything else (an automatic move on
a timeout, a bot playing a seat while its player was away) leaves the seat to the board: its
player wins or loses by the cards (docs/RULES.md#disconnect).

Ratings, the result dialog (frame.result), the history, the replay and the leaderboard all read
what ``decide`` returns, stored once in ``Game.result["outcomes"]``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from game.models import GameEvent, GameSeat

WON = "won"
DURAK = "durak"
DRAW = "draw"
LEFT = "left"
LOST_ON_TIME = "lost_on_time"
DID_NOT_RETURN = "did_not_return"
BANNED = "banned"
ABORTED = "aborted"

CODES = (WON, DURAK, DRAW, LEFT, LOST_ON_TIME, DID_NOT_RETURN, BANNED, ABORTED)
# lost whatever the board says: the seat's player did it (or a moderator did it to him)
LOST_BY_DEFAULT = frozenset({LEFT, LOST_ON_TIME, DID_NOT_RETURN, BANNED})
LOSSES = LOST_BY_DEFAULT | {DURAK}

# GameEvent.source of the resign event that ended a seat's game (game.services)
SOURCE_LEAVE = "leave"
SOURCE_DISCONNECT = "disconnect"
SOURCE_TIMEOUT = "timeout"


@dataclass(frozen=True)
class SeatFacts:
    """What the server knows about one seat at the end of its game."""

    number: int
    left: bool = False  # GameSeat.left_at is set: «Выйти», or gone for good under the "lose" policy
    banned: bool = False  # its player was banned before the game ended
    resigned_by: str = ""  # source of this seat's resign event, "" if it never resigned


def decide(result: dict | None, seats: Iterable[SeatFacts], aborted: bool = False) -> dict[int, str]:
    """{seat: outcome code}. Order of reasons: a ban, leaving (or not returning), losing on time,
    then the board. An aborted game is "aborted" for every seat that did not leave it."""
    result = result or {}
    losers = set(result.get("losers") or [])
    if not losers and result.get("loser") is not None:
        losers = {result["loser"]}
    winners = set(result.get("winners") or [])
    legacy_left = set(result.get("left") or []) if "outcomes" not in result else set()
    draw = bool(result.get("draw"))
    out: dict[int, str] = {}
    for s in seats:
        out[s.number] = _seat_outcome(s, s.number in legacy_left, aborted, draw, losers, winners)
    return out


def _seat_outcome(s: SeatFacts, legacy_left: bool, aborted: bool, draw: bool, losers: set, winners: set) -> str:
    if s.banned:
        return BANNED
    if s.left or legacy_left:
        return DID_NOT_RETURN if s.resigned_by == SOURCE_DISCONNECT else LEFT
    if s.resigned_by == SOURCE_TIMEOUT:
        return LOST_ON_TIME
    if s.resigned_by:
        return LEFT
    if aborted:
        return ABORTED
    if draw:
        return DRAW
    if s.number in losers:
        return DURAK
    if s.number in winners or losers:
        return WON
    return DRAW


def finishing_seats(game) -> list[GameSeat]:
    """Every seat of a game with its player, in seat order: what a game's end reads (the outcomes here,
    then ratings through game.signals.game_finished), read once."""
    return list(GameSeat.objects.filter(game=game).select_related("player").order_by("number"))


def seat_facts(game, seats: list[GameSeat] | None = None, finished_at=None) -> list[SeatFacts]:
    """The facts of every seat of a game from its rows (`seats` as finishing_seats reads them, or read
    here)."""
    resigns = dict(GameEvent.objects.filter(game=game, action__type="resign", seat__isnull=False)
                   .order_by("seq").values_list("seat", "source"))
    end = finished_at or game.finished_at
    facts = []
    for s in finishing_seats(game) if seats is None else seats:
        banned_at = s.player.banned_at if s.player is not None else None
        facts.append(SeatFacts(number=s.number, left=s.left_at is not None,
                               banned=banned_at is not None and (end is None or banned_at <= end),
                               resigned_by=resigns.get(s.number, "")))
    return facts


def for_game(game, aborted: bool = False) -> dict[int, str]:
    """{seat: outcome} of a finished (or just finishing) game."""
    return decide(game.result if game.result is not None else {}, seat_facts(game), aborted=aborted)


def outcome_rows(outcomes: dict[int, str]) -> list[dict]:
    """Game.result["outcomes"] before ratings fills the rating columns (the client's contract)."""
    return [{"seat": n, "outcome": o, "rating_change": None, "rating_after": None}
            for n, o in sorted(outcomes.items())]


def stored(result: dict | None) -> dict[int, str] | None:
    """{seat: outcome} from Game.result["outcomes"], or None for a game recorded before them."""
    rows = (result or {}).get("outcomes")
    if not isinstance(rows, list):
        return None
    return {int(r["seat"]): str(r["outcome"]) for r in rows}


def with_ratings(result: dict, rated: bool, unrated_reason: str, changes: dict,
                 win_withheld: Iterable[int] = ()) -> dict:
    """A copy of Game.result with the rating facts filled in: ``changes`` is {seat: (change, after)}
    for the seats whose rating moved (others get null: unrated for them); a seat in ``win_withheld``
    won by the board but collected nothing (docs/RULES.md#ratings: the clock or a bot made most of
    its moves), which its row says, so the result dialog can tell why."""
    withheld = set(win_withheld)
    rows = []
    for row in result.get("outcomes") or []:
        change, after = changes.get(row["seat"], (None, None))
        rows.append({**row, "rating_change": change, "rating_after": after,
                     **({"win_withheld": True} if row["seat"] in withheld else {})})
    return {**result, "outcomes": rows, "rated": bool(rated), "unrated_reason": unrated_reason}
