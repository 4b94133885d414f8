"""Words for the analysis page: a move as a phrase plus its cards, a pattern as a sentence.

Russian must read right for any player (the site does not know a player's gender), so moves are
named by nouns and impersonal phrases («отбой козырем, когда лучше было взять»), never by a verb
about a third person.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext, pgettext_lazy

from game.engine.cards import CARD_RE
from lobby.templatetags.lobby_tags import SUIT_SYMBOL, rank_label

MOVE_LABELS = {
    "attack": pgettext_lazy("analysis: a move", "attack"),
    "defend": pgettext_lazy("analysis: a move", "cover"),
    "transfer": pgettext_lazy("analysis: a move", "transfer"),
    "take": pgettext_lazy("analysis: a move", "take the cards"),
    "pass": pgettext_lazy("analysis: a move", "pass"),
    "swap_trump": pgettext_lazy("analysis: a move", "swap the trump"),
    "catch": pgettext_lazy("analysis: a move", "catch"),
}

PATTERN_LABELS = {
    "trump_instead_of_take": _("covering with a trump where taking was better"),
    "took_instead_of_transfer": _("taking the cards where a transfer was better"),
    "took_instead_of_cover": _("taking the cards where covering was better"),
    "cover_instead_of_transfer": _("covering where a transfer was better"),
    "threw_in_instead_of_pass": _("throwing in where passing was better"),
    "passed_instead_of_throw_in": _("passing where throwing in was better"),
    "trump_spent": _("a trump spent where a plain card was enough"),
    "wrong_card": _("the right kind of move with the wrong card"),
}

MARK_LABELS = {
    "??": _("blunder"),
    "?": _("mistake"),
    "?!": _("inaccuracy"),
}

KIND_LABELS = {
    "catch": _("a catch: not estimated"),
    "cheat": _("a dishonest move: not estimated"),
    "unjudged": _("no world fitted this position: not estimated"),
    "forced": _("only one honest move: not estimated"),
}


def move(action: dict | None) -> dict:
    """{"label", "cards": [played card, covered card]} for a template (cards drawn as cards)."""
    if not action:
        return {"label": "", "cards": []}
    kind = action.get("type", "")
    cards = [c for c in (action.get("card"), action.get("target")) if isinstance(c, str)]
    label = str(MOVE_LABELS.get(kind, kind))
    if kind == "transfer" and action.get("show"):
        label = str(pgettext_lazy("analysis: a move", "transfer by showing"))
    return {"label": label, "cards": cards[:1], "target": cards[1] if len(cards) > 1 else ""}


def card_text(card: str) -> str:
    """A card as the table's log writes it, in the page's language: «К♠», «10♦» (never "KS")."""
    match = CARD_RE.match(card or "")
    if match is None:
        return ""
    rank, suit = match.groups()
    return f"{rank_label(rank)}{SUIT_SYMBOL[suit]}"


def move_text(action: dict | None) -> str:
    """A move in words with its cards named: «отбой К♠ на 10♠», «взять карты»."""
    m = move(action)
    words = [m["label"], *(card_text(c) for c in m["cards"])]
    if m.get("target"):
        words += [pgettext("analysis: cover 8♣ on 7♣", "on"), card_text(m["target"])]
    return " ".join(w for w in words if w)


def pattern(code: str) -> str:
    return str(PATTERN_LABELS.get(code, "")) if code else ""
