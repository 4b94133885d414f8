"""The event page on phones (320 and 390 px wide) in Russian and English: before the start, while it
runs (the player's own line below the top ten, his pause screen, games in progress and his own games)
and after the end (the podium): nothing is wider than the screen. Screenshots of each are kept."""

from __future__ import annotations

import pytest

from tests.game.helpers import play_out
from tests.game.test_table_ui_live import close, make_player
from tests.tournaments.browser import page_of
from tests.tournaments.helpers import begin, join_all, resign, start

pytestmark = [pytest.mark.timeout(400)]

LONG = "Константинопольский"  # a nick as long as nicks go


def _overflow(page) -> list[str]:
    """What sticks out to the right of the screen (the page scrolls sideways)."""
    return page.evaluate("""() => {
      const w = document.documentElement.clientWidth;
      const out = [];
      for (const el of document.querySelectorAll('main *, .t-page *')) {
        const r = el.getBoundingClientRect();
        if (r.width && r.right > w + 1) out.push(el.tagName + '.' + el.className + ' ' + Math.round(r.right));
      }
      if (document.documentElement.scrollWidth > w + 1) out.push('scrollWidth ' + document.documentElement.scrollWidth);
      return out.slice(0, 8);
    }""")


def _shoot(browser, base, viewer, url, name, screenshot_dir):
    for lang, locale in (("ru", "ru-RU"), ("en", "en-US")):
        for width in (320, 390):
            ctx, page = page_of(browser, base, viewer, mobile=True, locale=locale)
            try:
                page.set_viewport_size({"width": width, "height": 800})
                page.goto(url)
                page.wait_for_load_state("networkidle")
                page.screenshot(path=str(screenshot_dir / f"tournament-{name}-{width}-{lang}.png"), full_page=True)
                assert _overflow(page) == [], f"{name} at {width} px in {lang}"
                assert page.errors == []
            finally:
                close(ctx)


def test_the_event_page_fits_a_phone_before_during_and_after(asgi_live_server, transactional_db, browser,
                                                             screenshot_dir):
    from datetime import timedelta

    from durak_site.clock import db_now
    from tournaments import services
    from tournaments.models import Entry, Tournament, TournamentGame

    creator = make_player("Организатор")
    event = services.create_private(creator, name="Большая вечерняя арена по подкидному", format="arena",
                                    minutes=60, starts_at=db_now() + timedelta(minutes=20))
    Tournament.objects.filter(pk=event.pk).update(private=False, warn_deadline=None)
    people = [make_player(f"Игрок{i:02d}Длинное{i}"[:20]) for i in range(13)] + [make_player(LONG)]
    join_all(event, people)
    url = f"/tournaments/{event.pk}/"
    _shoot(browser, asgi_live_server, make_player("Гость"), url, "before", screenshot_dir)

    me = people[-1]
    Entry.objects.filter(tournament=event, player=me).update(rating=700)  # the lowest: last at 0 points
    start(event)
    services.arena_wave(event.pk)
    # the players "arrive" one table after another below: none is a no-show meanwhile
    TournamentGame.objects.filter(tournament=event).update(arrive_deadline=db_now() + timedelta(minutes=10))
    services.pause(event.pk, me)  # from the end of his game: his pause screen (the others are paired again)
    for g in TournamentGame.objects.filter(tournament=event):  # every game over, his lost
        if me.pk in (g.player_a_id, g.player_b_id):
            resign(begin(g).pk, me)
        else:
            play_out(begin(g).pk, seed=g.pk)
    assert Entry.objects.get(tournament=event, player=me).state == Entry.State.PAUSED
    _shoot(browser, asgi_live_server, me, url, "running", screenshot_dir)

    services.fire_end(event.pk)
    _shoot(browser, asgi_live_server, me, url, "finished", screenshot_dir)


def test_the_create_form_with_its_table_and_round_options_fits_a_phone(asgi_live_server, transactional_db, browser,
                                                                        screenshot_dir):
    me = make_player(LONG)
    _shoot(browser, asgi_live_server, me, "/tournaments/new/", "create", screenshot_dir)
    # cheater mode, off at first, is reached and ticked from the keyboard, its label and help on the screen
    for lang, locale, label in (("ru", "ru-RU", "Режим «Шулер»"), ("en", "en-US", "Cheater mode")):
        ctx, page = page_of(browser, asgi_live_server, me, mobile=True, locale=locale)
        try:
            page.set_viewport_size({"width": 320, "height": 800})
            page.goto("/tournaments/new/")
            box = page.locator('input[name="cheater"]')
            assert not box.is_checked()
            page.locator('select[name="turn_seconds"]').focus()
            page.keyboard.press("Tab")
            assert page.evaluate("document.activeElement.name") == "cheater"
            page.keyboard.press("Space")
            assert box.is_checked()
            row = page.locator("label.t-check", has=box)
            assert label in row.inner_text()
            assert page.locator("#t-cheater-hint").is_visible()
            row.scroll_into_view_if_needed()
            page.screenshot(path=str(screenshot_dir / f"tournament-create-cheater-320-{lang}.png"))
            assert _overflow(page) == [], f"the cheater box at 320 px in {lang}"
            assert page.errors == []
        finally:
            close(ctx)
