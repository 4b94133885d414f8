"""Whether a finished game is rated, and each person's rating change: ±15 and the club's anti-farming
rules (docs/RULES.md#ratings, stated on the rules page; the numbers are settings ``RATINGS_*``).

In order:

0. Unrated for everybody, and nobody pays: a game whose table was made with «На рейтинг» off (a
   search's choice, frozen in the game when it starts).
1. Unrated for everybody: an aborted game (a person who had left it still pays his loss: the last
   person leaving cannot cancel the first one's); bots at the table (or fewer than two people from
   the start); two players who used one address during the game or in the days before it (any
   address each used, not only his last), unless a moderator knows the pair or each
   account's games with others vouch for it (ratings.known_pairs: friends on one network); the same two accounts already played their daily
   share of rated games together.
2. Too short (one round): unrated, but a person who lost by default (left, did not return, lost on
   time, banned) still pays: leaving early costs the leaver, the one who stays gains only from a
   real game.
3. Otherwise rated by the board, ±15 by outcome. Moves the clock or a bot made for a seat are the
   seat's: a person who let them play is rated like anyone, so sitting a lost game out neither
   denies the opponent his win nor saves the loss. But a person who made fewer than
   ``RATINGS_MIN_OWN_SHARE`` of his seat's moves himself cannot collect a win for it (he gets 0;
   a loss still costs him). A player facing a provisional account (fewer than
   ``RATINGS_PROVISIONAL_GAMES`` rated games) moves by ``RATINGS_PROVISIONAL_FACTOR`` of that
   (0: not at all, and his line says "provisional"). A provisional account's own rating moves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from itertools import combinations

from django.conf import settings
from django.db.models import Count

from accounts import services as accounts_services
from game import outcomes as codes
from game.models import Game, GameEvent
from ratings import known_pairs
from ratings.models import RATING_STEP, GameRecord, Outcome, Rating

RATING_OFF = "rating_off"
BOTS = "bots"
TOO_SHORT = "too_short"
SHARED_ADDRESS = "shared_address"
PAIR_LIMIT = "pair_limit"
PROVISIONAL = "provisional"
ABORTED = "aborted"
VOIDED = "voided"
PAIR_WINDOW = timedelta(days=1)


def board_outcome(code: str) -> str:
    """win / loss / draw (the counters and the series) for a game.outcomes code."""
    if code == codes.WON:
        return Outcome.WIN
    if code in codes.LOSSES:
        return Outcome.LOSS
    return Outcome.DRAW


@dataclass
class Verdict:
    rated: bool
    reason: str  # an unrated reason code, or "provisional" when a seat's change was withheld
    deltas: dict[int, int] = field(default_factory=dict)  # player id -> change, for those whose rating moves
    shared_address: bool = False
    # the people whose win was not theirs to collect: most of their seat's moves the clock or a bot made
    win_withheld: set[int] = field(default_factory=set)


def judge(game, humans: list, seat_outcomes: dict[int, str], all_seats: list) -> Verdict:
    """The verdict for a finishing game: `humans` are its people's GameSeat rows (with .player)."""
    if not game.rating_on:
        return Verdict(False, RATING_OFF)
    shared, untrusted = _shared_address(game, humans)
    reason = _unrated_for_everybody(game, humans, all_seats, seat_outcomes, untrusted)
    if reason == ABORTED and not _bots_played(game, humans, all_seats):
        return Verdict(False, reason, _leavers_pay(humans, seat_outcomes), shared_address=shared)
    if reason:
        return Verdict(False, reason, shared_address=shared)
    if _too_short(game):
        return Verdict(False, TOO_SHORT, _leavers_pay(humans, seat_outcomes), shared_address=shared)
    deltas, withheld = _rated_changes(humans, seat_outcomes)
    win_withheld = set()
    for player_id in _mostly_played_for(game, humans):
        if deltas.get(player_id, 0) > 0:
            win_withheld.add(player_id)
        deltas[player_id] = min(deltas.get(player_id, 0), 0)  # no win for a game a bot or the clock played
    return Verdict(bool(deltas), PROVISIONAL if withheld else "", deltas, shared_address=shared,
                   win_withheld=win_withheld)


def _unrated_for_everybody(game, humans, all_seats, seat_outcomes, untrusted_shared: bool) -> str:
    if game.status == Game.Status.ABORTED or any(o == codes.ABORTED for o in seat_outcomes.values()):
        return ABORTED
    if _bots_played(game, humans, all_seats):
        return BOTS
    if untrusted_shared and settings.RATINGS_SHARED_ADDRESS_UNRATED:
        return SHARED_ADDRESS
    if _pair_limit_reached(humans, game.finished_at):
        return PAIR_LIMIT
    return ""


