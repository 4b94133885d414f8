"""The games in progress on the event page, redrawn live from the standings frame: every player of a
pod of 4 is listed (not only the pairing's first two), and each game opens its table to watch."""

from __future__ import annotations

import pytest
from django.conf import settings

from tests.game.test_table_ui_live import close, make_player
from tests.tournaments.browser import page_of, site_open

pytestmark = [pytest.mark.timeout(200),
              pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (a shared channel layer): the test "
                                 "process sends the frames the server's sockets pass on")]


def test_a_new_pod_appears_live_with_all_four_players_and_opens_its_table(asgi_live_server, transactional_db,
                                                                          browser, screenshot_dir):
    from datetime import timedelta

    from durak_site.clock import db_now
    from tests.tournaments.helpers import join_all, start
    from tournaments import services
    from tournaments.models import Tournament, TournamentGame

    event = services.create_private(make_player("Организатор"), name="Арена на четверых", format="arena",
                                    seats=4, minutes=60, starts_at=db_now() + timedelta(minutes=10))
    Tournament.objects.filter(pk=event.pk).update(private=False, warn_deadline=None)
    first = [make_player(f"Первый{k}") for k in range(4)]
    join_all(event, first)
    start(event)
    services.arena_wave(event.pk)
    ctx, watch = page_of(browser, asgi_live_server, make_player("Зритель"), mobile=True)
    try:
        watch.set_viewport_size({"width": 320, "height": 800})
        watch.goto(f"/tournaments/{event.pk}/")
        site_open(watch)
        watch.evaluate("window.__sameDocument = true")
        # four more come late: a second pod is seated, and the page hears it in the frame
        second = [make_player(f"Второй{k}") for k in range(4)]
        join_all(event, second)
        services.arena_wave(event.pk)
        pod = TournamentGame.objects.filter(tournament=event).order_by("-pk").first()
        assert sorted(pod.player_ids()) == sorted(p.pk for p in second)
        link = watch.locator(f"[data-running] a[data-table='{pod.table_id}']")
        link.wait_for(timeout=15000)
        assert watch.evaluate("window.__sameDocument") is True  # drawn from the frame, not a reload
        nicks = [s.player.nick for s in pod.seats.select_related("player").order_by("number")]
        assert link.locator(".t-nick").all_inner_texts() == nicks
        assert watch.locator("[data-running] li").count() == 2
        watch.screenshot(path=str(screenshot_dir / "tournament-pods-running-320.png"), full_page=True)
        assert watch.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        link.click()  # anyone may watch
        watch.wait_for_url(f"**/tables/{pod.table_id}/**")
        assert watch.errors == []
    finally:
        close(ctx)
