"""Pages that the apps above the lobby render at the lobby's URLs.

A table's URL (`/tables/<id>/`) shows the waiting room, and the game table while a game runs or
its rematch offer lasts. The game app is above the lobby, so the lobby never imports it: the game
app registers its page here in its ready(). A missing registration fails loudly at the first request.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse

GamePage = Callable[[HttpRequest, object], HttpResponse]
_game_page: GamePage | None = None


def register_game_page(view: GamePage) -> None:
    global _game_page
    _game_page = view


def game_page(request: HttpRequest, table) -> HttpResponse:
    if _game_page is None:
        raise ImproperlyConfigured("no game page is registered (is the game app installed?)")
    return _game_page(request, table)
