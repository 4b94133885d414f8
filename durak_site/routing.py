"""WebSocket routes: one socket per table for the waiting room and the game (DESIGN.md)."""

from django.urls import path

from game.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
]
