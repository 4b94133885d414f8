"""Site-wide views: the home page, the help page, the health check and the metrics endpoint."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.utils.translation import gettext as _
from django.views import defaults

from durak_site import health, metrics

from .db import server_busy
from .outages import RETRY_AFTER_SECONDS, redis_outage


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


def server_error(request: HttpRequest) -> HttpResponse:
    """An unhandled error's page (handler500). A request that waited for a database connection longer
    than the pool allows is the server being full, not broken: 503 with Retry-After, so a client or
    a proxy tries again instead of showing a failure. Redis not answering (an outage, or the first
    requests after one) is the same: the site's own 503 page with Retry-After. Anything else: the
    site's own 500 page."""
    error = sys.exc_info()[1]
    if redis_outage(error):
        page = loader.get_template("503.html").render({"retry_after": RETRY_AFTER_SECONDS})
        response = HttpResponse(page, status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    if server_busy(error):
        response = HttpResponse(_("The club is very busy right now. Please try again in a moment."),
                                status=503, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = "5"
        return response
    return defaults.server_error(request)


def help_page(request: HttpRequest) -> HttpResponse:
    """How to play here: the table's signs, hints, timers, disconnects, ratings, chat and reports."""
    return render(request, "help.html")


def accessibility(request: HttpRequest) -> HttpResponse:
    """docs/ACCESSIBILITY.md as it is in the repository: every key and command of the table without
    sight (the help page links it)."""
    text = (settings.BASE_DIR / "docs" / "ACCESSIBILITY.md").read_text(encoding="utf-8")
    return HttpResponse(text, content_type="text/plain; charset=utf-8")


class _Bucket:
    """A token bucket: BURST at once, then RATE a second."""

    __slots__ = ("tokens", "stamp")

    def __init__(self, burst: float, now: float) -> None:
        self.tokens, self.stamp = burst, now

    def take(self, rate: float, burst: float, now: float) -> bool:
        self.tokens = min(burst, self.tokens + (now - self.stamp) * rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class _Probes:
    """Each client address's own allowance for the probe endpoints, per process: PROBES_BURST at once,
    then PROBES_RATE a second; beyond it 429. One address hammering /healthz spends only its own
    allowance, never the platform's probe's (another address) nor an authenticated scrape's (which
    takes none). At most MAX_ADDRESSES are remembered; the least recently seen go first."""

    RATE, BURST = 5.0, 20.0
    MAX_ADDRESSES = 4096

    def __init__(self) -> None:
        self.buckets: dict[str, _Bucket] = {}
        self.lock = threading.Lock()

    def take(self, address: str) -> bool:
        now = time.monotonic()
        with self.lock:
            bucket = self.buckets.pop(address, None) or _Bucket(self.BURST, now)
            self.buckets[address] = bucket  # most recent last
            if len(self.buckets) > self.MAX_ADDRESSES:
                del self.buckets[next(iter(self.buckets))]
            return bucket.take(self.RATE, self.BURST, now)


_probes = _Probes()


def _client(request: HttpRequest) -> str:
    """The probe's address: REMOTE_ADDR, or behind TRUSTED_PROXY_HOPS proxies the address they saw."""
    hops = getattr(settings, "TRUSTED_PROXY_HOPS", 0)
    if hops:
        forwarded = [p.strip() for p in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if p.strip()]
        if len(forwarded) >= hops:
            return forwarded[-hops][:64]
    return (request.META.get("REMOTE_ADDR") or "unknown")[:64]


def _too_many() -> HttpResponse:
    response = HttpResponse("too many requests\n", status=429, content_type="text/plain")
    response["Retry-After"] = "1"
    return response


def _health_ttl() -> float:
    """Seconds every caller gets the same answer (HEALTHZ_CACHE_SECONDS, 1 s): the checks run once a
    second at most per process."""
    return float(getattr(settings, "HEALTHZ_CACHE_SECONDS", 1.0))


class _HealthAnswers:
    """The last answer of each kind (full, ``?process=1``), computed by one caller at a time."""

    def __init__(self) -> None:
        self.answers: dict[bool, tuple[float, int, dict]] = {}
        self.lock = threading.Lock()

    def get(self, process_only: bool) -> tuple[int, dict]:
        with self.lock:  # the others wait for the one computing, then share its answer
            cached = self.answers.get(process_only)
            if cached is None or time.monotonic() - cached[0] >= _health_ttl():
                cached = (time.monotonic(), *_health_answer(process_only))
                self.answers[process_only] = cached
            return cached[1], cached[2]

    def clear(self) -> None:
        with self.lock:
            self.answers.clear()


_health = _HealthAnswers()


def _health_answer(process_only: bool) -> tuple[int, dict]:
    checks: dict[str, str] = {"database": "ok"}
    reasons: list[str] = []
    for name, check, applies in (("database", health.check_database, True),
                                 ("redis", health.check_redis, bool(settings.REDIS_URL)),
                                 ("timers", health.check_sweeper, health.sweeper_expected() and not process_only),
                                 ("workers", health.check_workers, health.workers_expected() and not process_only)):
        if not applies:
            continue
        reason = check()
        checks[name] = "ok" if reason is None else "error"
        if reason is not None:
            reasons.append(reason)
    body: dict[str, object] = {"status": "error" if reasons else "ok", **checks}
    if reasons:
        body["reason"] = "; ".join(reasons)
    return (503 if reasons else 200), body


def healthz(request: HttpRequest) -> HttpResponse:
    """200 when the database, Redis (when configured), the deadline sweeper (beat, or this process's
    ticker) and a Celery worker on every queue are alive; 503 with the reasons otherwise. ``?process=1``
    leaves the sweeper and the workers out: a container's liveness probe must not restart web
    processes because beat or a worker stopped. The answer is computed at most once a second per
    process (HEALTHZ_CACHE_SECONDS) and shared: a flood costs no more checks, and a probe is answered, not refused."""
    if not _probes.take(_client(request)):
        return _too_many()
    status, body = _health.get(bool(request.GET.get("process")))
    response = JsonResponse(body, status=status)
    response["Cache-Control"] = "no-store"
    return response


def metrics_view(request: HttpRequest) -> HttpResponse:
    """Prometheus' scrape: ``Authorization: Bearer $METRICS_TOKEN`` (403 without it, unless DEBUG). The
    token is checked first: an authenticated scrape is never limited; anyone else's requests spend only
    their own address's allowance."""
    if not metrics.enabled():
        return HttpResponse("metrics are off\n", status=404, content_type="text/plain")
    if not metrics.authorised(request.headers.get("Authorization")):
        if not _probes.take(_client(request)):
            return _too_many()
        return HttpResponse("forbidden\n", status=403, content_type="text/plain")
    if not getattr(settings, "METRICS_TOKEN", "") and not _probes.take(_client(request)):
        return _too_many()  # an open DEBUG endpoint (no token) stays limited
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
