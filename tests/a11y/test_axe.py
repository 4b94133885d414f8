"""Every page type checked by axe-core (axe-playwright-python) in Chromium: no serious and no
critical violation, in Russian and English; every control the keyboard reaches shows a focus ring;
the table honours prefers-reduced-motion."""

from __future__ import annotations

import pytest

from tests.conftest import login_browser_context
from tests.game.test_table_ui_live import close, make_player, start_table

pytestmark = [pytest.mark.timeout(600)]

SERIOUS = {"serious", "critical"}


def violations(page) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]}"
            for v in found if v["impact"] in SERIOUS]


def focus_rings(page, presses: int = 25) -> list[str]:
    """Tab through the page: each focused element must draw an outline or a box shadow."""
    bad = []
    for _ in range(presses):
        page.keyboard.press("Tab")
        style = page.evaluate("""() => {
            const el = document.activeElement;
            if (!el || el === document.body) return null;
            const s = getComputedStyle(el);
            const ring = (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';
            return {ring, what: el.tagName + (el.id ? '#' + el.id : '') + ' ' + (el.textContent || '').trim().slice(0, 30)};
        }""")
        if style and not style["ring"]:
            bad.append(style["what"])
    return bad


def waiting_table(host):
    from lobby.models import Seat, Table

    table = Table.objects.create(name="axe", seats_count=2, turn_seconds=30, status=Table.Status.WAITING, host=host)
    Seat.objects.create(table=table, number=1, player=host)
    return table


@pytest.mark.parametrize("locale", ["ru-RU", "en-US"])
def test_every_page_type_has_no_serious_or_critical_axe_violation_and_shows_focus(
        asgi_live_server, browser, transactional_db, locale):
    person = make_player("Доступный" if locale == "ru-RU" else "Reachable")
    waiting = waiting_table(person)
    playing, _game = start_table([make_player(f"Партнёр{locale[:2]}")], bots=("random",))
    context = login_browser_context(browser, asgi_live_server, person, locale=locale)
    page = context.new_page()
    pages = ["/", "/tables/", f"/tables/{waiting.pk}/", "/play/search/", "/people/", "/accounts/profile/",
             "/ratings/", "/tables/rules/", "/help/", "/no-such-page/", f"/tables/{playing.pk}/",
             f"/tables/{playing.pk}/?blind=1", "/offline/ru/", "/offline/en/"]
    report = {}
    for url in pages:
        page.goto(url, wait_until="load")
        page.wait_for_timeout(400)  # scripts draw the page's live parts
        found = violations(page)
        rings = focus_rings(page)
        if found or rings:
            report[url] = {"axe": found, "no focus ring": rings}
    anonymous = browser.new_context(locale=locale, base_url=asgi_live_server)
    page = anonymous.new_page()
    for url in ("/", "/accounts/signup/", "/accounts/restore/"):
        page.goto(url, wait_until="load")
        found = violations(page)
        rings = focus_rings(page, 15)
        if found or rings:
            report["anonymous " + url] = {"axe": found, "no focus ring": rings}
    anonymous.close()
    assert not report, report
    close(context)


def test_the_table_honours_reduced_motion(asgi_live_server, browser, transactional_db):
    person = make_player("Спокойный")
    table, _game = start_table([person], bots=("random",))
    running = {}
    for motion in ("reduce", "no-preference"):
        context = login_browser_context(browser, asgi_live_server, person)
        page = context.new_page()
        page.emulate_media(reduced_motion=motion)
        page.goto(f"/tables/{table.pk}/")
        page.wait_for_function("window.__table && window.__table.view !== null")
        running[motion] = page.evaluate("""() => document.getAnimations()
            .filter(a => a.playState === 'running' && a.effect && a.effect.getTiming().duration > 50).length""")
        close(context)
    assert running["reduce"] == 0, running
