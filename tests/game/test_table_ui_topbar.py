"""The table's top bar on phones and a desktop, with every combination of its badges (a spectator,
cheater mode, the turn timer): nothing in it overflows the screen or overlaps another part, no part
is clipped, and the turn text reads whole."""

from __future__ import annotations

import copy
import itertools
from datetime import UTC, datetime, timedelta

import pytest

from tests.game.test_table_ui_harness import SAMPLES, harness, new_page, open_sample  # noqa: F401

pytestmark = [pytest.mark.browser]

SIZES = {320: {"width": 320, "height": 640}, 390: {"width": 390, "height": 844}, 1280: {"width": 1280, "height": 860}}
COMBOS = list(itertools.product((False, True), repeat=4))  # spectator, cheater mode, timer, chat


def frame_for(spectator: bool, cheater: bool, timer: bool, version: int, turn_nicks: tuple[str, ...]) -> dict:
    """The four-seat sample, seen from seat 2 or by a spectator, seats 3 and 4 to move."""
    f = copy.deepcopy(SAMPLES["podkidnoy4"]["frame"])
    f["version"] = version
    f.pop("deadline_in", None)
    f["deadline"] = (datetime.now(UTC) + timedelta(seconds=25)).isoformat() if timer else None
    f["deadline_kind"] = "turn" if timer else None
    nicks = ["Вася", "Маша", *turn_nicks]
    for seat, name in zip(f["seats"], nicks, strict=False):
        seat["nick"] = name
    v = f["view"]
    v["turn"] = [3, 4]
    v["attacker"], v["defender"] = 3, 1
    v["legal"] = []
    if spectator:
        v.update(seat=None, hand=[])
    if cheater:
        v["cheater"] = {"enabled": True, "check": False, "pending": None, "banned": [], "can_catch": False}
    return f


BAR_PARTS = "#g-turn, .g-ring:not([hidden]), #g-watching:not([hidden]), #g-cheater-sign:not([hidden]), " \
            ".g-top-actions button:not([hidden])"


def bar_problems(page, width: int) -> list[str]:
    """Every way the bar's parts fail: off screen, outside the bar, clipped, or over one another."""
    return page.evaluate("""([sel, width]) => {
        const bar = document.querySelector('.g-top').getBoundingClientRect();
        const parts = [...document.querySelectorAll('.g-top :is(' + sel + ')')]
            .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden');
        const name = e => e.id || e.className.baseVal || e.className || e.tagName;
        const out = [];
        const rects = parts.map(e => [e, e.getBoundingClientRect()]);
        for (const [e, r] of rects) {
            if (r.left < -0.5 || r.right > width + 0.5) out.push(name(e) + ' off screen ' + r.left + '..' + r.right);
            if (r.left < bar.left - 0.5 || r.right > bar.right + 0.5 || r.top < bar.top - 0.5 || r.bottom > bar.bottom + 0.5)
                out.push(name(e) + ' outside the bar');
            if (r.width < 8) out.push(name(e) + ' squeezed to ' + r.width);
            if (!(e instanceof SVGElement) && (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1))
                out.push(name(e) + ' clipped ' + e.scrollWidth + '>' + e.clientWidth + ' or ' + e.scrollHeight + '>' + e.clientHeight);
            let a = e.parentElement;  // an ancestor inside the bar that clips it
            while (a && a !== document.querySelector('.g-top')) {
                const ar = a.getBoundingClientRect(), st = getComputedStyle(a);
                if (st.overflow !== 'visible' && (r.left < ar.left - 0.5 || r.right > ar.right + 0.5))
                    out.push(name(e) + ' clipped by ' + name(a));
                a = a.parentElement;
            }
        }
        for (let i = 0; i < rects.length; i++) for (let j = i + 1; j < rects.length; j++) {
            const [a, p] = rects[i], [b, q] = rects[j];
            if (a.contains(b) || b.contains(a)) continue;
            const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
            const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
            if (w > 1 && h > 1) out.push(name(a) + ' over ' + name(b));
        }
        if (document.scrollingElement.scrollWidth > width) out.push('the page scrolls sideways');
        return out;
    }""", [BAR_PARTS, width])


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("width", [320, 390, 1280])
def test_the_top_bar_fits_with_every_combination_of_badges(browser, harness, screenshot_dir, lang, width):  # noqa: F811
    phone = width < 700
    options = {"is_mobile": True, "has_touch": True, "device_scale_factor": 2} if phone else {}
    context, page = new_page(browser, harness, viewport=SIZES[width], locale=f"{lang}-{lang.upper()}",
                             extra_http_headers={"Accept-Language": lang}, **options)
    try:
        open_sample(page, harness, "podkidnoy4")
        version = 100
        for spectator, cheater, timer, chat in COMBOS:
            # a signed-in player's bar also docks the chat's button
            page.evaluate("(on) => { const t = document.getElementById('chat-toggle'); t.hidden = !on; "
                          "t.classList.add('docked'); document.querySelector('[data-panel-dock]').append(t); }", chat)
            for turn_nicks in (("Аня", "Бот Сёма"), ("Константин_Великий", "Александра_Петровна")):
                version += 1
                page.evaluate("(f) => window.__table.receive(f)",
                              frame_for(spectator, cheater, timer, version, turn_nicks))
                page.wait_for_timeout(250)  # the ring's tick
                which = f"spectator={spectator} cheater={cheater} timer={timer} chat={chat} nicks={turn_nicks}"
                assert page.is_visible("#g-watching") == spectator, which
                assert page.is_visible("#g-cheater-sign") == cheater, which
                assert page.is_visible(".g-ring") == timer, which
                turn = page.inner_text("#g-turn")
                assert all(n in turn for n in turn_nicks), (which, turn)  # the whole text, not cut
                assert bar_problems(page, width) == [], which
                page.screenshot(path=str(screenshot_dir / (
                    f"table_topbar_{width}_{lang}_{'spect' if spectator else 'player'}"
                    f"{'_cheater' if cheater else ''}{'_timer' if timer else ''}{'_chat' if chat else ''}"
                    f"_{len(turn_nicks[0])}.png")),
                    clip={"x": 0, "y": 0, "width": SIZES[width]["width"], "height": 160})
    finally:
        context.close()
    assert not page.errors, page.errors


