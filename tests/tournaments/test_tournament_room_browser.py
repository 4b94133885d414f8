"""A tournament table's waiting room on a 320 px phone, in Russian and English: a pod of four with
nicks as long as nicks go. A nick is cut with an ellipsis or kept whole, never broken mid-word over
two lines, and nothing is wider than the screen. Screenshots are kept."""

from __future__ import annotations

import pytest

from tests.game.test_table_ui_live import close, make_player
from tests.tournaments.browser import page_of

pytestmark = [pytest.mark.timeout(200)]

LONG = ("Константинопольский", "Достопримечательный", "Longestnicknameever", "Высокопревосходитель")

# every nick on the page whose text runs over more than one line (a word broken in two)
BROKEN = """() => {
  const out = [];
  for (const el of document.querySelectorAll('.seat-nick, .t-nick')) {
    const range = document.createRange();
    range.selectNodeContents(el);
    const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
    if (tops.size > 1) out.push(el.textContent.trim());
  }
  return out;
}"""

WIDER = """() => {
  const w = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.querySelectorAll('main *')) {
    const r = el.getBoundingClientRect();
    if (r.width && r.right > w + 1) out.push(el.tagName + '.' + el.className);
  }
  if (document.documentElement.scrollWidth > w + 1) out.push('scrollWidth ' + document.documentElement.scrollWidth);
  return out.slice(0, 8);
}"""


def test_long_nicks_in_a_pods_waiting_room_are_never_broken_mid_word(asgi_live_server, transactional_db, browser,
                                                                     screenshot_dir):
    from datetime import timedelta

    from durak_site.clock import db_now
    from tests.tournaments.helpers import join_all, start
    from tournaments import services
    from tournaments.models import TournamentGame

    event = services.create_private(make_player("Организатор"), name="Арена на четверых", format="arena", seats=4,
                                    minutes=60, starts_at=db_now() + timedelta(minutes=10))
    people = [make_player(nick[:20]) for nick in LONG]
    join_all(event, people)
    start(event)
    services.arena_wave(event.pk)
    pod = TournamentGame.objects.get(tournament=event)
    # three have come (the fourth has not, so the game is not dealt while we look): their seats show
    # «ready» and the connected dot beside the nick
    absent = people[2]
    for pid in pod.player_ids():
        if pid != absent.pk:
            assert services.arrived(pid, pod.table_id)
    # each viewer sees his own nick (the others are «opponent» until all have come: a matched table)
    for lang, locale, viewer in (("ru", "ru-RU", people[0]), ("en", "en-US", people[3])):
        ctx, page = page_of(browser, asgi_live_server, viewer, mobile=True, locale=locale)
        try:
            page.set_viewport_size({"width": 320, "height": 800})
            page.goto(f"/tables/{pod.table_id}/")
            page.locator(".seat-nick").first.wait_for(timeout=15000)
            page.wait_for_load_state("networkidle")
            page.screenshot(path=str(screenshot_dir / f"tournament-room-320-{lang}.png"), full_page=True)
            nicks = page.locator(".seat-nick").all_inner_texts()
            assert len(nicks) == 4 and viewer.nick in nicks
            assert page.evaluate(BROKEN) == [], lang
            assert page.evaluate(WIDER) == [], lang
            assert page.errors == []
        finally:
            close(ctx)
