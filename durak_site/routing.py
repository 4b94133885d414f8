"""WebSocket routes: one socket per table for the waiting room and the game (docs/PROTOCOL.md), and one
site socket per tab on every page (presence and personal news: social/consumers.py).

Any other path (including /ws/tables/abc/, -1 or 1%00) is accepted and closed at once with 4404,
the code a missing table gets: no 500 on the handshake and no "No route found" traceback.
"""

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path, re_path

from durak_site import close_codes
from game.consumers import TableConsumer
from social.consumers import SiteConsumer


class NotFoundConsumer(AsyncWebsocketConsumer):
    """The catch-all route: nothing lives here."""

    async def connect(self) -> None:
        await self.accept()
        await self.close(code=close_codes.NOT_FOUND)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return None


def _app(consumer: type[AsyncWebsocketConsumer]) -> Any:
    """The consumer's ASGI app, for django.urls' path(), whose stubs expect a view."""
    return consumer.as_asgi()


websocket_urlpatterns: list[Any] = [
    path("ws/tables/<int:table_id>/", _app(TableConsumer)),
    path("ws/site/", _app(SiteConsumer)),
    re_path(r"", _app(NotFoundConsumer)),
]
