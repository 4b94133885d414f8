"""A joined player away from the event's page, in real browsers against the live stack: a minute
before the start every page of his tells him (the site socket's notice, in each page's language);
when the arena pairs him his pages go to his table by themselves with a sound (on by default, muted
only by the event page's switch in that browser); in the table's
waiting room, before his opponent comes, he chooses berserk from the table's bar without leaving
it, and the game is dealt with his clock halved."""

from __future__ import annotations

import pytest
from django.conf import settings

from tests.game.test_table_ui_live import close, make_player
from tests.tournaments.browser import Homes, dealt, page_of, site_open

pytestmark = [pytest.mark.timeout(300),
              pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (a shared channel layer): the "
                                 "server's timers tell the pages")]

# every oscillator started (static/site/alerts.js chime()) is counted in the tab's sessionStorage,
# which outlives the page it was started on (the tab goes to the table right after)
COUNT_BEEPS = """
(() => {
  if (!window.OscillatorNode) return;
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) {
    sessionStorage.setItem("beeps", String(Number(sessionStorage.getItem("beeps") || 0) + 1));
    return start.apply(this, args);
  };
})();
"""


def test_the_minute_notice_on_every_page_then_to_the_table_with_a_sound_and_berserk_there(
        asgi_live_server, transactional_db, browser, screenshot_dir):
    from datetime import timedelta

    from durak_site.clock import db_now
    from tournaments import services
    from tournaments.models import Tournament, TournamentGame

    creator = make_player("Устроитель")
    event = services.create_private(creator, name="Ночная арена", format="arena", minutes=30,
                                    starts_at=db_now() + timedelta(minutes=5))
    Tournament.objects.filter(pk=event.pk).update(private=False)
    me, opponent = make_player("Миша"), make_player("Соперник")
    from notifications.models import NotificationSettings

    NotificationSettings.objects.create(player=me, sound=True)  # he asked for the in-page chime
    services.join(event.pk, me)
    services.join(event.pk, opponent)
    phone_ctx, phone = page_of(browser, asgi_live_server, me, mobile=True)
    desk_ctx, desk = page_of(browser, asgi_live_server, me, locale="en-US")
    for ctx in (phone_ctx, desk_ctx):
        ctx.add_init_script(COUNT_BEEPS)
    homes = Homes()
    homes.start()
    try:
        phone.goto("/tables/rules/")
        desk.goto("/")
        for page in (phone, desk):
            site_open(page)

        # a minute before the start: both pages say so, each in its language, with a way to the event
        Tournament.objects.filter(pk=event.pk).update(warn_deadline=db_now())
        phone.locator(".site-toast", has_text="«Ночная арена» начинается через минуту.").wait_for(timeout=15000)
        desk.locator(".site-toast", has_text="“Ночная арена” starts in a minute.").wait_for(timeout=15000)
        assert phone.locator(".site-toast a").first.get_attribute("href") == f"/tournaments/{event.pk}/"
        phone.screenshot(path=str(screenshot_dir / "tournament-minute-notice-phone.png"))

        # the start: paired at once; both tabs go to his table by themselves, with a sound
        Tournament.objects.filter(pk=event.pk).update(start_deadline=db_now())
        for page in (phone, desk):
            page.wait_for_url("**/tables/*/", timeout=20000)
        pairing = TournamentGame.objects.get(tournament=event)
        assert phone.url.endswith(f"/tables/{pairing.table_id}/") and desk.url == phone.url
        for page in (phone, desk):
            assert int(page.evaluate("sessionStorage.getItem('beeps') || 0")) >= 1

        # the waiting room (his opponent has not come): berserk from the table's bar, staying there
        button = phone.locator("[data-panel-dock] .t-berserk button")
        button.wait_for(timeout=15000)
        phone.screenshot(path=str(screenshot_dir / "tournament-berserk-waiting-room-phone.png"))
        button.click()
        phone.locator("[data-panel-dock] .t-berserk-on").wait_for(timeout=10000)
        assert phone.url.endswith(f"/tables/{pairing.table_id}/")
        pairing.refresh_from_db()
        assert (pairing.berserk_a if pairing.player_a_id == me.pk else pairing.berserk_b) is True

        # his opponent comes: the 3-2-1 runs, the game is dealt with his clock halved, the mark stays
        services.arrived(opponent.pk, pairing.table_id)
        game = dealt(pairing.table_id)
        # the halving commits right after the deal, before the deal's frames leave: once his page
        # holds the game, the row says so
        phone.wait_for_function("window.__table && window.__table.view !== null", timeout=20000)
        game.refresh_from_db()
        assert game.halved_seats == [game.seats.get(player=me).number]
        phone.locator("[data-panel-dock] .t-berserk-on").wait_for(timeout=10000)
        phone.screenshot(path=str(screenshot_dir / "tournament-berserk-game-phone.png"))
        for page in (phone, desk):
            assert page.errors == []
    finally:
        homes.stop.set()
        homes.join()
        close(phone_ctx, desk_ctx)


def test_a_pairing_chimes_by_default_and_an_event_pages_switch_mutes_it(asgi_live_server, transactional_db, browser):
    """Neither player touched the profile's chime switch (off): the pairing still chimes, unless the
    event page's «Звук при подборе соперников» was unticked in that browser; both go to the table."""
    from datetime import timedelta

    from durak_site.clock import db_now
    from notifications.models import NotificationSettings
    from tournaments import services
    from tournaments.models import Tournament, TournamentGame

    event = services.create_private(make_player("Устроитель"), name="Дневная арена", format="arena", minutes=30,
                                    starts_at=db_now() + timedelta(minutes=5))
    Tournament.objects.filter(pk=event.pk).update(private=False, warn_deadline=None)
    loud, quiet = make_player("Громкий"), make_player("Тихий")
    for p in (loud, quiet):
        services.join(event.pk, p)
    assert not NotificationSettings.objects.filter(sound=True).exists()
    loud_ctx, loud_page = page_of(browser, asgi_live_server, loud, mobile=True)
    quiet_ctx, quiet_page = page_of(browser, asgi_live_server, quiet, locale="en-US")
    for ctx in (loud_ctx, quiet_ctx):
        ctx.add_init_script(COUNT_BEEPS)
    homes = Homes()
    homes.start()
    try:
        for page in (loud_page, quiet_page):
            page.goto(f"/tournaments/{event.pk}/")
            assert page.locator("[data-pairing-chime]").is_checked()  # on by default
        assert loud_page.get_by_text("Звук при подборе соперников").count() == 1
        quiet_page.get_by_label("A sound when you are paired").uncheck()
        quiet_page.reload()  # the choice is kept in this browser
        assert not quiet_page.locator("[data-pairing-chime]").is_checked()
        for page in (loud_page, quiet_page):
            site_open(page)

        Tournament.objects.filter(pk=event.pk).update(start_deadline=db_now())
        for page in (loud_page, quiet_page):
            page.wait_for_url("**/tables/*/", timeout=20000)
        pairing = TournamentGame.objects.get(tournament=event)
        assert loud_page.url.endswith(f"/tables/{pairing.table_id}/") and quiet_page.url == loud_page.url
        assert int(loud_page.evaluate("sessionStorage.getItem('beeps') || 0")) >= 1
        assert int(quiet_page.evaluate("sessionStorage.getItem('beeps') || 0")) == 0
        for page in (loud_page, quiet_page):
            assert page.errors == []
    finally:
        homes.stop.set()
        homes.join()
        close(loud_ctx, quiet_ctx)
