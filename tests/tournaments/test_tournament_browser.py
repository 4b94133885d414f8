"""Four players in real browsers against the live stack: they join an arena from its page, are sent
to their tables when paired, play games to the end (the moves go through game.services from the
test, quickly), the standings move on an onlooker's page without a reload, one pauses and comes
back, and the podium appears when the arena ends."""

from __future__ import annotations

import time

import pytest
from django.conf import settings

from tests.game.helpers import play_out
from tests.game.test_table_ui_live import close, make_player
from tests.tournaments.browser import Homes, dealt, one_network_forgotten, page_of, site_open

pytestmark = [pytest.mark.timeout(400),
              pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (a shared channel layer): the test "
                                 "process ends the games, the live daphne tells the pages")]


def _play_round(event, pages: dict, shot=None) -> int:
    """Every pending pairing: both players' pages went to its table by themselves, its game was
    dealt (both arrived, the 3-2-1 ran); it is played to the end, and its players go back to the
    event's page (if the next pairing has not already taken them away)."""
    from tournaments.models import TournamentGame

    pending = list(TournamentGame.objects.filter(tournament=event, status="pending"))
    for g in pending:
        for pid in (g.player_a_id, g.player_b_id):
            if pid in pages:
                pages[pid].wait_for_url(f"**/tables/{g.table_id}/", timeout=20000)
    for g in pending:
        game = dealt(g.table_id)
        if shot is not None:  # his game runs: his page stays where it is until it ends
            page = pages[g.player_a_id]
            page.wait_for_function("window.__table && window.__table.view !== null", timeout=20000)
            page.screenshot(path=str(shot))
            shot = None
        one_network_forgotten()
        play_out(game.pk, seed=g.pk)
        for pid in (g.player_a_id, g.player_b_id):  # back to the event's page: his pause screen
            if pid in pages and f"/tables/{g.table_id}/" in pages[pid].url:
                pages[pid].goto(f"/tournaments/{event.pk}/")
    return len(pending)


def _wait_paired(event, count, timeout=20):
    from tournaments.models import TournamentGame

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if TournamentGame.objects.filter(tournament=event, status="pending").count() >= count:
            return
        time.sleep(0.2)
    raise AssertionError("the arena did not pair the pool")


def _wait_dealt(event, timeout=60, pages=()):
    """Every pending pairing's game has been dealt (both came, the 3-2-1 ran)."""
    from game.models import Game
    from tournaments.models import TournamentGame

    deadline = time.monotonic() + timeout
    tables = list(TournamentGame.objects.filter(tournament=event, status="pending").values_list("table_id", flat=True))
    while Game.objects.filter(table_id__in=tables).count() < len(tables):
        if time.monotonic() > deadline:
            seen = [(p.url, p.evaluate("JSON.stringify(((window.__site || {}).messages || []).slice(-4))"))
                    for p in pages]
            raise AssertionError(f"the games were not dealt: {seen}")
        time.sleep(0.2)


def test_four_players_play_an_arena_live_to_the_podium(asgi_live_server, transactional_db, browser, screenshot_dir):
    from datetime import timedelta

    from durak_site.clock import db_now
    from tournaments import services
    from tournaments.models import Entry, Tournament

    creator = make_player("Организатор")
    event = services.create_private(creator, name="Вечерняя арена", format="arena", minutes=20,
                                    starts_at=db_now() + timedelta(minutes=5))
    Tournament.objects.filter(pk=event.pk).update(private=False)
    nicks = ("Аня", "Боря", "Вика", "Гоша")
    people = [make_player(n) for n in nicks]
    contexts, pages = [], []
    for i, p in enumerate(people):
        ctx, page = page_of(browser, asgi_live_server, p, mobile=i % 2 == 0, locale="en-US" if i == 3 else "ru-RU")
        contexts.append(ctx)
        pages.append(page)
    by_player = {p.pk: page for p, page in zip(people, pages, strict=True)}
    watch_ctx, watch = page_of(browser, asgi_live_server, make_player("Зритель"), mobile=True)
    contexts.append(watch_ctx)
    homes = Homes()
    homes.start()
    try:
        # one tap on the home page: «Участвовать»
        pages[0].goto("/")
        pages[0].locator(".t-next-item", has_text="Вечерняя арена").get_by_role("button", name="Участвовать").click()
        pages[0].wait_for_url(f"**/tournaments/{event.pk}/")
        for page, nick in zip(pages[1:], nicks[1:], strict=True):
            page.goto(f"/tournaments/{event.pk}/")
            page.locator("[data-join]").click()
            page.wait_for_url(f"**/tournaments/{event.pk}/")
            assert page.locator(".t-standings", has_text=nick).count() == 1
        pages[0].reload()
        for page in pages:
            site_open(page)
        watch.goto(f"/tournaments/{event.pk}/")
        site_open(watch)
        watch.evaluate("window.__sameDocument = true")
        watch.screenshot(path=str(screenshot_dir / "tournament-before-start-phone.png"))
        assert Entry.objects.filter(tournament=event).count() == 4

        # the start falls due: the server's sweep starts the arena and pairs everybody by rating
        one_network_forgotten()
        Tournament.objects.filter(pk=event.pk).update(start_deadline=db_now(), warn_deadline=None)
        _wait_paired(event, 2)
        assert _play_round(event, by_player, shot=screenshot_dir / "tournament-game-table.png") == 2
        # the onlooker's standings moved without a reload
        watch.locator(".t-points", has_text="2").first.wait_for(timeout=15000)
        assert watch.evaluate("window.__sameDocument") is True
        watch.screenshot(path=str(screenshot_dir / "tournament-standings-live-phone.png"))

        # straight back into the pool: paired again within seconds, never the same opponent
        _wait_paired(event, 2)
        _wait_dealt(event, pages=pages)
        # Гоша pauses from a second tab while he plays: it starts when his game ends
        pause_ctx, pause_tab = page_of(browser, asgi_live_server, people[3], locale="en-US")
        contexts.append(pause_ctx)
        pause_tab.goto(f"/tournaments/{event.pk}/")
        pause_tab.locator("[data-pause]").click()
        pause_tab.get_by_text("Your pause starts when this game ends.").wait_for(timeout=10000)
        assert _play_round(event, by_player) == 2
        assert Entry.objects.get(tournament=event, player=people[3]).state == "paused"
        pause_tab.goto(f"/tournaments/{event.pk}/")
        pause_tab.get_by_text("You are on a pause").wait_for(timeout=10000)
        pause_tab.screenshot(path=str(screenshot_dir / "tournament-pause-screen-desktop.png"))
        pause_tab.locator("[data-resume]").click()
        deadline = time.monotonic() + 10
        while Entry.objects.get(tournament=event, player=people[3]).state == "paused":
            assert time.monotonic() < deadline, "the return did not take"
            time.sleep(0.2)

        # the end: the podium appears on every open event page
        Tournament.objects.filter(pk=event.pk).update(end_deadline=db_now())
        watch.locator(".t-podium").wait_for(timeout=15000)
        assert watch.evaluate("window.__sameDocument") is True
        event.refresh_from_db()
        assert event.status == "finished" and len(event.podium) == 3
        watch.screenshot(path=str(screenshot_dir / "tournament-podium-phone.png"))
        winner = next(p for p in people if p.pk == event.podium[0]["player_id"])
        winner_page = pages[people.index(winner)]
        winner_page.goto("/accounts/profile/")
        winner_page.get_by_text("Вечерняя арена").wait_for(timeout=10000)
        for page in (*pages, watch):
            assert page.errors == []
    finally:
        homes.stop.set()
        homes.join()
        close(*contexts)
