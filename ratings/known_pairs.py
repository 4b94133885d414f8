"""Friends on one network: which pairs of accounts that share an address may still play rated.

The shared-address rule (ratings.fairness) keeps a game unrated when two of its people used one
address around it: two accounts of one person could otherwise farm rating. Friends and families on
one home network are let through in two ways, stated in the waiting room and on the rules page:

* earned: the pair has played RATINGS_KNOWN_PAIR_GAMES finished games together on one address with
  nothing suspicious: nobody left (or lost by default), and each of the two won at least
  RATINGS_KNOWN_PAIR_MIN_SHARE of the games either of them won. The check reads the whole history
  each time, so a pair whose results turn one-sided later loses it again;
* known: a moderator marked the pair in the admin (KnownPair), with a note.

Everything else still applies to them (the daily pair limit, the moderators' suspicious pairs).
This module is the only writer of KnownPair.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import services as accounts_services
from durak_site.errors import ServiceError
from ratings.models import GameRecord, KnownPair, Outcome, PlayerGame


@dataclass(frozen=True)
class PairHistory:
    games: int  # finished games together on one address (voided ones not counted)
    suspicious: bool  # a leaver, or one-sided wins


def ordered(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def history(a: int, b: int) -> PairHistory:
    """The pair's games together on one address, and whether their results look like farming."""
    records = (GameRecord.objects.filter(shared_address=True, voided_at__isnull=True, lines__player_id=a)
               .filter(lines__player_id=b).values("pk"))
    lines = list(PlayerGame.objects.filter(record__in=records, player_id__in=(a, b))
                 .values_list("record_id", "player_id", "outcome", "left"))
    games = len({record for record, *_rest in lines})
    wins = {a: 0, b: 0}
    left = False
    for _record, player, outcome, gone in lines:
        left = left or gone
        wins[player] += outcome == Outcome.WIN
    decided = wins[a] + wins[b]
    share = float(settings.RATINGS_KNOWN_PAIR_MIN_SHARE)
    one_sided = decided > 0 and min(wins.values()) < share * decided
    return PairHistory(games, left or one_sided)


def is_known(a: int, b: int) -> bool:
    low, high = ordered(a, b)
    return KnownPair.objects.filter(low_id=low, high_id=high).exists()


def trusted(a: int, b: int) -> bool:
    """Whether this pair's games together are rated although they share an address."""
    if is_known(a, b):
        return True
    found = history(a, b)
    return found.games >= settings.RATINGS_KNOWN_PAIR_GAMES and not found.suspicious


def untrusted(pairs: set[tuple[int, int]]) -> set[tuple[int, int]]:
    return {pair for pair in pairs if not trusted(*pair)}


def mark(a: int, b: int, moderator, note: str = "") -> KnownPair:
    """A moderator vouches for two accounts on one network being two people."""
    if a == b:
        raise ServiceError("same_player")
    low, high = ordered(a, b)
    with transaction.atomic():
        pair, _created = KnownPair.objects.get_or_create(
            low_id=low, high_id=high, defaults={"marked_by": moderator, "note": (note or "").strip()[:300]})
    return pair


def unmark(pair_id: int) -> None:
    KnownPair.objects.filter(pk=pair_id).delete()


def room_notice(player_ids: list[int]) -> tuple[str, str] | None:
    """(why the next game is unrated, what friends can do) when people at a table share an address
    and are not yet a trusted pair; None otherwise. For the waiting room (lobby.pages)."""
    since = timezone.now() - timedelta(days=settings.RATINGS_SHARED_ADDRESS_DAYS)
    pairs = untrusted(accounts_services.shared_address_pairs(player_ids, since)) if len(player_ids) > 1 else set()
    if not pairs:
        return None
    found = min((history(*pair) for pair in pairs), key=lambda h: (not h.suspicious, h.games))
    need = settings.RATINGS_KNOWN_PAIR_GAMES
    if found.suspicious:
        help_text = _("Friends on one network: your results together look one-sided or someone left, so only a "
                      "moderator can confirm that you know each other.")
    else:
        help_text = _("Friends on one network: your games together become rated after %(need)s unrated games "
                      "together with even results (played: %(done)s), or once a moderator confirms that you "
                      "know each other.") % {"need": need, "done": min(found.games, need)}
    return _("players on one address"), help_text
