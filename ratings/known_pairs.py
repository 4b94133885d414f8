"""Friends on one network: which pairs of accounts that share an address may still play rated.

The shared-address rule (ratings.fairness) keeps a game unrated when two of its people used one
address around it: two accounts of one person could otherwise farm rating. Games of the pair
itself prove nothing (one person plays both sides as evenly as he likes), so friends and families
on one home network are let through in two ways only, stated in the waiting room and on the rules
page:

* on evidence from outside the pair: each of the two accounts is at least
  RATINGS_TRUST_ACCOUNT_DAYS old and has played RATINGS_TRUST_OUTSIDE_GAMES rated games (not
  voided) against other players from other addresses (games recorded without a shared address,
  the partner not among them). Their results together still matter: a leaver in a game together,
  or one-sided wins once RATINGS_TRUST_ONE_SIDED_AFTER games are decided (the loser won under
  RATINGS_KNOWN_PAIR_MIN_SHARE), takes the trust back. Such a pair is listed in the moderators'
  suspicious pairs with the trust it rests on;
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
from accounts.models import Player
from durak_site.errors import ServiceError
from ratings.models import GameRecord, KnownPair, Outcome, PlayerGame

MODERATOR = "moderator"
EVIDENCE = "evidence"


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
    one_sided = decided >= settings.RATINGS_TRUST_ONE_SIDED_AFTER and min(wins.values()) < share * decided
    return PairHistory(games, left or one_sided)


def outside_games(player_id: int, partner_id: int) -> int:
    """His rated games (not voided) against other players from other addresses, the partner not
    among them: a game recorded without a shared address had nobody on his address."""
    return (GameRecord.objects.filter(rated=True, voided_at__isnull=True, shared_address=False,
                                      lines__player_id=player_id)
            .exclude(pk__in=PlayerGame.objects.filter(player_id=partner_id).values("record_id"))
            .count())


def vouched_for(a: int, b: int) -> bool:
    """Each account old enough and with enough rated games against others from other addresses."""
    joined_before = timezone.now() - timedelta(days=settings.RATINGS_TRUST_ACCOUNT_DAYS)
    if Player.objects.filter(pk__in=(a, b), date_joined__lte=joined_before).count() < 2:
        return False
    need = settings.RATINGS_TRUST_OUTSIDE_GAMES
    return outside_games(a, b) >= need and outside_games(b, a) >= need


def is_known(a: int, b: int) -> bool:
    low, high = ordered(a, b)
    return KnownPair.objects.filter(low_id=low, high_id=high).exists()


def trust(a: int, b: int) -> str:
    """What lets this pair's games together be rated although they share an address: MODERATOR,
    EVIDENCE (from outside the pair, with even results together), or "" (nothing)."""
    if is_known(a, b):
        return MODERATOR
    if vouched_for(a, b) and not history(a, b).suspicious:
        return EVIDENCE
    return ""


def trusted(a: int, b: int) -> bool:
    """Whether this pair's games together are rated although they share an address."""
    return bool(trust(a, b))


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
    if any(history(*pair).suspicious for pair in pairs):
        help_text = _("Friends on one network: your results together look one-sided or someone left, so only a "
                      "moderator can confirm that you know each other.")
    else:
        help_text = _("Friends on one network: your games together become rated once each of you has played "
                      "%(need)s rated games with other players and each account is at least %(days)s days old, "
                      "or once a moderator confirms that you know each other.") % {
            "need": settings.RATINGS_TRUST_OUTSIDE_GAMES, "days": settings.RATINGS_TRUST_ACCOUNT_DAYS}
    return _("players on one address"), help_text
