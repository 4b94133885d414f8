"""Template filters and tags of the lobby's pages."""

from django import template

from game.engine.cards import CARD_RE
from lobby import pages
from lobby.rule_texts import bot_level_label as _bot_level_label

register = template.Library()

# As game/static/game/cards.js SUIT_SYMBOL: the face of a card names its suit by symbol.
SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


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
        "card": card, "rank": rank, "suit": SUIT_SYMBOL[suit], "colour": "red" if suit in "HD" else "black",
        "is_trump": suit == trump, "pips": range(int(rank)) if rank.isdigit() else (),
        "extra": extra, "style": style, "decorative": decorative,
    }


@register.simple_tag
def table_panels(place: str = "page") -> tuple[str, ...]:
    """The templates apps above the lobby add to a table's pages at `place` (lobby.pages):
    `{% table_panels "result" as panels %}{% for name in panels %}{% include name %}{% endfor %}`."""
    return pages.table_panels(place)
