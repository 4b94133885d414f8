"""Site-wide views: the home page and the health check."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseServerError, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from .db import server_busy

log = logging.getLogger(__name__)


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


def server_error(request: HttpRequest) -> HttpResponse:
    """An unhandled error's page (handler500). A request that waited for a database connection longer
    than the pool allows is the server being full, not broken: 503 with Retry-After, so a client or
    a proxy tries again instead of showing a failure."""
    if server_busy(sys.exc_info()[1]):
        response = HttpResponse(_("The club is very busy right now. Please try again in a moment."),
                                status=503, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = "5"
        return response
    return HttpResponseServerError(_("Something went wrong on our side. Please try again."),
                                   content_type="text/plain; charset=utf-8")


def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness for the PaaS: the database answers, and Redis too when it is configured."""
    checks: dict[str, str] = {}
    ok = True
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        checks["database"] = "ok"
    except Exception as exc:  # any failure means unhealthy, whatever the driver raised
        log.warning("healthz: database check failed: %s", exc)
        checks["database"] = "error"
        ok = False
    if settings.REDIS_URL:
        try:
            import redis

            client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)
            try:
                client.ping()
            finally:
                client.close()
            checks["redis"] = "ok"
        except Exception as exc:
            log.warning("healthz: redis check failed: %s", exc)
            checks["redis"] = "error"
            ok = False
    response = JsonResponse({"status": "ok" if ok else "error", **checks}, status=200 if ok else 503)
    response["Cache-Control"] = "no-store"
    return response


class HealthzMiddleware:
    """Answers /healthz before host validation and the HTTPS redirect.

    Platform probes and container health checks call the container by its internal address, which is
    not in ALLOWED_HOSTS and speaks plain HTTP; they must still get the real answer.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path == "/healthz" and request.method in ("GET", "HEAD"):
            return healthz(request)
        return self.get_response(request)
