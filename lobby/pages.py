"""Pages that the apps above the lobby render at the lobby's URLs, and panels they add to them.

A table's URL (`/tables/<id>/`) shows the waiting room, and the game table while a game runs or
its rematch offer lasts. The game app is above the lobby, so the lobby never imports it: the game
app registers its page here in its ready(). A missing registration fails loudly at the first request.

Apps above the lobby also add panels to a table's pages: templates rendered with the page's context,
at a named place. "page": the waiting room (outside the part htmx refreshes, so they live on across
the room's updates) and the game table (the chat, registered in ChatConfig.ready()); "result" and
"result_actions": the game table's game-over dialog, above and among its buttons (the ratings' series
standings and replay link); "lobby": the lobby's list page, above the tables (who is online); "home": the home page (the next tournaments); "rules": sections of the rules page
(matchmaking and the reliability mark). `{% table_panels place %}` (lobby_tags) names them to the page, so no
template of the lobby or the game names an app above it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse

from durak_site.panels import Panels

GamePage = Callable[[HttpRequest, object], HttpResponse]
_game_page: GamePage | None = None
PLACES = ("page", "result", "result_actions", "lobby", "rules", "home")
_panels = Panels("the table pages", PLACES)


def register_game_page(view: GamePage) -> None:
    global _game_page
    _game_page = view


def game_page(request: HttpRequest, table) -> HttpResponse:
    if _game_page is None:
        raise ImproperlyConfigured("no game page is registered (is the game app installed?)")
    return _game_page(request, table)


QuickPlay = Callable[[HttpRequest], HttpResponse]
_quick_play: QuickPlay | None = None


def register_quick_play(view: QuickPlay) -> None:
    """«Быстрая игра» (`POST /tables/quick/`) is answered by this view (the social app's search)
    instead of the lobby's own seat-me-with-bots."""
    global _quick_play
    _quick_play = view


def quick_play_page(request: HttpRequest) -> HttpResponse | None:
    return _quick_play(request) if _quick_play is not None else None


RatingNotice = Callable[[list[int]], "tuple[str, str] | None"]
_rating_notice: RatingNotice | None = None


def register_rating_notice(notice: RatingNotice) -> None:
    """The ratings app tells the waiting room why the next game of these people would be unrated
    (and what they can do about it): (reason, help) or None."""
    global _rating_notice
    _rating_notice = notice


def rating_notice(player_ids: list[int]) -> tuple[str, str] | None:
    return _rating_notice(player_ids) if _rating_notice is not None else None


def register_table_panel(template_name: str, place: str = "page") -> None:
    """`template_name` is rendered at `place` (PLACES) of every open table's pages (once, in order)."""
    _panels.register(template_name, place)


def table_panels(place: str = "page") -> tuple[str, ...]:
    return _panels.at(place)