def _bots_played(game, humans, all_seats) -> bool:
    """A bot seat from the start, fewer than two people, or a person in a seat a bot had at the deal."""
    if any(s.bot_level for s in all_seats) or len({s.player_id for s in humans}) < 2:
        return True
    bots_at_start = _bots_at_start(game)
    return any(s.number in bots_at_start for s in humans)


def _bots_at_start(game) -> set[int]:
    """The bot seats of the deal: the one key of initial_state (the deal itself, the largest column,
    is not read for it)."""
    if "initial_state" not in game.get_deferred_fields():
        bots = (game.initial_state or {}).get("bots")
    else:
        bots = Game.objects.filter(pk=game.pk).values_list("initial_state__bots", flat=True).first()
    return set(bots or [])


def shared_pairs(player_ids: list[int], started_at) -> set[tuple[int, int]]:
    """Pairs of these people who used one address during the game or in the days before it (every
    address each used, not only his last: one socket from elsewhere changes nothing)."""
    since = started_at - timedelta(days=settings.RATINGS_SHARED_ADDRESS_DAYS)
    return accounts_services.shared_address_pairs(player_ids, since)


def _shared_address(game, humans) -> tuple[bool, bool]:
    """(people shared an address, and some pair of them is not a trusted pair)."""
    pairs = shared_pairs(sorted({s.player_id for s in humans}), game.started_at)
    return bool(pairs), bool(pairs and known_pairs.untrusted(pairs))


def _pair_limit_reached(humans, finished_at) -> bool:
    limit = settings.RATINGS_PAIR_GAMES_PER_DAY
    since = finished_at - PAIR_WINDOW
    for a, b in combinations(sorted({s.player_id for s in humans}), 2):
        together = (GameRecord.objects.filter(rated=True, voided_at__isnull=True, finished_at__gt=since,
                                              lines__player_id=a)
                    .filter(lines__player_id=b).count())
        if together >= limit:
            return True
    return False


def _too_short(game) -> bool:
    """Real play: more than one round."""
    return int((game.state or {}).get("round") or 1) < settings.RATINGS_MIN_ROUNDS


def _mostly_played_for(game, humans) -> set[int]:
    """The people who made fewer than RATINGS_MIN_OWN_SHARE of their seat's moves themselves (the
    rest the clock or a bot made): a win there is not theirs to collect."""
    own: dict[int, int] = {}
    total: dict[int, int] = {}
    rows = (GameEvent.objects.filter(game=game, seat__isnull=False).order_by()
            .values_list("seat", "source").annotate(n=Count("id")))
    for seat, source, n in rows:
        total[seat] = total.get(seat, 0) + n
        if source == "player":
            own[seat] = own.get(seat, 0) + n
    share = float(settings.RATINGS_MIN_OWN_SHARE)
    out = set()
    for s in humans:
        mine = own.get(s.number, 0)
        if mine == 0 or mine < share * total.get(s.number, 0):
            out.add(s.player_id)
    return out


def _leavers_pay(humans, seat_outcomes) -> dict[int, int]:
    return {s.player_id: -RATING_STEP for s in humans if seat_outcomes.get(s.number) in codes.LOST_BY_DEFAULT}


def _rated_changes(humans, seat_outcomes) -> tuple[dict[int, int], bool]:
    """±15 by outcome; scaled for a player facing a provisional account. (deltas, any withheld)."""
    provisional = _provisional_players([s.player_id for s in humans])
    factor = float(settings.RATINGS_PROVISIONAL_FACTOR)
    deltas: dict[int, int] = {}
    withheld = False
    for s in humans:
        steps: dict[str, int] = {Outcome.WIN: RATING_STEP, Outcome.LOSS: -RATING_STEP, Outcome.DRAW: 0}
        full = steps[
            board_outcome(seat_outcomes.get(s.number, codes.DRAW))]
        faces_provisional = any(o.player_id in provisional for o in humans if o.player_id != s.player_id)
        if s.player_id in provisional or not faces_provisional:
            deltas[s.player_id] = full
        elif factor > 0:
            deltas[s.player_id] = round(full * factor)
        else:
            withheld = True
    return deltas, withheld


def _provisional_players(player_ids: list[int]) -> set[int]:
    games = dict(Rating.objects.filter(player_id__in=player_ids).values_list("player_id", "games"))
    return {p for p in player_ids if games.get(p, 0) < settings.RATINGS_PROVISIONAL_GAMES}
