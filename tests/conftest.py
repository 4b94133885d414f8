"""Shared fixtures: fast hashing, a real daphne live server, and headless Chromium via Playwright."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path

import pytest

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-quic",
    "--no-first-run",
    "--disable-sync",
]


@pytest.fixture(scope="session", autouse=True)
def _the_runner_serves_nothing() -> None:
    """The test runner calls the ASGI application through communicators; that does not make it a
    server: no deadline ticker starts by itself here (tests that want one start it) and no server
    signal handlers are installed. The live server's process starts its ticker itself."""
    from durak_site import realtime

    realtime.never_serving()


@pytest.fixture(scope="session", autouse=True)
def _frames_checked_against_their_schema() -> None:
    """Every frame a socket sends (and every news event made) is checked against its definition
    (game/protocol): an undeclared type or a field out of shape fails where it is sent. The live
    server's process inherits it."""
    from game.protocol import schema

    schema.checking = True


@pytest.fixture(autouse=True)
def _fresh_health_answers() -> None:
    """/healthz shares its answer for a second (durak_site.views): each test computes its own."""
    from durak_site.views import _health

    _health.clear()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings) -> None:
    """Recovery keys are hashed with PBKDF2 in production; tests need not pay for it."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# The test process itself is no server: its tests start plain threads that use the ORM (a move
# made "from another tab", a race) and many at once. It gets a larger pool; every server process the
# tests start (the live daphne, Celery workers) keeps the configured one.
TEST_PROCESS_POOL_SIZE = 40

_thread_run = threading.Thread.run


def _run_then_hand_back(self: threading.Thread) -> None:
    """A test's thread that used the ORM and ended (a failed assertion included) would keep its
    pooled connection for the rest of the session, and a few dozen such threads empty the pool for
    every later test. Server code hands its connections back itself; test threads get this."""
    try:
        _thread_run(self)
    finally:
        from django.db import connections

        connections.close_all()


@pytest.fixture(scope="session", autouse=True)
def _test_threads_hand_back_their_connection() -> Iterator[None]:
    threading.Thread.run = _run_then_hand_back
    yield
    threading.Thread.run = _thread_run


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix) -> None:
    from django.conf import settings

    pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool")
    if pool:
        _server_pool_size.append(pool["max_size"])
        pool["max_size"] = TEST_PROCESS_POOL_SIZE


_server_pool_size: list[int] = []


def _live_server_setup(set_database_connection, django_db_blocker) -> None:
    """In the daphne child: the test database, and timers as in the embedded default (the in-process
    ticker fires countdowns, turn timers and disconnects; bots move on the server's loop) even when
    REDIS_URL makes TIMERS_BACKEND "celery": no Celery worker serves the live server."""
    from django.conf import settings

    threading.Thread.run = _thread_run  # a server hands its connections back itself: nothing hides a leak
    db = settings.DATABASES["default"]
    if not (str(db["NAME"]) == str(db.get("TEST", {}).get("NAME")) or str(db["NAME"]).startswith("test_")):
        set_database_connection()  # (on Postgres the forked settings already name the test DB: no test_test_…)
    django_db_blocker.unblock()  # the fork may have copied pytest-django's block; this process serves the DB
    if _server_pool_size:  # a server's pool, as configured (the fork forgot the parent's pool itself)
        db.get("OPTIONS", {}).get("pool", {})["max_size"] = _server_pool_size[0]
    # asgiref's process-wide executor for thread-sensitive calls comes over the fork believing it
    # still has the parent's worker thread, which does not exist here: calls queued on it (the
    # ticker's) would wait forever once earlier tests in the parent had used it. Give it a fresh one.
    from concurrent.futures import ThreadPoolExecutor

    from asgiref.sync import SyncToAsync

    SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)

    from durak_site import deadlines

    settings.TIMERS_BACKEND = "ticker"
    # Bots move on the server's own loop, quickly, so a browser game against three bots takes minutes.
    settings.BOT_SCHEDULER = "local"
    settings.BOT_DELAY_RANGE = (0.05, 0.15)
    deadlines.start_ticker()


@pytest.fixture(scope="session", autouse=True)
def _flush_retries_a_deadlock() -> Iterator[None]:
    """A transactional test ends by flushing (TRUNCATE) every table. The live server is another
    process: a write it is still making when the test ends (a browser tab closing records the
    disconnect) can deadlock with the TRUNCATE, and Postgres then aborts one of them. When it aborts
    the flush, wait a moment and flush again rather than fail the test that had passed."""
    import time

    from django.core.management.base import CommandError
    from django.db import OperationalError
    from django.test import TransactionTestCase

    original = TransactionTestCase._fixture_teardown

    def _fixture_teardown(self) -> None:
        for _attempt in range(4):
            try:
                return original(self)
            except CommandError as exc:
                if not isinstance(exc.__cause__, OperationalError) or "deadlock" not in str(exc.__cause__):
                    raise
                time.sleep(0.5)
        return original(self)

    TransactionTestCase._fixture_teardown = _fixture_teardown
    yield
    TransactionTestCase._fixture_teardown = original


@pytest.fixture(scope="session", autouse=True)
def _no_stale_socket_counts() -> None:
    """Table ids restart with every test database, so socket counts that an earlier run left in the
    shared cache (game.socket_count) could pass for open tabs: every run starts from an empty cache."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(scope="session", autouse=True)
def _generous_flood_limits() -> None:
    """Every test signs up and opens tables from one address (127.0.0.1), and ids restart with each
    test database: the flood limits would refuse tests for what earlier ones did. They stay on, wide
    open; tests/security/test_lobby_flood.py sets them tight and checks them. Set before the live
    server process starts, so it inherits them."""
    from django.conf import settings

    for name in ("SIGNUP_LIMIT_PER_ADDRESS", "TABLE_LIMIT_PER_ACCOUNT", "TABLE_LIMIT_PER_ADDRESS"):
        setattr(settings, name, (10**6, getattr(settings, name)[1]))


@contextmanager
def daphne_server(django_db_blocker, setup: Callable | None = None, static: bool = True) -> Iterator[str]:
    """A real daphne process serving the full ASGI app (HTTP + WebSockets) on the test database, as
    "127.0.0.1:port", stopped on exit. `setup(set_database_connection, django_db_blocker)` runs in the
    child first (default `_live_server_setup`)."""
    from channels.testing.live import make_application, set_database_connection
    from daphne.testing import DaphneProcess
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from django.db import connections

    with django_db_blocker.unblock():
        connections.close_all()
    process = DaphneProcess(
        "127.0.0.1",
        partial(make_application, static_wrapper=ASGIStaticFilesHandler if static else None),
        setup=partial(setup or _live_server_setup, set_database_connection, django_db_blocker),
    )
    process.start()
    while not process.ready.wait(timeout=1):
        if not process.is_alive():
            raise RuntimeError("the daphne live server process died while starting")
    try:
        yield f"127.0.0.1:{process.port.value}"
    finally:
        process.terminate()
        process.join(timeout=10)


@pytest.fixture(scope="session")
def asgi_live_server(django_db_setup, django_db_blocker) -> Iterator[str]:
    """The session's daphne (`daphne_server`), as a base URL.

    Tests that use it must also use `transactional_db` so their rows are committed and visible. It runs
    the in-process ticker, which fires any test's deadlines: tests that expect nobody to fire them use
    a module-scoped `daphne_server` of their own, or none.
    """
    with daphne_server(django_db_blocker) as host:
        yield f"http://{host}"


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium driven by Playwright (browser downloads do not work here).

    Module-scoped on purpose: Playwright's sync API keeps an asyncio loop running in the main thread
    while it is open, which breaks every later async test (Channels communicators) and makes the
    ORM refuse sync calls; closing it after each browser module ends that loop.
    """
    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"{CHROMIUM} is missing: install Debian's chromium (make test / .ci/run do it)")
    from playwright.sync_api import sync_playwright

    # While Playwright's loop runs, test code's own ORM calls look "async" to Django; allow them for
    # this module only and restore the environment after, so nothing leaks into later tests or the
    # subprocesses they start (e.g. `check --deploy` refuses the flag).
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as pw:
            chromium = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            yield chromium
            chromium.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items) -> None:
    """Every test that opens Chromium (the `browser` fixture, directly or through another fixture)
    carries the `browser` marker, before `-m` selects: `-m "not browser"` is the fast loop. Browser
    tests run last: Playwright's loop must never be open while async tests run. So does every test of
    the session's live server, browser or not: once started, its ticker fires any test's deadlines
    until the session ends, which the tests that fire deadlines themselves (tests/timers) must not meet."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)

    def runs_last(item) -> tuple[bool, bool]:
        names = getattr(item, "fixturenames", ())
        return "asgi_live_server" in names or "browser" in names, "browser" in names

    items.sort(key=runs_last)


@pytest.fixture
def screenshot_dir(request) -> Path:
    """Where a test saves screenshots of key screens (kept as CI artefacts, looked at by people)."""
    folder = ARTIFACTS / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def login_browser_context(browser, base_url: str, player, *, locale: str = "ru-RU", mobile: bool = False,
                          bypass_csp: bool = True):
    """A browser context already logged in as `player` (session cookie from Django's test client).

    Playwright's wait_for_function evaluates its predicate with `new Function`, which the site's CSP
    forbids: tests bypass the CSP unless they test it (tests/security/test_csp_browser.py)."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(player)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    options: dict = {"locale": locale, "base_url": base_url, "bypass_csp": bypass_csp}
    if mobile:
        options.update(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                       has_touch=True)
    else:
        options.update(viewport={"width": 1280, "height": 860})
    context = browser.new_context(**options)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value,
                          "url": base_url}])
    return context
