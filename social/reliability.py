"""The reliability mark: how often a player leaves his games (stated on the rules page).

Over his last RECENT recorded games (rated or not), the share he left («Выйти») or lost by not
returning (game.outcomes LEFT, DID_NOT_RETURN): at most HIGH_AT is high, at most MEDIUM_AT medium,
more is low. Fewer than NEW_UNDER games: new (not "reliable": nothing is known yet).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from game import outcomes
from ratings.models import PlayerGame

RECENT = 50
NEW_UNDER = 5
HIGH_AT = 0.05
MEDIUM_AT = 0.15
HIGH, MEDIUM, LOW, NEW = "high", "medium", "low", "new"
LABELS = {HIGH: _("reliable"), MEDIUM: _("sometimes leaves"), LOW: _("often leaves"), NEW: _("new player")}
LEAVING = (outcomes.LEFT, outcomes.DID_NOT_RETURN)


def mark_from(reasons: list[str]) -> str:
    if len(reasons) < NEW_UNDER:
        return NEW
    share = sum(1 for r in reasons if r in LEAVING) / len(reasons)
    if share <= HIGH_AT:
        return HIGH
    return MEDIUM if share <= MEDIUM_AT else LOW


def mark(player_id: int) -> str:
    reasons = list(PlayerGame.objects.filter(player_id=player_id).order_by("-finished_at")
                   .values_list("reason", flat=True)[:RECENT])
    return mark_from(reasons)


def marks(player_ids) -> dict[int, str]:
    """The marks of many players (one query per player, over an index: lists are short)."""
    return {pid: mark(pid) for pid in set(player_ids)}


def label(code: str) -> str:
    return str(LABELS.get(code, ""))
