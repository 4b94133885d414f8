"""What a party's search asks beyond one player's (social/queue.py calls these before it writes):
the choices a party may search with, and whether the partner may search now. Every refusal names
what to change; nothing is written here.

- A party plays with others: never a two-seat table (the two would only meet each other).
- Rated only in pairs 2×2, where the two are a team by the rules: at an each-for-himself table two
  friends against strangers could play for each other, which no rating should reward.
- The partner must be able to play now (not banned, not in a game, not on his way to another table,
  not waiting after a dodge); a rated search also needs the two on different networks and under
  their daily share of rated games together (the fair-result rules, docs/SECURITY.md).
"""

from __future__ import annotations

from accounts.models import Player
from accounts.services import ensure_can_play
from durak_site.errors import ServiceError
from lobby.models import Seat, Table

from . import dodges, matching
from .models import SearchRequest

TWO = 2


def ensure_fits_party(choices: dict) -> None:
    if choices["players"] == TWO:
        raise ServiceError("party_two_players")
    if choices["rated"] and choices["mode"] != matching.PAIRS_MODE:
        raise ServiceError("party_rated_pairs_only")


def ensure_partner_may_search(partner: Player) -> None:
    """He may search now (the leader's search takes him along): else a refusal naming him."""
    try:
        ensure_can_play(partner)
    except ServiceError:
        raise ServiceError("party_unavailable") from None
    if Seat.objects.filter(player=partner, in_game=True, table__status=Table.Status.PLAYING).exists():
        raise ServiceError("party_partner_playing", nick=partner.nick)
    if SearchRequest.objects.filter(player=partner, status=SearchRequest.Status.MATCHED).exists():
        raise ServiceError("party_partner_busy", nick=partner.nick)
    seconds = dodges.wait_left(partner.pk)
    if seconds:
        raise ServiceError("party_partner_waits", nick=partner.nick, seconds=seconds)


def ensure_rated_together(leader_id: int, partner: Player, at_limit: set[int]) -> None:
    """A rated search of the two: not one network, not past their daily rated games together."""
    addresses = dict(Player.objects.filter(pk__in=[leader_id, partner.pk]).values_list("pk", "last_address"))
    if addresses.get(leader_id) and addresses.get(leader_id) == addresses.get(partner.pk):
        raise ServiceError("party_same_address")
    if partner.pk in at_limit:
        raise ServiceError("party_pair_limit")
