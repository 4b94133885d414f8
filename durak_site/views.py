"""Site-wide views: the home page, the help page, the health check and the metrics endpoint."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views import defaults

from durak_site import health, metrics

from .db import server_busy


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


def server_error(request: HttpRequest) -> HttpResponse:
    """An unhandled error's page (handler500). A request that waited for a database connection longer
    than the pool allows is the server being full, not broken: 503 with Retry-After, so a client or
    a proxy tries again instead of showing a failure. Anything else: the site's own 500 page."""
    if server_busy(sys.exc_info()[1]):
        response = HttpResponse(_("The club is very busy right now. Please try again in a moment."),
                                status=503, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = "5"
        return response
    return defaults.server_error(request)


def help_page(request: HttpRequest) -> HttpResponse:
    """How to play here: the table's signs, hints, timers, disconnects, ratings, chat and reports."""
    return render(request, "help.html")


class _Probes:
    """A process-wide allowance for the probe endpoints (each costs a database or Redis round trip):
    PROBES_BURST at once, then PROBES_RATE a second; beyond it 429. Monitors ask every few seconds."""

    RATE, BURST = 20.0, 60.0

    def __init__(self) -> None:
        self.tokens, self.stamp = self.BURST, time.monotonic()
        self.lock = threading.Lock()

    def take(self) -> bool:
        with self.lock:
            now = time.monotonic()
            self.tokens = min(self.BURST, self.tokens + (now - self.stamp) * self.RATE)
            self.stamp = now
            if self.tokens < 1:
                return False
            self.tokens -= 1
            return True


_probes = _Probes()


def _too_many() -> HttpResponse:
    response = HttpResponse("too many requests\n", status=429, content_type="text/plain")
    response["Retry-After"] = "1"
    return response


def healthz(request: HttpRequest) -> HttpResponse:
    """200 when the database, Redis (when configured), the deadline sweeper (beat, or this process's
    ticker) and a Celery worker on every queue are alive; 503 with the reasons otherwise. ``?process=1``
    leaves the sweeper and the workers out: a container's liveness probe must not restart web
    processes because beat or a worker stopped."""
    if not _probes.take():
        return _too_many()
    checks: dict[str, str] = {"database": "ok"}
    reasons: list[str] = []
    for name, check, applies in (("database", health.check_database, True),
                                 ("redis", health.check_redis, bool(settings.REDIS_URL)),
                                 ("timers", health.check_sweeper,
                                  health.sweeper_expected() and not request.GET.get("process")),
                                 ("workers", health.check_workers,
                                  health.workers_expected() and not request.GET.get("process"))):
        if not applies:
            continue
        reason = check()
        checks[name] = "ok" if reason is None else "error"
        if reason is not None:
            reasons.append(reason)
    body: dict[str, object] = {"status": "error" if reasons else "ok", **checks}
    if reasons:
        body["reason"] = "; ".join(reasons)
    response = JsonResponse(body, status=503 if reasons else 200)
    response["Cache-Control"] = "no-store"
    return response


def metrics_view(request: HttpRequest) -> HttpResponse:
    """Prometheus' scrape: ``Authorization: Bearer $METRICS_TOKEN`` (403 without it, unless DEBUG)."""
    if not metrics.enabled():
        return HttpResponse("metrics are off\n", status=404, content_type="text/plain")
    if not metrics.authorised(request.headers.get("Authorization")):
        return HttpResponse("forbidden\n", status=403, content_type="text/plain")
    if not _probes.take():
        return _too_many()
    response = HttpResponse(metrics.exposition(), content_type="text/plain; version=0.0.4; charset=utf-8")
    response["Cache-Control"] = "no-store"
    return response


PROBES = {"/healthz": healthz, "/metrics": metrics_view}


class HealthzMiddleware:
    """Answers /healthz and /metrics before host validation and the HTTPS redirect.

    Platform probes, container health checks and Prometheus call the container by its internal
    address, which is not in ALLOWED_HOSTS and speaks plain HTTP; they must still get the real answer.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        view = PROBES.get(request.path)
        if view is not None and request.method in ("GET", "HEAD"):
            return view(request)
        return self.get_response(request)
