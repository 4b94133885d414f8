"""The club's Prometheus metrics: every definition lives here, the apps call one-line helpers.

Why prometheus-client and not django-prometheus: the numbers an on-call person needs here are the live
path's (moves, frames, sockets, deadlines, bots), which happen in consumers, Celery tasks and the
realtime bridge, not in Django's request/response cycle that django-prometheus instruments; and its
per-view and per-model metrics would be mostly noise. prometheus-client alone gives the primitives and
the multiprocess mode.

Processes: with ``PROMETHEUS_MULTIPROC_DIR`` set (the compose file and the docs set it per container),
every process of one container writes its samples to files in that directory (daphne processes, Celery's
prefork children) and any ``/metrics`` served there adds them up. Without it, each process exports its
own registry (the embedded default, tests). The Celery worker has no web server: ``METRICS_PORT`` makes
its main process serve the container's directory on that port (``serve_in_thread``).

Numbers that belong to the whole club, not to one process (games by state, the Celery queue, the age
of beat's last sweep), are read when a scrape comes (``ClubCollector``): apps register their readers
with ``register_reader`` in their ``ready()``.

``METRICS_ENABLED`` (setting, default on) switches every helper to a no-op: the A/B of bench_ws.
"""

from __future__ import annotations

import contextvars
import hmac
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from wsgiref.simple_server import WSGIRequestHandler, make_server

from django.conf import settings
from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily, Metric

from durak_site import health

log = logging.getLogger(__name__)

MULTIPROCESS = "PROMETHEUS_MULTIPROC_DIR" in os.environ  # prometheus-client's own test: set at all

LATENCY_BUCKETS = (0.005, 0.01, 0.02, 0.035, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0)
LATENESS_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
DECISION_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)

MOVES_APPLIED = Counter("durak_moves_applied_total", "Players' moves applied (resends of an applied move: "
                        "duplicate=\"true\").", ["duplicate"])
MOVES_REFUSED = Counter("durak_moves_refused_total", "Players' moves refused, by error code.", ["code"])
MOVE_LATENCY = Histogram("durak_move_latency_seconds", "From a move's frame received on the socket to its "
                         "frames published to every viewer.", buckets=LATENCY_BUCKETS)
FRAMES_PUBLISHED = Counter("durak_frames_published_total", "Game frames published to a seat's or the "
                           "spectators' group.")
SOCKET_MESSAGES = Counter("durak_socket_messages_sent_total", "Messages sent on table sockets (frames, "
                          "acks, pongs, errors).")
OPEN_SOCKETS = Gauge("durak_table_sockets_open", "Table sockets open on the web processes.",
                     multiprocess_mode="livesum")
DEADLINES_FIRED = Counter("durak_deadlines_fired_total", "Deadlines fired by the sweeper, by kind.", ["kind"])
DEADLINE_LATENESS = Histogram("durak_deadline_lateness_seconds", "How late a deadline fired (database clock), "
                              "by kind.", ["kind"], buckets=LATENESS_BUCKETS)
SWEEPS = Counter("durak_timer_sweeps_total", "Deadline sweeps run (beat's through a worker, or the "
                 "in-process ticker).")
BOT_DECISION = Histogram("durak_bot_decision_seconds", "Time a bot takes to choose its move (without its "
                         "human-like pause), by level.", ["level"], buckets=DECISION_BUCKETS)
CHAT_MESSAGES = Counter("durak_chat_messages_total", "Chat messages posted at tables.")


def enabled() -> bool:
    return bool(getattr(settings, "METRICS_ENABLED", True))


# ---------------------------------------------------------------- one-line helpers for the apps

_move_started: contextvars.ContextVar[list[float] | None] = contextvars.ContextVar("durak_move", default=None)


def move_received() -> None:
    """A move's frame arrived on this socket: the clock for ``durak_move_latency_seconds`` starts. The
    context variable follows the move into its database thread, where ``move_clock`` takes it."""
    if enabled():
        _move_started.set([time.perf_counter()])


def move_clock() -> float | None:
    """The start of the move being committed in this context, taken once (a later commit made by the
    same socket, a heartbeat's, is no move)."""
    box = _move_started.get()
    if not box:
        return None
    return box.pop()


def move_published(started: float | None) -> None:
    if started is not None:
        MOVE_LATENCY.observe(time.perf_counter() - started)


def _move_done() -> None:
    """The move's clock stops here whether or not it published: a later commit of this socket's
    (a heartbeat's) must not take it."""
    box = _move_started.get()
    if box:
        box.clear()


def move_applied(duplicate: bool) -> None:
    _move_done()
    if enabled():
        MOVES_APPLIED.labels("true" if duplicate else "false").inc()


def move_refused(code: str) -> None:
    _move_done()
    if enabled():
        MOVES_REFUSED.labels(code).inc()


def published(messages: Iterable[tuple[str, dict]]) -> None:
    """The realtime bridge published these group messages: count frames and chat messages."""
    if not enabled():
        return
    for _group, message in messages:
        kind = message.get("type")
        if kind == "game.frame":
            FRAMES_PUBLISHED.inc()
        elif kind == "socket.hook" and message.get("hook") == "chat_forward" \
                and message.get("frame", {}).get("type") == "chat":
            CHAT_MESSAGES.inc()


