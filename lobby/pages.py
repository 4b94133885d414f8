"""Pages that the apps above the lobby render at the lobby's URLs, and panels they add to them.

A table's URL (`/tables/<id>/`) shows the waiting room, and the game table while a game runs or
its rematch offer lasts. The game app is above the lobby, so the lobby never imports it: the game
app registers its page here in its ready(). A missing registration fails loudly at the first request.

Apps above the lobby also add panels to the waiting room (the chat, registered in ChatConfig.ready()):
templates rendered with the room page's context, outside the part htmx refreshes, so they live on
across the room's updates. `{% table_panels %}` (lobby_tags) names them to the page.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse

GamePage = Callable[[HttpRequest, object], HttpResponse]
_game_page: GamePage | None = None
_panels: list[str] = []


def register_game_page(view: GamePage) -> None:
    global _game_page
    _game_page = view


def game_page(request: HttpRequest, table) -> HttpResponse:
    if _game_page is None:
        raise ImproperlyConfigured("no game page is registered (is the game app installed?)")
    return _game_page(request, table)


def register_table_panel(template_name: str) -> None:
    """`template_name` is rendered on the waiting-room page of every open table (once, in order)."""
    if template_name not in _panels:
        _panels.append(template_name)


def table_panels() -> tuple[str, ...]:
    return tuple(_panels)
