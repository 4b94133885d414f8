"""The reliability mark: how often a player leaves his games (stated on the rules page).

Over his last RECENT recorded games (rated or not), the share he left («Выйти») or lost by not
returning (game.outcomes LEFT, DID_NOT_RETURN): at most HIGH_AT is high, at most MEDIUM_AT medium,
more is low. Fewer than NEW_UNDER games: new (not "reliable": nothing is known yet).
"""

from __future__ import annotations

from django.db.models import F, Window
from django.db.models.functions import RowNumber
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
    """The marks of many players in one query: each one's last RECENT games (a window over the
    player's games, newest first; the lobby's list asks for a hundred at once)."""
    ids = set(player_ids)
    if not ids:
        return {}
    recent = (PlayerGame.objects.filter(player_id__in=ids)
              .annotate(nth=Window(RowNumber(), partition_by=[F("player_id")], order_by=F("finished_at").desc()))
              .filter(nth__lte=RECENT).values_list("player_id", "reason"))
    reasons: dict[int, list[str]] = {pid: [] for pid in ids}
    for pid, reason in recent:
        reasons[pid].append(reason)
    return {pid: mark_from(found) for pid, found in reasons.items()}


def label(code: str) -> str:
    return str(LABELS.get(code, ""))
