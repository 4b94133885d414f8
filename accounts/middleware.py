"""Keeps Player.last_seen fresh for moderators (and the addresses his pages come from), at most one
write per player per few minutes."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from . import services


class LastSeenMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            services.touch_last_seen(user, services.client_ip(request))
        return response