@pytest.mark.parametrize("width", [320, 390])
@pytest.mark.parametrize("text_key", ["cheater_check", "took"])
def test_a_long_turn_text_reads_whole_on_a_phone(browser, harness, screenshot_dir, width, text_key):  # noqa: F811
    """The longest turn texts of a player (the check window, a defender who took) wrap, never cut."""
    context, page = new_page(browser, harness, viewport=SIZES[width], is_mobile=True, has_touch=True)
    try:
        open_sample(page, harness, text_key)
        page.wait_for_timeout(250)
        turn = page.locator("#g-turn")
        assert turn.evaluate("e => e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1")
        assert bar_problems(page, width) == []
        page.screenshot(path=str(screenshot_dir / f"table_topbar_{width}_{text_key}.png"),
                        clip={"x": 0, "y": 0, "width": width, "height": 160})
    finally:
        context.close()
    assert not page.errors, page.errors


@pytest.mark.parametrize("lang, text", [("ru", "Ждём: Вася (ходит бот)"), ("en", "Waiting for: Вася (a bot plays)")])
def test_the_bar_says_when_a_bot_plays_the_awaited_seat(browser, harness, lang, text):  # noqa: F811
    context, page = new_page(browser, harness, locale=f"{lang}-{lang.upper()}", extra_http_headers={"Accept-Language": lang})
    try:
        open_sample(page, harness, "podkidnoy4")
        f = copy.deepcopy(SAMPLES["podkidnoy4"]["frame"])
        f["version"] += 1
        f["view"].update(turn=[1], legal=[], attacker=1)
        f["seats"][0].update(bot=True, takeover=True, bot_level="master")
        page.evaluate("(f) => window.__table.receive(f)", f)
        assert page.inner_text("#g-turn") == text
    finally:
        context.close()
    assert not page.errors, page.errors


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("width", [1280, 390])
def test_the_chats_placeholder_reads_whole(browser, harness, screenshot_dir, lang, width):  # noqa: F811
    phone = width < 700
    options = {"is_mobile": True, "has_touch": True} if phone else {}
    context, page = new_page(browser, harness, viewport=SIZES[width], locale=f"{lang}-{lang.upper()}",
                             extra_http_headers={"Accept-Language": lang}, **options)
    try:
        open_sample(page, harness, "podkidnoy4")
        page.evaluate("""() => { const c = document.getElementById('chat'); c.hidden = false; c.classList.add('open'); document.getElementById('chat-form').hidden = false; }""")
        field = page.locator("#chat-input")
        field.wait_for(state="visible")
        fits = field.evaluate("""e => { const st = getComputedStyle(e); const ctx = document.createElement('canvas').getContext('2d');
            ctx.font = `${st.fontStyle} ${st.fontWeight} ${st.fontSize} ${st.fontFamily}`;
            const room = e.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight);
            return [ctx.measureText(e.placeholder).width, room, e.placeholder]; }""")
        assert fits[0] <= fits[1], fits
        page.screenshot(path=str(screenshot_dir / f"table_chat_placeholder_{width}_{lang}.png"))
    finally:
        context.close()
