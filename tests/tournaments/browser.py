"""What the tournament browser tests share: a signed-in page that records its script errors, the
site socket open, the loopback forgotten as one network, and a pairing's game waited for."""

from __future__ import annotations

import threading
import time

from tests.conftest import login_browser_context


def page_of(browser, base, player, **kw):
    """A signed-in page (its own context) whose uncaught script errors are kept in `page.errors`."""
    context = login_browser_context(browser, base, player, **kw)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return context, page


def site_open(page):
    page.wait_for_function("window.__site && window.__site.open", timeout=15000)


def one_network_forgotten():
    """Every browser here comes from 127.0.0.1, which the sockets record: as people at their homes,
    they must not count as one network (an event never pairs them)."""
    from accounts.models import AddressUse

    AddressUse.objects.all().delete()


class Homes(threading.Thread):
    """Forgets the shared loopback address as fast as the sockets record it, for the test's length."""

    def __init__(self):
        super().__init__(daemon=True)
        self.stop = threading.Event()

    def run(self):
        from django.db import connections

        try:
            while not self.stop.wait(0.1):
                one_network_forgotten()
        finally:
            connections.close_all()


def dealt(table_id: int, timeout: float = 30):
    """The game of a tournament table once the server dealt it (both came, the 3-2-1 ran)."""
    from game.models import Game

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        game = Game.objects.filter(table_id=table_id, status="playing").first()
        if game is not None:
            return game
        time.sleep(0.2)
    raise AssertionError(f"the game of table {table_id} was never dealt")
