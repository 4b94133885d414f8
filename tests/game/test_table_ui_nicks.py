"""Nicks at the table on a phone: with few players each nick reads whole, pods never overlap, and a
nick cut short for room (six players) reads whole on a tap."""

from __future__ import annotations

import copy

import pytest

from tests.game.test_table_ui_harness import SAMPLES, harness, new_page, open_sample  # noqa: F401

pytestmark = [pytest.mark.browser]

LONG = ["Александра_Петровна", "Константин_Великий", "Бот Петрович", "Вячеслав", "Оля", "Евгения_Михайловна"]
# the longest nick that reads whole, by how many pods share the phone's width (before: about five letters)
WHOLE_UP_TO = {1: 20, 2: 12, 3: 8}


def table_of(players: int) -> dict:
    f = copy.deepcopy(SAMPLES["podkidnoy4"]["frame"])
    v = f["view"]
    v["players"] = players
    v["hand_counts"] = {str(n): 6 for n in range(1, players + 1)}
    v.update(attacker=1, defender=2, turn=[1], legal=[], seat=2, table=[], last=None)
    f["seats"] = [{"number": n, "nick": LONG[n - 1], "bot": LONG[n - 1].startswith("Бот"), "connected": True,
                   "left": False} for n in range(1, players + 1)]
    f["version"] = 200 + players
    f.pop("deadline_in", None)
    f["deadline"] = None
    return f


def overlaps(page) -> list:
    return page.evaluate("""() => { const r = [...document.querySelectorAll('#g-seats .pod-id')].map(e => e.getBoundingClientRect());
        const out = []; for (let i = 0; i < r.length; i++) for (let j = i + 1; j < r.length; j++) {
          const w = Math.min(r[i].right, r[j].right) - Math.max(r[i].left, r[j].left);
          const h = Math.min(r[i].bottom, r[j].bottom) - Math.max(r[i].top, r[j].top);
          if (w > 1 && h > 1) out.push([i, j]); } return out; }""")


@pytest.mark.parametrize("width", [320, 390])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_few_players_nicks_read_whole_on_a_phone(browser, harness, screenshot_dir, width, players):  # noqa: F811
    context, page = new_page(browser, harness, viewport={"width": width, "height": 740}, is_mobile=True,
                             has_touch=True, device_scale_factor=2)
    try:
        open_sample(page, harness, "podkidnoy4")
        page.evaluate("(f) => window.__table.receive(f)", table_of(players))
        page.wait_for_timeout(300)
        page.screenshot(path=str(screenshot_dir / f"table_nicks_{width}_{players}p.png"))
        cut = page.evaluate("""() => [...document.querySelectorAll('#g-seats .pod-nick')]
            .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)""")
        pods = players - 1
        if pods < 3 or width >= 390:
            assert [n for n in cut if len(n) <= WHOLE_UP_TO[pods]] == [], cut
        assert overlaps(page) == []
        off = page.evaluate(f"""() => [...document.querySelectorAll('#g-seats .pod')].filter(e => {{
            const r = e.getBoundingClientRect(); return r.left < 0 || r.right > {width}; }}).length""")
        assert off == 0
    finally:
        context.close()
    assert not page.errors, page.errors


def test_a_cut_nick_reads_whole_on_a_tap(browser, harness, screenshot_dir):  # noqa: F811
    context, page = new_page(browser, harness, viewport={"width": 390, "height": 844}, is_mobile=True,
                             has_touch=True, device_scale_factor=2)
    try:
        open_sample(page, harness, "podkidnoy4")
        page.evaluate("(f) => window.__table.receive(f)", table_of(6))
        page.wait_for_timeout(300)
        cut = page.locator("#g-seats .pod[data-seat='6'] .pod-nick")
        assert cut.evaluate("e => e.scrollWidth > e.clientWidth + 1")  # six pods: the nick is cut for room
        page.locator("#g-seats .pod[data-seat='6'] .pod-id").tap()
        page.wait_for_selector("#g-toast:not([hidden])")
        assert page.inner_text("#g-toast") == "Евгения_Михайловна"
        page.screenshot(path=str(screenshot_dir / "table_nicks_tap_6p.png"))
    finally:
        context.close()
    assert not page.errors, page.errors
