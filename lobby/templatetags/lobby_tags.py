"""Template filters and tags of the lobby's pages."""

from django import template
from django.utils.translation import pgettext

from game.engine.cards import CARD_RE
from lobby import pages
from lobby.rule_texts import bot_level_label as _bot_level_label

register = template.Library()

# As game/static/game/cards.js SUIT_SYMBOL: the face of a card names its suit by symbol.
SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
COURT = ("J", "Q", "K", "A")


@register.filter
def bot_level_label(code: str) -> str:
    """A bot seat's level as people read it («любитель»), also for the engine names saved tables use."""
    return _bot_level_label(code)


@register.inclusion_tag("_card.html")
def playing_card(card: str, trump: str = "", extra: str = "", style: str = "", decorative: bool = False) -> dict:
    """A face-up card ("10H") on a server-rendered page, drawn as the table draws it (cards.js cardEl)
    so the rules, the home page and the game share one card; `decorative` hides it from screen readers."""
    match = CARD_RE.match(card)
    if match is None:
        raise template.TemplateSyntaxError(f"playing_card: {card!r} is not a card like 10H")
    rank, suit = match.groups()
    return {
        "card": card, "rank": rank_label(rank), "name": card_name(rank, suit), "suit": SUIT_SYMBOL[suit], "colour": "red" if suit in "HD" else "black",
        "is_trump": suit == trump, "pips": range(int(rank)) if rank.isdigit() else (),
        "extra": extra, "style": style, "decorative": decorative,
    }


def rank_label(rank: str) -> str:
    """The rank printed on a card in the page's language (as cards.js rankLabel: «Д» for Q in Russian)."""
    short = pgettext("card ranks, short: jack queen king ace", "J Q K A").split()
    return dict(zip(COURT, short, strict=False)).get(rank, rank)


def card_name(rank: str, suit: str) -> str:
    """A card's spoken name for screen readers (as cards.js cardName): «дама пик», «queen of spades»."""
    names = dict(zip(COURT, pgettext("card ranks in a card name", "jack queen king ace").split(), strict=False))
    suits = dict(zip("SHDC", pgettext("suits in a card name", "spades hearts diamonds clubs").split(), strict=False))
    return pgettext("a card name: queen of spades", "{rank} of {suit}").format(rank=names.get(rank, rank),
                                                                            suit=suits.get(suit, ""))


@register.simple_tag
def table_panels(place: str = "page") -> tuple[str, ...]:
    """The templates apps above the lobby add to a table's pages at `place` (lobby.pages):
    `{% table_panels "result" as panels %}{% for name in panels %}{% include name %}{% endfor %}`."""
    return pages.table_panels(place)
