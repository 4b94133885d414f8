"""A Swiss of seven players over three rounds in real browsers against the live stack: each round
pairs six and gives the seventh a bye worth a win (a different player each round), the players'
pages go to their tables by themselves, the games are decided quickly through the services, an
onlooker's page follows the standings and the rounds without a reload, the bye shows on the page of
the player who had it, and the final standings and the podium appear when the last round ends."""

from __future__ import annotations

import time

import pytest
from django.conf import settings

from tests.game.helpers import play_out
from tests.game.test_table_ui_live import close, make_player
from tests.tournaments.browser import Homes, dealt, page_of, site_open

pytestmark = [pytest.mark.timeout(400),
              pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis (a shared channel layer): the test "
                                 "process ends the games, the live daphne tells the pages")]

NICKS = ("Аня", "Боря", "Вика", "Гоша", "Даша", "Егор", "Женя")  # rated from the highest to the lowest


def _until(check, what: str, timeout: float = 30):
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout} s")
        time.sleep(0.2)


def _play_round(event, round_number: int, pages: dict) -> tuple[list, int]:
    """The round's pairings: the players with a page went to their tables by themselves, the others
    arrive through the services; each game, dealt by the server, is played to its end (quickly,
    through the services: resigning would count as leaving, and two leaves withdraw a player); the
    pages go back to the event. Returns (pairings, the bye's player)."""
    from tournaments import services
    from tournaments.models import TournamentGame

    games = _until(lambda: list(TournamentGame.objects.filter(tournament=event, round=round_number)),
                   f"round {round_number} paired")
    pairings = [g for g in games if g.status != "bye"]
    (bye,) = [g.player_a_id for g in games if g.status == "bye"]
    for g in pairings:
        for pid in (g.player_a_id, g.player_b_id):
            if pid in pages:
                pages[pid].wait_for_url(f"**/tables/{g.table_id}/", timeout=20000)
            else:
                services.arrived(pid, g.table_id)
    for g in pairings:
        play_out(dealt(g.table_id).pk, seed=g.pk)
        for pid in (g.player_a_id, g.player_b_id):
            if pid in pages:
                pages[pid].goto(f"/tournaments/{event.pk}/")
    return pairings, bye


def _shows_the_standings(page, event):
    """The page's table lists every player in the standings' order with his points (as they are now)."""
    from tournaments import standings

    def same():
        want = [(ln.nick, ln.shown) for ln in standings.lines(event)]
        rows = page.locator(".t-standings tbody tr")
        got = [(rows.nth(i).locator("a").inner_text(), rows.nth(i).locator(".t-points").inner_text())
               for i in range(rows.count())]
        return got == want

    _until(same, "the page's standings", 20)


def _next_round_now(event):
    """The round's break (ROUND_BREAK) starts once its last game is over: it falls due now."""
    from durak_site.clock import db_now
    from tournaments.models import Tournament

    _until(lambda: Tournament.objects.filter(pk=event.pk, round_deadline__isnull=False).exists(), "the round over")
    Tournament.objects.filter(pk=event.pk).update(round_deadline=db_now())


def test_a_swiss_of_seven_over_three_rounds_with_a_bye_each_round(asgi_live_server, transactional_db, browser,
                                                                    screenshot_dir):
    from datetime import timedelta

    from durak_site.clock import db_now
    from tournaments import services, standings
    from tournaments.models import Entry, Tournament, TournamentGame

    creator = make_player("Судья")
    event = services.create_private(creator, name="Швейцарка", format="swiss", rounds=3,
                                    starts_at=db_now() + timedelta(minutes=5))
    Tournament.objects.filter(pk=event.pk).update(private=False)
    people = [make_player(n) for n in NICKS]
    for rating, p in zip(range(1600, 1250, -50), people, strict=True):
        services.join(event.pk, p)
        Entry.objects.filter(tournament=event, player=p).update(rating=rating)
    first, lowest = people[0], people[-1]
    contexts = []
    ctx, anya = page_of(browser, asgi_live_server, first, mobile=True)
    contexts.append(ctx)
    ctx, zhenya = page_of(browser, asgi_live_server, lowest, locale="en-US")
    contexts.append(ctx)
    ctx, watch = page_of(browser, asgi_live_server, make_player("Зритель"), mobile=True)
    contexts.append(ctx)
    pages = {first.pk: anya, lowest.pk: zhenya}
    homes = Homes()
    homes.start()
    try:
        for page in (anya, zhenya, watch):
            page.goto(f"/tournaments/{event.pk}/")
            site_open(page)
        watch.evaluate("window.__sameDocument = true")
        assert watch.locator(".t-standings tbody tr").count() == 7

        Tournament.objects.filter(pk=event.pk).update(start_deadline=db_now(), warn_deadline=None)
        byes = []
        for r in (1, 2, 3):
            pairings, bye = _play_round(event, r, pages)
            assert len(pairings) == 3
            byes.append(bye)
            if r == 1:
                # the lowest rated had the first bye: his page says so, in English
                assert bye == lowest.pk
                zhenya.get_by_text("Waiting for the next round.").wait_for(timeout=15000)
                zhenya.locator(".t-own .t-mark-B").wait_for(timeout=15000)
                assert "bye" in zhenya.locator("[data-my-games]").inner_text()
                zhenya.screenshot(path=str(screenshot_dir / "swiss-bye-desktop-en.png"))
            _shows_the_standings(watch, event)  # moved on the onlooker's page without a reload
            if r == 1:
                watch.screenshot(path=str(screenshot_dir / "swiss-round-1-phone.png"))
            if r < 3:  # (the last round's end is the event's end, at once)
                _next_round_now(event)
                watch.get_by_text(f"Тур {r + 1} из 3").wait_for(timeout=15000)
        assert len(set(byes)) == 3, "nobody has a second bye while others had none"
        met = [frozenset((g.player_a_id, g.player_b_id))
               for g in TournamentGame.objects.filter(tournament=event).exclude(player_b=None)]
        assert len(met) == 9 and len(set(met)) == 9, "no pair meets twice"

        # the end: final standings and the podium on the open page, with no reload
        watch.locator(".t-podium").wait_for(timeout=20000)
        assert watch.evaluate("window.__sameDocument") is True
        event.refresh_from_db()
        final = standings.lines(event)
        assert all(len(ln.marks) == 3 for ln in final)
        assert sum("B" in ln.marks for ln in final) == 3
        _shows_the_standings(watch, event)
        podium = watch.locator(".t-podium li")
        assert podium.count() == 3
        assert [podium.nth(i).locator("a").inner_text() for i in range(3)] == [p["nick"] for p in event.podium]
        assert event.podium[0]["nick"] == final[0].nick
        watch.screenshot(path=str(screenshot_dir / "swiss-final-phone.png"), full_page=True)
        for page in (anya, zhenya, watch):
            assert page.errors == []
    finally:
        homes.stop.set()
        homes.join()
        close(*contexts)
