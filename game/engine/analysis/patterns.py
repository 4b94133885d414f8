"""Named kinds of mistake: what a marked move did against what the better move would have done.

A player learns more from «beat with a trump where taking was better» than from a number. The
codes are stable (stored in analyses; the site translates them); "" when no pattern fits.
"""
from __future__ import annotations

from game.engine.types import Action, View

PATTERNS = (
    "trump_instead_of_take",   # covered with a trump where taking the cards was better
    "took_instead_of_transfer",  # took where transferring was better
    "took_instead_of_cover",   # took where covering was better
    "cover_instead_of_transfer",  # covered where transferring was better
    "threw_in_instead_of_pass",  # threw a card in where passing was better
    "passed_instead_of_throw_in",  # passed where throwing a card in was better
    "trump_spent",             # played a trump (lead, throw-in, cover) where a plain card was better
    "wrong_card",              # the right kind of move with the wrong card
)


def pattern_of(view: View, played: Action, best: Action) -> str:
    """The pattern code of playing ``played`` where ``best`` was better, from the seat's view."""
    trump = view.get("trump")
    p, b = played.get("type"), best.get("type")
    card = played.get("card") or ""
    if p == "defend" and b == "take" and card.endswith(trump or "?"):
        return "trump_instead_of_take"
    if p == "take" and b == "transfer":
        return "took_instead_of_transfer"
    if p == "take" and b == "defend":
        return "took_instead_of_cover"
    if p == "defend" and b == "transfer":
        return "cover_instead_of_transfer"
    if p == "attack" and b == "pass":
        return "threw_in_instead_of_pass"
    if p == "pass" and b == "attack":
        return "passed_instead_of_throw_in"
    if p == b and p in ("attack", "defend") and card.endswith(trump or "?") and not (best.get("card") or "").endswith(trump or "?"):
        return "trump_spent"
    if p == b and card and card != best.get("card"):
        return "wrong_card"
    return ""