def socket_message_sent() -> None:
    if enabled():
        SOCKET_MESSAGES.inc()


def socket_opened() -> None:
    if enabled():
        OPEN_SOCKETS.inc()


def socket_closed() -> None:
    if enabled():
        OPEN_SOCKETS.dec()


def deadline_fired(kind: str, late_ms: float) -> None:
    if enabled():
        DEADLINES_FIRED.labels(kind).inc()
        DEADLINE_LATENESS.labels(kind).observe(max(0.0, late_ms) / 1000.0)


def sweep_done() -> None:
    """A sweep ran: counted here, and its time recorded for /healthz (durak_site.health)."""
    health.note_sweep()
    if enabled():
        SWEEPS.inc()


def bot_decided(level: str, seconds: float) -> None:
    if enabled():
        BOT_DECISION.labels(level).observe(seconds)


# ---------------------------------------------------------------- numbers read at scrape time

Reader = Callable[[], Iterable[Metric]]
_readers: list[Reader] = []


def register_reader(reader: Reader) -> None:
    """`reader()` yields metric families read when a scrape comes (an app's club-wide numbers)."""
    if reader not in _readers:
        _readers.append(reader)


def gauge_family(name: str, documentation: str, labels: list[str] | None = None) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, documentation, labels=labels)


def _site_readers() -> Iterable[Metric]:
    age = health.last_sweep_age()
    family = GaugeMetricFamily("durak_timers_last_sweep_age_seconds", "Seconds since the last deadline sweep "
                               "(beat's, run by a worker, or the in-process ticker's); -1: none recorded.")
    family.add_metric([], -1.0 if age is None else age)
    yield family
    if health.workers_expected():
        workers = GaugeMetricFamily("durak_celery_worker_heartbeat_age_seconds", "Seconds since a worker last "
                                    "served the queue (a finished task, an analysis' step); -1: never.",
                                    labels=["queue"])
        for name, age in health.worker_ages().items():
            workers.add_metric([name], -1.0 if age is None else age)
        yield workers
    depth = health.celery_queue_depth()
    if depth is not None:
        queue = GaugeMetricFamily("durak_celery_queue_length", "Tasks waiting in Celery's queue.", labels=["queue"])
        for name, length in depth.items():
            queue.add_metric([name], length)
        yield queue


class ClubCollector:
    """The registered readers, each guarded: a broken reader costs its own families, not the scrape."""

    def collect(self) -> Iterable[Metric]:
        for reader in [_site_readers, *_readers]:
            try:
                yield from reader()
            except Exception:
                log.warning("metrics: reader %s failed", getattr(reader, "__name__", reader), exc_info=True)


class _ProcessRegistry:
    """This process's own metrics (no multiprocess directory)."""

    def collect(self) -> Iterable[Metric]:
        yield from REGISTRY.collect()


def exposition(club: bool = True) -> bytes:
    """The text a scrape gets: this container's processes (or this process), plus the club's numbers."""
    registry = CollectorRegistry(auto_describe=False)
    if MULTIPROCESS:
        multiprocess.MultiProcessCollector(registry)
    else:
        registry.register(_ProcessRegistry())
    if club:
        registry.register(ClubCollector())
    return generate_latest(registry)


def authorised(header: str | None) -> bool:
    """``Authorization: Bearer <METRICS_TOKEN>``. With no token configured only a DEBUG site is open."""
    token = getattr(settings, "METRICS_TOKEN", "") or ""
    if not token:
        return bool(settings.DEBUG)
    scheme, _sep, given = (header or "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode())


def forget_dead_processes() -> int:
    """Drop the live gauges of processes that no longer run (a web process killed with -9 left its open
    sockets counted). Only pids of this container's own namespace are in its directory."""
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not directory or not os.path.isdir(directory):
        return 0
    dead = 0
    for name in os.listdir(directory):
        if not name.startswith("gauge_live") or not name.endswith(".db"):
            continue
        pid = int(name.rsplit("_", 1)[-1][:-3])
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            multiprocess.mark_process_dead(pid, directory)
            dead += 1
        except PermissionError:
            pass
    return dead


def serve_in_thread(port: int, host: str = "0.0.0.0") -> threading.Thread:  # noqa: S104 (a container's port)
    """A worker's /metrics on ``port`` (token-protected like the site's), in a daemon thread."""

    class Quiet(WSGIRequestHandler):
        def log_message(self, *args) -> None:  # every scrape would log a line
            pass

    def app(environ, start_response):
        if environ.get("PATH_INFO") != "/metrics":
            start_response("404 Not Found", [("Content-Type", "text/plain")])
            return [b"not found\n"]
        if not authorised(environ.get("HTTP_AUTHORIZATION")):
            start_response("403 Forbidden", [("Content-Type", "text/plain")])
            return [b"forbidden\n"]
        start_response("200 OK", [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")])
        return [exposition(club=False)]

    server = make_server(host, port, app, handler_class=Quiet)
    thread = threading.Thread(target=server.serve_forever, name="metrics-server", daemon=True)
    thread.start()
    return thread
