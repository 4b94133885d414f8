"""Template filters of the lobby's pages."""

from django import template

from lobby import pages
from lobby.rule_texts import bot_level_label as _bot_level_label

register = template.Library()


@register.filter
def bot_level_label(code: str) -> str:
    """A bot seat's level as people read it («любитель»), also for the engine names saved tables use."""
    return _bot_level_label(code)


@register.simple_tag
def table_panels() -> tuple[str, ...]:
    """The templates apps above the lobby add to the waiting room (lobby.pages): `{% table_panels as
    panels %}{% for name in panels %}{% include name %}{% endfor %}`."""
    return pages.table_panels()
