"""A party of two in real browsers: Аня (a 390 px phone, Russian) asks her friend Ben (a 320 px phone,
English) into her search from the search page; he accepts from the notice, she picks pairs 2×2 and
starts, his page follows; two others press the lobby's pairs button on desktops (Russian, English),
and the four land at one table where Аня and Ben are partners, across the table. Screenshots of
every step; no script errors."""

from __future__ import annotations

import pytest

from tests.conftest import login_browser_context
from tests.game.test_table_ui_live import close, make_player
from tests.social.test_party import friends

pytestmark = [pytest.mark.timeout(400)]


def _page(browser, base, player, width=None, **kw):
    context = login_browser_context(browser, base, player, mobile=width is not None, **kw)
    page = context.new_page()
    if width is not None:
        page.set_viewport_size({"width": width, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return context, page


def _site_open(page):
    page.wait_for_function("window.__site && window.__site.open", timeout=15000)


def _no_overflow(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_a_party_of_two_finds_a_pairs_game_against_two_others(asgi_live_server, transactional_db, browser,
                                                              screenshot_dir):
    from lobby.models import Seat
    from social import queue
    from social.models import Party

    anya, ben, vera, dan = make_player("Аня"), make_player("Ben"), make_player("Вера"), make_player("Dan")
    friends(anya, ben)
    for p in (vera, dan):  # their last choices: pairs, unrated, no bots
        queue.join(p, match_now=False, mode="pairs", rated="0", bot_fill="0")
        queue.cancel(p)
    ctx_a, page_a = _page(browser, asgi_live_server, anya, width=390)
    ctx_b, page_b = _page(browser, asgi_live_server, ben, width=320, locale="en-US")
    ctx_v, page_v = _page(browser, asgi_live_server, vera)
    ctx_d, page_d = _page(browser, asgi_live_server, dan, locale="en-US")
    try:
        page_b.goto("/ratings/")
        _site_open(page_b)  # he is online: she sees him among the friends to invite
        page_a.goto("/play/search/")
        _site_open(page_a)
        box = page_a.locator("[data-party]")
        box.locator(".party-friends", has_text="Ben").wait_for()
        page_a.screenshot(path=str(screenshot_dir / "party-invite-friends-390-ru.png"), full_page=True)
        box.get_by_role("button", name="Позвать в группу").click()
        page_a.wait_for_url("**/play/search/")
        invite = page_b.locator(".site-toast-invite", has_text="Аня invites you into a party")
        invite.wait_for(timeout=10000)
        _no_overflow(page_b)
        page_b.screenshot(path=str(screenshot_dir / "party-invitation-320-en.png"))
        invite.get_by_role("button", name="Accept").click()
        page_b.wait_for_url("**/play/search/", timeout=10000)
        page_b.locator("[data-party-waits]", has_text="Аня starts the search").wait_for(timeout=10000)
        assert Party.objects.filter(leader=anya, member=ben, status="active").exists()
        _no_overflow(page_b)
        page_b.screenshot(path=str(screenshot_dir / "party-member-waits-320-en.png"), full_page=True)
        # her page hears that he joined and shows the party
        page_a.locator("[data-party] .party-who", has_text="Ben").wait_for(timeout=10000)
        _site_open(page_a)
        form = page_a.locator("[data-search-form]")
        form.locator(".search-modes label", has_text="Пара на пару 2×2").click()
        form.locator("label", has_text="ждать дальше").click()
        form.locator("input[name=rated]").uncheck()
        _no_overflow(page_a)
        page_a.screenshot(path=str(screenshot_dir / "party-leader-form-390-ru.png"), full_page=True)
        form.locator("[data-search-start]").click()
        page_a.wait_for_selector("[data-searching]")
        assert "Ben" in page_a.locator(".search-party").inner_text()
        page_b.wait_for_selector("[data-searching]", timeout=10000)  # his page followed her search
        page_a.screenshot(path=str(screenshot_dir / "party-searching-390-ru.png"))
        page_b.screenshot(path=str(screenshot_dir / "party-searching-320-en.png"))
        # two others press the lobby's pairs button
        page_v.goto("/tables/")
        page_v.locator(".quick-modes").get_by_role("button", name="Пара на пару 2×2").click()
        page_v.wait_for_selector("[data-searching]")
        page_v.screenshot(path=str(screenshot_dir / "party-opponent-searching-desktop-ru.png"))
        page_d.goto("/tables/")
        page_d.locator(".quick-modes").get_by_role("button", name="Pairs 2×2").click()
        for page in (page_a, page_b, page_v, page_d):
            page.wait_for_url("**/tables/*/", timeout=20000)
        assert len({page_a.url, page_b.url, page_v.url, page_d.url}) == 1
        table_id = int(page_a.url.rstrip("/").rsplit("/", 1)[1])
        seat = dict(Seat.objects.filter(table_id=table_id).values_list("player_id", "number"))
        assert len(seat) == 4 and (seat[anya.pk] - seat[ben.pk]) % 4 == 2  # partners, across the table
        for page in (page_a, page_b, page_v, page_d):
            page.wait_for_function("window.__table && window.__table.view !== null", timeout=40000)
        page_a.screenshot(path=str(screenshot_dir / "party-pairs-table-390-ru.png"))
        page_b.screenshot(path=str(screenshot_dir / "party-pairs-table-320-en.png"))
        page_d.screenshot(path=str(screenshot_dir / "party-pairs-table-desktop-en.png"))
        for page in (page_a, page_b, page_v, page_d):
            assert page.errors == [], page.errors
    finally:
        close(ctx_a, ctx_b, ctx_v, ctx_d)


@pytest.mark.parametrize("width, locale", [(320, "ru-RU"), (None, "en-US")])
def test_leaving_the_party_from_the_search_page(asgi_live_server, transactional_db, browser, screenshot_dir, width,
                                                locale):
    from social import parties
    from tests.social.test_party import make_party

    tag = width or "D"
    lead, mate = make_player(f"Лид{tag}"), make_player(f"Mate{tag}")
    make_party(lead, mate)
    ctx_l, page_l = _page(browser, asgi_live_server, lead)
    ctx_m, page_m = _page(browser, asgi_live_server, mate, width=width, locale=locale)
    try:
        page_l.goto("/play/search/")
        _site_open(page_l)
        page_m.goto("/play/search/")
        _site_open(page_m)
        name = f"party-box-{width or 'desktop'}-{locale[:2]}.png"
        page_m.screenshot(path=str(screenshot_dir / name), full_page=True)
        page_m.locator("[data-party-leave]").click()
        page_m.wait_for_url("**/play/search/")
        assert parties.current(mate.pk) is None and parties.current(lead.pk) is None
        page_l.locator(".site-toast", has_text=f"Mate{tag}").wait_for(timeout=10000)  # the leader is told
        page_l.locator("[data-party] [data-party-invite], [data-party] .muted").first.wait_for(timeout=10000)
        assert page_l.errors == [] and page_m.errors == []
    finally:
        close(ctx_l, ctx_m)
